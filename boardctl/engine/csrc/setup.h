/* The constructor, reading the game from Python (setup.c). */
#ifndef BOARDCTL_SETUP_H
#define BOARDCTL_SETUP_H

#include "core.h"

int read_int_list(PyObject *seq, int *out, Py_ssize_t n, const char *what);
int Core_init(Core *c, PyObject *args, PyObject *kw);
PyObject *Core_numbers(Core *c, PyObject *unused);

#endif
