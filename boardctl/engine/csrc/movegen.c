/* Attacks and move generation on the mailbox (see core.h). */

#include "movegen.h"

#include <stdlib.h>

int attacked(const Core *c, int sq, int by) {
    const uint8_t *b = c->board;
    int col = by << COLOUR_SHIFT;
    uint8_t pawn = PAWN | col;
    if (b[sq - c->capture[by][0]] == pawn || b[sq - c->capture[by][1]] == pawn) return 1;
    /* As many knight leaps as king steps, as many rook lines as bishop
     * lines, on either shape (read_board checks): one loop each. */
    const int *kn = c->knight_steps, *ki = c->king_steps;
    for (int i = 0, n = c->nking; i < n; i++) {
        if (b[sq + kn[i]] == (KNIGHT | col)) return 1;
        if (b[sq + ki[i]] == (KING | col)) return 1;
    }
    const int *rook = c->lines, *bishop = c->lines + c->nrook;
    for (int i = 0, n = c->nrook; i < n; i++) {
        int d = rook[i], t = sq + d;
        while (!b[t]) t += d;
        if (b[t] == (ROOK | col) || b[t] == (QUEEN | col)) return 1;
        d = bishop[i]; t = sq + d;
        while (!b[t]) t += d;
        if (b[t] == (BISHOP | col) || b[t] == (QUEEN | col)) return 1;
    }
    if (c->count[FALCON | col]) {
        for (int i = 0; i < c->nfalcon; i++) {
            const FalconStep *f = &c->falcon[i];
            if (b[sq + f->to] == (FALCON | col) && falcon_open(b, sq, f)) return 1;
        }
    }
    return 0;
}

static inline int enemy_or_empty(uint8_t p, int us) {
    return !p || (p != OFF && (p >> COLOUR_SHIFT) != us);
}
static inline int enemy(uint8_t p, int us) { return p && p != OFF && (p >> COLOUR_SHIFT) != us; }
static inline int reachable(uint8_t p, int us, int captures_only) {
    return captures_only ? enemy(p, us) : enemy_or_empty(p, us);
}

void castle_rook_squares(const Core *c, int kfrom, int kto, int *rfrom, int *rto) {
    int base = kfrom - c->file_at[kfrom];
    if (kto < kfrom) { *rfrom = base; *rto = kto + 1; }
    else { *rfrom = base + c->files - 1; *rto = kto - 1; }
}

/* Fairy-Max's test: the king's squares, judged with king and rook moved. */
static int safe_after_castling(Core *c, int king, int dest, int rook, int step) {
    uint8_t *b = c->board;
    uint8_t kp = b[king], rp = b[rook];
    int them = c->turn ^ 1, ok = 1;
    b[king] = 0; b[rook] = 0; b[dest] = kp; b[dest - step] = rp;
    for (int sq = king;; sq += step) {
        if (attacked(c, sq, them)) { ok = 0; break; }
        if (sq == dest) break;
    }
    b[dest - step] = 0; b[dest] = 0; b[rook] = rp; b[king] = kp;
    return ok;
}

/* The castlings towards the rook on bit ``bit`` of the rights, appended at n. */
static int gen_castle_side(Core *c, Move *out, int n, int bit) {
    int king = c->king[c->turn], them = c->turn ^ 1;
    int rook = c->rook_home[bit];
    int step = rook > king ? 1 : -1;
    for (int sq = king + step; sq != rook; sq += step)
        if (c->board[sq]) return n;
    int room = abs(c->file_at[rook] - c->file_at[king]) - 1;
    int high = c->castle_max < 0 || c->castle_max > room ? room : c->castle_max;
    if (high < c->castle_min) return n;
    for (int d = 1; d <= high; d++) {
        int dest = king + step * d;
        if (c->judged_after) {
            if (d < c->castle_min) continue;
            if (!safe_after_castling(c, king, dest, rook, step)) continue;
        } else if (attacked(c, dest, them)) {
            break;
        } else if (d < c->castle_min) {
            continue;
        }
        out[n++] = MOVE(king, dest, 0, F_CASTLE);
    }
    return n;
}

static int gen_castles(Core *c, Move *out, int n) {
    int us = c->turn;
    if (!c->judged_after && attacked(c, c->king[us], us ^ 1)) return n;
    for (int side = 0; side < 2; side++)
        if (c->castling >> (us * 2 + side) & 1) n = gen_castle_side(c, out, n, us * 2 + side);
    return n;
}

static int add_pawn_move(const Core *c, Move *out, int n, int from, int to) {
    if (c->promotes[to] >> c->turn & 1) {
        for (int i = 0; i < c->npromos; i++) out[n++] = MOVE(from, to, c->promos[i], 0);
    } else {
        out[n++] = MOVE(from, to, 0, 0);
    }
    return n;
}

static int gen_pawn(const Core *c, Move *out, int n, int sq, int captures_only) {
    const uint8_t *b = c->board;
    int us = c->turn;
    int fwd = c->push[us], west = c->capture[us][0], east = c->capture[us][1];
    int to = sq + fwd;
    if (!b[to]) {
        if (!captures_only || (c->promotes[to] >> us & 1))
            n = add_pawn_move(c, out, n, sq, to);
        if (!captures_only && (c->double_from[sq] >> us & 1) && !b[to + fwd])
            out[n++] = MOVE(sq, to + fwd, 0, F_DOUBLE);
    }
    if (enemy(b[sq + west], us)) n = add_pawn_move(c, out, n, sq, sq + west);
    if (enemy(b[sq + east], us)) n = add_pawn_move(c, out, n, sq, sq + east);
    if (c->ep && (sq + west == c->ep || sq + east == c->ep))
        out[n++] = MOVE(sq, c->ep, 0, F_EP);
    return n;
}

static int gen_leaps(const Core *c, Move *out, int n, int sq, int type, int captures_only) {
    const int *steps = type == KNIGHT ? c->knight_steps : c->king_steps;
    int nsteps = type == KNIGHT ? c->nknight : c->nking;
    for (int i = 0; i < nsteps; i++) {
        int to = sq + steps[i];
        if (reachable(c->board[to], c->turn, captures_only)) out[n++] = MOVE(sq, to, 0, 0);
    }
    return n;
}

static int gen_falcon(const Core *c, Move *out, int n, int sq, int captures_only) {
    for (int i = 0; i < c->nfalcon; i++) {
        const FalconStep *fs = &c->falcon[i];
        int to = sq + fs->to;
        if (!reachable(c->board[to], c->turn, captures_only)) continue;
        if (falcon_open(c->board, sq, fs)) out[n++] = MOVE(sq, to, 0, 0);
    }
    return n;
}

static int gen_slides(const Core *c, Move *out, int n, int sq, int type, int captures_only) {
    const uint8_t *b = c->board;
    int first = type == BISHOP ? c->nrook : 0;
    int last = type == ROOK ? c->nrook : c->nrook + c->nbishop;
    for (int i = first; i < last; i++) {
        int d = c->lines[i];
        int to = sq + d;
        while (!b[to]) {
            if (!captures_only) out[n++] = MOVE(sq, to, 0, 0);
            to += d;
        }
        if (enemy(b[to], c->turn)) out[n++] = MOVE(sq, to, 0, 0);
    }
    return n;
}

/* Pseudo-legal moves (castling fully legal); with captures_only, captures,
 * en passant and promotions.  Returns how many. */
int generate(Core *c, Move *out, int captures_only) {
    const uint8_t *b = c->board;
    int us = c->turn, n = 0;
    /* Our pieces by increasing cell, the order of a walk over every cell. */
    for (int w = 0; w < OCC_WORDS; w++) {
        for (uint64_t bits = c->occupied[us][w]; bits; bits &= bits - 1) {
            int sq = lowest_cell(c, w, bits);
            int type = b[sq] & TYPE_MASK;
            switch (type) {
            case PAWN: n = gen_pawn(c, out, n, sq, captures_only); break;
            case KNIGHT:
            case KING: n = gen_leaps(c, out, n, sq, type, captures_only); break;
            case FALCON: n = gen_falcon(c, out, n, sq, captures_only); break;
            default: n = gen_slides(c, out, n, sq, type, captures_only);
            }
        }
    }
    if (!captures_only && c->castling >> (us * 2) & 3) n = gen_castles(c, out, n);
    return n;
}
