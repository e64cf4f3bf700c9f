"""A Falcon Chess position: pieces, side to move, rights; FEN; make/unmake.

State is kept three ways at once because each is fastest for something:
``squares`` (a mailbox: what stands on a square), ``pieces[type]`` and
``colors[colour]`` (bitboards for move generation).  ``make`` and ``unmake``
keep them and the Zobrist ``hash`` in step incrementally.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from . import movegen
from .attacks import attackers
from .boardgeometry import Bitboard, BoardGeometry, BoardTables
from .castling import castling_shapes
from .errors import FenError, IllegalMoveError
from .fen import pawn_start_squares, read_fen, write_fen
from .geometry import Square
from .moves import CASTLE, DOUBLE_PUSH, EN_PASSANT, Move, encode
from .pieces import (
    BLACK,
    KING,
    PAWN,
    ROOK,
    Color,
    PieceType,
    piece_symbol,
)
from .variants import DEFAULT_VARIANT, Variant
from .zobrist import keys_for

_Undo = tuple[int, int, int, "Square | None", int, int, int]


class Position:
    """A position of one variant.  ``Position()`` is the start position.

    Every board is read through its geometry and the tables it supplies
    (:class:`~boardctl.rules.boardgeometry.BoardTables`), so one class and
    one move generator serve the rectangles and the hexagons.

    :raises FenError: when ``fen`` is malformed; ``.field`` names the part.
    """

    __slots__ = (
        "_ep_key",
        "_ep_keys",
        "_legal",
        "_legal_key",
        "_rights_lost",
        "_stack",
        "castling",
        "colors",
        "double_step_from",
        "ep_square",
        "fullmove_number",
        "geometry",
        "halfmove_clock",
        "hash",
        "kings",
        "pieces",
        "squares",
        "tables",
        "turn",
        "variant",
        "zobrist",
    )

    tables: BoardTables
    geometry: BoardGeometry

    def __init__(self, fen: str | None = None, variant: Variant = DEFAULT_VARIANT) -> None:
        self.variant = variant
        self.geometry = variant.geometry
        self.tables = self.geometry.tables
        self.zobrist = keys_for(self.geometry.size, self.geometry.files)
        self._ep_keys = _ep_cell_keys(variant)
        self.double_step_from = pawn_start_squares(variant)
        self._rights_lost = [0] * self.geometry.size
        for rank in (0, self.geometry.ranks - 1) if variant.castling else ():
            rooks = 0
            for rook_file in variant.rook_files:
                rook_sq = self.geometry.square(rook_file, rank)
                self._rights_lost[rook_sq] = 1 << rook_sq
                rooks |= 1 << rook_sq
            self._rights_lost[self.geometry.square(variant.king_file, rank)] = rooks
        self._stack: list[_Undo] = []
        self._legal: list[int] = []
        self._legal_key: tuple[int, int, int] | None = None
        self.set_fen(variant.start_fen if fen is None else fen)

    # ------------------------------------------------------------------ FEN
    def set_fen(self, fen: str) -> None:
        """Replace the whole position (and clear the move stack).

        :raises FenError: naming the field that is wrong.
        """
        fields = read_fen(fen, self.variant)
        self.squares = fields.squares
        self.pieces = fields.pieces
        self.colors = fields.colors
        self.kings = fields.kings
        self.turn = fields.turn
        self.castling = fields.castling
        self.ep_square = fields.ep_square
        self.halfmove_clock = fields.halfmove_clock
        self.fullmove_number = fields.fullmove_number
        if self.is_attacked(self.kings[self.turn ^ 1], self.turn):
            raise FenError("position", "the side not to move is in check")
        self._stack = []
        self._ep_key = self._ep_key_for(self.ep_square)
        self.hash = self.compute_hash()

    def fen(self) -> str:
        return write_fen(
            self.variant,
            self.squares,
            self.turn,
            self.castling,
            self.ep_square,
            self.halfmove_clock,
            self.fullmove_number,
        )

    def board_fen(self) -> str:
        return self.fen().split()[0]

    # ----------------------------------------------------------------- hash
    def compute_hash(self) -> int:
        """The Zobrist hash from scratch (make/unmake keep ``hash`` up to date)."""
        z = self.zobrist
        h = 0
        for sq, piece in enumerate(self.squares):
            h ^= z.piece[piece][sq]
        if self.turn == BLACK:
            h ^= z.black_to_move
        return h ^ z.castling(self.castling) ^ self._ep_key

    def _ep_key_for(self, ep: Square | None) -> int:
        """Hash the en-passant file only when a capture there is possible.

        Otherwise two positions that differ only in a useless ep square would
        hash apart, and threefold repetition would be missed.
        """
        if ep is None:
            return 0
        capturers = self.tables.pawn_attacks[self.turn ^ 1][ep]
        if capturers & self.pieces[PAWN] & self.colors[self.turn]:
            return self._ep_keys[ep]
        return 0

    # ------------------------------------------------------------ make/unmake
    def make(self, code: int) -> None:
        """Play a packed move from :meth:`legal_codes` (no legality check)."""
        frm = code & 127
        to = code >> 7 & 127
        flag = code >> 17
        sqs = self.squares
        pieces = self.pieces
        colors = self.colors
        zp = self.zobrist.piece
        us = self.turn
        piece = sqs[frm]
        ptype = piece & 7
        captured = 0 if flag == CASTLE else sqs[to]
        h = self.hash ^ self._ep_key ^ self.zobrist.black_to_move
        # fmt: off
        self._stack.append((code, captured, self.castling, self.ep_square,
                            self.halfmove_clock, self.hash, self._ep_key))
        # fmt: on
        frm_bb = 1 << frm
        to_bb = 1 << to
        if captured:
            pieces[captured & 7] ^= to_bb
            colors[us ^ 1] ^= to_bb
            h ^= zp[captured][to]
        pieces[ptype] ^= frm_bb | to_bb
        colors[us] ^= frm_bb | to_bb
        sqs[frm] = 0
        sqs[to] = piece
        h ^= zp[piece][frm] ^ zp[piece][to]
        if ptype == KING:
            self.kings[us] = to
        self.ep_square = None
        self._ep_key = 0
        if ptype == PAWN or captured:
            self.halfmove_clock = 0
        else:
            self.halfmove_clock += 1
        if flag:
            h = self._make_flagged(flag, frm, to, piece, h)
        promo = code >> 14 & 7
        if promo:
            new = promo | us << 3
            pieces[PAWN] ^= to_bb
            pieces[promo] |= to_bb
            sqs[to] = new
            h ^= zp[piece][to] ^ zp[new][to]
        lost = self._rights_lost[frm] | self._rights_lost[to]
        if self.castling & lost:
            z = self.zobrist
            h ^= z.castling(self.castling)
            self.castling &= ~lost
            h ^= z.castling(self.castling)
        if us == BLACK:
            self.fullmove_number += 1
        self.turn = us ^ 1
        self.hash = h

    def _make_flagged(self, flag: int, frm: int, to: int, piece: int, h: int) -> int:
        """:meth:`make`'s part for a double push, en passant or castling, with
        the king or pawn already moved; returns the hash ``h`` updated."""
        sqs, pieces, colors, zp = self.squares, self.pieces, self.colors, self.zobrist.piece
        us = self.turn
        if flag == DOUBLE_PUSH:
            ep = self.tables.pawn_push[us][frm]
            self.ep_square = ep
            if self.tables.pawn_attacks[us][ep] & pieces[PAWN] & colors[us ^ 1]:
                self._ep_key = self._ep_keys[ep]
                h ^= self._ep_key
        elif flag == EN_PASSANT:
            victim = self.tables.pawn_push[us ^ 1][to]
            vbb = 1 << victim
            vpiece = sqs[victim]
            pieces[PAWN] ^= vbb
            colors[us ^ 1] ^= vbb
            sqs[victim] = 0
            h ^= zp[vpiece][victim]
        elif flag == CASTLE:
            rook_from, rook_to = self.castle_rook_squares(frm, to)
            rook = sqs[rook_from]
            rbb = (1 << rook_from) | (1 << rook_to)
            pieces[ROOK] ^= rbb
            colors[us] ^= rbb
            h ^= zp[rook][rook_from] ^ zp[rook][rook_to]
            # The rook may land on the king's start square (one-square
            # castling), so the mailbox is written in this order.
            sqs[rook_from] = 0
            sqs[to] = piece
            sqs[rook_to] = rook
        return h

    def unmake(self) -> int:
        """Take back the last :meth:`make` (or null move); returns its packed move."""
        code, captured, castling, ep, halfmove, h, ep_key = self._stack.pop()
        if code < 0:  # a null move (make_null)
            self.turn ^= 1
            self.ep_square, self.halfmove_clock, self.hash, self._ep_key = ep, halfmove, h, ep_key
            return code
        frm = code & 127
        to = code >> 7 & 127
        flag = code >> 17
        us = self.turn ^ 1
        sqs = self.squares
        pieces = self.pieces
        colors = self.colors
        piece = sqs[to]
        frm_bb = 1 << frm
        to_bb = 1 << to
        if code >> 14 & 7:
            pieces[piece & 7] ^= to_bb
            pieces[PAWN] |= to_bb
            piece = PAWN | us << 3
        ptype = piece & 7
        if flag == CASTLE:
            rook_from, rook_to = self.castle_rook_squares(frm, to)
            rook = sqs[rook_to]
            rbb = (1 << rook_from) | (1 << rook_to)
            pieces[ROOK] ^= rbb
            colors[us] ^= rbb
            sqs[rook_to] = 0
            sqs[to] = 0
            sqs[rook_from] = rook
        pieces[ptype] ^= frm_bb | to_bb
        colors[us] ^= frm_bb | to_bb
        sqs[to] = captured
        sqs[frm] = piece
        if captured:
            pieces[captured & 7] |= to_bb
            colors[us ^ 1] |= to_bb
        if flag == EN_PASSANT:
            victim = self.tables.pawn_push[us ^ 1][to]
            vbb = 1 << victim
            pieces[PAWN] |= vbb
            colors[us ^ 1] |= vbb
            sqs[victim] = PAWN | (us ^ 1) << 3
        if ptype == KING:
            self.kings[us] = frm
        if us == BLACK:
            self.fullmove_number -= 1
        self.turn = us
        self.castling = castling
        self.ep_square = ep
        self.halfmove_clock = halfmove
        self.hash = h
        self._ep_key = ep_key
        return code

    def make_null(self) -> None:
        """Pass the move (for the engine's null-move pruning; never in check)."""
        self._stack.append(
            (
                -1,
                0,
                self.castling,
                self.ep_square,
                self.halfmove_clock,
                self.hash,
                self._ep_key,
            )
        )
        self.hash ^= self._ep_key ^ self.zobrist.black_to_move
        self.ep_square = None
        self._ep_key = 0
        self.halfmove_clock += 1
        self.turn ^= 1

    def unmake_null(self) -> None:
        """Take back :meth:`make_null` (:meth:`unmake` does the same)."""
        self.unmake()

    def hash_history(self) -> list[int]:
        """The hash before each move made since the last :meth:`set_fen`."""
        return [entry[5] for entry in self._stack]

    def castle_rook_squares(self, king_from: Square, king_to: Square) -> tuple[Square, Square]:
        """Where the rook comes from and goes to when the king castles so."""
        base = king_from - self.geometry.file_of(king_from)
        if king_to < king_from:
            return base + self.variant.rook_files[0], king_to + 1
        return base + self.variant.rook_files[1], king_to - 1

    def en_passant_victim(self, to: Square) -> Square:
        """Where the pawn stands that an en passant capture onto ``to`` by
        the side to move removes: one step past ``to`` in its own direction."""
        return self.tables.pawn_push[self.turn ^ 1][to]

    @property
    def ply_stack(self) -> list[int]:
        """Packed moves made since the last :meth:`set_fen`, oldest first."""
        return [entry[0] for entry in self._stack]

    # -------------------------------------------------------------- queries
    def piece_at(self, sq: Square) -> tuple[PieceType, Color] | None:
        piece = self.squares[sq]
        return (PieceType(piece & 7), piece >> 3) if piece else None

    def attackers(self, sq: Square, by: Color, occupied: Bitboard | None = None) -> Bitboard:
        """Pieces of colour ``by`` that attack ``sq`` (with ``occupied`` as the blockers)."""
        occ = self.colors[0] | self.colors[1] if occupied is None else occupied
        return attackers(self, sq, by, occ)

    def is_attacked(self, sq: Square, by: Color) -> bool:
        return bool(attackers(self, sq, by, self.colors[0] | self.colors[1]))

    def checkers(self) -> Bitboard:
        return self.attackers(self.kings[self.turn], self.turn ^ 1)

    def is_check(self) -> bool:
        return self.is_attacked(self.kings[self.turn], self.turn ^ 1)

    def legal_codes(self) -> list[int]:
        """Every legal move, packed (the fast interface for perft and the engine)."""
        return self._legal_now()[:]

    def _legal_now(self) -> list[int]:
        """The legal codes, kept for the position they were made for (its hash,
        and the occupancy as a check on it): code_of, is_legal and is_capture
        ask for them at every move they look at, and a generation was most of
        what that cost.  Not to be changed: legal_codes hands out copies."""
        key = (self.hash, self.colors[0], self.colors[1])
        if key != self._legal_key:
            self._legal = movegen.legal_codes(self)
            self._legal_key = key
        return self._legal

    def pseudo_legal_codes(self) -> list[int]:
        """Moves by the pieces' movement rules, legal or not (see movegen)."""
        return movegen.pseudo_legal_codes(self)

    def castling_shapes(self) -> list[int]:
        """Castlings by the rights and empty squares alone, legal or not (see castling)."""
        return castling_shapes(self)

    def legal_captures(self) -> list[int]:
        """Legal captures and promotions, packed (all legal moves when in check)."""
        return movegen.legal_captures(self)

    def count_legal(self) -> int:
        """How many legal moves there are, without building them."""
        return movegen.count_legal(self)

    def copy(self) -> Position:
        """An independent position with the same state and move history
        (so repetitions and :meth:`unmake` work on the copy too)."""
        new = type(self).__new__(type(self))
        for name in Position.__slots__:
            setattr(new, name, getattr(self, name))
        new.squares = self.squares[:]
        new.pieces = self.pieces[:]
        new.colors = self.colors[:]
        new.kings = self.kings[:]
        new._stack = self._stack[:]
        return new

    def with_turn(self, colour: Color) -> Position:
        """The same pieces and castling rights with ``colour`` to move and no
        en-passant square: a new position, with no moves behind it (the
        teaching mode shows where the other side's lifted piece may go).

        :raises FenError: when the side not to move would be in check: that
            is no position.
        """
        new = self.copy()
        new.turn = colour
        new.ep_square = None
        new._ep_key = 0
        new._stack = []
        if new.is_attacked(new.kings[colour ^ 1], colour):
            raise FenError("position", "the side not to move is in check")
        new.hash = new.compute_hash()
        return new

    # --------------------------------------------------- moves as values
    def to_move(self, code: int) -> Move:
        frm = code & 127
        to = code >> 7 & 127
        if code >> 17 == CASTLE and abs(to - frm) == 1:
            to = self.castle_rook_squares(frm, to)[0]
        promo = code >> 14 & 7
        return Move(frm, to, PieceType(promo) if promo else None)

    def legal_moves(self) -> list[Move]:
        return [self.to_move(code) for code in self._legal_now()]

    def iter_legal(self) -> Iterator[tuple[Move, int]]:
        for code in self._legal_now():
            yield self.to_move(code), code

    def code_of(self, move: Move) -> int:
        """The packed form of a legal move.

        :raises IllegalMoveError: when the move is not legal here.
        """
        if (code := self._legal_code(move)) is None:
            raise IllegalMoveError(f"illegal move {self.uci(move)} in {self.fen()}")
        return code

    def is_legal(self, move: Move) -> bool:
        return self._legal_code(move) is not None

    def _legal_code(self, move: Move) -> int | None:
        # Only the codes from the move's square are unpacked (unpacking all was
        # a quarter of the CPU of the board's property tests).
        frm = move.from_square
        for code in self._legal_now():
            if code & 127 == frm and self.to_move(code) == move:
                return code
        return None

    def push(self, move: Move) -> None:
        """Play a move.  :raises IllegalMoveError: when it is not legal."""
        self.make(self.code_of(move))

    def pop(self) -> Move:
        return self.to_move(self.unmake())

    def is_castling(self, move: Move) -> bool:
        return any(
            candidate == move and code >> 17 == CASTLE for candidate, code in self.iter_legal()
        )

    def is_capture(self, move: Move) -> bool:
        code = self.code_of(move)
        flag = code >> 17
        return flag == EN_PASSANT or (flag != CASTLE and bool(self.squares[code >> 7 & 127]))

    def uci(self, move: Move) -> str:
        """Coordinate notation: ``e2e4``, ``b7b8f``, ``f1j1`` (see ``moves``)."""
        name = self.geometry.name
        promo = move.promotion.symbol if move.promotion else ""
        return f"{name(move.from_square)}{name(move.to_square)}{promo}"

    def open_falcon_paths(self, frm: Square, to: Square) -> list[tuple[Square, Square]]:
        """The paths from ``frm`` to ``to`` whose two intermediate squares are empty.

        Each path is ``(first, second)``: the squares the falcon crosses, in
        order.  Empty when ``to`` is not a falcon move away.
        """
        occ = self.colors[0] | self.colors[1]
        paths = self.tables.falcon_paths[frm].get(to, ())
        return [(a, b) for a, b in paths if not (occ >> a & 1 or occ >> b & 1)]

    def __repr__(self) -> str:
        return f"Position({self.fen()!r}, variant={self.variant.name!r})"

    def __str__(self) -> str:
        sqs = self.squares
        return "\n".join(
            " ".join(piece_symbol(sqs[sq]) if sqs[sq] else "." for sq in row)
            for row in self.geometry.fen_rows()
        )


@cache
def _ep_cell_keys(variant: Variant) -> list[int]:
    """The en-passant Zobrist key for each cell: its file's key."""
    geo = variant.geometry
    keys = keys_for(geo.size, geo.files)
    return [keys.ep_file[geo.file_of(sq)] for sq in range(geo.size)]


__all__ = ["Position", "encode"]
