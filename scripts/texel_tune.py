#!/usr/bin/env python3
"""Texel tuning: fit the evaluation's weights to game results.

Run (on positions from scripts/texel_data.py; CPU-heavy, so under ``nice``)::

    nice -n 19 .venv/bin/python scripts/texel_tune.py ~/.cache/boardctl/texel.txt \\
        --out /tmp/tuned.json

Every position is scored by the compiled core's static evaluation (the one
that plays; tests/engine/test_core.py keeps it equal to evaluate.py's), from
White's side, and the prediction of a game's result is
``1 / (1 + 10 ** (-K * eval / 400))``.  The loss is the mean squared error
between prediction and result (1, 1/2, 0).

1. K is fitted to the current weights and then held, so that the weights
   cannot shrink the loss by rescaling the whole evaluation.
2. Each round measures how the evaluation of every position moves with each
   tuned weight (the core is rebuilt with the weight raised by ``STEP``),
   descends the loss of that linear model (damped Gauss-Newton on all
   training positions at once, each weight moving at most a quarter of its
   value a round and never below zero), rounds the weights to whole
   centipawns and re-scores exactly.  ``--ridge`` adds a penalty for moving
   a weight from evaluate.py's value (relative to that value): a few hundred
   games decide material well and a pawn-structure term hardly at all.
3. The rounds stop at the first that does not lower the loss on the
   held-out positions; the weights before it are kept.

``--blend`` sets how much of a training position's target is its game's
result; the rest is the prediction from the score the engine's search gave
it during the game (texel_data.py records it), which is far less noisy than
a few hundred results.  Held-out positions are always judged by results.

The last fifth of the positions (later games: texel_data.py writes game by
game) is held out; the loss on it is printed each round, and the tuned
weights that differ from evaluate.py's are written as JSON (a name-to-value
object) for scripts/texel_selfplay.py to play against the current ones.
The piece-square tables are tuned through the few numbers that shape them
(evaluate.py's PAWN_ADVANCE, CENTRE, ROOK_SEVENTH, KING_CENTRE and the like),
not square by square.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from operator import mul
from pathlib import Path

import texel_data

from boardctl.engine import core
from boardctl.engine.weights import Weights, default_weights
from boardctl.rules import FenError, Position, get_variant

VARIANT = "falcon-xboard"
RESULTS = {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}
HELD_OUT = 0.2
STEP = 8  # centipawns a weight is raised by to measure its effect
# Weights left alone: the offsets and mobility baselines only shift a piece's
# value (material already tunes that); the cap of king danger and the passed
# bonuses on ranks no pawn stands on never move the evaluation; the danger's
# divisor and the full phase only rescale the danger scale and phase weights.
FIXED = (
    "offset",
    "baseline",
    "danger_cap",
    "danger_divisor",
    "full_phase",
    "passed.0",
    "passed.7",
    "passed.8",
    "passed.9",
)


@dataclass(frozen=True)
class Sample:
    """A position as the core's set_position takes it, and its game's result."""

    squares: list[int]
    turn: int
    rooks: list[int]
    ep: int
    halfmove: int
    result: float
    score: int | None = None  # the search's, from White's side, when the data has it


class DataError(Exception):
    """A line of the data file is not ``FEN;result``."""


def parse_line(line: str, variant_name: str = VARIANT) -> Sample:
    """One ``FEN;result`` or ``FEN;result;score`` line.

    :raises DataError: when it is malformed."""
    fen, *rest = line.strip().split(";")
    score: int | None = None
    if len(rest) == 2:
        try:
            score = int(rest[1])
        except ValueError:
            raise DataError(f"the score is not a whole number: {line.strip()!r}") from None
    if len(rest) not in (1, 2) or rest[0] not in RESULTS:
        raise DataError(
            "not 'FEN;result' or 'FEN;result;score' with a result of 1-0,"
            f" 1/2-1/2 or 0-1: {line.strip()!r}"
        )
    try:
        pos = Position(fen, get_variant(variant_name))
    except FenError as exc:
        raise DataError(f"bad FEN {fen!r}: {exc}") from None
    size = pos.geometry.size
    rooks = [sq for sq in range(size) if pos.castling >> sq & 1]
    ep = -1 if pos.ep_square is None else pos.ep_square
    return Sample(
        list(pos.squares), pos.turn, rooks, ep, pos.halfmove_clock, RESULTS[rest[0]], score
    )


def load(path: Path) -> list[Sample]:
    """Every position of a texel_data.py file.  :raises DataError:, :raises OSError:."""
    samples = []
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if line.strip():
                try:
                    samples.append(parse_line(line))
                except DataError as exc:
                    raise DataError(f"{path}:{number}: {exc}") from None
    return samples


def evaluations(samples: Sequence[Sample], weights: Weights) -> list[int]:
    """The compiled core's static evaluation of each sample, from White's side."""
    engine = core.build(get_variant(VARIANT), tt_bits=10, weights=weights)
    out = []
    for s in samples:
        engine.set_position(s.squares, s.turn, s.rooks, s.ep, s.halfmove, [])
        score = engine.evaluate()
        out.append(score if s.turn == 0 else -score)
    return out


def predict(score: float, k: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-k * score / 400.0))


def mse(scores: Sequence[float], results: Sequence[float], k: float) -> float:
    return sum((r - predict(e, k)) ** 2 for e, r in zip(scores, results, strict=True)) / len(scores)


def fit_k(scores: Sequence[float], results: Sequence[float]) -> float:
    """The K that minimises :func:`mse` (golden-section search on 0.05..5)."""
    low, high = 0.05, 5.0
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(40):
        a = high - ratio * (high - low)
        b = low + ratio * (high - low)
        if mse(scores, results, a) < mse(scores, results, b):
            high = b
        else:
            low = a
    return (low + high) / 2


def blended(samples: Sequence[Sample], k: float, blend: float) -> list[Sample]:
    """The samples with their target ``blend`` parts the game's result and
    the rest the prediction from the search's score, where there is one."""
    return [
        s
        if s.score is None
        else dataclasses.replace(s, result=blend * s.result + (1 - blend) * predict(s.score, k))
        for s in samples
    ]


def tunable(weights: Weights) -> list[str]:
    """The names :func:`tune` varies: all but :data:`FIXED`."""
    return [name for name in weights if not any(part in name for part in FIXED)]


def effects(
    samples: Sequence[Sample],
    weights: Weights,
    names: Sequence[str],
    base: Sequence[int],
) -> list[list[float]]:
    """For each name, how each sample's evaluation moves per centipawn of it."""
    columns = []
    for name in names:
        raised = dict(weights)
        raised[name] += STEP
        moved = evaluations(samples, raised)
        columns.append([(m - b) / STEP for m, b in zip(moved, base, strict=True)])
    return columns


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with ``matrix @ x == vector`` (Gaussian elimination, partial pivoting)."""
    n = len(vector)
    rows = [[*row, value] for row, value in zip(matrix, vector, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        head = rows[col][col]
        for r in range(col + 1, n):
            factor = rows[r][col] / head
            if factor:
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (rows[r][n] - sum(rows[r][c] * x[c] for c in range(r + 1, n))) / rows[r][r]
    return x


def descend(
    base: Sequence[float],
    columns: Sequence[Sequence[float]],
    results: Sequence[float],
    k: float,
    steps: int,
    damping: float,
    limits: Sequence[tuple[float, float]],
    prior: Sequence[tuple[float, float]] | None = None,
    ridge: float = 0.0,
) -> list[float]:
    """Changes to the weights that lower the loss of the linear model
    ``base + sum(change * column)``: damped Gauss-Newton (Levenberg-Marquardt
    with ``damping`` times the diagonal), each change kept within ``limits``
    (low, high).  Weights no position depends on are left alone.

    With a ``ridge``, the loss also counts ``ridge * ((drift + change) /
    scale) ** 2`` for each weight's (drift, scale) in ``prior``: how far it
    has already moved from where tuning began, and what counts as a large
    move for it.  That keeps weights the data hardly decides near their
    starting values instead of fitting the noise of a few hundred games."""
    n = len(base)
    width = len(columns)
    change = [0.0] * width
    prior = [(0.0, 1.0)] * width if prior is None else prior
    scale = k * math.log(10) / 400
    live = [j for j in range(width) if any(columns[j])]
    for _ in range(steps):
        scores = list(base)
        for j in live:
            if change[j]:
                c = change[j]
                scores = [s + c * x for s, x in zip(scores, columns[j], strict=True)]
        residuals = []
        slopes = []
        for s, r in zip(scores, results, strict=True):
            p = predict(s, k)
            residuals.append(p - r)
            slopes.append(p * (1 - p) * scale)
        weighted = {j: list(map(mul, slopes, columns[j])) for j in live}
        gradient = [sum(map(mul, residuals, weighted[j])) / n for j in live]
        hessian = [[sum(map(mul, weighted[j], weighted[m])) / n for m in live] for j in live]
        for i, j in enumerate(live):
            drift, scale = prior[j]
            # Halved like the squared error's terms, whose 2 both sides drop.
            gradient[i] += ridge * (drift + change[j]) / scale**2
            hessian[i][i] = (hessian[i][i] + ridge / scale**2) * (1 + damping) + 1e-12
        step = solve(hessian, [-g for g in gradient])
        for i, j in enumerate(live):
            low, high = limits[j]
            change[j] = min(max(change[j] + step[i], low), high)
    return change


@dataclass
class Round:
    number: int
    train: float
    held_out: float


def limits_for(weights: Weights, names: Sequence[str]) -> list[tuple[float, float]]:
    """How far one round may move each weight: a quarter of it (at least
    ``STEP``), and never below zero (every weight is a bonus or a penalty
    whose sign the evaluation's code gives)."""
    out = []
    for name in names:
        value = weights[name]
        reach = max(STEP, abs(value) / 4)
        out.append((max(-reach, -value), reach))
    return out


def tune(
    train: Sequence[Sample],
    held: Sequence[Sample],
    weights: dict[str, int],
    k: float,
    rounds: int,
    steps: int,
    damping: float,
    names: Sequence[str] | None = None,
    ridge: float = 0.0,
    report: bool = True,
) -> tuple[dict[str, int], list[Round]]:
    """Tuned weights and the exact losses after each round (round 0: before).

    The rounds stop at the first that does not lower the loss on the held-out
    positions (on the training ones when none are held out), and the weights
    before it are returned: more rounds would fit the training games' noise.
    """
    names = tunable(weights) if names is None else list(names)
    start = dict(weights)
    scales = [max(STEP, abs(start[name])) for name in names]
    results = [s.result for s in train]
    held_results = [s.result for s in held]
    base = evaluations(train, weights)

    def judged(train_loss: float, held_loss: float) -> float:
        return held_loss if held else train_loss

    train_loss = mse(base, results, k)
    curve = [
        Round(0, train_loss, mse(evaluations(held, weights), held_results, k) if held else 0.0)
    ]
    if report:
        print(
            f"round 0: train MSE {curve[0].train:.6f}, held-out {curve[0].held_out:.6f}", flush=True
        )
    for number in range(1, rounds + 1):
        columns = effects(train, weights, names, base)
        prior = [
            (weights[name] - start[name], scale) for name, scale in zip(names, scales, strict=True)
        ]
        change = descend(
            base, columns, results, k, steps, damping, limits_for(weights, names), prior, ridge
        )
        candidate = dict(weights)
        for name, delta in zip(names, change, strict=True):
            candidate[name] = round(weights[name] + delta)
        scores = evaluations(train, candidate)
        loss = mse(scores, results, k)
        held_loss = mse(evaluations(held, candidate), held_results, k) if held else 0.0
        if report:
            print(f"round {number}: train MSE {loss:.6f}, held-out {held_loss:.6f}", flush=True)
        if judged(loss, held_loss) >= judged(curve[-1].train, curve[-1].held_out):
            if report:
                print(f"round {number} does not improve: keep round {number - 1}", flush=True)
            break
        weights, base = candidate, scores
        curve.append(Round(number, loss, held_loss))
    return weights, curve


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("data", type=Path, nargs="+", help="texel_data.py output files")
    parser.add_argument(
        "--out", type=Path, required=True, help="where to write the tuned weights (JSON)"
    )
    parser.add_argument("--limit", type=int, help="use at most this many positions")
    parser.add_argument("--rounds", type=int, default=3, help="linearise-and-descend rounds")
    parser.add_argument(
        "--steps", type=int, default=4, help="Gauss-Newton steps a round (default 4)"
    )
    parser.add_argument(
        "--damping",
        type=float,
        default=0.5,
        help="Levenberg-Marquardt damping, times the diagonal (default 0.5)",
    )
    parser.add_argument(
        "--ridge",
        type=float,
        default=0.0,
        help="pull towards evaluate.py's weights: the loss counts ridge times"
        " the squared relative change of each (default 0)",
    )
    parser.add_argument(
        "--blend",
        type=float,
        default=1.0,
        help="how much of a position's target is its game's result; the rest"
        " is the search's score through the same sigmoid (default 1)",
    )
    parser.add_argument(
        "--only", help="comma-separated weight names to tune (default: all but the fixed ones)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed for --limit's sample")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.steps < 1 or args.damping < 0 or args.ridge < 0:
        parser.error("--rounds and --steps must be 1 or more, --damping and --ridge 0 or more")
    if not 0 <= args.blend <= 1:
        parser.error("--blend must be between 0 and 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if texel_data.core_missing("texel_tune"):
        return 2
    try:
        samples = [s for path in args.data for s in load(path)]
    except (OSError, DataError) as exc:
        return texel_data.unreadable("texel_tune", exc)
    cut = int(len(samples) * (1 - HELD_OUT))
    train, held = samples[:cut], samples[cut:]
    if args.limit is not None and args.limit < len(train):
        train = random.Random(args.seed).sample(train, args.limit)
    weights = default_weights()
    names = tunable(weights)
    if args.only:
        names = args.only.split(",")
        unknown = [name for name in names if name not in weights]
        if unknown:
            print(f"texel_tune: no such weight: {', '.join(unknown)}", file=sys.stderr)
            return 2
    if len(train) < 2 or not held:
        print("texel_tune: too few positions to tune and hold out", file=sys.stderr)
        return 2
    k = fit_k(evaluations(train, weights), [s.result for s in train])
    # The held-out positions keep the results alone, so that their loss
    # measures the same thing whatever the blend.
    train = blended(train, k, args.blend)
    print(
        f"{len(train)} training positions, {len(held)} held out; {len(names)} weights;"
        f" K = {k:.4f}; targets {args.blend:g} result",
        flush=True,
    )
    tuned, curve = tune(
        train, held, weights, k, args.rounds, args.steps, args.damping, names, args.ridge
    )
    changed = {name: value for name, value in tuned.items() if value != weights[name]}
    for name, value in changed.items():
        print(f"  {name:20s} {weights[name]:5d} -> {value:5d}")
    print(
        f"MSE train {curve[0].train:.6f} -> {curve[-1].train:.6f},"
        f" held-out {curve[0].held_out:.6f} -> {curve[-1].held_out:.6f}"
    )
    try:
        args.out.write_text(json.dumps(changed, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        print(f"texel_tune: cannot write {args.out}: {exc.strerror}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
