"""A deliberately naive Falcon Chess move generator, for cross-checking perft.

This is test-support code: an independent second implementation of the rules in
RULES.md, written to be obviously correct rather than fast. It imports nothing from
boardctl and nothing outside the standard library but tests/naive_common.py, which holds
what both naive generators share (FEN ranks, the move counters, the perft walk).

How it works:
- A board is a dict ``{(file, rank): piece}`` with 0-based file and rank (a1 is (0, 0))
  and pieces as FEN letters (``'P'`` white pawn, ``'f'`` black falcon, ...).
- Pseudo-legal moves are found by walking direction offsets from every own piece.
- A move is legal if, after making it on a copy of the board, no enemy piece can reach
  the own king's square by its movement rule (brute force over every enemy piece).
- The falcon is generated straight from its definition: every ordering of its three
  unit steps is a path, and a destination counts if at least one path is open.

Public API: ``VARIANTS``, ``legal_moves``, ``perft``, ``divide`` and, for tests,
``play`` (apply coordinate moves to a FEN and return the new FEN).

Moves are coordinate text ``<from><to>[q|f|r|b|n]`` (``e2e4``, ``b7b8f``). Castling is
the king's from- and to-square (``f1c1``), except when the king goes one square towards
the rook (free castling to e1/g1): that is written king-takes-rook (``f1a1``, ``f1j1``)
so it differs from the plain king step.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import permutations

from naive_common import count_leaves, counters_after, read_rank, write_rank

FILE_LETTERS = "abcdefghij"

# The eight one-square steps, clockwise from north: neighbours in this list
# (cyclically) are exactly 45 degrees apart.
STEPS = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]
ORTHOGONAL_STEPS = [step for step in STEPS if 0 in step]
DIAGONAL_STEPS = [step for step in STEPS if 0 not in step]
KNIGHT_OFFSETS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
SLIDER_DIRECTIONS = {"R": ORTHOGONAL_STEPS, "B": DIAGONAL_STEPS, "Q": STEPS}


START_FEN_8X10 = "rnbfqkfbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBFQKFBNR w KQkq - 0 1"
START_FEN_8X8 = "rnbfkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBFKBNR w KQkq - 0 1"


@dataclass(frozen=True)
class Variant:
    """A rule preset: board size, start position and castling style; what it
    leaves out is Falcon Chess on 8x10 with free castling.

    The king starts on ``king_file``; the rooks castle from the corners. A castling
    king goes to one of ``queenside_king_files`` (towards the a-file rook) or
    ``kingside_king_files`` (towards the last-file rook); the rook then lands on the
    square next to the king, on the side of the king's start square.
    """

    name: str
    width: int = 10
    start_fen: str = START_FEN_8X10
    # Files: a=0 b=1 c=2 d=3 e=4 f=5 g=6 h=7 i=8 j=9.
    king_file: int = 5
    queenside_king_files: tuple[int, ...] = (1, 2, 3, 4)  # b, c, d, e
    kingside_king_files: tuple[int, ...] = (6, 7, 8)  # g, h, i
    # False: "no attacked square on the king's way" is judged before castling, with
    # the king still on its start square. True (XBoard / Fairy-Max): judged in the
    # position after castling, for the start square too.
    attacks_judged_after_castling: bool = False
    promotions: str = "qfrbn"
    height: int = 8


VARIANTS: dict[str, Variant] = {
    "falcon": Variant(name="falcon"),
    "falcon-orthodox-castling": Variant(
        name="falcon-orthodox-castling",
        queenside_king_files=(3,),  # d (rook to e)
        kingside_king_files=(7,),  # h (rook to g)
    ),
    "falcon-modified-free": Variant(
        name="falcon-modified-free",
        queenside_king_files=(1, 2, 3),  # b, c, d -- not e
        kingside_king_files=(7, 8),  # h, i -- not g
    ),
    "falcon-xboard": Variant(
        name="falcon-xboard",
        queenside_king_files=(2,),  # c (rook to d)
        kingside_king_files=(8,),  # i (rook to h)
        attacks_judged_after_castling=True,
    ),
    "falcon-8x8": Variant(
        name="falcon-8x8",
        width=8,
        start_fen=START_FEN_8X8,
        king_file=4,
        queenside_king_files=(2,),  # c (rook to d)
        kingside_king_files=(6,),  # g (rook to f)
        # The falcon replaces the queen in this game, so no queen to promote to.
        promotions="frbn",
    ),
    "falcon-10x10": Variant(
        name="falcon-10x10",
        height=10,
        start_fen="rnbfqkfbnr/10/pppppppppp/10/10/10/10/PPPPPPPPPP/10/RNBFQKFBNR w KQkq - 0 1",
    ),
    # Nine ranks: the 8x10 game with one more empty rank in the middle.
    "falcon-9x10": Variant(
        name="falcon-9x10",
        height=9,
        start_fen="rnbfqkfbnr/pppppppppp/10/10/10/10/10/PPPPPPPPPP/RNBFQKFBNR w KQkq - 0 1",
    ),
    # 10x10 with the pawns in front of falcons, queen and king (d, e, f, g) on
    # the third rank and the other six on the second.
    "falcon-10x10-central": Variant(
        name="falcon-10x10-central",
        height=10,
        start_fen="rnbfqkfbnr/ppp4ppp/3pppp3/10/10/10/10/3PPPP3/PPP4PPP/RNBFQKFBNR w KQkq - 0 1",
    ),
}


def get_variant(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except KeyError:
        raise ValueError(f"unknown variant {name!r}; known: {sorted(VARIANTS)}") from None


# --------------------------------------------------------------------------- squares


def square_name(square: tuple[int, int]) -> str:
    file, rank = square
    return FILE_LETTERS[file] + str(rank + 1)


def parse_square(name: str) -> tuple[int, int]:
    return (FILE_LETTERS.index(name[0]), int(name[1:]) - 1)


def on_board(square: tuple[int, int], variant: Variant) -> bool:
    file, rank = square
    return 0 <= file < variant.width and 0 <= rank < variant.height


def add(square: tuple[int, int], step: tuple[int, int]) -> tuple[int, int]:
    return (square[0] + step[0], square[1] + step[1])


def is_white(piece: str) -> bool:
    return piece.isupper()


# ------------------------------------------------------------------------- position


@dataclass(frozen=True)
class Position:
    board: dict  # {(file, rank): piece letter}
    white_to_move: bool
    castling: str  # subset of "KQkq"
    en_passant: tuple[int, int] | None
    halfmove_clock: int
    fullmove_number: int
    variant: Variant


@dataclass(frozen=True)
class Move:
    start: tuple[int, int]
    end: tuple[int, int]
    promotion: str = ""  # lower-case letter or ""
    en_passant: bool = False
    castling_rook_start: tuple[int, int] | None = None
    castling_rook_end: tuple[int, int] | None = None

    def notation(self) -> str:
        if self.castling_rook_start is not None and abs(self.end[0] - self.start[0]) == 1:
            # The king goes one square towards the rook: written king-takes-rook.
            return square_name(self.start) + square_name(self.castling_rook_start)
        return square_name(self.start) + square_name(self.end) + self.promotion


def parse_fen(fen: str, variant: Variant) -> Position:
    fields = fen.split()
    if len(fields) < 4:
        raise ValueError(f"FEN needs at least 4 fields: {fen!r}")
    placement, side, castling, en_passant = fields[:4]
    halfmove = int(fields[4]) if len(fields) > 4 else 0
    fullmove = int(fields[5]) if len(fields) > 5 else 1

    rows = placement.split("/")
    if len(rows) != variant.height:
        raise ValueError(f"FEN needs {variant.height} ranks: {placement!r}")
    board = {}
    for row_index, row in enumerate(rows):
        rank = variant.height - 1 - row_index
        cells = read_rank(row)
        if len(cells) != variant.width:
            raise ValueError(f"rank {rank + 1} has {len(cells)} squares, expected {variant.width}")
        board.update(((file, rank), piece) for file, piece in enumerate(cells) if piece)

    if side not in ("w", "b"):
        raise ValueError(f"bad side to move {side!r}")
    if castling != "-" and any(char not in "KQkq" for char in castling):
        raise ValueError(f"bad castling field {castling!r}")
    ep_square = None if en_passant == "-" else parse_square(en_passant)
    return Position(
        board=board,
        white_to_move=(side == "w"),
        castling="" if castling == "-" else castling,
        en_passant=ep_square,
        halfmove_clock=halfmove,
        fullmove_number=fullmove,
        variant=variant,
    )


def to_fen(position: Position) -> str:
    rows = [
        write_rank(position.board.get((file, rank)) for file in range(position.variant.width))
        for rank in range(position.variant.height - 1, -1, -1)
    ]
    castling = "".join(char for char in "KQkq" if char in position.castling) or "-"
    en_passant = square_name(position.en_passant) if position.en_passant else "-"
    side = "w" if position.white_to_move else "b"
    return (
        f"{'/'.join(rows)} {side} {castling} {en_passant} "
        f"{position.halfmove_clock} {position.fullmove_number}"
    )


# -------------------------------------------------------------------------- attacks


def falcon_reach(board: dict, start: tuple[int, int], variant: Variant) -> set:
    """Squares a falcon on ``start`` reaches, whatever stands on them.

    Straight from the definition: a falcon move is two like steps pointing the same
    way plus one unlike step at 45 degrees to them (two straight + one diagonal, or
    two diagonal + one straight). Every ordering of the three steps is a path; a
    destination is reached if on at least one path both intermediate squares are on
    the board and empty.
    """
    reached = set()
    for index, like_step in enumerate(STEPS):
        for unlike_step in (STEPS[(index + 1) % 8], STEPS[(index - 1) % 8]):
            for path in set(permutations((like_step, like_step, unlike_step))):
                first = add(start, path[0])
                second = add(first, path[1])
                destination = add(second, path[2])
                if not on_board(destination, variant):
                    continue
                if not (on_board(first, variant) and on_board(second, variant)):
                    continue
                if first in board or second in board:
                    continue
                reached.add(destination)
    return reached


def attacked_by_piece(board: dict, start: tuple[int, int], variant: Variant) -> set:
    """Every square the piece on ``start`` attacks (could capture on)."""
    piece = board[start]
    kind = piece.upper()
    squares = set()
    if kind == "P":
        forward = 1 if is_white(piece) else -1
        for side in (-1, 1):
            squares.add(add(start, (side, forward)))
    elif kind == "N":
        for offset in KNIGHT_OFFSETS:
            squares.add(add(start, offset))
    elif kind == "K":
        for step in STEPS:
            squares.add(add(start, step))
    elif kind in SLIDER_DIRECTIONS:
        for step in SLIDER_DIRECTIONS[kind]:
            square = add(start, step)
            while on_board(square, variant):
                squares.add(square)
                if square in board:
                    break
                square = add(square, step)
    elif kind == "F":
        squares = falcon_reach(board, start, variant)
    return {square for square in squares if on_board(square, variant)}


def within_reach(kind: str, start: tuple[int, int], square: tuple[int, int]) -> bool:
    """False only where a piece of ``kind`` on ``start`` could not attack ``square``
    on an empty board: too far for a king, pawn, knight or falcon (whose three
    unit steps go at most three squares either way), off its lines for a slider.
    A filter before attacked_by_piece, which decides."""
    files, ranks = abs(square[0] - start[0]), abs(square[1] - start[1])
    if kind in "PK":
        return max(files, ranks) <= 1
    if kind == "N":
        return max(files, ranks) <= 2
    if kind == "F":
        return max(files, ranks) <= 3
    if kind == "R":
        return files == 0 or ranks == 0
    if kind == "B":
        return files == ranks
    return True


def is_attacked(board: dict, square: tuple[int, int], by_white: bool, variant: Variant) -> bool:
    """Can any piece of the given colour reach ``square`` by its movement rule?"""
    for start, piece in board.items():
        if (
            is_white(piece) == by_white
            and within_reach(piece.upper(), start, square)
            and square in attacked_by_piece(board, start, variant)
        ):
            return True
    return False


def king_square(board: dict, white: bool) -> tuple[int, int] | None:
    king = "K" if white else "k"
    for square, piece in board.items():
        if piece == king:
            return square
    return None


def king_attacked(board: dict, white: bool, variant: Variant) -> bool:
    square = king_square(board, white)
    return square is not None and is_attacked(board, square, not white, variant)


# ------------------------------------------------------------------ making moves


def corner_of_right(right: str, variant: Variant) -> tuple[int, int]:
    """The rook corner of a castling right; a move from or to it loses the right."""
    file = 0 if right in "Qq" else variant.width - 1
    rank = 0 if right in "KQ" else variant.height - 1
    return (file, rank)


def make_move(position: Position, move: Move) -> Position:
    board = dict(position.board)
    piece = board.pop(move.start)
    captured = board.get(move.end)

    if move.castling_rook_start is not None:
        rook = board.pop(move.castling_rook_start)
        board[move.end] = piece
        board[move.castling_rook_end] = rook
        captured = None
    else:
        if move.en_passant:
            captured = board.pop((move.end[0], move.start[1]))
        if move.promotion:
            piece = move.promotion.upper() if is_white(piece) else move.promotion
        board[move.end] = piece

    castling = position.castling
    if piece.upper() == "K":
        castling = "".join(c for c in castling if is_white(c) != is_white(piece))
    for right in "KQkq":
        if corner_of_right(right, position.variant) in (move.start, move.end):
            castling = castling.replace(right, "")

    en_passant, halfmove, fullmove = counters_after(position, move, piece, captured)
    return Position(
        board,
        not position.white_to_move,
        castling,
        en_passant,
        halfmove,
        fullmove,
        position.variant,
    )


# --------------------------------------------------------------- move generation


@cache
def pawn_start_squares(variant: Variant, white: bool) -> frozenset:
    """Where a pawn of this colour may step twice from: every square on which such
    a pawn stands in the start position (the pawn's "starting rank" on its file;
    on falcon-10x10-central that is the third rank on files d-g, the second
    elsewhere). Which pawn stands there now does not matter."""
    pawn = "P" if white else "p"
    board = parse_fen(variant.start_fen, variant).board
    return frozenset(square for square, piece in board.items() if piece == pawn)


def pawn_moves(position: Position, start: tuple[int, int]) -> list[Move]:
    board = position.board
    variant = position.variant
    white = position.white_to_move
    forward = 1 if white else -1
    last_rank = variant.height - 1 if white else 0

    def with_promotions(end, en_passant=False):
        if end[1] == last_rank:
            return [Move(start, end, promotion=p) for p in position.variant.promotions]
        return [Move(start, end, en_passant=en_passant)]

    moves = []
    one_step = add(start, (0, forward))
    if on_board(one_step, variant) and one_step not in board:
        moves += with_promotions(one_step)
        two_steps = add(one_step, (0, forward))
        if start in pawn_start_squares(variant, white) and two_steps not in board:
            moves.append(Move(start, two_steps))
    for side in (-1, 1):
        target = add(start, (side, forward))
        if not on_board(target, variant):
            continue
        if target in board and is_white(board[target]) != white:
            moves += with_promotions(target)
        elif target == position.en_passant and target not in board:
            victim = board.get((target[0], start[1]))
            if victim == ("p" if white else "P"):
                moves.append(Move(start, target, en_passant=True))
    return moves


def piece_moves(position: Position, start: tuple[int, int]) -> list[Move]:
    """Non-pawn moves: every attacked square not holding an own piece."""
    board = position.board
    white = position.white_to_move
    moves = []
    for end in attacked_by_piece(board, start, position.variant):
        if end in board and is_white(board[end]) == white:
            continue
        moves.append(Move(start, end))
    return moves


def castling_moves(position: Position) -> list[Move]:
    """Castling moves whose own rules hold (the caller still checks the king's safety)."""
    variant = position.variant
    width = variant.width
    board = position.board
    white = position.white_to_move
    back_rank = 0 if white else variant.height - 1
    king_start = (variant.king_file, back_rank)
    if board.get(king_start) != ("K" if white else "k"):
        return []

    moves = []
    sides = (("K", width - 1, variant.kingside_king_files), ("Q", 0, variant.queenside_king_files))
    for right, rook_file, king_files in sides:
        if (right if white else right.lower()) not in position.castling:
            continue
        rook_start = (rook_file, back_rank)
        if board.get(rook_start) != ("R" if white else "r"):
            continue
        low, high = sorted((variant.king_file, rook_file))
        if any((file, back_rank) in board for file in range(low + 1, high)):
            continue
        for king_file in king_files:
            toward_rook = 1 if king_file > variant.king_file else -1
            move = Move(
                king_start,
                (king_file, back_rank),
                castling_rook_start=rook_start,
                castling_rook_end=(king_file - toward_rook, back_rank),
            )
            # The start square, the squares passed over and the landing square.
            king_way = [
                (file, back_rank)
                for file in range(variant.king_file, king_file + toward_rook, toward_rook)
            ]
            if variant.attacks_judged_after_castling:
                judged_board = make_move(position, move).board
            else:
                judged_board = board
            if any(is_attacked(judged_board, square, not white, variant) for square in king_way):
                continue
            moves.append(move)
    return moves


def pseudo_legal_moves(position: Position) -> list[Move]:
    moves = []
    for start, piece in position.board.items():
        if is_white(piece) != position.white_to_move:
            continue
        if piece.upper() == "P":
            moves += pawn_moves(position, start)
        else:
            moves += piece_moves(position, start)
    moves += castling_moves(position)
    return moves


def legal_move_list(position: Position) -> list[Move]:
    """Pseudo-legal moves that do not leave the mover's own king attacked."""
    legal = []
    for move in pseudo_legal_moves(position):
        after = make_move(position, move)
        if not king_attacked(after.board, position.white_to_move, position.variant):
            legal.append(move)
    return legal


# --------------------------------------------------------------------- public API


def legal_moves(fen: str, variant: str = "falcon") -> list[str]:
    """All legal moves of the side to move, in coordinate notation, sorted."""
    position = parse_fen(fen, get_variant(variant))
    return sorted(move.notation() for move in legal_move_list(position))


def perft(fen: str, depth: int, variant: str = "falcon") -> int:
    """Number of leaf positions ``depth`` plies below ``fen`` (depth 0 -> 1)."""
    return count_leaves(parse_fen(fen, get_variant(variant)), depth, legal_move_list, make_move)


def divide(fen: str, depth: int, variant: str = "falcon") -> dict[str, int]:
    """Perft split by first move: {move notation: leaves below it at depth - 1}."""
    if depth < 1:
        raise ValueError("divide needs depth >= 1")
    position = parse_fen(fen, get_variant(variant))
    return {
        move.notation(): count_leaves(
            make_move(position, move), depth - 1, legal_move_list, make_move
        )
        for move in sorted(legal_move_list(position), key=Move.notation)
    }


def play(fen: str, moves: list[str], variant: str = "falcon") -> str:
    """Apply coordinate moves one after another; return the resulting FEN.

    :raises ValueError: if a move is not legal in its position.
    """
    position = parse_fen(fen, get_variant(variant))
    for text in moves:
        by_notation = {move.notation(): move for move in legal_move_list(position)}
        if text not in by_notation:
            raise ValueError(f"illegal move {text!r} in {to_fen(position)}")
        position = make_move(position, by_notation[text])
    return to_fen(position)
