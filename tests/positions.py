"""Positions set up for a test as a start and the moves played from it."""

from __future__ import annotations

from boardctl.rules import Position, get_variant, parse_uci


def after(fen: str, *moves: str, variant: str = "falcon") -> Position:
    """The position of ``variant`` that ``moves`` (UCI, each legal) lead to from ``fen``."""
    pos = Position(fen, get_variant(variant))
    for text in moves:
        pos.push(parse_uci(pos, text))
    return pos
