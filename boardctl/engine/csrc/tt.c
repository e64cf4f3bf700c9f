/* The transposition table and the evaluation cache, both kept by the rules
 * core's Zobrist hash.  Mate scores are stored as distances from the node
 * (value_to_tt) and read back as distances from the root (value_from_tt),
 * so a mate found through a transposition keeps its length. */

#include "tt.h"

#include "eval.h"

#include <string.h>

static inline int value_to_tt(const Core *c, int score, int ply) {
    if (score > c->mate_bound) return score + ply;
    if (score < -c->mate_bound) return score - ply;
    return score;
}

static inline int value_from_tt(const Core *c, int score, int ply) {
    if (score > c->mate_bound) return score - ply;
    if (score < -c->mate_bound) return score + ply;
    return score;
}

TTEntry *tt_slot(const Core *c) { return &c->tt[c->hash & c->tt_mask]; }

/* Whether the entry e, when it is this position's and searched deep enough,
 * settles the node by its bound; the settled score in *score. */
int tt_cutoff(const Core *c, const TTEntry *e, int depth, int alpha, int beta, int ply, int *score) {
    if (e->key != c->hash || e->depth < depth) return 0;
    int s = value_from_tt(c, e->score, ply);
    if (e->flag == EXACT || (e->flag == LOWER && s >= beta) || (e->flag == UPPER && s <= alpha)) {
        *score = s;
        return 1;
    }
    return 0;
}

void tt_store(const Core *c, TTEntry *e, int depth, int flag, int score, int ply, Move move) {
    e->key = c->hash; e->depth = (uint8_t)depth; e->flag = (uint8_t)flag;
    e->score = (int16_t)value_to_tt(c, score, ply); e->move = move;
}

int evaluate_cached(Core *c) {
    EvalEntry *e = &c->evals[c->hash & c->evals_mask];
    if (e->key != c->hash || !e->key) {
        e->key = c->hash;
        e->score = evaluate(c);
    }
    return e->score;
}

/* A new game: the table and history forgotten (the evaluation cache holds
 * no judgement of the search, only evaluations, and stays). */
void tt_clear(Core *c) {
    memset(c->tt, 0, (size_t)(c->tt_mask + 1) * sizeof(TTEntry));
    memset(c->history, 0, (size_t)c->nsq * (size_t)c->nsq * sizeof(int32_t));
}
