"""Self-play between two builds of boardctl, with a sequential test (SPRT).

Run::

    .venv/bin/python bench/sprt.py --base HEAD~3 --test . --nodes 5000
    .venv/bin/python bench/sprt.py --base . --test . --base-option "Skill Level=14"

A build is a directory holding a boardctl tree (``.`` is this one) or a git
revision of this repository, exported with ``git archive`` into a temporary
directory (no worktree is added) and given its own build of the C core
(``cc``, as ``setup.py`` builds it); a directory whose core is missing or
older than its sources (a fresh worktree) has its core built in place, since
without it the side would play with the Python search.  Each side is
``python -m boardctl uci`` run in its build's directory, so two revisions
never share a module; a ``--base-option``/``--test-option NAME=VALUE`` is
sent with ``setoption`` (the same build with two option values is the
cheapest A/B test).

The moves are limited by nodes (``go nodes N``, default 5,000), so the result
does not depend on the machine's load; ``--movetime`` limits by time instead.
Openings are ``--plies`` random legal moves (``bench/match.py``'s generator);
each is played twice, the test build White and then Black, and the two games
of a pair run at the same time (``--concurrency``, default 2: one per core).
This process referees with boardctl's rules core: its game outcomes (mate,
stalemate, repetition, the fifty-move rule, dead positions), and a draw at
200 plies.

After each game it prints the test build's wins, draws and losses, its score
with a 95 % interval, the Elo difference with its error, and the SPRT's
log-likelihood ratio with its bounds; it stops when the LLR crosses one:
H1 (the test build is at least ``--elo1`` better) or H0 (it is at most
``--elo0`` better), at ``--max-games``, or at Ctrl-C (or SIGTERM): the games
under way are finished and counted, and the result printed.

The statistics, in logistic Elo:

- the LLR is the generalized SPRT's (M. Van den Bergh's GSPRT, the form
  fishtest uses): N times the mean, over the observed outcome frequencies,
  of log(p1 / p0), where p0 and p1 are the distributions over the same
  outcomes that are most likely given the results and have the mean score of
  elo0 and of elo1 (score = 1 / (1 + 10^(-Elo/400))); an outcome not seen
  yet counts as 0.001 of one.  Its normal approximation,
  N (s1 - s0) (2 s - s0 - s1) / (2 var), is ``llr_normal``: it agrees once the
  results have some spread and overstates the evidence before.  The samples
  are the game pairs (a pentanomial: a pair scores 0, 1/4, 1/2, 3/4 or 1),
  which takes the correlation between the two games of an opening into
  account; until a pair has finished, the games alone (the trinomial);
- the bounds are Wald's: lower ln(beta / (1 - alpha)), upper ln((1 - beta) / alpha);
- the interval is the normal one around the mean score, from the games'
  own spread, and the Elo error half the width of its image in Elo.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import random
import signal
import subprocess
import sys
import sysconfig
import tempfile
import threading
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

from boardctl.rules import BLACK, WHITE, Game, get_variant, parse_uci

# bench/ is no package: its scripts import each other from their folder (as engine.py does).
sys.path.insert(0, str(Path(__file__).resolve().parent))

import match

REPO = Path(__file__).resolve().parent.parent
MAX_PLIES = 200
Z95 = 1.959964  # the normal quantile of a two-sided 95 % interval


# ------------------------------------------------------------- statistics
def logistic_score(elo: float) -> float:
    """The expected score of a side ``elo`` points stronger."""
    return 1 / (1 + 10 ** (-elo / 400))


def mean_and_variance(counts: Sequence[int]) -> tuple[float, float]:
    """Mean and variance of a sample's score from its outcome counts: three
    (loss, draw, win: scores 0, 1/2, 1) or five (pairs: 0, 1/4, ... 1)."""
    n = sum(counts)
    if n == 0:
        raise ValueError("no results")
    steps = len(counts) - 1
    mean = sum(count * i / steps for i, count in enumerate(counts)) / n
    var = sum(count * (i / steps - mean) ** 2 for i, count in enumerate(counts)) / n
    return mean, var


def llr_normal(counts: Sequence[int], elo0: float, elo1: float) -> float:
    """The normal approximation of the GSPRT log-likelihood ratio of H1 (elo1)
    over H0 (elo0); 0 while the results have no spread.  With few results it
    overstates the evidence (its variance estimate is then tiny), so the run
    uses :func:`llr`; the two agree once the results have some spread."""
    if len(counts) not in (3, 5):
        raise ValueError(f"3 or 5 counts, not {len(counts)}")
    if sum(counts) == 0:
        return 0.0
    s0, s1 = logistic_score(elo0), logistic_score(elo1)
    mean, var = mean_and_variance(counts)
    if var == 0:
        return 0.0
    return sum(counts) * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


REGULARIZE = 1e-3  # stands in for an outcome not seen yet (as fishtest does)
BISECTIONS = 200


def closest_with_mean(probs: Sequence[float], values: Sequence[float], mean: float) -> list[float]:
    """The distribution over ``values`` with expectation ``mean`` that is most
    likely to have produced the observed frequencies ``probs`` (maximum
    likelihood under the constraint: ``p_i = probs_i / (1 + x (v_i - mean))``
    with the Lagrange multiplier ``x`` found by bisection)."""
    shifted = [v - mean for v in values]
    if not min(shifted) < 0 < max(shifted):
        raise ValueError(f"the mean {mean} is not inside the values' range")
    low, high = -1 / max(shifted), -1 / min(shifted)  # where every p_i stays positive
    for _ in range(BISECTIONS):
        x = (low + high) / 2
        slope = sum(p * a / (1 + x * a) for p, a in zip(probs, shifted, strict=True))
        if slope > 0:
            low = x
        else:
            high = x
    x = (low + high) / 2
    return [p / (1 + x * a) for p, a in zip(probs, shifted, strict=True)]


def llr(counts: Sequence[int], elo0: float, elo1: float) -> float:
    """The generalized SPRT's log-likelihood ratio of H1 (elo1) over H0 (elo0):
    the observed outcome frequencies against the most likely distributions
    with the mean score of each hypothesis (fishtest's ``LLR_logistic``).  An
    outcome not seen yet counts as ``REGULARIZE`` of one."""
    if len(counts) not in (3, 5):
        raise ValueError(f"3 or 5 counts, not {len(counts)}")
    if sum(counts) == 0:
        return 0.0
    filled = [count if count else REGULARIZE for count in counts]
    n = sum(filled)
    probs = [count / n for count in filled]
    values = [i / (len(counts) - 1) for i in range(len(counts))]
    under0 = closest_with_mean(probs, values, logistic_score(elo0))
    under1 = closest_with_mean(probs, values, logistic_score(elo1))
    return n * sum(p * math.log(p1 / p0) for p, p0, p1 in zip(probs, under0, under1, strict=True))


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds on the LLR: below the first accept H0, above the second H1."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def elo_with_error(wins: int, draws: int, losses: int) -> tuple[float, float]:
    """The Elo difference the score means, and half the width of its 95 % interval."""
    low, high = match.score_interval(wins, draws, losses)
    mean = (wins + draws / 2) / (wins + draws + losses)
    return match.elo(mean), (match.elo(high) - match.elo(low)) / 2


@dataclass
class Tally:
    """The test build's results: games (L, D, W) and finished pairs (0 to 4 half-points)."""

    games: list[int] = field(default_factory=lambda: [0, 0, 0])
    pairs: list[int] = field(default_factory=lambda: [0, 0, 0, 0, 0])

    def add_game(self, score: float) -> None:
        self.games[round(2 * score)] += 1

    def add_pair(self, first: float, second: float) -> None:
        self.pairs[round(2 * (first + second))] += 1

    def llr(self, elo0: float, elo1: float) -> float:
        return llr(self.pairs if sum(self.pairs) else self.games, elo0, elo1)

    def line(self, elo0: float, elo1: float, alpha: float, beta: float) -> str:
        losses, draws, wins = self.games
        low, high = match.score_interval(wins, draws, losses)
        mean = (wins + draws / 2) / sum(self.games)
        elo, error = elo_with_error(wins, draws, losses)
        lower, upper = sprt_bounds(alpha, beta)
        return (
            f"W/D/L {wins}/{draws}/{losses}  score {mean:.3f} [{low:.3f}, {high:.3f}]"
            f"  Elo {elo:+.1f} ± {error:.1f}"
            f"  LLR {self.llr(elo0, elo1):+.2f} [{lower:+.2f}, {upper:+.2f}]"
        )


# ------------------------------------------------------------------ builds
def prepare_build(spec: str, into: Path) -> Path:
    """The directory of a boardctl tree for ``spec`` (a directory, or a git revision
    exported into ``into`` and built there).

    :raises SystemExit: the revision is unknown or its build failed.
    """
    if Path(spec).is_dir() and (Path(spec) / "boardctl").is_dir():
        tree = Path(spec).resolve()
        # A worktree without its own core would play with the Python search, some
        # thirty times slower, and look like a weaker engine: its core is built.
        if stale_core(tree):
            build_core(tree, spec)
        return tree
    rev = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--verify", f"{spec}^{{commit}}"],
        capture_output=True,
        text=True,
    )
    if rev.returncode:
        raise SystemExit(f"sprt: {spec!r} is neither a boardctl tree nor a git revision")
    commit = rev.stdout.strip()
    target = into / commit[:12]
    if not target.exists():
        target.mkdir(parents=True)
        archive = subprocess.run(
            ["git", "-C", str(REPO), "archive", commit], capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
        build_core(target, spec)
    return target


def stale_core(tree: Path) -> bool:
    """True if the tree's compiled core is missing or older than one of its sources."""
    built = tree / f"boardctl/engine/_core{sysconfig.get_config_var('EXT_SUFFIX')}"
    sources = list((tree / "boardctl/engine/csrc").glob("*.[ch]"))
    if not built.exists():
        return bool(sources)
    return any(path.stat().st_mtime > built.stat().st_mtime for path in sources)


def build_core(target: Path, spec: str) -> None:
    """Build the compiled core of the tree at ``target`` in place.

    :raises SystemExit: the build failed.
    """
    # The compiler directly, as setup.py would: an old revision's pyproject.toml
    # may not suit today's setuptools.
    # Its sources: csrc/*.c since the core was split by concern, _core.c before.
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    sources = sorted(
        str(path.relative_to(target)) for path in (target / "boardctl/engine/csrc").glob("*.c")
    )
    built = subprocess.run(
        [
            "cc",
            "-O2",
            "-std=c11",
            "-funsigned-char",
            "-shared",
            "-fPIC",
            f"-I{sysconfig.get_paths()['include']}",
            *(sources or ["boardctl/engine/_core.c"]),
            "-o",
            f"boardctl/engine/_core{suffix}",
        ],
        cwd=target,
        capture_output=True,
        text=True,
    )
    if built.returncode:
        raise SystemExit(f"sprt: building {spec} failed:\n{built.stderr[-2000:]}")


class UciEngine:
    """One ``boardctl uci`` process of one build."""

    def __init__(self, build: Path, variant: str, options: Sequence[tuple[str, str]]) -> None:
        env = dict(os.environ, PYTHONPATH=str(build))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "boardctl", "uci"],
            cwd=build,
            env=env,
            text=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            bufsize=1,
        )
        self.send("uci")
        self.wait_for("uciok")
        self.send(f"setoption name UCI_Variant value {variant}")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix: str) -> str:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.startswith("info string error"):
                raise RuntimeError(f"the engine refused a command: {line.strip()}")
            if line.startswith(prefix):
                return line.strip()
        raise RuntimeError(f"the engine ended before {prefix!r}")

    def new_game(self) -> None:
        self.send("ucinewgame")

    def best_move(self, moves: Sequence[str], go: str) -> str:
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send(go)
        return self.wait_for("bestmove").split()[1]

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.send("quit")
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# ------------------------------------------------------------------ games
@dataclass(frozen=True)
class Setup:
    variant: str
    go: str
    builds: dict[str, Path]  # "base", "test"
    options: dict[str, list[tuple[str, str]]]


class Players:
    """Each worker thread's own pair of engine processes."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.local = threading.local()
        self.everyone: list[UciEngine] = []
        self.lock = threading.Lock()

    def get(self) -> dict[str, UciEngine]:
        engines: dict[str, UciEngine] | None = getattr(self.local, "engines", None)
        if engines is None:
            engines = {
                name: UciEngine(
                    self.setup.builds[name], self.setup.variant, self.setup.options[name]
                )
                for name in ("base", "test")
            }
            self.local.engines = engines
            with self.lock:
                self.everyone.extend(engines.values())
        return engines

    def close(self) -> None:
        for engine in self.everyone:
            engine.close()


def play(players: Players, opening: Sequence[str], test_colour: int) -> tuple[float, str, int]:
    """One game; returns the test build's score, how it ended and its length in plies."""
    engines = players.get()
    sides = {test_colour: engines["test"], test_colour ^ 1: engines["base"]}
    for engine in engines.values():
        engine.new_game()
    game = Game(get_variant(players.setup.variant))
    moves = list(opening)
    for uci in moves:
        game.push(parse_uci(game.position, uci))
    while True:
        outcome = game.outcome()
        if outcome is not None:
            result, reason = outcome.result, outcome.termination.value
            break
        if len(game.moves) >= MAX_PLIES:
            result, reason = "1/2-1/2", f"{MAX_PLIES}-ply limit"
            break
        text = sides[game.position.turn].best_move(moves, players.setup.go)
        move = parse_uci(game.position, text)  # an illegal move is a bug: it raises
        moves.append(game.position.uci(move))
        game.push(move)
    if result == "1/2-1/2":
        return 0.5, reason, len(game.moves)
    won = (result == "1-0") == (test_colour == WHITE)
    return (1.0 if won else 0.0), reason, len(game.moves)


# ------------------------------------------------------------------ main
def parse_option(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"an option is NAME=VALUE, not {text!r}")
    return name.strip(), value.strip()


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--base", default="HEAD", help="directory or git revision (default HEAD)")
    parser.add_argument("--test", default=".", help="directory or git revision (default .)")
    parser.add_argument(
        "--base-option", action="append", type=parse_option, default=[], metavar="NAME=VALUE"
    )
    parser.add_argument(
        "--test-option", action="append", type=parse_option, default=[], metavar="NAME=VALUE"
    )
    parser.add_argument("--variant", default="falcon")
    parser.add_argument("--nodes", type=int, default=5000, help="nodes per move (default 5000)")
    parser.add_argument("--movetime", type=float, help="seconds per move instead of nodes")
    parser.add_argument("--plies", type=int, default=4, help="random opening plies (default 4)")
    parser.add_argument("--seed", type=int, help="seed for the openings")
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=10.0)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--max-games", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=2, help="games at once (default 2)")
    return parser.parse_args(argv)


def run(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else random.randrange(10**6)
    go = f"go movetime {round(args.movetime * 1000)}" if args.movetime else f"go nodes {args.nodes}"
    lower, upper = sprt_bounds(args.alpha, args.beta)
    with tempfile.TemporaryDirectory(prefix="boardctl-sprt-") as tmp:
        builds = {
            "base": prepare_build(args.base, Path(tmp)),
            "test": prepare_build(args.test, Path(tmp)),
        }
        print(
            f"test {args.test} {args.test_option or ''} v base {args.base} "
            f"{args.base_option or ''}: {go}, {args.plies} opening plies, seed {seed}, "
            f"SPRT elo0 {args.elo0:g} elo1 {args.elo1:g} alpha {args.alpha:g} "
            f"beta {args.beta:g}",
            flush=True,
        )
        setup = Setup(
            args.variant, go, builds, {"base": args.base_option, "test": args.test_option}
        )
        players = Players(setup)
        tally = Tally()
        rng = random.Random(f"{seed}:openings")
        pending: dict[Future[tuple[float, str, int]], tuple[int, int]] = {}
        halves: dict[int, float] = {}
        played = scheduled = 0
        verdict: str | None = None
        try:
            with ThreadPoolExecutor(args.concurrency) as pool:
                while True:
                    while len(pending) < args.concurrency and scheduled < args.max_games:
                        if scheduled % 2 == 0:
                            opening = match.random_opening(rng, args.plies, args.variant)
                        colour = WHITE if scheduled % 2 == 0 else BLACK
                        future = pool.submit(play, players, opening, colour)
                        pending[future] = (scheduled // 2, colour)
                        scheduled += 1
                    if not pending:
                        break
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for future in done:
                        pair, colour = pending.pop(future)
                        score, reason, plies = future.result()
                        played += 1
                        tally.add_game(score)
                        if pair in halves:
                            tally.add_pair(halves.pop(pair), score)
                        else:
                            halves[pair] = score
                        side = "White" if colour == WHITE else "Black"
                        print(
                            f"game {played:4}: test {side} scores {score:g} ({reason}, "
                            f"{plies} plies)  "
                            + tally.line(args.elo0, args.elo1, args.alpha, args.beta),
                            flush=True,
                        )
                    value = tally.llr(args.elo0, args.elo1)
                    if verdict is None and (value >= upper or value <= lower):
                        # The games under way are finished and counted; no new ones.
                        verdict = (
                            f"H1 accepted: the test build is better by at least {args.elo1:g} Elo"
                            if value >= upper
                            else f"H0 accepted: the test build is not {args.elo1:g} Elo better"
                        )
                        scheduled = args.max_games
        except KeyboardInterrupt:
            verdict = "interrupted"
        finally:
            players.close()
        print(f"{verdict or 'no decision'} after {played} games")
        if played:
            print(tally.line(args.elo0, args.elo1, args.alpha, args.beta))
    return 0


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str]) -> int:
    # A run stopped by timeout(1) or kill still prints its result and removes
    # its builds, as Ctrl-C does.
    signal.signal(signal.SIGTERM, _interrupt)
    return run(parse_args(argv))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
