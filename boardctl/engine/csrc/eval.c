/* The static evaluation: evaluate.py's Evaluator.evaluate (HexEvaluator's on
 * a hexagon, where the terms of files and ranks are left out), term for term.
 * Every number is Python's (evaluate.core_weights, the square tables). */
#include "eval.h"

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

int material(const Core *c) {
    int score = tapered(c, phase_of(c));
    return c->turn == 0 ? score : -score;
}

/* Each side's pawns by file: how many, and their lowest and highest rank. */
typedef struct { int count[2][MAX_FILES], lo[2][MAX_FILES], hi[2][MAX_FILES]; } PawnFiles;

/* What the pieces other than pawns and kings add up to in mobility and king
 * pressure, for white; they note the pawns' files and the rooks on the way. */
typedef struct {
    int units[2], attackers[2];
    int rooks[MAX_CELLS], nrooks;
    PawnFiles pawns;
} Survey;

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

/* A cell a piece of colour reaches: counted for mobility unless its own
 * piece stands there, and for pressure when it lies by the enemy king. */
static inline void reach_cell(const Core *c, int to, int colour, int ek, int *reach, int *zone) {
    uint8_t t = c->board[to];
    if (!t || (t >> COLOUR_SHIFT) != colour) (*reach)++;
    *zone += near(c, to, ek);
}

static int falcon_reach(const Core *c, int sq, int colour, int ek, int *zone) {
    int reach = 0;
    for (int i = 0; i < c->nfalcon; i++) {
        const FalconStep *fs = &c->falcon[i];
        int to = sq + fs->to;
        if (c->board[to] == OFF || !falcon_open(c->board, sq, fs)) continue;
        reach_cell(c, to, colour, ek, &reach, zone);
    }
    return reach;
}

static int knight_reach(const Core *c, int sq, int colour, int ek, int *zone) {
    int reach = 0;
    for (int i = 0; i < c->nknight; i++) {
        int to = sq + c->knight_steps[i];
        if (c->board[to] != OFF) reach_cell(c, to, colour, ek, &reach, zone);
    }
    return reach;
}

static int slider_reach(const Core *c, int sq, int type, int colour, int ek, int *zone) {
    const uint8_t *b = c->board;
    int reach = 0;
    int first = type == BISHOP ? c->nrook : 0;
    int last = type == ROOK ? c->nrook : c->nrook + c->nbishop;
    for (int i = first; i < last; i++) {
        int d = c->lines[i];
        int to = sq + d;
        for (; !b[to]; to += d) { reach++; *zone += near(c, to, ek); }
        if (b[to] != OFF) reach_cell(c, to, colour, ek, &reach, zone);
    }
    return reach;
}

/* Mobility of the piece on sq, for white; its king-zone pressure into s. */
static int piece_term(const Core *c, int sq, int type, int colour, Survey *s) {
    int zone = 0, ek = c->king[colour ^ 1], sign = colour ? -1 : 1, score;
    if (type == FALCON) {
        score = c->falcon_mobility * falcon_reach(c, sq, colour, ek, &zone);
    } else {
        int reach = type == KNIGHT ? knight_reach(c, sq, colour, ek, &zone)
                                   : slider_reach(c, sq, type, colour, ek, &zone);
        score = c->mobility[type] * (reach - c->baseline[type]);
    }
    if (zone) {
        s->units[colour] += zone * c->zone_weight[type];
        s->attackers[colour]++;
    }
    return sign * score;
}

static void note_pawn(const Core *c, int sq, int colour, PawnFiles *p) {
    int f = c->file_at[sq], r = c->rank_at[sq];
    p->count[colour][f]++;
    if (r < p->lo[colour][f]) p->lo[colour][f] = r;
    if (r > p->hi[colour][f]) p->hi[colour][f] = r;
}

/* Every piece's mobility, and the pawns and rooks noted for the file terms. */
static int survey(const Core *c, Survey *s) {
    int score = 0;
    for (int f = 0; f < c->files; f++) {
        s->pawns.count[0][f] = s->pawns.count[1][f] = 0;
        s->pawns.lo[0][f] = s->pawns.lo[1][f] = c->ranks;
        s->pawns.hi[0][f] = s->pawns.hi[1][f] = -1;
    }
    s->units[0] = s->units[1] = s->attackers[0] = s->attackers[1] = s->nrooks = 0;
    /* Both sides' pieces by increasing cell, as a walk over every cell. */
    for (int w = 0; w < OCC_WORDS; w++) {
        for (uint64_t bits = c->occupied[0][w] | c->occupied[1][w]; bits; bits &= bits - 1) {
            int sq = lowest_cell(c, w, bits);
            uint8_t p = c->board[sq];
            int colour = p >> COLOUR_SHIFT, type = p & TYPE_MASK;
            if (type == PAWN) {
                if (c->grid) note_pawn(c, sq, colour, &s->pawns);
                continue;
            }
            if (type == KING) continue;
            if (type == ROOK) s->rooks[s->nrooks++] = sq;
            score += piece_term(c, sq, type, colour, s);
        }
    }
    return score;
}

/* King danger grows with the square of the pressure, once two pieces
 * join in, and fades with the material left to attack. */
static int king_danger(const Core *c, const Survey *s, int phase) {
    int score = 0;
    for (int colour = 0; colour < 2; colour++) {
        if (s->attackers[colour] < 2) continue;
        int danger = s->units[colour] * s->units[colour] * c->danger_scale / c->danger_divisor;
        if (danger > c->danger_cap) danger = c->danger_cap;
        danger = danger * phase / c->full_phase;
        score += colour ? -danger : danger;
    }
    return score;
}

static int passed_pawn(const Core *c, const PawnFiles *p, int f, int colour) {
    int other = colour ^ 1, advanced;
    if (colour == 0) {
        int front = p->hi[0][f];
        for (int g = f - 1; g <= f + 1; g++)
            if (g >= 0 && g < c->files && p->hi[other][g] > front) return 0;
        advanced = front;
    } else {
        int front = p->lo[1][f];
        for (int g = f - 1; g <= f + 1; g++)
            if (g >= 0 && g < c->files && p->count[other][g] && p->lo[other][g] < front) return 0;
        advanced = c->ranks - 1 - front;
    }
    return c->passed[advanced < MAX_FILES - 1 ? advanced : MAX_FILES - 1];
}

/* Doubled, isolated and passed pawns, for white. */
static int pawn_structure(const Core *c, const PawnFiles *p) {
    int score = 0;
    for (int f = 0; f < c->files; f++) {
        for (int colour = 0; colour < 2; colour++) {
            int count = p->count[colour][f];
            if (!count) continue;
            int sign = colour ? -1 : 1;
            if (count > 1) score -= sign * c->doubled * (count - 1);
            int left = f > 0 ? p->count[colour][f - 1] : 0;
            int right = f < c->files - 1 ? p->count[colour][f + 1] : 0;
            if (!left && !right) score -= sign * c->isolated * count;
            score += sign * passed_pawn(c, p, f, colour);
        }
    }
    return score;
}

static int rook_files(const Core *c, const Survey *s) {
    int score = 0;
    for (int i = 0; i < s->nrooks; i++) {
        int sq = s->rooks[i], f = c->file_at[sq], colour = c->board[sq] >> COLOUR_SHIFT;
        int bonus;
        if (!s->pawns.count[0][f] && !s->pawns.count[1][f]) bonus = c->rook_open;
        else if (!s->pawns.count[colour][f]) bonus = c->rook_half;
        else continue;
        score += colour ? -bonus : bonus;
    }
    return score;
}

int evaluate(const Core *c) {
    int phase = phase_of(c);
    Survey s;
    int score = tapered(c, phase) + survey(c, &s);
    score += king_danger(c, &s, phase);
    if (c->count[BISHOP] >= 2) score += c->bishop_pair;
    if (c->count[BISHOP | BLACKBIT] >= 2) score -= c->bishop_pair;
    if (c->grid) {
        score += pawn_structure(c, &s.pawns);
        if (phase * 2 > c->full_phase) score += shield(c, 0) - shield(c, 1);
        score += rook_files(c, &s);
    }
    return c->turn == 0 ? score : -score;
}
