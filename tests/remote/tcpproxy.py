"""A TCP proxy that does to a board's connection to its broker what home and
club networks do.

It stands between one board and the MQTT broker, forwards bytes both ways,
and now and then:

* ``delay``: holds a chunk up to ``max_delay`` seconds before passing it on
  (everything behind it waits too, as on a congested link);
* ``drip``: passes a chunk on a few bytes at a time;
* ``reset``: drops the connection at once, both ends (a Wi-Fi drop);
* ``stall``: stops passing anything for ``stall_seconds`` without closing (a
  link that freezes a while, then goes on; :meth:`TcpProxy.freeze` freezes it
  until :meth:`TcpProxy.thaw`, a link that died without telling anyone, which
  the keepalive must notice);
* ``cut``: for ``cut_seconds`` closes every connection and refuses new ones;
  :meth:`TcpProxy.cut` cuts it at a moment of the caller's choosing.

Every fault is bounded (``budget`` of each kind) and counted in
:attr:`TcpProxy.faults`; a seeded random generator makes a run repeatable.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
import time
from collections import Counter
from dataclasses import dataclass

KINDS = ("delay", "drip", "reset", "stall", "cut")


@dataclass
class TcpFaults:
    """How often each fault strikes (a chance per chunk) and how many of each."""

    delay: float = 0.05
    drip: float = 0.03
    reset: float = 0.01
    stall: float = 0.005
    max_delay: float = 1.0
    stall_seconds: float = 5.0
    cut_seconds: float = 3.0
    budget: int = 30


class TcpProxy:
    """Listens on 127.0.0.1 (a free port) and forwards to ``port`` there."""

    def __init__(self, port: int, faults: TcpFaults, seed: int) -> None:
        self.upstream = port
        self.faults_set = faults
        self.rng = random.Random(seed)
        self.faults: Counter[str] = Counter()
        self.port = 0
        self._cut_until = 0.0
        self._frozen = threading.Event()  # set: nothing passes, nothing is closed
        self._writers: set[asyncio.StreamWriter] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tcp-proxy", daemon=True)
        self._stop: asyncio.Event | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> None:
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("the TCP proxy did not start")

    def stop(self) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(10)

    def cut(self, seconds: float) -> None:
        """Cut the connection off for ``seconds`` from now."""
        self.faults["cut"] += 1
        self._cut_until = time.monotonic() + seconds
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._close_all)

    def freeze(self) -> None:
        """From now on pass nothing either way and close nothing."""
        self.faults["freeze"] += 1
        self._frozen.set()

    def thaw(self) -> None:
        self._frozen.clear()

    def _run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        async with server:
            await self._stop.wait()
        self._close_all()

    def _close_all(self) -> None:
        for writer in list(self._writers):
            with contextlib.suppress(Exception):
                writer.transport.abort()
        self._writers.clear()

    def _chance(self, kind: str) -> bool:
        if self.faults[kind] >= self.faults_set.budget:
            return False
        if self.rng.random() < getattr(self.faults_set, kind):
            self.faults[kind] += 1
            return True
        return False

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if time.monotonic() < self._cut_until:
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream)
        except OSError:
            writer.transport.abort()
            return
        self._writers |= {writer, up_writer}
        try:
            await asyncio.gather(self._pump(reader, up_writer), self._pump(up_reader, writer))
        finally:
            for w in (writer, up_writer):
                self._writers.discard(w)
                with contextlib.suppress(Exception):
                    w.transport.abort()

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                chunk = await reader.read(4096)
                if not chunk or time.monotonic() < self._cut_until:
                    break
                while self._frozen.is_set():
                    await asyncio.sleep(0.05)
                if self._chance("reset"):
                    break
                if self._chance("stall"):
                    await asyncio.sleep(self.faults_set.stall_seconds)
                if self._chance("delay"):
                    await asyncio.sleep(self.rng.uniform(0, self.faults_set.max_delay))
                if self._chance("drip"):
                    for i in range(0, len(chunk), 3):
                        writer.write(chunk[i : i + 3])
                        await writer.drain()
                        await asyncio.sleep(0.002)
                else:
                    writer.write(chunk)
                    await writer.drain()
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            with contextlib.suppress(Exception):
                writer.transport.abort()
