/* Making and taking back moves (board.c). */
#ifndef BOARDCTL_BOARD_H
#define BOARDCTL_BOARD_H

#include "core.h"

void put(Core *c, int sq, int piece);
void make(Core *c, Move m);
void unmake(Core *c);
void make_null(Core *c);
int make_legal(Core *c, Move m);

#endif
