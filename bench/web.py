"""The spectator page under load: 100 spectators on loopback.

The daemon runs its loop at ``LOOP_HZ`` on a simulated board in real time
while a pawn is moved (e2-e4) and taken back every ``--every`` seconds: each
is a committed move or takeback, so each is a new snapshot at once.  Three phases of
``--seconds`` each: no web server; the server with nobody watching; the
server with ``--spectators`` Server-Sent Events streams, opened by a separate
process (as phones would be separate machines) that notes when each update
arrives.  Prints the daemon's step time per phase, their ratio, and the
update latency from publishing to arrival (median, p99).

Prints figures only; nothing here is a test.  Run: ``.venv/bin/python bench/web.py``
(bounded: about 3 × ``--seconds`` plus start-up; default 10 s a phase).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from boardctl.board.explain import occupancy
from boardctl.config import parse_config
from boardctl.daemon import LOOP_HZ, Daemon
from boardctl.hw.sim import SimBoard
from boardctl.rules import Game
from boardctl.store import GameStore
from boardctl.web.server import WebServer
from boardctl.web.snapshot import Hub


def spectators(url: str, count: int, seconds: float, out: Any, ready: Any) -> None:
    """In a process of its own: ``count`` streams for ``seconds``; sends back
    (seq, arrival time) of every update each stream saw."""
    import aiohttp

    async def watch(session: aiohttp.ClientSession, seen: list[tuple[int, float]],
                    opened: asyncio.Event, counter: list[int]) -> None:
        async with session.get(url + "api/events") as response:
            counter[0] += 1
            if counter[0] == count:
                opened.set()
            async for line in response.content:
                if line.startswith(b"id: "):
                    seen.append((int(line[4:]), time.time()))

    async def main() -> list[list[tuple[int, float]]]:
        connector = aiohttp.TCPConnector(limit=0)
        timeout = aiohttp.ClientTimeout(total=None, sock_read=None)
        async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
            seen: list[list[tuple[int, float]]] = [[] for _ in range(count)]
            opened, counter = asyncio.Event(), [0]
            tasks = [asyncio.create_task(watch(session, s, opened, counter)) for s in seen]
            await asyncio.wait_for(opened.wait(), 30)
            ready.set()
            await asyncio.sleep(seconds)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            return seen

    out.put(asyncio.run(main()))


def run_phase(daemon: Daemon, board: SimBoard, squares: tuple[int, int], seconds: float,
              every: float, hub: Hub | None, published: dict[int, float]) -> list[float]:
    """The daemon's loop as :meth:`Daemon.run` runs it, moving a piece between
    ``squares`` and back; returns the step times."""
    period = 1.0 / LOOP_HZ
    steps: list[float] = []
    start = time.monotonic()
    next_touch = start + every
    there = False
    while (now := time.monotonic()) < start + seconds:
        if now >= next_touch:
            src, dst = squares[::-1] if there else squares
            board.lift(src)
            board.place(dst)
            there = not there
            next_touch += every
        seq = hub.latest.seq if hub else 0
        began = time.perf_counter()
        daemon.step(now)
        steps.append(time.perf_counter() - began)
        if hub is not None and hub.latest.seq != seq:
            published[hub.latest.seq] = hub.changed_at
        spent = time.monotonic() - now
        if spent < period:
            time.sleep(period - spent)
    if there:
        board.lift(squares[1])
        board.place(squares[0])
        run_until = time.monotonic() + 1.0
        while (now := time.monotonic()) < run_until:
            daemon.step(now)
            time.sleep(period)
    return steps


def describe(name: str, steps: list[float]) -> float:
    ordered = sorted(steps)
    median = statistics.median(ordered)
    p99 = ordered[int(len(ordered) * 0.99) - 1]
    print(f"  {name:<28} {len(steps):6d} steps  median {median * 1e3:6.3f} ms  "
          f"p99 {p99 * 1e3:6.3f} ms  mean {statistics.fmean(ordered) * 1e3:6.3f} ms")
    return statistics.fmean(ordered)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--spectators", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--every", type=float, default=0.6, help="seconds between moves")
    args = parser.parse_args()
    config = parse_config({"game": {"mode": "two-players", "clock": "15+10"}})
    with tempfile.TemporaryDirectory() as tmp:
        store = GameStore(Path(tmp) / "games.sqlite")
        start = Game().position
        board = SimBoard(start.geometry.squares(occupancy(start)))
        square = (start.geometry.parse_square("e2"), start.geometry.parse_square("e4"))
        hub = Hub()
        plain = Daemon(config, board, store)
        published: dict[int, float] = {}
        print(f"Daemon step at {LOOP_HZ} Hz, a move every {args.every} s, "
              f"{args.seconds:g} s a phase:")
        base = describe("no web server", run_phase(plain, board, square, args.seconds, args.every,
                                                   None, published))
        watched = Daemon(config, board, store, web=hub)
        server = WebServer(hub, host="127.0.0.1", port=0, db_path=store.path)
        server.start()
        try:
            idle = describe("server, nobody watching",
                            run_phase(watched, board, square, args.seconds, args.every, hub,
                                      published))
            context = multiprocessing.get_context("spawn")
            out, ready = context.Queue(), context.Event()
            clients = context.Process(target=spectators, args=(
                server.url, args.spectators, args.seconds + 2, out, ready))
            clients.start()
            if not ready.wait(60):
                raise SystemExit("the spectators did not connect")
            published.clear()
            busy = describe(f"{args.spectators} spectators",
                            run_phase(watched, board, square, args.seconds, args.every, hub,
                                      published))
            seen = out.get(timeout=60)
            clients.join(30)
        finally:
            server.stop()
            store.close()
    print(f"  ratio, server idle / none:   {idle / base:5.2f}")
    print(f"  ratio, spectators / none:    {busy / base:5.2f}")
    delays = sorted(arrived - published[seq] for stream in seen for seq, arrived in stream
                    if seq in published)
    if not delays:
        raise SystemExit("no update arrived")
    complete = sum(1 for stream in seen if {s for s, _ in stream} >= set(published))
    print(f"Update latency, publish to arrival, {len(delays)} updates over "
          f"{len(seen)} streams ({complete} saw every update):")
    print(f"  median {statistics.median(delays) * 1e3:6.1f} ms   "
          f"p99 {delays[int(len(delays) * 0.99) - 1] * 1e3:6.1f} ms   "
          f"max {delays[-1] * 1e3:6.1f} ms")


if __name__ == "__main__":
    main()
