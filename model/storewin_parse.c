/* The `storewin` line's schedule side: parse, resolve on the k-block loop,
 * `storewin.KEY` overrides, write-back with the fitted gain.  What the line
 * does is in storewin.c; its fit in storewin_fit.c. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "expr.h"
#include "pg_error.h"
#include "sched.h"

#define WNFAIL(...) (pg_fail(__VA_ARGS__), pg_fail_context("%s:%d", s->origin, s->wn_line))
/* each value a number or an expression of the options (on=max($x,1-$y)) */
#define WN_USAGE "usage: storewin PHASE after=STEP span=CYCLES gain=G [fit=0|1] [on=0|1] [load_gain=G [load_span=CYCLES]]"
#define WN_RANGE "(0 < span, load_span < 1e6 cycles, 0 <= gain, load_gain <= 4, fit and on 0|1)"

static const char *const k_keys[] = {"span", "gain", "fit", "on", "load_gain", "load_span", NULL};
enum { K_LOAD_GAIN = 4, K_LOAD_SPAN = 5 }; /* their places in k_keys */

static int key_ok(const char *key, double v)
{
    if (strcmp(key, "span") == 0 || strcmp(key, "load_span") == 0)
        return v > 0 && v < 1e6;
    if (strcmp(key, "gain") == 0 || strcmp(key, "load_gain") == 0)
        return v >= 0 && v <= 4;
    return v == 0 || v == 1;
}

/* the field of a number key (NULL for the switches fit= and on=) */
static const double *key_value_of(const pg_schedule *s, const char *key)
{
    return strcmp(key, "span") == 0        ? &s->wn_span
           : strcmp(key, "gain") == 0      ? &s->wn_gain
           : strcmp(key, "load_gain") == 0 ? &s->wn_load_gain
           : strcmp(key, "load_span") == 0 ? &s->wn_load_span
                                           : NULL;
}

static void set_key(pg_schedule *s, const char *key, double v)
{
    if (strcmp(key, "fit") == 0)
        s->wn_fit = (int)v;
    else if (strcmp(key, "on") == 0)
        s->wn_on = (int)v;
    else
        *(double *)key_value_of(s, key) = v;
}

static double get_key(const pg_schedule *s, const char *key)
{
    if (strcmp(key, "load_span") == 0 && !(s->wn_load_span > 0))
        return s->wn_span; /* unset: the line's span (a relative override starts there) */
    const double *v = key_value_of(s, key);
    return v ? *v : strcmp(key, "fit") == 0 ? s->wn_fit : s->wn_on;
}

/* the line's keys for the shared override (sched_latline.c); it names no
 * latencies */
static sch_latline line_of(void)
{
    return (sch_latline){"storewin", k_keys, "span=, gain=, fit=, on=, load_gain= or load_span=",
                         WN_RANGE, key_ok, set_key, get_key, NULL, NULL, 0};
}

int sch_storewin_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line)
{
    (void)text;
    if (s->wn_line)
        return pg_fail("%s:%d: only one `storewin` line (first at line %d)", s->origin, line, s->wn_line);
    s->wn_line = line;
    s->wn_on = 1;
    int seen[6] = {0}, after = 0;
    for (int i = 2; i < ntok; i++) {
        if (strncmp(tok[i], "after=", 6) == 0) {
            if (strlen(tok[i] + 6) >= SCH_NAME)
                return WNFAIL("storewin: name too long");
            snprintf(s->wn_spec[1], SCH_NAME, "%s", tok[i] + 6);
            after = 1;
            continue;
        }
        const int k = sch_latline_key(k_keys, tok[i]);
        if (k < 0)
            return WNFAIL("storewin: '%s': expected after=, span=, gain=, fit=, on=, load_gain= or load_span=", tok[i]);
        double v = NAN; /* a number or an expression of the options (on=1-$x, M159) */
        if (expr_eval(strchr(tok[i], '=') + 1, 0, &v) || !key_ok(k_keys[k], v))
            return WNFAIL("storewin: %s is not a number or an expression of the options, or out of range %s", tok[i],
                          WN_RANGE);
        set_key(s, k_keys[k], v);
        seen[k] = 1;
    }
    if (ntok < 2 || strchr(tok[1], '=') || !after || !seen[0] || !seen[1])
        return WNFAIL(WN_USAGE);
    if (seen[K_LOAD_SPAN] && !seen[K_LOAD_GAIN])
        return WNFAIL("storewin: load_span= without load_gain= does nothing (the window on each load, M174)");
    if (strlen(tok[1]) >= SCH_NAME)
        return WNFAIL("storewin: name too long");
    snprintf(s->wn_spec[0], SCH_NAME, "%s", tok[1]);
    return 0;
}

int sch_storewin_resolve(pg_schedule *s)
{
    int r, st, ra, sa;
    if (!s->wn_line)
        return 0;
    if (s->kb_node < 0)
        return WNFAIL("storewin needs a `kblocks` line (it lengthens the loop)");
    if (sch_find_work(s, s->wn_spec[0], &r, &st) || sch_node_of(s, r, 0, st) != s->kb_node)
        return WNFAIL("storewin: '%s' is not the kblocks loop's phase", s->wn_spec[0]);
    if (sch_find_work(s, s->wn_spec[1], &ra, &sa) || ra != r)
        return WNFAIL("storewin: after=%s is not a work step of role %s", s->wn_spec[1], s->roles[r].name);
    s->wn_after_node = sch_node_of(s, ra, 0, sa);
    return 0;
}

int sch_storewin_override(pg_schedule *s, const char *stat, int relative, double value, const char *param)
{
    const sch_latline d = line_of();
    return sch_latline_override(s, &d, s->wn_line != 0, stat, relative, value, param);
}

/* Written as the schedule has it, span= and gain= with their values now (the
 * fitted gain); the switches as written (an option's `$name` stays);
 * load_gain= as written unless an override set it (h100-pingpong's follows
 * rowfirst_prefetch, which a later fit may read otherwise); the load
 * window's keys an override set where the line had none, before any
 * trailing comment. */
int sch_storewin_write(FILE *f, const pg_schedule *s, char *text)
{
    if (!s->wn_line)
        return 0;
    char *comment = sch_cut_comment(text);
    const unsigned written = sch_latline_write(f, text, "storewin", k_keys, key_value_of, get_key, s);
    for (int k = K_LOAD_GAIN; k <= K_LOAD_SPAN; k++)
        if (!(written & 1u << k) && *key_value_of(s, k_keys[k]) > 0)
            fprintf(f, " %s=%.9g", k_keys[k], *key_value_of(s, k_keys[k]));
    sch_end_line(f, comment);
    return 1;
}
