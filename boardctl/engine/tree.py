"""The Python core of the search: the reference oracle the compiled core
(``csrc/``) is checked against, and what plays where nothing was compiled.

A principal-variation search with a transposition table, null-move pruning,
late-move reductions, check extension, mate-distance pruning and a
quiescence search, keeping the material sums incrementally as it makes and
unmakes moves.  :class:`PythonTree` is the part of
:class:`~boardctl.engine.search.Engine` that walks the tree; the engine's
driver (iterative deepening, time, skill, reporting) shares it with the
compiled core.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ..rules import Position
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
from . import core
from .evaluate import Evaluator, evaluator_for, material_sums
from .params import (
    CHECK_EVERY,
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

EXACT, LOWER, UPPER = 0, 1, 2
TT_LIMIT = 1_500_000  # entries before the Python core's table is cleared


class SearchStopped(Exception):
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


class PythonTree:
    """The Python core's tree search, one search at a time: the engine's
    driver sets up the search (:meth:`_prepare_tree`) and its limits, then
    asks :meth:`_tree_root` for each iteration."""

    # Set by the engine's driver for each search.
    pos: Position
    stop: Callable[[], bool] | None
    nodes: int
    seldepth: int
    node_limit: int | None
    contempt: int
    _hard_deadline: float | None
    _current_best: int
    _noise: dict[int, int]
    _root_moves: list[int]
    # The Python core's own, kept between searches.
    tt: dict[int, tuple[int, int, int, int]]
    history: dict[int, int]
    killers: list[list[int]]
    _evaluators: dict[str, Evaluator]

    def _prepare_tree(self, pos: Position) -> None:
        """The Python core's state for a search of ``pos``."""
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

    def _tree_root(self, depth: int, alpha: int, beta: int, first: int) -> tuple[int, int]:
        """The root's move loop, with the level's noise on each move's score."""
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
            raise SearchStopped
        if self.stop is not None and self.stop():
            raise SearchStopped
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise SearchStopped

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
