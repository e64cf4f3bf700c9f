"""An HTTP proxy that does to requests what home and club networks do.

It stands between a side and the board it talks to (a joining board and its
host, a browser and the board), forwards each request, and now and then:

* ``drop``: loses the request (the sender gets no answer: 502);
* ``lose_answer``: forwards it, then loses the answer (done, but not known to be);
* ``delay``: holds it up to ``max_delay`` seconds first;
* ``copy``: forwards it twice;
* ``late``: keeps a copy and sends it again later, after newer requests
  (so the other side gets it out of order);
* ``outage``: for ``outage_seconds`` loses everything (a connection down);
  :meth:`FaultProxy.cut` cuts it off at a moment of the caller's choosing, for
  as long as it likes (a minute, in the bench).

Every fault is bounded: at most ``budget`` of each kind (``outages`` of
outages), and none after ``until`` seconds, so a game always gets through in
the end.  What it did
is counted in :attr:`FaultProxy.faults`.  It runs on a thread of its own
(the web server's :class:`~boardctl.web.server.ServerThread`), with a seeded
random generator, so a run can be repeated.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections import Counter
from dataclasses import dataclass

import aiohttp
from aiohttp import web

from boardctl.web.server import ServerThread

HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "host", "upgrade"}
KINDS = ("drop", "lose_answer", "delay", "copy", "late", "outage", "cut")


@dataclass
class Faults:
    """How often each fault strikes (a chance per request) and how many of each."""

    drop: float = 0.08
    lose_answer: float = 0.08
    delay: float = 0.15
    copy: float = 0.08
    late: float = 0.08
    outage: float = 0.01
    max_delay: float = 1.5  # seconds
    outage_seconds: float = 3.0
    outages: int = 3  # outages at random (each outage_seconds long)
    late_after: int = 3  # requests that overtake a late copy
    budget: int = 40  # of each kind
    until: float = 600.0  # seconds after the start: then none


class FaultProxy(ServerThread):
    """See the module docstring.  ``target``: the base URL requests go to."""

    def __init__(self, target: str, faults: Faults, seed: int, port: int = 0) -> None:
        super().__init__(self._app, host="127.0.0.1", port=port)
        self.target = target.rstrip("/")
        self.plan = faults
        self.random = random.Random(seed)
        self.faults: Counter[str] = Counter()
        self.forwarded = 0
        self.started = time.monotonic()
        self._down_until = 0.0
        self._late: list[tuple[int, str, str, bytes, dict[str, str]]] = []
        self._session: aiohttp.ClientSession | None = None
        self.on = True  # False: a clean network, for the end of a run

    def _app(self) -> web.Application:
        app = web.Application(client_max_size=1 << 20)
        app.router.add_route("*", "/{tail:.*}", self._handle)
        app.cleanup_ctx.append(self._client)
        return app

    async def _client(self, app: web.Application):  # type: ignore[no-untyped-def]
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10))
        yield
        await self._session.close()

    def _strikes(self, kind: str) -> bool:
        plan = self.plan
        if not self.on or time.monotonic() - self.started > plan.until:
            return False
        if self.faults[kind] >= (plan.outages if kind == "outage" else plan.budget):
            return False
        if self.random.random() >= getattr(plan, kind):
            return False
        self.faults[kind] += 1
        return True

    def cut(self, seconds: float) -> None:
        """The network goes down now for ``seconds`` (counted as a cut)."""
        self.faults["cut"] += 1
        self._down_until = time.monotonic() + seconds

    async def _forward(
        self, method: str, url: str, body: bytes, headers: dict[str, str]
    ) -> tuple[int, bytes, list[tuple[str, str]]]:
        assert self._session is not None
        async with self._session.request(
            method, url, data=body or None, headers=headers, allow_redirects=False
        ) as response:
            data = await response.read()
            kept = [(k, v) for k, v in response.headers.items() if k.lower() not in HOP]
            return response.status, data, kept

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        body = await request.read()
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP}
        url = self.target + request.rel_url.path_qs
        now = time.monotonic()
        await self._send_late()
        if now < self._down_until or self._strikes("outage"):
            if now >= self._down_until:
                self._down_until = now + self.plan.outage_seconds
            return web.Response(status=502, text="network down")
        if self._strikes("drop"):
            return web.Response(status=502, text="lost on the way")
        if self._strikes("delay"):
            await asyncio.sleep(self.random.uniform(0, self.plan.max_delay))
        if self._strikes("late"):
            self._late.append((self.plan.late_after, request.method, url, body, headers))
        try:
            status, data, kept = await self._forward(request.method, url, body, headers)
            if self._strikes("copy"):
                status, data, kept = await self._forward(request.method, url, body, headers)
        except (aiohttp.ClientError, TimeoutError):
            return web.Response(status=502, text="the board does not answer")
        self.forwarded += 1
        if self._strikes("lose_answer"):
            return web.Response(status=502, text="the answer was lost")
        response = web.Response(status=status, body=data)
        for key, value in kept:
            response.headers.add(key, value)
        return response

    async def _send_late(self) -> None:
        """Copies kept back go out once enough newer requests overtook them."""
        due, waiting = [], []
        for left, *rest in self._late:
            (due if left <= 1 else waiting).append((left - 1, *rest))
        self._late = waiting  # type: ignore[assignment]
        for _, method, url, body, headers in due:
            with contextlib.suppress(aiohttp.ClientError, TimeoutError):
                await self._forward(method, url, body, headers)
