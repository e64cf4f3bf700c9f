/* When a search stops: clock, node limit, stop callback (limits.c). */
#ifndef BOARDCTL_LIMITS_H
#define BOARDCTL_LIMITS_H

#include "core.h"

void start_limits(Core *c, double seconds, uint64_t node_limit, PyObject *stop);
void check_limits(Core *c);
void end_limits(Core *c);

#endif
