"""The Reconciler: from occupancy readings to the moves that were played.

A pure state machine.  The daemon (or ``boardctl replay``, or a test) feeds it
readings of all presence sensors (one per square or hexagon cell: it knows
cells and legal moves, never the board's shape) with their time, the
player's choices and the engine's moves; it answers with events (moves,
amendments, takebacks, a new game, errors and prompts) and keeps an LED scene
and a prompt for the display.  It never reads a pin, a port or a clock: time comes in with the
readings, and :meth:`tick` lets timers run out when nothing changes.

How a reading is judged, once it has been still for ``settle`` seconds:

1. the position itself: in sync, nothing to do;
2. the end of a legal move: commit it.  A capture counts only once the
   sensors have seen the captured square emptied and filled again after the
   capturing piece was lifted (en passant: once its square reads empty): a
   piece held in the air leaves the same occupancy as a capture whose target
   never read empty, and only the first can be believed (a capture by the
   same piece onto one of several squares is told apart by the square last
   put down or lifted);
3. while the last move may still be amended (the opponent has touched
   nothing): the end of another move from the position before it: amend;
   the position before it: take it back;
4. the position before the last move: take it back (if allowed);
5. the start position: a new game (at once after the game ended, or after
   being held for ``new_game_hold`` seconds);
6. a stage of a legal move (a piece in the air, a capture half done): wait;
7. anything else: after ``grace`` seconds, show one fix.

A move seen (2) but not yet settled is committed at once when the next
reading only makes sense after it: a quick reply must not be missed.

The class here is the shell: it holds the game and the current
:class:`~.phases.Phase`, turns each call into an event (:mod:`.machine`),
feeds it to the judgement, ``feed(phase, event, view) -> (phase, actions)``
(:mod:`.judgement`), and does what the actions say: the only place the game
changes.  What a transition does to the phase is a pure function of
:mod:`.transitions`; picking among look-alike moves is :mod:`.picking`, the
fix to show :mod:`.diagnosis`, the LEDs :mod:`.drawing`.
"""

from __future__ import annotations

from ..rules import Game, IllegalMoveError, Move, Outcome, PieceType, Position
from . import machine as m
from . import transitions as tr
from .drawing import draw
from .events import Event, MoveTakenBack, NewGame
from .explain import Explainer, footprint, occupancy
from .judgement import feed
from .lookups import Lookups
from .phases import (
    Ambiguity,
    History,
    Phase,
    Promotion,
    ReconcilerConfig,
    State,
    Underway,
    verdict,
)
from .scene import LedScene

__all__ = ["Reconciler", "ReconcilerConfig", "State"]


class Reconciler:
    """Turns presence readings into moves of ``game`` (see module docstring).

    ``engine_side`` is the colour the engine plays (None: two humans).  Feed
    readings with :meth:`feed`, let time pass with :meth:`tick` (call it at
    :meth:`next_deadline` at the latest), pass the engine's move with
    :meth:`set_engine_move` and the player's promotion choice with
    :meth:`choose`.  Each returns the events it caused.  With the
    configuration's ``stepping`` (a stored game stepped through), every move
    is given as the engine's is, :meth:`ask_takeback` asks for the last one
    to be taken back, and :meth:`withdraw` takes back either request.
    """

    def __init__(
        self,
        game: Game,
        config: ReconcilerConfig | None = None,
        engine_side: int | None = None,
        reading: int | None = None,
    ) -> None:
        self.game = game
        self.config = config or ReconcilerConfig()
        self.engine_side = engine_side
        self._start_occ = occupancy(Position(None, game.variant))
        self._lookups = Lookups()
        actual = occupancy(game.position)
        reading = actual if reading is None else reading
        self.phase = Phase(
            reading,
            history=_replayed(game),
            move=Underway(judge_due=None if reading == actual else self.config.settle),
        )

    # ------------------------------------------------------------ the phase, read out
    @property
    def reading(self) -> int:
        return self.phase.reading

    @property
    def changed_at(self) -> float:
        return self.phase.changed_at

    @property
    def state(self) -> State:
        return verdict(self.phase, occupancy(self.game.position), self._outcome() is not None)

    @property
    def prompt(self) -> str:
        return self.phase.prompt

    @property
    def engine_move(self) -> Move | None:
        return self.phase.engine_move

    # ------------------------------------------------------------ inputs
    def feed(self, reading: int, now: float) -> list[Event]:
        """A new reading of all squares at time ``now``."""
        return self._handle(m.Reading(reading, now))

    def tick(self, now: float) -> list[Event]:
        """Let time pass: settle, grace, promotion and new-game timers."""
        due = self.next_deadline()
        if due is None or now < due:
            # No timer has run out: nothing to judge.  The daemon ticks often,
            # and a view of the game is not worth building for nothing.
            return []
        return self._handle(m.Tick(now))

    def next_deadline(self) -> float | None:
        """The earliest time at which :meth:`tick` has something to do."""
        return tr.next_deadline(self.phase, self.config.grace)

    def choose(self, piece: PieceType, now: float) -> list[Event]:
        """The player picked a promotion piece (before or during the promotion);
        one the preset does not promote to (a queen on the hexagon) is no choice."""
        return self._handle(m.Chosen(piece, now))

    def highlight(self, piece: PieceType) -> None:
        """The piece the display highlights while a promotion waits: it is the
        one taken if the wait ends without a choice."""
        self._handle(m.Highlighted(piece))

    @property
    def promotion_choices(self) -> tuple[PieceType, ...]:
        """The pieces to choose from while a promotion waits, else ()."""
        waiting = self.phase.move.waiting
        if not isinstance(waiting, Promotion):
            return ()
        return tuple(c.move.promotion for c in waiting.candidates if c.move.promotion)

    @property
    def ready_for_engine(self) -> bool:
        """Is the board in or on its way to the game's position, so that the
        engine may be asked for a move (not while a fix or a choice is open)?"""
        return self.state in (State.SYNCED, State.BUSY)

    @property
    def capture_choices(self) -> tuple[int, ...]:
        """The squares one of which the mover captured on, while the board
        cannot tell which, else ()."""
        waiting = self.phase.move.waiting
        if not isinstance(waiting, Ambiguity):
            return ()
        return tuple(sorted({c.move.to_square for c in waiting.candidates}))

    @property
    def promotion_piece(self) -> PieceType:
        """The piece a promotion takes now: the one chosen, else the one
        highlighted, else the default."""
        t = self.phase.move
        return t.choice or t.highlight or self._default_promotion()

    def set_engine_move(self, move: Move) -> None:
        """The engine's move, for the player to carry out on the board.

        :raises IllegalMoveError: when it is not legal (or not the engine's turn).
        """
        if self._human_to_move or not self.game.position.is_legal(move):
            uci = self.game.position.uci(move)
            raise IllegalMoveError(f"engine move {uci} is not playable now")
        self._handle(m.EngineMoveOffered(move))
        self._lookups.forget()

    @property
    def amendable(self) -> bool:
        """May the last move still be amended (its player has not let go of it)?"""
        return self.phase.move.amendable is not None

    def hold(self, now: float) -> None:
        """The board's voice is still speaking: the waits a prompt asks the
        player to act in (a promotion piece to choose, the start position
        to keep for a new game) start again from ``now``, so that a player
        who listens hears the words whole before the board decides."""
        c = self.config
        self.phase = tr.held(self.phase, now, c.promotion_wait, c.new_game_hold)

    def seal(self) -> None:
        """Make the last move final: it can no longer be amended, only taken
        back where takebacks are allowed (a remote game sends it on)."""
        self.phase = tr.sealed(self.phase)

    def ask_takeback(self) -> None:
        """The player is to take the game's last move back (stepping back
        through a stored game): the LEDs show it undone, and a fix leads to
        the position before it.  The takeback itself is read as any is.

        :raises IllegalMoveError: when the game has no move, or the
            configuration allows no takeback.
        """
        if not self.game.moves or not self.config.allow_takeback:
            raise IllegalMoveError("no move to take back")
        self._handle(m.TakebackAsked())

    def withdraw(self) -> None:
        """The move offered (:meth:`set_engine_move`) or the takeback asked for
        (:meth:`ask_takeback`) is wanted no more: the board is led back to
        the game's position."""
        self._handle(m.OfferWithdrawn())

    @property
    def taking_back(self) -> bool:
        """Has the player been asked to take the last move back?"""
        return self.phase.taking_back

    # ------------------------------------------------------------ the judgement, applied
    def _handle(self, event: m.Input) -> list[Event]:
        """Feed ``event`` to the judgement and do what it asks, feeding back
        the rest of a decision the game changed in the middle of."""
        events: list[Event] = []
        follow: m.Input | None = event
        while follow is not None:
            self.phase, actions = feed(self.phase, follow, self._view())
            follow = None
            for action in actions:
                if isinstance(action, m.Emit):
                    events += action.events
                elif isinstance(action, m.Continue):
                    follow = action.event
                else:
                    events.append(self._change(action))
        return events

    def _view(self) -> m.View:
        pos = self.game.position
        return m.View(
            pos,
            self._lookups.explain(pos),
            self._lookups.explain_before,
            self._outcome(),
            self.engine_side,
            bool(self.game.moves),
            self._start_occ,
            tuple(self.game.variant.promotions),
            self._default_promotion(),
            self.config,
        )

    def _change(self, action: m.GameChange) -> Event:
        """Change the game as ``action`` says; the event that tells of it."""
        self._lookups.forget()
        match action:
            case m.Play(event):
                self.game.push(event.move)
                return event
            case m.Amend(event):
                self.game.pop()
                self.game.push(event.new)
                return event
            case m.TakeBack():
                pos = self.game.position
                move = self.game.pop()
                return MoveTakenBack(move, pos.uci(move))
            case m.StartNewGame():
                self.game = Game(self.game.variant)
                return NewGame()

    # ------------------------------------------------------------ queries
    @property
    def _side_to_move(self) -> int:
        return self.game.position.turn

    @property
    def _human_to_move(self) -> bool:
        return not self.config.stepping and self.engine_side != self._side_to_move

    def _outcome(self) -> Outcome | None:
        return self.game.outcome()  # the game keeps it per position

    def _explain(self) -> Explainer:
        return self._lookups.explain(self.game.position)

    def _default_promotion(self) -> PieceType:
        allowed = self.game.variant.promotions
        wanted = self.config.default_promotion
        return wanted if wanted in allowed else allowed[0]

    # ------------------------------------------------------------ output
    def scene(self) -> LedScene:
        """What the LEDs should show now."""
        shown = self._human_to_move or self.config.teaching
        stuck = self.stuck() if shown else []
        return draw(self.game.position, self.phase, shown, self.config.teaching, stuck)

    @property
    def lifted(self) -> int | None:
        """The square of the one piece of the side to move in the air, else
        None (none, or several: a capture or castling under way)."""
        pos = self.game.position
        up = occupancy(pos) & ~self.phase.reading & pos.colors[pos.turn]
        return up.bit_length() - 1 if up and up.bit_count() == 1 else None

    def stuck(self) -> list[int]:
        """Squares of lifted pieces of the side to move that have no legal
        move: the player is told at once instead of searching in vain."""
        p = self.phase
        if not self._human_to_move or p.move.fix is not None or p.engine_move is not None:
            return []
        sq = self.lifted
        if sq is None:
            return []  # a capture or castling under way: a piece alone tells nothing
        if self._outcome() is not None or self._explain().moves_from(sq):
            return []
        return [sq]


def _replayed(game: Game) -> History:
    """(occupancy before, footprint) of each move so far, for takebacks."""
    pos = Position(game.start_fen, game.variant)
    out = []
    for move in game.moves:
        out.append((occupancy(pos), footprint(pos, pos.code_of(move))[0]))
        pos.push(move)
    return tuple(out)
