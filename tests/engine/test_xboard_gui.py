"""XBoard itself plays ``boardctl xboard`` against Fairy-Max in ``variant falcon``.

The real client (Debian's ``xboard``) runs headless on a virtual X display
(``Xvfb``), loads boardctl as its first engine as a player would, and plays a
two-game match at a few seconds a game against Fairy-Max (``fairymax``),
saving the games as PGN.  The games are read back with boardctl's rules
(the ``falcon-xboard`` preset, XBoard's castling): every move must be legal,
and neither XBoard's log nor its result comments may show boardctl refusing
a move, making an illegal one, erring or claiming falsely.  Who wins is not
asked: a game decided by the clock on a loaded machine says nothing of the
protocol.  Without xboard, Xvfb or fairymax (``make system-deps`` installs
them) the test skips and says which is missing.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from boardctl.engine.xboard import DEFAULT_PATH as FAIRYMAX
from boardctl.rules import get_variant
from boardctl.rules.pgn import read_games

XBOARD = "/usr/games/xboard"
XVFB = shutil.which("Xvfb")
REPO = Path(__file__).resolve().parents[2]
GAMES = 2
SECONDS_A_GAME = 5  # each side's clock for a game, no increment
DRAW_AFTER_MOVES = 40  # XBoard adjudicates a draw after this many moves: a bounded run
# Milliseconds XBoard waits between the games (its default, 10 s, is for engines
# without ping, whose move thought on as a game ended could land in the next;
# both of these answer ping, so XBoard knows when they have caught up).
MATCH_PAUSE_MS = 500
RUN_LIMIT = 240  # seconds for the whole match before it counts as hung
# XBoard's words for a game lost by what an engine did, not by the board or the clock.
BAD_ENDINGS = ("illegal", "false", "crash", "disconnect", "forfeit", "error")

_missing = [
    f"{what} ({package})"
    for what, package, there in (
        ("xboard", "Debian package xboard", os.access(XBOARD, os.X_OK)),
        ("Xvfb", "Debian package xvfb", XVFB is not None),
        ("Fairy-Max", "Debian package fairymax", os.access(FAIRYMAX, os.X_OK)),
    )
    if not there
]
pytestmark = [
    pytest.mark.timeout(RUN_LIMIT + 60),
    pytest.mark.skipif(
        bool(_missing), reason=f"needs {', '.join(_missing)}: make system-deps installs them"
    ),
]


@pytest.fixture
def display():
    """A virtual X display of its own (Xvfb picks a free number and says which)."""
    assert XVFB is not None
    server = subprocess.Popen(
        [XVFB, "-displayfd", "1", "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert server.stdout is not None
        number = server.stdout.readline().strip()
        assert number.isdigit(), "Xvfb did not start"
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(60)  # Xvfb, ending at its own pace on a loaded machine


def test_xboard_plays_boardctl_against_fairy_max_and_every_move_is_legal(tmp_path, display):
    pgn, log = tmp_path / "games.pgn", tmp_path / "xboard.debug"
    command = [
        XBOARD,
        "-variant", "falcon",
        "-fcp", f"{sys.executable} -m boardctl xboard", "-fd", str(REPO),
        "-scp", FAIRYMAX,
        "-matchGames", str(GAMES), "-matchPause", str(MATCH_PAUSE_MS),
        "-tc", f"0:{SECONDS_A_GAME:02d}", "-inc", "0",
        "-ponderNextMove", "false",  # two engines thinking at once on a small machine
        "-adjudicateDrawMoves", str(DRAW_AFTER_MOVES),
        "-saveGameFile", str(pgn),
        "-debug", "-nameOfDebugFile", str(log),
        "-xexit", "-noGUI",
    ]  # fmt: skip
    # HOME: XBoard saves its settings there on exit; the test leaves the user's alone.
    env = dict(os.environ, DISPLAY=display, HOME=str(tmp_path))
    run = subprocess.run(
        command, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=RUN_LIMIT
    )
    assert pgn.exists(), f"XBoard saved no game (exit {run.returncode}): {run.stderr[-2000:]}"
    text = pgn.read_text()

    # XBoard's "falcon" is boardctl's falcon-xboard preset (its castling).
    ours = get_variant("falcon-xboard").pgn_name
    games = read_games(text.replace('[Variant "falcon"]', f'[Variant "{ours}"]'))

    assert len(games) == GAMES
    for tags, game in games:
        assert {tags["White"].split()[0], tags["Black"].split()[0]} == {"boardctl", "Fairy-Max"}
        assert tags["Result"] != "*"
        assert len(game.moves) >= 10
    comments = [comment.lower() for comment in re.findall(r"\{[^}]*\}", text)]
    assert not [c for c in comments if any(word in c for word in BAD_ENDINGS)], comments
    said = [line for line in log.read_text(errors="replace").splitlines() if "<first :" in line]
    assert said, "boardctl said nothing"
    assert not [line for line in said if "Error" in line or "Illegal" in line], said[-20:]
