/* The `inflight` line's schedule side: parse, resolve (the latency, the
 * `kblocks` loop), `inflight.KEY` overrides, write-back with the fitted
 * calibration count.  What the line does is in inflight.c; its fit in
 * store_lines_fit.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pg_error.h"
#include "sched.h"

#define IFFAIL(...) (pg_fail(__VA_ARGS__), pg_fail_context("%s:%d", s->origin, s->if_line))
#define IF_USAGE "usage: inflight LATENCY share=F stages=S [cal=N] [on=0|1]"
#define IF_KEYS "share, stages, cal, on"
#define IF_RANGE "(0 <= share <= 1, stages a whole 1..64, cal >= 1, on 0|1)"

/* 0: set; -1: an unknown key; -2: out of range */
static int set_key(pg_schedule *s, const char *key, double v)
{
    if (strcmp(key, "share") == 0)
        return v >= 0 && v <= 1 ? (s->if_share = v, 0) : -2;
    if (strcmp(key, "stages") == 0)
        return v >= 1 && v <= 64 && v == floor(v) ? (s->if_stages = (int)v, 0) : -2;
    if (strcmp(key, "cal") == 0)
        return v >= 1 && v < 1e6 ? (s->if_cal = v, 0) : -2;
    if (strcmp(key, "on") == 0)
        return v == 0 || v == 1 ? (s->if_on = (int)v, 0) : -2;
    return -1;
}

int sch_inflight_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line)
{
    (void)text;
    if (s->if_line)
        return pg_fail("%s:%d: only one `inflight` line (first at line %d)", s->origin, line, s->if_line);
    s->if_line = line;
    s->if_on = 1;
    s->if_cal = 1;
    s->if_share = NAN;
    s->if_stages = 0;
    for (int i = 2; i < ntok; i++) {
        const char *eq = strchr(tok[i], '=');
        char key[16], *end = NULL;
        if (!eq || (size_t)(eq - tok[i]) >= sizeof key)
            return IFFAIL("inflight: '%s': expected share=, stages=, cal= or on=", tok[i]);
        snprintf(key, sizeof key, "%.*s", (int)(eq - tok[i]), tok[i]);
        const double v = strtod(eq + 1, &end);
        const int rc = end == eq + 1 || *end ? -2 : set_key(s, key, v);
        if (rc == -1)
            return IFFAIL("inflight: '%s': expected share=, stages=, cal= or on=", tok[i]);
        if (rc)
            return IFFAIL("inflight: %s is out of range " IF_RANGE, tok[i]);
    }
    if (ntok < 2 || strchr(tok[1], '=') || isnan(s->if_share) || !s->if_stages)
        return IFFAIL(IF_USAGE);
    if (strlen(tok[1]) >= SCH_NAME)
        return IFFAIL("inflight: name too long");
    snprintf(s->if_spec, SCH_NAME, "%s", tok[1]);
    return 0;
}

int sch_inflight_resolve(pg_schedule *s)
{
    if (!s->if_line)
        return 0;
    if (s->kb_node < 0)
        return IFFAIL("inflight needs a `kblocks` line (it counts that loop's loads in flight)");
    s->if_dist = sch_find_dist(s, s->if_spec);
    if (s->if_dist < 0 || s->dists[s->if_dist].kind == DKIND_PHASE)
        return IFFAIL("inflight: '%s' is not a `latency` or `memory` line of this schedule", s->if_spec);
    if (s->maxoff < 2)
        s->maxoff = 2; /* the engine keeps the two loops back it counts */
    return 0;
}

int sch_inflight_override(pg_schedule *s, const char *stat, int relative, double value, const char *param)
{
    if (!s->if_line)
        return pg_fail("'%s': this schedule has no inflight line", param);
    const double cur = strcmp(stat, "share") == 0    ? s->if_share
                       : strcmp(stat, "stages") == 0 ? s->if_stages
                       : strcmp(stat, "cal") == 0    ? s->if_cal
                                                     : s->if_on;
    const int rc = set_key(s, stat, relative ? cur + value : value);
    if (rc == -1)
        return pg_fail("'%s': inflight takes " IF_KEYS, param);
    return rc ? pg_fail("'%s' is out of range " IF_RANGE, param) : 0;
}

/* the line with its numbers as they are now (cal: fitted); `on=` as
 * written (an `on=$option` keeps its option) */
int sch_inflight_write(FILE *f, const pg_schedule *s, char *text)
{
    if (!s->if_line)
        return 0;
    const char *on = strstr(text, " on=");
    char onv[SCH_NAME] = "";
    if (on)
        sscanf(on + 4, "%47s", onv);
    fprintf(f, "inflight %s share=%.9g stages=%d cal=%.9g%s%s\n", s->if_spec, s->if_share, s->if_stages, s->if_cal,
            on ? " on=" : "", onv);
    return 1;
}
