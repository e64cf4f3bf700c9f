/* Move ordering: static exchanges, the ordering keys (core.h's KEY_*), killers
 * and history.  Ordering values are params.ORDER_VALUE. */
#include "order.h"

static inline void consider(const Core *c, int cell, int type, int *best, int *best_value) {
    if (c->order_value[type] < *best_value) { *best = cell; *best_value = c->order_value[type]; }
}

/* The cheapest rook, bishop or queen of colour by on the lines through sq. */
static void line_attackers(const Core *c, int sq, int by, int *best, int *best_value) {
    const uint8_t *b = c->board;
    int col = by << COLOUR_SHIFT;
    const int *rook = c->lines, *bishop = c->lines + c->nrook;
    for (int i = 0, n = c->nrook; i < n; i++) {
        int d = rook[i], t = sq + d;
        while (!b[t]) t += d;
        if (b[t] == (ROOK | col) || b[t] == (QUEEN | col))
            consider(c, t, b[t] & TYPE_MASK, best, best_value);
        d = bishop[i]; t = sq + d;
        while (!b[t]) t += d;
        if (b[t] == (BISHOP | col) || b[t] == (QUEEN | col))
            consider(c, t, b[t] & TYPE_MASK, best, best_value);
    }
}

/* The cell of the least valuable piece of colour by that attacks sq, or -1.
 * Pieces already traded off the board in see() are gone from it, so a
 * slider or a falcon behind them attacks in turn. */
static int least_attacker(const Core *c, int sq, int by) {
    const uint8_t *b = c->board;
    int col = by << COLOUR_SHIFT;
    for (int i = 0; i < 2; i++)
        if (b[sq - c->capture[by][i]] == (PAWN | col)) return sq - c->capture[by][i];
    int best = -1, best_value = c->inf;
    const int *kn = c->knight_steps, *ki = c->king_steps;
    for (int i = 0, n = c->nking; i < n; i++) {
        if (b[sq + kn[i]] == (KNIGHT | col)) consider(c, sq + kn[i], KNIGHT, &best, &best_value);
        if (b[sq + ki[i]] == (KING | col)) consider(c, sq + ki[i], KING, &best, &best_value);
    }
    line_attackers(c, sq, by, &best, &best_value);
    if (c->count[FALCON | col]) {
        for (int i = 0; i < c->nfalcon; i++) {
            const FalconStep *f = &c->falcon[i];
            if (b[sq + f->to] == (FALCON | col) && falcon_open(b, sq, f))
                consider(c, sq + f->to, FALCON, &best, &best_value);
        }
    }
    return best;
}

/* Static exchange evaluation: what the capture m wins in material (by the
 * ordering values) when both sides recapture on its square with their
 * least valuable piece for as long as it pays.  Pins are not seen. */
int see(Core *c, Move m) {
    uint8_t *b = c->board;
    int from = M_FROM(m), to = M_TO(m), promo = M_PROMO(m);
    int gain[MAX_CELLS + 2], cleared[MAX_CELLS + 2];
    uint8_t was[MAX_CELLS + 2];
    int d = 0, n = 0, side = b[from] >> COLOUR_SHIFT;
    int on_square = c->order_value[promo ? promo : b[from] & TYPE_MASK];
    gain[0] = c->order_value[victim_of(c, m)];
    if (promo) gain[0] += c->order_value[promo] - c->order_value[PAWN];
    if (M_FLAG(m) == F_EP) {
        int cap = to - c->push[side];
        cleared[n] = cap; was[n++] = b[cap]; b[cap] = 0;
    }
    cleared[n] = from; was[n++] = b[from]; b[from] = 0;
    for (;;) {
        side ^= 1;
        d++;
        /* What side has if it takes back and is not taken in turn: the most
         * it can get, so below what it has by not taking, it stops. */
        gain[d] = on_square - gain[d - 1];
        if (gain[d] < -gain[d - 1]) break;
        int sq = least_attacker(c, to, side);
        if (sq < 0 || n > MAX_CELLS) break;
        on_square = c->order_value[b[sq] & TYPE_MASK];
        cleared[n] = sq; was[n++] = b[sq]; b[sq] = 0;
    }
    while (--d) gain[d - 1] = -(-gain[d - 1] > gain[d] ? -gain[d - 1] : gain[d]);
    while (n) { n--; b[cleared[n]] = was[n]; }
    return gain[0];
}

/* A capture that loses material by see(); taking a piece worth at least
 * the taker never does, and is not looked at. */
int losing_capture(Core *c, Move m, int victim) {
    return !M_PROMO(m) && c->order_value[c->board[M_FROM(m)] & TYPE_MASK] > c->order_value[victim]
        && see(c, m) < 0;
}

static inline int32_t *history_of(const Core *c, Move m) {
    return &c->history[M_FROM(m) * c->nsq + M_TO(m)];
}

void score_moves(Core *c, const Move *moves, int *keys, int n, Move tt_move, int ply) {
    const Move *k = c->killers[ply];
    for (int i = 0; i < n; i++) {
        Move m = moves[i];
        int victim = victim_of(c, m), promo = M_PROMO(m);
        if (m == tt_move) keys[i] = KEY_TT;
        else if (victim) keys[i] = (losing_capture(c, m, victim) ? KEY_LOSING : KEY_CAPTURE)
            + c->order_value[victim] * ORDER_SCALE
            - c->order_value[c->board[M_FROM(m)] & TYPE_MASK] / ORDER_SCALE;
        else if (promo) keys[i] = KEY_CAPTURE + c->order_value[promo] * ORDER_SCALE;
        else if (m == k[0]) keys[i] = KEY_KILLER;
        else if (m == k[1]) keys[i] = KEY_KILLER - 1;
        else keys[i] = *history_of(c, m);
    }
}

/* Bring the best-keyed of moves[i..n) to position i. */
void pick(Move *moves, int *keys, int i, int n) {
    /* The best key so far held apart: read back as keys[best], each compare
     * waited on the last one's load (a tenth of the search's time). */
    int best = i, top = keys[i];
    for (int j = i + 1; j < n; j++) if (keys[j] > top) { best = j; top = keys[j]; }
    if (best != i) {
        Move m = moves[i]; moves[i] = moves[best]; moves[best] = m;
        int k = keys[i]; keys[i] = keys[best]; keys[best] = k;
    }
}

/* The root's moves: the caller's first move first, then by the usual keys;
 * each one's noise travels along with it. */
void order_root(Core *c, Move *moves, int *noise, int n) {
    int keys[MAX_MOVES];
    score_moves(c, moves, keys, n, moves[0], 0);
    for (int i = 0; i < n; i++) {
        int best = i;
        for (int j = i + 1; j < n; j++) if (keys[j] > keys[best]) best = j;
        Move m = moves[i]; moves[i] = moves[best]; moves[best] = m;
        int k = keys[i]; keys[i] = keys[best]; keys[best] = k;
        k = noise[i]; noise[i] = noise[best]; noise[best] = k;
    }
}

/* The quiet move m cut off at depth: a killer at ply, and history credit;
 * the quiet moves tried before it failed here, so they lose as much. */
void reward_quiet(Core *c, Move m, int depth, int ply, const Move *tried, int ntried) {
    Move *k = c->killers[ply];
    if (k[0] != m) { k[1] = k[0]; k[0] = m; }
    int32_t *h = history_of(c, m);
    *h += depth * depth;
    if (*h > c->history_limit) {
        for (int j = 0; j < c->nsq * c->nsq; j++) c->history[j] /= 2;
    }
    for (int j = 0; j < ntried; j++) {
        int32_t *t = history_of(c, tried[j]);
        *t -= depth * depth;
        if (*t < -c->history_limit) *t = -c->history_limit;
    }
}
