/* Making and taking back moves: the board and its occupied cells, the hash,
 * the material sums and the path of hashes that repetitions are looked up in. */
#include "board.h"

#include "movegen.h"

/* A piece of colour arrives on sq, or leaves it: its bit in Core.occupied. */
static inline void occupy(Core *c, int sq, int colour) {
    unsigned cell = (unsigned)c->sq2py[sq];
    c->occupied[colour][cell / 64] |= (uint64_t)1 << (cell % 64);
}
static inline void vacate(Core *c, int sq, int colour) {
    unsigned cell = (unsigned)c->sq2py[sq];
    c->occupied[colour][cell / 64] &= ~((uint64_t)1 << (cell % 64));
}

void put(Core *c, int sq, int piece) {
    c->board[sq] = (uint8_t)piece;
    occupy(c, sq, piece >> COLOUR_SHIFT);
    c->hash ^= c->zpiece[piece][sq];
    c->mg += c->mgt[piece][sq];
    c->eg += c->egt[piece][sq];
    c->count[piece]++;
}

static inline void take(Core *c, int sq) {
    int piece = c->board[sq];
    c->board[sq] = 0;
    vacate(c, sq, piece >> COLOUR_SHIFT);
    c->hash ^= c->zpiece[piece][sq];
    c->mg -= c->mgt[piece][sq];
    c->eg -= c->egt[piece][sq];
    c->count[piece]--;
}

/* Push what unmake needs and start the new position's hash: the side to move
 * changes and no en passant is open any more. */
static inline Undo *push_undo(Core *c, Move m) {
    Undo *u = &c->stack[c->sp++];
    u->move = m; u->castling = (uint8_t)c->castling; u->ep = (uint16_t)c->ep;
    u->halfmove = c->halfmove; u->mg = c->mg; u->eg = c->eg; u->hash = c->hash; u->epkey = c->epkey;
    c->hash ^= c->epkey ^ c->zblack;
    c->epkey = 0;
    c->ep = 0;
    return u;
}

static void make_castle(Core *c, int from, int to) {
    int rfrom, rto;
    castle_rook_squares(c, from, to, &rfrom, &rto);
    uint8_t king = c->board[from], rook = c->board[rfrom];
    take(c, from);
    take(c, rfrom);
    put(c, to, king);
    put(c, rto, rook);
    c->king[c->turn] = to;
    c->halfmove++;
}

/* After a double step the en passant square is hashed only when a pawn of
 * the other side can take there, as the rules core does. */
static void open_en_passant(Core *c, int from, int to) {
    int us = c->turn, ep = (from + to) / 2;
    c->ep = ep;
    uint8_t theirs = PAWN | (us ^ 1) << COLOUR_SHIFT;
    const int *takes = c->capture[us ^ 1];
    if (c->board[ep - takes[0]] == theirs || c->board[ep - takes[1]] == theirs) {
        c->epkey = c->zep[ep];
        c->hash ^= c->epkey;
    }
}

void make(Core *c, Move m) {
    int from = M_FROM(m), to = M_TO(m), flag = M_FLAG(m), promo = M_PROMO(m);
    int us = c->turn;
    uint8_t piece = c->board[from];
    Undo *u = push_undo(c, m);
    if (flag == F_CASTLE) {
        u->captured = 0;
        make_castle(c, from, to);
    } else {
        uint8_t captured = c->board[to];
        u->captured = captured;
        if (captured) take(c, to);
        take(c, from);
        put(c, to, promo ? promo | us << COLOUR_SHIFT : piece);
        if ((piece & TYPE_MASK) == KING) c->king[us] = to;
        if ((piece & TYPE_MASK) == PAWN || captured) c->halfmove = 0; else c->halfmove++;
        if (flag == F_DOUBLE) {
            open_en_passant(c, from, to);
        } else if (flag == F_EP) {
            take(c, to - c->push[us]);
            c->halfmove = 0;
        }
    }
    int lost = c->rights_lost[from] | c->rights_lost[to];
    if (c->castling & lost) {
        c->hash ^= c->zcastle[c->castling];
        c->castling &= ~lost;
        c->hash ^= c->zcastle[c->castling];
    }
    c->turn = us ^ 1;
    c->path[c->plen++] = c->hash;
}

/* The board and counts of move m taken back by the side us; the rest comes from the Undo. */
static void unplace(Core *c, Move m, int us, uint8_t captured) {
    int from = M_FROM(m), to = M_TO(m), flag = M_FLAG(m);
    if (flag == F_CASTLE) {
        int rfrom, rto;
        castle_rook_squares(c, from, to, &rfrom, &rto);
        uint8_t king = c->board[to], rook = c->board[rto];
        c->board[rto] = 0; c->board[to] = 0;
        c->board[rfrom] = rook; c->board[from] = king;
        /* Left before filled: the rook may have landed where the king stood. */
        vacate(c, rto, us); vacate(c, to, us);
        occupy(c, rfrom, us); occupy(c, from, us);
        c->king[us] = from;
        return;
    }
    uint8_t piece = c->board[to];
    c->count[piece]--;
    if (M_PROMO(m)) piece = PAWN | us << COLOUR_SHIFT;
    c->count[piece]++;
    c->board[from] = piece;
    c->board[to] = captured;
    occupy(c, from, us);
    vacate(c, to, us);
    if (captured) { c->count[captured]++; occupy(c, to, us ^ 1); }
    if ((piece & TYPE_MASK) == KING) c->king[us] = from;
    if (flag == F_EP) {
        int victim = to - c->push[us];
        c->board[victim] = PAWN | (us ^ 1) << COLOUR_SHIFT;
        c->count[PAWN | (us ^ 1) << COLOUR_SHIFT]++;
        occupy(c, victim, us ^ 1);
    }
}

void unmake(Core *c) {
    Undo *u = &c->stack[--c->sp];
    int us = c->turn ^ 1;
    c->plen--;
    c->turn = us;
    if (u->move) unplace(c, u->move, us, u->captured);
    c->castling = u->castling; c->ep = u->ep; c->halfmove = u->halfmove;
    c->mg = u->mg; c->eg = u->eg; c->hash = u->hash; c->epkey = u->epkey;
}

void make_null(Core *c) {
    push_undo(c, 0);
    c->halfmove++;
    c->turn ^= 1;
    c->path[c->plen++] = c->hash;
}

/* Make a pseudo-legal move; when it leaves the mover's king attacked, take
 * it back and return 0.  Castling is legal as generated. */
int make_legal(Core *c, Move m) {
    make(c, m);
    if (M_FLAG(m) == F_CASTLE) return 1;
    int us = c->turn ^ 1;
    if (attacked(c, c->king[us], us ^ 1)) { unmake(c); return 0; }
    return 1;
}
