/*
 * boardctl.engine._core: the engine's search in C.
 *
 * The Python search (search.py) and the rules core (boardctl/rules) are the
 * reference; this is the same search on a mailbox board, some 30 times
 * faster, because a Pi must think as deep as Fairy-Max does in C, with what
 * self-play at a Pi's time per move measured as gains on top (bench/sprt.py,
 * issue 15): static exchange evaluation, null-move reductions growing with
 * depth, a ply less where the table has no move, a history penalty, and a
 * cache of evaluations.  It takes
 * everything that defines the game from Python at construction (the board
 * and its moves, castling preset, promotions, the squares pawns step twice from, the rules
 * core's Zobrist keys, the evaluation's square tables and weights, the
 * search's numbers from params.py), so a position's hash here is its hash in
 * the rules core, it holds no tuning number of its own
 * (tests/engine/test_params.py), and
 * tests/engine/test_core.py checks move lists, perft counts, hashes and
 * evaluations against the Python code.
 *
 * Board: a mailbox that core.py lays out from the rules core's geometry,
 * rectangle or hexagon alike: the board's cells in a grid with enough
 * padding (OFF) around them that no leap leaves the array and every slide
 * stops on it, and every king step, knight leap, line, falcon move (with
 * its three paths) and pawn step as an offset in that grid.  On a hexagon
 * (grid = 0) there is no castling and no term of files and ranks.
 * Pieces are coded as in boardctl/rules/pieces.py: type | colour << 3.
 * Moves inside: from | to << 10 | promo << 20 | flag << 24 (mailbox cells);
 * Python sees the rules core's packed codes (from | to << 7 | promo << 14 |
 * flag << 17, cells numbered as the rules core numbers them).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NSQ 576           /* mailbox cells: the hexagon's 23 x 23 fits */
#define MAX_CELLS 128     /* the rules core's cells: 7 bits of its move codes */
#define MAX_STEPS 12      /* king steps (8 on a rectangle, 12 on a hexagon) */
#define MAX_LINES 6       /* rook or bishop directions */
#define MAX_FALCON 24     /* falcon destinations (16 or 24) */
#define NPATHS 3          /* paths to each */
#define OFF 0x20
#define PAWN 1
#define KNIGHT 2
#define BISHOP 3
#define ROOK 4
#define QUEEN 5
#define KING 6
#define FALCON 7
#define BLACKBIT 8
#define TYPE_MASK 7
#define COLOUR_SHIFT 3

#define F_DOUBLE 1
#define F_EP 2
#define F_CASTLE 3

/* Sizes of arrays only: every number that tunes the search or the
 * evaluation comes from Python (params.core_search, evaluate.core_weights). */
#define PLY_CAPACITY 128  /* the deepest search params.MAX_PLY may ask for */
#define MAX_STACK 1024
#define MAX_MOVES 320
#define MAX_FILES 16
#define MAX_FUTILITY 8
#define EXACT 0
#define LOWER 1
#define UPPER 2
#define NWEIGHTS 29       /* len(evaluate.core_weights()) */
#define NSEARCH 19        /* len(params.core_search()) before FUTILITY and ORDER_VALUE */
/* Ordering keys: the table's move, then captures and promotions (by value),
 * then killers, then quiet moves by history (within +-HISTORY_LIMIT < KEY_KILLER),
 * then captures that lose material. */
#define KEY_TT (1 << 30)
#define KEY_CAPTURE (1 << 24)
#define KEY_KILLER (1 << 23)
#define KEY_LOSING (-(1 << 24))  /* captures that lose material, after the quiet moves */
#define ORDER_SCALE 16    /* MVV-LVA: the victim's value counts this many times the attacker's */

typedef uint32_t Move;
#define M_FROM(m) ((int)((m) & 1023))
#define M_TO(m) ((int)(((m) >> 10) & 1023))
#define M_PROMO(m) ((int)(((m) >> 20) & 15))
#define M_FLAG(m) ((int)((m) >> 24))
#define MOVE(f, t, p, fl) ((Move)(f) | (Move)(t) << 10 | (Move)(p) << 20 | (Move)(fl) << 24)

/* A falcon move: its destination and the two cells each path crosses. */
typedef struct { int to; int path[NPATHS][2]; } FalconStep;

typedef struct {
    Move move;
    uint8_t captured;
    uint8_t castling;
    uint16_t ep;
    int halfmove;
    int mg, eg;
    uint64_t hash, epkey;
} Undo;

typedef struct {
    uint64_t key;
    int16_t score;
    uint8_t depth;
    uint8_t flag;
    uint32_t move;
} TTEntry;

/* A position's static evaluation, kept by its hash: transpositions and
 * re-searches meet the same positions again. */
typedef struct {
    uint64_t key;
    int32_t score;
} EvalEntry;

typedef struct {
    PyObject_HEAD
    /* the game */
    int files, ranks, king_file, castle_min, castle_max, judged_after;
    int grid;                /* a rectangle: files, ranks, castling and the pawn terms */
    /* The board as Python describes it (core.py): a mailbox of nsq cells,
     * the rules core's cells among padding wide enough for the longest
     * leap, and every step as an offset in it. */
    int nsq, ncells, cells[MAX_CELLS];
    int nking, king_steps[MAX_STEPS], nknight, knight_steps[MAX_STEPS];
    int nrook, nbishop, lines[2 * MAX_LINES];   /* the rook's directions, then the bishop's */
    int nfalcon;
    FalconStep falcon[MAX_FALCON];
    int push[2], capture[2][2];                  /* pawns, by colour */
    uint8_t near_king[2 * NSQ];                  /* by cell - king + NSQ: the king's zone */
    uint8_t double_from[NSQ]; /* bit c: a pawn of colour c may step twice from here */
    uint8_t promotes[NSQ];    /* bit c: a pawn of colour c promotes on arriving here */
    int file_at[NSQ], rank_at[NSQ];
    int npromos;
    int promos[5];
    int sq2py[NSQ];
    int py2sq[MAX_CELLS];
    uint8_t rights_lost[NSQ];
    int rook_home[4];        /* bit i of the rights: white a-side, white far, black a, black far */
    uint64_t zpiece[16][NSQ], zblack, zcastle[16], zep[NSQ];
    /* evaluation */
    int mgt[16][NSQ], egt[16][NSQ];
    int bishop_pair, falcon_mobility, doubled, isolated, passed[MAX_FILES], rook_open, rook_half;
    int shield;
    int mobility[8], baseline[8], zone_weight[8], danger_scale, danger_cap;
    int contempt;
    int full_phase, phase_weight[8], danger_divisor;
    /* the search's numbers (params.py) */
    int mate, mate_bound, inf, max_ply, check_every, null_min_depth, null_reduction, null_deeper;
    int lazy_margin, reverse_futility, reverse_depth, delta_margin;
    int lmr_min_depth, lmr_min_moves, lmr_more_after, history_limit, fifty_moves;
    int iir_depth;
    int nfutility, futility[MAX_FUTILITY], order_value[8];
    /* the position */
    uint8_t board[NSQ];
    int turn, castling, ep, halfmove, king[2], count[16], mg, eg;
    uint64_t hash, epkey;
    Undo stack[MAX_STACK];
    int sp;
    uint64_t path[MAX_STACK + 256];
    int plen;
    /* the search */
    TTEntry *tt;
    uint64_t tt_mask;
    EvalEntry *evals;        /* a quarter of the table's entries */
    uint64_t evals_mask;
    Move killers[PLY_CAPACITY + 2][2];
    int32_t *history;        /* nsq x nsq, by from and to */
    uint64_t nodes, node_limit, next_check;
    int seldepth, stopped, busy;
    double deadline;
    PyObject *stop_cb;
    PyThreadState *ts;
    int cb_error;
    Move current_best;
} Core;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static inline int sq_of(const Core *c, int file, int rank) {
    return c->py2sq[rank * c->files + file];
}
static inline int near(const Core *c, int sq, int king) { return c->near_king[sq - king + NSQ]; }
static inline int floordiv(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/* ------------------------------------------------------------- attacks */

static inline int falcon_open(const uint8_t *b, int sq, const FalconStep *f) {
    return (!b[sq + f->path[0][0]] && !b[sq + f->path[0][1]])
        || (!b[sq + f->path[1][0]] && !b[sq + f->path[1][1]])
        || (!b[sq + f->path[2][0]] && !b[sq + f->path[2][1]]);
}

static int attacked(const Core *c, int sq, int by) {
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

static inline int in_check(const Core *c) { return attacked(c, c->king[c->turn], c->turn ^ 1); }

/* ---------------------------------------------------------- generation */

static inline int enemy_or_empty(uint8_t p, int us) {
    return !p || (p != OFF && (p >> COLOUR_SHIFT) != us);
}
static inline int enemy(uint8_t p, int us) { return p && p != OFF && (p >> COLOUR_SHIFT) != us; }

static void castle_rook_squares(const Core *c, int kfrom, int kto, int *rfrom, int *rto) {
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

static int gen_castles(Core *c, Move *out, int n) {
    int us = c->turn, them = us ^ 1, king = c->king[us];
    if (!c->judged_after && attacked(c, king, them)) return n;
    for (int side = 0; side < 2; side++) {
        int bit = us * 2 + side;
        if (!(c->castling >> bit & 1)) continue;
        int rook = c->rook_home[bit];
        int step = rook > king ? 1 : -1, blocked = 0;
        for (int sq = king + step; sq != rook; sq += step)
            if (c->board[sq]) { blocked = 1; break; }
        if (blocked) continue;
        int room = abs(c->file_at[rook] - c->file_at[king]) - 1;
        int high = c->castle_max < 0 || c->castle_max > room ? room : c->castle_max;
        if (high < c->castle_min) continue;
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
    }
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

/* Pseudo-legal moves (castling fully legal); with captures_only, captures,
 * en passant and promotions.  Returns how many. */
static int generate(Core *c, Move *out, int captures_only) {
    const uint8_t *b = c->board;
    int us = c->turn, n = 0;
    int fwd = c->push[us], west = c->capture[us][0], east = c->capture[us][1];
    for (int cell = 0; cell < c->ncells; cell++) {
        {
            int sq = c->cells[cell];
            uint8_t p = b[sq];
            if (!p || (p >> COLOUR_SHIFT) != us) continue;
            int type = p & TYPE_MASK;
            switch (type) {
            case PAWN: {
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
                break;
            }
            case KNIGHT:
            case KING: {
                const int *steps = type == KNIGHT ? c->knight_steps : c->king_steps;
                int nsteps = type == KNIGHT ? c->nknight : c->nking;
                for (int i = 0; i < nsteps; i++) {
                    int to = sq + steps[i];
                    uint8_t t = b[to];
                    if (captures_only ? enemy(t, us) : enemy_or_empty(t, us))
                        out[n++] = MOVE(sq, to, 0, 0);
                }
                break;
            }
            case FALCON:
                for (int i = 0; i < c->nfalcon; i++) {
                    const FalconStep *fs = &c->falcon[i];
                    int to = sq + fs->to;
                    uint8_t t = b[to];
                    if (!(captures_only ? enemy(t, us) : enemy_or_empty(t, us))) continue;
                    if (falcon_open(b, sq, fs)) out[n++] = MOVE(sq, to, 0, 0);
                }
                break;
            default: {
                int first = type == BISHOP ? c->nrook : 0;
                int last = type == ROOK ? c->nrook : c->nrook + c->nbishop;
                for (int i = first; i < last; i++) {
                    int d = c->lines[i];
                    int to = sq + d;
                    while (!b[to]) {
                        if (!captures_only) out[n++] = MOVE(sq, to, 0, 0);
                        to += d;
                    }
                    if (enemy(b[to], us)) out[n++] = MOVE(sq, to, 0, 0);
                }
            }
            }
        }
    }
    if (!captures_only && c->castling >> (us * 2) & 3) n = gen_castles(c, out, n);
    return n;
}

/* ---------------------------------------------------------- make/unmake */

static inline void put(Core *c, int sq, int piece) {
    c->board[sq] = (uint8_t)piece;
    c->hash ^= c->zpiece[piece][sq];
    c->mg += c->mgt[piece][sq];
    c->eg += c->egt[piece][sq];
    c->count[piece]++;
}
static inline void take(Core *c, int sq) {
    int piece = c->board[sq];
    c->board[sq] = 0;
    c->hash ^= c->zpiece[piece][sq];
    c->mg -= c->mgt[piece][sq];
    c->eg -= c->egt[piece][sq];
    c->count[piece]--;
}

static void make(Core *c, Move m) {
    Undo *u = &c->stack[c->sp++];
    int from = M_FROM(m), to = M_TO(m), flag = M_FLAG(m), promo = M_PROMO(m);
    int us = c->turn;
    uint8_t piece = c->board[from];
    u->move = m; u->castling = (uint8_t)c->castling; u->ep = (uint16_t)c->ep;
    u->halfmove = c->halfmove; u->mg = c->mg; u->eg = c->eg; u->hash = c->hash; u->epkey = c->epkey;
    c->hash ^= c->epkey ^ c->zblack;
    c->epkey = 0;
    c->ep = 0;
    if (flag == F_CASTLE) {
        int rfrom, rto;
        castle_rook_squares(c, from, to, &rfrom, &rto);
        uint8_t rook = c->board[rfrom];
        u->captured = 0;
        take(c, from);
        take(c, rfrom);
        put(c, to, piece);
        put(c, rto, rook);
        c->king[us] = to;
        c->halfmove++;
    } else {
        uint8_t captured = c->board[to];
        u->captured = captured;
        if (captured) take(c, to);
        take(c, from);
        put(c, to, promo ? promo | us << COLOUR_SHIFT : piece);
        if ((piece & TYPE_MASK) == KING) c->king[us] = to;
        if ((piece & TYPE_MASK) == PAWN || captured) c->halfmove = 0; else c->halfmove++;
        if (flag == F_DOUBLE) {
            int ep = (from + to) / 2;
            c->ep = ep;
            uint8_t theirs = PAWN | (us ^ 1) << COLOUR_SHIFT;
            const int *takes = c->capture[us ^ 1];
            if (c->board[ep - takes[0]] == theirs || c->board[ep - takes[1]] == theirs) {
                c->epkey = c->zep[ep];
                c->hash ^= c->epkey;
            }
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

static void unmake(Core *c) {
    Undo *u = &c->stack[--c->sp];
    Move m = u->move;
    int us = c->turn ^ 1;
    c->plen--;
    c->turn = us;
    if (m) {
        int from = M_FROM(m), to = M_TO(m), flag = M_FLAG(m);
        if (flag == F_CASTLE) {
            int rfrom, rto;
            castle_rook_squares(c, from, to, &rfrom, &rto);
            uint8_t king = c->board[to], rook = c->board[rto];
            c->board[rto] = 0; c->board[to] = 0;
            c->board[rfrom] = rook; c->board[from] = king;
            c->king[us] = from;
        } else {
            uint8_t piece = c->board[to];
            c->count[piece]--;
            if (M_PROMO(m)) piece = PAWN | us << COLOUR_SHIFT;
            c->count[piece]++;
            c->board[from] = piece;
            c->board[to] = u->captured;
            if (u->captured) c->count[u->captured]++;
            if ((piece & TYPE_MASK) == KING) c->king[us] = from;
            if (flag == F_EP) {
                int victim = to - c->push[us];
                c->board[victim] = PAWN | (us ^ 1) << COLOUR_SHIFT;
                c->count[PAWN | (us ^ 1) << COLOUR_SHIFT]++;
            }
        }
    }
    c->castling = u->castling; c->ep = u->ep; c->halfmove = u->halfmove;
    c->mg = u->mg; c->eg = u->eg; c->hash = u->hash; c->epkey = u->epkey;
}

static void make_null(Core *c) {
    Undo *u = &c->stack[c->sp++];
    u->move = 0; u->castling = (uint8_t)c->castling; u->ep = (uint16_t)c->ep;
    u->halfmove = c->halfmove; u->mg = c->mg; u->eg = c->eg; u->hash = c->hash; u->epkey = c->epkey;
    c->hash ^= c->epkey ^ c->zblack;
    c->epkey = 0; c->ep = 0;
    c->halfmove++;
    c->turn ^= 1;
    c->path[c->plen++] = c->hash;
}

/* Make a pseudo-legal move; when it leaves the mover's king attacked, take
 * it back and return 0.  Castling is legal as generated. */
static int make_legal(Core *c, Move m) {
    make(c, m);
    if (M_FLAG(m) == F_CASTLE) return 1;
    int us = c->turn ^ 1;
    if (attacked(c, c->king[us], us ^ 1)) { unmake(c); return 0; }
    return 1;
}

static int legal_moves(Core *c, Move *out) {
    Move buf[MAX_MOVES];
    int n = generate(c, buf, 0), k = 0;
    for (int i = 0; i < n; i++) {
        if (make_legal(c, buf[i])) { unmake(c); out[k++] = buf[i]; }
    }
    return k;
}

/* ----------------------------------------------------------- evaluation */

static int phase_of(const Core *c) {
    int phase = 0;
    for (int type = PAWN; type <= FALCON; type++)
        phase += c->phase_weight[type] * (c->count[type] + c->count[type | BLACKBIT]);
    return phase < c->full_phase ? phase : c->full_phase;
}

/* Material and square values, tapered from middle game to endgame by phase. */
static inline int tapered(const Core *c, int phase) {
    return floordiv(c->mg * phase + c->eg * (c->full_phase - phase), c->full_phase);
}

static int material(const Core *c) {
    int score = tapered(c, phase_of(c));
    return c->turn == 0 ? score : -score;
}

static int shield(const Core *c, int colour) {
    int king = c->king[colour];
    int forward = c->rank_at[king] + (colour == 0 ? 1 : -1);
    if (forward < 0 || forward >= c->ranks) return 0;
    int file = c->file_at[king], n = 0;
    uint8_t pawn = PAWN | colour << COLOUR_SHIFT;
    for (int f = file - 1; f <= file + 1; f++)
        if (f >= 0 && f < c->files && c->board[sq_of(c, f, forward)] == pawn) n++;
    return c->shield * n;
}

/* evaluate.py's Evaluator.evaluate (HexEvaluator's on a hexagon, where the
 * terms of files and ranks are left out), term for term. */
static int evaluate(const Core *c) {
    const uint8_t *b = c->board;
    int phase = phase_of(c);
    int score = tapered(c, phase);
    int pawns[2][MAX_FILES] = {{0}}, lo[2][MAX_FILES], hi[2][MAX_FILES];
    int rooks[MAX_CELLS], nrooks = 0;
    for (int f = 0; f < c->files; f++) {
        lo[0][f] = lo[1][f] = c->ranks;
        hi[0][f] = hi[1][f] = -1;
    }
    int units[2] = {0, 0}, attackers[2] = {0, 0};
    for (int cell = 0; cell < c->ncells; cell++) {
        {
            int sq = c->cells[cell];
            uint8_t p = b[sq];
            if (!p) continue;
            int colour = p >> COLOUR_SHIFT, type = p & TYPE_MASK, sign = colour ? -1 : 1;
            if (type == PAWN) {
                if (c->grid) {
                    int f = c->file_at[sq], r = c->rank_at[sq];
                    pawns[colour][f]++;
                    if (r < lo[colour][f]) lo[colour][f] = r;
                    if (r > hi[colour][f]) hi[colour][f] = r;
                }
                continue;
            }
            if (type == KING) continue;
            if (type == ROOK) rooks[nrooks++] = sq;
            /* Squares reached (mobility: not onto an own piece) and how many
             * of them lie next to the enemy king (king-zone pressure). */
            int reach = 0, zone = 0, ek = c->king[colour ^ 1];
            if (type == FALCON) {
                for (int i = 0; i < c->nfalcon; i++) {
                    const FalconStep *fs = &c->falcon[i];
                    int to = sq + fs->to;
                    uint8_t t = b[to];
                    if (t == OFF || !falcon_open(b, sq, fs)) continue;
                    if (!t || (t >> COLOUR_SHIFT) != colour) reach++;
                    zone += near(c, to, ek);
                }
                score += sign * c->falcon_mobility * reach;
            } else {
                if (type == KNIGHT) {
                    for (int i = 0; i < c->nknight; i++) {
                        int to = sq + c->knight_steps[i];
                        uint8_t t = b[to];
                        if (t == OFF) continue;
                        if (!t || (t >> COLOUR_SHIFT) != colour) reach++;
                        zone += near(c, to, ek);
                    }
                } else {
                    int first = type == BISHOP ? c->nrook : 0;
                    int last = type == ROOK ? c->nrook : c->nrook + c->nbishop;
                    for (int i = first; i < last; i++) {
                        int d = c->lines[i];
                        int to = sq + d;
                        for (; !b[to]; to += d) { reach++; zone += near(c, to, ek); }
                        if (b[to] != OFF) {
                            if ((b[to] >> COLOUR_SHIFT) != colour) reach++;
                            zone += near(c, to, ek);
                        }
                    }
                }
                score += sign * c->mobility[type] * (reach - c->baseline[type]);
            }
            if (zone) {
                units[colour] += zone * c->zone_weight[type];
                attackers[colour]++;
            }
        }
    }
    /* King danger grows with the square of the pressure, once two pieces
     * join in, and fades with the material left to attack. */
    for (int colour = 0; colour < 2; colour++) {
        if (attackers[colour] < 2) continue;
        int danger = units[colour] * units[colour] * c->danger_scale / c->danger_divisor;
        if (danger > c->danger_cap) danger = c->danger_cap;
        danger = danger * phase / c->full_phase;
        score += colour ? -danger : danger;
    }
    if (c->count[BISHOP] >= 2) score += c->bishop_pair;
    if (c->count[BISHOP | BLACKBIT] >= 2) score -= c->bishop_pair;
    if (!c->grid) return c->turn == 0 ? score : -score;
    for (int f = 0; f < c->files; f++) {
        for (int colour = 0; colour < 2; colour++) {
            int count = pawns[colour][f];
            if (!count) continue;
            int sign = colour ? -1 : 1, other = colour ^ 1;
            if (count > 1) score -= sign * c->doubled * (count - 1);
            int left = f > 0 ? pawns[colour][f - 1] : 0;
            int right = f < c->files - 1 ? pawns[colour][f + 1] : 0;
            if (!left && !right) score -= sign * c->isolated * count;
            int passed = 1, advanced;
            if (colour == 0) {
                int front = hi[0][f];
                for (int g = f - 1; g <= f + 1; g++)
                    if (g >= 0 && g < c->files && hi[other][g] > front) passed = 0;
                advanced = front;
            } else {
                int front = lo[1][f];
                for (int g = f - 1; g <= f + 1; g++)
                    if (g >= 0 && g < c->files && pawns[other][g] && lo[other][g] < front) passed = 0;
                advanced = c->ranks - 1 - front;
            }
            if (passed) score += sign * c->passed[advanced < MAX_FILES - 1 ? advanced : MAX_FILES - 1];
        }
    }
    if (phase * 2 > c->full_phase) score += shield(c, 0) - shield(c, 1);
    for (int i = 0; i < nrooks; i++) {
        int sq = rooks[i], f = c->file_at[sq], colour = b[sq] >> COLOUR_SHIFT;
        int bonus;
        if (!pawns[0][f] && !pawns[1][f]) bonus = c->rook_open;
        else if (!pawns[colour][f]) bonus = c->rook_half;
        else continue;
        score += colour ? -bonus : bonus;
    }
    return c->turn == 0 ? score : -score;
}

/* -------------------------------------------------------------- search */

/* Called when the node count reaches next_check: every check_every nodes,
 * and exactly at the node limit. */
static int evaluate_cached(Core *c) {
    EvalEntry *e = &c->evals[c->hash & c->evals_mask];
    if (e->key != c->hash || !e->key) {
        e->key = c->hash;
        e->score = evaluate(c);
    }
    return e->score;
}

static void check_limits(Core *c) {
    c->next_check = c->nodes + c->check_every;
    if (c->node_limit) {
        if (c->nodes >= c->node_limit) { c->stopped = 1; return; }
        if (c->next_check > c->node_limit) c->next_check = c->node_limit;
    }
    if (c->deadline > 0 && now() >= c->deadline) { c->stopped = 1; return; }
    if (c->stop_cb) {
        PyEval_RestoreThread(c->ts);
        PyObject *r = PyObject_CallNoArgs(c->stop_cb);
        if (!r) {
            c->cb_error = 1;
            c->stopped = 1;
        } else {
            if (PyObject_IsTrue(r)) c->stopped = 1;
            Py_DECREF(r);
        }
        c->ts = PyEval_SaveThread();
    }
}

/* A draw is worth -contempt to the side to move at the root. */
static inline int draw_score(const Core *c, int ply) {
    return ply % 2 ? c->contempt : -c->contempt;
}

static int repeated(const Core *c) {
    uint64_t key = c->path[c->plen - 1];
    int limit = c->halfmove < c->plen - 1 ? c->halfmove : c->plen - 1;
    for (int i = 2; i <= limit; i += 2)
        if (c->path[c->plen - 1 - i] == key) return 1;
    return 0;
}

static int has_pieces(const Core *c) {
    int col = c->turn << COLOUR_SHIFT;
    const int *k = c->count;
    return k[KNIGHT | col] + k[BISHOP | col] + k[ROOK | col] + k[QUEEN | col] + k[FALCON | col] > 0;
}

static inline int victim_of(const Core *c, Move m) {
    if (M_FLAG(m) == F_EP) return PAWN;
    if (M_FLAG(m) == F_CASTLE) return 0;
    return c->board[M_TO(m)] & TYPE_MASK;
}

static inline void consider(const Core *c, int cell, int type, int *best, int *best_value) {
    if (c->order_value[type] < *best_value) { *best = cell; *best_value = c->order_value[type]; }
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
    const int *rook = c->lines, *bishop = c->lines + c->nrook;
    for (int i = 0, n = c->nrook; i < n; i++) {
        int d = rook[i], t = sq + d;
        while (!b[t]) t += d;
        if (b[t] == (ROOK | col) || b[t] == (QUEEN | col)) consider(c, t, b[t] & TYPE_MASK, &best, &best_value);
        d = bishop[i]; t = sq + d;
        while (!b[t]) t += d;
        if (b[t] == (BISHOP | col) || b[t] == (QUEEN | col)) consider(c, t, b[t] & TYPE_MASK, &best, &best_value);
    }
    if (c->count[FALCON | col]) {
        for (int i = 0; i < c->nfalcon; i++) {
            const FalconStep *f = &c->falcon[i];
            if (b[sq + f->to] == (FALCON | col) && falcon_open(b, sq, f)) consider(c, sq + f->to, FALCON, &best, &best_value);
        }
    }
    return best;
}

/* Static exchange evaluation: what the capture m wins in material (by the
 * ordering values) when both sides recapture on its square with their
 * least valuable piece for as long as it pays.  Pins are not seen. */
static int see(Core *c, Move m) {
    uint8_t *b = c->board;
    int from = M_FROM(m), to = M_TO(m), promo = M_PROMO(m);
    int gain[MAX_CELLS + 2], cleared[MAX_CELLS + 2];
    uint8_t was[MAX_CELLS + 2];
    int d = 0, n = 0, side = b[from] >> COLOUR_SHIFT;
    int on_square = c->order_value[promo ? promo : b[from] & TYPE_MASK];
    gain[0] = c->order_value[victim_of(c, m)];
    if (promo) gain[0] += c->order_value[promo] - c->order_value[PAWN];
    if (M_FLAG(m) == F_EP) { int cap = to - c->push[side]; cleared[n] = cap; was[n++] = b[cap]; b[cap] = 0; }
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
static inline int losing_capture(Core *c, Move m, int victim) {
    return !M_PROMO(m) && c->order_value[c->board[M_FROM(m)] & TYPE_MASK] > c->order_value[victim]
        && see(c, m) < 0;
}

static void score_moves(Core *c, const Move *moves, int *keys, int n, Move tt_move, int ply) {
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
        else keys[i] = c->history[M_FROM(m) * c->nsq + M_TO(m)];
    }
}

/* Bring the best-keyed of moves[i..n) to position i. */
static inline void pick(Move *moves, int *keys, int i, int n) {
    int best = i;
    for (int j = i + 1; j < n; j++) if (keys[j] > keys[best]) best = j;
    if (best != i) {
        Move m = moves[i]; moves[i] = moves[best]; moves[best] = m;
        int k = keys[i]; keys[i] = keys[best]; keys[best] = k;
    }
}

static int quiesce(Core *c, int alpha, int beta, int ply) {
    if (++c->nodes >= c->next_check) check_limits(c);
    if (c->stopped) return 0;
    if (ply > c->seldepth) c->seldepth = ply;
    int check = in_check(c);
    int best;
    Move moves[MAX_MOVES];
    int keys[MAX_MOVES];
    int n;
    if (check) {
        best = -c->inf;
        n = generate(c, moves, 0);
    } else {
        best = material(c);
        if (best - c->lazy_margin >= beta) return best;
        if (best + c->lazy_margin > alpha) best = evaluate_cached(c);
        if (best >= beta || ply >= c->max_ply) return best;
        if (best > alpha) alpha = best;
        n = generate(c, moves, 1);
    }
    int k = 0;
    for (int i = 0; i < n; i++) {
        Move m = moves[i];
        int victim = victim_of(c, m), promo = M_PROMO(m);
        int gain = c->order_value[victim] + (promo ? c->order_value[promo] : 0);
        if (!check && best + gain + c->delta_margin < alpha) continue;  /* delta pruning */
        if (!check && losing_capture(c, m, victim)) continue;
        moves[k] = m;
        keys[k++] = gain * ORDER_SCALE - c->order_value[c->board[M_FROM(m)] & TYPE_MASK] / ORDER_SCALE;
    }
    int legal = 0;
    for (int i = 0; i < k; i++) {
        pick(moves, keys, i, k);
        if (!make_legal(c, moves[i])) continue;
        legal++;
        int score = -quiesce(c, -beta, -alpha, ply + 1);
        unmake(c);
        if (c->stopped) return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                if (alpha >= beta) break;
            }
        }
    }
    if (check && !legal) return -c->mate + ply;
    return best;
}

static int negamax(Core *c, int depth, int alpha, int beta, int ply, int allow_null) {
    if (++c->nodes >= c->next_check) check_limits(c);
    if (c->stopped) return 0;
    if (c->halfmove >= c->fifty_moves || repeated(c)) return draw_score(c, ply);
    if (alpha < -c->mate + ply) alpha = -c->mate + ply;
    if (beta > c->mate - ply - 1) beta = c->mate - ply - 1;
    if (alpha >= beta) return alpha;
    int check = in_check(c);
    if (check) depth++;
    if (depth <= 0 || ply >= c->max_ply) return quiesce(c, alpha, beta, ply);
    uint64_t key = c->hash;
    TTEntry *e = &c->tt[key & c->tt_mask];
    Move tt_move = 0;
    int pv_node = beta - alpha > 1;
    if (e->key == key) {
        tt_move = e->move;
        if (e->depth >= depth && !pv_node) {
            int s = e->score;
            if (s > c->mate_bound) s -= ply; else if (s < -c->mate_bound) s += ply;
            if (e->flag == EXACT || (e->flag == LOWER && s >= beta) || (e->flag == UPPER && s <= alpha))
                return s;
        }
    }
    /* No move from the table: this node was not searched before, or not
     * deep enough to keep; a shallower search is the cheaper way to find one. */
    if (!tt_move && depth >= c->iir_depth) depth--;
    int stat = -c->inf;
    if (!check && !pv_node) {
        stat = evaluate_cached(c);
        if (depth <= c->reverse_depth && abs(beta) < c->mate_bound
            && stat - c->reverse_futility * depth >= beta) return stat;
    }
    if (allow_null && !pv_node && !check && depth >= c->null_min_depth && has_pieces(c)
        && stat >= beta) {
        make_null(c);
        int reduce = c->null_reduction + depth / c->null_deeper;
        int score = -negamax(c, depth - 1 - reduce, -beta, -beta + 1, ply + 1, 0);
        unmake(c);
        if (c->stopped) return 0;
        if (score >= beta && score < c->mate_bound) return beta;
    }
    Move moves[MAX_MOVES];
    int keys[MAX_MOVES];
    int n = generate(c, moves, 0);
    score_moves(c, moves, keys, n, tt_move, ply);
    int futile = depth < c->nfutility && !check && !pv_node && abs(alpha) < c->mate_bound
        && stat + c->futility[depth] <= alpha;
    int best = -c->inf, flag = UPPER, legal = 0, ntried = 0;
    Move best_move = 0, tried[MAX_MOVES];     /* quiet moves that did not cut off */
    for (int i = 0; i < n; i++) {
        pick(moves, keys, i, n);
        Move m = moves[i];
        int quiet = !victim_of(c, m) && !M_PROMO(m);
        if (futile && quiet && legal > 0 && m != tt_move) continue;
        if (!make_legal(c, m)) continue;
        int score;
        if (legal == 0) {
            score = -negamax(c, depth - 1, -beta, -alpha, ply + 1, 1);
        } else {
            int reduction = 0;
            /* A key below -KEY_KILLER is a losing capture (score_moves): reduced like a quiet move. */
            if (depth >= c->lmr_min_depth && legal >= c->lmr_min_moves && (quiet || keys[i] < -KEY_KILLER) && !check)
                reduction = legal < c->lmr_more_after ? 1 : 2;
            score = -negamax(c, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, 1);
            if (score > alpha && (reduction || score < beta))
                score = -negamax(c, depth - 1, -beta, -alpha, ply + 1, 1);
        }
        legal++;
        unmake(c);
        if (c->stopped) return 0;
        if (quiet && score <= alpha) tried[ntried++] = m;
        if (score > best) {
            best = score;
            best_move = m;
            if (score > alpha) {
                alpha = score;
                flag = EXACT;
                if (alpha >= beta) {
                    flag = LOWER;
                    if (quiet) {
                        Move *k = c->killers[ply];
                        if (k[0] != m) { k[1] = k[0]; k[0] = m; }
                        int32_t *h = &c->history[M_FROM(m) * c->nsq + M_TO(m)];
                        *h += depth * depth;
                        if (*h > c->history_limit) {
                            for (int j = 0; j < c->nsq * c->nsq; j++) c->history[j] /= 2;
                        }
                        /* The quiet moves tried before it failed here: less likely first next time. */
                        for (int j = 0; j < ntried; j++) {
                            int32_t *t = &c->history[M_FROM(tried[j]) * c->nsq + M_TO(tried[j])];
                            *t -= depth * depth;
                            if (*t < -c->history_limit) *t = -c->history_limit;
                        }
                    }
                    break;
                }
            }
        }
    }
    /* Pruning waits for one legal move, so none searched means none exist. */
    if (!legal) return check ? -c->mate + ply : draw_score(c, ply);
    int stored = best;
    if (stored > c->mate_bound) stored += ply; else if (stored < -c->mate_bound) stored -= ply;
    e->key = key; e->depth = (uint8_t)depth; e->flag = (uint8_t)flag;
    e->score = (int16_t)stored; e->move = best_move;
    return best;
}

/* --------------------------------------------------------- Python glue */

static int py_to_move(const Core *c, long code, Move *out) {
    int from = (int)(code & 127), to = (int)(code >> 7 & 127);
    int promo = (int)(code >> 14 & TYPE_MASK), flag = (int)(code >> 17);
    int size = c->ncells;
    if (code < 0 || from >= size || to >= size || flag > 3) return 0;
    *out = MOVE(c->py2sq[from], c->py2sq[to], promo, flag);
    return 1;
}

static long move_to_py(const Core *c, Move m) {
    return (long)c->sq2py[M_FROM(m)] | (long)c->sq2py[M_TO(m)] << 7
        | (long)M_PROMO(m) << 14 | (long)M_FLAG(m) << 17;
}

/* Read exactly n numbers from a Python sequence into ints or, when ints
 * is NULL, into unsigned 64-bit words (Zobrist keys). */
static int read_list(PyObject *seq, int *ints, uint64_t *words, Py_ssize_t n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return 0;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd values", what, n);
        Py_DECREF(fast);
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
        if (ints) ints[i] = (int)PyLong_AsLong(item);
        else words[i] = PyLong_AsUnsignedLongLong(item);
        if (PyErr_Occurred()) { Py_DECREF(fast); return 0; }
    }
    Py_DECREF(fast);
    return 1;
}

static inline int read_int_list(PyObject *seq, int *out, Py_ssize_t n, const char *what) {
    return read_list(seq, out, NULL, n, what);
}

static inline int read_u64_list(PyObject *seq, uint64_t *out, Py_ssize_t n, const char *what) {
    return read_list(seq, NULL, out, n, what);
}

/* Per-square tables given in the rules core's numbering, moved to the mailbox. */
static int read_square_table(Core *c, PyObject *rows, void *dst, int is_u64, const char *what) {
    int size = c->ncells;
    PyObject *fast = PySequence_Fast(rows, what);
    if (!fast) return 0;
    if (PySequence_Fast_GET_SIZE(fast) != 16) {
        PyErr_Format(PyExc_ValueError, "%s: expected 16 rows", what);
        Py_DECREF(fast);
        return 0;
    }
    for (int piece = 0; piece < 16; piece++) {
        PyObject *row = PySequence_Fast_GET_ITEM(fast, piece);
        if (is_u64) {
            uint64_t vals[MAX_CELLS];
            if (!read_u64_list(row, vals, size, what)) { Py_DECREF(fast); return 0; }
            for (int s = 0; s < size; s++) ((uint64_t (*)[NSQ])dst)[piece][c->py2sq[s]] = vals[s];
        } else {
            int vals[MAX_CELLS];
            if (!read_int_list(row, vals, size, what)) { Py_DECREF(fast); return 0; }
            for (int s = 0; s < size; s++) ((int (*)[NSQ])dst)[piece][c->py2sq[s]] = vals[s];
        }
    }
    Py_DECREF(fast);
    return 1;
}

/* The search's numbers, in params.core_search's order: NSEARCH scalars, the
 * futility margins (their count first) and the ordering values. */
static int *search_fields(Core *c, int i) {
    int *scalars[NSEARCH] = {
        &c->mate, &c->mate_bound, &c->inf, &c->max_ply, &c->check_every, &c->null_min_depth,
        &c->null_reduction, &c->null_deeper, &c->lazy_margin, &c->reverse_futility,
        &c->reverse_depth, &c->delta_margin, &c->lmr_min_depth, &c->lmr_min_moves,
        &c->lmr_more_after, &c->history_limit, &c->fifty_moves, &c->iir_depth, &c->nfutility,
    };
    if (i < NSEARCH) return scalars[i];
    if (i < NSEARCH + c->nfutility) return &c->futility[i - NSEARCH];
    return &c->order_value[i - NSEARCH - c->nfutility];
}

static int search_count(const Core *c) { return NSEARCH + c->nfutility + 8; }

static int read_search(Core *c, PyObject *seq) {
    PyObject *fast = PySequence_Fast(seq, "search");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    c->nfutility = n >= NSEARCH ? (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, NSEARCH - 1)) : -1;
    Py_DECREF(fast);
    if (PyErr_Occurred()) return -1;
    if (c->nfutility < 0 || c->nfutility > MAX_FUTILITY || n != search_count(c)) {
        PyErr_SetString(PyExc_ValueError, "search: not params.core_search()'s numbers");
        return -1;
    }
    int vals[NSEARCH + MAX_FUTILITY + 8];
    if (!read_int_list(seq, vals, n, "search")) return -1;
    for (int i = 0; i < n; i++) *search_fields(c, i) = vals[i];
    /* The table keeps scores in 16 bits; mates are scored within max_ply of mate. */
    if (c->max_ply < 1 || c->max_ply > PLY_CAPACITY || c->mate - c->max_ply <= c->mate_bound
        || c->mate >= c->inf || c->inf > INT16_MAX || c->check_every < 1
        || c->history_limit < 1 || c->history_limit >= KEY_KILLER - 1
        || c->null_deeper < 1) {
        PyErr_SetString(PyExc_ValueError, "search: numbers out of the core's range");
        return -1;
    }
    return 0;
}

/* What the core was given, read back from where it keeps it. */
static PyObject *Core_numbers(Core *c, PyObject *unused) {
    (void)unused;
    int n = search_count(c);
    PyObject *search = PyTuple_New(n);
    if (!search) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(search, i, PyLong_FromLong(*search_fields(c, i)));
    static const int movers[4] = {KNIGHT, BISHOP, ROOK, QUEEN};
    static const int attackers[5] = {KNIGHT, BISHOP, ROOK, QUEEN, FALCON};
    int w[NWEIGHTS] = {
        c->bishop_pair, c->falcon_mobility, c->doubled, c->isolated, c->rook_open, c->rook_half,
        c->shield,
    };
    for (int i = 0; i < 4; i++) {
        w[7 + 2 * i] = c->mobility[movers[i]];
        w[8 + 2 * i] = c->baseline[movers[i]];
    }
    for (int i = 0; i < 5; i++) w[15 + i] = c->zone_weight[attackers[i]];
    w[20] = c->danger_scale; w[21] = c->danger_cap; w[22] = c->danger_divisor;
    for (int i = 0; i < 5; i++) w[23 + i] = c->phase_weight[attackers[i]];
    w[28] = c->full_phase;
    PyObject *weights = PyTuple_New(NWEIGHTS);
    if (!weights) { Py_DECREF(search); return NULL; }
    for (int i = 0; i < NWEIGHTS; i++) PyTuple_SET_ITEM(weights, i, PyLong_FromLong(w[i]));
    return Py_BuildValue("(NN)", search, weights);
}

static void Core_dealloc(Core *c) {
    free(c->tt);
    free(c->evals);
    free(c->history);
    Py_XDECREF(c->stop_cb);
    Py_TYPE(c)->tp_free((PyObject *)c);
}

/* Read between 1 and max numbers from a Python sequence; returns how many, or -1. */
static int read_some(PyObject *seq, int *out, int max, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    Py_DECREF(fast);
    if (n < 1 || n > max) {
        PyErr_Format(PyExc_ValueError, "%s: 1..%d values", what, max);
        return -1;
    }
    return read_int_list(seq, out, n, what) ? (int)n : -1;
}

/* The mailbox and every step on it (core.py's mailbox()); each offset is
 * checked to stay inside the array from every cell of the board. */
static int read_board(Core *c, PyObject *cells, PyObject *files_of, PyObject *ranks_of,
                      PyObject *king, PyObject *knight, PyObject *rook, PyObject *bishop,
                      PyObject *falcon, PyObject *pawns) {
    if (c->nsq < 1 || c->nsq > NSQ) {
        PyErr_Format(PyExc_ValueError, "nsq: 1..%d mailbox cells", NSQ);
        return -1;
    }
    if ((c->ncells = read_some(cells, c->cells, MAX_CELLS, "cells")) < 0) return -1;
    int fr[MAX_CELLS];
    for (int s = 0; s < NSQ; s++) { c->sq2py[s] = -1; c->file_at[s] = c->rank_at[s] = -1; }
    memset(c->board, OFF, sizeof c->board);
    for (int s = 0; s < c->ncells; s++) {
        int sq = c->cells[s];
        if (sq < 0 || sq >= c->nsq || c->sq2py[sq] >= 0) {
            PyErr_SetString(PyExc_ValueError, "cells: not distinct mailbox cells");
            return -1;
        }
        c->py2sq[s] = sq;
        c->sq2py[sq] = s;
        c->board[sq] = 0;
    }
    if (!read_int_list(files_of, fr, c->ncells, "files_of")) return -1;
    for (int s = 0; s < c->ncells; s++) c->file_at[c->cells[s]] = fr[s];
    if (!read_int_list(ranks_of, fr, c->ncells, "ranks_of")) return -1;
    for (int s = 0; s < c->ncells; s++) c->rank_at[c->cells[s]] = fr[s];
    if ((c->nking = read_some(king, c->king_steps, MAX_STEPS, "king_steps")) < 0) return -1;
    if ((c->nknight = read_some(knight, c->knight_steps, MAX_STEPS, "knight_steps")) < 0) return -1;
    if ((c->nrook = read_some(rook, c->lines, MAX_LINES, "rook_lines")) < 0) return -1;
    if ((c->nbishop = read_some(bishop, c->lines + c->nrook, MAX_LINES, "bishop_lines")) < 0)
        return -1;
    if (c->nknight != c->nking || c->nrook != c->nbishop) {
        PyErr_SetString(PyExc_ValueError, "as many knight leaps as king steps, rook lines as bishop lines");
        return -1;
    }
    int flat[MAX_FALCON * (1 + 2 * NPATHS)];
    int nf = read_some(falcon, flat, MAX_FALCON * (1 + 2 * NPATHS), "falcon");
    if (nf < 0) return -1;
    if (nf % (1 + 2 * NPATHS)) {
        PyErr_SetString(PyExc_ValueError, "falcon: a destination and three paths of two cells each");
        return -1;
    }
    c->nfalcon = nf / (1 + 2 * NPATHS);
    for (int i = 0; i < c->nfalcon; i++) {
        const int *f = flat + i * (1 + 2 * NPATHS);
        c->falcon[i].to = f[0];
        for (int k = 0; k < NPATHS; k++) {
            c->falcon[i].path[k][0] = f[1 + 2 * k];
            c->falcon[i].path[k][1] = f[2 + 2 * k];
        }
    }
    int pw[6];
    if (!read_int_list(pawns, pw, 6, "pawn_steps")) return -1;
    c->push[0] = pw[0]; c->push[1] = pw[1];
    c->capture[0][0] = pw[2]; c->capture[0][1] = pw[3];
    c->capture[1][0] = pw[4]; c->capture[1][1] = pw[5];
    /* Every offset from every cell must land inside the mailbox (on the
     * padding at worst); slides stop at the padding, a step from it. */
    int offsets[4 * MAX_STEPS + MAX_FALCON * (1 + 2 * NPATHS) + 8], no = 0;
    for (int i = 0; i < c->nking; i++) offsets[no++] = c->king_steps[i];
    for (int i = 0; i < c->nknight; i++) offsets[no++] = c->knight_steps[i];
    for (int i = 0; i < c->nrook + c->nbishop; i++) offsets[no++] = c->lines[i];
    for (int i = 0; i < nf; i++) offsets[no++] = flat[i];
    for (int i = 0; i < 2; i++) {
        offsets[no++] = c->push[i];
        offsets[no++] = 2 * c->push[i];
        offsets[no++] = c->capture[i][0];
        offsets[no++] = c->capture[i][1];
    }
    for (int s = 0; s < c->ncells; s++)
        for (int i = 0; i < no; i++) {
            int to = c->cells[s] + offsets[i], back = c->cells[s] - offsets[i];
            if (to < 0 || to >= c->nsq || back < 0 || back >= c->nsq) {
                PyErr_SetString(PyExc_ValueError, "a step leaves the mailbox: too little padding");
                return -1;
            }
        }
    memset(c->near_king, 0, sizeof c->near_king);
    c->near_king[NSQ] = 1;
    for (int i = 0; i < c->nking; i++) c->near_king[NSQ + c->king_steps[i]] = 1;
    return 0;
}

static int Core_init(Core *c, PyObject *args, PyObject *kw) {
    static char *names[] = {
        "files", "ranks", "king_file", "castle_min", "castle_max", "judged_after", "grid",
        "nsq", "cells", "files_of", "ranks_of", "king_steps", "knight_steps", "rook_lines",
        "bishop_lines", "falcon", "pawn_steps", "promotes", "double_steps",
        "promotions", "zobrist_piece", "zobrist_black", "zobrist_castle", "zobrist_ep",
        "mg_table", "eg_table", "weights", "passed", "search", "tt_bits", NULL,
    };
    PyObject *cells, *files_of, *ranks_of, *king, *knight, *rook, *bishop, *falcon, *pawns;
    PyObject *promotes, *double_steps, *promos, *zpiece, *zcastle, *zep, *mgt, *egt, *weights;
    PyObject *passed, *search;
    unsigned long long zblack;
    int tt_bits;
    if (!PyArg_ParseTupleAndKeywords(
            args, kw, "iiiiippiOOOOOOOOOOOOOKOOOOOOOi", names, &c->files, &c->ranks,
            &c->king_file, &c->castle_min, &c->castle_max, &c->judged_after, &c->grid, &c->nsq,
            &cells, &files_of, &ranks_of, &king, &knight, &rook, &bishop, &falcon, &pawns,
            &promotes, &double_steps, &promos, &zpiece, &zblack, &zcastle, &zep, &mgt, &egt,
            &weights, &passed, &search, &tt_bits))
        return -1;
    if (read_search(c, search) < 0) return -1;
    if (c->files < 1 || c->files > MAX_FILES || c->ranks < 1 || c->ranks > MAX_FILES) {
        PyErr_Format(PyExc_ValueError, "files and ranks: 1..%d", MAX_FILES);
        return -1;
    }
    if (tt_bits < 10 || tt_bits > 26) {
        PyErr_SetString(PyExc_ValueError, "tt_bits must be 10..26");
        return -1;
    }
    if (read_board(c, cells, files_of, ranks_of, king, knight, rook, bishop, falcon, pawns) < 0)
        return -1;
    int size = c->ncells;
    if ((c->npromos = read_some(promos, c->promos, 5, "promotions")) < 0) return -1;
    int marks[MAX_CELLS];
    if (!read_int_list(double_steps, marks, size, "double_steps")) return -1;
    memset(c->double_from, 0, sizeof c->double_from);
    for (int s = 0; s < size; s++) c->double_from[c->py2sq[s]] = (uint8_t)(marks[s] & 3);
    if (!read_int_list(promotes, marks, size, "promotes")) return -1;
    memset(c->promotes, 0, sizeof c->promotes);
    for (int s = 0; s < size; s++) c->promotes[c->py2sq[s]] = (uint8_t)(marks[s] & 3);
    memset(c->zpiece, 0, sizeof c->zpiece);
    if (!read_square_table(c, zpiece, c->zpiece, 1, "zobrist_piece")) return -1;
    c->zblack = zblack;
    uint64_t castle_keys[MAX_CELLS], ep_keys[MAX_CELLS];
    if (!read_u64_list(zcastle, castle_keys, size, "zobrist_castle")) return -1;
    if (!read_u64_list(zep, ep_keys, size, "zobrist_ep")) return -1;
    memset(c->zep, 0, sizeof c->zep);
    for (int s = 0; s < size; s++) c->zep[c->py2sq[s]] = ep_keys[s];
    memset(c->rights_lost, 0, sizeof c->rights_lost);
    memset(c->zcastle, 0, sizeof c->zcastle);
    memset(c->rook_home, 0, sizeof c->rook_home);
    if (c->king_file >= 0) {
        if (!c->grid || c->king_file >= c->files || c->files * c->ranks != size) {
            PyErr_SetString(PyExc_ValueError, "castling needs a rectangle and a king file on it");
            return -1;
        }
        int top = c->ranks - 1;
        int homes[4] = {0, c->files - 1, top * c->files, top * c->files + c->files - 1};
        for (int bit = 0; bit < 4; bit++) {
            c->rook_home[bit] = c->py2sq[homes[bit]];
            c->rights_lost[c->rook_home[bit]] |= (uint8_t)(1 << bit);
        }
        c->rights_lost[sq_of(c, c->king_file, 0)] |= 3;
        c->rights_lost[sq_of(c, c->king_file, top)] |= 12;
        for (int rights = 0; rights < 16; rights++) {
            uint64_t k = 0;
            for (int bit = 0; bit < 4; bit++) if (rights >> bit & 1) k ^= castle_keys[homes[bit]];
            c->zcastle[rights] = k;
        }
    }
    memset(c->mgt, 0, sizeof c->mgt);
    memset(c->egt, 0, sizeof c->egt);
    if (!read_square_table(c, mgt, c->mgt, 0, "mg_table")) return -1;
    if (!read_square_table(c, egt, c->egt, 0, "eg_table")) return -1;
    int w[NWEIGHTS];
    if (!read_int_list(weights, w, NWEIGHTS, "weights")) return -1;
    c->bishop_pair = w[0]; c->falcon_mobility = w[1]; c->doubled = w[2]; c->isolated = w[3];
    c->rook_open = w[4]; c->rook_half = w[5]; c->shield = w[6];
    memset(c->mobility, 0, sizeof c->mobility);
    memset(c->baseline, 0, sizeof c->baseline);
    memset(c->zone_weight, 0, sizeof c->zone_weight);
    static const int movers[4] = {KNIGHT, BISHOP, ROOK, QUEEN};
    for (int i = 0; i < 4; i++) {
        c->mobility[movers[i]] = w[7 + 2 * i];
        c->baseline[movers[i]] = w[8 + 2 * i];
    }
    static const int attackers[5] = {KNIGHT, BISHOP, ROOK, QUEEN, FALCON};
    for (int i = 0; i < 5; i++) c->zone_weight[attackers[i]] = w[15 + i];
    c->danger_scale = w[20];
    c->danger_cap = w[21];
    c->danger_divisor = w[22];
    memset(c->phase_weight, 0, sizeof c->phase_weight);
    static const int phased[5] = {KNIGHT, BISHOP, ROOK, QUEEN, FALCON};
    for (int i = 0; i < 5; i++) c->phase_weight[phased[i]] = w[23 + i];
    c->full_phase = w[28];
    if (c->danger_divisor < 1 || c->full_phase < 1) {
        PyErr_SetString(PyExc_ValueError, "weights: the danger divisor and full phase must be positive");
        return -1;
    }
    PyObject *pf = PySequence_Fast(passed, "passed");
    if (!pf) return -1;
    Py_ssize_t np = PySequence_Fast_GET_SIZE(pf);
    Py_DECREF(pf);
    if (np < 1 || np > MAX_FILES) {
        PyErr_Format(PyExc_ValueError, "passed: 1..%d values", MAX_FILES);
        return -1;
    }
    int pv[MAX_FILES];
    if (!read_int_list(passed, pv, np, "passed")) return -1;
    for (int i = 0; i < MAX_FILES; i++) c->passed[i] = pv[i < np ? i : np - 1];
    free(c->history);
    c->history = calloc((size_t)c->nsq * (size_t)c->nsq, sizeof(int32_t));
    if (!c->history) { PyErr_NoMemory(); return -1; }
    free(c->tt);
    c->tt = calloc((size_t)1 << tt_bits, sizeof(TTEntry));
    if (!c->tt) { PyErr_NoMemory(); return -1; }
    c->tt_mask = ((uint64_t)1 << tt_bits) - 1;
    free(c->evals);
    /* Zeroed: key 0 marks no entry; a position hashing to 0 is evaluated each time. */
    c->evals = calloc((size_t)1 << (tt_bits - 2), sizeof(EvalEntry));
    if (!c->evals) { PyErr_NoMemory(); return -1; }
    c->evals_mask = ((uint64_t)1 << (tt_bits - 2)) - 1;
    c->sp = 0; c->plen = 0; c->turn = 0; c->castling = 0; c->ep = 0;
    return 0;
}

static PyObject *Core_set_position(Core *c, PyObject *args) {
    PyObject *squares, *rooks, *history;
    int turn, ep, halfmove;
    if (!PyArg_ParseTuple(args, "OiOiiO", &squares, &turn, &rooks, &ep, &halfmove, &history))
        return NULL;
    if (c->busy) { PyErr_SetString(PyExc_RuntimeError, "a search is running"); return NULL; }
    int size = c->ncells, vals[MAX_CELLS];
    if (!read_int_list(squares, vals, size, "squares")) return NULL;
    c->king[0] = c->king[1] = -1;
    memset(c->count, 0, sizeof c->count);
    c->hash = 0; c->mg = 0; c->eg = 0;
    for (int s = 0; s < size; s++) c->board[c->py2sq[s]] = 0;
    for (int s = 0; s < size; s++) {
        int p = vals[s];
        if (p < 0 || p > 15 || (p & TYPE_MASK) == 0) {
            if (p == 0) continue;
            PyErr_Format(PyExc_ValueError, "squares: bad piece code %d", p);
            return NULL;
        }
        put(c, c->py2sq[s], p);
        if ((p & TYPE_MASK) == KING) c->king[p >> COLOUR_SHIFT] = c->py2sq[s];
    }
    if (c->king[0] < 0 || c->king[1] < 0) {
        PyErr_SetString(PyExc_ValueError, "each side needs a king");
        return NULL;
    }
    c->turn = turn & 1;
    if (c->turn) c->hash ^= c->zblack;
    PyObject *fast = PySequence_Fast(rooks, "castling");
    if (!fast) return NULL;
    c->castling = 0;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast); i++) {
        long s = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        for (int bit = 0; bit < 4; bit++)
            if (s >= 0 && s < size && c->rook_home[bit] == c->py2sq[s]) c->castling |= 1 << bit;
    }
    Py_DECREF(fast);
    c->hash ^= c->zcastle[c->castling];
    c->ep = ep >= 0 && ep < size ? c->py2sq[ep] : 0;
    c->epkey = 0;
    if (c->ep) {
        /* Hashed only when a pawn of the side to move can take there. */
        uint8_t ours = PAWN | c->turn << COLOUR_SHIFT;
        const int *takes = c->capture[c->turn];
        if (c->board[c->ep - takes[0]] == ours || c->board[c->ep - takes[1]] == ours)
            c->epkey = c->zep[c->ep];
        c->hash ^= c->epkey;
    }
    c->halfmove = halfmove;
    c->sp = 0;
    fast = PySequence_Fast(history, "history");
    if (!fast) return NULL;
    Py_ssize_t nh = PySequence_Fast_GET_SIZE(fast);
    Py_ssize_t skip = nh > 256 ? nh - 256 : 0;
    c->plen = 0;
    for (Py_ssize_t i = skip; i < nh; i++) {
        c->path[c->plen++] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (PyErr_Occurred()) { Py_DECREF(fast); return NULL; }
    }
    Py_DECREF(fast);
    c->path[c->plen++] = c->hash;
    Py_RETURN_NONE;
}

static PyObject *move_list(const Core *c, const Move *moves, int n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(move_to_py(c, moves[i])));
    return list;
}

static PyObject *Core_legal_codes(Core *c, PyObject *unused) {
    (void)unused;
    Move moves[MAX_MOVES];
    return move_list(c, moves, legal_moves(c, moves));
}

static int find_legal(Core *c, long code, Move *out) {
    Move want, moves[MAX_MOVES];
    if (!py_to_move(c, code, &want)) return 0;
    int n = legal_moves(c, moves);
    for (int i = 0; i < n; i++) if (moves[i] == want) { *out = want; return 1; }
    return 0;
}

static PyObject *Core_push(Core *c, PyObject *arg) {
    long code = PyLong_AsLong(arg);
    if (code == -1 && PyErr_Occurred()) return NULL;
    Move m;
    if (c->busy) { PyErr_SetString(PyExc_RuntimeError, "a search is running"); return NULL; }
    if (c->sp >= MAX_STACK - PLY_CAPACITY - 8 || !find_legal(c, code, &m)) {
        PyErr_Format(PyExc_ValueError, "not a legal move here: %ld", code);
        return NULL;
    }
    make(c, m);
    Py_RETURN_NONE;
}

static PyObject *Core_pop(Core *c, PyObject *unused) {
    (void)unused;
    if (c->busy || c->sp == 0) {
        PyErr_SetString(PyExc_RuntimeError, "no move to take back");
        return NULL;
    }
    unmake(c);
    Py_RETURN_NONE;
}

static uint64_t perft(Core *c, int depth) {
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

static PyObject *Core_perft(Core *c, PyObject *arg) {
    long depth = PyLong_AsLong(arg);
    if (depth == -1 && PyErr_Occurred()) return NULL;
    if (depth < 0 || depth > 12) { PyErr_SetString(PyExc_ValueError, "depth 0..12"); return NULL; }
    if (depth == 0) return PyLong_FromLong(1);
    uint64_t n;
    Py_BEGIN_ALLOW_THREADS
    n = perft(c, (int)depth);
    Py_END_ALLOW_THREADS
    return PyLong_FromUnsignedLongLong(n);
}

static PyObject *Core_see(Core *c, PyObject *arg) {
    long code = PyLong_AsLong(arg);
    if (code == -1 && PyErr_Occurred()) return NULL;
    Move m;
    if (!find_legal(c, code, &m) || !(victim_of(c, m) || M_PROMO(m))) {
        PyErr_Format(PyExc_ValueError, "not a legal capture or promotion here: %ld", code);
        return NULL;
    }
    return PyLong_FromLong(see(c, m));
}

static PyObject *Core_evaluate(Core *c, PyObject *unused) {
    (void)unused;
    return PyLong_FromLong(evaluate(c));
}

static PyObject *Core_hash(Core *c, PyObject *unused) {
    (void)unused;
    return PyLong_FromUnsignedLongLong(c->hash);
}

static PyObject *Core_new_game(Core *c, PyObject *unused) {
    (void)unused;
    if (c->busy) { PyErr_SetString(PyExc_RuntimeError, "a search is running"); return NULL; }
    memset(c->tt, 0, (size_t)(c->tt_mask + 1) * sizeof(TTEntry));
    memset(c->history, 0, (size_t)c->nsq * (size_t)c->nsq * sizeof(int32_t));
    Py_RETURN_NONE;
}

/* root(depth, alpha, beta, moves, noise, seconds, nodes, stop, contempt) ->
 * (score, best code, stopped, nodes, seldepth, best code so far).
 * ``moves`` are the legal root moves, best guess first; ``noise`` is added
 * to each one's score (skill levels); ``seconds`` < 0 means no deadline and
 * ``nodes`` 0 no node limit; ``stop`` is called now and then without
 * arguments and ends the search when it returns true. */
static PyObject *Core_root(Core *c, PyObject *args) {
    int depth, alpha, beta;
    PyObject *moves_obj, *noise_obj, *stop;
    double seconds;
    unsigned long long node_limit;
    int contempt = 0;
    if (!PyArg_ParseTuple(args, "iiiOOdKO|i", &depth, &alpha, &beta, &moves_obj, &noise_obj,
                          &seconds, &node_limit, &stop, &contempt))
        return NULL;
    if (c->busy) { PyErr_SetString(PyExc_RuntimeError, "a search is running"); return NULL; }
    if (depth < 1 || depth > c->max_ply) {
        PyErr_Format(PyExc_ValueError, "depth 1..%d", c->max_ply);
        return NULL;
    }
    if (c->sp > MAX_STACK - PLY_CAPACITY - 8 || c->plen > MAX_STACK) {
        PyErr_SetString(PyExc_ValueError, "too many moves pushed");
        return NULL;
    }
    PyObject *fast = PySequence_Fast(moves_obj, "moves");
    if (!fast) return NULL;
    int n = (int)PySequence_Fast_GET_SIZE(fast);
    Py_DECREF(fast);
    if (n < 1 || n > MAX_MOVES) { PyErr_SetString(PyExc_ValueError, "moves: 1..320"); return NULL; }
    int codes[MAX_MOVES], noise[MAX_MOVES], keys[MAX_MOVES];
    Move moves[MAX_MOVES], legal[MAX_MOVES];
    if (!read_int_list(moves_obj, codes, n, "moves")) return NULL;
    if (!read_int_list(noise_obj, noise, n, "noise")) return NULL;
    int nlegal = legal_moves(c, legal);
    for (int i = 0; i < n; i++) {
        int ok = py_to_move(c, codes[i], &moves[i]);
        int found = 0;
        for (int j = 0; ok && j < nlegal; j++) if (legal[j] == moves[i]) found = 1;
        if (!found) {
            PyErr_Format(PyExc_ValueError, "not a legal move here: %d", codes[i]);
            return NULL;
        }
    }
    /* Order: the caller's first move, then the usual keys; noise travels along. */
    score_moves(c, moves, keys, n, moves[0], 0);
    for (int i = 0; i < n; i++) {
        int best = i;
        for (int j = i + 1; j < n; j++) if (keys[j] > keys[best]) best = j;
        Move m = moves[i]; moves[i] = moves[best]; moves[best] = m;
        int k = keys[i]; keys[i] = keys[best]; keys[best] = k;
        k = noise[i]; noise[i] = noise[best]; noise[best] = k;
    }
    c->stop_cb = stop == Py_None ? NULL : stop;
    Py_XINCREF(c->stop_cb);
    c->nodes = 0;
    c->seldepth = 0;
    c->stopped = 0;
    c->cb_error = 0;
    c->node_limit = node_limit;
    c->contempt = contempt;
    c->next_check = node_limit && node_limit < (uint64_t)c->check_every ? node_limit : (uint64_t)c->check_every;
    c->deadline = seconds >= 0 ? now() + seconds : 0;
    c->busy = 1;
    int best = -c->inf;
    Move best_move = moves[0];
    c->ts = PyEval_SaveThread();
    for (int i = 0; i < n; i++) {
        int bonus = noise[i], raw;
        make(c, moves[i]);
        if (i == 0) {
            raw = -negamax(c, depth - 1, -beta + bonus, -alpha + bonus, 1, 1);
        } else {
            raw = -negamax(c, depth - 1, -alpha + bonus - 1, -alpha + bonus, 1, 1);
            if (!c->stopped && alpha < raw + bonus && raw + bonus < beta)
                raw = -negamax(c, depth - 1, -beta + bonus, -alpha + bonus, 1, 1);
        }
        unmake(c);
        if (c->stopped) break;
        int score = abs(raw) > c->mate_bound ? raw : raw + bonus;
        if (score > best) {
            best = score;
            best_move = moves[i];
            if (depth > 1) c->current_best = moves[i];
        }
        if (score > alpha) alpha = score;
        if (alpha >= beta) break;
    }
    if (!c->stopped) {
        TTEntry *e = &c->tt[c->hash & c->tt_mask];
        e->key = c->hash; e->depth = (uint8_t)depth; e->flag = best < beta ? EXACT : LOWER;
        e->score = (int16_t)best; e->move = best_move;
    }
    PyEval_RestoreThread(c->ts);
    c->busy = 0;
    Py_CLEAR(c->stop_cb);
    if (c->cb_error) return NULL;
    long so_far = c->current_best ? move_to_py(c, c->current_best) : 0;
    return Py_BuildValue("(iliKil)", best, move_to_py(c, best_move), c->stopped,
                         (unsigned long long)c->nodes, c->seldepth, so_far);
}

static PyObject *Core_reset_best(Core *c, PyObject *unused) {
    (void)unused;
    c->current_best = 0;
    /* Killers stay from one iteration to the next, not to another position. */
    memset(c->killers, 0, sizeof c->killers);
    Py_RETURN_NONE;
}

/* The principal variation from the table, at most ``limit`` moves. */
static PyObject *Core_pv(Core *c, PyObject *arg) {
    long limit = PyLong_AsLong(arg);
    if (limit == -1 && PyErr_Occurred()) return NULL;
    if (c->busy) { PyErr_SetString(PyExc_RuntimeError, "a search is running"); return NULL; }
    Move line[PLY_CAPACITY];
    int n = 0;
    uint64_t seen[PLY_CAPACITY];
    while (n < limit && n < PLY_CAPACITY && c->sp < MAX_STACK - 1) {
        TTEntry *e = &c->tt[c->hash & c->tt_mask];
        if (e->key != c->hash || !e->move) break;
        int dup = 0;
        for (int i = 0; i < n; i++) if (seen[i] == c->hash) dup = 1;
        if (dup) break;
        Move moves[MAX_MOVES];
        int k = legal_moves(c, moves), found = 0;
        for (int i = 0; i < k; i++) if (moves[i] == e->move) found = 1;
        if (!found) break;
        seen[n] = c->hash;
        line[n++] = e->move;
        make(c, e->move);
    }
    for (int i = 0; i < n; i++) unmake(c);
    return move_list(c, line, n);
}

static PyMethodDef Core_methods[] = {
    {"set_position", (PyCFunction)Core_set_position, METH_VARARGS,
     "set_position(squares, turn, castling_rooks, ep, halfmove, history)"},
    {"legal_codes", (PyCFunction)Core_legal_codes, METH_NOARGS, "Legal moves as packed codes."},
    {"push", (PyCFunction)Core_push, METH_O, "Play a legal packed move."},
    {"pop", (PyCFunction)Core_pop, METH_NOARGS, "Take back the last push."},
    {"perft", (PyCFunction)Core_perft, METH_O, "Leaf count at a depth."},
    {"evaluate", (PyCFunction)Core_evaluate, METH_NOARGS, "Static score for the side to move."},
    {"see", (PyCFunction)Core_see, METH_O,
     "What a capture wins once both sides have traded on its square (ordering values)."},
    {"hash", (PyCFunction)Core_hash, METH_NOARGS, "The position's Zobrist hash."},
    {"new_game", (PyCFunction)Core_new_game, METH_NOARGS, "Clear the table and history."},
    {"root", (PyCFunction)Core_root, METH_VARARGS, "One iteration of the root search."},
    {"reset_best", (PyCFunction)Core_reset_best, METH_NOARGS, "Forget the best move so far."},
    {"pv", (PyCFunction)Core_pv, METH_O, "The principal variation from the table."},
    {"numbers", (PyCFunction)Core_numbers, METH_NOARGS,
     "(search, weights): the numbers the core was built with, as it holds them."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "boardctl.engine._core.Core",
    .tp_basicsize = sizeof(Core),
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The search core for one board size and rule preset.",
    .tp_methods = Core_methods,
    .tp_init = (initproc)Core_init,
    .tp_new = PyType_GenericNew,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_core", "The engine's search in C.", -1, NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&CoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
