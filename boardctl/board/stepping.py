"""Stepping through a stored game on the board, one move at a time, forward and back.

The board is first set up at the game's start (:mod:`.setup`).  Then *next*
gives the reconciler the game's next move, lit as the engine's move is, for
the player to carry out, and *back* asks for the last move to be taken back,
lit the same way undone.  The reconciler reads both as it reads any move (its
configuration's ``stepping``: every move is given, and no other is taken),
and its events move the stepping on.  At any move, *ok* pressed twice plays
on from there, in a new game.

Pure: a :class:`Stepping` is a value; :func:`pressed` makes the next one
from a button and says what the reconciler is to be asked (an
:class:`Offer`, or one of :class:`Ask`), :func:`followed` keeps up with the
reconciler's events, and :func:`line` and :func:`status` say where the
stepping stands, in words.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from ..rules import BLACK, WHITE, Game, Move, Outcome, Position, Termination, Variant
from ..rules.moves import CASTLE, code_flag, code_from, code_to
from .events import Event, MoveMade, MoveTakenBack
from .explain import footprint

SIDES = ("White", "Black")  # indexed by colour
# The board's buttons, as the banner names them (the simulator's keys for them: its help).
FORWARD_BUTTON, BACK_BUTTON, PLAY_ON_BUTTON = "next", "prev", "ok"


class Asked(Enum):
    """What the player has been asked to carry out on the board."""

    FORWARD = "forward"  # the game's next move
    BACK = "back"  # the last move, taken back


@dataclass(frozen=True)
class Stepping:
    """Where the stepping through stored game ``game_id`` stands."""

    game_id: int
    variant: Variant
    start_fen: str
    moves: tuple[Move, ...]
    ending: str  # how the game ended, in words ("" while it has not)
    ply: int = 0  # the game's moves on the board
    asked: Asked | None = None
    confirming: bool = False  # ok was pressed once: once more plays on

    @property
    def at_end(self) -> bool:
        return self.ply == len(self.moves)


@dataclass(frozen=True)
class Offer:
    """Give the reconciler ``move`` to be carried out."""

    move: Move


class Ask(Enum):
    TAKE_BACK = "take back"  # ask the reconciler for a takeback of the last move
    WITHDRAW = "withdraw"  # withdraw the move offered or the takeback asked for
    PLAY_ON = "play on"  # a new game from the moves on the board


Action = Offer | Ask


def begin(game_id: int, game: Game, result: str | None, termination: str | None) -> Stepping:
    """Stepping through ``game`` (stored as ``game_id``, ended with ``result``
    by ``termination``, both None while it goes on), from its start."""
    return Stepping(
        game_id,
        game.variant,
        game.start_fen,
        tuple(game.moves),
        ending_words(result, termination),
    )


def ending_words(result: str | None, termination: str | None) -> str:
    """How a stored game ended, as the screen says it ("White wins by
    checkmate"); "" for one that has not ended."""
    if result is None:
        return ""
    winner = {"1-0": WHITE, "0-1": BLACK}.get(result)
    try:
        how = Termination(termination)
    except ValueError:
        return f"it ended {result}"
    return str(Outcome(how, winner))


def game_at(s: Stepping, ply: int | None = None) -> Game:
    """The game as it stands after its first ``ply`` moves (default: those on the board)."""
    game = Game(s.variant, s.start_fen)
    for move in s.moves[: s.ply if ply is None else ply]:
        game.push(move)
    return game


def played(s: Stepping) -> list[str]:
    """The moves on the board in coordinate notation, as the store keeps them."""
    pos = Position(s.start_fen, s.variant)
    out = []
    for move in s.moves[: s.ply]:
        out.append(pos.uci(move))
        pos.push(move)
    return out


def pressed(s: Stepping, button: str) -> tuple[Stepping, Action | None]:
    """A press of *next*, *prev* (back) or *ok*: the stepping after it, and
    what to ask of the reconciler.  A press against what was asked withdraws
    it; a press of the same again changes nothing until the move is on the
    board; *ok* asks to be pressed again, and then plays on.  Another
    button changes nothing."""
    unconfirmed = replace(s, confirming=False)
    if button == PLAY_ON_BUTTON:
        return (unconfirmed, Ask.PLAY_ON) if s.confirming else (replace(s, confirming=True), None)
    if button not in (FORWARD_BUTTON, BACK_BUTTON):
        return s, None
    forward = button == FORWARD_BUTTON
    want = Asked.FORWARD if forward else Asked.BACK
    if s.asked is not None and s.asked is not want:
        return replace(unconfirmed, asked=None), Ask.WITHDRAW
    if s.asked is want or (s.at_end if forward else s.ply == 0):
        return unconfirmed, None
    action: Action = Offer(s.moves[s.ply]) if forward else Ask.TAKE_BACK
    return replace(unconfirmed, asked=want), action


def followed(s: Stepping, event: Event) -> Stepping:
    """The stepping after the reconciler's ``event``: a move carried out, or
    taken back (asked for or not)."""
    if isinstance(event, MoveMade):
        return replace(s, ply=s.ply + 1, asked=None, confirming=False)
    if isinstance(event, MoveTakenBack):
        return replace(s, ply=s.ply - 1, asked=None, confirming=False)
    return s


# ------------------------------------------------------------ in words
def line(s: Stepping, pos: Position, engine: bool) -> str:
    """The banner while stepping, ``pos`` being the position on the board
    (``engine``: a game played on would be against the engine)."""
    if s.confirming:
        versus = "against the engine" if engine else "as two players"
        return f"Press OK again to play on from here, {versus}"
    if s.asked is Asked.FORWARD:
        return f"Move {pos.fullmove_number}: {move_words(pos, s.moves[s.ply])}"
    if s.asked is Asked.BACK:
        before = pos.copy()
        move = before.pop()
        return f"Take back move {before.fullmove_number}: {undo_words(before, move)}"
    if s.ply == 0:
        return f"The start of game {s.game_id}: press next for its first move"
    if s.at_end:
        end = f"The game ended: {s.ending}" if s.ending else "The game stops here"
        return f"{end}. Press back, or OK to play on"
    return "Press next or back, or OK to play on from here"


def status(s: Stepping) -> str:
    """The panel's status line: how far into the game (the banner names it at the start)."""
    return f"step {s.ply} of {len(s.moves)}"


def _piece(pos: Position, square: int, capital: bool = False) -> str:
    """The piece on ``square`` with its colour: "black pawn"."""
    found = pos.piece_at(square)
    assert found is not None  # a square a move starts from or takes on
    kind, colour = found
    side = SIDES[colour]
    return f"{side if capital else side.lower()} {kind.title}"


def move_words(pos: Position, move: Move) -> str:
    """A legal move of ``pos`` as the stepping banner says it: "White falcon
    d1 to e4, taking the black pawn"."""
    name, code = pos.geometry.name, pos.code_of(move)
    frm, to = code_from(code), code_to(code)  # a castling king's own squares
    text = f"{_piece(pos, frm, capital=True)} {name(frm)} to {name(to)}"
    if code_flag(code) == CASTLE:
        rook_from, rook_to = pos.castle_rook_squares(frm, to)
        return f"{text}, castling: rook {name(rook_from)} to {name(rook_to)}"
    _, captured = footprint(pos, code)
    if captured >= 0:
        where = "" if captured == to else f" on {name(captured)}"
        text += f", taking the {_piece(pos, captured)}{where}"
    if move.promotion is not None:
        text += f", which becomes a {move.promotion.title}"
    return text


def undo_words(before: Position, move: Move) -> str:
    """``move`` of ``before`` taken back, as the lights show it: "White
    falcon e4 back to d1, and the black pawn back on e4"."""
    name, code = before.geometry.name, before.code_of(move)
    frm, to = code_from(code), code_to(code)
    mover = _piece(before, frm, capital=True)
    if code_flag(code) == CASTLE:
        rook_from, rook_to = before.castle_rook_squares(frm, to)
        side = mover.split()[0]
        king = f"king {name(to)} back to {name(frm)}"
        rook = f"rook {name(rook_to)} back to {name(rook_from)}"
        # First the piece that stands where the other goes back to.
        first, then = (king, rook) if to == rook_from else (rook, king)
        return f"{side} {first}, {then}"
    if move.promotion is not None:
        new = f"{mover.split()[0]} {move.promotion.title}"
        text = f"{new} off {name(to)}, a {mover.lower()} back on {name(frm)}"
    else:
        text = f"{mover} {name(to)} back to {name(frm)}"
    _, captured = footprint(before, code)
    if captured >= 0:
        text += f", and the {_piece(before, captured)} back on {name(captured)}"
    return text
