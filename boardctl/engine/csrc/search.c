/* The search: principal variation search with null move, reverse futility,
 * futility and late-move reductions, internal iterative reduction, and a
 * quiescence search of captures and promotions (every move in check) that
 * reads the transposition table and fills its shallowest slots.
 * Every number is params.py's (params.core_search). */

#include "search.h"

#include "board.h"
#include "eval.h"
#include "limits.h"
#include "movegen.h"
#include "order.h"
#include "tt.h"

#include <stdlib.h>

/* What a node was asked and what it found before its moves: what its move
 * loop needs. */
typedef struct {
    int depth, alpha, beta, ply, check, pv_node, stat;
    Move tt_move;
} Node;

/* A draw is worth -contempt to the side to move at the root. */
static inline int draw_score(const Core *c, int ply) {
    return ply % 2 ? c->contempt : -c->contempt;
}

static int repeated(const Core *c) {
    uint64_t key = c->path[c->plen - 1];
    int limit = c->halfmove < c->plen - 1 ? c->halfmove : c->plen - 1;
    for (int i = 2; i <= limit; i += 2)
        if (c->path[c->plen - 1 - i] == key) return 1;
    return 0;
}

/* Null move is unsafe in pawn endings (zugzwang). */
static int has_pieces(const Core *c) {
    int col = c->turn << COLOUR_SHIFT;
    const int *k = c->count;
    return k[KNIGHT | col] + k[BISHOP | col] + k[ROOK | col] + k[QUEEN | col] + k[FALCON | col] > 0;
}

/* The captures worth a look in quiescence, keyed by what they gain; how many. */
static int quiet_captures(Core *c, Move *moves, int *keys, int n, int check, int best, int alpha) {
    int k = 0;
    for (int i = 0; i < n; i++) {
        Move m = moves[i];
        int victim = victim_of(c, m), promo = M_PROMO(m);
        int gain = c->order_value[victim] + (promo ? c->order_value[promo] : 0);
        if (!check && best + gain + c->delta_margin < alpha) continue;  /* delta pruning */
        if (!check && losing_capture(c, m, victim)) continue;
        moves[k] = m;
        keys[k++] = gain * ORDER_SCALE
            - c->order_value[c->board[M_FROM(m)] & TYPE_MASK] / ORDER_SCALE;
    }
    return k;
}

static int quiesce(Core *c, int alpha, int beta, int ply) {
    if (++c->nodes >= c->next_check) check_limits(c);
    if (c->stopped) return 0;
    if (ply > c->seldepth) c->seldepth = ply;
    /* The main search's verdict on this position, at any depth, settles it here too. */
    TTEntry *e = tt_slot(c);
    int best, n;
    if (tt_cutoff(c, e, 0, alpha, beta, ply, &best)) return best;
    int check = in_check(c), alpha0 = alpha;
    Move moves[MAX_MOVES];
    int keys[MAX_MOVES];
    if (check) {
        best = -c->inf;
        n = generate(c, moves, 0);
    } else {
        best = material(c);
        /* Lazy: far outside the window, the positional terms cannot matter. */
        if (best - c->lazy_margin >= beta) return best;
        if (best + c->lazy_margin > alpha) best = evaluate_cached(c);
        if (best >= beta || ply >= c->max_ply) return best;
        if (best > alpha) alpha = best;
        n = generate(c, moves, 1);
    }
    int k = quiet_captures(c, moves, keys, n, check, best, alpha), legal = 0;
    for (int i = 0; i < k; i++) {
        pick(moves, keys, i, k);
        if (!make_legal(c, moves[i])) continue;
        legal++;
        int score = -quiesce(c, -beta, -alpha, ply + 1);
        unmake(c);
        if (c->stopped) return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                if (alpha >= beta) break;
            }
        }
    }
    if (check && !legal) best = -c->mate + ply;
    /* Kept where the slot holds nothing deeper: the main search's entries stay. */
    if (e->depth == 0)
        tt_store(c, e, 0, best >= beta ? LOWER : best > alpha0 ? EXACT : UPPER, best, ply, 0);
    return best;
}

static int negamax(Core *c, int depth, int alpha, int beta, int ply, int allow_null);

/* The null move's search: 1 when passing still holds beta. */
static int null_holds(Core *c, int depth, int beta, int ply) {
    make_null(c);
    int reduce = c->null_reduction + depth / c->null_deeper;
    int score = -negamax(c, depth - 1 - reduce, -beta, -beta + 1, ply + 1, 0);
    unmake(c);
    return !c->stopped && score >= beta && score < c->mate_bound;
}

/* A move after the first: a null window, reduced when it is late and quiet
 * (or a losing capture), searched again in full when it beats alpha. */
static int later_move(Core *c, const Node *nd, int legal, int reducible) {
    int reduction = 0;
    if (nd->depth >= c->lmr_min_depth && legal >= c->lmr_min_moves && reducible && !nd->check) {
        int row = nd->depth < c->lmr_depths ? nd->depth : c->lmr_depths - 1;
        int column = legal < c->lmr_moves ? legal : c->lmr_moves - 1;
        reduction = c->lmr[row * c->lmr_moves + column];
        if (nd->pv_node && reduction > 0) reduction--;
        if (reduction > nd->depth - 2) reduction = nd->depth - 2;  /* never into quiescence */
        if (reduction < 1) reduction = 1;
    }
    int score = -negamax(c, nd->depth - 1 - reduction, -nd->alpha - 1, -nd->alpha, nd->ply + 1, 1);
    if (score > nd->alpha && (reduction || score < nd->beta))
        score = -negamax(c, nd->depth - 1, -nd->beta, -nd->alpha, nd->ply + 1, 1);
    return score;
}

/* The node's moves, best first; its best score, best move, bound and how many
 * legal moves it had.  A stopped search returns at once. */
static int search_moves(Core *c, Node *nd, Move *best_move, int *flag, int *legal) {
    Move moves[MAX_MOVES], tried[MAX_MOVES];     /* tried: quiet moves that did not cut off */
    int keys[MAX_MOVES], n = generate(c, moves, 0), best = -c->inf, ntried = 0;
    score_moves(c, moves, keys, n, nd->tt_move, nd->ply);
    int shallow = !nd->check && !nd->pv_node && abs(nd->alpha) < c->mate_bound;
    int futile = shallow && nd->depth < c->nfutility && nd->stat + c->futility[nd->depth] <= nd->alpha;
    /* Late-move pruning: past this many moves, a shallow node's quiet moves are left out. */
    int late = shallow && nd->depth <= c->lmp_depth ? c->lmp_moves + nd->depth * nd->depth : n + 1;
    for (int i = 0; i < n; i++) {
        pick(moves, keys, i, n);
        Move m = moves[i];
        int quiet = !victim_of(c, m) && !M_PROMO(m);
        int prunable = quiet && m != nd->tt_move && ((futile && *legal > 0) || *legal >= late);
        if (!make_legal(c, m)) continue;
        /* A check is never pruned nor reduced: at a shallow depth it is the
         * move whose reply the search most needs to see. */
        int checks = in_check(c);
        if (prunable && !checks) { unmake(c); continue; }
        /* A key below -KEY_KILLER is a losing capture (score_moves): reduced like a quiet move. */
        int score = *legal == 0
            ? -negamax(c, nd->depth - 1, -nd->beta, -nd->alpha, nd->ply + 1, 1)
            : later_move(c, nd, *legal, !checks && (quiet || keys[i] < -KEY_KILLER));
        (*legal)++;
        unmake(c);
        if (c->stopped) return 0;
        if (quiet && score <= nd->alpha) tried[ntried++] = m;
        if (score <= best) continue;
        best = score;
        *best_move = m;
        if (score <= nd->alpha) continue;
        nd->alpha = score;
        *flag = EXACT;
        if (nd->alpha >= nd->beta) {
            *flag = LOWER;
            if (quiet) reward_quiet(c, m, nd->depth, nd->ply, tried, ntried);
            break;
        }
    }
    return best;
}

static int negamax(Core *c, int depth, int alpha, int beta, int ply, int allow_null) {
    if (++c->nodes >= c->next_check) check_limits(c);
    if (c->stopped) return 0;
    if (c->halfmove >= c->fifty_moves || repeated(c)) return draw_score(c, ply);
    /* Mate-distance pruning: no line can beat a mate already found nearer. */
    if (alpha < -c->mate + ply) alpha = -c->mate + ply;
    if (beta > c->mate - ply - 1) beta = c->mate - ply - 1;
    if (alpha >= beta) return alpha;
    int check = in_check(c);
    if (check) depth++;
    if (depth <= 0 || ply >= c->max_ply) return quiesce(c, alpha, beta, ply);
    TTEntry *e = tt_slot(c);
    Move tt_move = e->key == c->hash ? e->move : 0;
    int pv_node = beta - alpha > 1, score;
    if (!pv_node && tt_cutoff(c, e, depth, alpha, beta, ply, &score)) return score;
    /* No move from the table: this node was not searched before, or not
     * deep enough to keep; a shallower search is the cheaper way to find one. */
    if (!tt_move && depth >= c->iir_depth) depth--;
    int stat = -c->inf;
    if (!check && !pv_node) {
        stat = evaluate_cached(c);
        /* Reverse futility: far above beta with little depth left. */
        if (depth <= c->reverse_depth && abs(beta) < c->mate_bound
            && stat - c->reverse_futility * depth >= beta) return stat;
    }
    if (allow_null && !pv_node && !check && depth >= c->null_min_depth && has_pieces(c)
        && stat >= beta) {
        if (null_holds(c, depth, beta, ply)) return beta;
        if (c->stopped) return 0;
    }
    Node nd = {depth, alpha, beta, ply, check, pv_node, stat, tt_move};
    Move best_move = 0;
    int flag = UPPER, legal = 0;
    int best = search_moves(c, &nd, &best_move, &flag, &legal);
    if (c->stopped) return 0;
    /* Pruning waits for one legal move, so none searched means none exist. */
    if (!legal) return check ? -c->mate + ply : draw_score(c, ply);
    tt_store(c, e, depth, flag, best, ply, best_move);
    return best;
}

/* One iteration at the root over moves (legal, in order), each one's score
 * raised by its noise unless it is a mate.  Returns the best score, its move
 * in *best_move; current_best follows the best so far from depth 2. */
int search_root(Core *c, int depth, int alpha, int beta, const Move *moves, const int *noise,
                int n, Move *best_move) {
    int best = -c->inf;
    *best_move = moves[0];
    for (int i = 0; i < n; i++) {
        int bonus = noise[i], raw;
        make(c, moves[i]);
        if (i == 0) {
            raw = -negamax(c, depth - 1, -beta + bonus, -alpha + bonus, 1, 1);
        } else {
            raw = -negamax(c, depth - 1, -alpha + bonus - 1, -alpha + bonus, 1, 1);
            if (!c->stopped && alpha < raw + bonus && raw + bonus < beta)
                raw = -negamax(c, depth - 1, -beta + bonus, -alpha + bonus, 1, 1);
        }
        unmake(c);
        if (c->stopped) break;
        int score = abs(raw) > c->mate_bound ? raw : raw + bonus;
        if (score > best) {
            best = score;
            *best_move = moves[i];
            if (depth > 1) c->current_best = moves[i];
        }
        if (score > alpha) alpha = score;
        if (alpha >= beta) break;
    }
    if (!c->stopped) tt_store(c, tt_slot(c), depth, best < beta ? EXACT : LOWER, best, 0, *best_move);
    return best;
}
