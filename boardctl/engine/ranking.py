"""Several good moves, ranked: the best, then the best of the rest, and so on.

Each move after the first is found by searching the position again without
the moves already ranked (the way UCI's ``searchmoves`` restricts a search),
so every score is exact, where a single search only proves that the other
moves are worse than the best.  The searches share the engine's tables, so
the later ones reach their depth quickly.  A teaching board's hint names the
moves this returns.
"""

from __future__ import annotations

from collections.abc import Callable

from ..rules import Move, Position
from .limits import Info, Limits
from .params import MATE
from .search import Engine


def rank(
    engine: Engine,
    pos: Position,
    limits: Limits,
    count: int,
    stop: Callable[[], bool] | None = None,
) -> list[tuple[Move, Info]]:
    """Up to ``count`` moves of ``pos``, best first, each with the engine's
    last finished iteration on it (its score from the side to move, its
    principal variation starting with the move), each searched within
    ``limits``.  Fewer when the position has fewer legal moves, or when
    ``stop`` says so (what is ranked by then is returned).  The position is
    left as it was."""
    legal = pos.legal_moves()
    ranked: list[tuple[Move, Info]] = []
    while len(ranked) < min(count, len(legal)):
        if ranked and stop is not None and stop():
            break
        left = [move for move in legal if move not in {done for done, _ in ranked}]
        infos: list[Info] = []
        move = engine.search(pos, limits, stop, infos.append, among=left)
        if move is None or not infos:
            break  # stopped inside its first iteration: no score to rank it by
        info = infos[-1]
        # The move the score is for is the iteration's own: a search stopped
        # in the next one answers with that one's best so far.
        if info.pv and info.pv[0] in left:
            move = info.pv[0]
        ranked.append((move, info))
    # The later searches start from what the earlier ones learnt and may see
    # deeper: the rest are put in the order of their own scores.
    return ranked[:1] + sorted(ranked[1:], key=lambda one: _strength(one[1]), reverse=True)


def _strength(info: Info) -> int:
    """A score to sort by: a mate beats any centipawns, a nearer one more so."""
    if info.mate is not None:
        return MATE - info.mate if info.mate > 0 else -MATE - info.mate
    return info.score_cp or 0
