/* The `contend` line's schedule side: parse, resolve it against the built
 * graph and mark the nodes the engine evaluates a tile late, `contend.KEY`
 * overrides, write-back.  What the line does is in contend.c; its fit in
 * contend_fit.c. */
#include <stdio.h>
#include <string.h>

#include "pg_error.h"
#include "sched.h"

#define CFAIL_AT(line, ...) (pg_fail(__VA_ARGS__), pg_fail_context("%s:%d", s->origin, (line)))
#define CFAIL(...) CFAIL_AT(s->ct_line, __VA_ARGS__)

int sch_contend_resolve(pg_schedule *s)
{
    int r, st, rb, sb;
    if (!s->ct_line)
        return 0;
    if (sch_find_work(s, s->ct_spec[0], &r, &st))
        return CFAIL("contend: '%s' is not a work step of any role", s->ct_spec[0]);
    if (sch_find_work(s, s->ct_spec[1], &rb, &sb))
        return CFAIL("contend: by=%s is not a work step of any role", s->ct_spec[1]);
    const sch_role *R = &s->roles[r];
    if (!R->rotate || R->instances < 2)
        return CFAIL("contend: role %s must take tiles in turn (mode=rotate, instances >= 2): the contention is "
                     "between its instances",
                     R->name);
    if (rb != r || sb == st)
        return CFAIL("contend: by=%s must be another work step of role %s", s->ct_spec[1], R->name);
    if (strstr(R->steps[st].spec, "until"))
        return CFAIL("contend: step %s has an `until` clause; only plain work can be slowed", s->ct_spec[0]);
    if (!(s->ct_slowdown >= 0 && s->ct_slowdown < 1))
        return CFAIL("contend: slowdown must be in [0, 1) cycles of work per cycle of overlap (got %g)",
                     s->ct_slowdown);
    if (!(s->ct_overlap >= 0))
        return CFAIL("contend: overlap must be >= 0 cycles (got %g)", s->ct_overlap);
    if (!(s->ct_window >= 1))
        return CFAIL("contend: window must be >= 1 tile (got %g)", s->ct_window);
    s->ct_node = sch_node_of(s, r, 0, st);
    s->ct_by_node = sch_node_of(s, r, 0, sb);
    s->ct_slot = -1;
    for (int i = 0; i < s->nslots; i++)
        if (s->slots[i].dist == R->steps[st].dist && s->slots[i].instance == 0)
            s->ct_slot = i;
    if (s->ct_slot < 0)
        return CFAIL("contend: step %s has no sampled phase", s->ct_spec[0]);

    /* the late set: the step and everything after it in the same tile */
    memset(s->ct_late, 0, sizeof s->ct_late);
    s->ct_late[s->ct_node] = 1;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < s->nedges; i++) {
            const sch_edge *e = &s->edges[i];
            const int src_late = (e->off == 0 && s->ct_late[e->from]) ||
                                 (e->at_node >= 0 && e->at_off == 0 && s->ct_late[e->at_node]);
            if (src_late && !s->ct_late[e->to])
                s->ct_late[e->to] = changed = 1;
        }
    }
    if (s->ct_late[s->ct_by_node] || s->ct_late[s->nodes[s->ct_by_node].prev])
        return CFAIL("contend: by=%s follows %s in the tile; it must run beside it", s->ct_spec[1], s->ct_spec[0]);
    /* the next tile is evaluated (all but its late steps) before this tile's
     * late steps: none of it may read them */
    for (int i = 0; i < s->nedges; i++) {
        const sch_edge *e = &s->edges[i];
        if (s->ct_late[e->to])
            continue;
        const int v = (e->off == 1 && s->ct_late[e->from]) ? e->from
                      : (e->at_node >= 0 && e->at_off == 1 && s->ct_late[e->at_node]) ? e->at_node
                                                                                        : -1;
        if (v >= 0) {
            const sch_node *n = &s->nodes[v], *t = &s->nodes[e->to];
            return CFAIL("contend: %s.%s of the next tile waits on %s.%s, which the contention on %s moves; the "
                         "model cannot evaluate that",
                         s->roles[t->role].name, s->roles[t->role].steps[t->step].name, s->roles[n->role].name,
                         s->roles[n->role].steps[n->step].name, s->ct_spec[0]);
        }
    }
    return 0;
}

int sch_contend_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line)
{
    static const char *const keys[] = {"by", "slowdown", "overlap", "window", NULL};
    (void)text;
    if (s->ct_line)
        return CFAIL_AT(line, "only one `contend` line (first at line %d)", s->ct_line);
    if (ntok < 4 || strchr(tok[1], '=') || sch_kv_check(s, tok, ntok, 2, keys, line))
        return ntok < 4 || strchr(tok[1], '=')
                   ? CFAIL_AT(line, "usage: contend PHASE by=PHASE slowdown=C [overlap=CYCLES] [window=TILES]")
                   : -1;
    const char *by = sch_kv(tok, ntok, 2, "by");
    s->ct_overlap = 0;
    s->ct_window = 16;
    if (!by || !by[0] || sch_kv_num(s, tok, ntok, 2, "slowdown", &s->ct_slowdown, line) != 1 ||
        sch_kv_num(s, tok, ntok, 2, "overlap", &s->ct_overlap, line) < 0 ||
        sch_kv_num(s, tok, ntok, 2, "window", &s->ct_window, line) < 0)
        return CFAIL_AT(line, "contend needs by=PHASE and slowdown=C");
    if (strlen(tok[1]) >= SCH_NAME || strlen(by) >= SCH_NAME)
        return CFAIL_AT(line, "contend: phase name too long");
    snprintf(s->ct_spec[0], sizeof s->ct_spec[0], "%s", tok[1]);
    snprintf(s->ct_spec[1], sizeof s->ct_spec[1], "%s", by);
    s->ct_line = line;
    return 0;
}

int sch_contend_override(pg_schedule *s, const char *stat, int relative, double value, const char *param)
{
    double *f = strcmp(stat, "slowdown") == 0  ? &s->ct_slowdown
                : strcmp(stat, "overlap") == 0 ? &s->ct_overlap
                : strcmp(stat, "window") == 0  ? &s->ct_window
                                               : NULL;
    if (!f || s->ct_node < 0)
        return pg_fail("'%s': %s", param,
                       s->ct_node < 0 ? "this schedule has no contend line" : "contend takes slowdown, overlap, window");
    double v = relative ? *f + value : value;
    if (f == &s->ct_slowdown ? !(v >= 0 && v < 1) : f == &s->ct_window ? !(v >= 1) : !(v >= 0))
        return pg_fail("'%s': %g is out of range (slowdown in [0, 1), overlap >= 0, window >= 1)", param, v);
    *f = v;
    return 0;
}

int sch_contend_write(FILE *f, const pg_schedule *s, char *text)
{
    (void)text;
    if (s->ct_node < 0)
        return 0;
    fprintf(f, "contend %s by=%s slowdown=%.9g overlap=%.9g window=%.9g\n", s->ct_spec[0], s->ct_spec[1],
            s->ct_slowdown, s->ct_overlap, s->ct_window);
    return 1;
}
