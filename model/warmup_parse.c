/* The `warmup` line's schedule side: parse, `warmup.KEY` overrides,
 * write-back.  What the line does (the period of a run with another number
 * of tiles per unit) is in warmup.c; its fit in warmup_fit.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pg_error.h"
#include "sched.h"

#define WUFAIL(...) (pg_fail(__VA_ARGS__), pg_fail_context("%s:%d", s->origin, s->wu_line))

/* The gap counts E is kept at: dense where the transient swings (the first
 * ~40 gaps of our kernels' calibrations, docs/experiments.md M53). */
const int sch_wu_k[SCH_WU_NKEYS] = {1, 2, 4, 8, 12, 16, 24, 32, 48, 64};

/* The field a key names (tiles, total, eK with K one of sch_wu_k), NULL if none. */
static double *key_field(pg_schedule *s, const char *key)
{
    if (strcmp(key, "tiles") == 0)
        return &s->wu_tiles;
    if (strcmp(key, "total") == 0)
        return &s->wu_total;
    if (key[0] != 'e')
        return NULL;
    char *end = NULL;
    const long k = strtol(key + 1, &end, 10);
    if (end == key + 1 || *end)
        return NULL;
    for (int i = 0; i < SCH_WU_NKEYS; i++)
        if (sch_wu_k[i] == k)
            return &s->wu_e[i];
    return NULL;
}

static int value_ok(const char *key, double v) { return strcmp(key, "tiles") == 0 ? v >= 0 && v < 1e9 : isfinite(v); }

int sch_warmup_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line)
{
    (void)text;
    if (s->wu_line)
        return pg_fail("%s:%d: only one `warmup` line (first at line %d)", s->origin, line, s->wu_line);
    s->wu_line = line;
    s->wu_tiles = s->wu_total = 0;
    for (int i = 0; i < SCH_WU_NKEYS; i++)
        s->wu_e[i] = NAN;
    for (int i = 1; i < ntok; i++) {
        const char *eq = strchr(tok[i], '=');
        char key[16];
        if (!eq || (size_t)(eq - tok[i]) >= sizeof key)
            return WUFAIL("warmup: '%s': expected tiles=, total= or eK= (K one of 1 2 4 8 12 16 24 32 48 64)", tok[i]);
        snprintf(key, sizeof key, "%.*s", (int)(eq - tok[i]), tok[i]);
        double *f = key_field(s, key);
        char *end = NULL;
        const double v = strtod(eq + 1, &end);
        if (!f)
            return WUFAIL("warmup: '%s': expected tiles=, total= or eK= (K one of 1 2 4 8 12 16 24 32 48 64)", tok[i]);
        if (end == eq + 1 || *end || !value_ok(key, v))
            return WUFAIL("warmup: %s is out of range (tiles >= 0, the rest finite cycles)", tok[i]);
        *f = v;
    }
    return 0;
}

int sch_warmup_override(pg_schedule *s, const char *stat, int relative, double value, const char *param)
{
    if (!s->wu_line)
        return pg_fail("'%s': this schedule has no warmup line", param);
    double *f = key_field(s, stat);
    if (!f)
        return pg_fail("'%s': warmup takes tiles, total and eK (K one of 1 2 4 8 12 16 24 32 48 64)", param);
    const double v = relative && isfinite(*f) ? *f + value : value;
    if (!value_ok(stat, v))
        return pg_fail("'%s': %g is out of range (tiles >= 0, the rest finite cycles)", param, v);
    *f = v;
    return 0;
}

int sch_warmup_write(FILE *f, const pg_schedule *s, char *text)
{
    (void)text;
    if (!s->wu_line)
        return 0;
    fprintf(f, "warmup tiles=%.9g total=%.9g", s->wu_tiles, s->wu_total);
    for (int i = 0; i < SCH_WU_NKEYS; i++)
        if (isfinite(s->wu_e[i]))
            fprintf(f, " e%d=%.9g", sch_wu_k[i], s->wu_e[i]);
    fprintf(f, "\n");
    return 1;
}
