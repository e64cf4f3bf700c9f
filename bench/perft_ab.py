"""Perft speed of this tree's rules core against another tree's, in one process.

On a shared, busy machine two runs of ``bench/perft.py`` minutes apart differ
by more than any change worth measuring.  This loads the other tree's
``boardctl`` under the name ``boardctl_old`` beside this one and times
``bench/perft.py``'s Falcon cases with its own perft function, old and new
back to back (the order alternating), and prints the best speed of each and
the median of the per-repetition speed ratios.

Run: ``git worktree add --detach /tmp/perft-old main`` and then
``nice -n 19 .venv/bin/python bench/perft_ab.py /tmp/perft-old [REPETITIONS]``.
"""

from __future__ import annotations

import importlib
import importlib.util
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # this tree's boardctl, and the tests' helpers

from tests.pathimport import import_file  # noqa: E402


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit("usage: perft_ab.py OLD_TREE [REPETITIONS]")
    old_tree = Path(sys.argv[1]).resolve()
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 11
    import_file(old_tree / "boardctl", "boardctl_old")
    old = importlib.import_module("boardctl_old.rules")
    import boardctl.rules as new

    assert Path(new.__file__).is_relative_to(HERE.parent), new.__file__
    bench = import_file(HERE / "perft.py", "bench_perft")
    leaves: dict[str, Callable[[Any], int]] = {
        "counted": lambda pos: pos.count_legal(),
        "listed": lambda pos: len(pos.legal_codes()),
    }
    for mode, leaf in leaves.items():
        for name, fen, depth in bench.FALCON_CASES:
            # The middle game one ply less than bench/perft.py: many short
            # repetitions average the machine's load better than a few long.
            d = depth if fen is None else depth - 1
            positions = {
                label: rules.Position(fen, rules.get_variant("falcon"))
                for label, rules in (("old", old), ("new", new))
            }
            best = {"old": float("inf"), "new": float("inf")}
            ratios = []
            nodes = 0
            for i in range(reps):
                took = {}
                for label in ("old", "new") if i % 2 == 0 else ("new", "old"):
                    start = time.perf_counter()
                    nodes = bench.falcon_perft(positions[label], d, leaf)
                    took[label] = time.perf_counter() - start
                    best[label] = min(best[label], took[label])
                ratios.append(took["old"] / took["new"])
            print(
                f"{mode:8} {name:20} depth {d} {nodes:>8} nodes: "
                f"old {nodes / best['old']:>10,.0f} n/s, new {nodes / best['new']:>10,.0f} n/s"
                f" (best of {reps}); new/old {statistics.median(ratios):.3f} median"
                f" [{min(ratios):.2f}-{max(ratios):.2f}]",
                flush=True,
            )


if __name__ == "__main__":
    main()
