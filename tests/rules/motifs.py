"""Positions built around one king to hit one rule of move legality at a time.

Random play rarely reaches a double check, a pin along a falcon path or an en
passant capture that opens one, so the strategies here put such a motif on the
board on purpose and scatter other pieces around it.  Each returns
``(variant name, FEN)`` with the side to move being the one the motif is about.

A motif is a tuple of features, applied in order around the mover's king:

- ``falcon-check``: an enemy falcon a falcon move away, with one, two or all
  three of its paths open (the others closed by some piece);
- ``falcon-shield``: an enemy falcon whose paths are all closed, mostly by
  pieces of the mover: a shield that is pinned although it is on no line;
- ``line-check``: an enemy rook, bishop or queen on an open line to the king,
  often along a line that crosses an open falcon path placed before it;
- ``leaper-check``: an enemy knight or pawn giving check;
- ``line-pin``: an enemy line piece with exactly one of the mover's pieces
  between it and the king;
- ``interposers``: pieces of the mover placed so that each can reach a square
  on an open check path or line (the squares a block would use);
- ``en-passant``: a pawn that has just moved two squares beside a pawn of the
  mover, the king and an enemy falcon or line piece placed so that one of the
  squares the capture empties or fills lies on a path or line to the king;
- ``castling``: king and rooks at home with both castling rights, enemy
  falcons and line pieces near the mover's back rank.

The comparison the tests make (``legal_codes`` against making and testing every
pseudo-legal move) does not depend on the builder being right about the motif:
it only makes the interesting cases common.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import assume
from hypothesis import strategies as st

from boardctl.rules import VARIANTS, Variant
from boardctl.rules.boardgeometry import BoardGeometry
from boardctl.rules.fen import pawn_start_squares

WHITE, BLACK = 0, 1
LINE_STEPS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
SQUARE_VARIANTS = ("falcon", "falcon-8x8", "falcon-10x10")

CASTLING_VARIANTS = (
    "falcon",
    "falcon-orthodox-castling",
    "falcon-modified-free",
    "falcon-xboard",
    "falcon-10x10",
    "falcon-8x8",
)

# The king in check twice: the cases where Falcon Chess differs from chess.
DOUBLE_CHECKS: dict[str, tuple[str, ...]] = {
    "falcon and line piece": ("falcon-check", "line-check", "interposers"),
    "two falcons": ("falcon-check", "falcon-check", "interposers"),
    "falcon and knight or pawn": ("falcon-check", "leaper-check", "interposers"),
    "line piece and knight or pawn": ("line-check", "leaper-check", "interposers"),
}

# Every other place where a generator might borrow a shortcut from chess.
SHORTCUTS: dict[str, tuple[str, ...]] = {
    "pin along a falcon path": ("falcon-shield",),
    "two falcon shields": ("falcon-shield", "falcon-shield"),
    "pin on a line and along a falcon path": ("line-pin", "falcon-shield"),
    "pin on a line": ("line-pin", "line-pin"),
    "block a line check, opening a falcon path": ("falcon-shield", "line-check", "interposers"),
    "block a falcon check, opening a line": ("line-pin", "falcon-check", "interposers"),
    "king steps along a checking line": ("line-check",),
    "king steps out of a falcon check": ("falcon-check",),
    "en passant": ("en-passant",),
    "en passant beside a falcon shield": ("en-passant", "falcon-shield"),
    "castling": ("castling",),
}

# A double check with no way out for the king that is no mate: the rook on e8
# and the falcon on f4 (open path e3-e2) check, d1, d2, e2, f1 and f2 are
# closed to the king, and Nc4-e3 stops both checks.
NOT_MATE = "4r4k/10/10/10/2N2f4/5p4/3P1P4/4KR4 w - - 0 1"


@dataclass
class Board:
    """A position under construction: ``pieces`` maps squares to FEN letters."""

    variant: Variant
    us: int
    pieces: dict[int, str] = field(default_factory=dict)
    keep_empty: set[int] = field(default_factory=set)
    stops: set[int] = field(default_factory=set)  # squares a block could use
    king: int = -1
    castling: dict[int, str] = field(default_factory=dict)  # rook square -> FEN letter
    ep: str = "-"

    @property
    def geo(self) -> BoardGeometry:
        return self.variant.geometry

    def free(self, sq: int) -> bool:
        return sq not in self.pieces and sq not in self.keep_empty

    def free_squares(self) -> list[int]:
        return [sq for sq in range(self.geo.size) if self.free(sq)]

    def step(self, sq: int, df: int, dr: int) -> int | None:
        return self.geo.leap(sq, (df, dr))

    def pawn_ok(self, sq: int) -> bool:
        return 0 < self.geo.rank_of(sq) < self.geo.ranks - 1

    def put(self, sq: int, letter: str, colour: int) -> None:
        self.pieces[sq] = letter.upper() if colour == WHITE else letter.lower()

    def fen(self) -> str:
        rows = []
        for rank in range(self.geo.ranks - 1, -1, -1):
            row, empty = "", 0
            for file in range(self.geo.files):
                letter = self.pieces.get(self.geo.square(file, rank))
                if letter is None:
                    empty += 1
                    continue
                row += (str(empty) if empty else "") + letter
                empty = 0
            rows.append(row + (str(empty) if empty else ""))
        side = "w" if self.us == WHITE else "b"
        rights = (
            "".join(
                sorted(
                    letter
                    for sq, letter in self.castling.items()
                    if self.pieces.get(sq, "").upper() == "R"
                )
            )
            or "-"
        )
        return f"{'/'.join(rows)} {side} {rights} {self.ep} 0 1"

    def attackers(self, sq: int, colour: int) -> list[int]:
        """Squares of the pieces of ``colour`` that attack ``sq``."""
        t = self.geo.tables
        occ = sum(1 << s for s in self.pieces)
        out = []
        for s, p in self.pieces.items():
            if p.isupper() != (colour == WHITE):
                continue
            kind = p.upper()
            if kind == "N":
                att = t.knight[s]
            elif kind == "K":
                att = t.king[s]
            elif kind == "P":
                att = t.pawn_attacks[colour][s]
            elif kind == "R":
                att = t.rook_attacks(s, occ)
            elif kind == "B":
                att = t.bishop_attacks(s, occ)
            elif kind == "Q":
                att = t.rook_attacks(s, occ) | t.bishop_attacks(s, occ)
            else:
                att = t.falcon_attacks(s, occ)
            if att >> sq & 1:
                out.append(s)
        return out


def _piece(draw: st.DrawFn, board: Board, sq: int, kinds: str = "NBRQFP") -> str:
    """A piece letter that may stand on ``sq`` (no pawn on a back rank)."""
    if not board.pawn_ok(sq):
        kinds = kinds.replace("P", "") or "N"
    return draw(st.sampled_from(kinds))


def _place_king(draw: st.DrawFn, board: Board) -> None:
    if board.king < 0:
        board.king = draw(st.sampled_from(board.free_squares()))
        board.put(board.king, "K", board.us)


def _close(draw: st.DrawFn, board: Board, path: tuple[int, int], own_bias: bool) -> None:
    """Put a piece on one square of ``path`` unless something already stands there."""
    if any(sq in board.pieces for sq in path):
        return
    free = [sq for sq in path if board.free(sq)]
    assume(free)
    sq = draw(st.sampled_from(free))
    them = board.us ^ 1
    colour = (
        board.us
        if own_bias and draw(st.integers(0, 3))
        else draw(st.sampled_from([board.us, them]))
    )
    board.put(sq, _piece(draw, board, sq), colour)


def _falcon(draw: st.DrawFn, board: Board, open_paths: bool) -> None:
    _place_king(draw, board)
    k = board.king
    paths_by_dest = board.geo.tables.falcon_paths[k]
    dests = [sq for sq in paths_by_dest if board.free(sq)]
    assume(dests)
    falcon = draw(st.sampled_from(dests))
    paths = paths_by_dest[falcon]  # from the king: (a a b), (a b a), (b a a)
    # Paths 0 and 2 share no square, so both open means all three are.
    subsets = [(0,), (1,), (2,), (0, 1), (1, 2), (0, 1, 2)] if open_paths else [()]
    wanted = [s for s in subsets if all(not set(paths[i]) & set(board.pieces) for i in s)]
    assume(wanted)
    chosen = draw(st.sampled_from(wanted))
    open_squares = {sq for i in chosen for sq in paths[i]}
    board.keep_empty |= open_squares
    board.put(falcon, "F", board.us ^ 1)
    for i, path in enumerate(paths):
        if i not in chosen:
            _close(draw, board, path, own_bias=not open_paths)
    if chosen:
        common = set(paths[chosen[0]])
        for i in chosen[1:]:
            common &= set(paths[i])
        board.stops |= common | {falcon}


def _rays(board: Board, sq: int, df: int, dr: int) -> list[int]:
    out = []
    nxt = board.step(sq, df, dr)
    while nxt is not None:
        out.append(nxt)
        nxt = board.step(nxt, df, dr)
    return out


def _line_check(draw: st.DrawFn, board: Board) -> None:
    _place_king(draw, board)
    k = board.king
    steps = list(LINE_STEPS)
    # Prefer a line through a square an open falcon path already needs empty.
    crossing = [s for s in steps if set(_rays(board, k, *s)) & board.keep_empty]
    if crossing and draw(st.booleans()):
        steps = crossing
    df, dr = draw(st.sampled_from(steps))
    ray = _rays(board, k, df, dr)
    reach = 0
    while reach < len(ray) and ray[reach] not in board.pieces:
        reach += 1
    ends = [i for i in range(reach) if board.free(ray[i])]
    assume(ends)
    end = draw(st.sampled_from(ends))
    kinds = "RQ" if 0 in (df, dr) else "BQ"
    board.put(ray[end], draw(st.sampled_from(kinds)), board.us ^ 1)
    board.keep_empty |= set(ray[:end])
    board.stops |= set(ray[: end + 1])


def _leaper_check(draw: st.DrawFn, board: Board) -> None:
    _place_king(draw, board)
    t = board.geo.tables
    k = board.king
    them = board.us ^ 1
    options = [(sq, "N") for sq in board.geo.squares(t.knight[k])]
    options += [
        (sq, "P") for sq in board.geo.squares(t.pawn_attacks[board.us][k]) if board.pawn_ok(sq)
    ]
    options = [(sq, kind) for sq, kind in options if board.free(sq)]
    assume(options)
    sq, kind = draw(st.sampled_from(options))
    board.put(sq, kind, them)
    board.stops.add(sq)


def _line_pin(draw: st.DrawFn, board: Board) -> None:
    _place_king(draw, board)
    df, dr = draw(st.sampled_from(LINE_STEPS))
    ray = _rays(board, board.king, df, dr)
    assume(len(ray) >= 2 and all(board.free(sq) for sq in ray[:2]))
    reach = 0
    while reach < len(ray) and board.free(ray[reach]):
        reach += 1
    pinned = draw(st.integers(0, reach - 2))
    sniper = draw(st.integers(pinned + 1, reach - 1))
    board.put(ray[pinned], _piece(draw, board, ray[pinned]), board.us)
    board.put(ray[sniper], draw(st.sampled_from("RQ" if 0 in (df, dr) else "BQ")), board.us ^ 1)
    board.keep_empty |= set(ray[:sniper]) - {ray[pinned]}
    board.stops |= set(ray[: sniper + 1]) - {ray[pinned]}


def _reaching(board: Board, kind: str, target: int) -> int:
    """Squares from which a piece of ``kind`` moves to ``target`` on an empty board."""
    t = board.geo.tables
    if kind == "N":
        return t.knight[target]
    if kind == "R":
        return t.rook_empty[target]
    if kind == "B":
        return t.bishop_empty[target]
    if kind == "Q":
        return t.rook_empty[target] | t.bishop_empty[target]
    if kind == "F":
        return t.falcon_empty[target]
    back = -1 if board.us == WHITE else 1
    out = 0
    one = board.step(target, 0, back)
    if one is not None and board.pawn_ok(one):
        out |= 1 << one
        two = board.step(one, 0, back)
        if two is not None and pawn_start_squares(board.variant)[board.us] >> two & 1:
            out |= 1 << two
    return out


def _interposers(draw: st.DrawFn, board: Board) -> None:
    targets = sorted(sq for sq in board.stops if sq not in board.pieces)
    if not targets:
        return
    for _ in range(draw(st.integers(1, 3))):
        target = draw(st.sampled_from(targets))
        kind = draw(st.sampled_from("NBRQFP"))
        froms = [
            sq
            for sq in board.geo.squares(_reaching(board, kind, target))
            if board.free(sq) and (kind != "P" or board.pawn_ok(sq))
        ]
        if froms:
            board.put(draw(st.sampled_from(froms)), kind, board.us)


def _en_passant(draw: st.DrawFn, board: Board) -> None:
    """The pawns first, then the king where the capture changes something."""
    us = board.us
    files, ranks = board.geo.files, board.geo.ranks
    forward = 1 if us == WHITE else -1
    file = draw(st.integers(0, files - 1))
    side = draw(st.sampled_from([s for s in (-1, 1) if 0 <= file + s < files]))
    # Where the victim's pawn on that file starts, and lands after its double step.
    theirs = pawn_start_squares(board.variant)[us ^ 1]
    start = next(sq for sq in range(file, files * ranks, files) if theirs >> sq & 1)
    victim = start - 2 * forward * files
    capturer = victim + side
    ep = victim + forward * files
    origin = ep + forward * files
    board.put(victim, "P", us ^ 1)
    board.put(capturer, "P", us)
    board.keep_empty |= {ep, origin}
    board.ep = board.geo.name(ep)
    mode = draw(st.sampled_from(["falcon", "line", "block", "none"]))
    t = board.geo.tables
    if mode in ("falcon", "block"):
        # (king, falcon, path) with the chosen square on the path.
        square = ep if mode == "block" else draw(st.sampled_from([victim, capturer]))
        options = []
        for k in range(files * ranks):
            if not board.free(k):
                continue
            for f, paths in t.falcon_paths[k].items():
                if not board.free(f):
                    continue
                for path in paths:
                    if square in path and all(
                        sq == square or board.free(sq) or sq in board.keep_empty for sq in path
                    ):
                        options.append((k, f, path))
        assume(options)
        k, f, path = draw(st.sampled_from(options))
        board.king = k
        board.put(k, "K", us)
        board.put(f, "F", us ^ 1)
        board.keep_empty |= set(path) - {square}
        for other in t.falcon_paths[k][f]:
            if square not in other:
                _close(draw, board, other, own_bias=False)
    elif mode == "line":
        square = draw(st.sampled_from([victim, capturer]))
        options = []
        for df, dr in LINE_STEPS:
            ray = _rays(board, square, -df, -dr)  # from the square towards the king
            for i, k in enumerate(ray):
                if not board.free(k):
                    break
                behind = _rays(board, square, df, dr)
                for j, s in enumerate(behind):
                    if s in board.pieces and s not in (victim, capturer):
                        break
                    if board.free(s):
                        options.append((k, s, (df, dr), ray[:i], behind[:j]))
        assume(options)
        k, s, (df, dr), near, far = draw(st.sampled_from(options))
        board.king = k
        board.put(k, "K", us)
        board.put(s, draw(st.sampled_from("RQ" if 0 in (df, dr) else "BQ")), us ^ 1)
        board.keep_empty |= set(near) | {sq for sq in far if sq not in board.pieces}
    else:
        _place_king(draw, board)


def _castling(draw: st.DrawFn, board: Board) -> None:
    v = board.variant
    back = 0 if board.us == WHITE else board.geo.ranks - 1
    home = back * board.geo.files
    board.king = home + v.king_file
    board.put(board.king, "K", board.us)
    for rook_file, letter in zip(v.rook_files, "QK", strict=True):
        board.put(home + rook_file, "R", board.us)
        board.castling[home + rook_file] = letter if board.us == WHITE else letter.lower()
    board.keep_empty |= set(range(home + 1, home + board.geo.files - 1)) - {board.king}
    near = [
        sq
        for sq in board.free_squares()
        if abs(board.geo.rank_of(sq) - back) <= 3 and board.geo.rank_of(sq) != back
    ]
    for _ in range(draw(st.integers(1, 3))):
        spots = [sq for sq in near if board.free(sq)]
        sq = draw(st.sampled_from(spots))
        board.put(sq, draw(st.sampled_from("FFFRBQN")), board.us ^ 1)


FEATURES = {
    "falcon-check": lambda draw, board: _falcon(draw, board, open_paths=True),
    "falcon-shield": lambda draw, board: _falcon(draw, board, open_paths=False),
    "line-check": _line_check,
    "leaper-check": _leaper_check,
    "line-pin": _line_pin,
    "interposers": _interposers,
    "en-passant": _en_passant,
    "castling": _castling,
}


@st.composite
def built(
    draw: st.DrawFn,
    features: tuple[str, ...],
    variants: tuple[str, ...] = SQUARE_VARIANTS,
    fillers: int = 6,
) -> tuple[str, str]:
    """A position with ``features`` around the mover's king (module docstring)."""
    variant = VARIANTS[draw(st.sampled_from(variants))]
    board = Board(variant, draw(st.sampled_from([WHITE, BLACK])))
    for name in features:
        FEATURES[name](draw, board)
    _place_king(draw, board)
    for _ in range(draw(st.integers(0, fillers))):
        spots = board.free_squares()
        sq = draw(st.sampled_from(spots))
        board.put(sq, _piece(draw, board, sq), draw(st.sampled_from([WHITE, BLACK])))
    them = board.us ^ 1
    t = board.geo.tables
    spots = [sq for sq in board.free_squares() if not t.king[board.king] >> sq & 1]
    enemy_king = draw(st.sampled_from(spots))
    board.put(enemy_king, "K", them)
    # The side not to move may not be in check: drop the mover's pieces that
    # give it (fillers and interposers; the motif's pieces are the opponent's).
    while True:
        checkers = board.attackers(enemy_king, board.us)
        assume(board.king not in checkers)
        if not checkers:
            break
        for sq in checkers:
            del board.pieces[sq]
    return variant.name, board.fen()
