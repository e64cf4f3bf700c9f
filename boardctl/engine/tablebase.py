"""King and falcon against king: a retrograde tablebase, and the engine's probe.

The sources disagree on whether king and falcon force mate on a bare king
(RULES.md, "End of the game"); this table settles it for a board size by
retrograde analysis.  It holds every placement of the strong side's king
and falcon and the weak side's king, with either side to move, and gives
the distance to mate in plies (DTM) under best play by both sides, or a
draw.  The fifty-move rule is not part of the table (see :func:`answer`).

The table is built with the rules core's own lookups (king steps and the
falcon's attacks with blockers, :mod:`boardctl.rules.geometry`); the script
``scripts/tablebase.py`` cross-checks it against the full rules core
(``Position``, legal moves, checkmate) and writes the file the engine reads.

The strong side is White in the table: a position where Black has the
falcon is mirrored rank for rank with the colours swapped.

The answer (README, "King and falcon against king"): on every board the
presets use, the falcon's side to move mates from every legal position.
"""

from __future__ import annotations

import lzma
import time
from collections.abc import Iterable, MutableSequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from ..rules import Geometry, Move, Position
from ..rules.pieces import FALCON, KING, WHITE
from .limits import Info

DRAW = 0  # in a finished table: no forced mate (or not yet known, while building)
ILLEGAL = 255  # kings touching, two men on one square, or the side not to move in check
MAGIC = b"boardctl KFK table 1\n"


def data_name(files: int, ranks: int) -> str:
    """The file a board size's table ships in."""
    return f"kfk-{files}x{ranks}.xz"


@dataclass(frozen=True)
class FalconTable:
    """DTM for K+F v K on one board size.

    ``strong`` and ``weak`` are indexed by :meth:`index` and hold, for the
    strong and for the weak side to move, ``DRAW``, ``ILLEGAL`` or the DTM
    in plies plus one (so a checkmate, DTM 0, is 1).
    """

    files: int
    ranks: int
    strong: bytes
    weak: bytes

    @property
    def size(self) -> int:
        return self.files * self.ranks

    def index(self, king: int, falcon: int, bare: int) -> int:
        """``king`` and ``falcon``: the strong side's squares; ``bare``: the weak king's."""
        n = self.size
        return (king * n + falcon) * n + bare

    def dtm(self, king: int, falcon: int, bare: int, strong_to_move: bool) -> int | None:
        """Plies to mate with best play, or None when the position is drawn.

        :raises ValueError: for a position that cannot arise (kings touching,
            two men on one square, the side not to move in check).
        """
        value = (self.strong if strong_to_move else self.weak)[self.index(king, falcon, bare)]
        if value == ILLEGAL:
            raise ValueError("not a legal K+F v K position")
        return None if value == DRAW else value - 1

    def to_bytes(self) -> bytes:
        body = bytes((self.files, self.ranks)) + self.strong + self.weak
        return MAGIC + lzma.compress(body, preset=9 | lzma.PRESET_EXTREME)

    @classmethod
    def from_bytes(cls, data: bytes) -> FalconTable:
        """:raises ValueError: when ``data`` is not a whole table."""
        if not data.startswith(MAGIC):
            raise ValueError("not a boardctl K+F v K table")
        try:
            body = lzma.decompress(data[len(MAGIC) :])
        except lzma.LZMAError as exc:
            raise ValueError(f"damaged K+F v K table: {exc}") from None
        if len(body) < 2:
            raise ValueError("damaged K+F v K table: too short")
        files, ranks = body[0], body[1]
        count = (files * ranks) ** 3
        if len(body) != 2 + 2 * count:
            raise ValueError("damaged K+F v K table: wrong length")
        return cls(files, ranks, body[2 : 2 + count], body[2 + count :])


def generate(geo: Geometry) -> FalconTable:
    """Build the table for ``geo`` by retrograde analysis.

    Every position starts undecided.  Checkmates are lost in 0; from the
    positions lost in ``n`` plies, un-moving the strong side finds the
    positions won in ``n + 1`` (the first time a position is reached is its
    shortest win); from those, un-moving the weak king counts down each
    predecessor's moves that do not lose yet, and a predecessor whose count
    reaches zero is lost in ``n + 2`` (its longest defence).  What is left
    undecided when no new position turns up is a draw.  The weak king's
    capture of the falcon (to K v K, a draw) and stalemate are counted as
    moves that never lose, so they keep a position drawn.
    """
    strong, weak, moves_left, lost = _mates(geo)
    neighbours = [geo.squares(geo.tables.king[sq]) for sq in range(geo.size)]
    plies = 0
    while lost:
        won = _won_before(geo, neighbours, strong, lost, plies + 2)  # DTM plies + 1 + 1
        lost = _lost_before(geo, neighbours, weak, moves_left, won, plies + 3)
        plies += 2
    return FalconTable(geo.files, geo.ranks, bytes(strong), bytes(weak))


def _mates(geo: Geometry) -> tuple[bytearray, bytearray, bytearray, list[int]]:
    """Every legal position's start: the strong side's to move undecided
    (DRAW) where the weak king is not in check, the weak side's decided where
    it has no move (checkmate, lost in 0; stalemate, a draw that never
    counts down), and each weak position's count of moves not yet losing."""
    t = geo.tables
    n = geo.size
    king_bb = t.king
    falcon_attacks = t.falcon_attacks
    # The falcon's attacks with one blocker, the strong king: what the weak
    # king may not step to (its own square is empty once it moves).
    guarded = [falcon_attacks(f, 1 << k) for f in range(n) for k in range(n)]
    strong = bytearray([ILLEGAL]) * n**3
    weak = bytearray([ILLEGAL]) * n**3
    moves_left = bytearray(n**3)
    lost: list[int] = []
    for k in range(n):
        kb = 1 << k
        for f in range(n):
            if f == k:
                continue
            safe = ~(king_bb[k] | guarded[f * n + k] | kb)
            base = (k * n + f) * n
            for b in range(n):
                bb = 1 << b
                if b in (f, k) or king_bb[k] & bb:
                    continue
                checked = falcon_attacks(f, kb | bb) & bb
                i = base + b
                if not checked:
                    strong[i] = DRAW
                escapes = (king_bb[b] & safe).bit_count()
                moves_left[i] = escapes
                if escapes:
                    weak[i] = DRAW
                elif checked:
                    weak[i] = 1  # checkmate: DTM 0
                    lost.append(i)
                else:
                    weak[i] = DRAW  # stalemate
                    moves_left[i] = 1  # never counted down to a loss
    return strong, weak, moves_left, lost


def _won_before(
    geo: Geometry, neighbours: list[list[int]], strong: bytearray, lost: list[int], value: int
) -> list[int]:
    """The strong side's positions one move before ``lost`` not yet won:
    marked ``value`` (the first time is the shortest win) and returned."""
    n = geo.size
    king_bb = geo.tables.king
    falcon_attacks = geo.tables.falcon_attacks
    won: list[int] = []
    for i in lost:
        k, rest = divmod(i, n * n)
        f, b = divmod(rest, n)
        # The strong king came from a neighbour not touching the weak king.
        for s in neighbours[k]:
            if s in (f, b) or king_bb[s] >> b & 1:
                continue
            j = (s * n + f) * n + b
            if strong[j] == DRAW:
                strong[j] = value
                won.append(j)
        # The falcon came from a square it reaches from here (its paths
        # run both ways), where it does not check the weak king.
        occ = 1 << k | 1 << b
        for s in geo.squares(falcon_attacks(f, occ) & ~occ):
            j = (k * n + s) * n + b
            if strong[j] == DRAW:  # ILLEGAL when the falcon there gives check
                strong[j] = value
                won.append(j)
    return won


def _lost_before(
    geo: Geometry,
    neighbours: list[list[int]],
    weak: bytearray,
    moves_left: bytearray,
    won: list[int],
    value: int,
) -> list[int]:
    """The weak side's positions one move before ``won``: each loses one
    move that does not lose yet, and those left with none are lost in
    ``value`` (the longest defence) and returned."""
    n = geo.size
    king_bb = geo.tables.king
    lost: list[int] = []
    for i in won:
        k, rest = divmod(i, n * n)
        f, b = divmod(rest, n)
        base = (k * n + f) * n
        sources = [base + s for s in neighbours[b] if s not in (k, f) and not king_bb[k] >> s & 1]
        count_down(weak, moves_left, sources, value, lost)
    return lost


def count_down(
    weak: bytearray,
    moves_left: bytearray,
    sources: Iterable[int],
    value: int,
    lost: MutableSequence[int],
) -> None:
    """Each of the weak side's positions in ``sources`` not decided yet has
    one move fewer that does not lose; those left with none are lost in
    ``value`` (the longest defence) and appended to ``lost``."""
    for j in sources:
        if weak[j] == DRAW:
            left = moves_left[j] - 1
            moves_left[j] = left
            if not left:
                weak[j] = value
                lost.append(j)


def fen_of(geo: Geometry, king: int, falcon: int, bare: int, strong_to_move: bool) -> str:
    """The FEN of a table position, with White as the strong side."""
    return fen_with(geo, {king: "K", falcon: "F", bare: "k"}, strong_to_move)


def fen_with(geo: Geometry, board: dict[int, str], white_to_move: bool) -> str:
    """The FEN of a few men (square to FEN letter) on an otherwise empty board,
    with no castling and no en passant."""
    rows = []
    for rank in range(geo.ranks - 1, -1, -1):
        row, empty = "", 0
        for file in range(geo.files):
            letter = board.get(geo.square(file, rank))
            if letter:
                row += (str(empty) if empty else "") + letter
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return f"{'/'.join(rows)} {'w' if white_to_move else 'b'} - - 0 1"


@cache
def table_for(files: int, ranks: int) -> FalconTable | None:
    """The table shipped for a board size (read once), or None when none ships.

    :raises ValueError: when the shipped file is damaged.
    """
    source = resources.files("boardctl.engine").joinpath("data", data_name(files, ranks))
    try:
        data = source.read_bytes()
    except FileNotFoundError:
        return None
    return FalconTable.from_bytes(data)


def placement(pos: Position) -> tuple[int, int, int, bool] | None:
    """``(king, falcon, bare king, strong side to move)`` in the table's terms
    (White strong), or None when the material is not exactly K+F v K."""
    if not pos.geometry.grid:
        return None  # the tables are of rectangles; the hexagon's endings are searched
    men = pos.colors[0] | pos.colors[1]
    falcons = pos.pieces[FALCON]
    if men & ~pos.pieces[KING] != falcons or falcons.bit_count() != 1:
        return None
    falcon = falcons.bit_length() - 1
    strong = pos.squares[falcon] >> 3
    king, bare = pos.kings[strong], pos.kings[strong ^ 1]
    if strong != WHITE:  # mirror the ranks: Black's falcon becomes White's
        files, top = pos.geometry.files, pos.geometry.size - pos.geometry.files
        king, falcon, bare = (top - sq + 2 * (sq % files) for sq in (king, falcon, bare))
    return king, falcon, bare, pos.turn == strong


def value(pos: Position, table: FalconTable) -> int | None:
    """Plies to mate for ``pos`` (K+F v K, or K v K after the falcon's
    capture, a draw), or None when it is drawn.

    :raises ValueError: for any other material.
    """
    where = placement(pos)
    if where is None:
        if pos.colors[0] | pos.colors[1] == pos.pieces[KING]:
            return None
        raise ValueError("not a K+F v K position")
    return table.dtm(*where)


def choose(pos: Position, table: FalconTable) -> tuple[int, int | None] | None:
    """The table's move for ``pos`` (a legal move exists) and the position's
    DTM (None: drawn), or None when the table leaves the choice to the search.

    Won: a move to a position lost in one ply fewer (the fastest mate).
    Lost: a move to a position won in one ply fewer (the longest defence).
    Drawn for the bare king: take the falcon if it can (K v K is dead), else
    any move that keeps the draw.  Drawn for the falcon's side (no board
    ships such a position, see README): the search plays.
    """
    where = placement(pos)
    if where is None:
        return None
    dtm = table.dtm(*where)
    strong_to_move = where[3]
    if dtm is None and strong_to_move:
        return None
    captures: list[int] = []
    keeps: list[int] = []
    for code in pos.legal_codes():
        captured = pos.squares[code >> 7 & 127]
        pos.make(code)
        after = value(pos, table)
        pos.unmake()
        if dtm is None:
            if after is None:
                (captures if captured else keeps).append(code)
        elif after is not None and after == dtm - 1:
            return code, dtm
    drawing = captures + keeps
    if dtm is None and drawing:
        return drawing[0], None
    raise ValueError("the K+F v K table disagrees with the rules core")


def answer(pos: Position) -> tuple[Move, Info] | None:
    """The engine's move from the table, with the line it expects and its
    score, or None when ``pos`` is not K+F v K on a board with a table (or
    the table leaves it to the search).

    The table knows no fifty-move rule.  Every K+F v K ending in a game
    starts at a clock of 0 (the capture or promotion that made it), and the
    longest mate on the shipped boards is shorter than 100 plies; only a
    FEN set up with a high clock can run out first, and then the score is a
    draw's while the move stays the table's (the best try there is).
    """
    started = time.perf_counter()
    if placement(pos) is None:
        return None
    geo = pos.geometry
    try:
        table = table_for(geo.files, geo.ranks)
        first = None if table is None else choose(pos, table)
    except ValueError:
        return None  # a damaged table: the search plays, as without one
    if first is None or table is None:
        return None
    code, dtm = first
    line = [pos.to_move(code)]
    made = 1
    pos.make(code)
    try:
        while dtm is not None and made < dtm:
            step = choose(pos, table)
            if step is None:
                break
            line.append(pos.to_move(step[0]))
            pos.make(step[0])
            made += 1
    except ValueError:
        pass  # the line is only a report; the first move was checked
    finally:
        for _ in range(made):
            pos.unmake()
    elapsed = time.perf_counter() - started
    if dtm is None or pos.halfmove_clock + dtm > 100:
        return line[0], Info(1, 0, None, made, elapsed, line[:1], 1)
    moves = (dtm + 1) // 2
    mate = moves if dtm % 2 else -moves
    return line[0], Info(dtm, None, mate, made, elapsed, line, dtm)
