"""The hall's service, through aiohttp's test client: the page, the event
stream (the whole round, then batches of what changed), the round's PGN
served and written, and a slow spectator who holds up nobody."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient, TestServer

from boardctl.hall.fanout import Fanout, chunk
from boardctl.hall.round import Round, Seat
from boardctl.hall.service import Hall, make_round_app
from boardctl.rules.pgn import read_games

from .helpers import PGN_PERIOD, MemoryRound, make_round, snapshot

WAIT = 15.0


@asynccontextmanager
async def serving(room: MemoryRound, pgn: Path | None = None) -> AsyncIterator[TestClient]:
    hall = Hall(room.round, room.bus.client(), pgn, pgn_period=PGN_PERIOD)
    async with TestClient(TestServer(make_round_app(hall))) as client:
        yield client


async def next_event(response: ClientResponse) -> tuple[str, Any]:
    """The next event of a stream (comments and the retry line skipped)."""
    while True:
        block = await asyncio.wait_for(response.content.readuntil(b"\n\n"), WAIT)
        fields = dict(line.split(": ", 1) for line in block.decode().splitlines() if ": " in line)
        if "event" in fields:
            return fields["event"], json.loads(fields["data"])


async def until(check: Callable[[], Any]) -> Any:
    for _ in range(int(WAIT / 0.05)):
        found = check()
        if found:
            return found
        await asyncio.sleep(0.05)
    raise AssertionError("gave up waiting")


def test_the_page_lists_the_round_with_names_escaped_and_draws_it_at_once():
    hostile = Seat(1, "table-1", "0" * 16, "<script>alert(1)</script>", 'Ben "B" & Co')
    rnd = Round("spring-open", 3, (hostile,), "Spring <Open>")
    room = MemoryRound(1, rnd)

    async def check() -> None:
        async with serving(room) as client:
            page = await (await client.get("/")).text()
            assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
            assert "Ben &quot;B&quot; &amp; Co" in page and "Spring &lt;Open&gt;" in page
            assert 'id="initial-state"' in page and "/static/round.js" in page
            whole = await (await client.get("/api/round")).json()
            assert whole["round"] == 3 and whole["boards"][0]["presence"] == "waiting"
            assert "falcon" in whole["layouts"]

    asyncio.run(check())


def test_a_spectator_gets_the_whole_round_then_only_what_changes():
    room = MemoryRound(3)
    room.boards[0].show(snapshot(["e2e4"]))

    async def check() -> None:
        async with serving(room) as client:
            response = await client.get("/api/events")
            assert response.headers["Content-Type"] == "text/event-stream"
            kind, whole = await next_event(response)
            if not whole["boards"][0]["sans"]:  # came before the hall's first turn
                kind, _ = await next_event(response)
            room.boards[1].show(snapshot(["d2d4", "d7d5"]))
            kind, batch = await next_event(response)
            assert kind == "boards" and [b["number"] for b in batch["boards"]] == [2]
            (board,) = batch["boards"]
            assert (board["sans_at"], board["sans"], board["ply"]) == (0, ["d4", "d5"], 2)
            room.boards[1].show(snapshot(["d2d4", "d7d5", "c2c4"]))
            kind, batch = await next_event(response)
            assert (batch["boards"][0]["sans_at"], batch["boards"][0]["sans"]) == (2, ["c4"])
            stats = await (await client.get("/api/stats")).json()
            assert stats["spectators"] == 1 and stats["live"] == 2 and stats["messages"] >= 3
            response.close()

    asyncio.run(check())


def test_the_round_s_pgn_is_served_with_its_version_and_written_for_upload(tmp_path: Path):
    room = MemoryRound(2)
    out = tmp_path / "round3.pgn"

    async def check() -> None:
        async with serving(room, out) as client:
            room.boards[0].show(snapshot(["e2e4", "e7e5"]))
            await until(lambda: out.exists() and "e5" in out.read_text())
            response = await client.get("/round.pgn")
            text = await response.text()
            assert [tags["Board"] for tags, _ in read_games(text)] == ["1", "2"]
            assert response.headers["Access-Control-Allow-Origin"] == "*"
            etag = response.headers["ETag"]
            again = await client.get("/round.pgn", headers={"If-None-Match": etag})
            assert again.status == 304
            room.boards[0].show(snapshot(["e2e4", "e7e5", "d2d4"]))
            await until(lambda: "d4" in out.read_text())
            newer = await client.get("/round.pgn", headers={"If-None-Match": etag})
            assert newer.status == 200 and "d4" in await newer.text()
        assert out.stat().st_mode & 0o777 == 0o644

    asyncio.run(check())


class FakeStream:
    """A spectator's connection that reads only when told to."""

    def __init__(self, reads: bool = True) -> None:
        self.reads = reads
        self.unread = 0
        self.received = b""
        self.closed = False

    def write(self, data: bytes) -> None:
        self.received += data
        if not self.reads:
            self.unread += len(data)

    def get_write_buffer_size(self) -> int:
        return self.unread

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True


def test_a_spectator_who_stops_reading_is_dropped_and_holds_up_nobody():
    async def check() -> None:
        fanout = Fanout(max_unsent=100)
        quick, stalled, gone = FakeStream(), FakeStream(reads=False), FakeStream()
        left = fanout.join(stalled, chunked=True)
        fanout.join(quick, chunked=True)
        fanout.join(gone, chunked=False)
        gone.closed = True
        for _ in range(5):
            fanout.send(b"data: " + b"x" * 40 + b"\n\n")
        assert left.done() and stalled.closed and fanout.dropped == 1
        assert quick.received == chunk(b"data: " + b"x" * 40 + b"\n\n") * 5
        assert len(fanout) == 1 and gone.received == b""

    asyncio.run(check())


def test_an_http_1_0_spectator_gets_the_stream_unchunked():
    room = MemoryRound(1)
    room.boards[0].show(snapshot(["e2e4"]))

    async def check() -> None:
        async with serving(room) as client:
            port = client.server.port
            assert port is not None
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET /api/events HTTP/1.0\r\nHost: x\r\n\r\n")
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), WAIT)
            assert b"chunked" not in head.lower()
            body = await asyncio.wait_for(reader.readuntil(b"event: round\n"), WAIT)
            assert body.startswith(b"retry: 1000\n\n")
            writer.close()

    asyncio.run(check())


def test_the_service_refuses_a_stream_past_its_seats():
    room = MemoryRound(1, make_round(1))

    async def check() -> None:
        hall = Hall(room.round, room.bus.client())
        hall.seats.limits = (1, 1, 0)
        async with TestClient(TestServer(make_round_app(hall))) as client:
            first = await client.get("/api/events")
            await next_event(first)
            second = await client.get("/api/events")
            assert second.status == 503
            first.close()

    asyncio.run(check())
