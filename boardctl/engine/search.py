"""The search: iterative deepening PVS with quiescence, on the rules core.

Contract of :meth:`Engine.search`: it searches the position it is given
(making and unmaking moves on it, so the position's own history counts for
repetitions) and leaves it exactly as it was; it reports each finished
iteration through ``on_info``; it polls ``stop`` and the clock every
``CHECK_EVERY`` nodes and returns promptly with the best move of the last
finished iteration (or the best so far in this one); it returns None only
when there is no legal move.

Two cores run the search (README.md states their contract): the compiled
one (``csrc/``, through :mod:`.core`), which plays whenever it was built,
and the Python core (:mod:`.tree`), the reference oracle the tests check the
compiled one against (legal moves, static evaluation, forced mates), which
plays only where nothing could be compiled or when asked for with
``compiled=False``.  The compiled one adds what self-play measured as gains
(static exchange evaluation, internal iterative reduction, a history
penalty, an evaluation cache).  The iterative deepening, time management,
skill and reporting below are shared.  Moves are the rules core's packed
codes, read through :mod:`boardctl.rules.moves` only.

Techniques: transposition table keyed by the Zobrist hash, move ordering
(hash move, MVV-LVA captures, two killers per ply, history), null-move
pruning, late-move reductions of quiet moves, check extension, mate-distance
pruning and scores, aspiration windows, and a quiescence search of captures
and promotions (all moves when in check).  King and falcon against a bare
king is answered at the root from :mod:`.tablebase`, for both cores.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Collection

from ..rules import Move, Position
from . import core, levels, tablebase
from .evaluate import Evaluator
from .lag import ClockLag
from .levels import MAX_LEVEL, OPENING_MOVES, OPENING_PIECES, OPENING_SPREAD, Level
from .limits import Info, Limits
from .params import (
    ANSWER_RESERVE,
    ANSWER_SHARE,
    ASPIRATION,
    CONTEMPT,
    INF,
    MATE,
    MATE_BOUND,
    MAX_PLY,
)
from .tree import PythonTree, SearchStopped
from .weights import Weights

MAX_SKILL = MAX_LEVEL
MOVES_LEFT = 30  # the moves a clock is shared among when the GUI does not say


class Engine(PythonTree):
    """A Falcon Chess engine: one search at a time.

    ``skill`` is its level (:mod:`.levels`): from 0 (a beginner: one ply,
    choosing among near-equal moves, and now and then a move made without
    looking at the reply) to ``MAX_SKILL`` (full strength, with a little
    randomness among near-equal moves in the opening so that games differ).
    """

    def __init__(
        self,
        skill: int = MAX_SKILL,
        seed: int | None = None,
        compiled: bool | None = None,
        weights: Weights | None = None,
        vary: bool = True,
    ) -> None:
        self.skill = skill
        # Full strength's random points in the opening make games differ; an
        # engine that judges (a review, the coach, hints, puzzles) must give
        # the same verdict every time, so it goes without (``vary=False``).
        self.vary = vary
        # None: the compiled core when it was built, else the Python search.
        self.compiled = core.available() if compiled is None else compiled
        # Other evaluation weights than evaluate.py's (a tuner's candidates): the
        # compiled core takes them; the Python evaluator is the reference for
        # evaluate.py's own only.
        if weights is not None and not self.compiled:
            raise ValueError("other evaluation weights need the compiled core")
        self.weights = weights
        self._cores: dict[str, core.Core] = {}
        self._core: core.Core | None = None
        self._tt_bits = core.TT_BITS
        self.rng = random.Random(seed)
        # None: time limits are seconds on the wall clock.  A number: they are
        # counted in positions searched, this many to a second (XBoard's
        # ``nps``; a reproducible game, the same on every machine).
        self.nodes_per_second: int | None = None
        # Each search's limits (_prepare): the positions it may search, the
        # count or the time after which it starts no new iteration.
        self._nodes_cap: int | None = None
        self._soft_nodes: int | None = None
        self._soft_deadline: float | None = None
        self._timed = False
        self._lag = ClockLag()  # what the GUI's clock charges beyond the search
        self.tt: dict[int, tuple[int, int, int, int]] = {}
        self.history: dict[int, int] = {}
        self.killers: list[list[int]] = [[0, 0] for _ in range(MAX_PLY + 2)]
        self.nodes = 0
        self.contempt = CONTEMPT
        # K+F v K comes from the table (at full strength: the lower levels
        # keep their mistakes there too); False searches it like any other.
        self.tablebase = True
        self._evaluators: dict[str, Evaluator] = {}
        self._root_moves: list[int] = []  # the moves this search chooses among

    def reseed(self, seed: int | None) -> None:
        """Draw the random points from ``seed`` from now on (None: from the
        system's entropy, so that no two runs repeat)."""
        self.rng = random.Random(seed)

    @property
    def tt_bits(self) -> int:
        """The compiled core's table holds ``2 ** tt_bits`` entries."""
        return self._tt_bits

    @tt_bits.setter
    def tt_bits(self, bits: int) -> None:
        if bits != self._tt_bits:
            self._tt_bits = bits
            self._cores.clear()  # built again, with the new table, when next needed

    def new_game(self) -> None:
        """Forget what was learnt about earlier positions."""
        self.tt.clear()
        self.history.clear()
        self._lag.forget()
        for one in self._cores.values():
            one.new_game()

    # ------------------------------------------------------------- driver
    # long: iterative deepening with every reason to stop it, read best as one loop
    def search(
        self,
        pos: Position,
        limits: Limits,
        stop: Callable[[], bool] | None = None,
        on_info: Callable[[Info], None] | None = None,
        among: Collection[Move] | None = None,
    ) -> Move | None:
        """``among``: search only these of the legal moves (UCI's ``searchmoves``;
        :mod:`.ranking` ranks moves by leaving out the ones already ranked)."""
        root_moves = pos.legal_codes()
        if among is not None:
            chosen = set(among)
            root_moves = [code for code in root_moves if pos.to_move(code) in chosen]
        if not root_moves:
            return None
        known = None
        if self.tablebase and self.skill >= MAX_SKILL and among is None:
            known = tablebase.answer(pos)
        if known is not None:
            if on_info:
                on_info(known[1])
            return known[0]
        plan = self.level
        self._prepare(pos, limits, stop)
        self._root_moves = root_moves
        if plan.slip and self.rng.random() < plan.slip:
            glanced = self._glance(pos, root_moves, plan.spread, on_info)
            self._lag.after(time.perf_counter())
            return glanced
        self._noise = self._root_noise(pos, root_moves, plan)
        best = root_moves[0]
        best_score = -INF
        max_depth = self._max_depth(limits, plan)
        stack_depth = len(pos.ply_stack)
        deadline = self._hard_deadline
        try:
            for depth in range(1, max_depth + 1):
                if not self._may_deepen(depth, limits, plan):
                    break
                # The first ply is always finished, whatever the clock says: a
                # move from half of it would be the first legal one, no choice at all.
                self._hard_deadline = deadline if depth > 1 else None
                score, move = self._iterate(depth, best, best_score)
                best, best_score = move, score
                info = self._info(depth, score)
                if on_info:
                    on_info(info)
                wanted = limits.mate
                if wanted is not None and info.mate is not None and 0 < info.mate <= wanted:
                    break
                if abs(score) > MATE_BOUND and depth > 2 * (MATE - abs(score)) + 2:
                    break  # a forced mate is found and confirmed deeper
                if self._past_soft_limit():
                    break
                if len(root_moves) == 1 and among is None and self._timed:
                    break  # the only move: no need to think
        except SearchStopped:
            while len(pos.ply_stack) > stack_depth:
                pos.unmake()
            if self._current_best:
                best = self._current_best
        self._lag.after(time.perf_counter())
        return pos.to_move(best)

    def _prepare(self, pos: Position, limits: Limits, stop: Callable[[], bool] | None) -> None:
        self.pos = pos
        self.stop = stop
        self.nodes = 0
        self.seldepth = 0
        self.start = time.perf_counter()
        hard, soft = self._budget(pos, limits)
        self._timed = soft is not None
        self._nodes_cap = limits.nodes
        self._soft_nodes = None
        self._hard_deadline = self._soft_deadline = None
        rate = self.nodes_per_second
        if rate is not None and hard is not None and soft is not None:
            clock_nodes = max(1, round(hard * rate))
            self._nodes_cap = min(clock_nodes, limits.nodes or clock_nodes)
            self._soft_nodes = round(soft * rate)
        elif hard is not None and soft is not None:
            self._hard_deadline, self._soft_deadline = self.start + hard, self.start + soft
        self.node_limit = self._nodes_cap
        self._current_best = 0
        self._core = None
        if self.compiled:
            name = pos.variant.name
            if name not in self._cores:
                self._cores[name] = core.build(pos.variant, self._tt_bits, weights=self.weights)
            self._core = self._cores[name]
            core.load(self._core, pos)
            self._core.reset_best()
            return
        self._prepare_tree(pos)

    def _budget(self, pos: Position, limits: Limits) -> tuple[float | None, float | None]:
        """Seconds this move may take (hard: the search stops there) and after
        which it starts no new iteration (soft); None for no time limit."""
        if limits.infinite:
            return None, None
        if limits.movetime is not None:
            # Leave a little for the process to answer; never think past it.
            budget = limits.movetime - min(ANSWER_RESERVE, limits.movetime * ANSWER_SHARE)
            return budget, budget
        clock = limits.wtime if pos.turn == 0 else limits.btime
        if clock is None:
            return None, None
        inc = limits.winc if pos.turn == 0 else limits.binc
        moves_left = limits.movestogo or MOVES_LEFT
        # Every move to come costs some time to answer beyond the search (the
        # process, the pipes, a busy machine): kept back for each of them, a
        # clock that runs low is spent on one-ply answers, never overrun.
        # Counted in positions, the clock charges no such time.
        reserve = ANSWER_RESERVE
        if self.nodes_per_second is None:
            reserve = self._lag.before(pos.turn, clock, inc, self.start)
        spare = max(0.0, clock - reserve * (moves_left + 2))
        share = spare / moves_left + 0.8 * (inc)
        hard = min(max(0.0, clock - reserve) * 0.4, share * 3)
        share = min(share, hard)
        return hard, share * 0.6

    def _past_soft_limit(self) -> bool:
        if self._soft_nodes is not None:
            return self.nodes >= self._soft_nodes
        return self._soft_deadline is not None and time.perf_counter() >= self._soft_deadline

    @property
    def level(self) -> Level:
        """What ``skill`` searches and how it errs (a skill out of range is the nearest level)."""
        return levels.level(max(0, min(self.skill, MAX_SKILL)))

    def _max_depth(self, limits: Limits, plan: Level) -> int:
        depth = limits.depth or MAX_PLY
        if limits.mate is not None:
            # A mate in n is 2n - 1 plies, but the search's reductions can
            # hide it at that depth: look up to twice as deep before giving up.
            depth = min(depth, 2 * (2 * limits.mate + 1))
        if plan.depth is not None:
            depth = min(depth, plan.depth)
        return max(1, min(depth, MAX_PLY))

    def _may_deepen(self, depth: int, limits: Limits, plan: Level) -> bool:
        """Whether to search ``depth`` plies, and with what node limit: a
        level's own cap holds from the second ply, so the first is always
        finished (a move from half a ply would be no choice at all)."""
        if plan.nodes is None or depth == 1:
            return True
        if self.nodes >= plan.nodes:
            return False
        cap = self._nodes_cap
        self.node_limit = plan.nodes if cap is None else min(cap, plan.nodes)
        return True

    def _root_noise(self, pos: Position, moves: list[int], plan: Level) -> dict[int, int]:
        """Random points added to each root move: the level's spread below
        full strength, and at full strength a little in the opening (variety
        among near-equal moves)."""
        spread = plan.spread
        if self.skill >= MAX_SKILL:
            opening = (
                pos.fullmove_number <= OPENING_MOVES
                and (pos.colors[0] | pos.colors[1]).bit_count() >= OPENING_PIECES
            )
            spread = OPENING_SPREAD if opening and self.vary else 0
        if not spread:
            return {}
        return {code: self.rng.randint(-spread, spread) for code in moves}

    def _glance(
        self,
        pos: Position,
        moves: list[int],
        spread: int,
        on_info: Callable[[Info], None] | None,
    ) -> Move:
        """A slip: the move whose position right after it evaluates best,
        with the level's random points, the reply not looked at."""
        scored = []
        for code in moves:
            if self._core is not None:
                self._core.push(code)
                score = -self._core.evaluate()
                self._core.pop()
            else:
                self._make(code)
                score = -self._evaluate()
                self._unmake()
            scored.append((score + self.rng.randint(-spread, spread), code))
        score, best = max(scored)
        self.nodes = len(moves)
        if on_info:
            elapsed = time.perf_counter() - self.start
            on_info(Info(1, score, None, self.nodes, elapsed, [pos.to_move(best)], 1))
        return pos.to_move(best)

    def _info(self, depth: int, score: int) -> Info:
        elapsed = time.perf_counter() - self.start
        mate = None
        cp: int | None = score
        if abs(score) > MATE_BOUND:
            plies = MATE - abs(score)
            mate = (plies + 1) // 2 if score > 0 else -((plies + 1) // 2)
            cp = None
        return Info(depth, cp, mate, self.nodes, elapsed, self._pv(depth), self.seldepth)

    def _pv(self, depth: int) -> list[Move]:
        codes = self._core.pv(depth) if self._core is not None else self._table_line(depth)
        pos = self.pos
        moves: list[Move] = []
        for code in codes:
            moves.append(pos.to_move(code))
            pos.make(code)
        for _ in codes:
            pos.unmake()
        return moves

    # --------------------------------------------------------------- root
    def _iterate(self, depth: int, best: int, best_score: int) -> tuple[int, int]:
        if depth >= 4 and abs(best_score) < MATE_BOUND:
            alpha, beta = best_score - ASPIRATION, best_score + ASPIRATION
            score, move = self._root(depth, alpha, beta, best)
            if alpha < score < beta:
                return score, move
        return self._root(depth, -INF, INF, best)

    def _root(self, depth: int, alpha: int, beta: int, first: int) -> tuple[int, int]:
        if self._core is not None:
            return self._core_root(self._core, depth, alpha, beta, first)
        return self._tree_root(depth, alpha, beta, first)

    def _core_root(
        self, engine: core.Core, depth: int, alpha: int, beta: int, first: int
    ) -> tuple[int, int]:
        moves = [first, *(code for code in self._root_moves if code != first)]
        noise = [self._noise.get(code, 0) for code in moves]
        seconds = -1.0
        if self._hard_deadline is not None:
            seconds = max(0.0, self._hard_deadline - time.perf_counter())
        nodes = 0
        if self.node_limit is not None:
            nodes = max(1, self.node_limit - self.nodes)
        score, move, stopped, searched, seldepth, so_far = engine.root(
            depth,
            alpha,
            beta,
            moves,
            noise,
            seconds,
            nodes,
            self.stop,
            self.contempt,
        )
        self.nodes += searched
        self.seldepth = max(self.seldepth, seldepth)
        if so_far:
            self._current_best = so_far
        if stopped:
            raise SearchStopped
        return score, move
