"""What a daemon is made of, in three groups: the hardware it drives, the
services it is lent (engines, the page, the voice, reviews, the remote
link), and how it starts (a game to resume, a position, a puzzle or a stored
game to set up first).  Each is the caller's: the daemon closes none of them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, TextIO

from ..board.stepping import Stepping
from ..engine.interface import Opponent
from ..hw import Buttons, LedSink, SensorSource
from ..remote.desk import Desk
from ..review.background import Reviewer
from ..rules import Game, Position
from ..ui.state import DisplayState
from ..voice.speaker import SaysAloud
from ..web.snapshot import Hub
from .puzzle import PuzzleSession


class Display(Protocol):
    def show(self, state: DisplayState) -> None: ...


class Notifier(Protocol):
    def watchdog(self) -> None: ...
    def watchdog_interval(self) -> float | None: ...


@dataclass(frozen=True)
class Hardware:
    """The board's sensors, and what else is wired: the LED chain, the
    buttons, the screen, systemd's watchdog, a file the raw sensor stream is
    recorded to (``--record``)."""

    sensors: SensorSource
    leds: LedSink | None = None
    buttons: Buttons | None = None
    display: Display | None = None
    notifier: Notifier | None = None
    recorder: TextIO | None = None


@dataclass(frozen=True)
class Services:
    """``opponent``: the engine to play against; ``adviser``: starts an
    engine for hints, the coach, or to play when the settings turn one on;
    ``web``: the spectator page's hub; ``speaker``: the board's voice;
    ``reviewer``: reviews of ended games; ``remote``: the remote link's desk."""

    opponent: Opponent | None = None
    adviser: Callable[[], Opponent] | None = None
    web: Hub | None = None
    speaker: SaysAloud | None = None
    reviewer: Reviewer | None = None
    remote: Desk | None = None


@dataclass(frozen=True)
class Start:
    """``resume``: the unfinished game to play on (its id and game) and when
    it began; ``setup``, ``puzzle``, ``replay``: a position, a puzzle or a
    stored game to guide the pieces to first (``--setup``, ``--puzzle``,
    ``--replay``); ``welcome``: the first start's words on where the
    settings page is."""

    resume: tuple[int, Game] | None = None
    started_at: float | None = None
    setup: Position | None = None
    puzzle: PuzzleSession | None = None
    replay: Stepping | None = None
    welcome: str | None = None


NOTHING_LENT = Services()  # a board of two players, with no page, voice or reviews
PLAIN_START = Start()  # a new game from the start position
