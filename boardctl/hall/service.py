"""The hall: one process that subscribes to the round's boards once and
serves every spectator (aiohttp, on :class:`~boardctl.web.server.ServerThread`).

=====================  ====================================================
``/``                  the round: every board at a glance, the results
                       table; ``#7`` shows board 7 large with its moves
``/api/round``         the round as JSON, as the page gets it first
``/api/events``        Server-Sent Events: ``round`` (the whole round) at
                       once, then ``boards`` (those that changed) in batches
                       every :data:`BATCH` seconds (:mod:`.fanout`)
``/round.pgn``         every game of the round as PGN (:mod:`.roundpgn`),
                       also written to a file every :data:`PGN_PERIOD` seconds
``/api/stats``         counts for an operator (spectators, messages, drops)
=====================  ====================================================

One task does the work, every :data:`BATCH` seconds: it takes what the
broker delivered (:class:`~boardctl.remote.transport.MqttTransport` holds it
for us, bounded), has :class:`~.watch.Watch` check it, and sends the changes
to all spectators at once.  No spectator's request reaches a board.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiohttp import HttpVersion11, web

from ..configfile import write_atomic
from ..errors import BoardctlError
from ..remote.transport import Transport
from ..web.feeds import Versions, http_date, not_modified
from ..web.guard import Seats, client_key, security_headers
from ..web.pages import round_page
from ..web.server import add_static
from .fanout import Fanout, chunk, event
from .round import Round
from .roundpgn import RoundPgn
from .shown import Shown
from .watch import Presence, Watch

log = logging.getLogger("boardctl.hall")

BATCH = 0.25  # seconds between two batches of changes to the spectators
PGN_PERIOD = 1.0  # seconds between two writes of the round's PGN file, at most
KEEPALIVE = 15.0  # seconds between comments on a quiet stream (proxies close idle ones)
RETRY_MS = 1000  # how soon a browser reconnects a dropped stream
MAX_SPECTATORS = 20_000
# A club's Wi-Fi puts every phone in the room behind one address.
SPECTATORS_PER_ADDRESS = 2_000
STREAM_BUFFER = 32 * 1024  # bytes of a stream's socket buffer: a stalled phone shows soon
PGN_FILE_MODE = 0o644  # a public file, to upload


class Hall:
    """The hall's state in its event loop: the round's :class:`~.watch.Watch`,
    what the spectators hold (:class:`~.shown.Shown`), their streams
    (:class:`~.fanout.Fanout`) and the round's PGN."""

    def __init__(
        self,
        rnd: Round,
        transport: Transport,
        pgn_path: Path | None = None,
        clock: Callable[[], float] = time.monotonic,
        pgn_period: float = PGN_PERIOD,
    ) -> None:
        """``pgn_period``: seconds between two writes of ``pgn_path``, at most."""
        self.round = rnd
        self.transport = transport
        self.pgn_path = pgn_path
        self.clock = clock
        self.pgn_period = pgn_period
        self.watch = Watch(rnd)
        self.shown = Shown(self.watch)
        self.fanout = Fanout()
        self.seats = Seats(MAX_SPECTATORS, SPECTATORS_PER_ADDRESS, MAX_SPECTATORS // 10)
        self.versions = Versions()
        self.pgn = RoundPgn(rnd)
        self.pgn_text = self.pgn.text(self.watch.tables)
        self.messages = 0
        self.batches = 0
        self._pgn_stale = True
        self._pgn_due = 0.0
        self._pgn_writing: asyncio.Future[None] | None = None
        self._keepalive_due = 0.0

    def start(self) -> None:
        for where in self.watch.topics():
            self.transport.subscribe(where)

    def pump(self, now: float) -> None:
        """One turn (see the module docstring)."""
        for where, payload in self.transport.take():
            self.messages += 1
            self.watch.feed(where, payload, now)
        self.watch.tick(now)
        if self.watch.changed:
            self._pgn_stale = True
        data = self.shown.batch(now)
        if data is not None:
            self.fanout.send(event("boards", data, self.batches))
            self.batches += 1
            self._keepalive_due = now + KEEPALIVE
        elif now >= self._keepalive_due:
            self.fanout.send(b": keep-alive\n\n")
            self._keepalive_due = now + KEEPALIVE
        if self._pgn_stale and now >= self._pgn_due:
            self.pgn_text = self.pgn.text(self.watch.tables)
            self._pgn_stale = False
            self._pgn_due = now + self.pgn_period
            self._write_pgn()

    def _write_pgn(self) -> None:
        path, writing = self.pgn_path, self._pgn_writing
        if path is None or (writing is not None and not writing.done()):
            self._pgn_stale = True  # the next turn writes the newer text
            return
        text = self.pgn_text
        loop = asyncio.get_running_loop()
        self._pgn_writing = loop.run_in_executor(None, _write_pgn_file, path, text)

    def stats(self) -> dict[str, Any]:
        tables = self.watch.tables
        return {
            "spectators": len(self.fanout),
            "batches": self.batches,
            "messages": self.messages,
            "dropped_streams": self.fanout.dropped,
            "dropped_messages": sum(t.dropped for t in tables),
            "live": sum(t.presence is Presence.LIVE for t in tables),
            "offline": sum(t.presence is Presence.OFFLINE for t in tables),
            "refused": sum(bool(t.refused) for t in tables),
        }


def _write_pgn_file(path: Path, text: str) -> None:
    try:
        write_atomic(path, text, "write the round's PGN", PGN_FILE_MODE)
    except BoardctlError as exc:
        log.warning("hall: %s", exc)


HALL = web.AppKey("hall", Hall)
TASK: web.AppKey[asyncio.Task[None]] = web.AppKey("task")


async def index(request: web.Request) -> web.StreamResponse:
    hall = request.app[HALL]
    rnd = hall.round
    seats = [(s.number, s.white or "White", s.black or "Black") for s in rnd.seats]
    state = hall.shown.whole(hall.clock()).decode()
    page = round_page(rnd.title, rnd.number, seats, state)
    return web.Response(text=page, content_type="text/html")


async def round_state(request: web.Request) -> web.StreamResponse:
    hall = request.app[HALL]
    return web.Response(body=hall.shown.whole(hall.clock()), content_type="application/json")


async def stats(request: web.Request) -> web.StreamResponse:
    return web.json_response(request.app[HALL].stats())


async def round_pgn(request: web.Request) -> web.StreamResponse:
    hall = request.app[HALL]
    body = hall.pgn_text.encode()
    version = hall.versions.of("pgn", body, time.time())
    headers = {
        "ETag": version.etag,
        "Last-Modified": http_date(version.modified),
        "Cache-Control": "no-cache",
        "Access-Control-Allow-Origin": "*",  # broadcast tools poll it from anywhere
    }
    if not_modified(
        version, request.headers.get("If-None-Match"), request.headers.get("If-Modified-Since")
    ):
        return web.Response(status=304, headers=headers)
    return web.Response(body=body, content_type="application/x-chess-pgn", headers=headers)


async def events(request: web.Request) -> web.StreamResponse:
    """A spectator's stream: joined to the fan-out once it has the whole round."""
    hall = request.app[HALL]
    key = client_key(request.remote)
    refused = hall.seats.take(key)
    if refused is not None:
        return web.json_response({"error": refused}, status=503)
    stream = request.transport
    try:
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-cache",
                "X-Accel-Buffering": "no",
            }
        )
        chunked = request.version >= HttpVersion11
        if chunked:
            response.enable_chunked_encoding()
        await response.prepare(request)
        # The headers go out with this first write; what follows is written
        # to the socket by the fan-out, as the same response's next pieces.
        await response.write(b"retry: %d\n\n" % RETRY_MS)
        if stream is None or stream.is_closing():
            return response
        _small_buffers(stream)
        # The whole round and the joining with no wait between: the next batch
        # goes on from exactly what this spectator has.
        whole = event("round", hall.shown.whole(hall.clock()))
        stream.write(chunk(whole) if chunked else whole)
        await hall.fanout.join(stream, chunked)
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        if stream is not None:
            hall.fanout.leave(stream)
        hall.seats.give_back(key)
    return response


def _small_buffers(stream: asyncio.BaseTransport) -> None:
    sock = stream.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, STREAM_BUFFER)


def make_round_app(hall: Hall) -> web.Application:
    """The hall's application; its task runs while the application does."""
    app = web.Application()
    app.on_response_prepare.append(security_headers())
    app[HALL] = hall
    app.router.add_get("/", index)
    app.router.add_get("/api/round", round_state)
    app.router.add_get("/api/events", events)
    app.router.add_get("/api/stats", stats)
    app.router.add_get("/round.pgn", round_pgn)
    add_static(app)

    async def run(app: web.Application) -> None:
        hall.start()
        while True:
            try:
                hall.pump(hall.clock())
            except Exception as exc:  # a fault of ours: logged, and the hall goes on
                hall.watch.quiet.warn("pump", "hall: %s", exc, exc_info=exc)
            await asyncio.sleep(BATCH)

    async def started(app: web.Application) -> None:
        app[TASK] = asyncio.get_running_loop().create_task(run(app))

    async def stopping(app: web.Application) -> None:
        app[TASK].cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await app[TASK]
        hall.fanout.close()

    app.on_startup.append(started)
    app.on_shutdown.append(stopping)
    return app
