"""The documentation holds to the code.

Every ``boardctl …`` that the README and the site's pages name is a command with
those options (a renamed flag or preset fails here, not for the reader); the
README's quick start runs as written, in a fresh folder; CI runs the README's test
command; and the site's hooks send each link where the site serves its target.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from boardctl.cliargs import build_parser
from boardctl.errors import BoardctlError
from boardctl.puzzles import find as find_puzzle
from boardctl.rules.variants import get_variant

from .pathimport import import_file

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

hooks = import_file(ROOT / "scripts/mkdocs_hooks.py", "mkdocs_hooks")

# The site's pages: docs/, and the documents published from beside their code.
PAGES = sorted(
    [*ROOT.glob("docs/**/*.md"), *(ROOT / p for p in hooks.OUTSIDE_DOCS if p.endswith(".md"))]
)
FENCE = re.compile(r"^\s*(```|~~~)\s*(\w*)")
SHELLS = {"sh", "bash", "shell", "console"}
# A name standing for a value in a synopsis: FEN, GAME, HALL.toml, OUT.png.
PLACEHOLDER = re.compile(r"[A-Z][A-Z0-9_]*(\.\w+)?")


@dataclass(frozen=True)
class Block:
    """A fenced block: its language and its lines."""

    language: str
    lines: tuple[str, ...]


def _read(path: Path) -> tuple[list[Block], str]:
    """The fenced blocks of a Markdown file, and its prose with them taken out."""
    blocks: list[Block] = []
    prose: list[str] = []
    fenced: tuple[str, list[str]] | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        fence = FENCE.match(line)
        if fence and fenced is None:
            fenced = (fence[2], [])
        elif fence and fenced is not None:
            blocks.append(Block(fenced[0], tuple(fenced[1])))
            fenced = None
        elif fenced is not None:
            fenced[1].append(line)
        else:
            prose.append(line)
    return blocks, "\n".join(prose)


def _invocation(text: str) -> tuple[str, list[str]] | None:
    """How ``text`` calls boardctl, and the words after it, where it is a boardctl
    command as a shell line would be (``boardctl …``, ``$ boardctl …``,
    ``.venv/bin/boardctl …``, ``python -m boardctl …``); else None (``sudo -u
    boardctl``, "this boardctl speaks")."""
    words = text.split(" #")[0].split()
    for i, word in enumerate(words):
        before = words[i - 1] if i else "$"
        if word.endswith("/bin/boardctl") or (word == "boardctl" and before in ("$", "-m")):
            return word, words[i + 1 :]
    return None


def _command(text: str) -> list[str] | None:
    """The words after ``boardctl`` where ``text`` is a boardctl command, else None."""
    called = _invocation(text)
    return None if called is None else called[1]


def _mentions(path: Path) -> list[list[str]]:
    """Every boardctl command ``path`` names: in code spans, and on lines of its
    fenced blocks, with the words of a synopsis (``[--all]``, ``a\\|b``) as written."""
    blocks, prose = _read(path)
    texts = [" ".join(span.split()) for span in re.findall(r"`([^`]+)`", prose)]
    texts += [line.strip() for block in blocks for line in block.lines]
    found = (_command(text) for text in texts)
    return [words for words in found if words and words[0] != "…"]


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def _problems(words: list[str]) -> list[str]:
    """What in a documented command the command line does not have: the command,
    an option, a choice of an option, a preset or a puzzle."""
    parser = build_parser()
    pieces = [[p for p in w.replace("\\|", "|").strip("[]").split("|") if p] for w in words]
    pieces = [p for p in pieces if p]
    if not pieces:
        return []
    commands = _commands()
    first = pieces[0][0]
    if first.startswith("-"):
        options = {s for a in parser._actions for s in a.option_strings}
        return [] if first in options else [f"boardctl has no option {first}"]
    if first not in commands:
        return [f"boardctl has no command {first}"]
    actions = {s: a for a in commands[first]._actions for s in a.option_strings}
    problems = []
    for i, word in enumerate(pieces[1:], start=2):
        following = pieces[i] if i < len(pieces) else []
        for piece in word:
            if not piece.startswith("--"):
                continue
            action = actions.get(piece)
            if action is None:
                problems.append(f"boardctl {first} has no option {piece}")
            elif action.nargs != 0:
                problems += _value_problems(first, action, following)
    return problems


def _value_problems(command: str, action: argparse.Action, values: list[str]) -> list[str]:
    literal = [v for v in values if not PLACEHOLDER.fullmatch(v) and not v.startswith("-")]
    problems = []
    for value in literal:
        option = f"boardctl {command} {action.option_strings[0]}"
        if action.choices is not None and value not in action.choices:
            problems.append(f"{option} has no choice {value}")
        lookup = {"variant": get_variant, "puzzle": find_puzzle}.get(action.dest)
        if lookup is not None:
            try:
                lookup(value)
            except BoardctlError as exc:
                problems.append(f"{option} {value}: {exc}")
    return problems


MENTIONS = sorted(
    {
        (str(path.relative_to(ROOT)), " ".join(words))
        for path in [README, *PAGES]
        for words in _mentions(path)
    }
)


def test_the_pages_name_many_commands():
    """The reader below reads what the pages write: a change to how they write a
    command (no longer in code, say) must not leave it checking nothing."""
    assert len(MENTIONS) > 50
    named = {command.split()[0] for _, command in MENTIONS}
    assert {"sim", "run", "pgn", "review", "perft", "replay", "uci", "diag"} <= named


@pytest.mark.parametrize(("page", "command"), MENTIONS)
def test_every_command_the_docs_name_has_those_options(page, command):
    assert _problems(command.split()) == [], f"{page}: boardctl {command}"


def test_the_command_line_page_lists_every_command():
    _, prose = _read(ROOT / "docs" / "cli.md")
    listed = {m[0] for m in re.findall(r"`boardctl ([a-z]+)( |`)", prose)}
    assert listed == set(_commands())


@pytest.mark.parametrize(
    "words",
    [
        "sim --mdoe teaching",
        "sim --mode teacher",
        "sim --variant falcon-hexagonal",
        "sim --puzzle duke-z",
        "pgn [GAME \\| --every]",
        "frobnicate --all",
        "--hepl",
    ],
)
def test_a_command_the_code_does_not_have_is_caught(words):
    assert _problems(words.split())


# ------------------------------------------------------------ the README's quick start


def _shell_lines(path: Path) -> list[tuple[str, bool]]:
    """Each line of the shell blocks of ``path``, and whether ``source
    .venv/bin/activate`` came before it in its block."""
    lines = []
    for block in _read(path)[0]:
        if block.language not in SHELLS:
            continue
        active = False
        for line in block.lines:
            command = line.split(" #")[0].strip()
            if command:
                lines.append((command, active))
            active = active or command == "source .venv/bin/activate"
    return lines


QUICK_START = _shell_lines(README)


def _make_targets() -> set[str]:
    makefile = (ROOT / "Makefile").read_text()
    return set(re.findall(r"^([A-Za-z][\w.-]*):", makefile, flags=re.M))


def test_the_readme_venv_is_the_one_make_makes():
    assert re.search(r"^VENV \?= \.venv$", (ROOT / "Makefile").read_text(), flags=re.M)
    assert ("make run", False) in QUICK_START and ("make test", False) in QUICK_START


def test_ci_runs_the_readmes_test_command_and_nothing_else():
    script = (ROOT / ".ci" / "run").read_text().splitlines()
    steps = [s for s in script if s and not s.startswith(("#", "set ", "cd "))]
    assert steps == ["make test"]


@pytest.mark.parametrize("line", [line for line, _ in QUICK_START if line.startswith("make ")])
def test_each_make_target_the_readme_names_exists(line):
    assert line.split()[1] in _make_targets()


@pytest.mark.parametrize(
    ("page", "line", "active"),
    [
        (str(path.relative_to(ROOT)), line, active)
        for path in [README, *PAGES]
        for line, active in _shell_lines(path)
        if _command(line) is not None
    ],
)
def test_each_boardctl_line_to_type_is_reached_and_parses(page, line, active):
    """A line to type calls boardctl by the path `make run` installs it at (or the
    Pi's installer), or by name after the environment is activated (the README's
    second way); and it parses whole."""
    called = _invocation(line)
    assert called is not None
    program, words = called
    reached = {".venv/bin/boardctl", "/opt/boardctl/venv/bin/boardctl"}
    assert program in reached or (program == "boardctl" and active), line
    assert not any(PLACEHOLDER.fullmatch(w) for w in words), line
    try:
        build_parser().parse_args(words)
    except SystemExit as stop:  # --help prints the help and exits, with 0
        assert stop.code == 0 and {"-h", "--help"} & set(words), line
    assert _problems(words) == []


def _runs(line: str) -> bool:
    """Whether the test runs a README line: not a make target, the window or the
    site's server, which do not end; a command needing a stored game or a board
    only parses (above)."""
    words = _command(line)
    if words is None:
        return not line.startswith(("make ", ".venv/bin/mkdocs "))
    return words[0] in ("--help", "perft", "puzzles") or words[:2] == ["sim", "--headless"]


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A folder where ``.venv`` is this environment, as in a checkout after `make run`."""
    if not (Path(sys.prefix) / "bin" / "activate").exists():
        pytest.skip("the tests do not run in a virtual environment")
    (tmp_path / ".venv").symlink_to(sys.prefix)
    return tmp_path


@pytest.mark.parametrize(
    "lines",
    [[line for line, _ in QUICK_START if _runs(line) or line.startswith("source ")]],
    ids=["quick start"],
)
def test_the_readmes_commands_run_as_written(lines, checkout):
    """The README's lines in order, in one shell, as a newcomer types them: each
    ends well and says something (the headless game its moves)."""
    assert len([line for line in lines if _command(line) is not None]) >= 3
    env = {k: v for k, v in os.environ.items() if k not in ("STATE_DIRECTORY", "VIRTUAL_ENV")}
    env["XDG_STATE_HOME"] = str(checkout / "state")
    for i, line in enumerate(lines):
        # Each line in a shell of its own, after the lines before it that set it up.
        setup = [s for s in lines[:i] if s.startswith("source ")]
        result = subprocess.run(
            ["bash", "-ec", "\n".join([*setup, line])],
            cwd=checkout,
            env=env,
            capture_output=True,
            text=True,
            timeout=240,
            check=False,
        )
        assert result.returncode == 0, f"{line}\n{result.stderr}"
        if _command(line) is not None:
            assert result.stdout.strip(), line
        if "--headless" in line:
            assert "move e2e4" in result.stdout.splitlines(), result.stdout


@pytest.mark.parametrize(
    "line", [line for line, _ in QUICK_START if line.startswith(".venv/bin/mkdocs ")]
)
def test_the_readmes_site_commands_exist(line, checkout):
    words = line.split()
    result = subprocess.run(
        [*words[:2], "--help"], cwd=checkout, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr


# ------------------------------------------------------------ the site's links


@pytest.mark.parametrize(
    ("page", "target", "site"),
    [
        ("raspberry-pi.md", "../hardware/README.md", "hardware/README.md"),
        ("index.md", "../firmware/PROTOCOL.md", "firmware/PROTOCOL.md"),
        ("hardware/hex/README.md", "../../docs/rules-hex.md", "../../rules-hex.md"),
        ("firmware/PROTOCOL.md", "../docs/rules-hex.md", "../rules-hex.md"),
        ("firmware/README.md", "../hardware/hex/README.md", "../hardware/hex/README.md"),
        ("hardware/README.md", "hex/README.md", "hex/README.md"),
        ("design/screen.md", "../screens.md", "../screens.md"),
        ("speech/README.md", "sample-game.wav", "sample-game.wav"),
        ("cli.md", "variants.md", "variants.md"),
        # Not on the site: left for strict mode to report.
        ("cli.md", "../setup.py", "../setup.py"),
        ("cli.md", "https://example.org/a.md", "https://example.org/a.md"),
    ],
)
def test_a_link_as_the_repository_lays_files_out_is_mapped_to_the_site(page, target, site):
    assert hooks.site_link(page, target) == site


def test_the_documents_the_site_publishes_from_beside_their_code_exist():
    for path in hooks.OUTSIDE_DOCS:
        assert (ROOT / path).is_file(), path


def test_a_pipe_in_a_tables_code_span_loses_its_escape_on_the_site():
    row = "| `boardctl pgn [GAME \\| --all]` | a \\| b |"
    assert hooks.unescape_table_pipes(row) == "| `boardctl pgn [GAME | --all]` | a \\| b |"
    assert hooks.unescape_table_pipes("`a \\| b`") == "`a \\| b`"
