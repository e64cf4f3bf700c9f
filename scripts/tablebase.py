#!/usr/bin/env python3
"""Build the K+F v K tablebase for a board size, check it, and ship it.

  scripts/tablebase.py                    build 10×8 and print its figures
  scripts/tablebase.py --verify           also check it against the rules core
  scripts/tablebase.py --write            also write boardctl/engine/data/kfk-10x8.xz
  scripts/tablebase.py --files 8 --ranks 8 --verify --write    the same for 8×8

The figures: legal positions for each side to move, how many are won, lost
and drawn, the checkmates, the longest mate with its FEN and its line, the
DTM histogram and the build time.  ``--verify`` checks, with the rules core
and nothing of the generator:

* every position, both sides to move: illegal exactly when ``Position``
  refuses its FEN, and its value follows from its legal moves (won in d:
  some move reaches lost in d−1, none sooner; lost in d: every move reaches
  won, the slowest in d−1; a checkmate is lost in 0; stalemate and the
  falcon's capture are draws);
* every checkmate is a checkmate for ``Game.outcome``;
* the table is the same under the mirror of the files and of the ranks;
* a sample of positions (``--sample``) against a brute-force search that
  knows no table: mate within the DTM, and none two plies sooner;
* a sample of deeper positions against the engine's own search (table off):
  it never finds a mate shorter than the table's;
* the shipped file, when there is one, holds exactly this table.

Run it under ``nice -n 19``: building 10×8 takes seconds, ``--verify`` a
few minutes.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

from boardctl.engine import tablebase
from boardctl.engine.limits import Limits
from boardctl.engine.search import Engine
from boardctl.engine.tablebase import DRAW, ILLEGAL, FalconTable
from boardctl.rules import (
    VARIANTS,
    FenError,
    Game,
    Geometry,
    Position,
    Termination,
    Variant,
    san,
)

DATA = Path(__file__).resolve().parent.parent / "boardctl" / "engine" / "data"
MAX_SIDE = 12  # 12×12 is 3.0 million positions a side: minutes, not hours
BRUTE_MAX_DTM = 5  # the brute-force search proves "none sooner" up to here
ENGINE_DEPTH = 9


def variant_for(files: int, ranks: int) -> Variant:
    """A preset of this board size, or one made up with pawns on the second
    ranks, as in chess (only the board and the pawns' double steps matter
    here: there is no castling in these endings)."""
    for variant in VARIANTS.values():
        if variant.geometry == Geometry(files, ranks):
            return variant
    rows = [f"k{files - 1}", "p" * files, *[str(files)] * (ranks - 4), "P" * files, f"K{files - 1}"]
    if ranks < 5:
        rows = [f"k{files - 1}", *[str(files)] * (ranks - 2), f"K{files - 1}"]
    return Variant(
        f"kfk-{files}x{ranks}",
        "K+F v K board",
        Geometry(files, ranks),
        "/".join(rows) + " w - - 0 1",
        king_file=0,
    )


def legal_and_drawn(side: Sequence[int]) -> tuple[int, int]:
    """How many positions of one side to move are legal, and how many drawn."""
    return len(side) - side.count(ILLEGAL), side.count(DRAW)


def figures(table: FalconTable, geo: Geometry, seconds: float) -> None:
    for name, side in (("falcon's side", table.strong), ("bare king", table.weak)):
        legal, drawn = legal_and_drawn(side)
        print(
            f"{name} to move: {legal:,} legal positions, {legal - drawn:,} "
            f"{'won' if side is table.strong else 'lost'}, {drawn:,} drawn"
        )
    n = geo.size
    king = geo.tables.king
    loose = 0  # the bare king may take the falcon: it stands beside it and not the other king
    for i, stored in enumerate(table.weak):
        falcon = i // n % n
        loose += stored == DRAW and bool(king[i % n] >> falcon & ~king[i // (n * n)] >> falcon & 1)
    drawn = table.weak.count(DRAW)
    print(
        f"  of the draws, {loose:,} with the falcon loose beside the bare king, "
        f"{drawn - loose:,} others"
    )
    print(f"checkmates: {table.weak.count(1):,}")
    for strong_to_move, side in ((True, table.strong), (False, table.weak)):
        longest = max(v for v in side if v != ILLEGAL) - 1
        i = side.index(longest + 1)
        where = (i // (n * n), i // n % n, i % n)
        fen = tablebase.fen_of(geo, *where, strong_to_move)
        count = side.count(longest + 1)
        print(
            f"longest, {'falcon' if strong_to_move else 'bare king'} to move: "
            f"DTM {longest} plies ({count} positions), e.g. {fen}"
        )
        if strong_to_move:
            print(f"  line: {line_text(fen, variant_for(geo.files, geo.ranks), table)}")
    spread = Counter(v - 1 for v in table.strong if v not in (ILLEGAL, DRAW))
    print("won positions by mate in N moves (falcon's side to move):")
    print("  " + ", ".join(f"{(d + 1) // 2}: {spread[d]}" for d in sorted(spread)))
    print(f"built in {seconds:.1f} s of CPU")


def line_text(fen: str, variant: Variant, table: FalconTable) -> str:
    """The table's line from ``fen`` to mate, in SAN."""
    pos = Position(fen, variant)
    words = []
    while True:
        step = tablebase.choose(pos, table)
        if step is None or step[1] is None:
            return " ".join(words) + " (drawn)"
        move = pos.to_move(step[0])
        words.append(san(pos, move))
        pos.make(step[0])
        if step[1] == 1:
            return " ".join(words)


def verify_rules(table: FalconTable, variant: Variant) -> tuple[int, int]:
    """Every position against the rules core (see module docstring): how
    many were checked, and how many of them are stalemates."""
    geo = variant.geometry
    n = geo.size
    pos = Position(variant=variant)
    checked = stalemates = 0
    for k in range(n):
        for f in range(n):
            if f == k:
                continue
            for b in range(n):
                if b in (k, f):
                    continue
                for strong_to_move in (True, False):
                    stored = (table.strong if strong_to_move else table.weak)[table.index(k, f, b)]
                    fen = tablebase.fen_of(geo, k, f, b, strong_to_move)
                    where = f"{geo.name(k)} {geo.name(f)} {geo.name(b)}"
                    if not placed(pos, fen, stored, where, fail):
                        continue
                    expected = expected_value(pos, table, strong_to_move)
                    if stored != expected:
                        fail(f"{pos.fen()}: {stored} in the table, {expected} by its moves")
                    stalemates += stored == DRAW and not pos.count_legal()
                    if stored == 1:
                        game = Game(variant, pos.fen())
                        outcome = game.outcome()
                        if outcome is None or outcome.termination != Termination.CHECKMATE:
                            fail(f"{pos.fen()}: not a checkmate for Game")
                    checked += 1
    return checked, stalemates


def placed(pos: Position, fen: str, stored: int, where: str, fail: Callable[[str], None]) -> bool:
    """Whether the rules core sets ``pos`` to ``fen``; one it refuses must be
    ILLEGAL in the table (``stored``), or ``fail`` is told so of ``where``."""
    try:
        pos.set_fen(fen)
    except FenError:
        if stored != ILLEGAL:
            fail(f"{where}: refused by the rules core, {stored} in the table")
        return False
    return True


def expected_value(pos: Position, table: FalconTable, strong_to_move: bool) -> int:
    """The table value ``pos`` must hold, from its successors' values."""
    codes = pos.legal_codes()
    if not codes:
        return 1 if pos.is_check() else DRAW
    after = []
    for code in codes:
        pos.make(code)
        after.append(tablebase.value(pos, table))
        pos.unmake()
    if strong_to_move:
        wins = [d for d in after if d is not None]
        return min(wins) + 2 if wins else DRAW
    if None in after:
        return DRAW
    return max(d for d in after if d is not None) + 2


def verify_symmetry(table: FalconTable, geo: Geometry) -> None:
    n = geo.size

    def by_files(sq: int) -> int:
        return geo.square(geo.files - 1 - geo.file_of(sq), geo.rank_of(sq))

    def by_ranks(sq: int) -> int:
        return geo.square(geo.file_of(sq), geo.ranks - 1 - geo.rank_of(sq))

    for mirror in (by_files, by_ranks):
        for side in (table.strong, table.weak):
            for i, stored in enumerate(side):
                k, f, b = i // (n * n), i // n % n, i % n
                if k in (f, b) or f == b:
                    continue
                if side[table.index(mirror(k), mirror(f), mirror(b))] != stored:
                    fail(f"mirror of {geo.name(k)} {geo.name(f)} {geo.name(b)} differs")


def mate_within(pos: Position, plies: int, strong: int) -> bool:
    """Whether ``strong`` forces mate within ``plies`` (brute force, no table)."""
    codes = pos.legal_codes()
    if not codes:
        return pos.turn != strong and pos.is_check()
    if plies <= 0:
        return False
    if pos.turn == strong:
        for code in codes:
            pos.make(code)
            found = mate_within(pos, plies - 1, strong)
            pos.unmake()
            if found:
                return True
        return False
    for code in codes:
        if pos.squares[code >> 7 & 127]:
            return False  # the falcon is taken: K v K
        pos.make(code)
        found = mate_within(pos, plies - 1, strong)
        pos.unmake()
        if not found:
            return False
    return True


def samples(
    table: FalconTable, variant: Variant, count: int, seed: int, low: int, high: int
) -> list[tuple[Position, int]]:
    """Up to ``count`` random positions with a DTM in ``low..high``."""
    rng = random.Random(seed)
    geo = variant.geometry
    n = geo.size
    picked: dict[str, tuple[Position, int]] = {}
    for _ in range(count * 400):
        if len(picked) >= count:
            break
        k, f, b = rng.randrange(n), rng.randrange(n), rng.randrange(n)
        strong_to_move = rng.random() < 0.5
        side = table.strong if strong_to_move else table.weak
        if k in (f, b) or f == b or side[table.index(k, f, b)] in (ILLEGAL, DRAW):
            continue
        dtm = side[table.index(k, f, b)] - 1
        if low <= dtm <= high:
            fen = tablebase.fen_of(geo, k, f, b, strong_to_move)
            picked[fen] = (Position(fen, variant), dtm)
    return list(picked.values())


def verify_brute(table: FalconTable, variant: Variant, count: int, seed: int) -> int:
    cases = samples(table, variant, count, seed, 1, BRUTE_MAX_DTM)
    for pos, dtm in cases:
        if not mate_within(pos, dtm, 0):
            fail(f"{pos.fen()}: no mate within {dtm} plies by brute force")
        if dtm >= 2 and mate_within(pos, dtm - 2, 0):
            fail(f"{pos.fen()}: a mate within {dtm - 2} plies by brute force")
    return len(cases)


def verify_engine(table: FalconTable, variant: Variant, count: int, seed: int) -> tuple[int, int]:
    """The engine's search (table off) on deeper positions: the mates it
    finds are never shorter than the table's; how many it found exactly."""
    engine = Engine(seed=seed)
    engine.tablebase = False
    cases = samples(table, variant, count, seed + 1, 3, ENGINE_DEPTH)
    exact = 0
    for pos, dtm in cases:
        engine.new_game()
        reports = []
        engine.search(pos, Limits(depth=ENGINE_DEPTH), on_info=reports.append)
        mate = reports[-1].mate if reports else None
        if mate is not None:
            plies = 2 * mate - 1 if mate > 0 else -2 * mate
            if (mate > 0) != (pos.turn == 0) or plies < dtm:
                fail(f"{pos.fen()}: the engine finds mate {mate}, the table DTM {dtm}")
            exact += plies == dtm
    return len(cases), exact


def fail(message: str) -> None:
    print(f"tablebase: {message}", file=sys.stderr)
    sys.exit(1)


def board_side(text: str) -> int:
    if not text.isascii() or not text.isdigit() or not 3 <= int(text) <= MAX_SIDE:
        raise argparse.ArgumentTypeError(f"a board side is 3 to {MAX_SIDE} squares")
    return int(text)


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        print(f"tablebase: {message}", file=sys.stderr)
        sys.exit(2)


def main(argv: list[str]) -> None:
    parser = Parser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=board_side, default=10)
    parser.add_argument("--ranks", type=board_side, default=8)
    parser.add_argument("--verify", action="store_true")
    parser.add_argument("--sample", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    variant = variant_for(args.files, args.ranks)
    geo = variant.geometry
    start = time.process_time()
    table = tablebase.generate(geo)
    figures(table, geo, time.process_time() - start)
    path = DATA / tablebase.data_name(geo.files, geo.ranks)
    if args.verify:
        start = time.process_time()
        checked, stalemates = verify_rules(table, variant)
        print(f"rules core: {checked:,} positions agree, {stalemates:,} of them stalemates")
        verify_symmetry(table, geo)
        print("mirrors of the files and of the ranks agree")
        print(
            f"brute force: {verify_brute(table, variant, args.sample, args.seed)} positions "
            f"with DTM 1..{BRUTE_MAX_DTM} agree"
        )
        searched, exact = verify_engine(table, variant, args.sample // 4, args.seed)
        print(
            f"engine search, depth {ENGINE_DEPTH}: {searched} positions, no mate shorter "
            f"than the table's, {exact} found at exactly its DTM"
        )
        if path.exists():
            if FalconTable.from_bytes(path.read_bytes()) != table:
                fail(f"{path.name} differs from this build: rebuild it with --write")
            print(f"{path.name} holds this table")
        print(f"verified in {time.process_time() - start:.0f} s of CPU")
    if args.write:
        path.parent.mkdir(exist_ok=True)
        data = table.to_bytes()
        path.write_bytes(data)
        print(f"wrote {path} ({len(data):,} bytes)")


if __name__ == "__main__":
    main(sys.argv[1:])
