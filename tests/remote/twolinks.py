"""Two boards' links on one machine in virtual time, meeting on a broker in
memory (:class:`~boardctl.remote.transport.Bus`): the daemons are left out,
their notes played by the test as the board players' moves and answers."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from boardctl.remote.desk import Answered, Asked, Desk, Played
from boardctl.remote.link import Link, LinkSettings
from boardctl.remote.transport import Bus
from boardctl.rules import WHITE

STEP = 0.05


class FakeLan:
    """The broker of the host's own, as the bus: no process."""

    def __init__(self, port: int, folder: Path) -> None:
        self.port, self.url = port, f"mqtt://127.0.0.1:{port}"

    def close(self) -> None:
        pass


@dataclass
class Clock:
    now: float = 0.0
    wall: float = 1_000_000.0


class Board:
    """One board's link and desk, on ``bus``."""

    def __init__(self, folder: Path, bus: Bus, time: Clock, **settings: object) -> None:
        self.folder, self.bus, self.clock = folder, bus, time
        self.settings = LinkSettings(**{"colour": WHITE, **settings})  # type: ignore[arg-type]
        self.open()

    def open(self) -> None:
        self.desk = Desk()
        self.link = Link(
            self.desk,
            self.folder / "remote.sqlite3",
            self.settings,
            transport_for=lambda settings: self.bus.client(),
            lan_for=FakeLan,  # type: ignore[arg-type]
            monotonic=lambda: self.clock.now,
            wall=lambda: self.clock.wall,
        )
        self.link.open()

    def restart(self) -> None:
        self.link.close()
        self.open()

    def play(self, uci: str) -> None:
        view = self.desk.view
        self.desk.tell(Played(view.key, view.seq, uci))

    def ask(self, kind: str) -> None:
        view = self.desk.view
        self.desk.tell(Asked(view.key, view.seq, kind))  # type: ignore[arg-type]

    def answer(self, kind: str, yes: bool) -> None:
        view = self.desk.view
        self.desk.tell(Answered(view.key, view.seq, kind, yes))  # type: ignore[arg-type]

    def line(self) -> tuple[str, ...]:
        match = self.link.match
        return match.record.state.line if match is not None else ()


def run(clock: Clock, *boards: Board, seconds: float = 1.0) -> None:
    end = clock.now + seconds
    while clock.now < end:
        for board in boards:
            board.link.turn()
        clock.now = round(clock.now + STEP, 6)
        clock.wall += STEP


def met(folder: Path, **host_settings: object) -> tuple[Bus, Clock, Board, Board]:
    """A host that offered a game and a guest not in it yet."""
    bus, clock = Bus(), Clock()
    host = Board(folder / "host", bus, clock, name="Table A", **host_settings)
    guest = Board(folder / "guest", bus, clock, name="Table B", offer_at_start=False)
    run(clock, host, guest, seconds=0.2)
    return bus, clock, host, guest


def joined(folder: Path, **host_settings: object) -> tuple[Bus, Clock, Board, Board]:
    """A host that offered a game and a guest seated in it."""
    bus, clock, host, guest = met(folder, **host_settings)
    joining = guest.link.join(host.link.invitation())
    run(clock, host, guest, seconds=1.0)
    assert joining.done.is_set() and not joining.error, joining.error
    return bus, clock, host, guest
