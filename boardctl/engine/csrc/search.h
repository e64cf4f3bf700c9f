/* The search from the root (search.c). */
#ifndef BOARDCTL_SEARCH_H
#define BOARDCTL_SEARCH_H

#include "core.h"

int search_root(Core *c, int depth, int alpha, int beta, const Move *moves, const int *noise,
                int n, Move *best_move);

#endif
