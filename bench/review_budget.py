"""A review at a Raspberry Pi's budget: what a second a position gives there.

The review gives each position ``movetime`` seconds (``[review] movetime``,
default 1 s), so on a Pi a review takes as long as here, position for
position, and sees less.  How much less is measured here without a Pi: a
Pi 4 core searches ``PI_MOVE_NODES`` positions in the engine's default 3 s a
move (``boardctl/engine/levels.py``: this machine's figure over
``bench/piratio.py``'s ratio), so a Pi's second is a third of that.  Each
game is reviewed twice in this run:

- here, at ``--movetime`` seconds a position (the reference);
- at a Pi's second: a cap of ``PI_MOVE_NODES / 3`` positions a position,
  which no load or speed of this machine changes.

Printed per game and in all: the positions, the review's seconds a position
here, the depth each reached (median and least), the marks (?!, ?, ??) each
gave, and how many moves both graded alike.  The games: the engine against
itself at depth 1 with a random move one time in four (``bench/review.py``'s),
so that there are mistakes to mark.

Prints figures only; nothing here is a test.  Run:
``.venv/bin/python bench/review_budget.py`` (about 3 minutes: 3 games of at
most 40 plies, each reviewed in about 40 s here and 15 s at the Pi's budget).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import review as live_review  # bench/review.py: its games

from boardctl.config import EngineConfig
from boardctl.engine import Engine, Info, Limits
from boardctl.engine.levels import PI_MOVE_NODES
from boardctl.review.analysis import DEFAULT_MOVETIME, analyse
from boardctl.rules import Game, Move, Position
from boardctl.storage.reviews import Review

PI_SECOND_NODES = round(PI_MOVE_NODES / EngineConfig().movetime)  # a Pi's positions a second
MARKS = {6: "?!", 2: "?", 4: "??"}  # NAG numbers (PGN standard)


class Depths(Engine):
    """The engine, noting the depth each search reached."""

    def __init__(self) -> None:
        super().__init__(seed=1)
        self.reached: list[int] = []

    def search(
        self,
        pos: Position,
        limits: Limits,
        stop: Callable[[], bool] | None = None,
        on_info: Callable[[Info], None] | None = None,
        among: Collection[Move] | None = None,
    ) -> Move | None:
        infos: list[Info] = []

        def heard(info: Info) -> None:
            infos.append(info)
            if on_info is not None:
                on_info(info)

        move = super().search(pos, limits, stop, heard, among)
        if infos and limits.depth != 1:  # the review's one-ply fallback is not a search
            self.reached.append(infos[-1].depth)
        return move


def reviewed(game: Game, limits: Limits) -> tuple[Review, list[int], float]:
    """The review of ``game`` under ``limits``, its depths, its wall seconds."""
    engine = Depths()
    began = time.monotonic()
    review = analyse(game, engine, limits, time.time())
    return review, engine.reached, time.monotonic() - began


def marks(review: Review) -> Counter[str]:
    return Counter(MARKS[p.nag] for p in review.positions[1:] if p.nag in MARKS)


def shown(counted: Counter[str]) -> str:
    return " ".join(f"{mark} {counted[mark]}" for mark in ("?!", "?", "??"))


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--plies", type=int, default=40)
    parser.add_argument("--movetime", type=float, default=DEFAULT_MOVETIME)
    args = parser.parse_args(argv)
    print(
        f"review_budget: {args.games} games of at most {args.plies} plies; here "
        f"{args.movetime:g} s a position, a Pi's second {PI_SECOND_NODES:,} positions a position"
    )
    depths: dict[str, list[int]] = {"here": [], "pi": []}
    same = graded = 0
    seconds = positions = 0.0
    for seed in range(args.games):
        game = live_review.played(args.plies, seed)
        here, here_depths, spent = reviewed(game, Limits(movetime=args.movetime))
        pi, pi_depths, _ = reviewed(game, Limits(nodes=PI_SECOND_NODES))
        depths["here"] += here_depths
        depths["pi"] += pi_depths
        seconds += spent
        positions += len(here.positions)
        pairs = list(zip(here.positions[1:], pi.positions[1:], strict=True))
        same += sum(a.nag == b.nag for a, b in pairs)
        graded += len(pairs)
        print(
            f"  game {seed}: {len(game.moves)} plies, {spent / len(here.positions):.2f} s a "
            f"position here; depth {statistics.median(here_depths):g} here, "
            f"{statistics.median(pi_depths):g} at a Pi's second; marks here {shown(marks(here))}"
            f", at a Pi's second {shown(marks(pi))}; "
            f"{sum(a.nag == b.nag for a, b in pairs)}/{len(pairs)} moves graded alike"
        )
    for name, found in depths.items():
        print(
            f"{name:>5}: depth median {statistics.median(found):g}, least {min(found)}, "
            f"most {max(found)} over {len(found)} searches"
        )
    print(f"review here: {seconds / positions:.2f} s a position")
    print(f"moves graded alike at both budgets: {same}/{graded} ({same / graded:.0%})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
