"""Temporary copies of a file that is replaced whole, such as the
configuration (:func:`boardctl.configfile.write_atomic`).

A copy is made beside its file, so that the rename is atomic, and with the
file's own mode from the moment it exists: the configuration holds the web
page's PIN, and a copy must never be readable by more people than the file.
A process killed between making a copy and renaming it (SIGKILL, a power
cut) leaves the copy behind with the PIN inside; :func:`remove_stale_copies`
removes them when the board next starts.  Nothing here imports tomlkit, so
the board runs it without the web page's packages.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import stat
from pathlib import Path


def copy_name(path: Path) -> str:
    """A new name for a temporary copy of ``path``, beside it: hidden, and
    ending in ``.new``."""
    return f".{path.name}.{secrets.token_hex(8)}.new"


def _is_copy_name(path: Path, name: str) -> bool:
    return re.fullmatch(rf"\.{re.escape(path.name)}\.[0-9a-f]{{16}}\.new", name) is not None


def create_copy(path: Path, mode: int) -> tuple[int, Path]:
    """A new, empty temporary copy of ``path`` beside it, open for writing,
    created with ``mode`` (the umask may narrow it, never widen it): its
    descriptor and its path.

    :raises OSError: when it cannot be made.
    """
    temp = path.parent / copy_name(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    return os.open(temp, flags, mode), temp


def remove_stale_copies(path: Path) -> list[str]:
    """Remove the temporary copies of ``path`` (the file a link names, if it
    is one) that a killed writer left beside it; their names.  Only this
    file's copies, and only files: nothing else in the folder is touched."""
    target = Path(os.path.realpath(path))
    removed = []
    try:
        names = os.listdir(target.parent)
    except OSError:
        return []  # no folder to clean: nothing was written there either
    for name in names:
        if not _is_copy_name(target, name):
            continue
        copy = target.parent / name
        with contextlib.suppress(OSError):
            if stat.S_ISDIR(os.lstat(copy).st_mode):
                continue
            os.unlink(copy)
            removed.append(name)
    return sorted(removed)
