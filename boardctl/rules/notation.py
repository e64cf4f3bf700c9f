"""Move notation: coordinates (``e2e4``) and SAN (``Nf3``, ``exd5``, ``b8=F+``).

Castling in SAN: ``O-O`` towards the j-file rook, ``O-O-O`` towards the a-file
rook.  Where a variant lets the king castle to more than one square on a side
(free castling), the king's destination follows after a colon, ``O-O:h1`` or
``O-O-O:c1``: the colon is one of the characters PGN allows inside a move
token, and the square tells the one-square castle (``O-O:g1``) from the plain
king step (``Kg1``).  Zeros (``0-0``) are read as well.
"""

from __future__ import annotations

import re

from .digits import shown
from .errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from .geometry import SquareError
from .moves import CASTLE, Move
from .pieces import PAWN, SYMBOLS, PieceType
from .position import Position

_UCI = re.compile(r"^([a-z][0-9]{1,2})([a-z][0-9]{1,2})([qfrbn]?)$")
# The disambiguating file skips "x", or it would swallow the capture mark.
_SAN = re.compile(r"^([NBRQKF])?([a-wyz])?([0-9]{1,2})?(x)?([a-z][0-9]{1,2})(?:=?([NBRQFnbrqf]))?$")
_CASTLE = re.compile(r"^([O0]-[O0](?:-[O0])?)(?::([a-z][0-9]{1,2}))?$")


def parse_uci(pos: Position, text: str) -> Move:
    """A legal move from coordinate notation.

    :raises InvalidMoveError: when the text is not coordinate notation.
    :raises IllegalMoveError: when it names no legal move here.
    """
    match = _UCI.match(text.strip())
    if not match:
        raise InvalidMoveError(f"not a move in coordinate notation: {shown(text)}")
    try:
        frm = pos.geometry.parse_square(match.group(1))
        to = pos.geometry.parse_square(match.group(2))
    except SquareError as exc:
        raise InvalidMoveError(str(exc)) from None
    promo = PieceType(SYMBOLS.index(match.group(3))) if match.group(3) else None
    move = Move(frm, to, promo)
    if not pos.is_legal(move):
        raise IllegalMoveError(f"illegal move {text.strip()} in {pos.fen()}")
    return move


def _castle_text(pos: Position, code: int) -> str:
    frm = code & 127
    to = code >> 7 & 127
    side = "O-O" if to > frm else "O-O-O"
    variant = pos.variant
    if variant.castle_max is not None and variant.castle_min == variant.castle_max:
        return side
    return f"{side}:{pos.geometry.name(to)}"


def san(pos: Position, move: Move) -> str:
    """SAN of a legal move, with ``+`` or ``#``.

    :raises IllegalMoveError: when the move is not legal here.
    """
    code = pos.code_of(move)
    text = _san_body(pos, move, code)
    pos.make(code)
    if pos.is_check():
        text += "#" if pos.count_legal() == 0 else "+"
    pos.unmake()
    return text


def _san_body(pos: Position, move: Move, code: int) -> str:
    if code >> 17 == CASTLE:
        return _castle_text(pos, code)
    geo = pos.geometry
    frm, to = move.from_square, move.to_square
    piece = pos.squares[frm] & 7
    capture = bool(pos.squares[to]) or (piece == PAWN and geo.file_of(frm) != geo.file_of(to))
    dest = geo.name(to)
    if piece == PAWN:
        text = f"{geo.name(frm)[0]}x{dest}" if capture else dest
        if move.promotion:
            text += "=" + move.promotion.symbol.upper()
        return text
    rivals = [
        other.from_square
        for other, other_code in pos.iter_legal()
        if other.to_square == to
        and other.from_square != frm
        and pos.squares[other.from_square] & 7 == piece
        and other_code >> 17 != CASTLE
    ]
    hint = ""
    if rivals:
        # By the name's parts, so that Glinski's bent ranks count as ranks.
        file, rank = geo.name(frm)[0], geo.name(frm)[1:]
        if all(geo.name(r)[0] != file for r in rivals):
            hint = file
        elif all(geo.name(r)[1:] != rank for r in rivals):
            hint = rank
        else:
            hint = file + rank
    return f"{SYMBOLS[piece].upper()}{hint}{'x' if capture else ''}{dest}"


def parse_san(pos: Position, text: str) -> Move:
    """A legal move from SAN (lenient about ``+``, ``#``, ``!``, ``?`` and ``=``).

    :raises InvalidMoveError: when the text is not SAN.
    :raises IllegalMoveError: when it names no legal move here.
    :raises AmbiguousMoveError: when it names more than one.
    """
    clean = text.strip().rstrip("+#!?")
    castle = _CASTLE.match(clean)
    if castle:
        return _parse_castle(pos, text, castle.group(1).replace("0", "O"), castle.group(2))
    match = _SAN.match(clean)
    if not match:
        raise InvalidMoveError(f"not a move in SAN: {shown(text)}")
    letter, file, rank, _, dest, promo = match.groups()
    geo = pos.geometry
    try:
        to = geo.parse_square(dest)
    except SquareError as exc:
        raise InvalidMoveError(str(exc)) from None
    piece = SYMBOLS.index(letter.lower()) if letter else PAWN
    promotion = PieceType(SYMBOLS.index(promo.lower())) if promo else None
    found = [
        move
        for move, code in pos.iter_legal()
        if move.to_square == to
        and code >> 17 != CASTLE
        and pos.squares[move.from_square] & 7 == piece
        and move.promotion == promotion
        and (file is None or geo.name(move.from_square)[0] == file)
        and (rank is None or geo.name(move.from_square)[1:] == rank)
    ]
    return _one(pos, text, found)


def _parse_castle(pos: Position, text: str, side: str, square: str | None) -> Move:
    found = []
    for move, code in pos.iter_legal():
        if code >> 17 != CASTLE:
            continue
        frm, king_to = code & 127, code >> 7 & 127
        if (side == "O-O") != (king_to > frm):
            continue
        if square is not None and pos.geometry.name(king_to) != square:
            continue
        found.append(move)
    return _one(pos, text, found)


def _one(pos: Position, text: str, found: list[Move]) -> Move:
    if not found:
        raise IllegalMoveError(f"illegal move {text.strip()} in {pos.fen()}")
    if len(found) > 1:
        options = ", ".join(san(pos, m) for m in found)
        raise AmbiguousMoveError(f"{text.strip()} could be any of {options}")
    return found[0]


def parse_move(pos: Position, text: str) -> Move:
    """Coordinate notation or SAN, whichever the text is."""
    if _UCI.match(text.strip()):
        return parse_uci(pos, text)
    return parse_san(pos, text)
