"""The LED order step's analysis: which square each check lit and what the
sensors saw, matched against every LED chain order the pinout can describe
(``order``, ``along``, ``first`` in ``[leds]``) to name the wrong setting."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import singledispatch
from itertools import groupby, product

from ..hw.leds import LedMap
from ..hw.pins import ALONG, CORNERS, FILES, ORDERS, RANKS, LedLayout
from .boards import SQUARE_BOARD, DiagBoard, HexDiagBoard

# The squares that tell every chain order of 80 LEDs apart (tests check this).
CHECK_SQUARES: tuple[int, ...] = SQUARE_BOARD.check_cells


@dataclass(frozen=True)
class LedCheck:
    """One LED order check: the square lit, and the squares the sensors saw change
    (empty when the user skipped it)."""

    square: int
    observed: tuple[int, ...]
    board: DiagBoard = field(default=SQUARE_BOARD, compare=False, repr=False)

    @property
    def matched(self) -> bool:
        return self.observed == (self.square,)

    def __str__(self) -> str:
        seen = self.board.names(self.observed) if self.observed else "nothing"
        return f"lit {self.board.name(self.square)}, sensors saw {seen}"


def chain_layouts(layout: LedLayout) -> list[LedLayout]:
    """Every chain order the pinout can describe for this LED count, ``layout`` first."""
    others = [
        replace(layout, order=o, along=a, first=f) for o, a, f in product(ORDERS, ALONG, CORNERS)
    ]
    return [layout, *(other for other in others if other != layout)]


class LedChain:
    """Squares ↔ LED chain positions for one layout."""

    def __init__(self, layout: LedLayout) -> None:
        self.map = LedMap(layout)
        self.layout = layout
        self.points = {
            self.map.index(x, y): (x, y) for x in range(layout.width) for y in range(layout.height)
        }

    def indices(self, square: int) -> frozenset[int]:
        return frozenset(self.map.index(x, y) for x, y in self.map.points(square))

    def square_at(self, indices: Iterable[int]) -> int | None:
        """The square whose LEDs are exactly these, if they make one."""
        points = {self.points[i] for i in indices if i in self.points}
        if not points:
            return None
        if self.layout.chain:  # one LED per cell, at point (cell, 0)
            return next(iter(points))[0] if len(points) == 1 else None
        x, y = min(p[0] for p in points), min(p[1] for p in points)
        square = y * FILES + x
        if x < FILES and y < RANKS and set(self.map.points(square)) == points:
            return square
        return None


def seen_square(configured: LedLayout, actual: LedLayout, square: int) -> int | None:
    """Where the light shows when the software, believing ``configured``, lights
    ``square`` on a chain wired as ``actual`` (None: not on one square)."""
    return LedChain(actual).square_at(LedChain(configured).indices(square))


def _mirror_files(sq: int) -> int:
    return sq - sq % FILES + FILES - 1 - sq % FILES


def _mirror_ranks(sq: int) -> int:
    return (RANKS - 1 - sq // FILES) * FILES + sq % FILES


def _pattern(answered: Sequence[LedCheck]) -> str | None:
    """How the squares seen relate to the squares lit, if they share one mirror."""

    def fits(rule: Callable[[int], int]) -> bool:
        return all(c.observed == (rule(c.square),) for c in answered)

    def alternate(
        mirror: Callable[[int], int], line: Callable[[int], int], odd: int
    ) -> Callable[[int], int]:
        return lambda sq: mirror(sq) if line(sq) % 2 == odd else sq

    rules: dict[str, Callable[[int], int]] = {
        "mirrored across the files (a↔j)": _mirror_files,
        "mirrored across the ranks (1↔8)": _mirror_ranks,
        "turned half round (a1↔j8)": lambda sq: _mirror_files(_mirror_ranks(sq)),
        "reversed on every other rank (2, 4, 6, 8)": alternate(
            _mirror_files, lambda sq: sq // FILES, 1
        ),
        "reversed on every other rank (1, 3, 5, 7)": alternate(
            _mirror_files, lambda sq: sq // FILES, 0
        ),
        "reversed on every other file (b, d, f, h, j)": alternate(
            _mirror_ranks, lambda sq: sq % FILES, 1
        ),
        "reversed on every other file (a, c, e, g, i)": alternate(
            _mirror_ranks, lambda sq: sq % FILES, 0
        ),
    }
    for text, rule in rules.items():
        if fits(rule):
            return text
    return None


def hex_chain_layouts(layout: LedLayout, board: HexDiagBoard) -> list[tuple[str, LedLayout]]:
    """The chains a builder may have wired instead of the listed one, in words:
    from the other end, each file the other way, the files in the other order."""
    geo = board.geo
    runs = [list(run) for _, run in groupby(layout.chain, key=geo.file_of)]

    def chain(cells: list[int]) -> LedLayout:
        return replace(layout, chain=tuple(cells), first=geo.name(cells[0]))

    def flat(lines: Iterable[list[int]]) -> list[int]:
        return [cell for line in lines for cell in line]

    return [
        ("the chain were fed from its other end", chain(list(reversed(layout.chain)))),
        ("each file's LEDs ran the other way", chain(flat(run[::-1] for run in runs))),
        ("the files were chained in the other order", chain(flat(runs[::-1]))),
    ]


def _hex_advice(
    layout: LedLayout, board: HexDiagBoard, bad: Sequence[LedCheck], answered: Sequence[LedCheck]
) -> list[str]:
    if not (bad and answered):
        return []
    configured = LedChain(layout)
    fits = [
        text
        for text, candidate in hex_chain_layouts(layout, board)
        if all(
            LedChain(candidate).square_at(configured.indices(c.square)) == c.observed[0]
            for c in answered
        )
    ]
    if fits:
        return [
            f"the LEDs behave as if {text}: list [leds] chain of the hex pinout in the "
            f"order the LEDs are wired (now from {layout.first})"
            for text in fits
        ]
    return [
        "no LED chain order explains the cells seen: check the sensor wiring (the hex "
        "pinout's [matrix] rows and columns, a swapped pair of wires) and that each piece "
        "went on the lit cell"
    ]


def led_order_advice(
    layout: LedLayout | None, checks: Sequence[LedCheck], board: DiagBoard = SQUARE_BOARD
) -> tuple[str, ...]:
    """Which pinout setting explains the LED checks' mismatches, in words."""
    bad = [c for c in checks if c.observed and not c.matched]
    answered = [c for c in checks if len(c.observed) == 1]
    return _advice(board, layout, checks, bad, answered)


# The advice of each board, chosen by the board's type.
@singledispatch
def _advice(
    board: DiagBoard,
    layout: LedLayout | None,
    checks: Sequence[LedCheck],
    bad: list[LedCheck],
    answered: list[LedCheck],
) -> tuple[str, ...]:
    """The 8×10 board's: its chain is described by order, along and first."""
    advice: list[str] = []
    pattern = _pattern(answered) if bad else None
    if pattern:
        advice.append(f"the squares seen are the lit ones {pattern}")
    if layout is None:
        if bad:
            advice.append(
                "check the LED chain order ([leds] order, along, first in the "
                "pinout) and the sensor rows and columns"
            )
        return tuple(advice)
    if bad and answered:
        configured = LedChain(layout)
        fits = []
        for candidate in chain_layouts(layout)[1:]:
            chain = LedChain(candidate)
            if all(
                chain.square_at(configured.indices(c.square)) == c.observed[0] for c in answered
            ):
                fits.append(candidate)
        for fit in fits[:3]:
            changes = [
                f'{key} = "{getattr(fit, key)}"'
                for key in ("order", "along", "first")
                if getattr(fit, key) != getattr(layout, key)
            ]
            advice.append(
                f"the LEDs behave as if wired with {' and '.join(changes)}: set "
                f"{', '.join(changes)} in [leds] of the pinout (now order = "
                f'"{layout.order}", along = "{layout.along}", first = '
                f'"{layout.first}")'
            )
        if not fits:
            advice.append(
                "no LED chain order explains the squares seen: check the sensor "
                "wiring (the order of the pinout's rows and columns, a swapped pair "
                "of wires) and that each piece went on the lit square"
            )
        elif pattern and "every other" not in pattern:
            # A mirror of the sensors is a mirror of the LEDs as far as this check can tell.
            advice.append(
                "a sensor board with its rows or columns in reverse order looks the "
                "same: if the walk started at the a1 corner, the LEDs are right and "
                "the pinout's sensor rows or columns are reversed"
            )
    if layout.corner_grid and any(not c.observed for c in checks):
        advice.append(
            "if the lit LEDs were scattered rather than the four corners of one "
            "square, the chain order (order, along, first in [leds]) is wrong"
        )
    return tuple(advice)


@_advice.register
def _(
    board: HexDiagBoard,
    layout: LedLayout | None,
    checks: Sequence[LedCheck],
    bad: list[LedCheck],
    answered: list[LedCheck],
) -> tuple[str, ...]:
    if layout is None or not layout.chain:
        return (
            (("check the LED chain ([leds] chain in the hex pinout) and the sensor matrix"),)
            if bad
            else ()
        )
    return tuple(_hex_advice(layout, board, bad, answered))
