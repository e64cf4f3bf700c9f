/* Attacks and pseudo-legal move generation (movegen.c). */
#ifndef BOARDCTL_MOVEGEN_H
#define BOARDCTL_MOVEGEN_H

#include "core.h"

int attacked(const Core *c, int sq, int by);
static inline int in_check(const Core *c) { return attacked(c, c->king[c->turn], c->turn ^ 1); }
void castle_rook_squares(const Core *c, int kfrom, int kto, int *rfrom, int *rto);
int generate(Core *c, Move *out, int captures_only);

#endif
