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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

from ..rules import FenError, Game, IllegalMoveError, Move, Outcome, PieceType, Position, san
from ..rules.moves import CASTLE, code_flag, code_from, code_to
from ..rules.pieces import FALCON, piece_colour, piece_kind
from .events import (
    ErrorShown,
    Event,
    GameOver,
    MoveAmended,
    MoveMade,
    MoveTakenBack,
    NewGame,
    Prompt,
)
from .explain import Candidate, Explainer, footprint, occupancy, pseudo_match
from .guidance import Fix, next_fix, piece_name
from .scene import EMPTY_SCENE, FALCON_PATH_ROLES, LedScene, Role


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


class State(Enum):
    SYNCED = "synced"            # the board shows the game's position
    BUSY = "busy"                # a move is being carried out
    UNEXPLAINED = "unexplained"  # not (yet) a position the game accepts
    ERROR = "error"              # a fix is being shown
    CHOOSING = "choosing"        # capture square or promotion piece to choose
    GAME_OVER = "game over"


@dataclass(frozen=True)
class Episode:
    """What happened on the board since it last agreed with the game."""

    recent: tuple[int, ...] = ()     # squares, latest change last
    placed: tuple[int, ...] = ()     # squares put down, latest last
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
        return Episode(tuple(sq for sq in self.recent if sq in changed_at),
                       tuple(sq for sq in self.placed if sq in changed_at),
                       changed_at, self.count)

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
class Transient:
    """Everything the reconciler knows beyond the game and the last reading:
    the state of the move under way.  Replaced whole on each transition, so
    each says what it keeps."""

    episode: Episode = NO_EPISODE
    judge_due: float | None = None          # when the reading will have settled
    tentative: Candidate | None = None      # the move the board last showed, unsettled
    tentative_at: int = 0                   # the episode's change count when it showed
    amendable: Amendable | None = None
    waiting: Waiting | None = None          # a choice or a wait that is the mover's
    choice: PieceType | None = None         # promotion piece picked ahead
    choice_at: int = 0                      # the episode's change count when picked
    highlight: PieceType | None = None      # promotion piece the display highlights
    unexplained_since: float | None = None  # start of the grace period
    fix: Fix | None = None                  # the fix being shown
    new_game_due: float | None = None       # start position held since
    hint_due: float | None = None           # when to say how to finish a capture
    hint: bool = False                      # the prompt is that hint


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
        self.reading = occupancy(game.position) if reading is None else reading
        self.changed_at = 0.0
        self.state = State.SYNCED
        self.prompt = ""
        self.engine_move: Move | None = None
        self.t = Transient()
        self._start_occ = occupancy(Position(None, game.variant))
        self._history = self._replayed_occupancies(game)
        # Caches, worked out again when what they depend on changes.
        self._explainer: Explainer | None = None
        self._before_explainer: Explainer | None = None
        self._outcome_key: tuple[int, int, int] | None = None
        self._outcome_value: Outcome | None = None
        if self.reading != occupancy(game.position):
            self.t = Transient(judge_due=self.config.settle)

    @staticmethod
    def _replayed_occupancies(game: Game) -> list[tuple[int, int]]:
        """(occupancy before, footprint) of each move so far, for takebacks."""
        pos = Position(game.start_fen, game.variant)
        out = []
        for move in game.moves:
            out.append((occupancy(pos), footprint(pos, pos.code_of(move))[0]))
            pos.push(move)
        return out

    # ------------------------------------------------------------ inputs
    def feed(self, reading: int, now: float) -> list[Event]:
        """A new reading of all squares at time ``now``."""
        # Timers that ran out before this reading came belong to the last one.
        events: list[Event] = self.tick(now)
        if reading != self.reading:
            changed = reading ^ self.reading
            events += self._mover_done(changed, now)
            if self.t.amendable and changed & self.game.position.colors[self._side_to_move] \
                    and self.reading != self._explain().base:
                # The opponent's hand ends the chance to amend: an amendment
                # the board shows already (the king put beside the rook moved
                # first, not yet settled) is taken as it stands.
                events += self._try_amend(now) or []
            geo = self.game.position.geometry
            lifted = geo.squares(changed & self.reading)
            placed = geo.squares(changed & reading)
            t = self.t
            amendable = t.amendable
            if amendable and changed & self.game.position.colors[self._side_to_move]:
                amendable = None  # the opponent touched one of their pieces
            if amendable:
                amendable = replace(amendable, episode=amendable.episode.noted(lifted, placed))
            if t.hint:
                self.prompt = ""   # the hint was for the reading before
            self.reading = reading
            self.changed_at = now
            self.t = replace(
                t,
                episode=t.episode.noted(lifted, placed),
                amendable=amendable,
                judge_due=now + self.config.settle,
                # A promotion is judged again from this reading.
                waiting=t.waiting if isinstance(t.waiting, Ambiguity) else None,
                new_game_due=None,
                hint_due=None,
                hint=False,
                # Grace runs for one unexplained reading.
                unexplained_since=t.unexplained_since if t.fix else None,
            )
            events += self._quick_reply()
        events += self.tick(now)
        return events

    def tick(self, now: float) -> list[Event]:
        """Let time pass: settle, grace, promotion and new-game timers."""
        events: list[Event] = []
        if self.t.judge_due is not None and now >= self.t.judge_due:
            self.t = replace(self.t, judge_due=None)
            events += self._judge(now)
        waiting = self.t.waiting
        if isinstance(waiting, Promotion) and now >= waiting.deadline:
            events += self._promote(self.promotion_piece, now)
        if self.t.new_game_due is not None and now >= self.t.new_game_due:
            events += self._new_game()
        if self.t.hint_due is not None and now >= self.t.hint_due:
            events += self._capture_hint()
        grace_end = self._grace_end()
        if grace_end is not None and now >= grace_end:
            events += self._show_fix()
        return events

    def _grace_end(self) -> float | None:
        t = self.t
        if t.unexplained_since is None or t.fix is not None or t.judge_due is not None:
            return None
        return t.unexplained_since + self.config.grace

    def next_deadline(self) -> float | None:
        """The earliest time at which :meth:`tick` has something to do."""
        waiting = self.t.waiting
        times = [
            self.t.judge_due,
            waiting.deadline if isinstance(waiting, Promotion) else None,
            self.t.new_game_due,
            self.t.hint_due,
            self._grace_end(),
        ]
        return min((x for x in times if x is not None), default=None)

    def choose(self, piece: PieceType, now: float) -> list[Event]:
        """The player picked a promotion piece (before or during the promotion);
        one the preset does not promote to (a queen on the hexagon) is no choice."""
        if piece not in self.game.variant.promotions:
            return []
        pending = self.t.tentative
        if pending is not None and pending.move.promotion and not self._reply_chose():
            # The piece picked so far is the pending promotion's: keep it
            # there, since a pick after the reply began is the replier's.
            pending = self._promoting(_same_squares(self._explain(), pending))
        self.t = replace(self.t, choice=piece, choice_at=self.t.episode.count,
                         tentative=pending)
        if isinstance(self.t.waiting, Promotion):
            return self._promote(piece, now)
        return []

    def highlight(self, piece: PieceType) -> None:
        """The piece the display highlights while a promotion waits: it is the
        one taken if the wait ends without a choice."""
        self.t = replace(self.t, highlight=piece)

    @property
    def promotion_choices(self) -> tuple[PieceType, ...]:
        """The pieces to choose from while a promotion waits, else ()."""
        if not isinstance(self.t.waiting, Promotion):
            return ()
        return tuple(c.move.promotion for c in self.t.waiting.candidates if c.move.promotion)

    @property
    def ready_for_engine(self) -> bool:
        """Is the board in or on its way to the game's position, so that the
        engine may be asked for a move (not while a fix or a choice is open)?"""
        return self.state in (State.SYNCED, State.BUSY)

    @property
    def capture_choices(self) -> tuple[int, ...]:
        """The squares one of which the mover captured on, while the board
        cannot tell which, else ()."""
        if not isinstance(self.t.waiting, Ambiguity):
            return ()
        return tuple(sorted({c.move.to_square for c in self.t.waiting.candidates}))

    @property
    def promotion_piece(self) -> PieceType:
        """The piece a promotion takes now: the one chosen, else the one
        highlighted, else the default."""
        return self.t.choice or self.t.highlight or self._default_promotion()

    def set_engine_move(self, move: Move) -> None:
        """The engine's move, for the player to carry out on the board.

        :raises IllegalMoveError: when it is not legal (or not the engine's turn).
        """
        if self.engine_side != self._side_to_move or not self.game.position.is_legal(move):
            uci = self.game.position.uci(move)
            raise IllegalMoveError(f"engine move {uci} is not playable now")
        self.engine_move = move
        self._explainer = None
        self.t = replace(self.t, judge_due=self.changed_at + self.config.settle)

    # ------------------------------------------------------------ queries
    @property
    def _side_to_move(self) -> int:
        return self.game.position.turn

    @property
    def _human_to_move(self) -> bool:
        return self.engine_side != self._side_to_move

    def _outcome(self) -> Outcome | None:
        """The game's outcome, worked out once per position of the game: it
        costs a full move count and is asked several times per reading."""
        key = (id(self.game), len(self.game.moves), self.game.position.hash)
        if key != self._outcome_key:
            self._outcome_key = key
            self._outcome_value = self.game.outcome()
        return self._outcome_value

    def _explain(self) -> Explainer:
        if self._explainer is None or self._explainer.position is not self.game.position \
                or self._explainer.base != occupancy(self.game.position):
            self._explainer = Explainer(self.game.position)
        return self._explainer

    def _explain_before(self, amendable: Amendable) -> Explainer:
        """The position before the amendable move, explained once (it does not change)."""
        if self._before_explainer is None or self._before_explainer.position is not \
                amendable.before:
            self._before_explainer = Explainer(amendable.before)
        return self._before_explainer

    def _allowed(self, candidates: list[Candidate]) -> list[Candidate]:
        """Moves the board may show now: any human move, or the engine's own."""
        if self._outcome() is not None:
            return []
        if self._human_to_move:
            return candidates
        return [c for c in candidates if c.move == self.engine_move]

    def _explained(self, reading: int) -> bool:
        ex = self._explain()
        if reading == ex.base:
            return True
        return bool(self._allowed(ex.matches(reading)) or self._allowed(ex.in_progress(reading)))

    # ------------------------------------------------------------ judging
    def _mover_done(self, changed: int, now: float) -> list[Event]:
        """The opponent's hand on one of their own pieces says the mover is
        done: a promotion that waits only for the mover's choice is taken
        with the piece highlighted."""
        waiting = self.t.waiting
        if self.engine_side is not None or not isinstance(waiting, Promotion):
            return []
        if not self._one_move(waiting.candidates):
            return []   # which capture is still the mover's to show
        sample = waiting.candidates[0]
        theirs = self.game.position.colors[1 - self._side_to_move] & sample.after \
            & ~sample.footprint
        if not changed & theirs:
            return []
        self.t = replace(self.t, waiting=None)
        return self._commit(self._promoting(waiting.candidates),
                            by_engine=not self._human_to_move)

    def _quick_reply(self) -> list[Event]:
        """Accept the engine's move the moment the board shows it, and keep
        track of the move the board last showed (see :meth:`_reply_started`)."""
        ex = self._explain()
        if not self._human_to_move and self.engine_move is not None:
            engine = [c for c in ex.candidates if c.move == self.engine_move]
            if self.reading == engine[0].after and self.t.episode.proves(engine[0]):
                return self._commit(engine[0], by_engine=True)
            self._show_tentative(engine[0])
            return []
        matches = [c for c in self._allowed(ex.matches(self.reading)) if self.t.episode.proves(c)]
        if len(matches) > 1:
            # Twins (a rook move and a castling that fill the same squares):
            # the squares handled decide, as they do once settled.
            matches = self._pick(matches)
        if len(matches) == 1:
            self._show_tentative(matches[0])
        elif matches and self.engine_side is None and self._one_move(matches):
            # A pawn on the last rank: an opponent who reaches for a piece
            # before it settles takes the promotion piece as it stands.
            self._show_tentative(self._promoting(matches))
        # Else the move last shown stays: whether a hand on its squares is
        # the mover going on or the opponent taking the piece that just
        # moved, only the settled reading can tell (:meth:`_reply_started`).
        return []

    def _reply_chose(self) -> bool:
        """Was the promotion piece picked after the move last shown, once the
        board had changed again?  Then the opponent picked it, ahead of a
        promotion of their own."""
        return self.t.choice is not None and self.t.choice_at > self.t.tentative_at

    def _show_tentative(self, c: Candidate) -> None:
        self.t = replace(self.t, tentative=c, tentative_at=self.t.episode.count)

    @staticmethod
    def _one_move(candidates: Sequence[Candidate]) -> bool:
        """Do ``candidates`` differ at most in the promotion piece?"""
        return len({(c.from_square, c.move.to_square) for c in candidates}) == 1

    def _promoting(self, candidates: Sequence[Candidate],
                   piece: PieceType | None = None) -> Candidate:
        """The one of ``candidates`` (of one move) that a promotion would take
        now, or that promotes to ``piece``."""
        for wanted in (piece or self.promotion_piece, self._default_promotion(), None):
            for c in candidates:
                if c.move.promotion == wanted:
                    return c
        return candidates[0]

    def _reply_started(self, now: float) -> list[Event] | None:
        """The settled reading makes sense only after the move last shown (or
        the engine's): the reply began before that move settled.  Commit it,
        then judge the rest.  Decided only now, once settled: a nudge of an
        opponent's piece in the middle of a slide must not end the move."""
        pending = self.t.tentative
        reading = self.reading
        ex = self._explain()
        if pending is None or reading == ex.base or self._allowed(ex.matches(reading)):
            return None
        keep_choice = self._reply_chose()
        if pending.move.promotion and not keep_choice:  # chosen since the pawn landed
            pending = self._promoting(_same_squares(ex, pending))
        # After the piece it promotes to: a queen may pin what a falcon does not.
        after = self.game.position.copy()
        after.push(pending.move)
        later = Explainer(after)
        # What the hands did once that move was on the board is the reply's.
        reply = self.t.episode.since(self.t.tentative_at)
        # A reading that is a whole reply wins over a stage of the mover's:
        # after b7xc8, the rook on a8 and the pawn on c8 lifted is the reply
        # a8xc8 begun, not the pawn still in the air to take on a8.  A
        # reading that is no whole reply is one only if it is nothing now.
        whole = reading == later.base or any(reply.proves(c) for c in later.matches(reading))
        if not whole and (self._explained(reading) or not later.in_progress(reading)):
            return None
        choice, choice_at = self.t.choice, self.t.choice_at
        events = self._commit(pending, by_engine=not self._human_to_move)
        self.t = replace(self.t, episode=reply, judge_due=None)
        if keep_choice:
            self.t = replace(self.t, choice=choice, choice_at=choice_at)
        return events + self._judge(now)

    def _judge(self, now: float) -> list[Event]:
        """The reading has settled: decide what it is (module docstring)."""
        reading = self.reading
        ex = self._explain()
        if isinstance(self.t.waiting, Ambiguity):
            self.t = replace(self.t, waiting=None)
        if reading == ex.base:
            self._synced()
            return []
        events: list[Event] = []
        reply = self._reply_started(now)
        if reply is not None:
            return reply
        # A capture not yet seen is a piece in the air: a stage, below.
        matches = [c for c in self._allowed(ex.matches(reading)) if self.t.episode.proves(c)]
        if matches:
            if self._illegal_castling(matches) is None:
                return self._take(matches, now, by_engine=not self._human_to_move)
            return self._unexplained(now)   # a castling the rules forbid
        amend = self._try_amend(now)
        if amend is not None:
            return amend
        if self.config.allow_takeback and self._history and reading == self._history[-1][0]:
            return self._take_back()
        if reading == self._start_occ and self.game.moves:
            if self._outcome() is not None:
                return self._new_game()
            # Setting up the start position mid-game: a new game if it is held.
            self.t = replace(self.t, new_game_due=self.changed_at + self.config.new_game_hold,
                             unexplained_since=None)
            self._clear_fix()
            self.state = State.BUSY
            hold = f"{self.config.new_game_hold:g}"
            return self._set_prompt(f"Keep the start position for {hold} s for a new game")
        if self._in_progress(reading):
            unseen = bool(self._allowed(ex.matches(reading)))   # none proven, see above
            self.t = replace(self.t, unexplained_since=None,
                             hint_due=self.changed_at + self.config.grace if unseen else None)
            self._clear_fix()
            self.state = State.BUSY
            return events
        if self._outcome() is not None:
            self.state = State.GAME_OVER
            return events
        return self._unexplained(now)

    def _capture_hint(self) -> list[Event]:
        """The reading is a piece in the air that could capture, and has been
        for the grace period: say how a capture is shown, in case the pieces
        were swapped without the target square ever reading empty."""
        self.t = replace(self.t, hint_due=None)
        unseen = self._allowed(self._explain().matches(self.reading))
        if not unseen or self.state is not State.BUSY:
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
        if self.engine_move is not None:
            text = f"Play the engine's move. {text}"
        self.t = replace(self.t, hint=True)
        return self._set_prompt(text)

    def _unexplained(self, now: float) -> list[Event]:
        """No position the game accepts: a fix, once the grace period is over."""
        self.state = State.UNEXPLAINED
        if self.t.unexplained_since is None:
            self.t = replace(self.t, unexplained_since=self.changed_at)
        since = self.t.unexplained_since
        if self.t.fix is not None or (since is not None and now >= since + self.config.grace):
            return self._show_fix()
        return []

    def _illegal_castling(self, matches: list[Candidate]) -> Candidate | None:
        """A castling the rules forbid here (the king would cross or land on
        an attacked square) that fills the squares of ``matches`` and accounts
        for the squares the player handled better than any of them: king f1
        to g1 with the rook to f1 leaves the squares of the rook move j1-g1
        filled, and must not be read as it."""
        if not matches or not self._human_to_move:
            return None
        pos = self.game.position
        legal = {c.code for c in self._explain().candidates}
        base = self._explain().base
        best = max(_handled_score(c, self.t.episode, base) for c in matches)
        for code in pos.castling_shapes():
            if code in legal:
                continue
            squares, _ = footprint(pos, code)
            pos.make(code)
            after = occupancy(pos)
            pos.unmake()
            if after != matches[0].after:
                continue
            tried = Candidate(pos.to_move(code), code, after, squares, -1)
            if _handled_score(tried, self.t.episode, base) > best:
                return tried
        return None

    def _check_stands(self, code: int) -> bool:
        """Does a piece that gave check before ``code`` (and was not taken)
        still give it after?  Else the move made a new check (a piece
        stepping off a falcon's path, say), and the player is told so."""
        pos = self.game.position
        before = pos.checkers()
        if not before:
            return False
        us = pos.turn
        pos.make(code)
        try:
            after = pos.attackers(pos.kings[us], us ^ 1)
        finally:
            pos.unmake()
        return bool(before & after)

    def _in_progress(self, reading: int) -> bool:
        ex = self._explain()
        if self._allowed(ex.in_progress(reading)):
            return True
        amendable = self.t.amendable
        if amendable and self._explain_before(amendable).in_progress(reading):
            return True
        if self.config.allow_takeback and self._history:
            # Undoing the last move, half done: changes only on its squares.
            earlier, squares = self._history[-1]
            return not (reading ^ ex.base) & ~squares and (reading & squares).bit_count() <= (
                earlier & squares
            ).bit_count()
        return False

    def _pick(self, matches: list[Candidate], episode: Episode | None = None,
              base: int | None = None) -> list[Candidate]:
        """Narrow moves that leave the same occupancy by what the player handled.

        Castling f1j1 and the rook move j1g1 fill the same squares, as do all
        captures by one piece: the moves whose squares take in the most of the
        squares touched win (slides and nudges touch squares outside every
        move), then those with the fewest squares untouched, then the capture
        square put down, or else lifted, last.
        """
        seen = episode or self.t.episode
        before = self._explain().base if base is None else base

        def score(c: Candidate) -> tuple[int, int]:
            return _handled_score(c, seen, before)

        best = max(score(c) for c in matches)
        matches = [c for c in matches if score(c) == best]
        if len({(c.move.from_square, c.move.to_square) for c in matches}) == 1:
            return matches
        captures = {c.capture for c in matches if c.capture >= 0}
        for sq in reversed(seen.placed):
            if sq in captures:
                picked = [c for c in matches if c.capture == sq
                          and seen.handled_after(sq, c.from_square)]
                if picked:
                    return picked
        touched = [c for c in matches if c.capture >= 0 and seen.touched(c.capture)
                   and seen.handled_after(c.capture, c.from_square)]
        if len({c.capture for c in touched}) == 1:
            return touched
        return matches

    def _take(self, matches: list[Candidate], now: float, by_engine: bool) -> list[Event]:
        picked = self._pick(matches)
        if len({(c.move.from_square, c.move.to_square) for c in picked}) > 1:
            return self._ask_capture_square(picked)
        if len(picked) > 1:  # one square, several promotion pieces
            if self.t.choice is not None:
                return self._promote(self.t.choice, now, tuple(picked))
            self.t = replace(self.t, waiting=Promotion(tuple(picked),
                                                       now + self.config.promotion_wait))
            self.state = State.CHOOSING
            names = ", ".join(c.move.promotion.title for c in picked if c.move.promotion)
            return self._set_prompt(f"Choose the new piece: {names}")
        return self._commit(picked[0], by_engine)

    def _ask_capture_square(self, picked: list[Candidate]) -> list[Event]:
        self.t = replace(self.t, waiting=Ambiguity(tuple(picked)))
        self.state = State.CHOOSING
        piece = piece_name(self.game.position, picked[0].from_square)
        return self._set_prompt(
            f"Which piece did the {piece} take? Lift it and put it down on that square"
        )

    def _promote(self, piece: PieceType, now: float,
                 candidates: tuple[Candidate, ...] | None = None) -> list[Event]:
        """Commit one of ``candidates`` (by default the promotion waiting):
        the one that promotes to ``piece``, else to the default piece."""
        waiting = self.t.waiting
        pool = candidates or (waiting.candidates if isinstance(waiting, Promotion) else ())
        self.t = replace(self.t, waiting=None)
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

    def _try_amend(self, now: float) -> list[Event] | None:
        amendable = self.t.amendable
        if amendable is None:
            return None
        before = self._explain_before(amendable)
        if self.reading == before.base:
            return self._take_back()
        matches = [c for c in before.matches(self.reading)
                   if c.move != amendable.move and amendable.episode.proves(c)]
        if not matches:
            return None
        picked = self._pick(matches, amendable.episode, before.base)
        if len({c.move for c in picked}) != 1:
            return None
        new = picked[0]
        pos = amendable.before
        old_uci, new_uci = pos.uci(amendable.move), pos.uci(new.move)
        text = san(pos, new.move)
        self.game.pop()
        self._history.pop()
        events: list[Event] = [MoveAmended(amendable.move, new.move, old_uci, new_uci, text)]
        events += self._commit(new, by_engine=False, quiet=True)
        return events

    # ------------------------------------------------------------ outcomes
    def _commit(self, c: Candidate, by_engine: bool, quiet: bool = False) -> list[Event]:
        pos = self.game.position
        before = pos.copy()
        text = san(pos, c.move)
        uci = pos.uci(c.move)
        self._history.append((occupancy(pos), c.footprint))
        self.game.push(c.move)
        self._explainer = None
        self.engine_move = None
        # A new position: nothing of the move before carries over but the
        # timers still running on the reading and, for a human move, the
        # chance to amend it.
        t = self.t
        # A promotion piece picked ahead is for a promotion still to come: a
        # quick reply may pick it before the move it answers is committed.
        ahead = not c.move.promotion
        self.t = Transient(
            judge_due=t.judge_due,
            unexplained_since=t.unexplained_since,
            fix=t.fix,
            amendable=None if by_engine else Amendable(c.move, before, t.episode),
            choice=t.choice if ahead else None,
            highlight=t.highlight if ahead else None,
        )
        events: list[Event] = [] if quiet else [MoveMade(c.move, uci, text, by_engine)]
        events += self._after_change()
        return events

    def _take_back(self) -> list[Event]:
        pos = self.game.position
        move = self.game.pop()
        self._history.pop()
        uci = pos.uci(move)
        self._explainer = None
        self.engine_move = None
        t = self.t
        self.t = Transient(judge_due=t.judge_due, unexplained_since=t.unexplained_since,
                           fix=t.fix)
        return [MoveTakenBack(move, uci), *self._after_change()]

    def _new_game(self) -> list[Event]:
        self.t = replace(self.t, new_game_due=None)
        if self.reading != self._start_occ:
            return []
        self.game = Game(self.game.variant)
        self._outcome_key = None
        self.prompt = ""
        self._history = []
        self._explainer = None
        self.engine_move = None
        t = self.t
        self.t = Transient(judge_due=t.judge_due, unexplained_since=t.unexplained_since,
                           fix=t.fix)
        return [NewGame(), *self._after_change()]

    def _after_change(self) -> list[Event]:
        """After the game changed: judge the reading again from the new position."""
        events: list[Event] = []
        outcome = self._outcome()
        if outcome is not None:
            events.append(GameOver(outcome))
        if self.reading == occupancy(self.game.position):
            self._synced()
            if outcome is not None:
                self.state = State.GAME_OVER
                text = str(outcome)
                events += self._set_prompt(
                    f"{text[0].upper()}{text[1:]}. Set up the pieces for a new game"
                )
        else:
            # Judge the rest (a quick reply) once it has settled.
            self.t = replace(self.t, judge_due=self.changed_at + self.config.settle,
                             unexplained_since=None)
            self._clear_fix()
        return events

    def _synced(self) -> None:
        """The board shows the game's position: only the amendable move (and
        a promotion piece picked ahead) outlive this."""
        self.state = State.GAME_OVER if self._outcome() else State.SYNCED
        t = self.t
        self.t = Transient(judge_due=t.judge_due, amendable=t.amendable, choice=t.choice,
                           highlight=t.highlight)
        if self.state is not State.GAME_OVER:
            self.prompt = ""

    def _clear_fix(self) -> None:
        if self.t.fix is not None:
            self.t = replace(self.t, fix=None)
            self.prompt = ""

    def _set_prompt(self, text: str) -> list[Event]:
        if text == self.prompt:
            return []
        self.prompt = text
        return [Prompt(text)]

    def _show_fix(self) -> list[Event]:
        fix = self._diagnose()
        if fix is None:
            return []
        self.state = State.ERROR
        if fix == self.t.fix:
            return []
        self.t = replace(self.t, fix=fix)
        self.prompt = fix.text
        return [ErrorShown(fix.text)]

    def _diagnose(self) -> Fix | None:
        pos = self.game.position
        recent = list(self.t.episode.recent)
        if not self._human_to_move:
            if self.engine_move is not None:
                target = pos.copy()
                target.push(self.engine_move)
                fix = next_fix(target, self.reading, recent, back=False)
                return fix and Fix(fix.from_square, fix.to_square,
                                   f"Play the engine's move: {fix.text[0].lower()}{fix.text[1:]}")
            fix = next_fix(pos, self.reading, recent)
            return fix and Fix(fix.from_square, fix.to_square,
                               f"Wait for the engine's move. {fix.text}")
        fix = next_fix(pos, self.reading, recent)
        if fix is None:
            return None
        castling = self._illegal_castling(self._allowed(self._explain().matches(self.reading)))
        if castling is not None:
            king_from, king_to = castling.from_square, code_to(castling.code)
            rook_from, _ = pos.castle_rook_squares(king_from, king_to)
            at = pos.geometry.name
            return Fix(king_to, king_from,
                       "That castling is not allowed: the king would cross or land on an "
                       f"attacked square. Put the king back on {at(king_from)} and the "
                       f"rook back on {at(rook_from)}")
        code = pseudo_match(pos, self.reading)
        if code is not None and code_flag(code) != CASTLE:
            frm, to = code_from(code), code_to(code)
            reason = "Your king is in check" if self._check_stands(code) \
                else "That move leaves your king in check"
            name = piece_name(pos, frm)
            return Fix(to, frm, f"{reason}: move the {name} back to {pos.geometry.name(frm)}")
        return fix

    # ------------------------------------------------------------ output
    def scene(self) -> LedScene:
        """What the LEDs should show now."""
        pos = self.game.position
        fix, waiting = self.t.fix, self.t.waiting
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
        if self.engine_move is not None:
            scene = scene.with_squares(self._engine_squares(pos, self.engine_move))
        elif self._human_to_move or self.config.teaching:
            # A piece with no legal move blinks where it belongs.
            scene = scene.with_squares(self._lifted_squares(pos), frozenset(self.stuck()))
        if pos.is_check():
            scene = scene.with_squares({pos.kings[pos.turn]: Role.CHECK})
        return scene

    def _engine_squares(self, pos: Position, move: Move) -> dict[int, Role]:
        code = pos.code_of(move)
        frm, to = code_from(code), code_to(code)
        squares = {frm: Role.ENGINE_FROM, to: Role.ENGINE_TO}
        paths = pos.open_falcon_paths(frm, to) if piece_kind(pos.squares[frm]) == FALCON else []
        between = pos.geometry.squares(pos.tables.between[frm][to])
        for sq in (list(paths[0]) if paths else between):
            squares[sq] = Role.ENGINE_PATH
        if code_flag(code) == CASTLE:
            rook_from, rook_to = pos.castle_rook_squares(frm, to)
            squares.setdefault(rook_from, Role.ENGINE_FROM)
            squares[rook_to] = Role.ENGINE_TO
        return squares

    def stuck(self) -> list[int]:
        """Squares of lifted pieces of the side to move that have no legal
        move: the player is told at once instead of searching in vain."""
        pos = self.game.position
        if not self._human_to_move or self.t.fix is not None or self.engine_move is not None:
            return []
        lifted = occupancy(pos) & ~self.reading & pos.colors[pos.turn]
        if not lifted or lifted.bit_count() > 1:
            return []   # a capture or castling under way: a piece alone tells nothing
        sq = lifted.bit_length() - 1
        if self._outcome() is not None or self._explain().moves_from(sq):
            return []
        return [sq]

    def _lifted_squares(self, pos: Position) -> dict[int, Role]:
        """Legal destinations of each lifted piece; a falcon's open paths too."""
        lifted = occupancy(pos) & ~self.reading
        squares: dict[int, Role] = {}
        for frm in pos.geometry.squares(lifted):
            owner = piece_colour(pos.squares[frm])
            source: Position | None = pos
            if owner != pos.turn:
                source = _with_turn(pos, owner) if self.config.teaching else None
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


def _handled_score(c: Candidate, seen: Episode, before: int) -> tuple[int, int]:
    """How well ``c`` accounts for the squares handled in ``seen``, starting
    from occupancy ``before``: the squares touched that it takes in, then
    (on a tie) the fewest of its squares that nobody touched."""

    def counts(sq: int) -> bool:
        if not c.footprint >> sq & 1:
            return False
        if before >> sq & 1 and c.after >> sq & 1:
            # A square the move empties and fills again (a capture target,
            # the king's square when the rook lands on it) is handled only
            # if it changed after the squares the move vacates were lifted.
            vacated = c.footprint & before & ~c.after
            return all(seen.handled_after(sq, v)
                       for v in range(vacated.bit_length()) if vacated >> v & 1)
        return True

    covered = sum(1 for sq in seen.recent if counts(sq))
    # On a tie, the move with no square nobody touched: a1e1 over the
    # castling that also needs the king moved.
    return covered, covered - c.footprint.bit_count()


def _same_squares(ex: Explainer, c: Candidate) -> list[Candidate]:
    """The moves of ``ex`` with the same squares as ``c`` (its promotion pieces)."""
    return [o for o in ex.candidates if o.from_square == c.from_square
            and o.move.to_square == c.move.to_square]


def _with_turn(pos: Position, colour: int) -> Position | None:
    """The same position with ``colour`` to move, or None if that is no position."""
    fields = pos.fen().split()
    fields[1] = "w" if colour == 0 else "b"
    fields[3] = "-"
    try:
        return Position(" ".join(fields), pos.variant)
    except FenError:
        return None
