"""What the signed logs cost a board: signing and checking an entry, and
taking one into the record as games grow (docs/remote.md).

Prints, for this machine, the microseconds to sign an entry, to check its
signature, and to take a move into the record at plies 10, 100 and 300 (the
record moves on from the present state: the cost must not grow with the
game), and the same for a record derived again from the start, the
reference a rank conflict costs.  Usage: ``.venv/bin/python bench/remote_log.py``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from boardctl.remote.entry import Entry, Header
from boardctl.remote.keys import SigningKey
from boardctl.remote.record import Record, derive
from boardctl.rules import BLACK, WHITE
from tests.e2e.kill9_child import long_game

REPEAT = 200


def per_call(work, count: int = REPEAT) -> float:  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    for _ in range(count):
        work()
    return (time.perf_counter() - started) / count * 1e6


def main() -> None:
    keys = (SigningKey(), SigningKey())
    header = Header("0123456789abcdef", "falcon", "", WHITE, (600.0, 5.0), keys[WHITE].public)
    entry = Entry(header.key, WHITE, 1, header.root(), header.root(), "move", 1, "e2e4", 605.0)
    signed = entry.signed(keys[WHITE])
    print(f"sign an entry:              {per_call(lambda: entry.signed(keys[WHITE])):8.1f} µs")
    check = per_call(lambda: signed.signed_by(keys[WHITE].public))
    print(f"check its signature:        {check:8.1f} µs")
    moves = long_game(320, 1)
    record = Record(header, (keys[WHITE].public, keys[BLACK].public))
    taken: dict[int, float] = {}
    for ply, uci in enumerate(moves, start=1):
        side = (ply - 1) % 2
        log = record.logs[side]
        new = Entry(
            header.key, side, log.n + 1, log.digest, record.state.id, "move", ply, uci, 600.0
        )
        new = new.signed(keys[side])
        started = time.perf_counter()
        record.add(new)
        if ply in (10, 100, 300):
            taken[ply] = (time.perf_counter() - started) * 1e6
    for ply, micros in taken.items():
        print(f"take move {ply:3d} into the record: {micros:8.1f} µs")
    whole = per_call(lambda: derive(header, record.logs), 5)
    print(f"derive {len(moves)} plies from the start (a rank conflict): {whole / 1000:8.1f} ms")
    print(f"ratio, one move taken at ply 300 to one at ply 10: {taken[300] / taken[10]:.2f}")


if __name__ == "__main__":
    main()
