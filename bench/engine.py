"""Engine speed: nodes per second, time to depth, time to find forced mates,
and how fast the worker process answers a stop.

Both search cores run in the same run: the compiled one (``csrc/``) and the
Python reference, to the same depth, and their speed ratio is printed; then
the compiled one alone to a deeper depth; the same again on the hexagon
(falcon-hex and Glinski's chess).

Last, the Pi budget: the compiled core to depth 8 in a child process held to
one core and to the share of it that stands for a Raspberry Pi 4 (this core's
speed over a Pi 4 core's, measured by ``bench/piratio.py``; the quota by
``bench/cpuquota.py``: a cgroup when one can be made, else a duty cycle of
SIGSTOP/SIGCONT).  It prints the wall-clock figures under the quota, the share
of the core the child really had (a busy machine can give less than the
quota), and the same figures from CPU time divided by the ratio, which do not
depend on the machine's load.

Prints figures only; nothing here is a test.  Run: ``.venv/bin/python bench/engine.py``
(``--depth N`` for the shared time-to-depth runs, default 6; ``--deep N``, default 10;
``--hex-depth N`` for both cores on the hexagon, default 4, ``--hex-deep N`` for the compiled
one alone there, default 8;
``--pi-only`` for the Pi budget alone, ``--pi-ratio R`` to skip measuring the ratio).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cpuquota
import piratio

from boardctl.engine import Engine, Limits, core
from boardctl.engine.interface import BestMove, Thinking
from boardctl.engine.worker import EngineWorker
from boardctl.rules import Position, get_variant

POSITIONS = [
    ("start", Position().fen()),
    ("open castling", "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1"),
    (
        "middle game",
        "rnbfqk1b1r/3Qp1p1pp/2p6n/1p2fp1p2/3P2PN2/2N4P2/PPP1PP2PP/R1BF1KFB1R w KQkq - 1 10",
    ),
    ("falcons everywhere", "2f2k1f2/3n2p3/10/4F5/5f4/3N2F3/4PP4/5K4 b - - 0 1"),
    ("endgame", "8k1/5pp3/10/3F6/10/6P3/5PKP2/10 w - - 0 1"),
]
# The hexagon: both openings and a middle game of falcon-hex.
HEX_POSITIONS = [
    ("falcon-hex start", "falcon-hex", None),
    ("glinski start", "glinski", None),
    # after 16 plies of self-play at depth 5
    (
        "falcon-hex middle",
        "falcon-hex",
        "pr2q/2p1f2k/1f1p1bb2/5nb2n/5p4r/6p1pppp/4P6/PPPP2Pp4/R10/N1FB6/1QBB1P3/5P2/KFNRP"
        " w - - 0 9",
    ),
]
MATES = Path(__file__).resolve().parent.parent / "tests" / "engine" / "mates.txt"


def time_to_depth(depth: int, compiled: bool, hexagon: bool = False) -> float:
    """Prints the runs and returns the mean nodes per second (on the square
    board's :data:`POSITIONS`, or with ``hexagon`` on :data:`HEX_POSITIONS`)."""
    label = "compiled core" if compiled else "Python core"
    board = ", hexagon" if hexagon else ""
    print(f"Time to depth {depth}, {label}{board} (fresh engine per position):")
    rates = []
    positions = (
        [(name, Position(fen, get_variant(variant))) for name, variant, fen in HEX_POSITIONS]
        if hexagon
        else [(name, Position(fen)) for name, fen in POSITIONS]
    )
    for name, pos in positions:
        engine = Engine(seed=0, compiled=compiled)
        reached: list[tuple[int, float, int]] = []
        engine.search(
            pos,
            Limits(depth=depth),
            on_info=lambda i, out=reached: out.append((i.depth, i.time, i.nodes)),
        )
        _, secs, nodes = reached[-1]
        rates.append(nodes / secs)
        steps = "  ".join(f"d{dd}:{tt:.2f}s" for dd, tt, _ in reached)
        print(f"  {name:20} {nodes:>9} nodes {secs:6.2f} s {nodes / secs:>8,.0f} nodes/s   {steps}")
    mean = statistics.mean(rates)
    print(f"  mean {mean:,.0f} nodes/s")
    return mean


def mates() -> None:
    print("Time to find forced mates (Limits(mate=N)):")
    for line in MATES.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        n, fen = (part.strip() for part in line.split("|"))
        pos = Position(fen)
        found: list[tuple[int | None, float, int]] = []
        start = time.perf_counter()
        move = Engine(seed=0).search(
            pos,
            Limits(mate=int(n)),
            on_info=lambda i, out=found: out.append((i.mate, i.time, i.nodes)),
        )
        total = time.perf_counter() - start
        mate, _, nodes = found[-1]
        ok = "found" if mate == int(n) else f"NOT FOUND (mate {mate})"
        print(
            f"  mate in {n}: {total * 1000:8.1f} ms {nodes:>8} nodes  {ok}  "
            f"{pos.uci(move) if move else '-'}  {fen}"
        )


def stop_latency(trials: int) -> None:
    print(f"Worker: time from stop() to the best move arriving ({trials} trials):")
    waits = []
    with EngineWorker(seed=0) as worker:
        for _ in range(trials):
            request = worker.go(POSITIONS[2][1], [], Limits(infinite=True))
            while not any(
                isinstance(m, Thinking) and m.request == request and m.info.depth >= 3
                for m in worker.poll(0.05)
            ):
                pass
            time.sleep(0.2)
            start = time.perf_counter()
            worker.stop()
            done = False
            while not done:
                done = any(
                    isinstance(m, BestMove) and m.request == request for m in worker.poll(0.001)
                )
            waits.append(time.perf_counter() - start)
    print(f"  median {statistics.median(waits) * 1000:.1f} ms, max {max(waits) * 1000:.1f} ms")


PI_DEPTH = 8


def pi_child(depth: int) -> None:
    """In the limited child: the compiled core to ``depth`` on every position,
    one line per position (name, nodes, wall seconds, CPU seconds)."""
    for name, fen in POSITIONS:
        engine = Engine(seed=0, compiled=True)
        wall, cpu = time.perf_counter(), time.process_time()
        reached: list[int] = []
        engine.search(
            Position(fen), Limits(depth=depth), on_info=lambda i, out=reached: out.append(i.nodes)
        )
        print(
            f"{name}|{reached[-1]}|{time.perf_counter() - wall}|{time.process_time() - cpu}",
            flush=True,
        )


def pi_budget(ratio: float | None, method: str) -> None:
    if not core.available():
        print("Pi budget: the compiled core is not built.")
        return
    if ratio is None:
        ratio = piratio.measure()
    quota = min(1.0, 1 / ratio)
    cores = sorted(os.sched_getaffinity(0))
    child_core = cores[-1]
    os.sched_setaffinity(0, set(cores[:-1]) or set(cores))  # the supervisor keeps out of its way
    # The same child without a quota first: the full-speed figure of this run.
    free = cpuquota.run_limited(
        [sys.executable, __file__, "--pi-child", str(PI_DEPTH)], 1.0, child_core, "none"
    )
    free_rows = [line.split("|") for line in free.stdout.splitlines() if line.count("|") == 3]
    if free_rows:
        free_nodes = sum(int(row[1]) for row in free_rows)
        free_wall = sum(float(row[2]) for row in free_rows)
        free_cpu = sum(float(row[3]) for row in free_rows)
        print(
            f"Full speed, one core: depth {PI_DEPTH} on all {len(free_rows)} positions in"
            f" {free_cpu:.2f} s of CPU time, {free_nodes / free_cpu:,.0f} nodes/s"
            f" (wall {free_wall:.2f} s: the child had {free.share:.0%} of the core)"
        )
    run = cpuquota.run_limited(
        [sys.executable, __file__, "--pi-child", str(PI_DEPTH)], quota, child_core, method
    )
    print(
        f"Pi budget: compiled core to depth {PI_DEPTH}, one core (cpu {child_core}), "
        f"quota {quota:.1%} of it by {run.method} (this core = {ratio:.2f} Pi 4 cores):"
    )
    rows = [line.split("|") for line in run.stdout.splitlines() if line.count("|") == 3]
    nodes_all = wall_all = cpu_all = 0.0
    for name, nodes, wall, cpu in rows:
        n, w, c = int(nodes), float(wall), float(cpu)
        nodes_all, wall_all, cpu_all = nodes_all + n, wall_all + w, cpu_all + c
        print(
            f"  {name:20} {n:>9} nodes  under quota {w:6.2f} s {n / w:>8,.0f} nodes/s"
            f"   from CPU time x ratio {c * ratio:6.2f} s {n / (c * ratio):>8,.0f} nodes/s"
        )
    if not rows:
        print(f"  the child failed (exit {run.returncode})")
        return
    print(
        f"  all {len(rows)}: {wall_all:.2f} s, {nodes_all / wall_all:,.0f} nodes/s under quota;"
        f" {cpu_all * ratio:.2f} s, {nodes_all / (cpu_all * ratio):,.0f} nodes/s from CPU time"
    )
    print(
        f"  share of the core the child had: {run.share:.1%} (quota {quota:.1%})"
        + (
            ""
            if run.share > 0.95 * quota
            else " -- less than the quota: the machine is busy; trust the CPU-time figures"
        )
    )


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--deep", type=int, default=10)
    parser.add_argument("--hex-depth", type=int, default=4)
    parser.add_argument("--hex-deep", type=int, default=8)
    parser.add_argument("--stops", type=int, default=10)
    parser.add_argument("--pi-only", action="store_true", help="the Pi budget alone")
    parser.add_argument("--pi-ratio", type=float, help="this core's speed over a Pi 4 core's")
    parser.add_argument("--quota-method", choices=["auto", "cgroup", "duty"], default="auto")
    parser.add_argument("--pi-child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.pi_child:
        pi_child(args.pi_child)
        return
    if args.pi_only:
        pi_budget(args.pi_ratio, args.quota_method)
        return
    print(f"Python {sys.version.split()[0]}")
    python = time_to_depth(args.depth, compiled=False)
    if core.available():
        compiled = time_to_depth(args.depth, compiled=True)
        print(f"Compiled / Python: {compiled / python:.1f}x the nodes per second")
        time_to_depth(args.deep, compiled=True)
        python = time_to_depth(args.hex_depth, compiled=False, hexagon=True)
        compiled = time_to_depth(args.hex_depth, compiled=True, hexagon=True)
        print(f"Hexagon, compiled / Python: {compiled / python:.1f}x the nodes per second")
        time_to_depth(args.hex_deep, compiled=True, hexagon=True)
    else:
        print("The compiled core is not built: no comparison.")
    mates()
    stop_latency(args.stops)
    pi_budget(args.pi_ratio, args.quota_method)


if __name__ == "__main__":
    main(sys.argv[1:])
