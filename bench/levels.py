"""Calibrates the engine's levels: matches between them and against Fairy-Max, and a rating table.

Run::

    .venv/bin/python bench/levels.py --concurrency 1           # the calibration: about an hour
    .venv/bin/python bench/levels.py --concurrency 1 --write   # and write the table (see below)
    .venv/bin/python bench/levels.py --games 2 --fairymax-games 2 --positions 10  # a quick look

What it measures, in three parts:

1. Human-looking moves.  Positions from self-play (level ``POSITION_LEVEL``,
   seeded), and for each player how many of its moves there give material
   away by a captures-only look (``boardctl.engine.hanging``): a random
   mover, a few levels, level 20.
2. Each level against the next one up (0 v 1, 1 v 2, ... 19 v 20): as many
   games as ``--pair-budget`` positions searched pay for (from ``--min-games``
   to ``--max-games``: many where moves are cheap, few where they are dear,
   so the top pairs have the widest errors); and a few levels
   (``--anchor-levels``) against Fairy-Max 5.0b (Debian's ``fairymax``)
   searching ``--fairymax-depth`` plies a move, ``--fairymax-games`` each.
   Every level searches at most ``PI_MOVE_NODES`` positions a move (what a
   Raspberry Pi 4 searches in the default 3 s, ``boardctl/engine/levels.py``):
   level 20 that many, the others their own caps, so no result depends on
   this machine's speed or load.  Fairy-Max is held to a depth for the same
   reason (its clock would give it less on a busy machine); the time it took
   a move is printed.
3. The ratings: one logistic Elo for every level and for Fairy-Max, the most
   likely given every game (a draw half a point; one virtual draw added to
   each pairing so that a clean sweep stays finite), Fairy-Max set to
   ``ANCHOR_RATING``.  The error is the half-width of a 95 % interval from the
   fit's information matrix (games counted as independent).  The scale is
   ours, anchored on Fairy-Max; it is no federation's.

Games: each random opening (``--plies`` moves, ``bench/match.py``'s generator)
is played once with each colour; boardctl's rules core referees; a game is
adjudicated when one side is ``LEAD`` or more ahead in material (pawn 1,
knight and bishop 3, rook and falcon 5, queen 9) for ``HELD`` plies in a row
(a win) or reaches ``DRAW_PLIES`` plies (a draw).

``--write`` writes ``boardctl/engine/ratings.py`` (the one source of the
table the screen and the page show) and the tables of ``docs/levels.md``
between its markers, with the date and the command.  Ctrl-C stops it and
writes nothing.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import random
import resource
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import match

from boardctl.engine import Engine, Limits, levels
from boardctl.engine.hanging import given_away
from boardctl.engine.xboard import DEFAULT_PATH
from boardctl.rules import BLACK, WHITE, Game, Position, get_variant

REPO = Path(__file__).resolve().parent.parent
RATINGS_MODULE = REPO / "boardctl" / "engine" / "ratings.py"
DOCS = REPO / "docs" / "levels.md"
BEGIN, END = "<!-- bench/levels.py writes from here -->", "<!-- to here -->"
MAX = levels.MAX_LEVEL
ANCHOR = "Fairy-Max"
ANCHOR_RATING = 1500
LEAD = 6  # material, in pawns, that decides a game ...
HELD = 8  # ... when held this many plies in a row
DRAW_PLIES = 160
DEPTH_CAPPED = 1_500  # about the positions a move of a level held to one or two plies
PLIES_A_GAME = 80  # about, adjudicated
POSITION_LEVEL = 14  # the self-play whose positions the human-looking count uses
POSITION_EVERY = 3  # plies between the positions taken from a game
Z95 = 1.959964
ELO = math.log(10) / 400  # the logistic curve's slope per Elo point
MAX_STEP = 200.0  # Elo: the fit's longest step


# ------------------------------------------------------------------ games
class Adjudicator:
    """Ends a game that is decided (see the module docstring); one per game."""

    def __init__(self) -> None:
        self.side: int | None = None
        self.held = 0

    def __call__(self, game: Game) -> tuple[str, str] | None:
        if len(game.moves) >= DRAW_PLIES:
            return "1/2-1/2", f"adjudicated at {DRAW_PLIES} plies"
        lead = match.material(game, WHITE)
        side = WHITE if lead >= LEAD else BLACK if lead <= -LEAD else None
        held = self.held + 1 if side == self.side else 1
        self.held = held if side is not None else 0
        self.side = side
        if side is not None and self.held >= HELD:
            return ("1-0" if side == WHITE else "0-1"), "adjudicated: material"
        return None


@dataclass(frozen=True)
class Job:
    """One game: ``level`` (its player is named "boardctl" in bench/match.py's
    records) against ``opponent``, a lower level or Fairy-Max (None)."""

    level: int
    opponent: int | None
    opening: tuple[str, ...]
    colour: int  # the level's
    seed: int
    fairymax_depth: int
    fairymax_path: str
    nodes: int

    @property
    def pairing(self) -> tuple[str, str]:
        return str(self.level), ANCHOR if self.opponent is None else str(self.opponent)


@dataclass(frozen=True)
class Result:
    job: Job
    score: float | None  # the level's; None when the game was aborted
    reason: str
    plies: int
    seconds: dict[str, float]  # mean thinking time a move, by player name


def play(job: Job) -> Result:
    """One game in this process (a worker of the pool)."""
    limits = Limits(nodes=job.nodes)
    me = match.BoardctlPlayer(job.level, job.seed, limits)
    other: match.Player
    if job.opponent is None:
        # The clock only bounds a move that takes too long: the depth decides.
        other = match.FairyMaxPlayer(job.fairymax_path, 5.0, None, job.fairymax_depth)
        variant = match.VARIANT  # Fairy-Max's castling
    else:
        other = match.BoardctlPlayer(
            job.opponent, job.seed + 1, limits, name=f"level {job.opponent}"
        )
        variant = "falcon"
    players: dict[int, match.Player] = {job.colour: me, job.colour ^ 1: other}
    record = match.Match(other.name)
    try:
        game = match.play_game(0, list(job.opening), players, record, variant, Adjudicator())
    finally:
        if isinstance(other, match.FairyMaxPlayer):
            other.close()
    seconds = {name: clock.mean() for name, clock in record.clocks.items()}
    return Result(job, game.boardctl_score, game.reason, game.plies, seconds)


def positions_a_move(level: int, nodes: int) -> int:
    """About how many positions ``level`` searches a move, at most ``nodes``."""
    plan = levels.level(level)
    if plan.nodes is not None:
        return min(plan.nodes, nodes)
    return DEPTH_CAPPED if plan.depth is not None else nodes


def games_for(level: int, args: argparse.Namespace) -> int:
    """Games of ``level`` against the level below: as many as ``--pair-budget``
    positions pay for, ``--min-games`` to ``--max-games``, an even number."""
    cost = PLIES_A_GAME / 2 * sum(positions_a_move(n, args.nodes) for n in (level, level - 1))
    games = int(args.pair_budget / cost) // 2 * 2
    return max(args.min_games, min(args.max_games, games))


def schedule(args: argparse.Namespace, seed: int) -> list[Job]:
    """Every game of the calibration: the adjacent pairs, then Fairy-Max's."""
    pairings: list[tuple[int, int | None, int]] = [
        (level, level - 1, args.games or games_for(level, args)) for level in range(1, MAX + 1)
    ]
    pairings += [(level, None, args.fairymax_games) for level in args.anchor_levels]
    jobs = []
    for level, opponent, games in pairings:
        rng = random.Random(f"{seed}:{level}:{opponent}")
        for number in range(games):
            if number % 2 == 0:
                opening = tuple(match.random_opening(rng, args.plies, match.VARIANT))
            colour = WHITE if number % 2 == 0 else BLACK
            game_seed = rng.randrange(10**9)
            jobs.append(
                Job(
                    level,
                    opponent,
                    opening,
                    colour,
                    game_seed,
                    args.fairymax_depth,
                    args.fairymax,
                    args.nodes,
                )
            )
    return jobs


# ------------------------------------------------------------- statistics
@dataclass
class Tally:
    """One pairing's results, from the first player's side."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    seconds: dict[str, list[float]] = field(default_factory=dict)

    def add(self, result: Result) -> None:
        if result.score is None:
            return
        if result.score == 1.0:
            self.wins += 1
        elif result.score == 0.5:
            self.draws += 1
        else:
            self.losses += 1
        for name, mean in result.seconds.items():
            self.seconds.setdefault(name, []).append(mean)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def elo(self) -> tuple[float, float]:
        """The first player's Elo over the second, and the half-width of its 95 % interval."""
        low, high = match.score_interval(self.wins, self.draws, self.losses)
        score = (self.wins + self.draws / 2) / self.games
        return match.elo(score), (match.elo(high) - match.elo(low)) / 2


def fit(tallies: dict[tuple[str, str], Tally], anchor: str) -> dict[str, tuple[float, float]]:
    """Every player's rating and the half-width of its 95 % interval, the most
    likely given the games (Newton's method on the logistic likelihood), with
    ``anchor`` at ``ANCHOR_RATING`` and one virtual draw in each pairing."""
    names = sorted({name for pair in tallies for name in pair} - {anchor}, key=_order)
    index = {name: i for i, name in enumerate(names)}
    ratings = {name: 0.0 for name in names} | {anchor: float(ANCHOR_RATING)}
    for _ in range(500):
        gradient, hessian = _derivatives(tallies, ratings, index)
        step = _solve(hessian, gradient)
        # Newton's step, shortened while far off (the likelihood is flat there).
        longest = max(map(abs, step), default=0.0)
        if longest > MAX_STEP:
            step = [delta * MAX_STEP / longest for delta in step]
        for name, delta in zip(names, step, strict=True):
            ratings[name] += delta
        if max(map(abs, step), default=0.0) < 1e-6:
            break
    covariance = _inverse(_derivatives(tallies, ratings, index)[1])
    fitted = {name: (ratings[name], Z95 * math.sqrt(covariance[i][i])) for name, i in index.items()}
    return fitted | {anchor: (float(ANCHOR_RATING), 0.0)}


def _order(name: str) -> tuple[int, str]:
    return (int(name), "") if name.isdigit() else (10**6, name)


def _derivatives(
    tallies: dict[tuple[str, str], Tally], ratings: dict[str, float], index: dict[str, int]
) -> tuple[list[float], list[list[float]]]:
    """The log-likelihood's gradient and its negated Hessian (the information)."""
    size = len(index)
    gradient = [0.0] * size
    info = [[0.0] * size for _ in range(size)]
    for (first, second), tally in tallies.items():
        games = tally.games + 1  # and the virtual draw
        points = tally.wins + tally.draws / 2 + 0.5
        expected = 1 / (1 + math.exp(-ELO * (ratings[first] - ratings[second])))
        push = ELO * (points - games * expected)
        weight = ELO * ELO * games * expected * (1 - expected)
        for name, sign in ((first, 1), (second, -1)):
            if name in index:
                gradient[index[name]] += sign * push
                info[index[name]][index[name]] += weight
        if first in index and second in index:
            info[index[first]][index[second]] -= weight
            info[index[second]][index[first]] -= weight
    return gradient, info


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix``⁻¹ ``vector`` (the matrix is symmetric positive definite)."""
    inverse = _inverse(matrix)
    return [sum(row[j] * vector[j] for j in range(len(vector))) for row in inverse]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    size = len(matrix)
    rows = [[*row, *(float(i == j) for j in range(size))] for i, row in enumerate(matrix)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        head = rows[col][col]
        rows[col] = [x / head for x in rows[col]]
        for r in range(size):
            if r != col and rows[r][col]:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [row[size:] for row in rows]


# ----------------------------------------------------------- human-looking
def sample_positions(count: int, seed: int, nodes: int) -> list[str]:
    """``count`` positions from seeded self-play at ``POSITION_LEVEL``, one
    every ``POSITION_EVERY`` plies, from the first move out of the opening."""
    rng = random.Random(f"{seed}:positions")
    fens: list[str] = []
    while len(fens) < count:
        game = Game(get_variant("falcon"))
        for text in match.random_opening(rng, 4, "falcon"):
            game.push_text(text)
        engine = Engine(POSITION_LEVEL, seed=rng.randrange(10**9))
        while game.outcome() is None and len(game.moves) < DRAW_PLIES and len(fens) < count:
            move = engine.search(game.position, Limits(nodes=nodes))
            assert move is not None
            game.push(move)
            if len(game.moves) % POSITION_EVERY == 0:
                fens.append(game.position.fen())
    return fens


def away_rate(
    fens: Sequence[str], away: Sequence[set[int]], choose: Callable[[Position], int]
) -> float:
    """The share of ``fens`` where the move ``choose`` makes is among those
    that give material away there (``away``, by position)."""
    given = sum(choose(Position(fen)) in moves for fen, moves in zip(fens, away, strict=True))
    return given / len(fens)


def level_chooser(level: int, seed: int, nodes: int) -> Callable[[Position], int]:
    engine = Engine(level, seed=seed)

    def choose(pos: Position) -> int:
        move = engine.search(pos, Limits(nodes=nodes))
        assert move is not None
        return pos.code_of(move)

    return choose


def random_chooser(seed: int) -> Callable[[Position], int]:
    rng = random.Random(seed)
    return lambda pos: rng.choice(pos.legal_codes())


def human_looking(args: argparse.Namespace, checked: Sequence[int]) -> list[tuple[str, float]]:
    """How often a random mover and each level in ``checked`` give material away."""
    fens = sample_positions(args.positions, args.seed, args.nodes)
    away = [given_away(Position(fen)) for fen in fens]
    rows = [("a random mover", away_rate(fens, away, random_chooser(args.seed)))]
    rows += [
        (f"level {n}", away_rate(fens, away, level_chooser(n, args.seed, args.nodes)))
        for n in checked
    ]
    return rows


# ------------------------------------------------------------------- run
def play_all(jobs: Sequence[Job], concurrency: int) -> dict[tuple[str, str], Tally]:
    """Plays ``jobs`` ``concurrency`` at a time; prints each pairing once it is complete."""
    tallies: dict[tuple[str, str], Tally] = {}
    left: dict[tuple[str, str], int] = {}
    for job in jobs:
        left[job.pairing] = left.get(job.pairing, 0) + 1
    with ProcessPoolExecutor(concurrency) as pool:
        futures = [pool.submit(play, job) for job in jobs]
        for future in as_completed(futures):
            result = future.result()
            pairing = result.job.pairing
            tallies.setdefault(pairing, Tally()).add(result)
            left[pairing] -= 1
            if not left[pairing]:
                print(pairing_line(pairing, tallies[pairing]), flush=True)
    return tallies


def pairing_line(pairing: tuple[str, str], tally: Tally) -> str:
    first, second = pairing
    elo, error = tally.elo()
    times = "  ".join(
        f"{name} {sum(means) / len(means):.3f} s a move" for name, means in tally.seconds.items()
    )
    second_name = second if second == ANCHOR else f"level {second}"
    return (
        f"level {first} v {second_name}: {tally.games} games, W/D/L "
        f"{tally.wins}/{tally.draws}/{tally.losses}, "
        f"Elo {round(elo):+d} ± {round(error)}  ({times})"
    )


def rating_rows(fitted: dict[str, tuple[float, float]]) -> list[tuple[int, int, int]]:
    """(level, rating, error), rounded, level 0 first."""
    return [(n, round(fitted[str(n)][0]), round(fitted[str(n)][1])) for n in range(MAX + 1)]


def monotone(rows: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """The ratings made to rise with the level: where a level measured below
    the one beneath it (within the error, or the design is wrong), both get
    their weighted mean (pooling adjacent violators, weights 1/error²)."""
    blocks: list[list[float]] = []  # [weighted sum, weight, count]
    for _, rating, error in rows:
        weight = 1 / max(error, 1) ** 2
        blocks.append([rating * weight, weight, 1])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] >= blocks[-1][0] / blocks[-1][1]:
            last = blocks.pop()
            blocks[-1] = [a + b for a, b in zip(blocks[-1], last, strict=True)]
    pooled = [round(total / weight) for total, weight, count in blocks for _ in range(int(count))]
    return [(n, pooled[n], error) for n, _, error in rows]


@dataclass(frozen=True)
class Calibration:
    """What one run found, as the module and the page publish it."""

    rows: list[tuple[int, int, int]]  # (level, rating, error), monotone
    tallies: dict[tuple[str, str], Tally]
    human: list[tuple[str, float]]
    anchor: str  # Fairy-Max and its depth, in words
    made: str  # the date
    command: tuple[str, ...]
    minutes: float  # wall time


def module_text(cal: Calibration) -> str:
    """boardctl/engine/ratings.py as ``cal`` makes it (as ``ruff format`` leaves it)."""
    games = sum(t.games for t in cal.tallies.values())
    pairings = sorted(cal.tallies.items(), key=lambda item: _order(item[0][0]))
    lines = [
        '"""The levels\' approximate ratings: written by bench/levels.py, not by hand.',
        "",
        f"Made {cal.made} by the command below, from {games} games in {cal.minutes:.0f} min",
        "(every match is in docs/levels.md).  The scale is ours, anchored on",
        f"{cal.anchor} = {ANCHOR_RATING}: it is no federation's rating.",
        '"""',
        "",
        f"MADE = {json.dumps(cal.made)}",
        "COMMAND = (",
        *(f"    {json.dumps(word)}," for word in cal.command),
        ")",
        f"ANCHOR = {json.dumps(cal.anchor)}",
        f"ANCHOR_RATING = {ANCHOR_RATING}",
        "# By level, 0 first: (rating, half-width of its 95 % interval).",
        "RATINGS = (",
        *(f"    ({rating}, {error})," for _, rating, error in cal.rows),
        ")",
        "# Every pairing: (level, its opponent: a level or Fairy-Max,",
        "# the level's wins, draws and losses).",
        "MATCHES = (",
        *(
            f"    ({int(first)}, {json.dumps(second)}, {t.wins}, {t.draws}, {t.losses}),"
            for (first, second), t in pairings
        ),
        ")",
        "",
    ]
    return "\n".join(lines)


def docs_text(cal: Calibration) -> str:
    """The tables of docs/levels.md, between its markers."""
    lines = [
        f"Made {cal.made} by `{' '.join(cal.command)}` ({cal.minutes:.0f} min of wall time).",
        "",
        "| level | rating | 95 % interval | positions a move | depth | spread | slip |",
        "|---|---|---|---|---|---|---|",
    ]
    for number, rating, error in cal.rows:
        plan = levels.level(number)
        nodes = f"{plan.nodes:,}" if plan.nodes else "-" if plan.depth else "as the time allows"
        depth = str(plan.depth) if plan.depth else "-"
        lines.append(
            f"| {number} | {rating} | ± {error} | {nodes} | {depth} | {plan.spread} | "
            f"{plan.slip:.0%} |"
        )
    lines += ["", "| match | games | W/D/L | Elo ± 95 % |", "|---|---|---|---|"]
    for (first, second), tally in sorted(cal.tallies.items(), key=lambda i: _order(i[0][0])):
        elo, error = tally.elo()
        other = cal.anchor if second == ANCHOR else f"level {second}"
        lines.append(
            f"| level {first} v {other} | {tally.games} | "
            f"{tally.wins}/{tally.draws}/{tally.losses} | {round(elo):+d} ± {round(error)} |"
        )
    lines += ["", "| player | moves that give material away |", "|---|---|"]
    lines += [f"| {name} | {rate:.1%} |" for name, rate in cal.human]
    return "\n".join(lines)


def write(cal: Calibration) -> None:
    RATINGS_MODULE.write_text(module_text(cal))
    page = DOCS.read_text()
    head, rest = page.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    DOCS.write_text(f"{head}{BEGIN}\n{docs_text(cal)}\n{END}{tail}")
    print(f"wrote {RATINGS_MODULE.relative_to(REPO)} and {DOCS.relative_to(REPO)}")


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument(
        "--pair-budget",
        type=int,
        default=120_000_000,
        help="positions to search for each pair of levels, which sets its games (default 120 M:"
        " some 2 min here)",
    )
    parser.add_argument("--min-games", type=int, default=12, help="games a pair at least")
    parser.add_argument("--max-games", type=int, default=80, help="games a pair at most")
    parser.add_argument("--games", type=int, help="the same games for every pair (a quick look)")
    parser.add_argument("--fairymax-games", type=int, default=20, help="games a level v Fairy-Max")
    parser.add_argument(
        "--anchor-levels",
        type=lambda text: [int(x) for x in text.split(",")],
        default=[14, 15, 16],
        help="levels that play Fairy-Max, comma-separated (default 14,15,16)",
    )
    parser.add_argument("--fairymax-depth", type=int, default=5, help="its plies (default 5)")
    parser.add_argument(
        "--nodes",
        type=int,
        default=levels.PI_MOVE_NODES,
        help="positions a move at most (default: the Pi's budget; less only for a quick look)",
    )
    parser.add_argument("--fairymax", default=DEFAULT_PATH, help=f"default {DEFAULT_PATH}")
    parser.add_argument("--positions", type=int, default=120, help="for the human-looking count")
    parser.add_argument("--plies", type=int, default=4, help="random opening plies (default 4)")
    parser.add_argument("--seed", type=int, default=26, help="seed of everything (default 26)")
    parser.add_argument("--concurrency", type=int, default=1, help="games at once (default 1)")
    parser.add_argument("--write", action="store_true", help="write ratings.py and docs/levels.md")
    args = parser.parse_args(argv)
    counts = (args.games or 2, args.min_games, args.max_games, args.fairymax_games)
    if any(n < 2 or n % 2 for n in counts):
        parser.error("games come in pairs (each opening with each colour): give even numbers")
    if not all(0 <= n <= MAX for n in args.anchor_levels):
        parser.error(f"--anchor-levels are levels from 0 to {MAX}")
    return args


def main(argv: Sequence[str]) -> int:
    args = parse_args(argv)
    if not os.access(args.fairymax, os.X_OK):
        print(f"levels: Fairy-Max is not installed ({args.fairymax}; Debian package fairymax)")
        return 1
    started = time.monotonic()
    anchor = f"Fairy-Max 5.0b searching {args.fairymax_depth} plies a move"
    print(
        f"bench/levels.py: seed {args.seed}, {args.nodes:,} positions a move at most, "
        f"anchor {anchor} = {ANCHOR_RATING}",
        flush=True,
    )
    human = human_looking(args, (0, 1, 2, 5, 10, MAX)) if args.positions else []
    for name, rate in human:
        print(f"{name}: gives material away in {rate:.1%} of the positions", flush=True)
    tallies = play_all(schedule(args, args.seed), args.concurrency)
    rows = rating_rows(fit(tallies, ANCHOR))
    shown = monotone(rows)
    print("level  rating  95 %      (as measured)")
    for (number, rating, error), (_, measured, _) in zip(shown, rows, strict=True):
        print(f"{number:5}  {rating:6}  ± {error:<6}  ({measured})")
    minutes = (time.monotonic() - started) / 60
    cpu = sum(
        getattr(resource.getrusage(who), part)
        for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
        for part in ("ru_utime", "ru_stime")
    )
    print(f"{minutes:.1f} min of wall time, {cpu / 60:.1f} min of CPU time")
    if args.write:
        command = ("bench/levels.py", *argv)
        made = datetime.date.today().isoformat()
        write(Calibration(shown, tallies, human, anchor, made, command, minutes))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        print("interrupted: nothing written")
        sys.exit(130)
