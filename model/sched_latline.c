/* The token loops of a schedule line that lists latencies by name and takes
 * NAME=NUMBER keys (`l2reuse`, `colshare`, `rowfirst`): one parse and one
 * write-back, so their messages, checks and written lines stay alike.  Each line keeps its own keys, ranges and fields
 * (its *_parse.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "pg_error.h"
#include "sched.h"

#define LFAIL(...) (pg_fail(__VA_ARGS__), pg_fail_context("%s:%d", s->origin, line))

int sch_latline_key(const char *const *keys, const char *tok)
{
    const char *eq = strchr(tok, '=');
    for (int k = 0; eq && keys[k]; k++)
        if (strlen(keys[k]) == (size_t)(eq - tok) && strncmp(tok, keys[k], (size_t)(eq - tok)) == 0)
            return k;
    return -1;
}

/* a listed latency's name into the line's next spec */
static int add_name(pg_schedule *s, const sch_latline *d, const char *name, int line)
{
    if (*d->n == d->max)
        return LFAIL("%s: at most %d latencies", d->what, d->max);
    if (strlen(name) >= SCH_NAME)
        return LFAIL("%s: name too long", d->what);
    snprintf(d->spec[(*d->n)++], SCH_NAME, "%s", name);
    return 0;
}

int sch_latline_parse(pg_schedule *s, const sch_latline *d, const char *const *tok, int ntok, int line, int *seen)
{
    for (int i = 1; i < ntok; i++) {
        const char *eq = strchr(tok[i], '=');
        if (!eq) {
            if (add_name(s, d, tok[i], line))
                return -1;
            continue;
        }
        const int k = sch_latline_key(d->keys, tok[i]);
        if (k < 0)
            return LFAIL("%s: '%s': expected %s", d->what, tok[i], d->expected);
        double v = NAN; /* a number or an expression (a written --delta: (EXPR)+SUM) */
        if (expr_eval(eq + 1, 0, &v) || !d->key_ok(d->keys[k], v))
            return LFAIL("%s: %s is out of range %s", d->what, tok[i], d->range);
        d->set_key(s, d->keys[k], v);
        seen[k] = 1;
    }
    return 0;
}

unsigned sch_latline_write(FILE *f, char *text, const char *what, const char *const *keys,
                           const double *(*value_of)(const pg_schedule *s, const char *key),
                           double (*get_key)(const pg_schedule *s, const char *key), const pg_schedule *s)
{
    unsigned written = 0;
    for (char *save = NULL, *t = strtok_r(text, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        const int k = sch_latline_key(keys, t);
        const double *v = k >= 0 ? value_of(s, keys[k]) : NULL;
        if (t != text)
            fputc(' ', f);
        char param[SCH_NAME + 32];
        if (k >= 0)
            snprintf(param, sizeof param, "%s.%s", what, keys[k]);
        if (v)
            sch_write_key(f, s, param, t, *v);
        else if (k >= 0 && sch_overridden(s, param, NULL)) /* a switch an override set */
            fprintf(f, "%s=%.9g", keys[k], get_key(s, keys[k]));
        else
            fputs(t, f);
        if (k >= 0)
            written |= 1u << k;
    }
    return written;
}

int sch_latline_resolve(pg_schedule *s, const char *what, int line, char (*spec)[SCH_NAME], int n, int *dist)
{
    for (int i = 0; i < n; i++) {
        const int d = sch_find_dist(s, spec[i]);
        if (d < 0 || s->dists[d].kind == DKIND_PHASE)
            return LFAIL("%s: '%s' is not a `latency` or `memory` line of this schedule", what, spec[i]);
        dist[i] = d;
    }
    return 0;
}

int sch_latline_override(pg_schedule *s, const sch_latline *d, int present, const char *stat, int relative,
                         double value, const char *param)
{
    if (!present)
        return pg_fail("'%s': this schedule has no %s line", param, d->what);
    int k = 0;
    while (d->keys[k] && strcmp(d->keys[k], stat) != 0)
        k++;
    if (!d->keys[k]) {
        char takes[160] = "";
        for (int i = 0; d->keys[i]; i++)
            snprintf(takes + strlen(takes), sizeof takes - strlen(takes), "%s%s", i ? ", " : "", d->keys[i]);
        return pg_fail("'%s': %s takes %s", param, d->what, takes);
    }
    const double v = relative ? d->get_key(s, stat) + value : value;
    if (!d->key_ok(stat, v))
        return pg_fail("'%s': %g is out of range %s", param, v, d->range);
    d->set_key(s, stat, v);
    return 0;
}
