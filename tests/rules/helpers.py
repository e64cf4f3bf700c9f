"""Small helpers shared by the rules tests."""

from __future__ import annotations

from boardctl.rules import Position, get_variant


def pos(fen: str | None = None, variant: str = "falcon") -> Position:
    return Position(fen, get_variant(variant))


def moves(p: Position) -> list[str]:
    return sorted(p.uci(m) for m in p.legal_moves())


def moves_from(p: Position, square: str) -> list[str]:
    return [m for m in moves(p) if m.startswith(square)]


def sq(p: Position, name: str) -> int:
    return p.geometry.parse_square(name)
