"""The two boards ``boardctl diag`` can check, as it speaks of them: the 8×10
board's squares and the hex board's 121 cells.

A :class:`DiagBoard` names and parses cells, lists the sensor lines whose
faults the sweep looks for (a whole rank or file on the 8×10 board; on the
hex board the matrix's row and column lines, which are its ranks and files
with ranks 1 and 13, and files a and m, sharing a line), groups cells for the
walk's colours, picks the cells of the LED order check and draws the board as
text.  Nothing else in the package assumes files × ranks.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ..hw.hexpins import HexPinout
from ..hw.pins import FILES, RANKS, SQUARES
from ..rules.digits import shown
from .squares import FILE_NAMES, parse_square, render_board, square_name
from .squares import DiagError as DiagError


@dataclass(frozen=True)
class BoardLine:
    """A sensor line: a row wire (``file`` False) or a column wire, the cells on it."""

    file: bool
    index: int
    name: str  # "rank 3", "file a", "ranks 1 and 13", "files a and m"
    mask: int


class DiagBoard:
    """What the session needs to know about the board (this base: 8×10)."""

    cells: int = SQUARES
    noun = "square"
    title = "board"  # as the summary names it: "simulated board"
    # The simulated sensor matrix (files, ranks): the board's own.
    sim_matrix = (FILES, RANKS)
    walk_order = "a1 … j1 then a2 … j8, one colour a rank"
    sweep_hint = (
        "put a piece on each square in turn and lift it, or set up ranks 1, 2, 7, 8 "
        "and move every piece to ranks 3-6"
    )
    live_cell = "e4"
    # The LED order check's cells: they tell every chain order of 80 LEDs apart.
    check_names: tuple[str, ...] = ("a1", "b1", "j1", "a2", "j2", "a8", "j8")

    @property
    def all(self) -> int:
        return (1 << self.cells) - 1

    @property
    def lines(self) -> tuple[BoardLine, ...]:
        rank_mask = (1 << FILES) - 1
        file_mask = sum(1 << (rank * FILES) for rank in range(RANKS))
        return (
            *(BoardLine(False, r, f"rank {r + 1}", rank_mask << (r * FILES)) for r in range(RANKS)),
            *(BoardLine(True, f, f"file {FILE_NAMES[f]}", file_mask << f) for f in range(FILES)),
        )

    @property
    def check_cells(self) -> tuple[int, ...]:
        return tuple(self.parse(name) for name in self.check_names)

    def name(self, cell: int) -> str:
        return square_name(cell)

    def parse(self, text: str) -> int:
        """:raises DiagError: for a name that is not on the board."""
        return parse_square(text)

    def walk_group(self, cell: int) -> int:
        """Cells of one group light in one colour in the walk (a rank)."""
        return cell // FILES

    def render(self, occupancy: int | None, lit: int | None = None) -> str:
        return render_board(occupancy, lit)

    def names(self, cells: tuple[int, ...] | list[int]) -> str:
        return ", ".join(self.name(c) for c in cells)


SQUARE_BOARD = DiagBoard()

HEX_LEGEND = "  # a piece on the cell   . empty   [ ] the cell lit now   ? no reading yet"


class HexDiagBoard(DiagBoard):
    """The hex board, from its pinout (cells from the rules geometry, lines
    from its matrix)."""

    noun = "cell"
    title = "hex board"
    # 11 × 11 crossings for the 121 cells: only the cell numbers matter to
    # the simulated session, not which wire crosses which.
    sim_matrix = (11, 11)
    walk_order = "h1 … l1, f2 … m2, and on up the ranks to f13, one colour a rank"
    sweep_hint = (
        "put a piece on each cell in turn and lift it, or set up the opening and "
        "move the pieces over the empty cells"
    )
    live_cell = "g7"
    # The chain's two ends, a file turn and cells in the middle: they tell the
    # listed chain from the likely miswirings (ledorder.hex_chain_layouts).
    check_names = ("a8", "a9", "b13", "g7", "h1", "m2", "m6")
    _COLUMN = 5  # text columns per file in the drawing

    def __init__(self, pinout: HexPinout) -> None:
        self.pinout = pinout
        self.geo = pinout.geometry
        self.cells = self.geo.size

    @cached_property
    def lines(self) -> tuple[BoardLine, ...]:
        geo, matrix = self.geo, self.pinout.matrix
        at = [matrix.line_of(cell) for cell in range(geo.size)]
        out = []
        for i, ranks in enumerate(matrix.rows):
            words = " and ".join(str(n) for n in ranks)
            out.append(
                BoardLine(
                    False,
                    i,
                    f"rank{'s' * (len(ranks) > 1)} {words}",
                    sum(1 << c for c in range(geo.size) if at[c][0] == i),
                )
            )
        for i, files in enumerate(matrix.columns):
            words = " and ".join(geo.file_letters[f] for f in files)
            out.append(
                BoardLine(
                    True,
                    i,
                    f"file{'s' * (len(files) > 1)} {words}",
                    sum(1 << c for c in range(geo.size) if at[c][1] == i),
                )
            )
        return tuple(out)

    def name(self, cell: int) -> str:
        return self.geo.name(cell)

    def parse(self, text: str) -> int:
        try:
            return self.geo.parse_cell(text)
        except ValueError:
            raise DiagError(f"no cell {shown(text)} on the hex board (a8 … m6)") from None

    def walk_group(self, cell: int) -> int:
        return self.geo.rank_number(cell) - 1

    def render(self, occupancy: int | None, lit: int | None = None) -> str:
        """The hexagon as text, White's side at the bottom: each cell's name and
        mark where it stands, files side by side, a file's cells two lines
        apart and each file half a cell above or below its neighbours."""
        geo = self.geo
        height = {c: q + 2 * r for c, (q, r) in enumerate(geo.cells)}
        top = max(height.values())
        lines = [
            [" "] * (self._COLUMN * (2 * geo.radius + 1) + 2)
            for _ in range(top - min(height.values()) + 1)
        ]
        for cell, (q, _r) in enumerate(geo.cells):
            mark = "?" if occupancy is None else "#" if occupancy >> cell & 1 else "."
            text = f"{geo.name(cell)}{mark}"
            text = f"[{text}]" if cell == lit else f" {text} "
            at = self._COLUMN * (q + geo.radius)
            lines[top - height[cell]][at : at + len(text)] = text
        letters = "".join(
            f" {geo.file_letters[f]}".ljust(self._COLUMN) for f in range(2 * geo.radius + 1)
        ).rstrip()
        body = ["".join(line).rstrip() for line in lines]
        return "\n".join([letters, *body, letters, HEX_LEGEND])
