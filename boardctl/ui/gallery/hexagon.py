"""The gallery's scenes of Falcon Hexagonal Chess, from a real game on the
121-cell board (docs/screens.md)."""

from __future__ import annotations

from collections.abc import Sequence

from ...rules import BLACK, WHITE, Game, get_variant
from ...rules.notation import parse_move, san
from ..state import DisplayState
from .play import against_engine, played, wrong

HEX = "falcon-hex"
HEX_MIDGAME = ("e8", "i6", "Fe4", "d9", "exd9")


def hex_game(moves: Sequence[str] = HEX_MIDGAME) -> Game:
    return played(moves, HEX)


def hex_start() -> DisplayState:
    """Falcon Hexagonal Chess: a new game against the engine."""
    return DisplayState.from_fen(None, HEX, **against_engine(20, HEX, status="simulator"))


def hex_engine_move() -> DisplayState:
    """The engine's reply on the hexagon, to carry out: its falcon from e13 to d10."""
    game = hex_game()
    move = parse_move(game.position, "Fd10")
    return DisplayState.from_game(
        game,
        **against_engine(
            variant=HEX,
            engine_depth=8,
            engine_score="+0.62",
            engine_move=(san(game.position, move), move.from_square, move.to_square),
        ),
    )


def hex_fix() -> DisplayState:
    """White's falcon has gone from e4 to f7, where no falcon move goes."""
    game = hex_game(HEX_MIDGAME[:4])
    return wrong(
        game,
        "Move the falcon from f7 back to e4",
        ("f7", "e4"),
        **against_engine(variant=HEX, engine_score="+0.40"),
    )


def hex_promotion() -> DisplayState:
    """A pawn on the last cell of file f: a rook, bishop, knight or falcon (no queen)."""
    game = Game(get_variant(HEX), "5/5P1k/9/4f5/2p8/12/11/12/11/6R3/9/8/K4 w - - 0 41")
    return DisplayState.from_game(
        game,
        prompt="Choose the new piece: prev and next, then ok",
        prompt_kind="choice",
        choices=get_variant(HEX).promotions,
        chosen=3,
        **against_engine(variant=HEX),
    )


def hex_black() -> DisplayState:
    """The player has Black: the hexagon turned half round, with clocks."""
    game = hex_game(HEX_MIDGAME[:4])
    return DisplayState.from_game(
        game,
        white_clock=288.0,
        black_clock=295.0,
        orientation=BLACK,
        **against_engine(
            variant=HEX,
            engine_status="thinking",
            engine_depth=7,
            engine_score="+0.31",
            engine_side=WHITE,
        ),
    )
