"""A round through a real mosquitto: boards (a daemon on a simulated board
among them) broadcast, the hall subscribes once and serves the round as
events and as PGN; a forger's state is refused, and a board whose network
drops is shown offline and filled in again when it is back."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from boardctl.config import parse_config
from boardctl.daemon import wiring
from boardctl.hall.boardkey import board_key
from boardctl.hall.round import Round, Seat
from boardctl.hall.service import Hall, make_round_app
from boardctl.hall.watch import Presence, Watch
from boardctl.remote.keys import SigningKey, fingerprint
from boardctl.remote.transport import BrokerSettings, MqttTransport
from boardctl.rules.pgn import read_games
from boardctl.web.server import ServerThread

from ..remote.broker import RETRY, Broker
from ..remote.tcpproxy import TcpFaults, TcpProxy
from .helpers import EVENT, PGN_PERIOD, SimBoard, make_round, snapshot

WAIT = 20.0
NO_FAULTS = TcpFaults(delay=0, drip=0, reset=0, stall=0, budget=0)


def until(check: Callable[[], Any], timeout: float = WAIT) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("gave up waiting")


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    b = Broker(tmp_path / "broker")
    yield b
    b.close()


class Spectator:
    """A phone on the hall's page: its event stream, applied as round.js
    applies it, on a thread of its own."""

    def __init__(self, url: str) -> None:
        import threading

        self.url = url
        self.boards: dict[int, dict[str, Any]] = {}
        self.events = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._follow()), daemon=True)
        self._thread.start()

    async def _follow(self) -> None:
        async with (
            aiohttp.ClientSession() as session,
            session.get(self.url + "api/events") as response,
        ):
            while not self._stop.is_set():
                try:
                    block = await asyncio.wait_for(response.content.readuntil(b"\n\n"), 0.5)
                except TimeoutError:
                    continue
                fields = dict(
                    line.split(": ", 1) for line in block.decode().splitlines() if ": " in line
                )
                if "data" in fields:
                    self._apply(json.loads(fields["data"]))

    def _apply(self, data: dict[str, Any]) -> None:
        self.events += 1
        for entry in data["boards"]:
            old = self.boards.get(entry["number"], {"sans": []})
            entry["sans"] = old["sans"][: entry["sans_at"]] + entry["sans"]
            self.boards[entry["number"]] = entry

    def sans(self, number: int) -> list[str]:
        return list(self.boards.get(number, {}).get("sans", []))

    def presence(self, number: int) -> str:
        return str(self.boards.get(number, {}).get("presence", ""))

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)


def test_a_round_through_mosquitto_reaches_spectators_and_the_pgn_and_a_drop_shows(
    broker: Broker, tmp_path: Path
) -> None:
    proxy = TcpProxy(broker.port, NO_FAULTS, seed=1)
    proxy.start()
    settings = BrokerSettings(broker.url)
    with ExitStack() as stack:
        stack.callback(proxy.stop)

        def board(number: int, url: str, key: SigningKey | None = None) -> SimBoard:
            via = BrokerSettings(url)
            connect = lambda will: MqttTransport(via, will=will, retry=RETRY)  # noqa: E731
            made = SimBoard(number, connect, thread=True, key=key)
            stack.callback(made.broadcast.close)
            return made

        one, two, three = board(1, broker.url), board(2, proxy.url), board(3, broker.url)
        one.hub.publish(snapshot(["e2e4", "e7e5"]))  # before the hall: it gets them retained
        pgn = tmp_path / "round3.pgn"
        hall_transport = MqttTransport(settings, waiting=1024)
        stack.callback(hall_transport.close)
        hall = Hall(make_round(3), hall_transport, pgn, pgn_period=PGN_PERIOD)
        server = ServerThread(lambda: make_round_app(hall), host="127.0.0.1", port=0)
        server.start()
        stack.callback(server.stop)
        phone = Spectator(server.url)
        stack.callback(phone.close)
        until(lambda: phone.sans(1) == ["e4", "e5"])
        two.hub.publish(snapshot(["d2d4"]))
        three.hub.publish(snapshot(["c2c4", "c7c5"], result="1-0", reason="resignation"))
        until(lambda: phone.sans(2) == ["d4"] and phone.sans(3) == ["c4", "c5"])
        assert phone.boards[3]["result"] == "1-0"

        # Someone else on the broker, writing board 1's topic with a key of its own.
        forger = board(1, broker.url, SigningKey())
        forger.hub.publish(snapshot(["f2f4"]))
        one.hub.publish(snapshot(["e2e4", "e7e5", "i1h3"]))
        until(lambda: phone.sans(1) == ["e4", "e5", "Nh3"])

        proxy.cut(1.5)  # board 2's network drops: the broker sends its last will
        until(lambda: phone.presence(2) == "offline")
        two.hub.publish(snapshot(["d2d4", "d7d5"]))  # played while it was away
        until(lambda: phone.presence(2) == "live" and phone.sans(2) == ["d4", "d5"])
        assert phone.sans(1) == ["e4", "e5", "Nh3"]

        until(lambda: pgn.exists() and "d5" in pgn.read_text() and "Nh3" in pgn.read_text())
        games = read_games(pgn.read_text())
        assert [(tags["Round"], tags["Board"]) for tags, _ in games] == [
            ("3", "1"),
            ("3", "2"),
            ("3", "3"),
        ]
        assert [len(game.moves) for _, game in games] == [3, 2, 2]
        assert games[2][0]["Result"] == "1-0"


def test_a_daemon_on_a_simulated_board_broadcasts_its_game_as_configured(
    broker: Broker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    config = parse_config(
        {
            "game": {"mode": "two-players", "clock": "10+5"},
            "hall": {"broker": broker.url, "event": EVENT, "board": "table-1", "round": 3},
        }
    )
    key = board_key(tmp_path)  # what `boardctl hall key` shows the organiser
    rnd = Round(EVENT, 3, (Seat(1, "table-1", fingerprint(key.public), "Anna", "Ben"),))
    watch = Watch(rnd)
    hall = MqttTransport(BrokerSettings(broker.url))
    for where in watch.topics():
        hall.subscribe(where)
    with ExitStack() as stack:
        stack.callback(hall.close)
        daemon = wiring.build(config, stack, now=0.0)
        board, geo, now = daemon.hw.sensors, daemon.game.position.geometry, 0.0
        for square, lift in (("e2", True), ("e4", False), ("e7", True), ("e5", False)):
            (board.lift if lift else board.place)(geo.parse_square(square))  # type: ignore[attr-defined]
            for _ in range(60):
                now += 0.01
                daemon.step(now)
        table = watch.table(1)

        def heard() -> bool:
            for where, payload in hall.take():
                watch.feed(where, payload, time.monotonic())
            return table.sans == ["e4", "e5"]

        until(heard)
        assert table.presence is Presence.LIVE and table.state is not None
        assert table.state.round == 3 and table.state.running == "white"
        # Each mover's clock after its move with the increment: White's first
        # move is free, Black's took some 1.2 s of the board's (virtual) time.
        assert table.state.clocks == (605, 604)
