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
and this module's Python code, the reference oracle the tests check the
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
from dataclasses import dataclass

from ..rules import Move, Position
from ..rules.game import FIFTY_MOVES
from ..rules.moves import (
    CASTLE,
    EN_PASSANT,
    code_flag,
    code_from,
    code_promotion,
    code_squares,
    code_to,
)
from ..rules.pieces import KING, PAWN
from . import core, levels, tablebase
from .evaluate import Evaluator, evaluator_for, material_sums
from .levels import MAX_LEVEL, OPENING_MOVES, OPENING_PIECES, OPENING_SPREAD, Level
from .limits import Info, Limits
from .params import (
    ANSWER_RESERVE,
    ANSWER_SHARE,
    ASPIRATION,
    CHECK_EVERY,
    CONTEMPT,
    DELTA_MARGIN,
    FUTILITY,
    HISTORY_LIMIT,
    INF,
    LAZY_MARGIN,
    LMR_MIN_DEPTH,
    LMR_MIN_MOVES,
    LMR_MORE_AFTER,
    MATE,
    MATE_BOUND,
    MAX_PLY,
    NULL_DEEPER,
    NULL_MIN_DEPTH,
    NULL_REDUCTION,
    ORDER_VALUE,
    REVERSE_FUTILITY,
    REVERSE_FUTILITY_DEPTH,
)
from .piecesquare import piece_tables
from .weights import Weights

MAX_SKILL = MAX_LEVEL
EXACT, LOWER, UPPER = 0, 1, 2
TT_LIMIT = 1_500_000  # entries before the Python core's table is cleared


class _Stop(Exception):
    """Unwinds the search when time is up or stop() says so."""


@dataclass(slots=True)
class _Node:
    """What a node of the Python search was asked, and found before its
    moves: what its move loop needs (alpha rises as it goes)."""

    depth: int
    alpha: int
    beta: int
    ply: int
    in_check: bool
    pv_node: bool
    static: int
    tt_move: int


class Engine:
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
        self.rng = random.Random(seed)
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

    def new_game(self) -> None:
        """Forget what was learnt about earlier positions."""
        self.tt.clear()
        self.history.clear()
        for one in self._cores.values():
            one.new_game()

    # ------------------------------------------------------------- driver
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
            return self._glance(pos, root_moves, plan.spread, on_info)
        self._noise = self._root_noise(pos, root_moves, plan)
        best = root_moves[0]
        best_score = -INF
        max_depth = self._max_depth(limits, plan)
        stack_depth = len(pos.ply_stack)
        try:
            for depth in range(1, max_depth + 1):
                if not self._may_deepen(depth, limits, plan):
                    break
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
                if self._soft_deadline is not None and time.perf_counter() >= self._soft_deadline:
                    break
                if len(root_moves) == 1 and among is None and self._soft_deadline is not None:
                    break  # the only move: no need to think
        except _Stop:
            while len(pos.ply_stack) > stack_depth:
                pos.unmake()
            if self._current_best:
                best = self._current_best
        return pos.to_move(best)

    def _prepare(self, pos: Position, limits: Limits, stop: Callable[[], bool] | None) -> None:
        self.pos = pos
        self.stop = stop
        self.nodes = 0
        self.seldepth = 0
        self.start = time.perf_counter()
        self.node_limit = limits.nodes
        self._hard_deadline, self._soft_deadline = self._deadlines(pos, limits)
        self._current_best = 0
        self._core = None
        if self.compiled:
            name = pos.variant.name
            if name not in self._cores:
                self._cores[name] = core.build(pos.variant, weights=self.weights)
            self._core = self._cores[name]
            core.load(self._core, pos)
            self._core.reset_best()
            return
        # The Python core's own state.
        self.killers = [[0, 0] for _ in range(MAX_PLY + 2)]
        if len(self.tt) > TT_LIMIT:
            self.tt.clear()
        name = pos.variant.name
        if name not in self._evaluators:
            self._evaluators[name] = evaluator_for(pos)
        self.evaluator = self._evaluators[name]
        self.mg_table, self.eg_table = piece_tables(pos.geometry)
        mg, eg = material_sums(pos)
        self.mg_stack = [mg]
        self.eg_stack = [eg]
        self.path = [*core.reversible_history(pos), pos.hash]

    def _deadlines(self, pos: Position, limits: Limits) -> tuple[float | None, float | None]:
        if limits.infinite:
            return None, None
        if limits.movetime is not None:
            # Leave a little for the process to answer; never think past it.
            budget = limits.movetime - min(ANSWER_RESERVE, limits.movetime * ANSWER_SHARE)
            return self.start + budget, self.start + budget
        clock = limits.wtime if pos.turn == 0 else limits.btime
        if clock is None:
            return None, None
        inc = limits.winc if pos.turn == 0 else limits.binc
        moves_left = limits.movestogo or 30
        share = clock / moves_left + 0.8 * inc
        hard = min(clock * 0.4, share * 3)
        share = min(share, hard)
        return self.start + hard, self.start + share * 0.6

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
        self.node_limit = plan.nodes if limits.nodes is None else min(limits.nodes, plan.nodes)
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

    def _table_line(self, depth: int) -> list[int]:
        """The best line as the Python core's table has it (the position is left as it was)."""
        pos = self.pos
        codes: list[int] = []
        seen = set()
        for _ in range(depth):
            entry = self.tt.get(pos.hash)
            if entry is None or not entry[3] or pos.hash in seen:
                break
            seen.add(pos.hash)
            code = entry[3]
            if code not in pos.legal_codes():
                break
            codes.append(code)
            pos.make(code)
        for _ in codes:
            pos.unmake()
        return codes

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
        pos = self.pos
        moves = self._order(self._root_moves, first, 0)
        best_move = moves[0]
        best = -INF
        noise = self._noise
        for i, code in enumerate(moves):
            bonus = noise.get(code, 0)
            self._make(code)
            if i == 0:
                raw = -self._negamax(depth - 1, -beta + bonus, -alpha + bonus, 1)
            else:
                raw = -self._negamax(depth - 1, -alpha + bonus - 1, -alpha + bonus, 1)
                if alpha < raw + bonus < beta:
                    raw = -self._negamax(depth - 1, -beta + bonus, -alpha + bonus, 1)
            self._unmake()
            # The noise rates ordinary moves, never a forced mate.
            score = raw if abs(raw) > MATE_BOUND else raw + bonus
            if score > best:
                best, best_move = score, code
                if depth > 1:
                    self._current_best = code
            if score > alpha:
                alpha = score
            if alpha >= beta:
                break
        self.tt[pos.hash] = (depth, EXACT if best < beta else LOWER, best, best_move)
        return best, best_move

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
            raise _Stop
        return score, move

    # ------------------------------------------------------------- search
    def _make(self, code: int) -> None:
        """Make a move and keep the incremental material sums."""
        pos = self.pos
        sqs = pos.squares
        frm, to, flag = code_from(code), code_to(code), code_flag(code)
        piece = sqs[frm]
        mgt, egt = self.mg_table, self.eg_table
        mg = self.mg_stack[-1] - mgt[piece][frm]
        eg = self.eg_stack[-1] - egt[piece][frm]
        if flag == CASTLE:  # the rook moves too
            rook_from, rook_to = pos.castle_rook_squares(frm, to)
            rook = sqs[rook_from]
            mg += mgt[rook][rook_to] - mgt[rook][rook_from]
            eg += egt[rook][rook_to] - egt[rook][rook_from]
        else:
            captured = sqs[to]
            if captured:
                mg -= mgt[captured][to]
                eg -= egt[captured][to]
            elif flag == EN_PASSANT:
                # The pawn taken stands one step ahead of ``to`` as its own side moves.
                victim = pos.en_passant_victim(to)
                mg -= mgt[sqs[victim]][victim]
                eg -= egt[sqs[victim]][victim]
        promo = code_promotion(code)
        if promo:
            piece = promo | (piece & 8)
        mg += mgt[piece][to]
        eg += egt[piece][to]
        pos.make(code)
        self.mg_stack.append(mg)
        self.eg_stack.append(eg)
        self.path.append(pos.hash)

    def _unmake(self) -> None:
        self.pos.unmake()
        self.mg_stack.pop()
        self.eg_stack.pop()
        self.path.pop()

    def _check(self) -> None:
        if self._hard_deadline is not None and time.perf_counter() >= self._hard_deadline:
            raise _Stop
        if self.stop is not None and self.stop():
            raise _Stop
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise _Stop

    def _draw(self, ply: int) -> int:
        """A draw's score for the side to move ``ply`` plies below the root."""
        return self.contempt if ply % 2 else -self.contempt

    def _evaluate(self) -> int:
        return self.evaluator.evaluate(self.pos, self.mg_stack[-1], self.eg_stack[-1])

    def _repeated(self) -> bool:
        path = self.path
        key = path[-1]
        # Only positions with the same side to move, back to the last
        # irreversible move, can repeat this one.
        limit = min(self.pos.halfmove_clock, len(path) - 1)
        return any(path[-1 - i] == key for i in range(2, limit + 1, 2))

    def _negamax(self, depth: int, alpha: int, beta: int, ply: int, allow_null: bool = True) -> int:
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0:
            self._check()
        pos = self.pos
        if pos.halfmove_clock >= FIFTY_MOVES or self._repeated():
            return self._draw(ply)
        # Mate-distance pruning: no line can beat a mate already found nearer.
        alpha = max(alpha, -MATE + ply)
        beta = min(beta, MATE - ply - 1)
        if alpha >= beta:
            return alpha
        in_check = pos.is_check()
        if in_check:
            depth += 1
        if depth <= 0 or ply >= MAX_PLY:
            return self._quiesce(alpha, beta, ply)
        key = pos.hash
        pv_node = beta - alpha > 1
        tt_move, settled = self._probe(key, depth, alpha, beta, ply, pv_node)
        if settled is not None:
            return settled
        static = -INF
        if not in_check and not pv_node:
            static = self._evaluate()
            # Reverse futility: far above beta with little depth left.
            if (
                depth <= REVERSE_FUTILITY_DEPTH
                and abs(beta) < MATE_BOUND
                and static - REVERSE_FUTILITY * depth >= beta
            ):
                return static
        if (
            allow_null
            and not pv_node
            and not in_check
            and depth >= NULL_MIN_DEPTH
            and self._has_pieces(pos)
            and static >= beta
            and self._null_holds(depth, beta, ply)
        ):
            return beta
        moves = pos.legal_codes()
        if not moves:
            return -MATE + ply if in_check else self._draw(ply)
        node = _Node(depth, alpha, beta, ply, in_check, pv_node, static, tt_move)
        best, best_move, flag = self._search_moves(node, moves)
        # Mates are kept as distances from this node, so a transposition keeps their length.
        stored = best + ply if best > MATE_BOUND else best - ply if best < -MATE_BOUND else best
        self.tt[key] = (depth, flag, stored, best_move)
        return best

    def _probe(
        self, key: int, depth: int, alpha: int, beta: int, ply: int, pv_node: bool
    ) -> tuple[int, int | None]:
        """The table's move for this node (0 if none) and, when its entry
        settles the node outside the principal variation, the score."""
        entry = self.tt.get(key)
        if entry is None:
            return 0, None
        e_depth, e_flag, e_score, tt_move = entry
        if e_depth < depth or pv_node:
            return tt_move, None
        if e_score > MATE_BOUND:
            e_score -= ply
        elif e_score < -MATE_BOUND:
            e_score += ply
        if (
            e_flag == EXACT
            or (e_flag == LOWER and e_score >= beta)
            or (e_flag == UPPER and e_score <= alpha)
        ):
            return tt_move, e_score
        return tt_move, None

    def _null_holds(self, depth: int, beta: int, ply: int) -> bool:
        """Whether passing, searched shallower, still holds beta."""
        pos = self.pos
        pos.make_null()
        self.path.append(pos.hash)
        reduce = NULL_REDUCTION + depth // NULL_DEEPER
        score = -self._negamax(depth - 1 - reduce, -beta, -beta + 1, ply + 1, False)
        self.path.pop()
        pos.unmake_null()
        return beta <= score < MATE_BOUND

    def _search_moves(self, node: _Node, moves: list[int]) -> tuple[int, int, int]:
        """The node's moves, best first: its score, best move and bound."""
        moves = self._order(moves, node.tt_move, node.ply)
        best, best_move, flag = -INF, 0, UPPER
        sqs = self.pos.squares
        depth, ply = node.depth, node.ply
        futile = (
            depth < len(FUTILITY)
            and not node.in_check
            and not node.pv_node
            and abs(node.alpha) < MATE_BOUND
            and node.static + FUTILITY[depth] <= node.alpha
        )
        for i, code in enumerate(moves):
            quiet = (
                not sqs[code_to(code)]
                and not code_promotion(code)
                and code_flag(code) != EN_PASSANT
            )
            if futile and quiet and i > 0 and code != node.tt_move:
                continue  # a quiet move cannot lift this far below alpha
            self._make(code)
            if i == 0:
                score = -self._negamax(depth - 1, -node.beta, -node.alpha, ply + 1)
            else:
                score = self._later_move(node, i, quiet)
            self._unmake()
            if score <= best:
                continue
            best, best_move = score, code
            if score <= node.alpha:
                continue
            node.alpha = score
            flag = EXACT
            if node.alpha >= node.beta:
                if quiet:
                    self._reward(code, depth, ply)
                return best, best_move, LOWER
        return best, best_move, flag

    def _later_move(self, node: _Node, i: int, quiet: bool) -> int:
        """A move after the first: a null window, a ply or two shallower when
        it is late and quiet, searched again in full when it beats alpha."""
        depth, alpha, beta, ply = node.depth, node.alpha, node.beta, node.ply
        reduction = 0
        if depth >= LMR_MIN_DEPTH and i >= LMR_MIN_MOVES and quiet and not node.in_check:
            reduction = 1 if i < LMR_MORE_AFTER else 2
        score = -self._negamax(depth - 1 - reduction, -alpha - 1, -alpha, ply + 1)
        if score > alpha and (reduction or score < beta):
            score = -self._negamax(depth - 1, -beta, -alpha, ply + 1)
        return score

    def _reward(self, code: int, depth: int, ply: int) -> None:
        """A quiet move that cut off: a killer here, and history credit."""
        killers = self.killers[ply]
        if killers[0] != code:
            killers[1] = killers[0]
            killers[0] = code
        history = self.history
        credit = history.get(code_squares(code), 0) + depth * depth
        history[code_squares(code)] = credit
        if credit > HISTORY_LIMIT:
            for pair in history:
                history[pair] //= 2

    def _quiesce(self, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0:
            self._check()
        if ply > self.seldepth:
            self.seldepth = ply
        pos = self.pos
        in_check = pos.is_check()
        if in_check:
            moves = pos.legal_codes()
            if not moves:
                return -MATE + ply
            best = -INF
        else:
            ev = self.evaluator
            best = ev.material(pos, self.mg_stack[-1], self.eg_stack[-1])
            # Lazy: far outside the window, the positional terms cannot matter.
            if best - LAZY_MARGIN >= beta:
                return best
            if best + LAZY_MARGIN > alpha:
                best = self._evaluate()
            if best >= beta or ply >= MAX_PLY:
                return best
            if best > alpha:
                alpha = best
            moves = pos.legal_captures()
        sqs = pos.squares
        scored = []
        for code in moves:
            victim = sqs[code_to(code)] & 7
            promo = code_promotion(code)
            gain = ORDER_VALUE[victim] + (ORDER_VALUE[promo] if promo else 0)
            if code_flag(code) == EN_PASSANT:
                gain = ORDER_VALUE[PAWN]
            if not in_check and best + gain + DELTA_MARGIN < alpha:
                continue  # delta pruning: even winning this cannot reach alpha
            scored.append((gain * 16 - ORDER_VALUE[sqs[code_from(code)] & 7] // 16, code))
        scored.sort(reverse=True)
        for _, code in scored:
            self._make(code)
            score = -self._quiesce(-beta, -alpha, ply + 1)
            self._unmake()
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    @staticmethod
    def _has_pieces(pos: Position) -> bool:
        """Null move is unsafe in pawn endings (zugzwang)."""
        own = pos.colors[pos.turn]
        return bool(own & ~pos.pieces[PAWN] & ~pos.pieces[KING])

    def _order(self, moves: list[int], tt_move: int, ply: int) -> list[int]:
        sqs = self.pos.squares
        killers = self.killers[ply] if ply < len(self.killers) else [0, 0]
        history = self.history
        keyed = []
        for code in moves:
            if code == tt_move:
                key = 1 << 30
            else:
                victim = sqs[code_to(code)]
                promo = code_promotion(code)
                if victim and code_flag(code) != CASTLE:
                    attacker = ORDER_VALUE[sqs[code_from(code)] & 7]
                    key = (1 << 24) + ORDER_VALUE[victim & 7] * 16 - attacker // 16
                elif promo:
                    key = (1 << 24) + ORDER_VALUE[promo] * 16
                elif code == killers[0]:
                    key = 1 << 23
                elif code == killers[1]:
                    key = (1 << 23) - 1
                else:
                    key = history.get(code_squares(code), 0)
            keyed.append((key, code))
        keyed.sort(reverse=True)
        return [code for _, code in keyed]
