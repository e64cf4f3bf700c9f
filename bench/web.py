"""The spectator page under load: spectators on loopback, and guests attacking it.

The daemon runs its loop at ``LOOP_HZ`` on a simulated board in real time
while a pawn is moved (e2-e4) and taken back every ``--every`` seconds: each
is a committed move or takeback, so each is a new snapshot at once.  Three phases of
``--seconds`` each: no web server; the server with nobody watching; the
server with ``--spectators`` Server-Sent Events streams, opened by a separate
process (as phones would be separate machines) that notes when each update
arrives.  Each spectator connects from an address of its own in
127.0.0.0/8 (a phone each; the page allows 6 streams per address).  With
``--attack``, during the last phase a squatter opens 200 streams from one
address and never reads them (and opens them again as they are dropped),
and a guesser posts wrong PINs from 12 addresses as fast as it is answered.
Prints the daemon's step time per phase, their ratio, the update latency
from publishing to arrival (median, p99), the process's memory every
minute of the last phase, and what the attackers got.

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
from array import array
from pathlib import Path
from typing import Any

from boardctl.board.explain import occupancy
from boardctl.config import parse_config
from boardctl.daemon.loop import LOOP_HZ, Daemon
from boardctl.daemon.parts import Hardware, Services
from boardctl.hw.sim import SimBoard
from boardctl.rules import Game
from boardctl.storage.store import GameStore
from boardctl.web.server import WebServer
from boardctl.web.snapshot import Hub


def address(group: int, n: int) -> str:
    """The ``n``-th loopback address of ``group`` (127.G.x.y)."""
    return f"127.{group}.{n // 250}.{n % 250 + 1}"


def spectators(url: str, count: int, seconds: float, out: Any, ready: Any) -> None:
    """In a process of its own: ``count`` streams for ``seconds``, each from
    its own address; sends back (seq, arrival time) of every update each
    stream saw."""
    import aiohttp

    async def watch(
        session: aiohttp.ClientSession,
        seen: list[tuple[int, float]],
        opened: asyncio.Event,
        counter: list[int],
    ) -> None:
        async with session.get(url + "api/events") as response:
            counter[0] += 1
            if counter[0] == count:
                opened.set()
            async for line in response.content:
                if line.startswith(b"id: "):
                    seen.append((int(line[4:]), time.time()))

    async def main() -> list[list[tuple[int, float]]]:
        timeout = aiohttp.ClientTimeout(total=None, sock_read=None)
        sessions = [
            aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=0, local_addr=(address(1, n), 0)),
                timeout=timeout,
            )
            for n in range(count)
        ]
        seen: list[list[tuple[int, float]]] = [[] for _ in range(count)]
        opened, counter = asyncio.Event(), [0]
        tasks = [
            asyncio.create_task(watch(session, s, opened, counter))
            for session, s in zip(sessions, seen, strict=True)
        ]
        await asyncio.wait_for(opened.wait(), 60)
        ready.set()
        await asyncio.sleep(seconds)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for session in sessions:
            await session.close()
        return seen

    out.put(asyncio.run(main()))


def attackers(url: str, seconds: float, out: Any, ready: Any) -> None:
    """In a process of its own, for ``seconds``: a squatter holding as many
    unread streams as it can get (up to 200) from one address, and a guesser
    posting wrong PINs from 12 addresses.  Sends back what each got."""
    host, port = url.split("//")[1].rstrip("/").rsplit(":", 1)
    counts = {
        "streams granted": 0,
        "streams refused": 0,
        "PINs checked (403)": 0,
        "PINs refused (429)": 0,
    }

    async def squat(stop: float) -> None:
        held: list[asyncio.StreamWriter] = []
        while time.monotonic() < stop:
            held = [w for w in held if not w.is_closing()]
            if len(held) < 200:
                reader, writer = await asyncio.open_connection(
                    host, int(port), local_addr=(address(2, 0), 0)
                )
                writer.write(f"GET /api/events HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
                status = (await reader.readline()).split()[1]
                if status == b"200":
                    counts["streams granted"] += 1
                    held.append(writer)  # and never read again
                else:
                    counts["streams refused"] += 1
                    writer.close()
                    await asyncio.sleep(0.05)
            else:
                await asyncio.sleep(0.1)
        for writer in held:
            writer.close()

    async def guess(stop: float) -> None:
        body = b'{"pin": "000000"}'
        n = 0
        while time.monotonic() < stop:
            reader, writer = await asyncio.open_connection(
                host, int(port), local_addr=(address(3, n % 12), 0)
            )
            writer.write(
                f"POST /api/login HTTP/1.1\r\nHost: {host}\r\n"
                "Content-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n\r\n".encode()
                + body
            )
            status = (await reader.readline()).split()[1]
            counts["PINs checked (403)" if status == b"403" else "PINs refused (429)"] += 1
            writer.close()
            n += 1
            await asyncio.sleep(0.01)

    async def main() -> None:
        stop = time.monotonic() + seconds
        ready.set()
        await asyncio.gather(squat(stop), guess(stop))

    asyncio.run(main())
    out.put(counts)


def run_phase(
    daemon: Daemon,
    board: SimBoard,
    squares: tuple[int, int],
    seconds: float,
    every: float,
    hub: Hub | None,
    published: dict[int, float],
    *,
    settle: bool = True,
) -> list[float]:
    """The daemon's loop as :meth:`Daemon.run` runs it, moving a piece between
    ``squares`` and back; returns the step times.  With ``settle`` the piece
    ends where it began (a second more of steps, not timed)."""
    period = 1.0 / LOOP_HZ
    steps: list[float] = []
    start = time.monotonic()
    next_touch = start + every
    there = squares[1] in board.occupied  # where the last phase left the piece
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
    if there and settle:
        board.lift(squares[1])
        board.place(squares[0])
        run_until = time.monotonic() + 1.0
        while (now := time.monotonic()) < run_until:
            daemon.step(now)
            time.sleep(period)
    return steps


def rss() -> int:
    """This process's resident memory in bytes (the daemon and its web thread)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def describe(name: str, steps: list[float] | array[float]) -> float:
    ordered = sorted(steps)
    median = statistics.median(ordered)
    p99 = ordered[int(len(ordered) * 0.99) - 1]
    print(
        f"  {name:<28} {len(steps):6d} steps  median {median * 1e3:6.3f} ms  "
        f"p99 {p99 * 1e3:6.3f} ms  mean {statistics.fmean(ordered) * 1e3:6.3f} ms"
    )
    return statistics.fmean(ordered)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--spectators", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--every", type=float, default=0.6, help="seconds between moves")
    parser.add_argument(
        "--watched",
        type=float,
        default=None,
        help="seconds of the spectators' phase (default: --seconds)",
    )
    parser.add_argument(
        "--attack",
        action="store_true",
        help="a squatter and a PIN guesser during the spectators' phase",
    )
    args = parser.parse_args()
    watched_for = args.seconds if args.watched is None else args.watched
    config = parse_config({"game": {"mode": "two-players", "clock": "15+10"}})
    with tempfile.TemporaryDirectory() as tmp:
        store = GameStore(Path(tmp) / "games.sqlite")
        start = Game().position
        board = SimBoard(start.geometry.squares(occupancy(start)))
        square = (start.geometry.parse_square("e2"), start.geometry.parse_square("e4"))
        hub = Hub()
        plain = Daemon(config, Hardware(board), store)
        published: dict[int, float] = {}
        print(
            f"Daemon step at {LOOP_HZ} Hz, a move every {args.every} s, {args.seconds:g} s a phase:"
        )
        base = describe(
            "no web server",
            run_phase(plain, board, square, args.seconds, args.every, None, published),
        )
        watched = Daemon(config, Hardware(board), store, Services(web=hub))
        server = WebServer(hub, host="127.0.0.1", port=0, db_path=store.path, pin="864209")
        server.start()
        try:
            idle = describe(
                "server, nobody watching",
                run_phase(watched, board, square, args.seconds, args.every, hub, published),
            )
            context = multiprocessing.get_context("spawn")
            attack_out = context.Queue()
            attack = None
            if args.attack:  # first, so that the squatter holds what it can get
                attack_ready = context.Event()
                attack = context.Process(
                    target=attackers, args=(server.url, watched_for + 15, attack_out, attack_ready)
                )
                attack.start()
                attack_ready.wait(60)
                time.sleep(2.0)
            out, ready = context.Queue(), context.Event()
            clients = context.Process(
                target=spectators, args=(server.url, args.spectators, watched_for + 2, out, ready)
            )
            clients.start()
            if not ready.wait(60):
                raise SystemExit("the spectators did not connect")
            published.clear()
            memory: list[tuple[float, int]] = [(0.0, rss())]
            steps = array("d")  # 8 bytes a step: the bench itself must not grow much
            began = time.monotonic()
            while (left := watched_for - (time.monotonic() - began)) > 0:
                steps.extend(
                    run_phase(
                        watched,
                        board,
                        square,
                        min(60.0, left),
                        args.every,
                        hub,
                        published,
                        settle=left <= 60.0,
                    )
                )
                memory.append((time.monotonic() - began, rss()))
            label = f"{args.spectators} spectators" + (", attacked" if args.attack else "")
            busy = describe(label, steps)
            seen = out.get(timeout=120)
            clients.join(30)
            attacked = attack_out.get(timeout=60) if attack else None
            if attack:
                attack.join(30)
        finally:
            server.stop()
            store.close()
    print(f"  ratio, server idle / none:   {idle / base:5.2f}")
    print(f"  ratio, spectators / none:    {busy / base:5.2f}")
    print(
        "Memory (RSS) during the last phase: "
        + ", ".join(f"{at:.0f} s {size / 2**20:.1f} MiB" for at, size in memory)
    )
    if attacked is not None:
        print("Attackers got: " + ", ".join(f"{k} {v}" for k, v in attacked.items()))
    delays = sorted(
        arrived - published[seq] for stream in seen for seq, arrived in stream if seq in published
    )
    if not delays:
        raise SystemExit("no update arrived")
    complete = sum(1 for stream in seen if {s for s, _ in stream} >= set(published))
    print(
        f"Update latency, publish to arrival, {len(delays)} updates over "
        f"{len(seen)} streams ({complete} saw every update):"
    )
    print(
        f"  median {statistics.median(delays) * 1e3:6.1f} ms   "
        f"p99 {delays[int(len(delays) * 0.99) - 1] * 1e3:6.1f} ms   "
        f"max {delays[-1] * 1e3:6.1f} ms"
    )


if __name__ == "__main__":
    main()
