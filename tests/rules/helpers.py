"""Small helpers shared by the rules tests."""

from __future__ import annotations

from pathlib import Path

from boardctl.rules import Position, get_variant

PerftCase = tuple[str, str, str, list[int]]  # name, variant, FEN, leaves at depth 1, 2, ...


def perft_cases(name: str) -> list[PerftCase]:
    """The recorded counts of ``tests/rules/<name>`` (perft.txt, perft_hex.txt):
    one ``name | variant | FEN | counts`` a line, ``#`` a comment."""
    cases = []
    for line in (Path(__file__).parent / name).read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            label, variant, fen, counts = (part.strip() for part in line.split("|"))
            cases.append((label, variant, fen, [int(c) for c in counts.split()]))
    return cases


def pos(fen: str | None = None, variant: str = "falcon") -> Position:
    return Position(fen, get_variant(variant))


def moves(p: Position) -> list[str]:
    return sorted(p.uci(m) for m in p.legal_moves())


def moves_from(p: Position, square: str) -> list[str]:
    return [m for m in moves(p) if m.startswith(square)]


def sq(p: Position, name: str) -> int:
    return p.geometry.parse_square(name)
