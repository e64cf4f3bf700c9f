"""A tournament's round through a real mosquitto, at a scale no Pi could carry.

``--boards`` simulated boards (each a hub and its :class:`Broadcast`, its own
MQTT connection, all in one process) play random legal games, a move every
``--every`` seconds or so (uniform between half and 1.5 times it).  The hall
(:class:`~boardctl.hall.service.Hall`, in a process of its own) subscribes
once and serves the round; ``--spectators`` Server-Sent Events streams,
opened by ``--procs`` processes (as phones would be separate machines), each
from an address of its own in 127.0.0.0/8, read it.  One in ``--sample`` of
them parses every event and notes when each board's move arrives; the others
read every byte and keep up, as a phone must.

Two phases: ``--quiet`` seconds with nobody watching, then ``--seconds`` with
every spectator connected.  Prints a board's step time (the daemon's
``Hub.publish``, where the broadcast hangs) in each phase; the latency from a
board's publish to a sampled spectator's arrival (p50, p99, max); the moves a
sampled spectator never saw on their own (two at once), and those it never saw
at all (its last move of each board against the board's own); the streams the
hall dropped (a spectator that fell behind: it reconnects, as a browser does);
the messages the hall got against those the boards sent; and the CPU (seconds
of the window, percent of one core) and memory (RSS now, peak) of mosquitto
and of the hall.

Prints figures only; nothing here is a test.  Run: ``.venv/bin/python bench/hall.py``
(bounded: about ``--quiet`` + ``--seconds`` + start-up; needs mosquitto).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import heapq
import json
import multiprocessing
import os
import random
import re
import resource
import shutil
import socket
import statistics
import tempfile
import time
import urllib.request
from array import array
from pathlib import Path
from typing import Any

from boardctl.hall.broadcast import Broadcast, Place
from boardctl.hall.round import Round, Seat
from boardctl.hall.service import Hall, make_round_app
from boardctl.remote.keys import SigningKey, fingerprint
from boardctl.remote.lanbroker import LanBroker
from boardctl.remote.transport import BrokerSettings, MqttTransport
from boardctl.rules import Game, get_variant
from boardctl.web.server import ServerThread
from boardctl.web.snapshot import Hub, Snapshot

EVENT = "bench-open"
MAX_PLIES = 1000  # a board's moves the shared table holds (a game is stopped there)
SETTLE = 5.0  # seconds after the last move before the spectators' counts are read
OPENING = 420.0  # seconds the spectators may take to open their streams
ENTRY = re.compile(rb'"number": ?(\d+),.*?"ply": ?(\d+)')


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def address(n: int) -> str:
    """The ``n``-th spectator's loopback address (127.1.x.y)."""
    return f"127.1.{n // 250}.{n % 250 + 1}"


def usage(pid: int) -> tuple[float, int, int]:
    """CPU seconds so far, RSS and peak RSS in KiB, of process ``pid``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    status = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
    )
    return cpu, int(status["VmRSS"].split()[0]), int(status["VmHWM"].split()[0])


def snapshot(game: Game, moves: tuple[str, ...], started: float) -> Snapshot:
    """The page's snapshot of ``game`` as a daemon publishes it (clocks a
    second less per move)."""
    clocks = tuple(900.0 - 1 - i // 2 for i in range(len(moves)))
    return Snapshot(
        game_id=1,
        started_at=started,
        variant="falcon",
        start_fen=game.start_fen,
        fen=game.position.fen(),
        moves=moves,
        clocks_after=clocks,
        white_clock=900.0 - (len(moves) + 1) // 2,
        black_clock=900.0 - len(moves) // 2,
        clock_running=("white", "black")[len(moves) % 2],
        mode="game",
    )


def boards(
    url: str,
    secrets: list[str],
    every: float,
    start: float,
    window: Any,
    published: Any,
    plies: Any,
    out: Any,
    release: Any,
) -> None:
    """In a process of its own: the round's boards, moving from ``start``
    until the window's end (wall clock, ``window[1]``, set while they play);
    the time of each move's publish goes in ``published`` (board × ply), each
    board's moves in ``plies``.  Sends back each publish's (time, duration)
    and the messages the broadcasts sent, then closes them on ``release``."""
    settings = BrokerSettings(url)
    rng = random.Random(42)
    hubs, games, casts = [], [], []
    for n, secret in enumerate(secrets, start=1):
        hub = Hub()
        connect = lambda will: MqttTransport(settings, will=will)  # noqa: E731
        cast = Broadcast(hub, SigningKey(secret), Place(EVENT, f"table-{n}"), connect)
        hubs.append(hub)
        casts.append(cast)
        games.append((Game(get_variant("falcon")), []))
    due = [(start + rng.uniform(0, every), n) for n in range(len(secrets))]
    heapq.heapify(due)
    steps = array("d")  # time, duration, time, duration...
    while due:
        when, n = heapq.heappop(due)
        if when >= window[1]:
            continue
        time.sleep(max(0.0, when - time.time()))
        game, moves = games[n]
        legal = sorted(game.position.legal_moves(), key=game.position.uci)
        if not legal or len(moves) >= MAX_PLIES - 1:
            continue  # the game is over: this board stays as it is
        move = rng.choice(legal)
        moves.append(game.position.uci(move))
        game.push(move)
        snap = snapshot(game, tuple(moves), start)
        now = time.time()
        published[n * MAX_PLIES + len(moves)] = now
        plies[n] = len(moves)
        t0 = time.perf_counter()
        hubs[n].publish(snap)
        steps.extend((now, time.perf_counter() - t0))
        heapq.heappush(due, (when + rng.uniform(every / 2, every * 1.5), n))
    time.sleep(SETTLE)
    # (a bench reads the broadcasts' own counts)
    sent = sum(c._seq["state"] + c._seq["status"] for c in casts)
    out.put({"steps": steps.tobytes(), "sent": sent, "plies": list(plies)})
    release.wait(60)
    for cast in casts:
        cast.close()


def hall(url: str, rnd: Round, pgn: Path, out: Any, stop: Any) -> None:
    """In a process of its own: the hall, serving the round until ``stop``."""
    transport = MqttTransport(BrokerSettings(url), waiting=4096)
    service = Hall(rnd, transport, pgn)
    server = ServerThread(lambda: make_round_app(service), host="127.0.0.1", port=0)
    server.start()
    out.put(server.url)
    stop.wait()
    server.stop()
    transport.close()


def spectators(
    url: str,
    first: int,
    count: int,
    sample: int,
    window: tuple[float, float],
    published: Any,
    plies: Any,
    out: Any,
    ready: Any,
    done: Any,
) -> None:
    """In a process of its own: spectators ``first`` .. ``first + count``,
    until ``done``; sends back the sampled ones' latencies and what they
    missed, and how often the hall dropped a stream."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    host, port = url.split("//")[1].rstrip("/").rsplit(":", 1)
    request = f"GET /api/events HTTP/1.0\r\nHost: {host}\r\n\r\n".encode()
    latencies = array("d")
    figures = {"ended": 0, "failed": 0, "refused": 0, "pairs": 0, "missed": 0, "bytes": 0}
    opened_count = [0]
    boards_n = len(plies)

    async def watch(n: int, sampled: bool, opened: asyncio.Event) -> None:
        seen = [0] * boards_n
        if sampled:
            seens.append(seen)
        first_time = True
        while not done.is_set():
            try:
                reader, writer = await asyncio.open_connection(
                    host, int(port), local_addr=(address(n), 0), limit=1 << 22
                )
            except OSError:
                await asyncio.sleep(1)
                continue
            writer.write(request)
            try:
                status = await reader.readline()
                if b" 200 " not in status:
                    figures["refused"] += 1
                    writer.close()
                    await asyncio.sleep(1)
                    continue
                if first_time:
                    opened_count[0] += 1
                    if opened_count[0] == count:
                        opened.set()
                    first_time = False
                while True:
                    if not sampled:
                        block = await reader.read(1 << 16)
                        if not block:
                            break
                        figures["bytes"] += len(block)
                        continue
                    line = await reader.readline()
                    if not line:
                        break
                    figures["bytes"] += len(line)
                    if not line.startswith(b"data: "):
                        continue
                    arrived = time.time()
                    for match in ENTRY.finditer(line):
                        b, ply = int(match[1]) - 1, int(match[2])
                        if ply > seen[b]:
                            if ply > seen[b] + 1 and seen[b]:
                                figures["pairs"] += 1
                            for p in range(seen[b] + 1, ply + 1):
                                sent = published[b * MAX_PLIES + p]
                                if window[0] <= sent < window[1]:
                                    latencies.append(arrived - sent)
                            seen[b] = ply
            except OSError:
                figures["failed"] += 1
            else:
                figures["ended"] += not done.is_set()
            writer.close()

    async def main() -> None:
        opened = asyncio.Event()
        tasks = [
            asyncio.create_task(watch(n, (n - first) % sample == 0, opened))
            for n in range(first, first + count)
        ]
        # A loaded machine opens thousands slowly (each stream is first sent
        # the whole round); the window opens with those open by then, counted.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(opened.wait(), OPENING)
        figures["opened"] = opened_count[0]
        ready.set()
        while not done.is_set():
            await asyncio.sleep(0.2)
        await asyncio.sleep(0.5)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        figures["missed"] = sum(plies[b] - seen[b] for seen in seens for b in range(boards_n))

    seens: list[list[int]] = []
    asyncio.run(main())
    out.put({"latencies": latencies.tobytes(), **figures})


class Probe:
    """One subscriber beside the hall, straight on the broker: the latency of
    the broker's leg alone (a board's publish to its state's arrival)."""

    def __init__(self, url: str, published: Any, window: Any) -> None:
        import paho.mqtt.client as mqtt

        self.latencies = array("d")
        host, port = url.split("//")[1].rsplit(":", 1)
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="bench-probe")

        def arrived(client: Any, userdata: Any, message: Any) -> None:
            now = time.time()
            n = int(message.topic.split("/")[3].split("-")[1]) - 1
            ply = len(json.loads(message.payload)["body"]["moves"].split())
            sent = published[n * MAX_PLIES + ply]
            if window[0] <= sent < window[1]:
                self.latencies.append(now - sent)

        self.client.on_message = arrived
        self.client.on_connect = lambda c, *_: c.subscribe(f"boardctl/hall/{EVENT}/+/state", 1)
        self.client.connect(host, int(port))
        self.client.loop_start()

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def pct(values: list[float], p: float) -> float:
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


def step_figures(steps: array[float], since: float, until: float) -> str:
    took = sorted(steps[i + 1] * 1e6 for i in range(0, len(steps), 2) if since <= steps[i] < until)
    if not took:
        return "none"
    return (
        f"{len(took)} publishes, median {statistics.median(took):.0f} µs, "
        f"p99 {pct(took, 99):.0f} µs, max {took[-1]:.0f} µs"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=100)
    parser.add_argument("--spectators", type=int, default=1000)
    parser.add_argument("--procs", type=int, default=4, help="spectator processes")
    parser.add_argument("--sample", type=int, default=10, help="one spectator in N is timed")
    parser.add_argument("--every", type=float, default=1.5, help="seconds between a board's moves")
    parser.add_argument("--quiet", type=float, default=30.0, help="seconds with no spectator")
    parser.add_argument("--seconds", type=float, default=120.0, help="seconds with spectators")
    args = parser.parse_args()

    ctx = multiprocessing.get_context("fork")
    folder = Path(tempfile.mkdtemp(prefix="bench-hall-"))
    broker = LanBroker(free_port(), folder / "broker", bind="127.0.0.1")
    url = f"mqtt://127.0.0.1:{broker.port}"
    keys = [SigningKey() for _ in range(args.boards)]
    seats = tuple(
        Seat(n, f"table-{n}", fingerprint(k.public), f"White {n}", f"Black {n}")
        for n, k in enumerate(keys, start=1)
    )
    rnd = Round(EVENT, 1, seats, "Bench Open", "")
    published = ctx.Array("d", args.boards * MAX_PLIES, lock=False)
    plies = ctx.Array("i", args.boards, lock=False)

    stop_hall, hall_out = ctx.Event(), ctx.Queue()
    hall_proc = ctx.Process(target=hall, args=(url, rnd, folder / "round.pgn", hall_out, stop_hall))
    hall_proc.start()
    hall_url = hall_out.get(timeout=60)

    start = time.time() + 5.0  # the boards' connections made
    quiet_end = start + args.quiet
    # Spectators open at the quiet phase's end; the window opens once all have.
    board_out = ctx.Queue()
    window = ctx.Array("d", [quiet_end + 3600, quiet_end + 7200], lock=False)
    release = ctx.Event()
    boards_proc = ctx.Process(
        target=boards,
        args=(
            url,
            [k.secret for k in keys],
            args.every,
            start,
            window,
            published,
            plies,
            board_out,
            release,
        ),
    )
    boards_proc.start()
    time.sleep(max(0.0, quiet_end - time.time()))

    spect_out, done = ctx.Queue(), ctx.Event()
    readies, procs = [], []
    share = args.spectators // args.procs
    for i in range(args.procs):
        ready = ctx.Event()
        count = share if i < args.procs - 1 else args.spectators - share * (args.procs - 1)
        proc = ctx.Process(
            target=spectators,
            args=(
                hall_url,
                i * share,
                count,
                args.sample,
                window,
                published,
                plies,
                spect_out,
                ready,
                done,
            ),
        )
        proc.start()
        readies.append(ready)
        procs.append(proc)
    opening_end = time.monotonic() + OPENING + 30
    for ready in readies:
        ready.wait(max(0.0, opening_end - time.monotonic()))
    opened_at = time.time()
    window[0], window[1] = opened_at, opened_at + args.seconds
    probe = Probe(url, published, window)
    broker_pid = broker.process.pid
    before = {"broker": usage(broker_pid), "hall": usage(hall_proc.pid)}
    time.sleep(args.seconds)
    after = {"broker": usage(broker_pid), "hall": usage(hall_proc.pid)}
    played = board_out.get(timeout=120)  # the boards stopped and the last moves settled
    probe.close()
    with urllib.request.urlopen(hall_url + "api/stats", timeout=30) as response:
        stats = json.loads(response.read())
    done.set()
    results = [spect_out.get(timeout=120) for _ in procs]
    release.set()
    for proc in [*procs, boards_proc]:
        proc.join(60)
    stop_hall.set()
    hall_proc.join(60)
    broker.close()
    shutil.rmtree(folder, ignore_errors=True)

    steps = array("d")
    steps.frombytes(played["steps"])
    latencies = array("d")
    for r in results:
        latencies.frombytes(r["latencies"])
    moves = sum(played["plies"])
    sampled = sum(
        len(range(0, count, args.sample))
        for count in [share] * (args.procs - 1) + [args.spectators - share * (args.procs - 1)]
    )
    opened = sum(r["opened"] for r in results)
    print(
        f"{opened} of {args.spectators} spectators' streams open when the window opened, "
        f"{opened_at - quiet_end:.0f} s after the first was"
    )
    print(
        f"{args.boards} boards, a move every {args.every} s or so; {args.spectators} "
        f"spectators ({sampled} timed) in {args.procs} processes; "
        f"{args.quiet:.0f} s quiet, {args.seconds:.0f} s watched; {moves} moves in all"
    )
    print(f"board step (Hub.publish), nobody watching: {step_figures(steps, start, quiet_end)}")
    print(
        f"board step (Hub.publish), {args.spectators} watching: "
        f"{step_figures(steps, window[0], window[1])}"
    )
    for name, got in (("an MQTT subscriber", probe.latencies), ("a spectator", latencies)):
        lat = sorted(x * 1000 for x in got)
        if lat:
            print(
                f"publish to {name}: {len(lat)} arrivals, p50 {pct(lat, 50):.0f} ms, "
                f"p99 {pct(lat, 99):.0f} ms, max {lat[-1]:.0f} ms"
            )
    print(
        f"timed spectators: {sum(r['pairs'] for r in results)} times two moves came at once, "
        f"{sum(r['missed'] for r in results)} moves never seen at the end"
    )
    ended, failed, refused = (sum(r[k] for r in results) for k in ("ended", "failed", "refused"))
    print(
        f"streams dropped by the hall: {stats['dropped_streams']}; streams ended {ended}, "
        f"failed {failed}, refused at opening {refused}; "
        f"{sum(r['bytes'] for r in results) / 1e6:.0f} MB read by the spectators"
    )
    print(
        f"hall: {stats['messages']} messages taken of {played['sent']} the boards sent, "
        f"{stats['dropped_messages']} dropped by its limits, {stats['refused']} boards refused, "
        f"{stats['live']} live, {stats['spectators']} spectators at the end"
    )
    for name in ("broker", "hall"):
        cpu = after[name][0] - before[name][0]
        print(
            f"{name}: {cpu:.1f} CPU s in {args.seconds:.0f} s "
            f"({100 * cpu / args.seconds:.0f} % of a core), "
            f"RSS {after[name][1] / 1024:.0f} MiB, peak {after[name][2] / 1024:.0f} MiB"
        )


if __name__ == "__main__":
    main()
