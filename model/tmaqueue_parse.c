/* The `tmaqueue` line's schedule side: parse, resolve on the k-block loop,
 * `tmaqueue.penalty` overrides, write-back.  What the line does is in tmaqueue.c; its
 * fit in tmaqueue_fit.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pg_error.h"
#include "sched.h"

#define TQFAIL(...) (pg_fail(__VA_ARGS__), pg_fail_context("%s:%d", s->origin, s->tq_line))

int sch_tmaqueue_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line)
{
    (void)text;
    if (s->tq_line)
        return pg_fail("%s:%d: only one `tmaqueue` line (first at line %d)", s->origin, line, s->tq_line);
    s->tq_line = line;
    const char *after = NULL, *window = NULL, *penalty = NULL;
    for (int i = 2; i < ntok; i++) {
        if (strncmp(tok[i], "after=", 6) == 0)
            after = tok[i] + 6;
        else if (strncmp(tok[i], "window=", 7) == 0)
            window = tok[i] + 7;
        else if (strncmp(tok[i], "penalty=", 8) == 0)
            penalty = tok[i] + 8;
        else
            return TQFAIL("tmaqueue: '%s': expected after=, window= or penalty=", tok[i]);
    }
    if (ntok < 2 || strchr(tok[1], '=') || !after || !window || !penalty)
        return TQFAIL("usage: tmaqueue PHASE after=STEP window=LATENCY penalty=CYCLES");
    if (strlen(tok[1]) >= SCH_NAME || strlen(after) >= SCH_NAME || strlen(window) >= SCH_NAME)
        return TQFAIL("tmaqueue: name too long");
    char *end = NULL;
    s->tq_penalty = strtod(penalty, &end);
    if (end == penalty || *end || !(s->tq_penalty >= 0))
        return TQFAIL("tmaqueue: penalty=%s must be a number of cycles >= 0", penalty);
    snprintf(s->tq_spec[0], sizeof s->tq_spec[0], "%s", tok[1]);
    snprintf(s->tq_spec[1], sizeof s->tq_spec[1], "%s", after);
    snprintf(s->tq_spec[2], sizeof s->tq_spec[2], "%s", window);
    return 0;
}

int sch_tmaqueue_resolve(pg_schedule *s)
{
    int r, st, ra, sa;
    if (!s->tq_line)
        return 0;
    if (s->kb_node < 0)
        return TQFAIL("tmaqueue needs a `kblocks` line (it delays the loop's k-block loads)");
    if (sch_find_work(s, s->tq_spec[0], &r, &st) || sch_node_of(s, r, 0, st) != s->kb_node)
        return TQFAIL("tmaqueue: '%s' is not the kblocks loop's phase", s->tq_spec[0]);
    if (sch_find_work(s, s->tq_spec[1], &ra, &sa) || ra != r)
        return TQFAIL("tmaqueue: after=%s is not a work step of role %s", s->tq_spec[1], s->roles[r].name);
    const int d = sch_find_dist(s, s->tq_spec[2]);
    if (d < 0 || s->dists[d].kind == DKIND_PHASE)
        return TQFAIL("tmaqueue window=%s: not a `latency` or `memory` line of this schedule", s->tq_spec[2]);
    s->tq_win_slot = sch_slot_of(s, d, 0);
    if (s->tq_win_slot < 0)
        return TQFAIL("too many sampled quantities");
    s->tq_after_node = sch_node_of(s, ra, 0, sa);
    s->tq_on = 1;
    return 0;
}

int sch_tmaqueue_override(pg_schedule *s, const char *stat, int relative, double value, const char *param)
{
    if (!s->tq_on)
        return pg_fail("'%s': this schedule has no tmaqueue line", param);
    if (strcmp(stat, "penalty") != 0)
        return pg_fail("'%s': tmaqueue takes penalty", param);
    const double v = relative ? s->tq_penalty + value : value;
    if (!(v >= 0))
        return pg_fail("'%s' must be >= 0", param);
    s->tq_penalty = v;
    return 0;
}

int sch_tmaqueue_write(FILE *f, const pg_schedule *s, char *text)
{
    (void)text;
    if (!s->tq_on)
        return 0;
    fprintf(f, "tmaqueue %s after=%s window=%s penalty=%.9g\n", s->tq_spec[0], s->tq_spec[1], s->tq_spec[2],
            s->tq_penalty);
    return 1;
}
