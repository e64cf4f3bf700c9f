"""Zobrist keys, fixed by a seed so a hash means the same in every process.

The engine's worker process and the daemon must agree on a position's hash,
so the keys come from a seeded generator, never from ``os.urandom``.
"""

from __future__ import annotations

import random
from functools import cache

_SEED = 0xF41C0_5


class ZobristKeys:
    def __init__(self, squares: int, files: int) -> None:
        rng = random.Random(_SEED)
        # piece[code][sq] for piece codes 0..15 (codes 0 and 8 stay zero).
        self.piece = [
            [0] * squares if code & 7 == 0 else [rng.getrandbits(64) for _ in range(squares)]
            for code in range(16)
        ]
        self.black_to_move = rng.getrandbits(64)
        self.castle = [rng.getrandbits(64) for _ in range(squares)]
        self.ep_file = [rng.getrandbits(64) for _ in range(files)]

    def castling(self, rights: int) -> int:
        key = 0
        while rights:
            low = rights & -rights
            key ^= self.castle[low.bit_length() - 1]
            rights ^= low
        return key


@cache
def keys_for(squares: int, files: int) -> ZobristKeys:
    return ZobristKeys(squares, files)
