/* The `l2reuse` line's schedule side: parse, resolve against the
 * `bandwidth` line and the listed latencies, `l2reuse.KEY` overrides,
 * write-back (the fitted cal_bytes).  What the line does is in l2reuse.c;
 * its fit in l2reuse_fit.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pg_error.h"
#include "sched.h"

#define L2FAIL(...) (pg_fail(__VA_ARGS__), pg_fail_context("%s:%d", s->origin, s->l2_line))

static const char *const k_keys[] = {"bytes", "ratio", "full", "cal_bytes", "on", NULL};
#define L2_USAGE "usage: l2reuse LATENCY... bytes=C ratio=R full=F [cal_bytes=W0] [on=0|1]"
#define L2_RANGE "(bytes > 0, 0 < ratio <= 4, 0 <= full < 1, cal_bytes >= 0, on 0|1)"

/* the field of a number key (NULL: `on` or unknown) */
static const double *key_value_of(const pg_schedule *s, const char *key)
{
    return strcmp(key, "bytes") == 0       ? &s->l2_bytes
           : strcmp(key, "ratio") == 0     ? &s->l2_ratio
           : strcmp(key, "full") == 0      ? &s->l2_full
           : strcmp(key, "cal_bytes") == 0 ? &s->l2_cal_bytes
                                           : NULL;
}

/* the same, to set (s is the caller's own, not const) */
static double *key_field(pg_schedule *s, const char *key) { return (double *)key_value_of(s, key); }

static int key_ok(const char *key, double v)
{
    if (strcmp(key, "on") == 0)
        return v == 0 || v == 1;
    if (strcmp(key, "ratio") == 0)
        return v > 0 && v <= 4;
    if (strcmp(key, "full") == 0)
        return v >= 0 && v < 1;
    if (strcmp(key, "cal_bytes") == 0)
        return v >= 0 && v < 1e18;
    return v > 0 && v < 1e18;
}

static void set_key(pg_schedule *s, const char *key, double v)
{
    if (strcmp(key, "on") == 0)
        s->l2_on = (int)v;
    else
        *key_field(s, key) = v;
}

static double get_key(const pg_schedule *s, const char *key)
{
    return strcmp(key, "on") == 0 ? s->l2_on : *key_value_of(s, key);
}

/* the line's keys for the shared parse and override (sched_latline.c) */
static sch_latline line_of(pg_schedule *s)
{
    return (sch_latline){"l2reuse", k_keys,    "bytes=, ratio=, full=, cal_bytes= or on=", L2_RANGE, key_ok, set_key,
                         get_key,   s->l2_spec, &s->l2_n, SCH_DQ_MAX};
}

int sch_l2reuse_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line)
{
    (void)text;
    if (s->l2_line)
        return pg_fail("%s:%d: only one `l2reuse` line (first at line %d)", s->origin, line, s->l2_line);
    s->l2_line = line;
    s->l2_on = 1;
    const sch_latline d = line_of(s);
    int seen[5] = {0};
    if (sch_latline_parse(s, &d, tok, ntok, line, seen))
        return -1;
    if (s->l2_n == 0 || !seen[0] || !seen[1] || !seen[2])
        return L2FAIL(L2_USAGE);
    return 0;
}

int sch_l2reuse_resolve(pg_schedule *s)
{
    if (!s->l2_line)
        return 0;
    if (s->bw_dist < 0)
        return L2FAIL("l2reuse needs a `bandwidth` line (its compulsory bytes per tile give the working set)");
    return sch_latline_resolve(s, "l2reuse", s->l2_line, s->l2_spec, s->l2_n, s->l2_dist);
}

int sch_l2reuse_override(pg_schedule *s, const char *stat, int relative, double value, const char *param)
{
    const sch_latline d = line_of(s);
    return sch_latline_override(s, &d, s->l2_line != 0, stat, relative, value, param);
}

/* The line as written with its numbers as they are now (the fit sets
 * cal_bytes and, from the run file, bytes); `on=` stays as written (an
 * `on=$option` keeps its option) unless an override set it; cal_bytes
 * added where the line had none, before a trailing comment. */
int sch_l2reuse_write(FILE *f, const pg_schedule *s, char *text)
{
    if (!s->l2_line)
        return 0;
    char *comment = sch_cut_comment(text);
    if (!(sch_latline_write(f, text, "l2reuse", k_keys, key_value_of, get_key, s) & 1u << 3)) /* cal_bytes */
        fprintf(f, " cal_bytes=%.9g", s->l2_cal_bytes);
    sch_end_line(f, comment);
    return 1;
}
