/* storenear own=1 (docs/experiments.md M88): each traced tile's first-load
 * sample was measured with its own store position o (the start of the
 * STEP of the tile `back` places earlier on its SM, less the tile's issue
 * event), so the engine moves a replayed row from that o, not from the
 * trace's mean.  The positions ride in the fit's per-tile table as one more
 * column, "@sn:LATENCY" (NAN where the trace has none; sched_table.c names
 * and finds it), as solve=tile's overlaps do (contend_table_fit.c). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "fit.h"
#include "pg_error.h"
#include "sched.h"

typedef struct {
    int32_t sm;
    double issue; /* the latency's issue event */
    double store; /* the store step's start */
    int64_t tile;
} sn_tile;

static int cmp_issue(const void *a, const void *b)
{
    const sn_tile *x = a, *y = b;
    if (x->sm != y->sm)
        return x->sm < y->sm ? -1 : 1;
    return x->issue < y->issue ? -1 : x->issue > y->issue;
}

/* the edge that adds the line's latency: the step its event lies on (*node),
 * where in it (*frac: 1 for a step's end) and how many tiles back (*off) */
static int issue_event(const pg_schedule *s, int *node, double *frac, int *off)
{
    for (int i = 0; i < s->nedges; i++) {
        const sch_edge *e = &s->edges[i];
        for (int q = 0; q < e->nterms; q++) {
            if (s->slots[e->slot[q]].dist != s->sn_dist)
                continue;
            *node = e->at_node >= 0 ? e->at_node : e->from;
            *frac = e->at_node >= 0 ? e->at_frac : 1;
            *off = e->at_node >= 0 ? e->at_off : e->off;
            return 0;
        }
    }
    return pg_fail("storenear own=1: no edge of schedule %s adds %s", s->name, s->sn_spec[0]);
}

/* the traced issue and store times of every tile (NAN where not traced) */
static int collect(const pg_schedule *s, const pg_trace *t, int node, double frac, sn_tile *v, int64_t ntiles)
{
    const sch_node *in = &s->nodes[node], *sn = &s->nodes[s->sn_store_node];
    const int irole = sch_trace_role(s, t, in->role), srole = sch_trace_role(s, t, sn->role);
    const int iphase = sch_trace_phase(t, s->roles[in->role].steps[in->step].name),
              sphase = sch_trace_phase(t, s->roles[sn->role].steps[sn->step].name);
    if (irole < 0 || srole < 0 || iphase < 0 || sphase < 0)
        return pg_fail("storenear own=1: %s.%s or %s.%s is not a traced role and phase", s->roles[in->role].name,
                       s->roles[in->role].steps[in->step].name, s->roles[sn->role].name,
                       s->roles[sn->role].steps[sn->step].name);
    for (int64_t k = 0; k < ntiles; k++)
        v[k] = (sn_tile){.sm = INT32_MAX, .issue = NAN, .store = NAN, .tile = k};
    for (int64_t i = 0; i < t->n; i++) {
        const int64_t k = t->tile[i];
        if (k < 0 || k >= ntiles)
            continue;
        if (t->role[i] == irole && t->phase[i] == iphase && isnan(v[k].issue)) {
            v[k].sm = t->sm[i];
            v[k].issue = (double)t->begin[i] + frac * (double)(t->end[i] - t->begin[i]);
        }
        if (t->role[i] == srole && t->phase[i] == sphase && isnan(v[k].store))
            v[k].store = (double)t->begin[i];
    }
    return 0;
}

/* each row's position: tile q's latency follows the issue of tile q - off
 * on its SM, its store is tile q - back's */
static void set_positions(pg_schedule *s, sn_tile *v, int64_t ntiles, int off, const int64_t *row_of, int col)
{
    sch_table *T = s->table;
    qsort(v, (size_t)ntiles, sizeof *v, cmp_issue); /* each SM's tiles in the order it issued them */
    for (int64_t q = s->sn_back > off ? s->sn_back : off; q < ntiles; q++) {
        const sn_tile *me = &v[q], *at = &v[q - off], *st = &v[q - s->sn_back];
        if (me->sm == INT32_MAX || at->sm != me->sm || st->sm != me->sm || row_of[me->tile] < 0)
            continue;
        T->v[row_of[me->tile] * T->cols + col] = st->store - at->issue;
    }
}

int storenear_table_fit(pg_schedule *s, const pg_trace *t, const int64_t *row_of, int64_t ntiles)
{
    if (!s->sn_line || !s->sn_own || !s->table || !row_of)
        return 0; /* no per-tile replay: rows fall back on cal= */
    int node = -1, off = 0;
    double frac = 0;
    sn_tile *v = malloc(sizeof(sn_tile) * (size_t)(ntiles > 0 ? ntiles : 1));
    int rc = v ? issue_event(s, &node, &frac, &off) : pg_fail("out of memory for storenear's positions");
    if (rc == 0)
        rc = collect(s, t, node, frac, v, ntiles);
    if (rc == 0) {
        char name[SCH_NAME + 8];
        sch_table_storenear_name(s, name, sizeof name);
        const int col = sch_table_fresh_column(s, name);
        if (col < 0)
            rc = -1;
        else
            set_positions(s, v, ntiles, off, row_of, col);
    }
    free(v);
    return rc;
}
