"""A round of simulated boards for the hall's tests: each board a hub with
its broadcast (fed the page's snapshots as a daemon would publish them), in
memory (:class:`~boardctl.remote.transport.Bus`) or through a real broker."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from boardctl.hall.broadcast import Broadcast, Place, Will
from boardctl.hall.round import Round, Seat
from boardctl.hall.watch import Watch
from boardctl.remote.keys import SigningKey, fingerprint
from boardctl.remote.transport import Bus, Transport
from boardctl.rules import Game, get_variant
from boardctl.web.snapshot import Hub, Snapshot

EVENT = "spring-open"
STARTED = 1_750_000_000.0  # a game's start, UTC seconds (2025-06-15)
WAIT = 15.0
# Hall(pgn_period=): seconds between the hall's writes of its PGN file.  What
# the tests read is the file's text, not how seldom it is written (the hall's
# 1 s is a wait of up to a second at each change a test looks for there).
PGN_PERIOD = 0.05


@cache
def board_keys() -> tuple[SigningKey, ...]:
    """Eight boards' keys (a round on the hall's page), made once."""
    return tuple(SigningKey() for _ in range(8))


def make_round(boards: int = 3, number: int = 3, **names: Any) -> Round:
    seats = tuple(
        Seat(n, f"table-{n}", fingerprint(board_keys()[n - 1].public), f"White {n}", f"Black {n}")
        for n in range(1, boards + 1)
    )
    return Round(EVENT, number, seats, names.get("name", "Spring Open"), names.get("site", ""))


def snapshot(
    moves: Iterable[str] = (),
    *,
    clock: float | None = 300.0,
    result: str = "*",
    reason: str = "",
    game_id: int = 1,
    variant: str = "falcon",
    mode: str = "game",
    **fields: Any,
) -> Snapshot:
    """The page's snapshot after ``moves``: as a daemon publishes it, each
    mover's clock one second lower per move."""
    game = Game(get_variant(variant))
    ucis = tuple(moves)
    for uci in ucis:
        game.push_text(uci)
    clocks = tuple(None if clock is None else clock - 1 - i // 2 for i in range(len(ucis)))
    white = None if clock is None else clock - (len(ucis) + 1) // 2
    black = None if clock is None else clock - len(ucis) // 2
    running = (
        None if clock is None or not ucis or result != "*" else ("white", "black")[len(ucis) % 2]
    )
    values: dict[str, Any] = {
        "game_id": game_id,
        "started_at": STARTED,
        "variant": variant,
        "start_fen": game.start_fen,
        "fen": game.position.fen(),
        "moves": ucis,
        "clocks_after": clocks,
        "white_clock": white,
        "black_clock": black,
        "clock_running": running,
        "white": "Board's White",
        "black": "Board's Black",
        "result": result,
        "reason": reason,
        "mode": mode,
    }
    return Snapshot(**{**values, **fields})


class SimBoard:
    """A board of the round: its hub (what its daemon publishes) and its
    broadcast, stepped by hand on a virtual clock (``now``), or with
    ``thread`` on its own thread in real time."""

    def __init__(
        self,
        number: int,
        connect: Callable[[Will], Transport],
        *,
        place: Place | None = None,
        thread: bool = False,
        key: SigningKey | None = None,
    ) -> None:
        self.number = number
        self.hub = Hub()
        self.now = 0.0
        self.wall = STARTED
        self.broadcast = Broadcast(
            self.hub,
            key or board_keys()[number - 1],
            place or Place(EVENT, f"table-{number}"),
            connect,
            wall=time.time if thread else lambda: self.wall,
            clock=time.monotonic,
            thread=thread,
        )

    def show(self, snap: Snapshot) -> None:
        """The daemon publishes ``snap``; a second later the broadcast has sent it."""
        self.hub.publish(snap)
        self.step(1.0)

    def step(self, seconds: float) -> None:
        self.now += seconds
        self.wall += seconds
        self.broadcast.step(self.now)


class MemoryRound:
    """A round's boards and a hall's watch on one bus in memory."""

    def __init__(self, boards: int = 3, rnd: Round | None = None) -> None:
        self.bus = Bus()
        self.round = rnd or make_round(boards)
        self.wills: list[Will] = []  # each board's last will, left with the broker
        self.boards = [SimBoard(n, self.connect) for n in range(1, boards + 1)]
        self.hall = self.bus.client()
        self.watch = Watch(self.round)
        for where in self.watch.topics():
            self.hall.subscribe(where)
        self.now = 0.0

    def connect(self, will: Will) -> Transport:
        self.wills.append(will)
        return self.bus.client()

    def deliver(self, seconds: float = 0.25) -> None:
        """The hall takes what the broker brought, ``seconds`` later."""
        self.now += seconds
        for where, payload in self.hall.take():
            self.watch.feed(where, payload, self.now)
        self.watch.tick(self.now)
