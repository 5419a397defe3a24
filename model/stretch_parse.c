/* The `stretch` line's schedule side: parse, resolve (the latency and the
 * `by` step), `stretch.KEY` overrides, write-back with the fitted overlap.
 * What the line does is in stretch.c; its fit in store_lines_fit.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pg_error.h"
#include "sched.h"

#define STFAIL(...) (pg_fail(__VA_ARGS__), pg_fail_context("%s:%d", s->origin, s->st_line))
#define ST_USAGE "usage: stretch LATENCY by=STEP slowdown=C [overlap=OV] [tile=previous|next] [fit=overlap|slowdown] [on=0|1]"
#define ST_KEYS "expected by=, slowdown=, overlap=, tile=, fit= or on="
#define ST_RANGE "(0 <= slowdown <= 4, overlap >= 0 cycles, on 0|1)"

/* the field of a number key, NULL for `on` or an unknown key */
static double *key_field(pg_schedule *s, const char *key)
{
    return strcmp(key, "slowdown") == 0 ? &s->st_slowdown : strcmp(key, "overlap") == 0 ? &s->st_overlap : NULL;
}

static int key_ok(const char *key, double v)
{
    if (strcmp(key, "on") == 0)
        return v == 0 || v == 1;
    if (strcmp(key, "slowdown") == 0)
        return v >= 0 && v <= 4;
    return v >= 0 && v < 1e12;
}

static int set_key(pg_schedule *s, const char *key, double v)
{
    double *f = key_field(s, key);
    if (!f && strcmp(key, "on") != 0)
        return -1;
    if (!key_ok(key, v))
        return -2;
    if (f)
        *f = v;
    else
        s->st_on = (int)v;
    return 0;
}

int sch_stretch_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line)
{
    (void)text;
    if (s->st_line)
        return pg_fail("%s:%d: only one `stretch` line (first at line %d)", s->origin, line, s->st_line);
    s->st_line = line;
    s->st_on = 1;
    s->st_overlap = 0;
    s->st_slowdown = NAN;
    s->st_next = s->st_fit_slowdown = 0;
    const char *by = NULL;
    for (int i = 2; i < ntok; i++) {
        const char *eq = strchr(tok[i], '=');
        char key[16];
        if (!eq || (size_t)(eq - tok[i]) >= sizeof key)
            return STFAIL("stretch: '%s': " ST_KEYS, tok[i]);
        snprintf(key, sizeof key, "%.*s", (int)(eq - tok[i]), tok[i]);
        if (strcmp(key, "by") == 0) {
            by = eq + 1;
            continue;
        }
        if (strcmp(key, "tile") == 0 || strcmp(key, "fit") == 0) {
            const int is_tile = key[0] == 't';
            const char *a = is_tile ? "previous" : "overlap", *b = is_tile ? "next" : "slowdown";
            if (strcmp(eq + 1, a) != 0 && strcmp(eq + 1, b) != 0)
                return STFAIL("stretch: %s must be %s or %s", tok[i], a, b);
            *(is_tile ? &s->st_next : &s->st_fit_slowdown) = strcmp(eq + 1, b) == 0;
            continue;
        }
        char *end = NULL;
        const double v = strtod(eq + 1, &end);
        const int rc = end == eq + 1 || *end ? -2 : set_key(s, key, v);
        if (rc == -1)
            return STFAIL("stretch: '%s': " ST_KEYS, tok[i]);
        if (rc)
            return STFAIL("stretch: %s is out of range " ST_RANGE, tok[i]);
    }
    if (ntok < 2 || strchr(tok[1], '=') || !by || isnan(s->st_slowdown))
        return STFAIL(ST_USAGE);
    if (strlen(tok[1]) >= SCH_NAME || strlen(by) >= SCH_NAME)
        return STFAIL("stretch: name too long");
    snprintf(s->st_spec[0], SCH_NAME, "%s", tok[1]);
    snprintf(s->st_spec[1], SCH_NAME, "%s", by);
    return 0;
}

/* tile=next: the one delay step whose edge adds the latency (its only use),
 * read by nothing before the tile after next, so that settling it once
 * the next tile's `by` step has run changes nothing already computed */
static int next_node(pg_schedule *s)
{
    int uses = 0;
    s->st_node = -1;
    for (int i = 0; i < s->nedges; i++)
        for (int q = 0; q < s->edges[i].nterms; q++)
            if (s->slots[s->edges[i].slot[q]].dist == s->st_dist) {
                const sch_node *n = &s->nodes[s->edges[i].to];
                uses++;
                if (s->edges[i].kind == EDGE_SEQ && s->edges[i].toff[q] == 0 &&
                    s->roles[n->role].steps[n->step].kind == STEP_DELAY)
                    s->st_node = s->edges[i].to;
            }
    if (uses != 1 || s->st_node < 0)
        return STFAIL("stretch: tile=next needs '%s' on one `delay` step only", s->st_spec[0]);
    for (int i = 0; i < s->nedges; i++)
        if (s->edges[i].from == s->st_node && s->edges[i].off < 2)
            return STFAIL("stretch: tile=next: the step after '%s' must be in a later tile than the next "
                          "(a role of two or more instances in turn)", s->st_spec[0]);
    for (int v = 0; v < s->nnodes; v++)
        if (s->nodes[v].prev == s->st_node && s->nodes[v].prev_off < 2)
            return STFAIL("stretch: tile=next: the step after '%s' must be in a later tile than the next "
                          "(a role of two or more instances in turn)", s->st_spec[0]);
    return 0;
}

int sch_stretch_resolve(pg_schedule *s)
{
    int r, st;
    if (!s->st_line)
        return 0;
    s->st_dist = sch_find_dist(s, s->st_spec[0]);
    if (s->st_dist < 0 || s->dists[s->st_dist].kind == DKIND_PHASE)
        return STFAIL("stretch: '%s' is not a `latency` or `memory` line of this schedule", s->st_spec[0]);
    if (sch_find_work(s, s->st_spec[1], &r, &st))
        return STFAIL("stretch: by=%s is not a work step of this schedule", s->st_spec[1]);
    s->st_by_node = sch_node_of(s, r, 0, st);
    return s->st_next ? next_node(s) : 0;
}

int sch_stretch_override(pg_schedule *s, const char *stat, int relative, double value, const char *param)
{
    if (!s->st_line)
        return pg_fail("'%s': this schedule has no stretch line", param);
    const double *f = key_field(s, stat);
    const double cur = f ? *f : s->st_on;
    const int rc = set_key(s, stat, relative ? cur + value : value);
    if (rc == -1)
        return pg_fail("'%s': stretch takes slowdown, overlap, on", param);
    if (rc)
        return pg_fail("'%s' is out of range " ST_RANGE, param);
    return 0;
}

/* the line with its slowdown and (fitted) overlap as they are now; `on=`
 * as written (an `on=$option` keeps its option) */
int sch_stretch_write(FILE *f, const pg_schedule *s, char *text)
{
    if (!s->st_line)
        return 0;
    const char *on = strstr(text, " on=");
    char onv[SCH_NAME] = "";
    if (on)
        sscanf(on + 4, "%47s", onv);
    fprintf(f, "stretch %s by=%s slowdown=%.9g overlap=%.9g%s%s%s%s\n", s->st_spec[0], s->st_spec[1], s->st_slowdown,
            s->st_overlap, s->st_next ? " tile=next" : "", s->st_fit_slowdown ? " fit=slowdown" : "", on ? " on=" : "",
            onv);
    return 1;
}
