/* The `rowfirst` line's schedule side: parse, resolve the listed
 * latencies, `rowfirst.KEY` overrides, write-back (the fitted blocks and
 * extra).  What the line does is in rowfirst.c; its fit in rowfirst_fit.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pg_error.h"
#include "sched.h"

#define RFFAIL(...) (pg_fail(__VA_ARGS__), pg_fail_context("%s:%d", s->origin, s->rf_line))
#define RF_USAGE "usage: rowfirst LATENCY... blocks=B cal_blocks=B0 extra=E [next=0|1] [fit=0|1] [on=0|1] [option=NAME] [above=C] [prefetch=P] [added=X] [prefetch_all=P0] [added_all=X0]"
#define RF_RANGE "(blocks and cal_blocks >= 1, -1e6 < extra, above, added < 1e6, 0 <= prefetch, prefetch_all < 1e6, -1e6 < added_all < 1e6, next, fit and on 0|1)"

static const char *const k_keys[] = {"blocks", "cal_blocks", "extra", "next", "fit", "on", "above", "prefetch", "added", "prefetch_all", "added_all", NULL};
#define OPTION_KEY "option="

static int key_ok(const char *key, double v)
{
    if (strcmp(key, "on") == 0 || strcmp(key, "fit") == 0 || strcmp(key, "next") == 0)
        return v == 0 || v == 1;
    if (strcmp(key, "extra") == 0 || strcmp(key, "above") == 0 || strcmp(key, "added") == 0 ||
        strcmp(key, "added_all") == 0)
        return v > -1e6 && v < 1e6;
    if (strcmp(key, "prefetch") == 0 || strcmp(key, "prefetch_all") == 0)
        return v >= 0 && v < 1e6;
    return v >= 1 && v < 1e9;
}

/* the field of a number key (NULL for the switches) */
static const double *key_value_of(const pg_schedule *s, const char *key)
{
    return strcmp(key, "blocks") == 0       ? &s->rf_blocks
           : strcmp(key, "cal_blocks") == 0 ? &s->rf_cal_blocks
           : strcmp(key, "extra") == 0      ? &s->rf_extra
           : strcmp(key, "above") == 0      ? &s->rf_above
           : strcmp(key, "prefetch") == 0   ? &s->rf_prefetch
           : strcmp(key, "added") == 0      ? &s->rf_added
           : strcmp(key, "prefetch_all") == 0 ? &s->rf_prefetch_all
           : strcmp(key, "added_all") == 0  ? &s->rf_added_all
                                            : NULL;
}

/* the same, to set (s is the caller's own, not const) */
static double *key_field(pg_schedule *s, const char *key) { return (double *)key_value_of(s, key); }

/* the field of a switch (NULL for the number keys) */
static const int *switch_value_of(const pg_schedule *s, const char *key)
{
    return strcmp(key, "on") == 0     ? &s->rf_on
           : strcmp(key, "fit") == 0  ? &s->rf_fit
           : strcmp(key, "next") == 0 ? &s->rf_next
                                      : NULL;
}

static int *switch_field(pg_schedule *s, const char *key) { return (int *)switch_value_of(s, key); }

static void set_key(pg_schedule *s, const char *key, double v)
{
    int *sw = switch_field(s, key);
    if (sw)
        *sw = (int)v;
    else
        *key_field(s, key) = v;
}

static double get_key(const pg_schedule *s, const char *key)
{
    const int *sw = switch_value_of(s, key);
    return sw ? *sw : *key_value_of(s, key);
}

/* the line's keys for the shared parse and override (sched_latline.c) */
static sch_latline line_of(pg_schedule *s)
{
    return (sch_latline){"rowfirst", k_keys, "blocks=, cal_blocks=, extra=, next=, fit= or on= (and option=NAME above=C prefetch=P added=X prefetch_all=P0 added_all=X0)", RF_RANGE, key_ok,
                         set_key, get_key, s->rf_spec, &s->rf_n, SCH_DQ_MAX};
}

/* option=NAME, the one key that names something: taken out of the tokens
 * the shared number-key parse reads (`kept`), and into rf_option */
static int take_option(pg_schedule *s, const char *const *tok, int ntok, const char **kept, int *nkept, int line)
{
    const size_t n = strlen(OPTION_KEY);
    *nkept = 0;
    for (int i = 0; i < ntok; i++) {
        if (i == 0 || strncmp(tok[i], OPTION_KEY, n) != 0) {
            kept[(*nkept)++] = tok[i];
            continue;
        }
        if (s->rf_option[0] || !tok[i][n] || strlen(tok[i] + n) >= SCH_NAME)
            return pg_fail("%s:%d: rowfirst: one option=NAME, a name shorter than %d", s->origin, line, SCH_NAME);
        snprintf(s->rf_option, sizeof s->rf_option, "%s", tok[i] + n);
    }
    return 0;
}

int sch_rowfirst_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line)
{
    (void)text;
    if (s->rf_line)
        return pg_fail("%s:%d: only one `rowfirst` line (first at line %d)", s->origin, line, s->rf_line);
    s->rf_line = line;
    s->rf_on = 1;
    s->rf_above = 250; /* M146: halfway between a prefetch's gap (354-621) and none (~0-10) */
    const char **kept = malloc(sizeof *kept * (size_t)ntok);
    int nkept = 0, rc = -1;
    const sch_latline d = line_of(s);
    int seen[sizeof k_keys / sizeof *k_keys] = {0};
    if (!kept)
        rc = pg_fail("out of memory");
    else if (take_option(s, tok, ntok, kept, &nkept, line) == 0 && sch_latline_parse(s, &d, kept, nkept, line, seen) == 0)
        rc = s->rf_n == 0 || !seen[0] || !seen[1] || !seen[2] ? RFFAIL(RF_USAGE) : 0;
    free(kept);
    return rc;
}

int sch_rowfirst_resolve(pg_schedule *s)
{
    if (!s->rf_line)
        return 0;
    if (s->rf_option[0] && pg_schedule_option(s, s->rf_option, NULL, 0) != 0)
        return RFFAIL("rowfirst: option=%s is not an `option` of this schedule", s->rf_option);
    return sch_latline_resolve(s, "rowfirst", s->rf_line, s->rf_spec, s->rf_n, s->rf_dist);
}

int sch_rowfirst_override(pg_schedule *s, const char *stat, int relative, double value, const char *param)
{
    const sch_latline d = line_of(s);
    return sch_latline_override(s, &d, s->rf_line != 0, stat, relative, value, param);
}

/* Written as the schedule has it, each number key with its value now (the
 * fitted blocks and extra); the switches as written (an option's `$name`
 * stays). */
int sch_rowfirst_write(FILE *f, const pg_schedule *s, char *text)
{
    if (!s->rf_line)
        return 0;
    sch_latline_write(f, text, "rowfirst", k_keys, key_value_of, get_key, s);
    fputc('\n', f);
    return 1;
}
