/*
 * boardctl.engine._core: the engine's search in C, the core that plays.
 *
 * boardctl/engine/README.md states the contract between this core and the
 * Python reference (search.py, evaluate.py, the rules core): what it plays
 * with, what the reference is for and what the tests hold it to.  In short:
 * it takes everything that defines the game from Python at construction (the
 * board and its moves, castling preset, promotions, the squares pawns step
 * twice from, the rules core's Zobrist keys, the evaluation's square tables
 * and weights, the search's numbers from params.py), so a position's hash
 * here is its hash in the rules core and it holds no tuning number of its own
 * (tests/engine/test_params.py); its legal moves, perft counts, hashes and
 * static evaluation equal the Python code's (tests/engine/test_core.py,
 * test_contract.py).  Its search adds what self-play at a Pi's time per move
 * measured as gains (bench/sprt.py, issue 15): static exchange evaluation,
 * null-move reductions growing with depth, a ply less where the table has no
 * move, a history penalty, a cache of evaluations and a quiescence search that
 * reads and fills the transposition table.
 *
 * The files, by concern: move.h (the packed moves), this header (the Core
 * and the small inline helpers every file uses; no function of any file),
 * movegen.c (attacks and generation), board.c (making and taking back moves),
 * legal.c (legal moves and perft, which need both), eval.c, order.c (move
 * ordering and exchanges), tt.c (the transposition table and the evaluation
 * cache), limits.c (clock, node limit and stop callback), search.c, setup.c
 * (reading the constructor's arguments) and module.c (the Python type).
 * Each .c file but module.c declares what it offers in a header of its
 * name, and includes the headers of what it uses: the includes are the
 * files' dependencies, and they run one way (tests/engine/test_csrc.py).
 *
 * Board: a mailbox that core.py lays out from the rules core's geometry,
 * rectangle or hexagon alike: the board's cells in a grid with enough
 * padding (OFF) around them that no leap leaves the array and every slide
 * stops on it, and every king step, knight leap, line, falcon move (with
 * its three paths) and pawn step as an offset in that grid.  On a hexagon
 * (grid = 0) there is no castling and no term of files and ranks.
 * Pieces are coded as in boardctl/rules/pieces.py: type | colour << 3.
 */
#ifndef BOARDCTL_CORE_H
#define BOARDCTL_CORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#include "move.h"

#define NSQ 576           /* mailbox cells: the hexagon's 23 x 23 fits */
#define MAX_CELLS 128     /* the rules core's cells: 7 bits of its move codes */
#define OCC_WORDS ((MAX_CELLS + 63) / 64)  /* 64-bit words of a set of cells */
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
#define NSEARCH 20        /* len(params.core_search()) before FUTILITY and ORDER_VALUE */
#define MAX_LMR_DEPTHS 64 /* the late-move reductions' table: rows (by depth) */
#define MAX_LMR_MOVES 128 /* and columns (by the move's number) it may have */
/* Ordering keys: the table's move, then captures and promotions (by value),
 * then killers, then quiet moves by history (within +-HISTORY_LIMIT < KEY_KILLER),
 * then captures that lose material. */
#define KEY_TT (1 << 30)
#define KEY_CAPTURE (1 << 24)
#define KEY_KILLER (1 << 23)
#define KEY_LOSING (-(1 << 24))  /* captures that lose material, after the quiet moves */
#define ORDER_SCALE 16    /* MVV-LVA: the victim's value counts this many times the attacker's */

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
    int lmr_min_depth, lmr_min_moves, history_limit, fifty_moves;
    int iir_depth, lmp_depth, lmp_moves;
    int nfutility, futility[MAX_FUTILITY], order_value[8];
    int lmr_depths, lmr_moves, lmr[MAX_LMR_DEPTHS * MAX_LMR_MOVES];  /* by depth, then move */
    /* the position */
    uint8_t board[NSQ];
    int turn, castling, ep, halfmove, king[2], count[16], mg, eg;
    /* Bit i % 64 of word i / 64: cell i (cells[i]) holds a piece of that colour.
     * Most cells are empty or the other side's, so generate and evaluate
     * walk these bits in the cells' order rather than every cell; board.c
     * keeps them with the board, which only make, unmake and set_position
     * change for good (see() and castling's test put back what they move,
     * calling neither generate nor evaluate meanwhile). */
    uint64_t occupied[2][OCC_WORDS];
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

static inline int sq_of(const Core *c, int file, int rank) {
    return c->py2sq[rank * c->files + file];
}
/* The cell in the mailbox of the lowest bit set in bits, word w of a set of cells. */
static inline int lowest_cell(const Core *c, int w, uint64_t bits) {
    return c->cells[w * 64 + __builtin_ctzll(bits)];
}
static inline int near(const Core *c, int sq, int king) { return c->near_king[sq - king + NSQ]; }
static inline int floordiv(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
static inline int falcon_open(const uint8_t *b, int sq, const FalconStep *f) {
    return (!b[sq + f->path[0][0]] && !b[sq + f->path[0][1]])
        || (!b[sq + f->path[1][0]] && !b[sq + f->path[1][1]])
        || (!b[sq + f->path[2][0]] && !b[sq + f->path[2][1]]);
}
/* The type a move takes (en passant: a pawn; castling: nothing). */
static inline int victim_of(const Core *c, Move m) {
    if (M_FLAG(m) == F_EP) return PAWN;
    if (M_FLAG(m) == F_CASTLE) return 0;
    return c->board[M_TO(m)] & TYPE_MASK;
}

#endif
