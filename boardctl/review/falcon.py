"""What a chess player misses about the falcon: pure functions on a position.

A falcon moves by three steps along one of three paths (RULES.md), so two
things surprise a player who knows chess: a falcon move that one piece
leaving a square makes possible (every path was blocked until it left), and
a piece attacked by a falcon alone, which no line or leap of chess points at.
The coach (:mod:`.coach`) says these when a move or a hint shows one.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.weights import VALUES
from ..rules import Move, PieceType, Position
from ..rules.pieces import FALCON, KING

Path = tuple[int, int]  # the two squares a falcon crosses, in order


@dataclass(frozen=True)
class OpenedPath:
    """A falcon move that the previous move made possible: ``vacated`` was
    emptied by it (``piece`` stood there; ``taken``: it was taken there, not
    moved away), and ``path`` is the falcon's path through it."""

    falcon: int
    to: int
    path: Path
    vacated: int
    piece: PieceType
    taken: bool


@dataclass(frozen=True)
class FalconThreat:
    """A piece attacked by enemy falcons and nothing else, which ``falcon``
    can take with profit on a simple count: it is not guarded, or it is
    worth more than the falcon."""

    falcon: int
    target: int
    piece: PieceType
    path: Path
    guarded: bool


def opened_path(pos: Position, move: Move) -> OpenedPath | None:
    """If ``move`` is a falcon move of ``pos`` that was possible only because
    the move before it (the last of ``pos``'s history) emptied a square of one
    of its paths, that path; else None."""
    frm, to = move.from_square, move.to_square
    if pos.squares[frm] & 7 != FALCON or not pos.ply_stack:
        return None
    now = pos.open_falcon_paths(frm, to)
    if not now:
        return None  # not a falcon move at all
    earlier = pos.copy()
    earlier.pop()
    if earlier.squares[frm] != pos.squares[frm] or earlier.open_falcon_paths(frm, to):
        return None  # it was possible before too
    emptied = (earlier.colors[0] | earlier.colors[1]) & ~(pos.colors[0] | pos.colors[1])
    for path in now:
        for sq in path:
            found = earlier.piece_at(sq)
            if emptied >> sq & 1 and found is not None:
                # Moved away by the move's own side, or taken (en passant) from the other.
                taken = found[1] != earlier.turn
                return OpenedPath(frm, to, path, sq, found[0], taken)
    return None


def falcon_threats(pos: Position) -> list[FalconThreat]:
    """The pieces of the side that just moved (not its king) that a falcon of
    the side to move can take with profit, attacked by nothing but falcons:
    the attacks a chess player's eye does not look for."""
    mover, taker = pos.turn ^ 1, pos.turn
    falcons = pos.pieces[FALCON] & pos.colors[taker]
    out = []
    for target in pos.geometry.squares(pos.colors[mover] & ~pos.pieces[KING]):
        attackers = pos.attackers(target, taker)
        if not attackers or attackers & ~falcons:
            continue
        piece = PieceType(pos.squares[target] & 7)
        guarded = bool(pos.attackers(target, mover))
        for falcon in pos.geometry.squares(attackers):
            if guarded and _value(piece) <= _value(FALCON):
                continue
            capture = Move(falcon, target)
            paths = pos.open_falcon_paths(falcon, target)
            if paths and pos.is_legal(capture):
                out.append(FalconThreat(falcon, target, piece, paths[0], guarded))
                break
    return out


def _value(piece: PieceType) -> int:
    return VALUES[piece][0]


def path_text(pos: Position, frm: int, path: Path, to: int) -> str:
    """A falcon's way square by square: ``e5-f5-g6-h7``."""
    return "-".join(pos.geometry.name(sq) for sq in (frm, *path, to))


def opener_words(pos: Position, opened: OpenedPath) -> str:
    """``the knight left g6``, ``the pawn was taken on e4``."""
    went = "was taken on" if opened.taken else "left"
    return f"the {opened.piece.title} {went} {pos.geometry.name(opened.vacated)}"


def opened_words(pos: Position, opened: OpenedPath) -> str:
    """``The falcon could go e5-f5-g6-h7 only because the knight left g6``
    (short enough for the banner of the smallest screen)."""
    path = path_text(pos, opened.falcon, opened.path, opened.to)
    return f"The falcon could go {path} only because {opener_words(pos, opened)}"


def threat_words(pos: Position, threat: FalconThreat) -> str:
    """``The falcon on c5 can take the knight on f6 by c5-d6-e6-f6``."""
    name = pos.geometry.name
    return (
        f"The falcon on {name(threat.falcon)} can take the {threat.piece.title} on "
        f"{name(threat.target)} by {path_text(pos, threat.falcon, threat.path, threat.target)}"
    )
