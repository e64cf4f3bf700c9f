"""What the engine's two protocols cost a GUI: ``boardctl uci`` and ``boardctl xboard``.

Run::

    .venv/bin/python bench/protocols.py                       # all three parts
    .venv/bin/python bench/protocols.py --part position --part movetime
    .venv/bin/python bench/protocols.py --protocol uci        # an older build has no xboard

Each side is ``python -m boardctl <protocol>`` in a child process, talked to
over pipes as a GUI does, in the build this script is run from (``--build
DIR`` for another tree, such as a worktree of an older revision).

- **position**: a game of ``--plies`` plies (random legal moves from a seeded
  generator) sent as a GUI sends it.  UCI: before every move the whole game,
  ``position startpos moves …``, then ``isready``; XBoard: each move alone,
  ``usermove``, then ``ping``.  Printed: the milliseconds from the command to
  ``readyok``/``pong``, less an ``isready``/``ping`` alone, by ply (the mean of
  the plies around it, and of whole stretches).
- **movetime**: ``go movetime T`` (UCI) and ``st`` (XBoard, seconds) from a
  few positions: the milliseconds from the command to the move, their mean,
  least and most, against T.
- **clock**: games of the engine against itself under a clock, kept by this
  script as a GUI keeps it (the time from the command to the move is charged,
  the increment added), for UCI's ``wtime/btime/winc/binc[/movestogo]`` and
  XBoard's ``level``/``time``/``otim``: per game the moves, the mean and
  longest time a move, the lowest clock and whether a flag fell.

Prints figures only; nothing here is a test.  The machine's load shows in every
figure: run it on a quiet machine, or compare two builds in the same run.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from boardctl.rules import Game, Move, PieceType, Position, get_variant

REPO = Path(__file__).resolve().parent.parent
VARIANTS = {"uci": "falcon", "xboard": "falcon-xboard"}  # what each protocol plays
POSITION_PLIES = (2, 20, 40, 80, 120, 160, 200, 240)
STRETCHES = ((2, 40), (41, 120), (121, 200), (201, 240))
MOVETIMES_MS = (50, 100, 300, 1000)
# (name, base seconds, increment seconds, moves per session or 0)
CLOCKS = (("10+0.1", 10.0, 0.1, 0), ("30+0", 30.0, 0.0, 0), ("40/20", 20.0, 0.0, 40))
FIFTY_NEAR = 80  # plies without a capture or a pawn move after which random play makes one
CLOCK_PLIES = 160  # each clock game is stopped here (or at its end)
WAIT = 120.0  # seconds for any answer before the bench gives up on the engine


class Engine:
    """``boardctl uci`` or ``boardctl xboard`` in a child process."""

    def __init__(self, protocol: str, build: Path) -> None:
        self.protocol = protocol
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "boardctl", protocol],
            cwd=build,
            env=dict(os.environ, PYTHONPATH=str(build)),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.pings = 0
        if protocol == "uci":
            self.send("uci")
            self.until("uciok")
        else:
            self.send("xboard", "protover 2")
            self.until("feature done=1")

    def send(self, *lines: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(line + "\n" for line in lines))
        self.proc.stdin.flush()

    def until(self, prefix: str) -> str:
        assert self.proc.stdout is not None
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"boardctl {self.protocol} ended before {prefix!r}")
            if line.startswith(prefix):
                return line.strip()
        raise RuntimeError(f"no {prefix!r} from boardctl {self.protocol} in {WAIT:g} s")

    def sync(self) -> None:
        """``isready``/``readyok`` or ``ping``/``pong``: every command before is done."""
        if self.protocol == "uci":
            self.send("isready")
            self.until("readyok")
        else:
            self.pings += 1
            self.send(f"ping {self.pings}")
            self.until(f"pong {self.pings}")

    def new_game(self, moves: Sequence[str] = ()) -> None:
        """A new game, the engine in force mode (XBoard) with ``moves`` played."""
        if self.protocol == "uci":
            self.send("ucinewgame")
        else:
            self.send("new", "variant falcon", "force", *(f"usermove {m}" for m in moves))
        self.sync()

    def close(self) -> None:
        self.send("quit")
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def random_game(plies: int, variant: str, seed: int) -> list[str]:
    """``plies`` random legal moves, none of which ends the game: each is the
    first of the legal moves, shuffled, after which the game goes on (a
    capture or a pawn move first when the fifty-move rule draws near)."""
    rng = random.Random(seed)
    while True:
        game = Game(get_variant(variant))
        moves: list[str] = []
        while len(moves) < plies:
            pos = game.position
            legal = pos.legal_moves()
            rng.shuffle(legal)
            if pos.halfmove_clock > FIFTY_NEAR:
                legal.sort(key=lambda m: not (pos.is_capture(m) or _is_pawn(pos, m)))
            for move in legal:
                text = pos.uci(move)
                game.push(move)
                if game.outcome() is None:
                    moves.append(text)
                    break
                game.pop()
            else:
                break  # every move ends it: draw another game
        if len(moves) == plies:
            return moves


def _is_pawn(pos: Position, move: Move) -> bool:
    piece = pos.piece_at(move.from_square)
    return piece is not None and piece[0] == PieceType.PAWN


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.2f}"


# ------------------------------------------------------------------ position
def position_costs(engine: Engine, moves: list[str], repeats: int) -> dict[int, float]:
    """Seconds each ply's position costs (the least of ``repeats`` games), less a bare sync."""
    bare = []
    for _ in range(50):
        started = time.perf_counter()
        engine.sync()
        bare.append(time.perf_counter() - started)
    sync = statistics.median(bare)
    best: dict[int, float] = {}
    for _ in range(repeats):
        engine.new_game()
        for ply in range(1, len(moves) + 1):
            if engine.protocol == "uci":
                command = "position startpos moves " + " ".join(moves[:ply])
            else:
                command = f"usermove {moves[ply - 1]}"
            started = time.perf_counter()
            engine.send(command)
            engine.sync()
            cost = max(0.0, time.perf_counter() - started - sync)
            best[ply] = min(cost, best.get(ply, cost))
    return best


def report_positions(protocol: str, costs: dict[int, float]) -> None:
    print(f"\n{protocol}: milliseconds a position costs, by ply (the least of the repeats)")
    around = {
        ply: statistics.mean(costs[p] for p in range(max(1, ply - 2), min(len(costs), ply + 2) + 1))
        for ply in POSITION_PLIES
        if ply <= len(costs)
    }
    print("  ply    " + "".join(f"{ply:>8}" for ply in around))
    print("  ms     " + "".join(f"{ms(cost):>8}" for cost in around.values()))
    for low, high in STRETCHES:
        if high <= len(costs):
            mean = statistics.mean(costs[p] for p in range(low, high + 1))
            print(f"  plies {low:3d}-{high:3d}: mean {ms(mean).strip()} ms")


# ------------------------------------------------------------------ movetime
def movetimes(engine: Engine, games: list[list[str]], millis: int) -> list[float]:
    taken = []
    for moves in games:
        engine.new_game(moves)
        if engine.protocol == "uci":
            engine.send("position startpos moves " + " ".join(moves))
            engine.sync()
            started = time.perf_counter()
            engine.send(f"go movetime {millis}")
            engine.until("bestmove")
        else:
            engine.send(f"st {millis / 1000:g}")
            engine.sync()
            started = time.perf_counter()
            engine.send("go")
            engine.until("move ")
        taken.append(time.perf_counter() - started)
    return taken


def report_movetimes(protocol: str, engine: Engine, games: list[list[str]]) -> None:
    word = "go movetime T" if protocol == "uci" else "st T"
    print(f"\n{protocol}: {word}, milliseconds from the command to the move ({len(games)} moves)")
    print("      T     mean    least     most   mean-T")
    for millis in MOVETIMES_MS:
        taken = movetimes(engine, games, millis)
        mean = statistics.mean(taken)
        print(
            f"  {millis:5d} {ms(mean)} {ms(min(taken))} {ms(max(taken))} {ms(mean - millis / 1000)}"
        )


# ------------------------------------------------------------------ clock
@dataclass
class ClockGame:
    moves: int = 0
    used: float = 0.0
    longest: float = 0.0
    lowest: float = float("inf")
    flagged: bool = False


def clock_game(engine: Engine, name: str, base: float, inc: float, mps: int) -> ClockGame:
    """The engine against itself from the start; this script keeps both clocks."""
    variant = VARIANTS[engine.protocol]
    game = Game(get_variant(variant))
    clocks = [base, base]
    moves: list[str] = []
    result = ClockGame()
    engine.new_game()
    if engine.protocol == "xboard":
        minutes = f"{int(base // 60)}:{int(base % 60):02d}"
        engine.send(f"level {mps} {minutes} {inc:g}")
        engine.sync()
    while game.outcome() is None and len(moves) < CLOCK_PLIES:
        side = game.position.turn
        started = time.perf_counter()
        if engine.protocol == "uci":
            engine.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
            go = f"go wtime {round(clocks[0] * 1000)} btime {round(clocks[1] * 1000)}"
            go += f" winc {round(inc * 1000)} binc {round(inc * 1000)}"
            if mps:
                go += f" movestogo {mps - (len(moves) // 2) % mps}"
            engine.send(go)
            text = engine.until("bestmove").split()[1]
        else:
            centis = [max(0, round(c * 100)) for c in clocks]
            engine.send(f"time {centis[side]}", f"otim {centis[side ^ 1]}", "go")
            text = engine.until("move ").split()[1]
            engine.send("force")
        taken = time.perf_counter() - started
        clocks[side] -= taken
        result.moves += 1
        result.used += taken
        result.longest = max(result.longest, taken)
        result.lowest = min(result.lowest, clocks[side])
        if clocks[side] <= 0:
            result.flagged = True
            break
        clocks[side] += inc
        if mps and (len(moves) // 2 + 1) % mps == 0 and side == 1:
            clocks = [c + base for c in clocks]
        game.push_text(text)
        moves.append(text)
    return result


def report_clocks(protocol: str, engine: Engine, games: int) -> None:
    print(f"\n{protocol}: games against itself under a clock (at most {CLOCK_PLIES} plies)")
    for name, base, inc, mps in CLOCKS:
        for number in range(games):
            played = clock_game(engine, name, base, inc, mps)
            print(
                f"  {name:>7} game {number + 1}: {played.moves:3d} moves,"
                f" mean {played.used / max(1, played.moves) * 1000:6.1f} ms,"
                f" longest {played.longest * 1000:6.1f} ms,"
                f" lowest clock {played.lowest:6.2f} s" + ("  FLAG FELL" if played.flagged else "")
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--protocol", action="append", choices=("uci", "xboard"))
    parser.add_argument("--part", action="append", choices=("position", "movetime", "clock"))
    parser.add_argument("--build", type=Path, default=REPO, help="a boardctl tree (default: this)")
    parser.add_argument("--plies", type=int, default=240, help="the position game's length")
    parser.add_argument("--repeats", type=int, default=3, help="position games (default 3)")
    parser.add_argument("--positions", type=int, default=10, help="movetime moves (default 10)")
    parser.add_argument("--games", type=int, default=1, help="games per clock (default 1)")
    parser.add_argument("--seed", type=int, default=40)
    args = parser.parse_args(argv)
    build = args.build.resolve()
    print(f"boardctl at {build}; {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    for protocol in args.protocol or ("uci", "xboard"):
        parts = args.part or ("position", "movetime", "clock")
        engine = Engine(protocol, build)
        try:
            variant = VARIANTS[protocol]
            if "position" in parts:
                moves = random_game(args.plies, variant, args.seed)
                report_positions(protocol, position_costs(engine, moves, args.repeats))
            if "movetime" in parts:
                games = [
                    random_game(plies, variant, args.seed + plies)
                    for plies in range(4, 4 + 6 * args.positions, 6)
                ]
                report_movetimes(protocol, engine, games)
            if "clock" in parts:
                report_clocks(protocol, engine, args.games)
        finally:
            engine.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
