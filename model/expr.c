#include "expr.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pg_error.h"

/* Parentheses and unary minus recurse; deeper nesting than any schedule
 * needs is refused instead of running off the stack (found by fuzzing:
 * tests/fuzz/regress/expr/). */
#define EXPR_MAX_DEPTH 64

typedef struct {
    const char *p;
    double warp;
    int bad;
    int depth;
} parser;

static double parse_sum(parser *q);

/* max(A,B) and min(A,B): a schedule's fraction that must stay in range as
 * its options vary (a ring deeper than a tile's k-blocks: max(0,...)) */
/* a call's ')': 1 past it, 0 (q->bad set) where the call is malformed */
static int end_call(parser *q)
{
    q->depth--;
    if (!q->bad && *q->p != ')')
        q->bad = 1;
    if (q->bad)
        return 0;
    q->p++;
    return 1;
}

static double parse_call(parser *q, int is_max)
{
    q->p += 4;
    q->depth++;
    const double a = parse_sum(q);
    double b = 0;
    if (!q->bad && *q->p == ',') {
        q->p++;
        b = parse_sum(q);
    } else if (!q->bad) {
        q->bad = 1;
    }
    if (!end_call(q))
        return 0;
    return is_max ? fmax(a, b) : fmin(a, b);
}

/* ceil(A): a whole number of tiles back (a ring that holds more k-blocks
 * than a tile has: the tile offset of the slot a stage reuses, M71) */
static double parse_ceil(parser *q)
{
    q->p += 5;
    q->depth++;
    const double a = parse_sum(q);
    return end_call(q) ? ceil(a) : 0;
}

static double parse_atom(parser *q)
{
    const int call = strncmp(q->p, "max(", 4) == 0 || strncmp(q->p, "min(", 4) == 0,
              ceil_call = strncmp(q->p, "ceil(", 5) == 0;
    if ((*q->p == '(' || *q->p == '-' || call || ceil_call) && q->depth >= EXPR_MAX_DEPTH) {
        q->bad = 2;
        return 0;
    }
    if (call)
        return parse_call(q, q->p[1] == 'a');
    if (ceil_call)
        return parse_ceil(q);
    if (*q->p == '(') {
        q->p++;
        q->depth++;
        double v = parse_sum(q);
        q->depth--;
        if (q->bad)
            return v; /* keep the first reason */
        if (*q->p != ')')
            q->bad = 1;
        else
            q->p++;
        return v;
    }
    if (*q->p == '-') {
        q->p++;
        q->depth++;
        double v = -parse_atom(q);
        q->depth--;
        return v;
    }
    if (strncmp(q->p, "warp", 4) == 0 && !isalnum((unsigned char)q->p[4]) && q->p[4] != '_') {
        q->p += 4;
        return q->warp;
    }
    char *end;
    double v = strtod(q->p, &end);
    if (end == q->p) {
        q->bad = 1;
        return 0;
    }
    q->p = end;
    return v;
}

static double parse_product(parser *q)
{
    double v = parse_atom(q);
    while (!q->bad && (*q->p == '*' || *q->p == '/')) {
        char op = *q->p++;
        double r = parse_atom(q);
        v = op == '*' ? v * r : v / r;
    }
    return v;
}

static double parse_sum(parser *q)
{
    double v = parse_product(q);
    while (!q->bad && (*q->p == '+' || *q->p == '-')) {
        char op = *q->p++;
        double r = parse_product(q);
        v = op == '+' ? v + r : v - r;
    }
    return v;
}

int expr_eval(const char *s, double warp, double *out)
{
    parser q = {s, warp, 0, 0};
    double v = parse_sum(&q);
    if (q.bad == 2)
        return pg_fail("'%.40s...' nests parentheses or minus signs more than %d deep", s, EXPR_MAX_DEPTH);
    if (q.bad || *q.p != '\0' || !isfinite(v))
        return pg_fail("'%s' is not a number or arithmetic expression", s);
    *out = v;
    return 0;
}

int expr_uses_warp(const char *s) { return strstr(s, "warp") != NULL; }
