"""FEN in and out: a position's fields read from text, every one checked,
and written back.

:func:`read_fen` checks what the text alone can say (each field's form, one
king a side, no pawn where none may stand, castling rights with their king
and rook at home, an en-passant square behind a pawn that just stepped two);
:class:`~boardctl.rules.position.Position` adds the one check that needs the
pieces' moves (the side not to move is not in check).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .boardgeometry import Bitboard, BoardGeometry
from .digits import NumberError, is_ascii_digits, parse_whole, shown
from .errors import FenError
from .geometry import Square, SquareError
from .pieces import BLACK, KING, PAWN, ROOK, WHITE, Color, piece_from_symbol, piece_symbol
from .variants import Variant

# The largest halfmove clock or fullmove number a FEN may give: far beyond any
# game (the longest possible orthodox game is under 6,000 moves), and short
# enough to print, store and compare without surprises.
MAX_FEN_COUNTER = 1_000_000


@dataclass(frozen=True, slots=True)
class FenFields:
    """A position as FEN gives it, with the bitboards of its pieces."""

    squares: list[int]  # the piece on each cell (0: none)
    pieces: list[Bitboard]  # by piece type
    colors: list[Bitboard]  # by colour
    kings: list[Square]  # by colour
    turn: Color
    castling: Bitboard  # the rooks that may still castle
    ep_square: Square | None
    halfmove_clock: int
    fullmove_number: int


def read_fen(fen: str, variant: Variant) -> FenFields:
    """The fields of ``fen``, a position of ``variant``; a FEN of four
    fields has counters 0 and 1.

    :raises FenError: naming the field that is wrong.
    """
    geo = variant.geometry
    parts = fen.split()
    if len(parts) not in (4, 6):
        raise FenError("layout", f"expected 6 space-separated fields, got {len(parts)}")
    placement, side, castling, ep = parts[:4]
    squares = parse_placement(placement, geo)
    if side not in ("w", "b"):
        raise FenError("side to move", f"expected 'w' or 'b', got {shown(side)}")
    turn = WHITE if side == "w" else BLACK
    pieces, colors, kings = [0] * 8, [0, 0], [-1, -1]
    for sq, piece in enumerate(squares):
        if piece:
            pieces[piece & 7] |= 1 << sq
            colors[piece >> 3] |= 1 << sq
            if piece & 7 == KING:
                if kings[piece >> 3] != -1:
                    raise FenError("piece placement", "more than one king of a colour")
                kings[piece >> 3] = sq
    if -1 in kings:
        raise FenError("piece placement", "each side needs exactly one king")
    for colour in (WHITE, BLACK):
        misplaced = pieces[PAWN] & colors[colour] & geo.tables.pawn_forbidden[colour]
        if misplaced:
            where = geo.name(misplaced.bit_length() - 1)
            raise FenError("piece placement", f"a pawn stands on {where}, {geo.pawn_barred}")
    rights = _parse_castling(castling, squares, variant)
    ep_square = _parse_ep(ep, squares, turn, variant)
    counters = (0, 1)
    if len(parts) == 6:
        counters = (
            _parse_counter(parts[4], "halfmove clock", 0),
            _parse_counter(parts[5], "fullmove number", 1),
        )
    return FenFields(squares, pieces, colors, kings, turn, rights, ep_square, *counters)


def write_fen(
    variant: Variant,
    squares: list[int],
    turn: Color,
    castling: Bitboard,
    ep_square: Square | None,
    halfmove_clock: int,
    fullmove_number: int,
) -> str:
    """The FEN of a position of ``variant`` with these fields."""
    geo = variant.geometry
    rows = []
    for cells in geo.fen_rows():
        row, empty = "", 0
        for sq in cells:
            piece = squares[sq]
            if piece:
                row += (str(empty) if empty else "") + piece_symbol(piece)
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    rights = ""
    for letter in "KQkq" if variant.castling else "":
        rank = 0 if letter.isupper() else geo.ranks - 1
        file = variant.rook_files[1 if letter in "Kk" else 0]
        if castling >> geo.square(file, rank) & 1:
            rights += letter
    ep = "-" if ep_square is None else geo.name(ep_square)
    side = "w" if turn == WHITE else "b"
    return f"{'/'.join(rows)} {side} {rights or '-'} {ep} {halfmove_clock} {fullmove_number}"


def _parse_castling(text: str, squares: list[int], variant: Variant) -> Bitboard:
    if text == "-":
        return 0
    geo = variant.geometry
    if not variant.castling:
        raise FenError("castling", f"{variant.name} has no castling: expected '-'")
    rights = 0
    for letter in text:
        if letter not in "KQkq" or text.count(letter) > 1:
            raise FenError("castling", f"unexpected {letter!r} in {shown(text)}")
        colour = WHITE if letter.isupper() else BLACK
        rank = 0 if colour == WHITE else geo.ranks - 1
        rook_file = variant.rook_files[1 if letter in "Kk" else 0]
        king_sq = geo.square(variant.king_file, rank)
        rook_sq = geo.square(rook_file, rank)
        if squares[king_sq] != KING | colour << 3:
            raise FenError("castling", f"{letter!r} needs the king on {geo.name(king_sq)}")
        if squares[rook_sq] != ROOK | colour << 3:
            raise FenError("castling", f"{letter!r} needs a rook on {geo.name(rook_sq)}")
        rights |= 1 << rook_sq
    return rights


def _parse_ep(text: str, squares: list[int], turn: Color, variant: Variant) -> Square | None:
    if text == "-":
        return None
    geo = variant.geometry
    try:
        sq = geo.parse_square(text)
    except SquareError:
        raise FenError("en passant", f"{shown(text)} is not a {geo.noun}") from None
    # The pawn that stepped over sq came from behind it (seen from the
    # side to move) and stands in front of it.
    push = geo.tables.pawn_push
    origin, landed = push[turn][sq], push[turn ^ 1][sq]
    pawn = PAWN | (turn ^ 1) << 3
    if (
        origin < 0
        or landed < 0
        or not pawn_start_squares(variant)[turn ^ 1] >> origin & 1
        or squares[sq]
        or squares[origin]
        or squares[landed] != pawn
    ):
        raise FenError("en passant", f"{text} is not behind a pawn that just moved two squares")
    return sq


@cache
def pawn_start_squares(variant: Variant) -> tuple[Bitboard, Bitboard]:
    """The squares each colour's pawns may step twice from: (white, black).

    They are the squares where that colour's pawns stand in the start
    position, so one rule serves every set-up, pawns on one rank or on two
    (``falcon-10x10-central``).  Which pawn stands there does not matter: a
    position records no pawn's history, just as in chess.
    """
    squares = parse_placement(variant.start_fen.split()[0], variant.geometry)
    starts = [0, 0]
    for sq, piece in enumerate(squares):
        if piece & 7 == PAWN:
            starts[piece >> 3] |= 1 << sq
    return starts[WHITE], starts[BLACK]


def parse_placement(text: str, geo: BoardGeometry) -> list[int]:
    """The piece on each cell, from the FEN's ranks (:meth:`fen_rows`)."""
    layout = geo.fen_rows()
    rows = text.split("/")
    if len(rows) != len(layout):
        raise FenError("piece placement", f"expected {len(layout)} ranks, got {len(rows)}")
    unit = f"{geo.noun}s"
    squares = [0] * geo.size
    for row, cells in zip(rows, layout, strict=True):
        label = geo.name(cells[0])[1:]
        file = 0
        digits = ""
        for ch in row + "/":
            if is_ascii_digits(ch):
                digits += ch
                continue
            if digits:
                try:
                    if digits.startswith("0"):
                        raise NumberError("a count cannot start with 0")
                    file += parse_whole(digits, 1, len(cells))
                except NumberError:
                    raise FenError(
                        "piece placement",
                        f"bad empty count {shown(digits)} in rank {label} of {len(cells)} {unit}",
                    ) from None
                digits = ""
            if ch == "/":
                break
            piece = piece_from_symbol(ch)
            if not piece:
                raise FenError("piece placement", f"unknown piece {ch!r} in rank {label}")
            if file < len(cells):
                squares[cells[file]] = piece
            file += 1
        if file != len(cells):
            # Rows of a grid are all as long; a hexagon's say where they run.
            span = "" if geo.grid else f" ({geo.name(cells[0])} to {geo.name(cells[-1])})"
            raise FenError(
                "piece placement",
                f"rank {label} has {file} {unit} where the board has {len(cells)}{span}",
            )
    return squares


def _parse_counter(text: str, field: str, minimum: int) -> int:
    try:
        return parse_whole(text, minimum, MAX_FEN_COUNTER)
    except NumberError as exc:
        raise FenError(field, str(exc)) from None
