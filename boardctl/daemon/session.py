"""The engine as the daemon uses it: requests, lost processes, hints and the level.

One :class:`EngineSession` per daemon, a :class:`~boardctl.daemon.view.Feature`.
It asks the opponent for a move when the view says it is the engine's turn,
answers with the move for the daemon to light
(:class:`~boardctl.daemon.actions.SetOpponentMove`), starts a lost engine
again a few times before leaving it alone until the position changes, asks
for hints (from the opponent, or from an engine started for them), and keeps
the level set at the board in the store.  It never blocks: every engine
answer is polled.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

from ..engine import MAX_SKILL, Limits
from ..engine.interface import (
    BestMove,
    Failed,
    Message,
    Opponent,
    Ranked,
    Ranks,
    Thinking,
    WorkerError,
)
from ..review.coach import HINT_MOVES, hint_words
from ..rules import WHITE, Game, IllegalMoveError, Move, Position, parse_uci, san
from ..rules.digits import NumberError, parse_whole, shown
from ..storage.store import StoreError
from .actions import Action, SetOpponentMove
from .view import View

log = logging.getLogger("boardctl")

ENGINE_RETRIES = 3  # engine processes started again on one position before giving up
ENGINE_RETRY_DELAY = 1.0
MAX_LEVEL = MAX_SKILL
LEVEL_SETTING = "engine.level"  # the level set at the board, kept in the store
HINT_SECONDS = 1.0
# A ranked hint searches each of its moves this long (so three take 1.5 s):
# each search after the first starts from what the ones before it learnt.
RANKED_HINT_SECONDS = HINT_SECONDS / 2
HINT_THINKING = "Thinking about a hint…"


class Settings(Protocol):
    """Where the level set at the board is kept (the game store)."""

    def setting(self, key: str) -> str | None: ...
    def set_setting(self, key: str, value: str) -> None: ...


class EngineSession:
    """See the module docstring.  ``opponent`` is None when no engine plays;
    ``adviser`` starts an engine for hints when there is no opponent."""

    def __init__(
        self,
        opponent: Opponent | None,
        adviser: Callable[[], Opponent] | None,
        settings: Settings,
        configured_level: int,
        now: float,
        *,
        ranked_hints: bool = False,
    ) -> None:
        self.opponent = opponent
        # A teaching board's hint names several good moves (where the engine can rank them).
        self.ranked_hints = ranked_hints
        self._adviser_factory = adviser
        self._adviser: Opponent | None = None
        self.settings = settings
        self.request: int | None = None  # the engine request whose answer we want
        self.due: float | None = now  # when to ask the engine (if its turn)
        self.pausing = 0.0  # the pause ``due`` is at the end of (seconds; 0: none)
        self.text = "off" if opponent is None else "ready"
        self.failures = 0  # engine processes lost on this position
        self.depth: int | None = None
        self.score = ""  # from White's point of view
        self.hint: str | None = None
        self.hint_move: tuple[int, int] | None = None
        self.hint_request: int | None = None
        self.level = self._stored_level(configured_level)

    # ------------------------------------------------------------ moves
    def step(self, now: float, view: View) -> list[Action]:
        """Ask for a move when it is the engine's turn and the board is ready
        for one; take in what the engines said."""
        game = view.game
        self._poll_adviser(game)
        if self.opponent is None:
            return []
        if self.failures and self.request is None and (self.due is None or now < self.due):
            return []  # lost: left alone until it is asked again (go() starts it anew)
        actions: list[Action] = []
        board = view.board
        try:
            if (
                self.request is None
                and view.engine_to_move
                and board.engine_move is None
                and self.due is not None
                and now >= self.due
                and board.ready_for_engine
            ):
                moves = [game.position.uci(m) for m in game.moves]
                self.request = self.opponent.go(
                    game.start_fen, moves, view.limits, game.variant.name
                )
                self.text = "thinking"
                self.due, self.pausing = None, 0.0
            for message in self.opponent.poll(0):
                if self.opponent is self._adviser and message.request == self.hint_request:
                    self._hint_message(message, game)
                else:
                    actions += self._message(message, game)
        except WorkerError as exc:
            self.lost(exc, now)
        return actions

    def wait(self, timeout: float, now: float, game: Game) -> list[Action]:
        """Block until the engine answers the current request (headless runs)."""
        actions: list[Action] = []
        if self.opponent is None:
            return actions
        waited = 0.0
        while self.request is not None and waited < timeout:
            try:
                messages = self.opponent.poll(0.05)
            except WorkerError as exc:
                self.lost(exc, now)
                return actions
            for message in messages:
                actions += self._message(message, game)
            waited += 0.05
        return actions

    def wake(self, at: float) -> None:
        """Ask for the engine's move (if it is its turn) from ``at`` on."""
        self.due, self.pausing = at, 0.0

    def pause(self, now: float, seconds: float) -> None:
        """Ask for the engine's move ``seconds`` after ``now`` (after a
        takeback: the board settles, and the player hears it said)."""
        self.due, self.pausing = now + seconds, seconds

    def hold(self, now: float) -> None:
        """The board's voice is still speaking: a pause starts again from
        ``now`` (the engine's move said at its end would cut the words)."""
        if self.pausing and self.due is not None and self.request is None:
            self.due = max(self.due, now + self.pausing)

    def new_position(self) -> None:
        """The game changed: a lost engine gets new tries, a hint is stale."""
        self.failures = 0
        self.clear_hint()

    def lost(self, exc: WorkerError, now: float) -> None:
        """The engine process died or cannot start: start it again a few
        times (the next go() does), then stop asking until the position
        changes, so a broken engine never stops the board."""
        self.request = None
        self.hint_request = None
        self.failures += 1
        if self.failures <= ENGINE_RETRIES:
            log.warning(
                "engine lost (%s): starting it again (%d of %d)", exc, self.failures, ENGINE_RETRIES
            )
            self.due, self.pausing = now + ENGINE_RETRY_DELAY, 0.0
            self.text = "restarting"
        else:
            log.error(
                "engine lost %d times on this position (%s): not asking it again "
                "until the position changes",
                self.failures,
                exc,
            )
            self.due, self.pausing = None, 0.0
            self.text = "engine error"

    def _message(self, message: Message, game: Game) -> list[Action]:
        if message.request != self.request:
            return []  # an answer to a position that is gone
        if isinstance(message, Thinking):
            info = message.info
            # The display shows scores from White's point of view.
            sign = 1 if game.position.turn == WHITE else -1
            if info.mate is not None:
                self.score = f"M{sign * info.mate}"
            else:
                self.score = f"{sign * (info.score_cp or 0) / 100:+.2f}"
            self.depth = info.depth
            self.text = "thinking"
        elif isinstance(message, BestMove):
            self.request = None
            self.failures = 0
            if message.move is None:
                self.text = "no move"
                return []
            try:
                move = parse_uci(game.position, message.move)
            except IllegalMoveError as exc:
                log.error("engine move refused: %s", exc)
                self.text = "engine error"
                return []
            self.text = "ready"  # the banner shows the move itself
            self.depth = None
            return [SetOpponentMove(move)]
        elif isinstance(message, Failed):
            self.request = None
            log.error("engine failed: %s", message.reason)
            self.text = "engine error"
        return []

    def cancel(self) -> None:
        """Forget the move asked for (the position it was for is gone)."""
        if self.request is not None and self.opponent is not None:
            self.opponent.stop()
        self.request = None
        self.text = "ready" if self.opponent is not None else "off"

    def new_game(self, now: float) -> None:
        self.cancel()
        if self.opponent is not None:
            try:
                self.opponent.new_game()
            except WorkerError as exc:
                self.lost(exc, now)
        self.wake(now)

    # ------------------------------------------------------------ hints
    def request_hint(self, game: Game, seconds: float = HINT_SECONDS) -> None:
        """Ask an engine for the side to move's best move (the "hint" button)."""
        adviser = self.opponent
        if adviser is None:
            if self._adviser_factory is None:
                return
            if self._adviser is None:
                self._adviser = self._adviser_factory()
            adviser = self._adviser
        self._adviser = adviser
        moves = [game.position.uci(m) for m in game.moves]
        try:
            if self.ranked_hints and isinstance(adviser, Ranks):
                self.hint_request = adviser.rank(
                    game.start_fen,
                    moves,
                    Limits(movetime=RANKED_HINT_SECONDS),
                    HINT_MOVES,
                    game.variant.name,
                )
            else:
                self.hint_request = adviser.go(
                    game.start_fen, moves, Limits(movetime=seconds), game.variant.name
                )
        except WorkerError as exc:
            self._adviser_lost(exc)
            return
        self.hint = HINT_THINKING

    def _poll_adviser(self, game: Game) -> None:
        if self._adviser is None or self._adviser is self.opponent:
            return
        try:
            for message in self._adviser.poll(0):
                self._hint_message(message, game)
        except WorkerError as exc:
            self._adviser_lost(exc)

    def _adviser_lost(self, exc: WorkerError) -> None:
        """No hint this time; the next hint starts a fresh engine."""
        log.warning("hint engine lost: %s", exc)
        if self._adviser is not None and self._adviser is not self.opponent:
            self._adviser.close()
            self._adviser = None
        self.clear_hint()
        self.hint = "No hint: the engine is not answering"

    def _hint_message(self, message: Message, game: Game) -> None:
        if message.request != self.hint_request or not isinstance(message, BestMove | Ranked):
            return
        self.hint_request = None
        pos = game.position
        texts = [message.move] if isinstance(message, BestMove) else [r.move for r in message.moves]
        try:
            moves = [parse_uci(pos, text) for text in texts if text is not None]
        except IllegalMoveError:
            moves = []
        if not moves:
            self.clear_hint()
            return
        self.show_hint(pos, moves[0])
        if isinstance(message, Ranked):
            scores = [(r.info.score_cp, r.info.mate) for r in message.moves]
            self.hint = hint_words(pos, list(zip(moves, scores, strict=True)))

    def show_hint(self, pos: Position, move: Move | None) -> None:
        """Show ``move``, a legal move of ``pos``, as the hint (a puzzle's
        comes from its solution, not from a search); None: one is looked for."""
        if move is None:
            self.hint = HINT_THINKING  # shown once it is found
            return
        self.hint = _hint_text(pos, move)
        self.hint_move = (move.from_square, move.to_square)

    def clear_hint(self) -> None:
        self.hint = None
        self.hint_move = None
        self.hint_request = None

    def close(self) -> None:
        """Stop an engine started for hints (the opponent is the caller's)."""
        if self._adviser is not None and self._adviser is not self.opponent:
            self._adviser.close()
            self._adviser = None

    # ----------------------------------------------------------- levels
    def _stored_level(self, configured: int) -> int:
        """The level last set at the board, else the configuration's; the
        engine is told when they differ."""
        try:
            text = self.settings.setting(LEVEL_SETTING)
        except StoreError as exc:
            log.warning("cannot read the engine level from the store: %s", exc)
            text = None
        try:
            level = parse_whole(text, 0, MAX_LEVEL) if text is not None else configured
        except NumberError:
            log.warning(
                "ignoring the stored engine level %s: not a level from 0 to %d",
                shown(text or ""),
                MAX_LEVEL,
            )
            return configured
        if level != configured and self.opponent is not None:
            try:
                self.opponent.set_skill(level)
            except WorkerError as exc:
                log.warning("cannot set the engine level: %s", exc)
        if self.opponent is not None:
            # The level it plays at: the one set at the board wins over the file's.
            where = "set at the board" if text is not None else "from the configuration"
            log.info("engine level %d of %d (%s)", level, MAX_LEVEL, where)
        return level

    def change_level(self, step: int, now: float, variant: str) -> str:
        """Raise or lower the engine's level (the next/prev buttons); it applies
        from the engine's next move and is kept for the next start.  Returns
        what the screen should say."""
        if self.opponent is None:
            return "The level is for games against the engine"
        self.set_level(max(0, min(MAX_LEVEL, self.level + step)), now)
        rating = self.rating(variant)
        about = f", about {rating}" if rating is not None else ""
        return f"Engine level {self.level} of {MAX_LEVEL}{about}"

    def set_level(self, level: int, now: float) -> None:
        """Play at ``level`` from the engine's next move, and keep it for the
        next start (also with no engine now: for when one plays again)."""
        if level == self.level:
            return
        self.level = level
        if self.opponent is not None:
            try:
                self.opponent.set_skill(level)
            except WorkerError as exc:
                self.lost(exc, now)
        try:
            self.settings.set_setting(LEVEL_SETTING, str(level))
        except StoreError as exc:
            log.warning("cannot keep the engine level: %s", exc)
        log.info("engine level %d", level)

    def rating(self, variant: str) -> int | None:
        """The level's approximate rating in ``variant``, when the engine has one."""
        return self.opponent.rating(self.level, variant) if self.opponent is not None else None


def _hint_text(pos: Position, move: Move) -> str:
    """The hint's one move, named by its squares too, as the engine's own
    move is: a player finds f5 to h7 on the board at once, Fxh7 only by looking."""
    geo = pos.geometry
    frm, to = geo.name(move.from_square), geo.name(move.to_square)
    return f"Hint: {san(pos, move)} \N{EN DASH} {frm} to {to}"
