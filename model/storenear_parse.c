/* The `storenear` line's schedule side: parse, resolve (the latency and
 * the store step), `storenear.KEY` overrides, write-back with the fitted
 * calibration point.  What the line does is in storenear.c; its fit in
 * store_lines_fit.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pg_error.h"
#include "sched.h"

#define SNFAIL(...) (pg_fail(__VA_ARGS__), pg_fail_context("%s:%d", s->origin, s->sn_line))
#define SN_USAGE "usage: storenear LATENCY store=STEP gain=G far=F near=N [after=A] [fall=E] [back=B] [window=W] [cal=P] [own=0|1] [on=0|1]"
#define SN_RANGE "(0 <= gain <= 4, far < near < fall, 0 <= after <= 1, back 1..8 tiles, window >= 1 tile, own and on 0|1)"

/* the field of a number key, NULL for `on`, `own`, `back` or an unknown key */
static double *key_field(pg_schedule *s, const char *key)
{
    return strcmp(key, "gain") == 0     ? &s->sn_gain
           : strcmp(key, "far") == 0    ? &s->sn_far
           : strcmp(key, "near") == 0   ? &s->sn_near
           : strcmp(key, "window") == 0 ? &s->sn_window
           : strcmp(key, "cal") == 0    ? &s->sn_cal
           : strcmp(key, "after") == 0  ? &s->sn_after
           : strcmp(key, "fall") == 0   ? &s->sn_fall
                                        : NULL;
}

static int key_ok(const char *key, double v)
{
    if (strcmp(key, "on") == 0 || strcmp(key, "own") == 0)
        return v == 0 || v == 1;
    if (strcmp(key, "back") == 0)
        return v >= 1 && v <= 8 && v == floor(v);
    if (strcmp(key, "gain") == 0)
        return v >= 0 && v <= 4;
    if (strcmp(key, "window") == 0)
        return v >= 1 && v <= 1e6;
    if (strcmp(key, "after") == 0)
        return v >= 0 && v <= 1;
    return isfinite(v) && fabs(v) < 1e9;
}

static int set_key(pg_schedule *s, const char *key, double v)
{
    double *f = key_field(s, key);
    const int is_on = strcmp(key, "on") == 0, is_own = strcmp(key, "own") == 0, is_back = strcmp(key, "back") == 0;
    if (!f && !is_on && !is_own && !is_back)
        return -1;
    if (!key_ok(key, v))
        return -2;
    if (f)
        *f = v;
    else if (is_on)
        s->sn_on = (int)v;
    else if (is_own)
        s->sn_own = (int)v;
    else
        s->sn_back = (int)v;
    return 0;
}

int sch_storenear_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line)
{
    (void)text;
    if (s->sn_line)
        return pg_fail("%s:%d: only one `storenear` line (first at line %d)", s->origin, line, s->sn_line);
    s->sn_line = line;
    s->sn_on = 1;
    s->sn_own = 0;
    s->sn_back = 2;
    s->sn_window = 16;
    s->sn_gain = s->sn_far = s->sn_near = s->sn_cal = s->sn_fall = NAN;
    s->sn_after = 1; /* no falling side: the ramp stays at 1 past near */
    const char *store = NULL;
    for (int i = 2; i < ntok; i++) {
        const char *eq = strchr(tok[i], '=');
        char key[16];
        if (!eq || (size_t)(eq - tok[i]) >= sizeof key)
            return SNFAIL("storenear: '%s': expected store=, gain=, far=, near=, after=, fall=, back=, window=, cal=, own= or on=", tok[i]);
        snprintf(key, sizeof key, "%.*s", (int)(eq - tok[i]), tok[i]);
        if (strcmp(key, "store") == 0) {
            store = eq + 1;
            continue;
        }
        char *end = NULL;
        const double v = strtod(eq + 1, &end);
        const int rc = end == eq + 1 || *end ? -2 : set_key(s, key, v);
        if (rc == -1)
            return SNFAIL("storenear: '%s': expected store=, gain=, far=, near=, after=, fall=, back=, window=, cal=, own= or on=", tok[i]);
        if (rc)
            return SNFAIL("storenear: %s is out of range " SN_RANGE, tok[i]);
    }
    if (ntok < 2 || strchr(tok[1], '=') || !store || isnan(s->sn_gain) || isnan(s->sn_far) || isnan(s->sn_near))
        return SNFAIL(SN_USAGE);
    if (!(s->sn_far < s->sn_near))
        return SNFAIL("storenear: far=%g must be below near=%g", s->sn_far, s->sn_near);
    if (isnan(s->sn_fall))
        s->sn_fall = s->sn_near + (s->sn_near - s->sn_far); /* as wide as the rise */
    if (!(s->sn_near < s->sn_fall))
        return SNFAIL("storenear: fall=%g must be above near=%g", s->sn_fall, s->sn_near);
    if (strlen(tok[1]) >= SCH_NAME || strlen(store) >= SCH_NAME)
        return SNFAIL("storenear: name too long");
    if (isnan(s->sn_cal))
        s->sn_cal = s->sn_far; /* no calibration point yet: the ramp's foot */
    snprintf(s->sn_spec[0], SCH_NAME, "%s", tok[1]);
    snprintf(s->sn_spec[1], SCH_NAME, "%s", store);
    return 0;
}

int sch_storenear_resolve(pg_schedule *s)
{
    int r, st;
    if (!s->sn_line)
        return 0;
    s->sn_dist = sch_find_dist(s, s->sn_spec[0]);
    if (s->sn_dist < 0 || s->dists[s->sn_dist].kind == DKIND_PHASE)
        return SNFAIL("storenear: '%s' is not a `latency` or `memory` line of this schedule", s->sn_spec[0]);
    if (sch_find_work(s, s->sn_spec[1], &r, &st))
        return SNFAIL("storenear: store=%s is not a work step of this schedule", s->sn_spec[1]);
    s->sn_store_node = sch_node_of(s, r, 0, st);
    if (s->sn_back > s->maxoff)
        s->maxoff = s->sn_back; /* the engine keeps that many tiles back */
    return 0;
}

int sch_storenear_override(pg_schedule *s, const char *stat, int relative, double value, const char *param)
{
    if (!s->sn_line)
        return pg_fail("'%s': this schedule has no storenear line", param);
    const double *f = key_field(s, stat);
    const double cur = f                           ? *f
                       : strcmp(stat, "on") == 0  ? s->sn_on
                       : strcmp(stat, "own") == 0 ? s->sn_own
                                                  : s->sn_back;
    const int rc = set_key(s, stat, relative ? cur + value : value);
    if (rc == -1)
        return pg_fail("'%s': storenear takes gain, far, near, after, fall, back, window, cal, own, on", param);
    if (rc)
        return pg_fail("'%s' is out of range " SN_RANGE, param);
    const double far = s->sn_far, near = s->sn_near, fall = s->sn_fall;
    if (!(far < near) || !(near < fall)) {
        set_key(s, stat, cur); /* refused: the line stays as it was */
        return far < near ? pg_fail("'%s': fall=%g must be above near=%g", param, fall, near)
                          : pg_fail("'%s': far=%g must be below near=%g", param, far, near);
    }
    if (s->sn_back > s->maxoff)
        s->maxoff = s->sn_back; /* the engine keeps that many tiles back */
    return 0;
}

/* the line with its numbers as they are now (cal: fitted); `on=` as
 * written (an `on=$option` keeps its option) */
int sch_storenear_write(FILE *f, const pg_schedule *s, char *text)
{
    if (!s->sn_line)
        return 0;
    const char *on = strstr(text, " on=");
    char onv[SCH_NAME] = "";
    if (on)
        sscanf(on + 4, "%47s", onv);
    fprintf(f, "storenear %s store=%s back=%d gain=%.9g far=%.9g near=%.9g", s->sn_spec[0], s->sn_spec[1],
            s->sn_back, s->sn_gain, s->sn_far, s->sn_near);
    if (s->sn_after < 1) /* a flat ramp past near has no falling side to write */
        fprintf(f, " after=%.9g fall=%.9g", s->sn_after, s->sn_fall);
    fprintf(f, " window=%.9g cal=%.9g%s%s%s\n", s->sn_window, s->sn_cal, s->sn_own ? " own=1" : "", on ? " on=" : "",
            onv);
    return 1;
}
