"""MkDocs hooks (mkdocs.yml ``hooks:``): the documents that live beside their code
become pages of the site, and every relative link works both in the repository and
on the site.

How to wire the board (hardware/), the Pico's firmware and its wire protocol
(firmware/) and the two search cores' contract (boardctl/engine/README.md) stay where
they are, beside what they describe, because tests read them there.  The site
publishes them at their repository paths.  A page links as the repository lays
files out (``../hardware/README.md`` from docs/, ``../docs/rules-hex.md`` from
firmware/), which is what GitHub shows; before MkDocs reads a page, each link is
rewritten to where its target is on the site (docs/ is the site's root), so that
``mkdocs build --strict`` checks every link as the site will serve it.

GitHub needs a pipe inside a table's code span written ``\\|``; Python-Markdown keeps
the backslash there, so a table row's code spans lose it on the site.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
DOCS = "docs/"

# Repository files published at their own path on the site: pages, and what they link to.
OUTSIDE_DOCS = (
    "hardware/README.md",
    "hardware/hex/README.md",
    "firmware/README.md",
    "firmware/PROTOCOL.md",
    "firmware/vectors.txt",
    "boardctl/engine/README.md",
    "systemd/config.example.toml",
)

# A Markdown link's target, with an optional #anchor and "title".
LINK = re.compile(r"(\]\()([^)\s#]+)(#[^)\s]*)?((?:\s+\"[^\"]*\")?\))")
CODE_SPAN = re.compile(r"`[^`\n]*`")


def on_files(files: Files, config: Any) -> Files:
    for path in OUTSIDE_DOCS:
        files.append(File(path, str(ROOT), config["site_dir"], config["use_directory_urls"]))
    return files


def _repository_path(src_uri: str) -> str:
    return src_uri if src_uri in OUTSIDE_DOCS else DOCS + src_uri


def _site_path(repository_path: str) -> str | None:
    if repository_path.startswith(DOCS):
        return repository_path.removeprefix(DOCS)
    return repository_path if repository_path in OUTSIDE_DOCS else None


def site_link(page_src_uri: str, target: str) -> str:
    """``target``, a link on the page ``page_src_uri`` as the repository lays files
    out, as a link on the site; a link to anywhere else is left as it is (an
    address, or a file the site does not publish, which strict mode reports)."""
    if "://" in target or target.startswith(("/", "mailto:")):
        return target
    page = _repository_path(page_src_uri)
    site = _site_path(posixpath.normpath(posixpath.join(posixpath.dirname(page), target)))
    if site is None:
        return target
    return posixpath.relpath(site, posixpath.dirname(page_src_uri) or ".")


def unescape_table_pipes(line: str) -> str:
    """A table row as Python-Markdown reads it: ``\\|`` in a code span as ``|``."""
    if not line.lstrip().startswith("|"):
        return line
    return CODE_SPAN.sub(lambda m: m[0].replace("\\|", "|"), line)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    src_uri = page.file.src_uri
    linked = LINK.sub(
        lambda m: m[1] + site_link(src_uri, m[2]) + (m[3] or "") + m[4],
        markdown,
    )
    return "\n".join(unescape_table_pipes(line) for line in linked.split("\n"))
