"""Perft against the recorded counts and against the naive second generator."""

from __future__ import annotations

import naive_falcon as naive
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardctl.rules import VARIANTS, Geometry, Position, divide, get_variant, perft

from .helpers import perft_cases

CASES = perft_cases("perft.txt")
# The naive generator knows the rectangular presets only (hex: test_hex_perft.py).
SQUARE_VARIANTS = sorted(name for name, v in VARIANTS.items() if isinstance(v.geometry, Geometry))


@pytest.mark.parametrize(
    ("name", "variant", "fen", "counts"), CASES, ids=[f"{c[0]} ({c[1]})" for c in CASES]
)
def test_recorded_counts(name, variant, fen, counts):
    pos = Position(fen, get_variant(variant))
    for depth, expected in enumerate(counts, start=1):
        assert perft(pos, depth) == expected, f"{name} depth {depth}"
    assert pos.fen() == fen  # make/unmake left nothing behind


@pytest.mark.parametrize(
    ("name", "variant", "fen", "counts"), CASES, ids=[f"{c[0]} ({c[1]})" for c in CASES]
)
def test_divide_matches_the_naive_generator(name, variant, fen, counts):
    pos = Position(fen, get_variant(variant))
    assert dict(divide(pos, 2)) == naive.divide(fen, 2, variant)


@st.composite
def positions(draw: st.DrawFn) -> tuple[str, str]:
    """A position reached by random legal moves from a start or a test position."""
    variant = draw(st.sampled_from(SQUARE_VARIANTS))
    starts = [VARIANTS[variant].start_fen] + [c[2] for c in CASES if c[1] == variant]
    pos = Position(draw(st.sampled_from(starts)), VARIANTS[variant])
    for _ in range(draw(st.integers(0, 40))):
        codes = pos.legal_codes()
        if not codes:
            break
        pos.make(draw(st.sampled_from(codes)))
    return variant, pos.fen()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_legal_moves_match_the_naive_generator_in_random_positions(case):
    variant, fen = case
    pos = Position(fen, VARIANTS[variant])
    ours = sorted(pos.uci(m) for m in pos.legal_moves())
    assert ours == naive.legal_moves(fen, variant)
    assert pos.count_legal() == len(ours)
