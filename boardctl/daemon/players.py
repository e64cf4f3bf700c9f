"""Who plays at the board: the names the store and the page give the two
sides, the engines the daemon holds to play against, and the features that
play or judge with them."""

from __future__ import annotations

import logging
from collections.abc import Callable

from ..config import Config
from ..engine.interface import Opponent, WorkerError
from ..rules import BLACK, WHITE, BoardctlError
from .coach import Coach
from .session import EngineSession, Settings

log = logging.getLogger("boardctl")

PLAYER = "Player"  # a player the configuration does not name
ENGINE_NAME = "boardctl"


def engine_colour(config: Config) -> int:
    """The colour the board's opponent plays: the one the human does not."""
    return BLACK if config.game.human == "white" else WHITE


def configured_names(config: Config, engine_side: int | None) -> tuple[str, str]:
    """(White, Black), for the store and the web page: as configured, else
    "Player"; the engine's side (in a puzzle, the defender's) is the engine's."""
    game = config.game
    white, black = game.white_name or PLAYER, game.black_name or PLAYER
    if engine_side == WHITE:
        white = ENGINE_NAME
    elif engine_side == BLACK:
        black = ENGINE_NAME
    return white, black


class Engines:
    """The engine to play against: the one the daemon was given (its
    caller's to close), else one started the first time a game against the
    engine begins (``start``, the adviser's factory), kept for the next such
    game and closed with the daemon."""

    def __init__(self, given: Opponent | None, start: Callable[[], Opponent] | None) -> None:
        self.start = start
        self._spare = given
        self._own: Opponent | None = None

    def engine(self, notice: Callable[[str], None]) -> Opponent | None:
        """The engine at hand, else one started now; None when it cannot start
        (logged, and ``notice`` told): a game of two players."""
        if self._spare is None and self.start is not None:
            try:
                self._spare = self._own = self.start()
            except (BoardctlError, OSError, WorkerError) as exc:
                log.error("the engine cannot start (%s): a game of two players", exc)
                notice("The engine cannot start: two players")
        return self._spare

    def close(self) -> None:
        if self._own is not None:
            self._own.close()


class Players:
    """Who plays at the board, seated as the configuration says: the engine
    session (the opponent, the hints, the level; see :mod:`.session`) and a
    teaching board's coach (see :mod:`.coach`).  ``settings``: where the
    level set at the board is kept."""

    def __init__(
        self,
        config: Config,
        opponent: Opponent | None,
        adviser: Callable[[], Opponent] | None,
        settings: Settings,
        now: float,
    ) -> None:
        self.engines = Engines(opponent, adviser)
        self.settings = settings
        self.engine = self._session(opponent, config, now)
        self.coach = self._coach(config)

    def seat(self, config: Config, now: float, notice: Callable[[str], None]) -> int | None:
        """Seat the players as ``config`` says: the engine (started if none is
        at hand) against the human's colour, or two players; returns the
        engine's colour (None: two players)."""
        wanted = self.engines.engine(notice) if config.game.mode == "engine" else None
        self.engine_for(wanted, config, now)
        self.coach.close()
        self.coach = self._coach(config)
        return engine_colour(config) if self.engine.opponent is not None else None

    def engine_for(self, opponent: Opponent | None, config: Config, now: float) -> None:
        """The engine session for ``opponent`` (None: nobody, or a puzzle's own engine)."""
        teaching = config.game.mode == "teaching"
        if opponent is not self.engine.opponent or teaching != self.engine.ranked_hints:
            self.engine.close()
            self.engine = self._session(opponent, config, now)

    def _session(self, opponent: Opponent | None, config: Config, now: float) -> EngineSession:
        # Hints come from the opponent, or from an engine started on first use;
        # a teaching board's name several good moves.
        teaching = config.game.mode == "teaching"
        return EngineSession(
            opponent,
            self.engines.start,
            self.settings,
            config.engine.skill,
            now,
            ranked_hints=teaching,
        )

    def _coach(self, config: Config) -> Coach:
        """A teaching board judges every move with an engine of its own
        (started on first use); no other board is coached."""
        teaching = config.game.mode == "teaching"
        return Coach(self.engines.start if teaching else None, offer=config.game.takeback)

    def close(self) -> None:
        """Stop the engines started here (for hints, the coach, or to play
        when the settings turned one on; the one given is its caller's)."""
        self.engine.close()
        self.coach.close()
        self.engines.close()
