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

The class here is the judgement: it holds the game and the current
:class:`~.phases.Phase`, decides which transition a reading or a timer
calls for, and changes the game.  What a transition does to the phase is a
pure function of :mod:`.transitions`; picking among look-alike moves is
:mod:`.picking`, the fix to show :mod:`.diagnosis`, the LEDs :mod:`.drawing`.
"""
from __future__ import annotations

from ..rules import Game, IllegalMoveError, Move, Outcome, PieceType, Position, san
from . import transitions as tr
from .diagnosis import diagnose, engine_turn_fix, illegal_castling
from .drawing import draw
from .events import Event, GameOver, MoveAmended, MoveMade, MoveTakenBack, NewGame
from .explain import Candidate, Explainer, footprint, occupancy
from .guidance import Fix, piece_name
from .lookups import Lookups
from .phases import Ambiguity, History, Phase, Promotion, ReconcilerConfig, State, Underway
from .picking import one_move, pick, promoting, same_squares
from .scene import LedScene

__all__ = ["Reconciler", "ReconcilerConfig", "State"]


class Reconciler:
    """Turns presence readings into moves of ``game`` (see module docstring).

    ``engine_side`` is the colour the engine plays (None: two humans).  Feed
    readings with :meth:`feed`, let time pass with :meth:`tick` (call it at
    :meth:`next_deadline` at the latest), pass the engine's move with
    :meth:`set_engine_move` and the player's promotion choice with
    :meth:`choose`.  Each returns the events it caused.
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
        self.phase = Phase(reading, history=_replayed(game), move=Underway(
            judge_due=None if reading == actual else self.config.settle))

    # ------------------------------------------------------------ the phase, read out
    @property
    def reading(self) -> int:
        return self.phase.reading

    @property
    def changed_at(self) -> float:
        return self.phase.changed_at

    @property
    def state(self) -> State:
        return self.phase.state

    @property
    def prompt(self) -> str:
        return self.phase.prompt

    @property
    def engine_move(self) -> Move | None:
        return self.phase.engine_move

    # ------------------------------------------------------------ inputs
    def feed(self, reading: int, now: float) -> list[Event]:
        """A new reading of all squares at time ``now``."""
        # Timers that ran out before this reading came belong to the last one.
        events: list[Event] = self.tick(now)
        if reading != self.phase.reading:
            changed = reading ^ self.phase.reading
            events += self._mover_done(changed)
            if self.phase.move.amendable and changed & self._theirs() \
                    and self.phase.reading != self._explain().base:
                # The opponent's hand ends the chance to amend: an amendment
                # the board shows already (the king put beside the rook moved
                # first, not yet settled) is taken as it stands.
                events += self._try_amend() or []
            self.phase = tr.reading_noted(self.phase, reading, now, self._theirs(),
                                          self.config.settle)
            events += self._quick_reply()
        events += self.tick(now)
        return events

    def tick(self, now: float) -> list[Event]:
        """Let time pass: settle, grace, promotion and new-game timers."""
        events: list[Event] = []
        t = self.phase.move
        if t.judge_due is not None and now >= t.judge_due:
            events += self._judge(now)
        waiting = self.phase.move.waiting
        if isinstance(waiting, Promotion) and now >= waiting.deadline:
            events += self._promote(self.promotion_piece)
        new_game_due = self.phase.move.new_game_due
        if new_game_due is not None and now >= new_game_due:
            events += self._new_game()
        hint_due = self.phase.move.hint_due
        if hint_due is not None and now >= hint_due:
            events += self._capture_hint()
        grace_end = tr.grace_end(self.phase, self.config.grace)
        if grace_end is not None and now >= grace_end:
            events += self._show_fix()
        return events

    def next_deadline(self) -> float | None:
        """The earliest time at which :meth:`tick` has something to do."""
        return tr.next_deadline(self.phase, self.config.grace)

    def choose(self, piece: PieceType, now: float) -> list[Event]:
        """The player picked a promotion piece (before or during the promotion);
        one the preset does not promote to (a queen on the hexagon) is no choice."""
        if piece not in self.game.variant.promotions:
            return []
        pending = self.phase.move.tentative
        if pending is not None and pending.move.promotion and not self._reply_chose():
            # The piece picked so far is the pending promotion's: keep it
            # there, since a pick after the reply began is the replier's.
            pending = self._promoting(same_squares(self._explain(), pending))
        self.phase = tr.chosen(self.phase, piece, pending)
        if isinstance(self.phase.move.waiting, Promotion):
            return self._promote(piece)
        return []

    def highlight(self, piece: PieceType) -> None:
        """The piece the display highlights while a promotion waits: it is the
        one taken if the wait ends without a choice."""
        self.phase = tr.highlighted(self.phase, piece)

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
        return self.phase.state in (State.SYNCED, State.BUSY)

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
        if self.engine_side != self._side_to_move or not self.game.position.is_legal(move):
            uci = self.game.position.uci(move)
            raise IllegalMoveError(f"engine move {uci} is not playable now")
        self.phase = tr.engine_move_offered(self.phase, move, self.config.settle)
        self._lookups.forget()

    # ------------------------------------------------------------ queries
    @property
    def _side_to_move(self) -> int:
        return self.game.position.turn

    @property
    def _human_to_move(self) -> bool:
        return self.engine_side != self._side_to_move

    def _theirs(self) -> int:
        """The squares of the side to move: their hand there ends the mover's turn."""
        return self.game.position.colors[self._side_to_move]

    def _outcome(self) -> Outcome | None:
        return self.game.outcome()   # the game keeps it per position

    def _explain(self) -> Explainer:
        return self._lookups.explain(self.game.position)

    def _allowed(self, candidates: list[Candidate]) -> list[Candidate]:
        """Moves the board may show now: any human move, or the engine's own."""
        if self._outcome() is not None:
            return []
        if self._human_to_move:
            return candidates
        return [c for c in candidates if c.move == self.phase.engine_move]

    def _explained(self, reading: int) -> bool:
        ex = self._explain()
        if reading == ex.base:
            return True
        return bool(self._allowed(ex.matches(reading)) or self._allowed(ex.in_progress(reading)))

    def _proven(self, candidates: list[Candidate]) -> list[Candidate]:
        """The moves of ``candidates`` the board may show whose capture was seen."""
        episode = self.phase.move.episode
        return [c for c in self._allowed(candidates) if episode.proves(c)]

    # ------------------------------------------------------------ judging
    def _mover_done(self, changed: int) -> list[Event]:
        """The opponent's hand on one of their own pieces says the mover is
        done: a promotion that waits only for the mover's choice is taken
        with the piece highlighted."""
        waiting = self.phase.move.waiting
        if self.engine_side is not None or not isinstance(waiting, Promotion):
            return []
        if not one_move(waiting.candidates):
            return []   # which capture is still the mover's to show
        sample = waiting.candidates[0]
        theirs = self.game.position.colors[1 - self._side_to_move] & sample.after \
            & ~sample.footprint
        if not changed & theirs:
            return []
        self.phase = tr.waiting_ended(self.phase)
        return self._commit(self._promoting(waiting.candidates),
                            by_engine=not self._human_to_move)

    def _quick_reply(self) -> list[Event]:
        """Accept the engine's move the moment the board shows it, and keep
        track of the move the board last showed (see :meth:`_reply_started`)."""
        ex = self._explain()
        reading, engine_move = self.phase.reading, self.phase.engine_move
        if not self._human_to_move and engine_move is not None:
            engine = [c for c in ex.candidates if c.move == engine_move]
            if reading == engine[0].after and self.phase.move.episode.proves(engine[0]):
                return self._commit(engine[0], by_engine=True)
            self.phase = tr.tentative_shown(self.phase, engine[0])
            return []
        matches = self._proven(ex.matches(reading))
        if len(matches) > 1:
            # Twins (a rook move and a castling that fill the same squares):
            # the squares handled decide, as they do once settled.
            matches = self._pick(matches)
        if len(matches) == 1:
            self.phase = tr.tentative_shown(self.phase, matches[0])
        elif matches and self.engine_side is None and one_move(matches):
            # A pawn on the last rank: an opponent who reaches for a piece
            # before it settles takes the promotion piece as it stands.
            self.phase = tr.tentative_shown(self.phase, self._promoting(matches))
        # Else the move last shown stays: whether a hand on its squares is
        # the mover going on or the opponent taking the piece that just
        # moved, only the settled reading can tell (:meth:`_reply_started`).
        return []

    def _reply_chose(self) -> bool:
        """Was the promotion piece picked after the move last shown, once the
        board had changed again?  Then the opponent picked it, ahead of a
        promotion of their own."""
        t = self.phase.move
        return t.choice is not None and t.choice_at > t.tentative_at

    def _promoting(self, candidates: list[Candidate] | tuple[Candidate, ...],
                   piece: PieceType | None = None) -> Candidate:
        """The one of ``candidates`` (of one move) that a promotion would take
        now, or that promotes to ``piece``."""
        return promoting(candidates, piece or self.promotion_piece, self._default_promotion())

    def _reply_started(self, now: float) -> list[Event] | None:
        """The settled reading makes sense only after the move last shown (or
        the engine's): the reply began before that move settled.  Commit it,
        then judge the rest.  Decided only now, once settled: a nudge of an
        opponent's piece in the middle of a slide must not end the move."""
        shown = self.phase
        pending, reading = shown.move.tentative, shown.reading
        ex = self._explain()
        if pending is None or reading == ex.base or self._allowed(ex.matches(reading)):
            return None
        keep_choice = self._reply_chose()
        if pending.move.promotion and not keep_choice:  # chosen since the pawn landed
            pending = self._promoting(same_squares(ex, pending))
        # After the piece it promotes to: a queen may pin what a falcon does not.
        after = self.game.position.copy()
        after.push(pending.move)
        later = Explainer(after)
        # What the hands did once that move was on the board is the reply's.
        reply = shown.move.episode.since(shown.move.tentative_at)
        # A reading that is a whole reply wins over a stage of the mover's:
        # after b7xc8, the rook on a8 and the pawn on c8 lifted is the reply
        # a8xc8 begun, not the pawn still in the air to take on a8.  A
        # reading that is no whole reply is one only if it is nothing now.
        whole = reading == later.base or any(reply.proves(c) for c in later.matches(reading))
        if not whole and (self._explained(reading) or not later.in_progress(reading)):
            return None
        events = self._commit(pending, by_engine=not self._human_to_move)
        self.phase = tr.reply_split(self.phase, shown, keep_choice)
        return events + self._judge(now)

    def _judge(self, now: float) -> list[Event]:
        """The reading has settled: decide what it is (module docstring)."""
        self.phase = tr.settled(self.phase)
        reading = self.phase.reading
        ex = self._explain()
        if reading == ex.base:
            self.phase = tr.synced(self.phase, self._outcome() is not None)
            return []
        reply = self._reply_started(now)
        if reply is not None:
            return reply
        # A capture not yet seen is a piece in the air: a stage, below.
        matches = self._proven(ex.matches(reading))
        if matches:
            if self._illegal_castling(matches) is None:
                return self._take(matches, now, by_engine=not self._human_to_move)
            return self._unexplained(now)   # a castling the rules forbid
        amend = self._try_amend()
        if amend is not None:
            return amend
        history = self.phase.history
        if self.config.allow_takeback and history and reading == history[-1][0]:
            return self._take_back()
        return self._judge_rest(reading, now)

    def _judge_rest(self, reading: int, now: float) -> list[Event]:
        """A settled reading that is no move, amendment or takeback."""
        events: list[Event] = []
        if reading == self._start_occ and self.game.moves:
            if self._outcome() is not None:
                return self._new_game()
            self.phase, events = tr.new_game_held(self.phase, self.config.new_game_hold)
            return events
        if self._in_progress(reading):
            unseen = bool(self._allowed(self._explain().matches(reading)))  # none proven
            hint_due = self.phase.changed_at + self.config.grace if unseen else None
            self.phase = tr.busy(self.phase, hint_due)
            return events
        if self._outcome() is not None:
            self.phase = tr.stays_over(self.phase)
            return events
        return self._unexplained(now)

    def _capture_hint(self) -> list[Event]:
        """The reading is a piece in the air that could capture, and has been
        for the grace period: say how a capture is shown, in case the pieces
        were swapped without the target square ever reading empty."""
        self.phase = tr.hint_ended(self.phase)
        unseen = self._allowed(self._explain().matches(self.phase.reading))
        if not unseen or self.phase.state is not State.BUSY:
            return []
        pos = self.game.position
        piece = piece_name(pos, unseen[0].from_square)
        targets = sorted({c.capture for c in unseen})
        if len(targets) == 1:
            victim, at = piece_name(pos, targets[0]), pos.geometry.name(targets[0])
            text = (f"To take the {victim} on {at}, lift it off the board, "
                    f"then put the {piece} down there")
        else:
            text = (f"To take a piece with the {piece}, lift that piece off the board, "
                    f"then put the {piece} down on its square")
        if self.phase.engine_move is not None:
            text = f"Play the engine's move. {text}"
        self.phase, events = tr.hint_given(self.phase, text)
        return events

    def _unexplained(self, now: float) -> list[Event]:
        """No position the game accepts: a fix, once the grace period is over."""
        self.phase = tr.unexplained(self.phase)
        if tr.fix_due(self.phase, now, self.config.grace):
            return self._show_fix()
        return []

    def _illegal_castling(self, matches: list[Candidate]) -> Candidate | None:
        if not matches or not self._human_to_move:
            return None
        return illegal_castling(self._explain(), self.phase.move.episode, matches)

    def _in_progress(self, reading: int) -> bool:
        ex = self._explain()
        if self._allowed(ex.in_progress(reading)):
            return True
        amendable = self.phase.move.amendable
        if amendable and self._lookups.explain_before(amendable.before).in_progress(reading):
            return True
        history = self.phase.history
        if self.config.allow_takeback and history:
            # Undoing the last move, half done: changes only on its squares.
            earlier, squares = history[-1]
            return not (reading ^ ex.base) & ~squares and (reading & squares).bit_count() <= (
                earlier & squares
            ).bit_count()
        return False

    def _pick(self, matches: list[Candidate]) -> list[Candidate]:
        return pick(matches, self.phase.move.episode, self._explain().base)

    def _take(self, matches: list[Candidate], now: float, by_engine: bool) -> list[Event]:
        picked = self._pick(matches)
        if not one_move(picked):
            piece = piece_name(self.game.position, picked[0].from_square)
            self.phase, events = tr.capture_square_asked(self.phase, tuple(picked), piece)
            return events
        if len(picked) > 1:  # one square, several promotion pieces
            choice = self.phase.move.choice
            if choice is not None:
                return self._promote(choice, tuple(picked))
            deadline = now + self.config.promotion_wait
            self.phase, events = tr.promotion_asked(self.phase, tuple(picked), deadline)
            return events
        return self._commit(picked[0], by_engine)

    def _promote(self, piece: PieceType,
                 candidates: tuple[Candidate, ...] | None = None) -> list[Event]:
        """Commit one of ``candidates`` (by default the promotion waiting):
        the one that promotes to ``piece``, else to the default piece."""
        waiting = self.phase.move.waiting
        pool = candidates or (waiting.candidates if isinstance(waiting, Promotion) else ())
        self.phase = tr.waiting_ended(self.phase)
        chosen = [c for c in pool if c.move.promotion == piece] or [
            c for c in pool if c.move.promotion == self._default_promotion()
        ]
        if not chosen:
            return []
        return self._commit(chosen[0], by_engine=not self._human_to_move)

    def _default_promotion(self) -> PieceType:
        allowed = self.game.variant.promotions
        wanted = self.config.default_promotion
        return wanted if wanted in allowed else allowed[0]

    def _try_amend(self) -> list[Event] | None:
        amendable = self.phase.move.amendable
        if amendable is None:
            return None
        before = self._lookups.explain_before(amendable.before)
        if self.phase.reading == before.base:
            return self._take_back()
        matches = [c for c in before.matches(self.phase.reading)
                   if c.move != amendable.move and amendable.episode.proves(c)]
        if not matches:
            return None
        picked = pick(matches, amendable.episode, before.base)
        if len({c.move for c in picked}) != 1:
            return None
        new = picked[0]
        pos = amendable.before
        old_uci, new_uci = pos.uci(amendable.move), pos.uci(new.move)
        text = san(pos, new.move)
        self.game.pop()
        self.phase = tr.amending(self.phase)
        events: list[Event] = [MoveAmended(amendable.move, new.move, old_uci, new_uci, text)]
        events += self._commit(new, by_engine=False, quiet=True)
        return events

    # ------------------------------------------------------------ changing the game
    def _commit(self, c: Candidate, by_engine: bool, quiet: bool = False) -> list[Event]:
        pos = self.game.position
        before = pos.copy()
        text = san(pos, c.move)
        uci = pos.uci(c.move)
        self.game.push(c.move)
        self._lookups.forget()
        self.phase = tr.committed(self.phase, c, before, by_engine)
        events: list[Event] = [] if quiet else [MoveMade(c.move, uci, text, by_engine)]
        events += self._after_change()
        return events

    def _take_back(self) -> list[Event]:
        pos = self.game.position
        move = self.game.pop()
        uci = pos.uci(move)
        self._lookups.forget()
        self.phase = tr.taken_back(self.phase)
        return [MoveTakenBack(move, uci), *self._after_change()]

    def _new_game(self) -> list[Event]:
        self.phase = tr.hold_ended(self.phase)
        if self.phase.reading != self._start_occ:
            return []
        self.game = Game(self.game.variant)
        self._lookups.forget()
        self.phase = tr.new_game(self.phase)
        return [NewGame(), *self._after_change()]

    def _after_change(self) -> list[Event]:
        """After the game changed: judge the reading again from the new position."""
        events: list[Event] = []
        outcome = self._outcome()
        if outcome is not None:
            events.append(GameOver(outcome))
        if self.phase.reading == occupancy(self.game.position):
            self.phase = tr.synced(self.phase, outcome is not None)
            if outcome is not None:
                self.phase, shown = tr.over(self.phase, str(outcome))
                events += shown
        else:
            # Judge the rest (a quick reply) once it has settled.
            self.phase = tr.resettle(self.phase, self.config.settle)
        return events

    def _show_fix(self) -> list[Event]:
        fix = self._diagnose()
        if fix is None:
            return []
        self.phase, events = tr.fix_shown(self.phase, fix)
        return events

    def _diagnose(self) -> Fix | None:
        pos, reading = self.game.position, self.phase.reading
        recent = list(self.phase.move.episode.recent)
        if not self._human_to_move:
            return engine_turn_fix(pos, reading, recent, self.phase.engine_move)
        castling = self._illegal_castling(self._allowed(self._explain().matches(reading)))
        return diagnose(pos, reading, recent, castling)

    # ------------------------------------------------------------ output
    def scene(self) -> LedScene:
        """What the LEDs should show now."""
        shown = self._human_to_move or self.config.teaching
        stuck = self.stuck() if shown else []
        return draw(self.game.position, self.phase, shown, self.config.teaching, stuck)

    def stuck(self) -> list[int]:
        """Squares of lifted pieces of the side to move that have no legal
        move: the player is told at once instead of searching in vain."""
        pos, p = self.game.position, self.phase
        if not self._human_to_move or p.move.fix is not None or p.engine_move is not None:
            return []
        lifted = occupancy(pos) & ~p.reading & pos.colors[pos.turn]
        if not lifted or lifted.bit_count() > 1:
            return []   # a capture or castling under way: a piece alone tells nothing
        sq = lifted.bit_length() - 1
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
