/* The `colshare` line's schedule side: parse, resolve the listed
 * latencies, `colshare.KEY` overrides, write-back (the fitted blocks).
 * What the line does is in colshare.c; its fit in colshare_fit.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pg_error.h"
#include "sched.h"

#define CSFAIL(...) (pg_fail(__VA_ARGS__), pg_fail_context("%s:%d", s->origin, s->cs_line))
#define CS_USAGE "usage: colshare LATENCY... blocks=B cal_blocks=B0 ratio=R [whole=0|1|2] [on=0|1]"
#define CS_RANGE "(blocks and cal_blocks >= 1, 0 < ratio <= 4, whole 0|1|2, on 0|1)"

static const char *const k_keys[] = {"blocks", "cal_blocks", "ratio", "on", "whole", NULL};

static int key_ok(const char *key, double v)
{
    if (strcmp(key, "whole") == 0)
        return v == 0 || v == 1 || v == 2;
    if (strcmp(key, "on") == 0)
        return v == 0 || v == 1;
    if (strcmp(key, "ratio") == 0)
        return v > 0 && v <= 4;
    return v >= 1 && v < 1e9;
}

/* the field of a number key (NULL for `on`: it is written as the
 * schedule has it, an option's `$name` kept) */
static const double *key_value_of(const pg_schedule *s, const char *key)
{
    return strcmp(key, "blocks") == 0       ? &s->cs_blocks
           : strcmp(key, "cal_blocks") == 0 ? &s->cs_cal_blocks
           : strcmp(key, "ratio") == 0      ? &s->cs_ratio
           : strcmp(key, "whole") == 0      ? &s->cs_whole
                                            : NULL;
}

/* the same, to set (s is the caller's own, not const) */
static double *key_field(pg_schedule *s, const char *key) { return (double *)key_value_of(s, key); }

static void set_key(pg_schedule *s, const char *key, double v)
{
    if (strcmp(key, "on") == 0)
        s->cs_on = (int)v;
    else
        *key_field(s, key) = v;
}

static double get_key(const pg_schedule *s, const char *key)
{
    return strcmp(key, "on") == 0 ? s->cs_on : *key_value_of(s, key);
}

/* the line's keys for the shared parse and override (sched_latline.c) */
static sch_latline line_of(pg_schedule *s)
{
    return (sch_latline){"colshare", k_keys,    "blocks=, cal_blocks=, ratio=, whole= or on=", CS_RANGE, key_ok, set_key,
                         get_key,    s->cs_spec, &s->cs_n, SCH_DQ_MAX};
}

int sch_colshare_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line)
{
    (void)text;
    if (s->cs_line)
        return pg_fail("%s:%d: only one `colshare` line (first at line %d)", s->origin, line, s->cs_line);
    s->cs_line = line;
    s->cs_on = 1;
    s->cs_whole = 1; /* M83's: the factor moves the whole latency */
    const sch_latline d = line_of(s);
    int seen[5] = {0};
    if (sch_latline_parse(s, &d, tok, ntok, line, seen))
        return -1;
    if (s->cs_n == 0 || !seen[0] || !seen[1] || !seen[2])
        return CSFAIL(CS_USAGE);
    return 0;
}

int sch_colshare_resolve(pg_schedule *s)
{
    return s->cs_line ? sch_latline_resolve(s, "colshare", s->cs_line, s->cs_spec, s->cs_n, s->cs_dist) : 0;
}

int sch_colshare_override(pg_schedule *s, const char *stat, int relative, double value, const char *param)
{
    const sch_latline d = line_of(s);
    return sch_latline_override(s, &d, s->cs_line != 0, stat, relative, value, param);
}

/* Written as the schedule has it, each number key with its value now (the
 * fitted blocks); `on=` as written (an option's `$name` stays). */
int sch_colshare_write(FILE *f, const pg_schedule *s, char *text)
{
    if (!s->cs_line)
        return 0;
    sch_latline_write(f, text, "colshare", k_keys, key_value_of, get_key, s);
    fputc('\n', f);
    return 1;
}
