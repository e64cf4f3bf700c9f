/* The legal moves and perft: generated moves kept when making them leaves
 * no king attacked (legal.c). */
#ifndef BOARDCTL_LEGAL_H
#define BOARDCTL_LEGAL_H

#include "core.h"

int legal_moves(Core *c, Move *out);
uint64_t perft(Core *c, int depth);

#endif
