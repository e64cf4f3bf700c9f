"""The search's numbers: the one place each is written.

Both searches read them from here, but they are not one algorithm, so not
every number is read by both.  The compiled core (``csrc/``) is given the
ones :func:`core_search` lists, in the order it takes them, at construction
and declares no tuning number of its own (tests/engine/test_params.py checks
both that it reports back what it was given and that its sources hold no
number outside their structural definitions).  search.py reads the ones its
Python search and its driver use.  Which side reads which (``IIR_DEPTH`` and
``CORE_CHECK_EVERY`` only the compiled core, ``CHECK_EVERY`` only the Python
search) is tabled in README.md, and tests/engine/test_contract.py keeps that
table true.  The evaluation's numbers live in weights.py the same way.
"""

from __future__ import annotations

import math
from functools import cache

from ..rules.game import FIFTY_MOVES

MATE = 30_000
MATE_BOUND = MATE - 1000  # scores beyond this are mates
INF = 32_000  # above every score; the core's table keeps scores in 16 bits
MAX_PLY = 96
# Nodes between looks at the clock and at stop(): some 10 ms in the Python
# core, under 1 ms in the compiled one (some 3 ms on a Pi 4), so a stop is
# answered at once and a move time is kept to the millisecond.
CHECK_EVERY = 512
CORE_CHECK_EVERY = 1024
# Of a fixed time a move, the search leaves this much for the process to
# answer in (seconds), or this share of the time when that is less.
ANSWER_RESERVE = 0.02
ANSWER_SHARE = 0.04
NULL_MIN_DEPTH = 3  # null-move pruning from this depth
NULL_REDUCTION = 3  # plies the null move's search is shortened by,
NULL_DEEPER = 4  # and one more for every this many plies of depth
LAZY_MARGIN = 350  # positional terms rarely add up to more than this
FUTILITY = (0, 150, 300, 450)  # by remaining depth: quiet moves that cannot reach alpha
REVERSE_FUTILITY = 110  # per ply of depth: a lead that no reply will undo,
REVERSE_FUTILITY_DEPTH = 5  # trusted up to this depth
DELTA_MARGIN = 200  # quiescence: a capture this far below alpha is skipped
LMR_MIN_DEPTH = 3  # late-move reductions from this depth,
LMR_MIN_MOVES = 3  # after this many moves, by one ply,
LMR_MORE_AFTER = 8  # by two after this many (the Python search);
# the compiled core reduces the n-th move at depth d by LMR_BASE + ln d ln n /
# LMR_DIVISOR plies (a ply less on the main line, at least one, and never into
# the quiescence search), from a table of LMR_DEPTHS x LMR_MOVES: more the
# later the move and the deeper the node.  Self-play at 20,000 nodes a move:
# +47 ± 54 Elo over the two steps above (149 games; bench/sprt.py); with
# late-move pruning below, at 18,000 nodes: +54 ± 54 (150 games, +79 =15 -56).
LMR_BASE = 0.75
LMR_DIVISOR = 2.25
LMR_DEPTHS = 32  # the table's rows, by depth (deeper nodes take the last row),
LMR_MOVES = 64  # and columns, by the move's number among its node's moves
# From this depth a node the table knows no move for is searched a ply shallower.
IIR_DEPTH = 4
# Late-move pruning, compiled core only: up to this depth, away from the main
# line and not in check, the quiet moves after the first LMP_MOVES + depth²
# are not searched (ordered last, they seldom matter, and a shallow search
# spends most of its nodes on them).  Self-play at 20,000 nodes a move: +12 ± 36
# Elo (319 games, bench/sprt.py): no loss, and the nodes go deeper.  A move that
# gives check is not pruned here nor by futility, nor reduced (search.c):
# +28 ± 37 Elo at 6,000 nodes a move (323 games, bench/sprt.py; docs/engine.md).
LMP_DEPTH = 3
LMP_MOVES = 3
# A history score above this halves them all, so that they stay below the
# killers' ordering keys (1 << 23).  Measured (12 plies from 4 positions at
# depth 8, 8 at depth 9, compiled core): halving at 1 << 16 or later searches
# the same nodes as never halving, at 1 << 14 1.4 % more, at 1 << 12 13 % more.
HISTORY_LIMIT = 1 << 22
ASPIRATION = 40  # the window around the last iteration's score
# A draw counts this much against the engine (from the root's side): it
# plays on in level positions instead of repeating into a draw.
CONTEMPT = 15
# Ordering values (MVV-LVA) and quiescence gains, by piece type index.
ORDER_VALUE = (0, 100, 310, 335, 480, 950, 2000, 560)


def core_search() -> tuple[int, ...]:
    """The numbers above in the order the compiled core takes them."""
    return (
        MATE,
        MATE_BOUND,
        INF,
        MAX_PLY,
        CORE_CHECK_EVERY,
        NULL_MIN_DEPTH,
        NULL_REDUCTION,
        NULL_DEEPER,
        LAZY_MARGIN,
        REVERSE_FUTILITY,
        REVERSE_FUTILITY_DEPTH,
        DELTA_MARGIN,
        LMR_MIN_DEPTH,
        LMR_MIN_MOVES,
        HISTORY_LIMIT,
        FIFTY_MOVES,
        IIR_DEPTH,
        LMP_DEPTH,
        LMP_MOVES,
        len(FUTILITY),
        *FUTILITY,
        *ORDER_VALUE,
        LMR_DEPTHS,
        LMR_MOVES,
        *lmr_reductions(LMR_BASE, LMR_DIVISOR),
    )


@cache  # 4,096 logarithms, 0.9 ms: once, not at every core built (tests build thousands)
def lmr_reductions(base: float, divisor: float) -> tuple[int, ...]:
    """The compiled core's late-move reductions, by depth and then by move
    number (both from 0), ``base + ln depth ln number / divisor`` rounded down."""
    return tuple(
        int(base + math.log(depth) * math.log(number) / divisor) if depth and number else 0
        for depth in range(LMR_DEPTHS)
        for number in range(LMR_MOVES)
    )
