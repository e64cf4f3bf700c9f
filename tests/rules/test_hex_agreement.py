"""The rules core against the naive hexagonal generator (tests/naive_hex.py).

perft_hex.txt holds positions composed to test one rule each, with the naive
generator's counts; the core must reproduce every count, and where it does not, the
failure names the first moves whose subtrees differ. Random games from both openings
then compare the two generators' legal moves ply by ply.
"""

from __future__ import annotations

import naive_hex as naive
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardctl.rules import Position, divide, get_variant, perft

from .helpers import perft_cases

# Larger recorded counts (the openings' depth 4, 7 and 21 million) are skipped so the
# file runs in seconds; the counts up to here take the core about 6 s of CPU in all.
MAX_LEAVES = 500_000


CASES = perft_cases("perft_hex.txt")
IDS = [f"{case[0]} ({case[1]})" for case in CASES]


def _divide_difference(fen: str, variant: str, depth: int) -> str:
    """The moves on which the core and the naive generator part, for a failure message."""
    core = dict(divide(Position(fen, get_variant(variant)), depth))
    reference = naive.divide(fen, depth, variant)
    lines = [
        f"only in the core: {sorted(set(core) - set(reference))}",
        f"only in the naive generator: {sorted(set(reference) - set(core))}",
    ]
    lines += [
        f"{move}: core {core[move]}, naive {reference[move]}"
        for move in sorted(set(core) & set(reference))
        if core[move] != reference[move]
    ]
    if core == reference:
        lines = ["the naive generator counts as the core does now: the recorded count is stale"]
    return "\n".join(lines)


@pytest.mark.parametrize(("label", "variant", "fen", "counts"), CASES, ids=IDS)
def test_core_perft_matches_the_recorded_counts(label, variant, fen, counts):
    pos = Position(fen, get_variant(variant))
    for depth, expected in enumerate(counts, start=1):
        if expected > MAX_LEAVES:
            break
        got = perft(pos, depth)
        if got != expected:
            pytest.fail(
                f"{label}, depth {depth}: core {got}, naive {expected}\n"
                + _divide_difference(fen, variant, depth)
            )
    assert pos.fen() == fen  # the FEN reads back as written, and perft left nothing behind


@st.composite
def games(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A variant and random legal moves from its opening, chosen by the naive generator."""
    variant = draw(st.sampled_from(["falcon-hex", "glinski"]))
    position = naive.parse_fen(naive.VARIANTS[variant].start, naive.VARIANTS[variant])
    moves = []
    for _ in range(draw(st.integers(0, 40))):
        legal = naive.legal_move_list(position)
        if not legal:
            break
        move = draw(st.sampled_from(legal))
        moves.append(move.notation(position.variant))
        position = naive.make_move(position, move)
    return variant, moves


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_legal_moves_agree_along_random_games(game):
    variant, moves = game
    start = naive.VARIANTS[variant].start
    pos = Position(start, get_variant(variant))
    reference = naive.parse_fen(start, naive.VARIANTS[variant])
    for ply, text in enumerate([*moves, None]):
        ours = {pos.uci(move): move for move in pos.legal_moves()}
        theirs = {m.notation(reference.variant): m for m in naive.legal_move_list(reference)}
        assert sorted(ours) == sorted(theirs), f"after {moves[:ply]} in {pos.fen()}"
        if text is None:
            break
        pos.push(ours[text])
        reference = naive.make_move(reference, theirs[text])
