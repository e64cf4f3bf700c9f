/* Move ordering: exchanges, ordering keys, killers and history (order.c). */
#ifndef BOARDCTL_ORDER_H
#define BOARDCTL_ORDER_H

#include "core.h"

int see(Core *c, Move m);
int losing_capture(Core *c, Move m, int victim);
void score_moves(Core *c, const Move *moves, int *keys, int n, Move tt_move, int ply);
void pick(Move *moves, int *keys, int i, int n);
void order_root(Core *c, Move *moves, int *noise, int n);
void reward_quiet(Core *c, Move m, int depth, int ply, const Move *tried, int ntried);

#endif
