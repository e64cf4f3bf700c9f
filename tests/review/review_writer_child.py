"""Keeps a review of a stored game, as a review's process does; killed by
tests/review/test_background.py half-way through the write.

Usage: ``python review_writer_child.py DB GAME STALL``.  With STALL ``no`` it
writes a review (movetime 1.0) and prints ``written``; with ``yes`` it writes
another (movetime 2.0) whose rows stop coming half-way: it prints ``half
written`` there, inside the transaction, and waits to be killed.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path

from boardctl.storage.reviews import Review, ReviewedPosition
from boardctl.storage.store import GameStore

STALL_LIMIT = 60.0  # seconds it waits to be killed, in case nobody does


class Stalling(tuple):  # type: ignore[type-arg]
    """The positions of a review, which stop coming after the first."""

    def __iter__(self) -> Iterator[ReviewedPosition]:
        yield self[0]
        print("half written", flush=True)
        time.sleep(STALL_LIMIT)
        yield from self[1:]


def main(db: Path, game_id: int, stall: bool) -> int:
    positions = (
        ReviewedPosition(0, None, "e1e8"),
        ReviewedPosition(-900, None, "a5e1", 4),
        ReviewedPosition(900, None, None),
    )
    review = Review(0.0, 2.0 if stall else 1.0, None, Stalling(positions) if stall else positions)
    with GameStore(db, move_aside=False) as store:
        store.save_review(game_id, review)
    print("written", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "yes"))
