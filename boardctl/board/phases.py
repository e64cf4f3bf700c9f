"""The reconciler's state as values: what it waits for and what it has seen.

Nothing here changes in place.  A :class:`Phase` is the whole of what the
reconciler knows beyond the game: the last reading, the text on show, the
engine's move on offer, the occupancies behind the game's moves (for
takebacks) and the move under way (:class:`Underway`).  The functions of
:mod:`.transitions` make one phase from another; :func:`verdict` reads the
reconciler's label off a phase and the game's position.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from ..rules import Move, PieceType, Position
from .explain import Candidate
from .guidance import Fix


@dataclass(frozen=True)
class ReconcilerConfig:
    """Timing and policy; every duration is in seconds."""

    settle: float = 0.3
    grace: float = 1.5
    new_game_hold: float = 3.0
    promotion_wait: float = 5.0
    allow_takeback: bool = True
    default_promotion: PieceType = PieceType.QUEEN
    teaching: bool = False
    # Stepping through a stored game: every move, either side's, is given as
    # the engine's is (the player carries it out), a takeback may be asked
    # for, and the start position set up is no new game.
    stepping: bool = False
    # Who the opponent is, as the fixes name it ("Wait for the engine's move"):
    # a remote game's other player by name, or the other board.
    opponent: str = "the engine"


class State(Enum):
    SYNCED = "synced"  # the board shows the game's position
    BUSY = "busy"  # a move is being carried out
    UNEXPLAINED = "unexplained"  # not (yet) a position the game accepts
    ERROR = "error"  # a fix is being shown
    CHOOSING = "choosing"  # capture square or promotion piece to choose
    GAME_OVER = "game over"


@dataclass(frozen=True)
class Episode:
    """What happened on the board since it last agreed with the game."""

    recent: tuple[int, ...] = ()  # squares, latest change last
    placed: tuple[int, ...] = ()  # squares put down, latest last
    changed_at: Mapping[int, int] = field(default_factory=dict)  # square -> change number
    count: int = 0

    def noted(self, lifted: list[int], placed: list[int]) -> Episode:
        """This episode with one more reading's changes."""
        recent = [sq for sq in self.recent if sq not in lifted and sq not in placed]
        recent += lifted + placed
        changed_at = dict(self.changed_at)
        count = self.count
        for sq in lifted + placed:
            count += 1
            changed_at[sq] = count
        put = [sq for sq in self.placed if sq not in placed] + placed
        return Episode(tuple(recent), tuple(put), changed_at, count)

    def touched(self, sq: int) -> bool:
        return sq in self.recent

    def since(self, count: int) -> Episode:
        """The changes after change number ``count``: what a quick reply did
        once the move before it was on the board."""
        changed_at = {sq: n for sq, n in self.changed_at.items() if n > count}
        return Episode(
            tuple(sq for sq in self.recent if sq in changed_at),
            tuple(sq for sq in self.placed if sq in changed_at),
            changed_at,
            self.count,
        )

    def proves(self, c: Candidate) -> bool:
        """Have the sensors seen ``c``'s capture?  Its square emptied and filled
        again after the mover was lifted; en passant's victim square reads
        empty in the move's own occupancy.  A target that never changed is a
        piece still in the air, never a capture (a nudge before the mover
        was lifted proves nothing either)."""
        if c.capture < 0 or c.capture != c.move.to_square:
            return True
        return self.handled_after(c.capture, c.from_square)

    def handled_after(self, sq: int, mover: int) -> bool:
        """Did ``sq`` change after the piece on ``mover`` was lifted?  A
        capture square touched only before that was a nudge."""
        return self.changed_at.get(sq, 0) > self.changed_at.get(mover, 0)


NO_EPISODE = Episode()


@dataclass(frozen=True)
class Amendable:
    """The last human move, while the opponent has not touched anything;
    ``episode`` runs on from before that move."""

    move: Move
    before: Position
    episode: Episode


@dataclass(frozen=True)
class Promotion:
    """A pawn has arrived; the piece it becomes is still to be chosen."""

    candidates: tuple[Candidate, ...]
    deadline: float


@dataclass(frozen=True)
class Ambiguity:
    """Several captures fit: the player shows the square by handling it."""

    candidates: tuple[Candidate, ...]


Waiting = Promotion | Ambiguity


@dataclass(frozen=True)
class Underway:
    """The move under way, from the last time the board agreed with the
    game.  Started afresh by each change of the game, so each change says
    what it keeps."""

    episode: Episode = NO_EPISODE
    judge_due: float | None = None  # when the reading will have settled
    tentative: Candidate | None = None  # the move the board last showed, unsettled
    tentative_at: int = 0  # the episode's change count when it showed
    amendable: Amendable | None = None
    waiting: Waiting | None = None  # a choice or a wait that is the mover's
    choice: PieceType | None = None  # promotion piece picked ahead
    choice_at: int = 0  # the episode's change count when picked
    highlight: PieceType | None = None  # promotion piece the display highlights
    unexplained_since: float | None = None  # start of the grace period
    fix: Fix | None = None  # the fix being shown
    new_game_due: float | None = None  # start position held since
    hint_due: float | None = None  # when to say how to finish a capture
    hint: bool = False  # the prompt is that hint

    def kept_over_change(self) -> Underway:
        """What outlives a change of the game: the timers still running on
        the reading and the fix on show."""
        return Underway(
            judge_due=self.judge_due, unexplained_since=self.unexplained_since, fix=self.fix
        )


History = tuple[tuple[int, int], ...]
"""(occupancy before, footprint) of each move of the game, for takebacks."""


@dataclass(frozen=True)
class Phase:
    """Everything the reconciler knows beyond the game."""

    reading: int
    changed_at: float = 0.0  # when ``reading`` came
    # The text on show, told once as an event.  Stored, not derived: it stays
    # until another replaces it or a verdict clears it, so it outlives the
    # wait it asked for (a promotion's "Choose the new piece" stays through
    # the BUSY verdict that follows when the pawn is lifted again).
    prompt: str = ""
    engine_move: Move | None = None  # for the player to carry out
    taking_back: bool = False  # the last move is to be taken back (stepping back)
    history: History = ()
    move: Underway = field(default_factory=Underway)

    @property
    def settled(self) -> bool:
        """Has the last reading been judged (no judgement still due)?"""
        return self.move.judge_due is None


def verdict(p: Phase, base: int, over: bool) -> State:
    """The reconciler's label for ``p``, in a game whose position has
    occupancy ``base`` (``over``: the game has ended): a choice open, else a
    fix on show, else the game over, else the grace of an unexplained
    reading, else the game's own position or a move under way.  A reading
    still settling is a move under way: hands are on the board."""
    t = p.move
    if t.waiting is not None:
        return State.CHOOSING
    if t.fix is not None:
        return State.ERROR
    if over:
        return State.GAME_OVER
    if t.unexplained_since is not None:
        return State.UNEXPLAINED
    return State.SYNCED if p.reading == base else State.BUSY
