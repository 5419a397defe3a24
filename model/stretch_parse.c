/* The `stretch` lines' schedule side: parse, resolve (the latency and the
 * `by` step), `stretch.KEY` overrides (the first line; `stretch.LATENCY.KEY`
 * the line on LATENCY), write-back with the fitted overlap and slowdown.
 * What a line does is in stretch.c; its fit in store_lines_fit.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pg_error.h"
#include "sched.h"

#define STFAIL(L, ...) (pg_fail(__VA_ARGS__), pg_fail_context("%s:%d", s->origin, (L)->line))
#define ST_USAGE                                                                                                     \
    "usage: stretch LATENCY by=STEP slowdown=C [overlap=OV] [base=B] [tile=previous|next] [fit=overlap|slowdown] "  \
    "[on=0|1]"
#define ST_KEYS "expected by=, slowdown=, overlap=, base=, tile=, fit= or on="
#define ST_RANGE "(0 <= slowdown <= 4, overlap and base >= 0 cycles, on 0|1)"

/* the field of a number key, NULL for `on` or an unknown key */
static double *key_field(sch_stretch *L, const char *key)
{
    if (strcmp(key, "base") == 0)
        return &L->base;
    return strcmp(key, "slowdown") == 0 ? &L->slowdown : strcmp(key, "overlap") == 0 ? &L->overlap : NULL;
}

static int key_ok(const char *key, double v)
{
    if (strcmp(key, "on") == 0)
        return v == 0 || v == 1;
    if (strcmp(key, "slowdown") == 0)
        return v >= 0 && v <= 4;
    return v >= 0 && v < 1e12;
}

static int set_key(sch_stretch *L, const char *key, double v)
{
    double *f = key_field(L, key);
    if (!f && strcmp(key, "on") != 0)
        return -1;
    if (!key_ok(key, v))
        return -2;
    if (f)
        *f = v;
    else
        L->on = (int)v;
    return 0;
}

/* tile= and fit=: one of two words each; 0 set, -1 a bad word, 1 another key */
static int word_key(pg_schedule *s, sch_stretch *L, const char *key, const char *val, const char *tok)
{
    const int is_tile = strcmp(key, "tile") == 0;
    if (!is_tile && strcmp(key, "fit") != 0)
        return 1;
    const char *a = is_tile ? "previous" : "overlap", *b = is_tile ? "next" : "slowdown";
    if (strcmp(val, a) != 0 && strcmp(val, b) != 0)
        return STFAIL(L, "stretch: %s must be %s or %s", tok, a, b);
    *(is_tile ? &L->next : &L->fit_slowdown) = strcmp(val, b) == 0;
    return 0;
}

int sch_stretch_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line)
{
    (void)text;
    if (s->nst == SCH_ST_MAX)
        return pg_fail("%s:%d: at most %d `stretch` lines", s->origin, line, SCH_ST_MAX);
    sch_stretch *L = &s->st[s->nst];
    memset(L, 0, sizeof *L);
    L->line = line;
    L->on = 1;
    L->slowdown = NAN;
    L->base = NAN;
    const char *by = NULL;
    for (int i = 2; i < ntok; i++) {
        const char *eq = strchr(tok[i], '=');
        char key[16];
        if (!eq || (size_t)(eq - tok[i]) >= sizeof key)
            return STFAIL(L, "stretch: '%s': " ST_KEYS, tok[i]);
        snprintf(key, sizeof key, "%.*s", (int)(eq - tok[i]), tok[i]);
        if (strcmp(key, "by") == 0) {
            by = eq + 1;
            continue;
        }
        const int w = word_key(s, L, key, eq + 1, tok[i]);
        if (w == 0)
            continue;
        if (w < 0)
            return w;
        char *end = NULL;
        const double v = strtod(eq + 1, &end);
        const int rc = end == eq + 1 || *end ? -2 : set_key(L, key, v);
        if (rc == -1)
            return STFAIL(L, "stretch: '%s': " ST_KEYS, tok[i]);
        if (rc)
            return STFAIL(L, "stretch: %s is out of range " ST_RANGE, tok[i]);
    }
    if (ntok < 2 || strchr(tok[1], '=') || !by || isnan(L->slowdown))
        return STFAIL(L, ST_USAGE);
    if (strlen(tok[1]) >= SCH_NAME || strlen(by) >= SCH_NAME)
        return STFAIL(L, "stretch: name too long");
    for (int i = 0; i < s->nst; i++)
        if (strcmp(s->st[i].spec[0], tok[1]) == 0)
            return STFAIL(L, "stretch: '%s' has a stretch line already (line %d)", tok[1], s->st[i].line);
    snprintf(L->spec[0], SCH_NAME, "%s", tok[1]);
    snprintf(L->spec[1], SCH_NAME, "%s", by);
    s->nst++;
    return 0;
}

/* tile=next: the one delay step whose edge adds the latency (its only use),
 * read by nothing before the tile after next, so that settling it once
 * the next tile's `by` step has run changes nothing already computed */
static int next_node(pg_schedule *s, sch_stretch *L)
{
    int uses = 0;
    L->node = -1;
    for (int i = 0; i < s->nedges; i++)
        for (int q = 0; q < s->edges[i].nterms; q++)
            if (s->slots[s->edges[i].slot[q]].dist == L->dist) {
                const sch_node *n = &s->nodes[s->edges[i].to];
                uses++;
                if (s->edges[i].kind == EDGE_SEQ && s->edges[i].toff[q] == 0 &&
                    s->roles[n->role].steps[n->step].kind == STEP_DELAY)
                    L->node = s->edges[i].to;
            }
    if (uses != 1 || L->node < 0)
        return STFAIL(L, "stretch: tile=next needs '%s' on one `delay` step only", L->spec[0]);
    int late = 1;
    for (int i = 0; i < s->nedges; i++)
        late &= !(s->edges[i].from == L->node && s->edges[i].off < 2);
    for (int v = 0; v < s->nnodes; v++)
        late &= !(s->nodes[v].prev == L->node && s->nodes[v].prev_off < 2);
    if (!late)
        return STFAIL(L, "stretch: tile=next: the step after '%s' must be in a later tile than the next "
                         "(a role of two or more instances in turn)", L->spec[0]);
    return 0;
}

/* base=B (M137): a zero point the zero-delay calibration cannot measure
 * (bres's store drain binds on a few percent of its tiles there, M133): the
 * latency keeps its fitted spread but is centred on B, where nothing
 * overlaps it, and the line moves it from there (overlap 0).  Applied where
 * the line resolves and where `stretch.base` is set (the fit sets it, so
 * every recompile replays it after the fitted latency); a line that is off
 * leaves the latency as fitted.  Not recorded as an override of its own. */
static int apply_base(pg_schedule *s, sch_stretch *L)
{
    if (!isfinite(L->base) || !L->on)
        return 0;
    sch_override o;
    memset(&o, 0, sizeof o);
    snprintf(o.param, sizeof o.param, "%s.mean", L->spec[0]);
    o.value = L->base;
    if (sch_apply_override(s, &o))
        return -1;
    L->overlap = 0;
    return 0;
}

int sch_stretch_resolve(pg_schedule *s)
{
    for (int l = 0; l < s->nst; l++) {
        sch_stretch *L = &s->st[l];
        int r, st;
        L->dist = sch_find_dist(s, L->spec[0]);
        if (L->dist < 0 || s->dists[L->dist].kind == DKIND_PHASE)
            return STFAIL(L, "stretch: '%s' is not a `latency` or `memory` line of this schedule", L->spec[0]);
        if (sch_find_work(s, L->spec[1], &r, &st))
            return STFAIL(L, "stretch: by=%s is not a work step of this schedule", L->spec[1]);
        L->by_node = sch_node_of(s, r, 0, st);
        if ((L->next && next_node(s, L)) || apply_base(s, L))
            return -1;
    }
    return 0;
}

/* `stretch.KEY`: the first line; `stretch.LATENCY.KEY`: the line on LATENCY */
static sch_stretch *addressed_line(pg_schedule *s, const char *stat, const char **key, const char *param)
{
    const char *dot = strrchr(stat, '.');
    if (s->nst == 0) {
        pg_fail("'%s': this schedule has no stretch line", param);
        return NULL;
    }
    *key = dot ? dot + 1 : stat;
    if (!dot)
        return &s->st[0];
    for (int i = 0; i < s->nst; i++)
        if (strlen(s->st[i].spec[0]) == (size_t)(dot - stat) && strncmp(s->st[i].spec[0], stat, (size_t)(dot - stat)) == 0)
            return &s->st[i];
    pg_fail("'%s': no stretch line on '%.*s'", param, (int)(dot - stat), stat);
    return NULL;
}

int sch_stretch_override(pg_schedule *s, const char *stat, int relative, double value, const char *param)
{
    const char *key = NULL;
    sch_stretch *L = addressed_line(s, stat, &key, param);
    if (!L)
        return -1;
    const double *f = key_field(L, key);
    const double cur = f ? *f : L->on;
    const double base_before = L->base;
    const int rc = set_key(L, key, relative ? cur + value : value);
    if (rc == -1)
        return pg_fail("'%s': stretch takes slowdown, overlap, base, on (stretch.KEY for the first line, "
                       "stretch.LATENCY.KEY for the line on LATENCY)",
                       param);
    if (rc)
        return pg_fail("'%s' is out of range " ST_RANGE, param);
    if (strcmp(key, "base") == 0 && apply_base(s, L)) {
        L->base = base_before;
        return -1;
    }
    return 0;
}

/* the line on the text's latency with its slowdown and (fitted) overlap as
 * they are now; `on=` as written (an `on=$option` keeps its option) */
int sch_stretch_write(FILE *f, const pg_schedule *s, char *text)
{
    char latency[SCH_NAME + 1] = "";
    if (sscanf(text, "%*s %48s", latency) != 1)
        return 0;
    for (int i = 0; i < s->nst; i++) {
        const sch_stretch *L = &s->st[i];
        if (strcmp(L->spec[0], latency) != 0)
            continue;
        const char *on = strstr(text, " on=");
        char onv[SCH_NAME] = "";
        if (on)
            sscanf(on + 4, "%47s", onv);
        char base[40] = "";
        if (isfinite(L->base))
            snprintf(base, sizeof base, " base=%.9g", L->base);
        fprintf(f, "stretch %s by=%s slowdown=%.9g overlap=%.9g%s%s%s%s%s\n", L->spec[0], L->spec[1], L->slowdown,
                L->overlap, base, L->next ? " tile=next" : "", L->fit_slowdown ? " fit=slowdown" : "",
                on ? " on=" : "", onv);
        return 1;
    }
    return 0;
}
