/* The Python type boardctl.engine._core.Core (typed in ../_core.pyi): its
 * methods translate between the rules core's move codes and cell numbers
 * and the core's own, check what they are given, and call the rest. */

#include "board.h"
#include "eval.h"
#include "legal.h"
#include "limits.h"
#include "order.h"
#include "search.h"
#include "setup.h"
#include "tt.h"

#include <stdlib.h>
#include <string.h>

static int refuse_while_busy(const Core *c) {
    if (c->busy) PyErr_SetString(PyExc_RuntimeError, "a search is running");
    return c->busy;
}

static int py_to_move(const Core *c, long code, Move *out) {
    int from = CODE_FROM(code), to = CODE_TO(code);
    int promo = CODE_PROMO(code), flag = CODE_FLAG(code);
    int size = c->ncells;
    if (code < 0 || from >= size || to >= size || flag > F_CASTLE) return 0;
    *out = MOVE(c->py2sq[from], c->py2sq[to], promo, flag);
    return 1;
}

static long move_to_py(const Core *c, Move m) {
    return CODE(c->sq2py[M_FROM(m)], c->sq2py[M_TO(m)], M_PROMO(m), M_FLAG(m));
}

static PyObject *move_list(const Core *c, const Move *moves, int n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(move_to_py(c, moves[i])));
    return list;
}

static int find_legal(Core *c, long code, Move *out) {
    Move want, moves[MAX_MOVES];
    if (!py_to_move(c, code, &want)) return 0;
    int n = legal_moves(c, moves);
    for (int i = 0; i < n; i++) if (moves[i] == want) { *out = want; return 1; }
    return 0;
}

/* ---------------------------------------------------------------- set_position */

static int place_pieces(Core *c, PyObject *squares) {
    int size = c->ncells, vals[MAX_CELLS];
    if (!read_int_list(squares, vals, size, "squares")) return -1;
    c->king[0] = c->king[1] = -1;
    memset(c->count, 0, sizeof c->count);
    c->hash = 0; c->mg = 0; c->eg = 0;
    for (int s = 0; s < size; s++) c->board[c->py2sq[s]] = 0;
    memset(c->occupied, 0, sizeof c->occupied);
    for (int s = 0; s < size; s++) {
        int p = vals[s];
        if (p < 0 || p > 15 || (p & TYPE_MASK) == 0) {
            if (p == 0) continue;
            PyErr_Format(PyExc_ValueError, "squares: bad piece code %d", p);
            return -1;
        }
        put(c, c->py2sq[s], p);
        if ((p & TYPE_MASK) == KING) c->king[p >> COLOUR_SHIFT] = c->py2sq[s];
    }
    if (c->king[0] < 0 || c->king[1] < 0) {
        PyErr_SetString(PyExc_ValueError, "each side needs a king");
        return -1;
    }
    return 0;
}

/* The rights, from the cells of the rooks that may still castle. */
static int read_castling(Core *c, PyObject *rooks) {
    PyObject *fast = PySequence_Fast(rooks, "castling");
    if (!fast) return -1;
    c->castling = 0;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast); i++) {
        long s = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        for (int bit = 0; bit < 4; bit++)
            if (s >= 0 && s < c->ncells && c->rook_home[bit] == c->py2sq[s]) c->castling |= 1 << bit;
    }
    Py_DECREF(fast);
    c->hash ^= c->zcastle[c->castling];
    return 0;
}

static void set_en_passant(Core *c, int ep) {
    c->ep = ep >= 0 && ep < c->ncells ? c->py2sq[ep] : 0;
    c->epkey = 0;
    if (c->ep) {
        /* Hashed only when a pawn of the side to move can take there. */
        uint8_t ours = PAWN | c->turn << COLOUR_SHIFT;
        const int *takes = c->capture[c->turn];
        if (c->board[c->ep - takes[0]] == ours || c->board[c->ep - takes[1]] == ours)
            c->epkey = c->zep[c->ep];
        c->hash ^= c->epkey;
    }
}

/* The hashes before the position (the last 256 at most), then its own. */
static int read_path(Core *c, PyObject *history) {
    PyObject *fast = PySequence_Fast(history, "history");
    if (!fast) return -1;
    Py_ssize_t nh = PySequence_Fast_GET_SIZE(fast);
    Py_ssize_t skip = nh > 256 ? nh - 256 : 0;
    c->plen = 0;
    for (Py_ssize_t i = skip; i < nh; i++) {
        c->path[c->plen++] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (PyErr_Occurred()) { Py_DECREF(fast); return -1; }
    }
    Py_DECREF(fast);
    c->path[c->plen++] = c->hash;
    return 0;
}

static PyObject *Core_set_position(Core *c, PyObject *args) {
    PyObject *squares, *rooks, *history;
    int turn, ep, halfmove;
    if (!PyArg_ParseTuple(args, "OiOiiO", &squares, &turn, &rooks, &ep, &halfmove, &history))
        return NULL;
    if (refuse_while_busy(c) || place_pieces(c, squares) < 0) return NULL;
    c->turn = turn & 1;
    if (c->turn) c->hash ^= c->zblack;
    if (read_castling(c, rooks) < 0) return NULL;
    set_en_passant(c, ep);
    c->halfmove = halfmove;
    c->sp = 0;
    if (read_path(c, history) < 0) return NULL;
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------ moves and perft */

static PyObject *Core_legal_codes(Core *c, PyObject *unused) {
    (void)unused;
    Move moves[MAX_MOVES];
    return move_list(c, moves, legal_moves(c, moves));
}

static PyObject *Core_push(Core *c, PyObject *arg) {
    long code = PyLong_AsLong(arg);
    if (code == -1 && PyErr_Occurred()) return NULL;
    Move m;
    if (refuse_while_busy(c)) return NULL;
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
    if (refuse_while_busy(c)) return NULL;
    tt_clear(c);
    Py_RETURN_NONE;
}

/* -------------------------------------------------------------------- search */

/* The root's moves and their noise from Python: each must be legal here. */
static int read_root_moves(Core *c, PyObject *moves_obj, PyObject *noise_obj, Move *moves,
                           int *noise) {
    PyObject *fast = PySequence_Fast(moves_obj, "moves");
    if (!fast) return -1;
    int n = (int)PySequence_Fast_GET_SIZE(fast);
    Py_DECREF(fast);
    if (n < 1 || n > MAX_MOVES) { PyErr_SetString(PyExc_ValueError, "moves: 1..320"); return -1; }
    int codes[MAX_MOVES];
    Move legal[MAX_MOVES];
    if (!read_int_list(moves_obj, codes, n, "moves")) return -1;
    if (!read_int_list(noise_obj, noise, n, "noise")) return -1;
    int nlegal = legal_moves(c, legal);
    for (int i = 0; i < n; i++) {
        int ok = py_to_move(c, codes[i], &moves[i]);
        int found = 0;
        for (int j = 0; ok && j < nlegal; j++) if (legal[j] == moves[i]) found = 1;
        if (!found) {
            PyErr_Format(PyExc_ValueError, "not a legal move here: %d", codes[i]);
            return -1;
        }
    }
    return n;
}

static int check_root(const Core *c, int depth) {
    if (refuse_while_busy(c)) return -1;
    if (depth < 1 || depth > c->max_ply) {
        PyErr_Format(PyExc_ValueError, "depth 1..%d", c->max_ply);
        return -1;
    }
    if (c->sp > MAX_STACK - PLY_CAPACITY - 8 || c->plen > MAX_STACK) {
        PyErr_SetString(PyExc_ValueError, "too many moves pushed");
        return -1;
    }
    return 0;
}

/* root(depth, alpha, beta, moves, noise, seconds, nodes, stop, contempt) ->
 * (score, best code, stopped, nodes, seldepth, best code so far).
 * ``moves`` are the legal root moves, best guess first; ``noise`` is added
 * to each one's score (skill levels); ``seconds`` < 0 means no deadline and
 * ``nodes`` 0 no node limit; ``stop`` is called now and then without
 * arguments and ends the search when it returns true. */
static PyObject *Core_root(Core *c, PyObject *args) {
    int depth, alpha, beta, contempt = 0;
    PyObject *moves_obj, *noise_obj, *stop;
    double seconds;
    unsigned long long node_limit;
    if (!PyArg_ParseTuple(args, "iiiOOdKO|i", &depth, &alpha, &beta, &moves_obj, &noise_obj,
                          &seconds, &node_limit, &stop, &contempt))
        return NULL;
    if (check_root(c, depth) < 0) return NULL;
    int noise[MAX_MOVES];
    Move moves[MAX_MOVES], best_move;
    int n = read_root_moves(c, moves_obj, noise_obj, moves, noise);
    if (n < 0) return NULL;
    order_root(c, moves, noise, n);
    c->contempt = contempt;
    start_limits(c, seconds, node_limit, stop);
    int best = search_root(c, depth, alpha, beta, moves, noise, n, &best_move);
    end_limits(c);
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

/* The table's move here when it is legal and the position is not in the line yet. */
static int table_move(Core *c, const uint64_t *seen, int n, Move *out) {
    TTEntry *e = tt_slot(c);
    if (e->key != c->hash || !e->move) return 0;
    for (int i = 0; i < n; i++) if (seen[i] == c->hash) return 0;
    Move moves[MAX_MOVES];
    int k = legal_moves(c, moves);
    for (int i = 0; i < k; i++) if (moves[i] == e->move) { *out = e->move; return 1; }
    return 0;
}

/* The principal variation from the table, at most ``limit`` moves. */
static PyObject *Core_pv(Core *c, PyObject *arg) {
    long limit = PyLong_AsLong(arg);
    if (limit == -1 && PyErr_Occurred()) return NULL;
    if (refuse_while_busy(c)) return NULL;
    Move line[PLY_CAPACITY];
    int n = 0;
    uint64_t seen[PLY_CAPACITY];
    while (n < limit && n < PLY_CAPACITY && c->sp < MAX_STACK - 1) {
        if (!table_move(c, seen, n, &line[n])) break;
        seen[n] = c->hash;
        make(c, line[n++]);
    }
    for (int i = 0; i < n; i++) unmake(c);
    return move_list(c, line, n);
}

/* ---------------------------------------------------------------- the type */

static void Core_dealloc(Core *c) {
    free(c->tt);
    free(c->evals);
    free(c->history);
    Py_XDECREF(c->stop_cb);
    Py_TYPE(c)->tp_free((PyObject *)c);
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
    /* Whether this build's plain char is unsigned, as on the Pi (setup.py asks for it
     * everywhere); CHAR_MIN is limits.h's, which Python.h includes. */
    if (PyModule_AddIntConstant(m, "CHAR_UNSIGNED", CHAR_MIN == 0) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
