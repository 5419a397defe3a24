/* The `clock` line's schedule side: parse, resolve the listed latencies and
 * options, `clock.KEY` overrides, write-back (the fitted cal_period,
 * cal_compute and cal_clock).  What the line does (the SM clock at the power
 * cap, and the share of it a delay moves held in ns) is in predict_clock.c;
 * its fit in fit_lines.c. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pg_error.h"
#include "sched.h"

#define CKFAIL(...) (pg_fail(__VA_ARGS__), pg_fail_context("%s:%d", s->origin, s->ck_line))
#define CK_USAGE                                                                                                     \
    "usage: clock [LATENCY...] exponent=E rest=R rate=G fmax=HZ compute=C by=OPTION[,OPTION...] cal_period=P "      \
    "cal_compute=C0 cal_clock=HZ0 [iter=N] [on=0|1]"
#define CK_RANGE                                                                                                     \
    "(0 < exponent <= 2, rest and rate >= 0, compute and cal_compute > 0 cycles, fmax, cal_period and cal_clock > "  \
    "0, iter 1..8, on 0|1)"

static const char *const k_keys[] = {"exponent", "rest",      "rate",     "fmax", "compute", "cal_period",
                                     "cal_compute", "cal_clock", "iter", "on", NULL};
enum { K_REQUIRED = 8 }; /* the keys before iter= must be given */

static int key_ok(const char *key, double v)
{
    if (strcmp(key, "on") == 0)
        return v == 0 || v == 1;
    if (strcmp(key, "iter") == 0)
        return v >= 1 && v <= 8 && v == floor(v);
    if (strcmp(key, "exponent") == 0)
        return v > 0 && v <= 2;
    if (strcmp(key, "rest") == 0 || strcmp(key, "rate") == 0)
        return v >= 0 && v < 1e6;
    return v > 0 && v < 1e15;
}

/* the field of a number key (NULL for `on`: it is written as the schedule
 * has it, an option's `$name` kept) */
static const double *key_value_of(const pg_schedule *s, const char *key)
{
    static const struct {
        const char *key;
        size_t off;
    } fields[] = {{"exponent", offsetof(pg_schedule, ck_exponent)},
                  {"rest", offsetof(pg_schedule, ck_rest)},
                  {"rate", offsetof(pg_schedule, ck_rate)},
                  {"fmax", offsetof(pg_schedule, ck_fmax)},
                  {"compute", offsetof(pg_schedule, ck_compute)},
                  {"cal_period", offsetof(pg_schedule, ck_cal_period)},
                  {"cal_compute", offsetof(pg_schedule, ck_cal_compute)},
                  {"cal_clock", offsetof(pg_schedule, ck_cal_clock)},
                  {"iter", offsetof(pg_schedule, ck_iter)}};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (strcmp(key, fields[i].key) == 0)
            return (const double *)((const char *)s + fields[i].off);
    return NULL;
}

static void set_key(pg_schedule *s, const char *key, double v)
{
    if (strcmp(key, "on") == 0)
        s->ck_on = (int)v;
    else
        *(double *)key_value_of(s, key) = v;
}

static double get_key(const pg_schedule *s, const char *key)
{
    return strcmp(key, "on") == 0 ? s->ck_on : *key_value_of(s, key);
}

static sch_latline line_of(pg_schedule *s)
{
    return (sch_latline){"clock",
                         k_keys,
                         "exponent=, rest=, rate=, fmax=, compute=, cal_period=, cal_compute=, cal_clock=, iter=, "
                         "by= or on=",
                         CK_RANGE,
                         key_ok,
                         set_key,
                         get_key,
                         s->ck_spec,
                         &s->ck_n,
                         SCH_CK_MAX};
}

/* by=A,B: the options whose change the clock's move is held in ns for */
static int parse_by(pg_schedule *s, const char *list)
{
    char buf[SCH_CK_MAX * SCH_NAME];
    if (strlen(list) >= sizeof buf)
        return CKFAIL("clock: by= is too long");
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (s->ck_nby == SCH_CK_MAX)
            return CKFAIL("clock: by= lists at most %d options", SCH_CK_MAX);
        if (strlen(t) >= SCH_NAME)
            return CKFAIL("clock: by=: name too long");
        snprintf(s->ck_by[s->ck_nby++], SCH_NAME, "%s", t);
    }
    return s->ck_nby ? 0 : CKFAIL("clock: by= lists no option");
}

int sch_clock_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line)
{
    (void)text;
    if (s->ck_line)
        return pg_fail("%s:%d: only one `clock` line (first at line %d)", s->origin, line, s->ck_line);
    s->ck_line = line;
    s->ck_on = 1;
    s->ck_iter = 2;
    const char *rest[64];
    int nrest = 0;
    for (int i = 0; i < ntok && nrest < 64; i++) {
        if (strncmp(tok[i], "by=", 3) == 0) {
            if (s->ck_nby)
                return CKFAIL("clock: by= given twice");
            if (parse_by(s, tok[i] + 3))
                return -1;
        } else
            rest[nrest++] = tok[i];
    }
    const sch_latline d = line_of(s);
    int seen[10] = {0};
    if (sch_latline_parse(s, &d, rest, nrest, line, seen))
        return -1;
    for (int k = 0; k < K_REQUIRED; k++)
        if (!seen[k])
            return CKFAIL(CK_USAGE " (%s= is missing)", k_keys[k]);
    return s->ck_nby ? 0 : CKFAIL(CK_USAGE " (by= is missing)");
}

int sch_clock_resolve(pg_schedule *s)
{
    if (!s->ck_line)
        return 0;
    for (int i = 0; i < s->ck_nby; i++)
        if (pg_schedule_option(s, s->ck_by[i], NULL, 0))
            return CKFAIL("clock: by=%s is not an option of this schedule", s->ck_by[i]);
    return sch_latline_resolve(s, "clock", s->ck_line, s->ck_spec, s->ck_n, s->ck_dist);
}

int sch_clock_override(pg_schedule *s, const char *stat, int relative, double value, const char *param)
{
    const sch_latline d = line_of(s);
    return sch_latline_override(s, &d, s->ck_line != 0, stat, relative, value, param);
}

/* Written as the schedule has it, each number key with its value now (the
 * fitted cal_*); by= and `on=` as written. */
int sch_clock_write(FILE *f, const pg_schedule *s, char *text)
{
    if (!s->ck_line)
        return 0;
    sch_latline_write(f, text, "clock", k_keys, key_value_of, get_key, s);
    fputc('\n', f);
    return 1;
}
