"""The coach of a teaching board: each position searched as it arises, each
move judged as it is played.

In teaching mode no engine plays (both sides are the players'), so nothing
waits for the coach: it starts an engine of its own, the kind the hints use
(in its own process; the loop only polls it), at full strength, and searches
every position of the game for :data:`COACH_SECONDS` as it arises.  The
position a move is played in has usually been searched while its player
thought, so a verdict waits for one search, of the position the move left;
that search is the next move's "before" too.  :func:`~boardctl.review.coach.remark`
turns the two into words.

Only the game's last move is judged: a move played on before its verdict
makes it moot, as playing on dismisses a warning; a takeback drops it.  A
remark is shown while the game stands where it was made.  An engine that
keeps dying is left alone: the falcon's lessons, which need no engine, are
still said.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from ..engine import MAX_SKILL, Info, Limits
from ..engine.interface import BestMove, Failed, Message, Opponent, Thinking, WorkerError
from ..review.coach import Evaluation, Remark, remark
from ..review.grading import ended_score
from ..rules import Game, Move
from .actions import Action
from .view import Phase, View

log = logging.getLogger("boardctl")

# A position's search, and so the wait for a verdict after a move.  At 1 s the
# compiled core reached depth 9-13 in the opening and early middle game on a
# loaded 2-core x86 machine (a Pi is slower: not measured); a piece left
# hanging shows at depth 3.
COACH_SECONDS = 1.0
# What each search is given; a test fixes the depth here instead, so that what
# it asserts does not depend on how far its machine gets in the time.
COACH_LIMITS = Limits(movetime=COACH_SECONDS)
COACH_RETRIES = 3  # engine processes started again before the coach does without

Key = tuple[str, tuple[Move, ...]]  # a position: the start and the moves to it


class Coach:
    """See the module docstring.  ``start`` makes the coach's engine (None:
    no coaching, as in the engine and two-player modes); ``offer``: the
    move may be offered back (takebacks are allowed)."""

    def __init__(self, start: Callable[[], Opponent] | None, offer: bool) -> None:
        self._start = start
        self.offer = offer
        self._engine: Opponent | None = None
        self.failures = 0
        self._seen: Key | None = None  # the game as the last step saw it
        self._judging: Key | None = None  # the game whose last move awaits its verdict
        # Each position's evaluation; None: the engine could not give one.
        self._scores: dict[Key, Evaluation | None] = {}
        self._search: tuple[Key, int] | None = None  # the position searched, its request
        self._info: Info | None = None  # the search's last finished iteration
        self._said: tuple[Key, Move, Remark] | None = None

    def step(self, now: float, view: View) -> list[Action]:
        """Take in what the engine said, judge the last move once both its
        positions are known, and search the next position needed (while a
        game is played: not while the pieces are set up or a stored game is
        stepped through).  The coach only speaks: it asks nothing of the daemon."""
        if self._start is None or view.phase is not Phase.PLAYING:
            return []
        game = view.game
        key = (game.start_fen, tuple(game.moves))
        if key != self._seen:
            self._changed(key)
        self._poll()
        self._judge(game, key)
        self._ask(game, key)
        return []

    @property
    def remark(self) -> Remark | None:
        """What the coach says of the last move, while the game stands there."""
        if self._said is None or self._said[0] != self._seen:
            return None
        return self._said[2]

    @property
    def takeback(self) -> tuple[int, int] | None:
        """The move offered back, as (the square its piece stands on, the
        square it goes back to)."""
        said = self.remark
        if said is None or not said.takeback or self._said is None:
            return None
        move = self._said[1]
        return move.to_square, move.from_square

    def close(self) -> None:
        if self._engine is not None:
            self._engine.close()
            self._engine = None

    # ------------------------------------------------------------ inside
    def _changed(self, key: Key) -> None:
        """The game changed: its last move is to be judged unless it was
        taken back (the new game is a start of the old one) or is a new game."""
        seen, self._seen = self._seen, key
        moves = key[1]
        self._judging = None
        if seen is not None and moves and seen[0] == key[0] and seen[1][: len(moves)] != moves:
            self._judging = key
        needed = self._needed(key)
        self._scores = {k: v for k, v in self._scores.items() if k in needed}

    def _needed(self, key: Key) -> list[Key]:
        """The positions to know, first first: the one the move awaiting its
        verdict was played in, then the game's own."""
        if self._judging is None:
            return [key]
        return [(key[0], key[1][:-1]), key]

    def _judge(self, game: Game, key: Key) -> None:
        if self._judging != key:
            return
        before, after = self._needed(key)
        if before not in self._scores or after not in self._scores:
            return
        self._judging = None
        pos = game.position.copy()
        played = pos.pop()
        said = remark(pos, played, self._scores[before], self._scores[after], self.offer)
        self._said = (key, played, said) if said is not None else None
        if said is not None:
            log.info("coach: %s", said.text)

    def _ask(self, game: Game, key: Key) -> None:
        """Search the first position needed that is not known yet (a search
        of one no longer needed is stopped)."""
        needed = self._needed(key)
        if self._search is not None and self._search[0] not in needed:
            self._stop()
        if self._search is not None:
            return
        wanted = next((k for k in needed if k not in self._scores), None)
        if wanted is None:
            return
        if wanted == key and (outcome := game.outcome()) is not None:
            cp, mate = ended_score(outcome, game.position.turn)
            self._scores[key] = Evaluation(cp, mate)
            return
        if self.failures > COACH_RETRIES:
            self._scores[wanted] = None  # without the engine: the falcon's lessons alone
            return
        self._go(game, wanted)

    def _go(self, game: Game, key: Key) -> None:
        start, moves = key
        try:
            if self._engine is None:
                assert self._start is not None
                self._engine = self._start()
                self._engine.set_skill(MAX_SKILL)
            pos = game.position
            texts = [pos.uci(m) for m in moves]  # coordinates do not depend on the position
            request = self._engine.go(start, texts, COACH_LIMITS, game.variant.name)
        except WorkerError as exc:
            self._lost(exc)
            return
        self._search = (key, request)
        self._info = None

    def _poll(self) -> None:
        if self._engine is None:
            return
        try:
            messages = self._engine.poll(0)
        except WorkerError as exc:
            self._lost(exc)
            return
        for message in messages:
            self._message(message)

    def _message(self, message: Message) -> None:
        if self._search is None or message.request != self._search[1]:
            return  # an answer to a search stopped
        key = self._search[0]
        if isinstance(message, Thinking):
            self._info = message.info
        elif isinstance(message, BestMove | Failed):
            self._search = None
            info = self._info
            if isinstance(message, Failed) or info is None:
                self._scores[key] = None  # no iteration finished: nothing to judge by
            else:
                self.failures = 0
                self._scores[key] = Evaluation(info.score_cp, info.mate, tuple(info.pv))

    def _stop(self) -> None:
        if self._engine is not None:
            self._engine.stop()
        self._search = None

    def _lost(self, exc: WorkerError) -> None:
        """The engine process died: the next search starts it again, a few times."""
        self._search = None
        self.failures += 1
        if self.failures > COACH_RETRIES:
            log.error("coach: engine lost %d times (%s): coaching without it", self.failures, exc)
        else:
            log.warning("coach: engine lost (%s): starting it again", exc)
