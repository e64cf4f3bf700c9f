"""A deliberately naive hexagonal-chess move generator, for cross-checking perft.

Test-support code, like tests/naive_falcon.py: a second implementation of
Falcon Hexagonal Chess and of Glinski's hexagonal chess, written from
docs/rules-hex.md alone, to be obviously correct rather than fast. It
imports nothing from boardctl and nothing outside the standard library but
tests/naive_common.py (FEN ranks, the move counters and the perft walk,
as for the square boards).

How it works:
- Cells are axial coordinates ``(q, r)`` (RULES-HEX.md section 2): q counts files
  from the centre, r rises up a file towards Black, the centre is ``(0, 0)``.
- A board is a dict ``{(q, r): piece}`` with pieces as FEN letters (``'P'`` white
  pawn, ``'f'`` black falcon, ...); an empty cell is simply absent.
- Pseudo-legal moves are walked out of the step vectors of the text: 6 orthogonal
  and 6 diagonal unit steps, knight offsets as cube permutations of (1, 2, -3),
  falcon moves as every ordering of "two like steps and one step 30 degrees away".
- A move is legal if, after making it on a copy of the board, none of the
  opponent's pseudo-legal moves lands on the mover's king.

Public API: ``VARIANTS``, ``legal_moves``, ``perft``, ``divide``, ``play``, and for
tests ``parse_fen``, ``to_fen``, ``cell_name``, ``parse_cell``, ``falcon_paths``,
``reach`` and ``in_check``.

Moves are written ``<from><to>[promotion]`` with the variant's cell names:
Game Courier names for ``falcon-hex`` (``e3b8``, ``b12b13f``), Glinski names for
``glinski`` (``f5f6``, ``b10b11q``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from itertools import permutations

from naive_common import count_leaves, counters_after, read_rank, write_rank

Cell = tuple[int, int]

# ----------------------------------------------------------------------- directions

# Section 2: the orthogonal unit steps (towards a neighbour sharing an edge) and the
# diagonal ones (through a vertex to the nearest cell of the same colour).
ORTHOGONAL = {"N": (0, 1), "NE": (1, 0), "SE": (1, -1), "S": (0, -1), "SW": (-1, 0), "NW": (-1, 1)}
DIAGONAL = {
    "NNE": (1, 1),
    "E": (2, -1),
    "SSE": (1, -2),
    "SSW": (-1, -1),
    "W": (-2, 1),
    "NNW": (-1, 2),
}
STEPS = {**ORTHOGONAL, **DIAGONAL}
# The twelve directions clockwise from N, 30 degrees apart: neighbours in this list
# (cyclically) are exactly the "30 degrees from" pairs of the falcon's definition.
CLOCKWISE = ["N", "NNE", "NE", "E", "SE", "SSE", "S", "SSW", "SW", "W", "NW", "NNW"]

# Section 1.4: the knight's offsets are the cube permutations of (+-1, +-2, -+3);
# a cube cell (x, y, z) with x + y + z = 0 is the axial cell (x, y).
KNIGHT_OFFSETS = sorted(
    {(x, y) for sign in (1, -1) for x, y, _ in permutations((sign, 2 * sign, -3 * sign))}
)

SLIDES = {
    "R": list(ORTHOGONAL.values()),
    "B": list(DIAGONAL.values()),
    "Q": list(STEPS.values()),
}


def add(cell: Cell, step: Cell) -> Cell:
    return (cell[0] + step[0], cell[1] + step[1])


def distance(cell: Cell) -> int:
    """Cells from the centre: max(|q|, |r|, |q + r|)."""
    q, r = cell
    return max(abs(q), abs(r), abs(q + r))


def is_white(piece: str) -> bool:
    return piece.isupper()


# ---------------------------------------------------------------------- the boards


@dataclass(frozen=True)
class Variant:
    """A board (its cells and their names), a start position and a promotion set.

    ``rank_of`` gives the rank number a cell is named with; a FEN lists the ranks
    from the highest down to 1, and within a rank the cells from file a onwards.
    """

    name: str
    cells: frozenset[Cell]
    files: str  # the file letters, the first at q = -len(files) // 2
    rank_of: Callable[[Cell], int]
    promotions: str
    start: str  # the opening as a hex FEN

    def file_of(self, cell: Cell) -> str:
        return self.files[cell[0] + len(self.files) // 2]


def _hexagon(radius: int) -> frozenset[Cell]:
    return frozenset(
        (q, r)
        for q in range(-radius, radius + 1)
        for r in range(-radius, radius + 1)
        if distance((q, r)) <= radius
    )


# Section 2: the 121-cell board is the base-7 hexagon without its six corners.
TRIMMED_CORNERS = frozenset({(6, 0), (-6, 0), (0, 6), (0, -6), (6, -6), (-6, 6)})
FALCON_HEX_CELLS = _hexagon(6) - TRIMMED_CORNERS
GLINSKI_CELLS = _hexagon(5)

# Section 6.
FALCON_HEX_START = (
    "prnfq/2p3bk/3p2b1f/4p1b2n/5p4r/6pppppp/11/PPPPPP6/R4P5/N2B1P4/F1B2P3/QB3P2/KFNRP w - - 0 1"
)


def _glinski_rank(cell: Cell) -> int:
    # Section 1.2: the rank bends at file f, n = r + 6 + min(q, 0).
    q, r = cell
    return r + 6 + min(q, 0)


def _glinski_start(variant: Variant) -> str:
    """Section 1.7, White's list and its mirror image (q, r) -> (q, -q - r)."""
    white = {
        "K": ["g1"],
        "Q": ["e1"],
        "R": ["c1", "i1"],
        "N": ["d1", "h1"],
        "B": ["f1", "f2", "f3"],
        "P": ["b1", "c2", "d3", "e4", "f5", "g4", "h3", "i2", "k1"],
    }
    board = {}
    for piece, names in white.items():
        for name in names:
            q, r = parse_cell(name, variant)
            board[(q, r)] = piece
            board[(q, -q - r)] = piece.lower()
    return board_to_fen(board, variant) + " w - - 0 1"


FALCON_HEX = Variant(
    name="falcon-hex",
    cells=FALCON_HEX_CELLS,
    files="abcdefghijklm",
    rank_of=lambda cell: cell[1] + 7,
    promotions="rbnf",
    start=FALCON_HEX_START,
)
# Its start is filled in below, once cell names can be parsed.
_GLINSKI_BOARD = Variant(
    name="glinski",
    cells=GLINSKI_CELLS,
    files="abcdefghikl",
    rank_of=_glinski_rank,
    promotions="qrbn",
    start="",
)


def untrimmed(radius: int) -> Variant:
    """A whole hexagon named as Falcon-Hex names cells (for the stalemate census)."""
    return Variant(
        name=f"hexagon-{radius}",
        cells=_hexagon(radius),
        files="abcdefghijklmnopqrstuvwxyz"[: 2 * radius + 1],
        rank_of=lambda cell: cell[1] + radius + 1,
        promotions="rbnf",
        start="",
    )


# --------------------------------------------------------------------------- names


def cell_name(cell: Cell, variant: Variant) -> str:
    return variant.file_of(cell) + str(variant.rank_of(cell))


def parse_cell(name: str, variant: Variant) -> Cell:
    """:raises ValueError: for a name that is no cell of the board."""
    for cell in variant.cells:
        if cell_name(cell, variant) == name:
            return cell
    raise ValueError(f"no cell {name!r} on the {variant.name} board")


def ranks(variant: Variant) -> list[list[Cell]]:
    """The FEN's ranks, highest first, each from file a onwards."""
    numbers = sorted({variant.rank_of(cell) for cell in variant.cells}, reverse=True)
    return [
        sorted(
            (cell for cell in variant.cells if variant.rank_of(cell) == number),
            key=lambda cell: cell[0],
        )
        for number in numbers
    ]


@cache
def last_cell(q: int, white: bool, variant: Variant) -> Cell:
    """Section 5: a pawn promotes on the last existing cell of its file."""
    on_file = [cell for cell in variant.cells if cell[0] == q]
    return max(on_file, key=lambda c: c[1]) if white else min(on_file, key=lambda c: c[1])


# ------------------------------------------------------------------------ position


@dataclass(frozen=True)
class Position:
    board: dict[Cell, str]
    white_to_move: bool
    en_passant: Cell | None  # the cell a double-stepping pawn passed over
    halfmove_clock: int
    fullmove_number: int
    variant: Variant


@dataclass(frozen=True)
class Move:
    start: Cell
    end: Cell
    promotion: str = ""  # lower-case letter or ""
    en_passant: bool = False

    def notation(self, variant: Variant) -> str:
        return cell_name(self.start, variant) + cell_name(self.end, variant) + self.promotion


def parse_placement(placement: str, variant: Variant) -> dict[Cell, str]:
    rows = placement.split("/")
    expected = ranks(variant)
    if len(rows) != len(expected):
        raise ValueError(f"{variant.name} FEN needs {len(expected)} ranks, not {len(rows)}")
    board = {}
    for row, cells in zip(rows, expected, strict=True):
        pieces = read_rank(row)
        if any(pieces[len(cells) :]):
            raise ValueError(f"rank {row!r} is longer than {len(cells)} cells")
        if len(pieces) != len(cells):
            raise ValueError(f"rank {row!r} has {len(pieces)} cells, not {len(cells)}")
        board.update((cell, piece) for cell, piece in zip(cells, pieces, strict=True) if piece)
    return board


def board_to_fen(board: dict[Cell, str], variant: Variant) -> str:
    return "/".join(write_rank(board.get(cell) for cell in cells) for cells in ranks(variant))


def parse_fen(fen: str, variant: Variant) -> Position:
    fields = fen.split()
    if len(fields) < 4:
        raise ValueError(f"FEN needs at least 4 fields: {fen!r}")
    placement, side, castling, en_passant = fields[:4]
    if side not in ("w", "b"):
        raise ValueError(f"bad side to move {side!r}")
    if castling != "-":
        raise ValueError("hexagonal chess has no castling: the field is always '-'")
    return Position(
        board=parse_placement(placement, variant),
        white_to_move=side == "w",
        en_passant=None if en_passant == "-" else parse_cell(en_passant, variant),
        halfmove_clock=int(fields[4]) if len(fields) > 4 else 0,
        fullmove_number=int(fields[5]) if len(fields) > 5 else 1,
        variant=variant,
    )


def to_fen(position: Position) -> str:
    variant = position.variant
    side = "w" if position.white_to_move else "b"
    ep = cell_name(position.en_passant, variant) if position.en_passant else "-"
    return (
        f"{board_to_fen(position.board, variant)} {side} - {ep} "
        f"{position.halfmove_clock} {position.fullmove_number}"
    )


# ------------------------------------------------------------------------ movement


@cache
def falcon_paths(start: Cell, variant: Variant) -> dict[Cell, list[tuple[Cell, Cell]]]:
    """Every falcon destination on the board with its three paths' intermediate cells.

    Section 4.1: two steps in one direction and one step in a direction 30 degrees
    away from it, in any order. The paths are listed whatever stands on them, and
    even when an intermediate cell is off the board. (Cached: callers must not
    change the answer.)
    """
    paths: dict[Cell, list[tuple[Cell, Cell]]] = {}
    for index, repeated in enumerate(CLOCKWISE):
        for odd in (CLOCKWISE[index - 1], CLOCKWISE[(index + 1) % 12]):
            like, unlike = STEPS[repeated], STEPS[odd]
            for order in sorted(set(permutations((like, like, unlike)))):
                first = add(start, order[0])
                second = add(first, order[1])
                end = add(second, order[2])
                if end in variant.cells:
                    paths.setdefault(end, []).append((first, second))
    return paths


def open_falcon_paths(
    board: dict[Cell, str], start: Cell, end: Cell, variant: Variant
) -> list[tuple[Cell, Cell]]:
    """The paths from ``start`` to ``end`` whose two cells are on the board and empty."""
    return [
        (first, second)
        for first, second in falcon_paths(start, variant).get(end, [])
        if first in variant.cells
        and second in variant.cells
        and first not in board
        and second not in board
    ]


def reach(board: dict[Cell, str], start: Cell, piece: str, variant: Variant) -> set[Cell]:
    """Cells a non-pawn ``piece`` on ``start`` could move to if they held an enemy."""
    kind = piece.upper()
    cells: set[Cell] = set()
    if kind == "K":
        cells = {add(start, step) for step in STEPS.values()}
    elif kind == "N":
        cells = {add(start, offset) for offset in KNIGHT_OFFSETS}
    elif kind == "F":
        cells = {
            end
            for end in falcon_paths(start, variant)
            if open_falcon_paths(board, start, end, variant)
        }
    elif kind in SLIDES:
        for step in SLIDES[kind]:
            cell = add(start, step)
            while cell in variant.cells:
                cells.add(cell)
                if cell in board:
                    break
                cell = add(cell, step)
    else:
        raise ValueError(f"reach() is for pieces other than pawns, not {piece!r}")
    return {cell for cell in cells if cell in variant.cells}


@cache
def pawn_start_cells(variant: Variant, white: bool) -> frozenset[Cell]:
    """Section 1.5: a pawn may double-step from the initial cell of any own pawn."""
    if not variant.start:
        return frozenset()
    pawn = "P" if white else "p"
    board = parse_fen(variant.start, variant).board
    return frozenset(cell for cell, piece in board.items() if piece == pawn)


def pawn_moves(position: Position, start: Cell) -> list[Move]:
    board, variant = position.board, position.variant
    white = position.white_to_move
    forward = ORTHOGONAL["N"] if white else ORTHOGONAL["S"]
    captures = (
        [ORTHOGONAL["NW"], ORTHOGONAL["NE"]] if white else [ORTHOGONAL["SW"], ORTHOGONAL["SE"]]
    )

    def arriving(end: Cell, en_passant: bool = False) -> list[Move]:
        if end == last_cell(end[0], white, variant):
            return [Move(start, end, promotion=p) for p in variant.promotions]
        return [Move(start, end, en_passant=en_passant)]

    moves = []
    one = add(start, forward)
    if one in variant.cells and one not in board:
        moves += arriving(one)
        two = add(one, forward)
        if start in pawn_start_cells(variant, white) and two in variant.cells and two not in board:
            moves += arriving(two)
    for step in captures:
        end = add(start, step)
        if end not in variant.cells:
            continue
        if end in board:
            if is_white(board[end]) != white:
                moves += arriving(end)
        elif end == position.en_passant:
            # The double-stepper stands one cell beyond the cell it passed over.
            victim = board.get(add(end, ORTHOGONAL["S"] if white else ORTHOGONAL["N"]))
            if victim == ("p" if white else "P"):
                moves += arriving(end, en_passant=True)
    return moves


def pseudo_legal_moves(position: Position) -> list[Move]:
    board = position.board
    white = position.white_to_move
    moves = []
    for start, piece in board.items():
        if is_white(piece) != white:
            continue
        if piece.upper() == "P":
            moves += pawn_moves(position, start)
            continue
        for end in reach(board, start, piece, position.variant):
            if end not in board or is_white(board[end]) != white:
                moves.append(Move(start, end))
    return moves


def make_move(position: Position, move: Move) -> Position:
    board = dict(position.board)
    piece = board.pop(move.start)
    captured = board.get(move.end)
    white = is_white(piece)
    if move.en_passant:
        behind = ORTHOGONAL["S"] if white else ORTHOGONAL["N"]
        captured = board.pop(add(move.end, behind))
    if move.promotion:
        piece = move.promotion.upper() if white else move.promotion
    board[move.end] = piece

    en_passant, halfmove, fullmove = counters_after(position, move, piece, captured)
    return Position(
        board, not position.white_to_move, en_passant, halfmove, fullmove, position.variant
    )


def within_reach(piece: str, start: Cell, cell: Cell, variant: Variant) -> bool:
    """False only where ``piece`` on ``start`` could not reach ``cell`` on an
    empty board: not one of a king's or a knight's offsets, not one of the
    falcon's destinations, not on a slider's lines.  A filter before reach(),
    which decides."""
    kind = piece.upper()
    offset = (cell[0] - start[0], cell[1] - start[1])
    if kind == "K":
        return offset in STEPS.values()
    if kind == "N":
        return offset in KNIGHT_OFFSETS
    if kind == "F":
        return cell in falcon_paths(start, variant)
    if kind in SLIDES:
        return any(_along(offset, step) for step in SLIDES[kind])
    return True


def _along(offset: Cell, step: Cell) -> bool:
    """Is ``offset`` a whole number, one or more, of ``step``s?"""
    k = offset[0] // step[0] if step[0] else offset[1] // step[1]
    return k >= 1 and offset == (k * step[0], k * step[1])


def king_attacked(position: Position, white: bool) -> bool:
    """Could the other side, if it were to move, move onto ``white``'s king?"""
    king = "K" if white else "k"
    cells = [cell for cell, piece in position.board.items() if piece == king]
    if not cells:
        return False
    attacker = Position(position.board, not white, None, 0, 1, position.variant)
    board, variant = position.board, position.variant
    for start, piece in board.items():
        if is_white(piece) == white:
            continue
        if piece.upper() == "P":
            if any(move.end == cells[0] for move in pawn_moves(attacker, start)):
                return True
        elif within_reach(piece, start, cells[0], variant) and cells[0] in reach(
            board, start, piece, variant
        ):
            return True
    return False


def in_check(position: Position) -> bool:
    return king_attacked(position, position.white_to_move)


def legal_move_list(position: Position) -> list[Move]:
    return [
        move
        for move in pseudo_legal_moves(position)
        if not king_attacked(make_move(position, move), position.white_to_move)
    ]


# ---------------------------------------------------------------------- public API

GLINSKI = replace(_GLINSKI_BOARD, start=_glinski_start(_GLINSKI_BOARD))
VARIANTS: dict[str, Variant] = {"falcon-hex": FALCON_HEX, "glinski": GLINSKI}


def get_variant(name: str | Variant) -> Variant:
    if isinstance(name, Variant):
        return name
    try:
        return VARIANTS[name]
    except KeyError:
        raise ValueError(f"unknown variant {name!r}; known: {sorted(VARIANTS)}") from None


def legal_moves(fen: str, variant: str | Variant = "falcon-hex") -> list[str]:
    """All legal moves of the side to move, as move text, sorted."""
    position = parse_fen(fen, get_variant(variant))
    return sorted(move.notation(position.variant) for move in legal_move_list(position))


def perft(fen: str, depth: int, variant: str | Variant = "falcon-hex") -> int:
    """Leaf positions ``depth`` plies below ``fen`` (depth 0 -> 1)."""
    return count_leaves(parse_fen(fen, get_variant(variant)), depth, legal_move_list, make_move)


def divide(fen: str, depth: int, variant: str | Variant = "falcon-hex") -> dict[str, int]:
    """Perft split by first move: {move text: leaves below it at depth - 1}."""
    if depth < 1:
        raise ValueError("divide needs depth >= 1")
    position = parse_fen(fen, get_variant(variant))
    return {
        move.notation(position.variant): count_leaves(
            make_move(position, move), depth - 1, legal_move_list, make_move
        )
        for move in legal_move_list(position)
    }


def play(fen: str, moves: list[str], variant: str | Variant = "falcon-hex") -> str:
    """Apply moves one after another; return the resulting FEN.

    :raises ValueError: if a move is not legal in its position.
    """
    position = parse_fen(fen, get_variant(variant))
    for text in moves:
        by_text = {move.notation(position.variant): move for move in legal_move_list(position)}
        if text not in by_text:
            raise ValueError(f"illegal move {text!r} in {to_fen(position)}")
        position = make_move(position, by_text[text])
    return to_fen(position)
