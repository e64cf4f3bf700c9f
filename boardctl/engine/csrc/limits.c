/* When a search stops: the clock, the node limit and the caller's stop
 * callback, looked at every check_every nodes (params.CORE_CHECK_EVERY).
 * The search runs without the GIL; it is taken back only to call stop(). */

#include "limits.h"

#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* seconds < 0: no deadline; node_limit 0: no node limit; stop None: none.
 * Releases the GIL until end_limits. */
void start_limits(Core *c, double seconds, uint64_t node_limit, PyObject *stop) {
    c->stop_cb = stop == Py_None ? NULL : stop;
    Py_XINCREF(c->stop_cb);
    c->nodes = 0;
    c->seldepth = 0;
    c->stopped = 0;
    c->cb_error = 0;
    c->node_limit = node_limit;
    c->next_check = node_limit && node_limit < (uint64_t)c->check_every
        ? node_limit : (uint64_t)c->check_every;
    c->deadline = seconds >= 0 ? now() + seconds : 0;
    c->busy = 1;
    c->ts = PyEval_SaveThread();
}

void end_limits(Core *c) {
    PyEval_RestoreThread(c->ts);
    c->busy = 0;
    Py_CLEAR(c->stop_cb);
}

/* Called when the node count reaches next_check: every check_every nodes,
 * and exactly at the node limit. */
void check_limits(Core *c) {
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
