"""The writer that tests/storage/test_store.py kills: adds moves until it is stopped.

Usage: ``python store_child.py DB``.  It resumes the unfinished game in DB (or
starts one), prints ``ready``, then after every :meth:`GameStore.add_move`
that has returned prints ``committed <ply>``, flushed, so the parent knows
which moves the store has promised to keep.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from boardctl.rules import VARIANTS
from boardctl.storage.store import GameStore

# Knights out and back: legal for ever, so the stored game always replays.
CYCLE = ("b1c3", "b8c6", "c3b1", "c6b8")
MAX_PLIES = 100_000  # a bound, in case nobody kills us


def main(db: Path) -> int:
    store = GameStore(db)
    stored = store.unfinished()
    if stored is None:
        start = VARIANTS["falcon"].start_fen
        game_id, ply = store.new_game("falcon", start, "child", "child", "test", time.time()), 0
    else:
        game_id, ply = stored.id, stored.plies
    print("ready", flush=True)
    while ply < MAX_PLIES:
        ply += 1
        store.add_move(game_id, ply, CYCLE[(ply - 1) % len(CYCLE)], time.time())
        print(f"committed {ply}", flush=True)
    store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
