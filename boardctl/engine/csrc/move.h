/*
 * The packed move, in both of its forms; the one place either layout is written.
 *
 * Inside the core a move names mailbox cells (10 bits each, NSQ < 1024):
 *     from | to << 10 | promo << 20 | flag << 24
 * Python sees the rules core's codes, cells numbered as the rules core numbers
 * them (7 bits each, MAX_CELLS = 128):
 *     from | to << 7 | promo << 14 | flag << 17
 * The Python side of that second layout is boardctl/rules/moves.py (encode,
 * code_from, code_to, code_promotion, code_flag), which search.py and the rest
 * of the engine read codes through; a change to one is a change to both.
 */
#ifndef BOARDCTL_MOVE_H
#define BOARDCTL_MOVE_H

#include <stdint.h>

typedef uint32_t Move;
#define M_FROM(m) ((int)((m) & 1023))
#define M_TO(m) ((int)(((m) >> 10) & 1023))
#define M_PROMO(m) ((int)(((m) >> 20) & 15))
#define M_FLAG(m) ((int)((m) >> 24))
#define MOVE(f, t, p, fl) ((Move)(f) | (Move)(t) << 10 | (Move)(p) << 20 | (Move)(fl) << 24)

/* The flags, as boardctl/rules/moves.py numbers them (0 is a plain move). */
#define F_DOUBLE 1
#define F_EP 2
#define F_CASTLE 3

/* The rules core's codes. */
#define CODE_FROM(code) ((int)((code) & 127))
#define CODE_TO(code) ((int)((code) >> 7 & 127))
#define CODE_PROMO(code) ((int)((code) >> 14 & 7))
#define CODE_FLAG(code) ((int)((code) >> 17))
#define CODE(f, t, p, fl) ((long)(f) | (long)(t) << 7 | (long)(p) << 14 | (long)(fl) << 17)

#endif
