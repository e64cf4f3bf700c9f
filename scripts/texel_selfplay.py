#!/usr/bin/env python3
"""Does a set of tuned weights play better?  Self-play at a fixed node count:
the engine with the weights in a JSON file against the engine with
evaluate.py's own.

Run (CPU-heavy: under ``nice``, sized by games and nodes)::

    nice -n 19 .venv/bin/python scripts/texel_selfplay.py /tmp/tuned.json \\
        --games 200 --nodes 3000 --jobs 2

The JSON file is what scripts/texel_tune.py writes: weight names (see
evaluate.default_weights) to values; names it leaves out keep evaluate.py's
values.  ``--base FILE`` gives the other side weights of its own as well.
Each random opening (``--plies`` legal moves, as texel_data.py makes them) is
played twice, the tuned side White and then Black; games end as in
texel_data.py (the rules, a lead of WIN_SCORE for WIN_PLIES plies, or a draw
at MAX_PLIES).  Node counts rather than time make the result independent of
the machine's load.  Prints the tuned side's wins, draws and losses, its
score with a 95 % interval, and the Elo difference (bench/match.py's
statistics).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
from pathlib import Path

import texel_data

from boardctl.engine import Engine, Limits
from boardctl.engine.weights import default_weights
from boardctl.rules import BLACK, WHITE

PROGRESS = 20  # games between interim results
BENCH_MATCH = Path(__file__).resolve().parents[1] / "bench" / "match.py"


def load_match_statistics():  # type: ignore[no-untyped-def]
    """bench/match.py, for its score_interval and elo (one source for them)."""
    spec = importlib.util.spec_from_file_location("match_bench", BENCH_MATCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["match_bench"] = module
    spec.loader.exec_module(module)
    return module


def read_weights(path: Path | None) -> dict[str, int]:
    """evaluate.py's weights with those in the JSON file at ``path``.

    :raises ValueError: for a name evaluate.py does not have, or a value that
        is not a whole number; :raises OSError: when the file cannot be read.
    """
    weights = default_weights()
    if path is None:
        return weights
    given = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(given, dict):
        raise ValueError(f"{path}: not a JSON object of weight names to values")
    for name, value in given.items():
        if name not in weights:
            raise ValueError(f"{path}: no such weight: {name}")
        if not isinstance(value, int):
            raise ValueError(f"{path}: {name} is not a whole number: {value!r}")
        weights[name] = value
    return weights


def game(job: tuple[int, int, int, int, dict[str, int], dict[str, int]]) -> tuple[int, float]:
    """One game of a pair: (its number, the tuned side's points)."""
    number, seed, nodes, plies, tuned, base = job
    start = texel_data.opening(random.Random(seed), plies)
    tuned_colour = WHITE if number % 2 == 0 else BLACK
    engines = {
        tuned_colour: Engine(seed=seed, compiled=True, weights=tuned),
        tuned_colour ^ 1: Engine(seed=seed + 1, compiled=True, weights=base),
    }
    result, _ = texel_data.play_out(start, engines, Limits(nodes=nodes))
    if result == "1/2-1/2":
        return number, 0.5
    return number, 1.0 if (result == "1-0") == (tuned_colour == WHITE) else 0.0


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("weights", type=Path, help="the tuned weights (JSON)")
    parser.add_argument(
        "--base", type=Path, help="the other side's weights (default: evaluate.py's)"
    )
    parser.add_argument("--games", type=int, default=100, help="games, in pairs (default 100)")
    parser.add_argument("--nodes", type=int, default=3000, help="nodes a move (default 3000)")
    parser.add_argument("--plies", type=int, default=6, help="random opening plies (default 6)")
    parser.add_argument("--jobs", type=int, default=2, help="games in parallel (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="first opening's seed (default 1)")
    args = parser.parse_args(argv)
    if args.games < 2 or args.games % 2 or args.nodes < 1 or args.plies < 0 or args.jobs < 1:
        parser.error("--games must be even and 2 or more; --nodes and --jobs 1 or more")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if texel_data.core_missing("texel_selfplay"):
        return 2
    try:
        tuned = read_weights(args.weights)
        base = read_weights(args.base)
    except (OSError, ValueError) as exc:
        return texel_data.unreadable("texel_selfplay", exc)
    stats = load_match_statistics()
    jobs = [(n, args.seed + n // 2, args.nodes, args.plies, tuned, base) for n in range(args.games)]
    points = {1.0: 0, 0.5: 0, 0.0: 0}

    def report() -> None:
        wins, draws, losses = points[1.0], points[0.5], points[0.0]
        played = wins + draws + losses
        mean = (wins + draws / 2) / played
        low, high = stats.score_interval(wins, draws, losses)
        print(
            f"tuned v base, {played} games at {args.nodes} nodes a move:"
            f" +{wins} ={draws} -{losses}, score {100 * mean:.1f}%"
            f" (95% interval {100 * low:.1f}% to {100 * high:.1f}%),"
            f" Elo {stats.elo(mean):+.0f} ({stats.elo(low):+.0f} to {stats.elo(high):+.0f})",
            flush=True,
        )

    with texel_data.worker_pool(args.jobs) as pool:
        for played, (_, score) in enumerate(pool.imap_unordered(game, jobs), 1):
            points[score] += 1
            if played % PROGRESS == 0 and played < args.games:
                report()
    report()
    return 0


if __name__ == "__main__":
    sys.exit(main())
