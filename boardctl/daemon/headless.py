"""The simulator without a window: a sensor log played on the simulated board,
through the real daemon, in virtual time.

The board is :class:`~boardctl.hw.sim.SimBoard`, scanned and debounced like
the real matrix; LEDs go to :class:`~boardctl.hw.sim.SimLeds`, which encodes
every frame as the SPI bus would carry it.  Virtual time advances in steps of
``1 / SCAN_HZ``; when the engine is thinking, virtual time waits for its
answer, so a script plays out the same way on a fast or a slow machine.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..board.explain import occupancy
from ..board.replay import RUN_ON, LogEvent, parse_log
from ..config import Config
from ..engine.interface import Opponent
from ..hw.scan import SCAN_HZ
from ..hw.sim import SimBoard, SimLeds
from ..rules import BoardctlError, Game, get_variant
from ..rules.boardgeometry import BoardGeometry
from ..storage.backlog import Store
from .boards import e_board
from .loop import Daemon
from .parts import Hardware, Services, Start

ENGINE_WAIT = 120.0  # real seconds an engine may think before it is told to stop
STOP_WAIT = 10.0  # real seconds a stopped engine may take to answer


class HeadlessError(BoardctlError, RuntimeError):
    """The headless run cannot go on: the engine does not answer even when stopped."""


def run_script(
    config: Config,
    log_text: str,
    store: Store,
    *,
    opponent: Opponent | None = None,
    resume: tuple[int, Game] | None = None,
    emit: Callable[[str], None] = print,
    wall_clock: Callable[[], float] = time.time,
) -> Daemon:
    """Play ``log_text`` (the replay format) and emit one line per event.

    Lines are those of ``boardctl replay`` plus ``engine <move>`` when the
    engine's move is shown on the board.  ``wall_clock`` dates what is
    stored (the script's own times are virtual).

    :raises LogError: for a malformed log line.
    """
    variant = get_variant(config.game.variant)
    events = list(parse_log(log_text, variant))
    start = resume[1].position if resume else Game(variant).position
    geo = start.geometry
    board = SimBoard(geo.squares(occupancy(start)), files=geo.files, ranks=geo.ranks)
    daemon = Daemon(
        config,
        Hardware(board, leds=_board_leds(geo)),
        store,
        Services(opponent=opponent),
        Start(resume=resume),
        wall_clock=wall_clock,
    )
    play = _Playback(daemon, board, emit)
    for event in events:
        play.advance(event.time)
        play.apply(event)
    play.advance((events[-1].time if events else 0.0) + RUN_ON)
    pos = daemon.game.position
    moves = " ".join(pos.uci(m) for m in daemon.game.moves)
    emit(f"game {moves}" if moves else "game")
    emit(f"fen {pos.fen()}")
    return daemon


class _Playback:
    """The daemon stepped through a script's virtual time, its events emitted."""

    def __init__(self, daemon: Daemon, board: SimBoard, emit: Callable[[str], None]) -> None:
        self.daemon = daemon
        self.board = board
        self.emit = emit
        self.now = 0.0
        self.shown: object = None  # the engine move last shown on the board
        self.seen = 0  # the daemon's events emitted so far
        self.quiet_since = 0.0  # the time of the last event of the script

    def advance(self, until: float) -> None:
        daemon, step = self.daemon, 1.0 / SCAN_HZ
        while self.now <= until:
            daemon.step(self.now)
            if daemon.engine.request is not None:
                _wait_for_engine(daemon)
            fresh = daemon.event_count - self.seen
            for event in list(daemon.events)[-fresh:] if fresh else ():
                self.emit(event.line())
            self.seen = daemon.event_count
            move = daemon.reconciler.engine_move
            if move is not None and move != self.shown:
                self.emit(f"engine {daemon.game.position.uci(move)}")
            self.shown = move
            self.now = round(self.now + step, 6)
            if self.now - self.quiet_since > RUN_ON and daemon.engine.request is None:
                # All that settles has settled: only the clocks run, and they
                # count the time passed whatever the step.
                self.now = max(self.now, round(until - until % step, 6))

    def apply(self, event: LogEvent) -> None:
        self.quiet_since = event.time
        # As in ``boardctl replay``, a hand the sensors cannot see (a lift
        # from an empty square, a piece put on a full one) changes nothing.
        board = self.board
        full = board.occupancy >> event.square & 1 if event.square >= 0 else 0
        if event.verb == "lift" and full:
            board.lift(event.square)
        elif event.verb == "place" and not full:
            board.place(event.square)
        elif event.piece is not None:
            self.daemon.choose(event.piece, self.now)


def _board_leds(geo: BoardGeometry) -> SimLeds | None:
    """The LED chain of the e-board the preset is played on; a preset no
    board is built for plays without one (the simulator window draws its own LEDs)."""
    board = e_board(geo)
    return board.sim_leds() if board is not None else None


def _wait_for_engine(daemon: Daemon) -> None:
    """Virtual time stands still while the engine thinks, up to ``ENGINE_WAIT``.

    :raises HeadlessError: when even a stopped engine does not answer.
    """
    engine = daemon.engine
    daemon.wait_for_engine(ENGINE_WAIT)
    if engine.request is None or engine.opponent is None:
        return
    engine.opponent.stop()
    daemon.wait_for_engine(STOP_WAIT)
    if engine.request is not None:
        raise HeadlessError(
            f"the engine did not answer within {ENGINE_WAIT + STOP_WAIT:g} s, "
            "even when told to stop"
        )
