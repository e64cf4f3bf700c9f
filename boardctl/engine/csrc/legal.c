/* The legal moves and perft: the generated moves (movegen.c) that making
 * them (board.c) shows to leave no king attacked. */
#include "legal.h"

#include "board.h"
#include "movegen.h"

int legal_moves(Core *c, Move *out) {
    Move buf[MAX_MOVES];
    int n = generate(c, buf, 0), k = 0;
    for (int i = 0; i < n; i++) {
        if (make_legal(c, buf[i])) { unmake(c); out[k++] = buf[i]; }
    }
    return k;
}

uint64_t perft(Core *c, int depth) {
    Move moves[MAX_MOVES];
    int n = generate(c, moves, 0);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        if (!make_legal(c, moves[i])) continue;
        total += depth > 1 ? perft(c, depth - 1) : 1;
        unmake(c);
    }
    return total;
}
