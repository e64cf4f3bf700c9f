#!/usr/bin/env python3
"""K+F v K+P: when does king and falcon beat king and pawn?  A lower bound.

  scripts/tablebase_pawn.py                 build it for 10×8 and print its figures
  scripts/tablebase_pawn.py --verify N      also check N random positions against
                                            the rules core (0: every position)

A retrograde table like the K+F v K one (boardctl/engine/tablebase.py), with
one conservative rule so that it needs no table of K+F v K+Q, +F, +R, +B, +N:
a promotion counts as "not won" for the falcon's side.  So a position the
table calls won is won (mate in the DTM it gives, through the falcon's
capture of the pawn into a won K+F v K where that is faster), and one it
calls not won may still be won by catching the new piece, drawn or lost.
The falcon's capture (by the pawn or the bare king) and stalemate are not
won either.  The pawn side's own wins are not computed.

Only the files a to half-way hold the pawn (the mirror of the files gives
the rest), as in the K+F v K table the falcon's side is White, and the pawn
steps twice from the squares the preset's start position gives it.  The
table is for these figures only: the engine does not read it.
"""

from __future__ import annotations

import random
import sys
import time
from array import array
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tablebase import Parser, board_side, legal_and_drawn, placed, variant_for

from boardctl.engine import tablebase
from boardctl.engine.tablebase import DRAW, ILLEGAL, FalconTable
from boardctl.rules import Position, Variant
from boardctl.rules.fen import pawn_start_squares
from boardctl.rules.pieces import BLACK, FALCON, KING, PAWN


class PawnTable:
    """DTM for K+F v K+P, the falcon's side White, the pawn on the left half.

    ``strong`` and ``weak`` hold, by :meth:`index`, ``DRAW`` (not won for the
    falcon's side), ``ILLEGAL`` or the DTM in plies plus one.
    """

    def __init__(self, variant: Variant, kfk: FalconTable) -> None:
        geo = variant.geometry
        self.variant = variant
        self.geo = geo
        self.kfk = kfk
        n = geo.size
        self.size = n
        half = (geo.files + 1) // 2
        self.pawn_squares = [
            sq for sq in range(n) if 0 < geo.rank_of(sq) < geo.ranks - 1 and geo.file_of(sq) < half
        ]
        self.pawn_index = [-1] * n
        for i, sq in enumerate(self.pawn_squares):
            self.pawn_index[sq] = i
        self.count = n**3 * len(self.pawn_squares)
        self.strong = bytearray([ILLEGAL]) * self.count
        self.weak = bytearray([ILLEGAL]) * self.count
        self.double_from = pawn_start_squares(variant)[BLACK]

    def index(self, k: int, f: int, b: int, p: int) -> int:
        return ((k * self.size + f) * self.size + b) * len(self.pawn_squares) + self.pawn_index[p]

    def squares(self, i: int) -> tuple[int, int, int, int]:
        n, pawns = self.size, len(self.pawn_squares)
        i, pi = divmod(i, pawns)
        i, b = divmod(i, n)
        k, f = divmod(i, n)
        return k, f, b, self.pawn_squares[pi]

    def canonical(self, k: int, f: int, b: int, p: int) -> tuple[int, int, int, int]:
        """The same position with the pawn on the left half of the board."""
        if self.pawn_index[p] >= 0:
            return k, f, b, p
        files = self.geo.files

        def mirror(sq: int) -> int:
            return sq - sq % files + files - 1 - sq % files

        return mirror(k), mirror(f), mirror(b), mirror(p)

    def fen(self, k: int, f: int, b: int, p: int, strong_to_move: bool) -> str:
        return tablebase.fen_with(self.geo, {k: "K", f: "F", b: "k", p: "p"}, strong_to_move)

    def build(self) -> None:
        """Retrograde analysis, as :func:`boardctl.engine.tablebase.generate`,
        with the captures of the pawn as wins seeded at their K+F v K DTM."""
        geo, t, n = self.geo, self.geo.tables, self.size
        files = geo.files
        king_bb = t.king
        pawn_att = t.pawn_attacks[BLACK]
        falcon_attacks = t.falcon_attacks
        kfk_weak, kfk_index = self.kfk.weak, self.kfk.index
        strong, weak = self.strong, self.weak
        moves_left = bytearray(self.count)
        pawns = len(self.pawn_squares)
        seeds: dict[int, array[int]] = {}
        lost = array("I")
        for k in range(n):
            kb = 1 << k
            for f in range(n):
                if f == k:
                    continue
                fb = 1 << f
                for b in range(n):
                    bb = 1 << b
                    if b in (k, f) or king_bb[k] & bb:
                        continue
                    base = ((k * n + f) * n + b) * pawns
                    for pi, p in enumerate(self.pawn_squares):
                        pb = 1 << p
                        if p in (k, f, b):
                            continue
                        occ = kb | fb | bb | pb
                        i = base + pi
                        if not falcon_attacks(f, occ) & bb:
                            strong[i] = DRAW
                            best = 0
                            # The falcon's side takes the pawn: K+F v K, bare king to move.
                            if king_bb[k] & pb and not king_bb[b] & pb:
                                best = kfk_weak[kfk_index(p, f, b)]
                            if falcon_attacks(f, occ) & pb:
                                value = kfk_weak[kfk_index(k, p, b)]
                                if value not in (DRAW, ILLEGAL) and (not best or value < best):
                                    best = value
                            if best not in (0, DRAW, ILLEGAL):
                                seeds.setdefault(best + 1, array("I")).append(i)
                        if pawn_att[p] & kb:
                            continue  # the bare king's side to move with the other king in check
                        self._count_weak(i, k, f, b, p, occ, moves_left, lost)
        plies = 0
        while lost or any(v > plies for v in seeds):
            value = plies + 2
            won = array("I")
            for i in seeds.pop(value, array("I")):
                if strong[i] == DRAW:
                    strong[i] = value
                    won.append(i)
            for i in lost:
                k, f, b, p = self.squares(i)
                kb, fb, bb, pb = 1 << k, 1 << f, 1 << b, 1 << p
                occ = kb | fb | bb | pb
                base_kfp = p  # the pawn stays: the predecessor is canonical too
                for s in geo.squares(king_bb[k] & ~occ & ~king_bb[b]):
                    j = self.index(s, f, b, base_kfp)
                    if strong[j] == DRAW:
                        strong[j] = value
                        won.append(j)
                for s in geo.squares(falcon_attacks(f, occ) & ~occ):
                    j = self.index(k, s, b, p)
                    if strong[j] == DRAW:
                        strong[j] = value
                        won.append(j)
            lost = array("I")
            value = plies + 3
            for i in won:
                k, f, b, p = self.squares(i)
                kb, fb, bb, pb = 1 << k, 1 << f, 1 << b, 1 << p
                occ = kb | fb | bb | pb
                sources = [
                    self.index(k, f, s, p) for s in geo.squares(king_bb[b] & ~occ & ~king_bb[k])
                ]
                back = p + files
                if not occ >> back & 1 and self.pawn_index[back] >= 0:
                    sources.append(self.index(k, f, b, back))
                    start = back + files
                    if start < n and self.double_from >> start & 1 and not occ >> start & 1:
                        sources.append(self.index(k, f, b, start))
                tablebase.count_down(weak, moves_left, sources, value, lost)
            plies += 2
            if value >= ILLEGAL:
                raise OverflowError("a DTM beyond a byte")

    def _count_weak(
        self,
        i: int,
        k: int,
        f: int,
        b: int,
        p: int,
        occ: int,
        moves_left: bytearray,
        lost: array[int],
    ) -> None:
        """The bare king's side to move: its moves that may lose (escapes,
        the falcon's capture and promotion, are counted but never lose)."""
        geo, t = self.geo, self.geo.tables
        files = geo.files
        bb = 1 << b
        falcon_attacks = t.falcon_attacks
        checked = falcon_attacks(f, occ) & bb
        moves = 0
        # King moves: not beside the other king, not where the falcon reaches
        # with the king gone from b; taking the falcon is an escape.
        without = occ & ~bb
        for d in geo.squares(t.king[b] & ~t.king[k] & ~(1 << p)):
            if d == f or not falcon_attacks(f, without) >> d & 1:
                moves += 1
        # Pawn moves, legal when they leave the king out of the falcon's reach.
        without = occ & ~(1 << p)
        if t.pawn_attacks[BLACK][p] >> f & 1:
            moves += 1  # takes the falcon
        ahead = p - files
        if not occ >> ahead & 1:
            if not falcon_attacks(f, without | 1 << ahead) & bb:
                moves += 1  # a push, or a promotion (an escape)
            two = ahead - files
            if (
                self.double_from >> p & 1
                and two >= 0
                and not occ >> two & 1
                and not falcon_attacks(f, without | 1 << two) & bb
            ):
                moves += 1
        moves_left[i] = moves
        if moves:
            self.weak[i] = DRAW
        elif checked:
            self.weak[i] = 1
            lost.append(i)
        else:
            self.weak[i] = DRAW  # stalemate
            moves_left[i] = 1

    def value(self, pos: Position) -> int | None:
        """DTM for any position this table reaches (K+F v K+P, K+F v K, or
        the falcon or the pawn gone), None when not won for the falcon's side."""
        pieces = pos.pieces
        if (
            not pieces[FALCON]
            or pieces[PAWN] & pos.colors[0]
            or pos.colors[1] & ~(pieces[KING] | pieces[PAWN])
        ):
            return None  # the falcon is gone, or a pawn promoted
        if not pieces[PAWN]:
            return tablebase.value(pos, self.kfk)
        k, b = pos.kings
        f = pieces[FALCON].bit_length() - 1
        p = pieces[PAWN].bit_length() - 1
        k, f, b, p = self.canonical(k, f, b, p)
        stored = (self.strong if pos.turn == 0 else self.weak)[self.index(k, f, b, p)]
        if stored == ILLEGAL:
            raise ValueError(f"{pos.fen()}: illegal in the table")
        return None if stored == DRAW else stored - 1


def expected(table: PawnTable, pos: Position) -> int | None:
    """The value ``pos`` must have, from its legal moves by the rules core."""
    codes = pos.legal_codes()
    if not codes:
        return 0 if pos.turn == 1 and pos.is_check() else None
    after = []
    for code in codes:
        pos.make(code)
        after.append(table.value(pos))
        pos.unmake()
    if pos.turn == 0:
        wins = [d for d in after if d is not None]
        return min(wins) + 1 if wins else None
    if None in after:
        return None
    return max(d for d in after if d is not None) + 1


def verify(table: PawnTable, count: int, seed: int) -> int:
    """Positions checked against the rules core (every one when count is 0)."""
    rng = random.Random(seed)
    pos = Position(variant=table.variant)
    checked = 0
    every = range(table.count) if count == 0 else (rng.randrange(table.count) for _ in range(count))
    for i in every:
        k, f, b, p = table.squares(i)
        if len({k, f, b, p}) < 4:
            continue
        for strong_to_move, side in ((True, table.strong), (False, table.weak)):
            stored = side[i]
            fen = table.fen(k, f, b, p, strong_to_move)
            if not placed(pos, fen, stored, fen, fail):
                continue
            want = expected(table, pos)
            have = None if stored == DRAW else stored - 1
            if stored == ILLEGAL or want != have:
                fail(f"{pos.fen()}: {have} in the table, {want} by its moves")
            checked += 1
    return checked


def fail(message: str) -> None:
    print(f"tablebase_pawn: {message}", file=sys.stderr)
    sys.exit(1)


def figures(table: PawnTable, seconds: float) -> None:
    for name, side in (("falcon's side", table.strong), ("pawn's side", table.weak)):
        legal, drawn = legal_and_drawn(side)
        print(
            f"{name} to move: {legal:,} legal positions (pawn on the left half), "
            f"{legal - drawn:,} won for the falcon ({100 * (legal - drawn) / legal:.1f} %), "
            f"{drawn:,} not proven"
        )
    longest = max(v for v in table.strong if v != ILLEGAL) - 1
    i = table.strong.index(longest + 1)
    print(
        f"longest win, falcon's side to move: DTM {longest} plies, e.g. "
        f"{table.fen(*table.squares(i), True)}"
    )
    by_rank: Counter[int] = Counter()
    legal_rank: Counter[int] = Counter()
    for i, stored in enumerate(table.strong):
        if stored != ILLEGAL:
            rank = table.geo.rank_of(table.squares(i)[3]) + 1
            legal_rank[rank] += 1
            by_rank[rank] += stored != DRAW
    print(
        "won with the falcon's side to move, by the pawn's rank: "
        + ", ".join(
            f"{rank}: {100 * by_rank[rank] / legal_rank[rank]:.1f} %"
            for rank in sorted(legal_rank, reverse=True)
        )
    )
    print(f"built in {seconds:.0f} s of CPU")


def main(argv: list[str]) -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=board_side, default=10)
    parser.add_argument("--ranks", type=board_side, default=8)
    parser.add_argument("--verify", type=int, default=None, metavar="N")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    variant = variant_for(args.files, args.ranks)
    start = time.process_time()
    table = PawnTable(variant, tablebase.generate(variant.geometry))
    table.build()
    figures(table, time.process_time() - start)
    if args.verify is not None:
        start = time.process_time()
        checked = verify(table, args.verify, args.seed)
        print(f"rules core: {checked:,} positions agree ({time.process_time() - start:.0f} s)")


if __name__ == "__main__":
    main(sys.argv[1:])
