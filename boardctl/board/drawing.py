"""The LED scene for a phase: what each lit square means."""

from __future__ import annotations

from ..rules import FenError, Move, Position
from ..rules.moves import CASTLE, code_flag, code_from, code_to
from ..rules.pieces import FALCON, piece_colour, piece_kind
from .explain import footprint, occupancy
from .phases import Ambiguity, Phase
from .scene import EMPTY_SCENE, FALCON_PATH_ROLES, LedScene, Role


def draw(pos: Position, p: Phase, lifted_shown: bool, teaching: bool, stuck: list[int]) -> LedScene:
    """The scene for ``p`` in ``pos``: a fix, else the capture squares to
    choose from, else the engine's move or (``lifted_shown``: the human's
    turn, or teaching) where the lifted pieces may go, ``stuck`` ones
    blinking; a king in check on top."""
    fix, waiting = p.move.fix, p.move.waiting
    if fix is not None:
        squares = {}
        if fix.from_square is not None:
            squares[fix.from_square] = Role.FIX_FROM
        if fix.to_square is not None:
            squares[fix.to_square] = Role.FIX_TO
        return LedScene(squares, frozenset(squares))
    if isinstance(waiting, Ambiguity):
        cands = {c.move.to_square: Role.CANDIDATE for c in waiting.candidates}
        return LedScene(cands, frozenset(cands))
    scene = EMPTY_SCENE
    if p.engine_move is not None:
        scene = scene.with_squares(engine_squares(pos, p.engine_move))
    elif p.taking_back:
        scene = scene.with_squares(takeback_squares(pos, p.reading))
    elif lifted_shown:
        # A piece with no legal move blinks where it belongs.
        scene = scene.with_squares(lifted_squares(pos, p.reading, teaching), frozenset(stuck))
    if pos.is_check():
        scene = scene.with_squares({pos.kings[pos.turn]: Role.CHECK})
    return scene


def engine_squares(pos: Position, move: Move) -> dict[int, Role]:
    code = pos.code_of(move)
    frm, to = code_from(code), code_to(code)
    squares = {frm: Role.ENGINE_FROM, to: Role.ENGINE_TO}
    paths = pos.open_falcon_paths(frm, to) if piece_kind(pos.squares[frm]) == FALCON else []
    between = pos.geometry.squares(pos.tables.between[frm][to])
    for sq in list(paths[0]) if paths else between:
        squares[sq] = Role.ENGINE_PATH
    if code_flag(code) == CASTLE:
        rook_from, rook_to = pos.castle_rook_squares(frm, to)
        squares.setdefault(rook_from, Role.ENGINE_FROM)
        squares[rook_to] = Role.ENGINE_TO
    return squares


# The last move's squares, undone: where a piece stands now, where it goes back to.
_UNDONE = {
    Role.ENGINE_FROM: Role.ENGINE_TO,
    Role.ENGINE_TO: Role.ENGINE_FROM,
    Role.ENGINE_PATH: Role.ENGINE_PATH,
}


def takeback_squares(pos: Position, reading: int) -> dict[int, Role]:
    """The last move of ``pos`` undone, in the engine move's colours: each
    piece it moved from where it stands, blinking to where it came from;
    the piece it took blinking on its square once that square is empty (the
    taker has left it)."""
    before = pos.copy()
    move = before.pop()
    code = before.code_of(move)
    squares = {sq: _UNDONE[role] for sq, role in engine_squares(before, move).items()}
    _, captured = footprint(before, code)
    if captured >= 0 and not reading >> captured & 1:
        squares[captured] = Role.ENGINE_TO
    return squares


def lifted_squares(pos: Position, reading: int, teaching: bool) -> dict[int, Role]:
    """Legal destinations of each lifted piece; a falcon's open paths too."""
    lifted = occupancy(pos) & ~reading
    squares: dict[int, Role] = {}
    for frm in pos.geometry.squares(lifted):
        owner = piece_colour(pos.squares[frm])
        source = pos if owner == pos.turn else _turned(pos, owner) if teaching else None
        if source is None:
            continue
        squares[frm] = Role.LIFTED
        is_falcon = piece_kind(source.squares[frm]) == FALCON
        for move, code in source.iter_legal():
            if move.from_square != frm:
                continue
            to = code_to(code)
            if is_falcon:
                paths = source.open_falcon_paths(frm, to)
                for a, b in paths:
                    squares.setdefault(a, Role.FALCON_PATH)
                    squares.setdefault(b, Role.FALCON_PATH)
                squares[to] = FALCON_PATH_ROLES[len(paths)]
            else:
                squares[to] = Role.LEGAL
    return squares


def _turned(pos: Position, colour: int) -> Position | None:
    """The same position with ``colour`` to move, or None if that is no position."""
    try:
        return pos.with_turn(colour)
    except FenError:
        return None
