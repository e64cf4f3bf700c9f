/* The transposition table and the evaluation cache (tt.c). */
#ifndef BOARDCTL_TT_H
#define BOARDCTL_TT_H

#include "core.h"

TTEntry *tt_slot(const Core *c);
int tt_cutoff(const Core *c, const TTEntry *e, int depth, int alpha, int beta, int ply, int *score);
void tt_store(const Core *c, TTEntry *e, int depth, int flag, int score, int ply, Move move);
int evaluate_cached(Core *c);
void tt_clear(Core *c);

#endif
