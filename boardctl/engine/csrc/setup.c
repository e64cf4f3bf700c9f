/* The constructor: everything that defines the game, read from Python
 * (core.py's build) and checked, and the tables allocated. */

#include "setup.h"

#include <stdlib.h>
#include <string.h>

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

int read_int_list(PyObject *seq, int *out, Py_ssize_t n, const char *what) {
    return read_list(seq, out, NULL, n, what);
}

static inline int read_u64_list(PyObject *seq, uint64_t *out, Py_ssize_t n, const char *what) {
    return read_list(seq, NULL, out, n, what);
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

/* ------------------------------------------------------ the search's numbers */

/* The search's numbers, in params.core_search's order: NSEARCH scalars, the
 * futility margins (their count first), the ordering values, and the
 * late-move reductions' table (its rows and columns first). */
static int *search_fields(Core *c, int i) {
    int *scalars[NSEARCH] = {
        &c->mate, &c->mate_bound, &c->inf, &c->max_ply, &c->check_every, &c->null_min_depth,
        &c->null_reduction, &c->null_deeper, &c->lazy_margin, &c->reverse_futility,
        &c->reverse_depth, &c->delta_margin, &c->lmr_min_depth, &c->lmr_min_moves,
        &c->history_limit, &c->fifty_moves, &c->iir_depth, &c->lmp_depth, &c->lmp_moves,
        &c->nfutility,
    };
    if (i < NSEARCH) return scalars[i];
    i -= NSEARCH;
    if (i < c->nfutility) return &c->futility[i];
    i -= c->nfutility;
    if (i < 8) return &c->order_value[i];
    i -= 8;
    if (i == 0) return &c->lmr_depths;
    if (i == 1) return &c->lmr_moves;
    return &c->lmr[i - 2];
}

static int lmr_at(const Core *c) { return NSEARCH + c->nfutility + 8; }
static int search_count(const Core *c) { return lmr_at(c) + 2 + c->lmr_depths * c->lmr_moves; }

/* The item at i of a sequence as an int, or -1 when there is none. */
static int item_at(PyObject *fast, Py_ssize_t i) {
    if (i >= PySequence_Fast_GET_SIZE(fast)) return -1;
    return (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
}

static int read_search(Core *c, PyObject *seq) {
    PyObject *fast = PySequence_Fast(seq, "search");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    c->nfutility = item_at(fast, NSEARCH - 1);
    int fits = c->nfutility >= 0 && c->nfutility <= MAX_FUTILITY;
    c->lmr_depths = fits ? item_at(fast, lmr_at(c)) : -1;
    c->lmr_moves = fits ? item_at(fast, lmr_at(c) + 1) : -1;
    Py_DECREF(fast);
    if (PyErr_Occurred()) return -1;
    fits = fits && c->lmr_depths >= 1 && c->lmr_depths <= MAX_LMR_DEPTHS && c->lmr_moves >= 1
        && c->lmr_moves <= MAX_LMR_MOVES;
    if (!fits || n != search_count(c)) {
        PyErr_SetString(PyExc_ValueError, "search: not params.core_search()'s numbers");
        return -1;
    }
    int vals[NSEARCH + MAX_FUTILITY + 8 + 2 + MAX_LMR_DEPTHS * MAX_LMR_MOVES];
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

/* --------------------------------------------------- the evaluation's numbers */

static const int MOVERS[4] = {KNIGHT, BISHOP, ROOK, QUEEN};
static const int ATTACKERS[5] = {KNIGHT, BISHOP, ROOK, QUEEN, FALCON};

/* The evaluation's numbers, in evaluate.core_weights's order, as the core
 * holds them: read in one direction, reported back in the other. */
static void weight_fields(Core *c, int *fields[NWEIGHTS]) {
    int *scalars[7] = {
        &c->bishop_pair, &c->falcon_mobility, &c->doubled, &c->isolated, &c->rook_open,
        &c->rook_half, &c->shield,
    };
    for (int i = 0; i < 7; i++) fields[i] = scalars[i];
    for (int i = 0; i < 4; i++) {
        fields[7 + 2 * i] = &c->mobility[MOVERS[i]];
        fields[8 + 2 * i] = &c->baseline[MOVERS[i]];
    }
    for (int i = 0; i < 5; i++) fields[15 + i] = &c->zone_weight[ATTACKERS[i]];
    fields[20] = &c->danger_scale; fields[21] = &c->danger_cap; fields[22] = &c->danger_divisor;
    for (int i = 0; i < 5; i++) fields[23 + i] = &c->phase_weight[ATTACKERS[i]];
    fields[28] = &c->full_phase;
}

static int read_weights(Core *c, PyObject *weights, PyObject *passed) {
    int w[NWEIGHTS], *fields[NWEIGHTS];
    if (!read_int_list(weights, w, NWEIGHTS, "weights")) return -1;
    memset(c->mobility, 0, sizeof c->mobility);
    memset(c->baseline, 0, sizeof c->baseline);
    memset(c->zone_weight, 0, sizeof c->zone_weight);
    memset(c->phase_weight, 0, sizeof c->phase_weight);
    weight_fields(c, fields);
    for (int i = 0; i < NWEIGHTS; i++) *fields[i] = w[i];
    if (c->danger_divisor < 1 || c->full_phase < 1) {
        PyErr_SetString(PyExc_ValueError,
                        "weights: the danger divisor and full phase must be positive");
        return -1;
    }
    int pv[MAX_FILES], np = read_some(passed, pv, MAX_FILES, "passed");
    if (np < 0) return -1;
    for (int i = 0; i < MAX_FILES; i++) c->passed[i] = pv[i < np ? i : np - 1];
    return 0;
}

/* What the core was given, read back from where it keeps it. */
PyObject *Core_numbers(Core *c, PyObject *unused) {
    (void)unused;
    int n = search_count(c), *fields[NWEIGHTS];
    PyObject *search = PyTuple_New(n);
    if (!search) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(search, i, PyLong_FromLong(*search_fields(c, i)));
    weight_fields(c, fields);
    PyObject *weights = PyTuple_New(NWEIGHTS);
    if (!weights) { Py_DECREF(search); return NULL; }
    for (int i = 0; i < NWEIGHTS; i++) PyTuple_SET_ITEM(weights, i, PyLong_FromLong(*fields[i]));
    return Py_BuildValue("(NN)", search, weights);
}

/* ------------------------------------------------------------------ the board */

/* The rules core's cells in the mailbox, and each one's file and rank. */
static int read_cells(Core *c, PyObject *cells, PyObject *files_of, PyObject *ranks_of) {
    if ((c->ncells = read_some(cells, c->cells, MAX_CELLS, "cells")) < 0) return -1;
    int fr[MAX_CELLS];
    for (int s = 0; s < NSQ; s++) { c->sq2py[s] = -1; c->file_at[s] = c->rank_at[s] = -1; }
    memset(c->board, OFF, sizeof c->board);
    memset(c->occupied, 0, sizeof c->occupied);
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
    return 0;
}

static int read_steps(Core *c, PyObject *king, PyObject *knight, PyObject *rook,
                      PyObject *bishop) {
    if ((c->nking = read_some(king, c->king_steps, MAX_STEPS, "king_steps")) < 0) return -1;
    if ((c->nknight = read_some(knight, c->knight_steps, MAX_STEPS, "knight_steps")) < 0)
        return -1;
    if ((c->nrook = read_some(rook, c->lines, MAX_LINES, "rook_lines")) < 0) return -1;
    if ((c->nbishop = read_some(bishop, c->lines + c->nrook, MAX_LINES, "bishop_lines")) < 0)
        return -1;
    if (c->nknight != c->nking || c->nrook != c->nbishop) {
        PyErr_SetString(PyExc_ValueError,
                        "as many knight leaps as king steps, rook lines as bishop lines");
        return -1;
    }
    return 0;
}

/* The falcon's moves, flat as core.py gives them (also kept in flat for
 * the padding check); returns how many numbers, or -1. */
static int read_falcon(Core *c, PyObject *falcon, int *flat) {
    int nf = read_some(falcon, flat, MAX_FALCON * (1 + 2 * NPATHS), "falcon");
    if (nf < 0) return -1;
    if (nf % (1 + 2 * NPATHS)) {
        PyErr_SetString(PyExc_ValueError,
                        "falcon: a destination and three paths of two cells each");
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
    return nf;
}

/* Every offset from every cell must land inside the mailbox (on the
 * padding at worst); slides stop at the padding, a step from it. */
static int check_padding(const Core *c, const int *flat, int nf) {
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
    return 0;
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
    if (read_cells(c, cells, files_of, ranks_of) < 0) return -1;
    if (read_steps(c, king, knight, rook, bishop) < 0) return -1;
    int flat[MAX_FALCON * (1 + 2 * NPATHS)];
    int nf = read_falcon(c, falcon, flat);
    if (nf < 0) return -1;
    int pw[6];
    if (!read_int_list(pawns, pw, 6, "pawn_steps")) return -1;
    c->push[0] = pw[0]; c->push[1] = pw[1];
    c->capture[0][0] = pw[2]; c->capture[0][1] = pw[3];
    c->capture[1][0] = pw[4]; c->capture[1][1] = pw[5];
    if (check_padding(c, flat, nf) < 0) return -1;
    memset(c->near_king, 0, sizeof c->near_king);
    c->near_king[NSQ] = 1;
    for (int i = 0; i < c->nking; i++) c->near_king[NSQ + c->king_steps[i]] = 1;
    return 0;
}

/* Per cell, bit c for colour c: where pawns step twice from, and promote. */
static int read_pawn_marks(Core *c, PyObject *promotes, PyObject *double_steps) {
    int size = c->ncells, marks[MAX_CELLS];
    if (!read_int_list(double_steps, marks, size, "double_steps")) return -1;
    memset(c->double_from, 0, sizeof c->double_from);
    for (int s = 0; s < size; s++) c->double_from[c->py2sq[s]] = (uint8_t)(marks[s] & 3);
    if (!read_int_list(promotes, marks, size, "promotes")) return -1;
    memset(c->promotes, 0, sizeof c->promotes);
    for (int s = 0; s < size; s++) c->promotes[c->py2sq[s]] = (uint8_t)(marks[s] & 3);
    return 0;
}

/* The rooks' home cells, the rights each cell's move loses, and the castling
 * keys of every set of rights (the rules core hashes each right by its rook's cell). */
static int set_castling(Core *c, const uint64_t *castle_keys) {
    int size = c->ncells;
    memset(c->rights_lost, 0, sizeof c->rights_lost);
    memset(c->zcastle, 0, sizeof c->zcastle);
    memset(c->rook_home, 0, sizeof c->rook_home);
    if (c->king_file < 0) return 0;
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
    return 0;
}

static int read_zobrist(Core *c, PyObject *zpiece, unsigned long long zblack, PyObject *zcastle,
                        PyObject *zep) {
    int size = c->ncells;
    memset(c->zpiece, 0, sizeof c->zpiece);
    if (!read_square_table(c, zpiece, c->zpiece, 1, "zobrist_piece")) return -1;
    c->zblack = zblack;
    uint64_t castle_keys[MAX_CELLS], ep_keys[MAX_CELLS];
    if (!read_u64_list(zcastle, castle_keys, size, "zobrist_castle")) return -1;
    if (!read_u64_list(zep, ep_keys, size, "zobrist_ep")) return -1;
    memset(c->zep, 0, sizeof c->zep);
    for (int s = 0; s < size; s++) c->zep[c->py2sq[s]] = ep_keys[s];
    return set_castling(c, castle_keys);
}

static int read_tables(Core *c, PyObject *mgt, PyObject *egt) {
    memset(c->mgt, 0, sizeof c->mgt);
    memset(c->egt, 0, sizeof c->egt);
    if (!read_square_table(c, mgt, c->mgt, 0, "mg_table")) return -1;
    if (!read_square_table(c, egt, c->egt, 0, "eg_table")) return -1;
    return 0;
}

static int allocate(Core *c, int tt_bits) {
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
    return 0;
}

/* The sizes of the board, checked before anything is read by them. */
static int check_sizes(const Core *c, int tt_bits) {
    if (c->files < 1 || c->files > MAX_FILES || c->ranks < 1 || c->ranks > MAX_FILES) {
        PyErr_Format(PyExc_ValueError, "files and ranks: 1..%d", MAX_FILES);
        return -1;
    }
    if (tt_bits < 10 || tt_bits > 26) {
        PyErr_SetString(PyExc_ValueError, "tt_bits must be 10..26");
        return -1;
    }
    return 0;
}

int Core_init(Core *c, PyObject *args, PyObject *kw) {
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
    if (read_search(c, search) < 0 || check_sizes(c, tt_bits) < 0) return -1;
    if (read_board(c, cells, files_of, ranks_of, king, knight, rook, bishop, falcon, pawns) < 0)
        return -1;
    if ((c->npromos = read_some(promos, c->promos, 5, "promotions")) < 0) return -1;
    if (read_pawn_marks(c, promotes, double_steps) < 0) return -1;
    if (read_zobrist(c, zpiece, zblack, zcastle, zep) < 0) return -1;
    if (read_tables(c, mgt, egt) < 0 || read_weights(c, weights, passed) < 0) return -1;
    if (allocate(c, tt_bits) < 0) return -1;
    c->sp = 0; c->plen = 0; c->turn = 0; c->castling = 0; c->ep = 0;
    return 0;
}
