"""The hexagonal presets' move generator against RULES-HEX.md and perft_hex.txt."""

from __future__ import annotations

import random

import pytest

from boardctl.rules import Position, divide, get_variant, perft
from boardctl.rules.moves import CASTLE

from .helpers import perft_cases

# RULES-HEX.md 3.1: White's 67 legal first moves in Falcon Hexagonal Chess.
FIRST_MOVES = {
    "h1": "h2 i2",
    "f2": "e4 f3 f4 f5",
    "c5": "d5 e5 f5 g5",
    "k1": "g5 h4 i3 j2",
    "g2": "f4 h3",
    "g3": "b13 c11 d9 e4 e7 f5 h4 i2 i5 j6 k7 l8",
    "g4": "e5 f3 h2 i3",
    "d4": "b7 c7 f5",
    "j1": "h4 k3 l2",
    "e3": "b8 c8 d7 i2",
    "i1": "e4 j4 k4 l3",
    "b6": "b7 b8",
    "c6": "c7 c8",
    "d6": "d7 d8",
    "e6": "e7 e8",
    "f6": "f7 f8",
    "g6": "g7",
    "h5": "h6 h7",
    "i4": "i5 i6",
    "j3": "j4 j5",
    "k2": "k3 k4",
    "l1": "l2 l3",
}


CASES = perft_cases("perft_hex.txt")
SHALLOW = [c for c in CASES if sum(c[3][:3]) < 60_000]


def test_the_67_first_moves_of_falcon_hex_are_the_rules_list():
    pos = Position(None, get_variant("falcon-hex"))
    expected = {frm + to for frm, tos in FIRST_MOVES.items() for to in tos.split()}
    assert len(expected) == 67
    assert {pos.uci(m) for m in pos.legal_moves()} == expected


@pytest.mark.parametrize(("variant", "d1", "d2"), [("falcon-hex", 67, 4464), ("glinski", 51, 2586)])
def test_the_reference_counts_of_both_openings(variant, d1, d2):
    pos = Position(None, get_variant(variant))
    assert perft(pos, 1) == d1
    assert perft(pos, 2) == d2
    assert sum(n for _, n in divide(pos, 2)) == d2


@pytest.mark.parametrize(("name", "variant", "fen", "counts"), SHALLOW, ids=[c[0] for c in SHALLOW])
def test_recorded_counts(name, variant, fen, counts):
    pos = Position(fen, get_variant(variant))
    for depth, expected in enumerate(counts[:3], start=1):
        if expected > 60_000:
            break
        assert perft(pos, depth) == expected, f"{name} depth {depth}"
    assert pos.fen() == fen


def _by_trial(pos: Position) -> list[int]:
    """The legal moves found the slow way: every pseudo-legal move made and
    kept when the mover's king is not attacked afterwards."""
    us = pos.turn
    kept = []
    for code in pos.pseudo_legal_codes():
        pos.make(code)
        if not pos.is_attacked(pos.kings[us], us ^ 1):
            kept.append(code)
        pos.unmake()
    return sorted(kept)


@pytest.mark.parametrize("variant", ["falcon-hex", "glinski"])
def test_legal_moves_equal_pseudo_legal_moves_that_keep_the_king_safe(variant):
    """The generator's shortcuts (pins, falcon shields, evasions) against make
    and test, over random games, with the counting leaf and the capture list."""
    rng = random.Random(14)
    v = get_variant(variant)
    starts = [v.start_fen] + [c[2] for c in CASES if c[1] == variant]
    for game in range(12):
        pos = Position(starts[game % len(starts)], v)
        for _ in range(80):
            codes = sorted(pos.legal_codes())
            assert codes == _by_trial(pos), pos.fen()
            assert pos.count_legal() == len(codes)
            captures = set(pos.legal_captures())
            assert captures <= set(codes)
            if not codes:
                break
            assert all(code >> 17 != CASTLE for code in codes)
            hashed = pos.hash
            pos.make(rng.choice(codes))
            assert pos.hash == pos.compute_hash()
            assert Position(pos.fen(), v).hash == pos.hash
            pos.unmake()
            assert pos.hash == hashed
            pos.make(rng.choice(codes))
