"""Sensor logs under scenarios/, replayed; each states what must come out.

A scenario is a replay log (see ``boardctl.board.replay``) with two kinds of
special comment: ``#! fen <FEN>`` / ``#! variant <name>`` set up the game, and
``#> <line>`` is a line the replay must print, in order, all of them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from boardctl.board.replay import replay
from boardctl.rules import Game, get_variant

SCENARIOS = sorted(Path(__file__).with_name("scenarios").glob("*.log"))


def run(path: Path) -> tuple[list[str], list[str]]:
    text = path.read_text()
    fen, variant, expected = None, "falcon", []
    for line in text.splitlines():
        if line.startswith("#! fen "):
            fen = line[len("#! fen ") :].strip()
        elif line.startswith("#! variant "):
            variant = line[len("#! variant ") :].strip()
        elif line.startswith("#> "):
            expected.append(line[3:].rstrip())
        elif line.rstrip() == "#>":
            expected.append("")
    return replay(text, Game(get_variant(variant), fen)), expected


def test_there_are_scenarios():
    assert len(SCENARIOS) >= 20
    # The hexagon's own, in cell names: the reconciler knows no board shape.
    assert sum("#! variant falcon-hex" in p.read_text() for p in SCENARIOS) >= 20


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path):
    got, expected = run(path)
    assert got == expected
