"""The compiled core's static exchange evaluation (``Core.see``).

Quiescence skips the captures it says lose, and move ordering puts them
last, so a wrong exchange value hides a winning capture from the search or
lets a losing one through.  Each position below is built so that its value
is worked out by hand; where a falcon's open or blocked path decides it,
the rules core confirms the setup first.
"""

from __future__ import annotations

import random

import pytest

from boardctl.engine import core, params
from boardctl.rules import VARIANTS, Position, get_variant
from boardctl.rules.notation import parse_uci

pytestmark = pytest.mark.skipif(not core.available(), reason="the compiled core is not built")

VALUE = dict(zip("pnbrqkf", (params.ORDER_VALUE[i] for i in (1, 2, 3, 4, 5, 6, 7)), strict=True))
FALCON = get_variant("falcon")


def _see(fen: str, move: str, variant: str = "falcon") -> int:
    pos = Position(fen, get_variant(variant))
    engine = core.build(pos.variant, tt_bits=10)
    core.load(engine, pos)
    return engine.see(pos.code_of(parse_uci(pos, move)))


def _replies(fen: str, move: str) -> set[str]:
    pos = Position(fen, FALCON)
    pos.make(pos.code_of(parse_uci(pos, move)))
    return {pos.uci(m) for m in pos.legal_moves()}


# A black pawn on e5 that the white queen takes; the black falcon on f8
# reaches e5 through f7-f6, f7-e6 or e7-e6.
FALCON_BLOCKED = "5f3k/5p4/4p5/4p5/10/10/10/K3Q5 w - - 0 1"  # f7 and e6 taken: all three shut
FALCON_OPEN = "5f3k/10/4p5/4p5/10/10/10/K3Q5 w - - 0 1"  # f7-f6 open


def test_the_setups_falcon_paths_are_as_the_rules_say():
    assert "f8e5" not in _replies(FALCON_BLOCKED, "e1e5")
    assert "f8e5" in _replies(FALCON_OPEN, "e1e5")


@pytest.mark.parametrize(
    ("fen", "move", "expected"),
    [
        # Nothing defends: the victim is won.
        ("9k/10/10/3n6/4P5/10/10/K9 w - - 0 1", "e4d5", VALUE["n"]),
        (FALCON_BLOCKED, "e1e5", VALUE["p"]),
        # The falcon takes the queen back: a pawn for a queen.
        (FALCON_OPEN, "e1e5", VALUE["p"] - VALUE["q"]),
        # A rook defended by a pawn, taken by a knight: the trade is still worth it.
        ("9k/10/3p6/4r5/10/5N4/10/K9 w - - 0 1", "f3e5", VALUE["r"] - VALUE["n"]),
        # Rook takes a pawn that a rook defends: lost alone ...
        ("4r4k/4p5/10/10/10/10/4R5/K9 w - - 0 1", "e2e7", VALUE["p"] - VALUE["r"]),
        # ... but won with a second rook behind the first (seen once the first has gone).
        ("4r4k/4p5/10/10/10/10/4R5/K3R5 w - - 0 1", "e2e7", VALUE["p"]),
        # A rook takes a pawn that a knight defends, and the queen behind takes
        # the knight: the knight's side still takes, to lose less.
        ("3n5k/10/4p5/10/10/10/4R5/K3Q5 w - - 0 1", "e2e6", VALUE["p"] - VALUE["r"] + VALUE["n"]),
        # A queen takes a pawn that a pawn defends.
        ("9k/10/5p4/4p5/3Q6/10/10/K9 w - - 0 1", "d4e5", VALUE["p"] - VALUE["q"]),
        # A falcon's capture, answered by a pawn.
        ("9k/10/3p6/4n5/10/10/3F6/K9 w - - 0 1", "d2e5", VALUE["n"] - VALUE["f"]),
        # En passant takes the pawn that stepped past, not what stands on the square.
        ("9k/10/10/3pP5/10/10/10/K9 w - d6 0 1", "e5d6", VALUE["p"]),
    ],
)
def test_exchange_values_worked_out_by_hand(fen, move, expected):
    assert _see(fen, move) == expected


def test_a_promotion_counts_the_new_piece():
    # b7-b8 promotes to a queen that nothing attacks, and to one the rook takes.
    assert _see("9k/1P8/10/10/10/10/10/K9 w - - 0 1", "b7b8q") == VALUE["q"] - VALUE["p"]
    assert _see("r8k/1P8/10/10/10/10/10/9K w - - 0 1", "b7b8q") == -VALUE["p"]


def test_the_board_is_left_as_it_was():
    pos = Position(FALCON_OPEN, FALCON)
    engine = core.build(FALCON, tt_bits=10)
    core.load(engine, pos)
    before = (engine.hash(), engine.evaluate(), sorted(engine.legal_codes()))
    engine.see(pos.code_of(parse_uci(pos, "e1e5")))
    assert (engine.hash(), engine.evaluate(), sorted(engine.legal_codes())) == before


def test_a_quiet_move_is_refused():
    pos = Position(FALCON_OPEN, FALCON)
    engine = core.build(FALCON, tt_bits=10)
    core.load(engine, pos)
    with pytest.raises(ValueError, match="capture"):
        engine.see(pos.code_of(parse_uci(pos, "a1a2")))


def _reference_see(pos: Position, code: int) -> int:
    """The same question answered another way: a minimax over the rules core's
    attackers, each side recapturing with its least valuable piece or stopping."""
    value = params.ORDER_VALUE
    move = pos.to_move(code)
    frm, to = move.from_square, move.to_square
    mover, side = pos.piece_at(frm)
    occ = (pos.colors[0] | pos.colors[1]) & ~(1 << frm)
    victim = pos.piece_at(to)
    gained = value[victim[0]] if victim else 0
    if pos.is_capture(move) and not victim:  # en passant
        gained = value[1]
        occ &= ~(1 << pos.en_passant_victim(to))
    on_square = value[mover]
    if move.promotion:
        gained += value[move.promotion] - value[mover]
        on_square = value[move.promotion]

    def best_for(colour: int, on_square: int, occ: int) -> int:
        attackers = pos.attackers(to, colour, occ) & occ
        if not attackers:
            return 0
        cells = [sq for sq in range(attackers.bit_length()) if attackers >> sq & 1]
        least = min(cells, key=lambda sq: value[pos.piece_at(sq)[0]])
        taken = on_square - best_for(colour ^ 1, value[pos.piece_at(least)[0]], occ & ~(1 << least))
        return max(0, taken)

    return gained - best_for(side ^ 1, on_square, occ)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_capture_in_random_games_agrees_with_a_minimax_over_the_rules_core(variant):
    rng = random.Random(variant)
    engine = core.build(get_variant(variant), tt_bits=10)
    compared = 0
    for _ in range(4):
        pos = Position(None, get_variant(variant))
        for _ in range(100):
            codes = pos.legal_codes()
            if not codes:
                break
            core.load(engine, pos)
            for code in codes:
                move = pos.to_move(code)
                if pos.is_capture(move) or move.promotion:
                    assert engine.see(code) == _reference_see(pos, code), (pos.fen(), pos.uci(move))
                    compared += 1
            # Captures first, so that games keep pieces that can trade.
            captures = [c for c in codes if pos.is_capture(pos.to_move(c))]
            pos.make(rng.choice(captures if captures and rng.random() < 0.3 else codes))
    assert compared > 200
