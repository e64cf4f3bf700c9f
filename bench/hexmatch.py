"""Falcon Hexagonal Chess: boardctl's engine against a random mover, a greedy
one, and itself.

Run::

    .venv/bin/python bench/hexmatch.py --opponent random --games 20 --nodes 2000
    .venv/bin/python bench/hexmatch.py --opponent greedy --games 20 --nodes 2000
    .venv/bin/python bench/hexmatch.py --opponent self --games 10 --nodes 2000
    .venv/bin/python bench/hexmatch.py --opponent self --games 10 --nodes 2000 --opponent-nodes 500

No other engine plays hexagonal falcon chess, so these are the yardsticks the
issue asks for: a random mover, a greedy one (``bench/match.py``'s: the move
that leaves it the most material, so it takes the most valuable piece it can,
else a random move), and self-play, whose results show which colour the
opening favours and how games end (and, with ``--opponent-nodes``, what four
times the nodes is worth).  boardctl searches a fixed number of nodes
a move (so the result does not depend on the machine's load), on whichever
core is built (the compiled one plays the hexagon too).  Each random opening
(``--plies`` moves) is played twice with the colours swapped; the rules core
referees (mate, stalemate scored as the variant says, repetition, the fifty-move
rule, dead positions), and a game that reaches 300 plies is a draw.  Prints one
line per game, then boardctl's score with its 95 % interval and the Elo it
means (a stalemate counts the variant's ¾ or ¼), White's score and how the
games ended.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import Counter
from pathlib import Path

from boardctl.engine import MAX_SKILL, Limits
from boardctl.rules import BLACK, WHITE, get_variant
from boardctl.rules.game import Termination

# bench/ is no package: its scripts import each other from their folder (as engine.py does).
sys.path.insert(0, str(Path(__file__).resolve().parent))

import match

MAX_PLIES = 300


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--opponent", choices=("random", "greedy", "self"), required=True)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--nodes", type=int, default=2000, help="boardctl's nodes a move")
    parser.add_argument(
        "--opponent-nodes",
        type=int,
        help="self-play: the other engine's nodes a move (default --nodes)",
    )
    parser.add_argument("--plies", type=int, default=2, help="random opening plies (default 2)")
    parser.add_argument("--variant", default="falcon-hex")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    variant = get_variant(args.variant)
    match.MAX_PLIES = MAX_PLIES
    rng = random.Random(f"{args.seed}:openings")
    boardctl = match.BoardctlPlayer(MAX_SKILL, args.seed, Limits(nodes=args.nodes))
    opponent: match.Player
    if args.opponent == "self":
        opponent = match.BoardctlPlayer(
            MAX_SKILL,
            args.seed + 1,
            Limits(nodes=args.opponent_nodes or args.nodes),
            name="boardctl-2",
        )
    elif args.opponent == "greedy":
        opponent = match.GreedyPlayer(random.Random(f"{args.seed}:greedy"))
    else:
        opponent = match.RandomPlayer(random.Random(f"{args.seed}:random"))
    other = f" ({args.opponent_nodes or args.nodes} nodes)" if args.opponent == "self" else ""
    print(
        f"{variant.title}: boardctl ({args.nodes} nodes a move) v {opponent.name}{other},"
        f" {args.games} games, {args.plies} opening plies, seed {args.seed}",
        flush=True,
    )
    state = match.Match(opponent.name)
    scores: list[float] = []  # boardctl's points, game by game
    white_points = 0.0
    endings: Counter[str] = Counter()
    started = time.perf_counter()
    opening: list[str] = []
    for number in range(1, args.games + 1):
        if number % 2 == 1:
            opening = match.random_opening(rng, args.plies, args.variant)
            players = {WHITE: boardctl, BLACK: opponent}
        else:
            players = {WHITE: opponent, BLACK: boardctl}
        record = match.play_game(number, opening, players, state, args.variant)
        state.records.append(record)
        endings[record.reason] += 1
        white = points(record.result, record.reason, variant.stalemate_points)
        white_points += white
        scores.append(white if record.boardctl_colour == WHITE else 1 - white)
        print(match.describe(record, opponent.name), flush=True)
    print(summary(scores, opponent.name))
    print(
        f"White scored {white_points:g}/{args.games}; endings: "
        + ", ".join(f"{reason} {count}" for reason, count in endings.most_common())
        + f"; {time.perf_counter() - started:.0f} s"
    )
    return 0


def points(result: str, reason: str, stalemate_points: float) -> float:
    """White's points: a scored stalemate (PGN's 1-0 or 0-1) is worth
    ``stalemate_points`` to the side that gave it."""
    won = stalemate_points if reason == Termination.SCORED_STALEMATE.value else 1.0
    return {"1-0": won, "0-1": 1 - won}.get(result, 0.5)


def summary(scores: list[float], opponent: str) -> str:
    """boardctl's score with a 95 % interval (normal, from the games' own
    spread, which a ¾ stalemate also enters; exact when every game went one
    way) and the Elo it means."""
    n = len(scores)
    mean = sum(scores) / n
    spread = sum((s - mean) ** 2 for s in scores) / n
    half = 1.96 * math.sqrt(spread / n)
    low, high = max(0.0, mean - half), min(1.0, mean + half)
    if spread == 0 and mean in (0.0, 1.0):
        # Every game won (or lost): no spread for the normal interval; the exact
        # binomial (Clopper-Pearson) bound is 0.025 ** (1 / n) from the other end.
        bound = 0.025 ** (1 / n)
        low, high = (bound, 1.0) if mean == 1.0 else (0.0, 1 - bound)
    counts = Counter(scores)
    return (
        f"boardctl v {opponent}: {sum(scores):g}/{n} = {100 * mean:.1f}%"
        f" (wins {counts[1.0]}, draws {counts[0.5]}, losses {counts[0.0]},"
        f" other {n - counts[1.0] - counts[0.5] - counts[0.0]});"
        f" 95% interval {100 * low:.1f}% to {100 * high:.1f}%;"
        f" Elo {match.elo(mean):+.0f} ({match.elo(low):+.0f} to {match.elo(high):+.0f})"
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
