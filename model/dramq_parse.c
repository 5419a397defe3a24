/* The `dramq` line's schedule side: parse, resolve against the `bandwidth`
 * line and the listed latencies, `dramq.KEY` overrides.  What the line
 * does (the factor on the listed latencies) is in dramq.c; its fit in
 * dramq_fit.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "pg_error.h"
#include "sched.h"

#define DQFAIL(...) (pg_fail(__VA_ARGS__), pg_fail_context("%s:%d", s->origin, s->dq_line))

static const char *const k_keys[] = {"qscale", "bytes_per_s", "cal_bytes_per_s", "clock_cal", "on", NULL};

static double *key_field(pg_schedule *s, const char *key)
{
    return strcmp(key, "qscale") == 0            ? &s->dq_qscale
           : strcmp(key, "bytes_per_s") == 0     ? &s->dq_bytes_per_s
           : strcmp(key, "cal_bytes_per_s") == 0 ? &s->dq_cal_bytes_per_s
           : strcmp(key, "clock_cal") == 0       ? &s->dq_clock_cal
                                                 : NULL;
}

/* a key's value is valid: on is 0 or 1, qscale >= 0, the rest > 0 */
static int key_ok(const char *key, double v)
{
    if (strcmp(key, "on") == 0)
        return v == 0 || v == 1;
    if (strcmp(key, "qscale") == 0)
        return v >= 0 && v < 100;
    return v > 0;
}

static int set_key(pg_schedule *s, const char *key, double v)
{
    if (strcmp(key, "on") == 0) {
        s->dq_on = (int)v;
        return 0;
    }
    double *f = key_field(s, key);
    if (!f)
        return -1;
    *f = v;
    return 0;
}

int sch_dramq_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line)
{
    (void)text;
    if (s->dq_line)
        return pg_fail("%s:%d: only one `dramq` line (first at line %d)", s->origin, line, s->dq_line);
    s->dq_line = line;
    int seen[5] = {0};
    for (int i = 1; i < ntok; i++) {
        const char *eq = strchr(tok[i], '=');
        if (!eq) {
            if (s->dq_n == SCH_DQ_MAX)
                return DQFAIL("dramq: at most %d latencies", SCH_DQ_MAX);
            if (strlen(tok[i]) >= SCH_NAME)
                return DQFAIL("dramq: name too long");
            snprintf(s->dq_spec[s->dq_n++], SCH_NAME, "%s", tok[i]);
            continue;
        }
        int k = 0;
        while (k_keys[k] && (strlen(k_keys[k]) != (size_t)(eq - tok[i]) || strncmp(tok[i], k_keys[k], (size_t)(eq - tok[i]))))
            k++;
        if (!k_keys[k])
            return DQFAIL("dramq: '%s': expected qscale=, bytes_per_s=, cal_bytes_per_s=, clock_cal= or on=", tok[i]);
        double v = NAN; /* a number or an expression of the options (on=1-$x, M153) */
        if (expr_eval(eq + 1, 0, &v) || !key_ok(k_keys[k], v))
            return DQFAIL("dramq: %s: not a number or an expression of the options, or out of range (on 0|1, qscale >= 0, "
                          "the rest > 0)",
                          tok[i]);
        set_key(s, k_keys[k], v);
        seen[k] = 1;
    }
    if (s->dq_n == 0 || !seen[0] || !seen[1] || !seen[2] || !seen[3])
        return DQFAIL("usage: dramq LATENCY... qscale=Q bytes_per_s=B cal_bytes_per_s=B0 clock_cal=HZ [on=0|1]");
    return 0;
}

int sch_dramq_resolve(pg_schedule *s)
{
    if (!s->dq_line)
        return 0;
    if (s->bw_dist < 0)
        return DQFAIL("dramq needs a `bandwidth` line (its bytes per tile and calibrated period give the DRAM share)");
    return sch_latline_resolve(s, "dramq", s->dq_line, s->dq_spec, s->dq_n, s->dq_dist);
}

int sch_dramq_override(pg_schedule *s, const char *stat, int relative, double value, const char *param)
{
    if (!s->dq_line)
        return pg_fail("'%s': this schedule has no dramq line", param);
    double *f = key_field(s, stat);
    const int is_on = strcmp(stat, "on") == 0;
    if (!f && !is_on)
        return pg_fail("'%s': dramq takes qscale, bytes_per_s, cal_bytes_per_s, clock_cal, on", param);
    const double v = relative ? (is_on ? s->dq_on : *f) + value : value;
    if (!key_ok(stat, v))
        return pg_fail("'%s': %g is out of range (on 0|1, qscale >= 0, the rest > 0)", param, v);
    return set_key(s, stat, v);
}
