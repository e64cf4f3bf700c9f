/* The static evaluation (eval.c). */
#ifndef BOARDCTL_EVAL_H
#define BOARDCTL_EVAL_H

#include "core.h"

int material(const Core *c);
int evaluate(const Core *c);

#endif
