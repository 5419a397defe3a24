#include "engine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pg_error.h"

int engine_init(engine *E, const pg_schedule *s, uint64_t seed, int means_only)
{
    memset(E, 0, sizeof *E);
    E->s = s;
    /* tile k reads back to k - maxoff; a tile is read once the next one
     * settled it (engine.h), back to one more; >= 3: `contend` reads the
     * previous tile's record, keep=busy tiles k - 1 and k + 1 beside k */
    E->R = s->maxoff + 2 < 3 ? 3 : s->maxoff + 2;
    E->means_only = means_only;
    E->x = calloc((size_t)E->R * (size_t)s->nnodes, sizeof(double));
    E->smp = calloc((size_t)E->R * (size_t)(s->nslots ? s->nslots : 1), sizeof(double));
    if (s->kb_node >= 0) {
        E->kb = calloc((size_t)E->R * (size_t)(s->kb_count + 1), sizeof(double));
        E->kb_land = calloc((size_t)E->R * (size_t)s->kb_count, sizeof(double));
    }
    if (s->nct) {
        E->ct_iv = calloc((size_t)E->R * (size_t)s->nct * CT_REC, sizeof(double));
        E->ct_row_ov = calloc((size_t)E->R * (size_t)s->nct, sizeof(double));
    }
    E->sn_row_o = calloc((size_t)E->R, sizeof(double));
    E->st_iv = malloc(sizeof(double) * 2 * SCH_ST_MAX * (size_t)E->R);
    if (!E->x || !E->smp || (s->kb_node >= 0 && (!E->kb || !E->kb_land)) ||
        (s->nct && (!E->ct_iv || !E->ct_row_ov)) || !E->sn_row_o || !E->st_iv) {
        engine_free(E);
        return pg_fail("out of memory for the recurrence");
    }
    for (int i = 0; i < s->nslots; i++)
        E->col[i] = s->dists[s->slots[i].dist].family == DIST_EMPIRICAL
                        ? sch_table_column(s, s->slots[i].dist, s->slots[i].instance)
                        : -1;
    for (int i = 0; i < s->nslots; i++)
        E->scale[i] = sch_dist_scale(s, s->slots[i].dist);
    for (int i = 0; i < s->nslots; i++)
        E->dq[i] = dramq_factor(s, s->slots[i].dist) * l2reuse_factor(s, s->slots[i].dist) *
                   streamwall_factor(s, s->slots[i].dist) * colshare_factor(s, s->slots[i].dist);
    E->kb_qdiv = s->kb_node >= 0 ? colshare_queued_divisor(s, s->slots[s->kb_load_slot].dist) : 1;
    for (int i = 0; i < s->nct; i++) {
        E->ct_at[s->ct[i].node] = E->ct_at[s->ct[i].by_node] = 1;
        E->ct_solve_by[s->ct[i].by_node] |= (unsigned char)s->ct[i].solve_tile;
        E->ct_ov_col[i] = s->ct[i].solve_tile ? sch_table_contend_column(s, i) : -1;
    }
    E->sn_col = s->sn_line && s->sn_own ? sch_table_storenear_column(s) : -1;
    E->rf_col = s->rf_line ? sch_table_rowfirst_column(s) : -1;
    E->unit_row0 = -1;
    if (l2reuse_engine_init(E)) {
        engine_free(E);
        return -1;
    }
    for (int i = 0; i < s->nst; i++)
        E->st_solve_by[s->st[i].by_node] |= (unsigned char)s->st[i].next;
    rng_seed(&E->r, seed);
    stretch_reset(E);
    contend_reset(E);
    storenear_reset(E);
    return 0;
}

void engine_reset(engine *E, uint64_t seed)
{
    memset(E->x, 0, sizeof(double) * (size_t)E->R * (size_t)E->s->nnodes);
    if (E->kb) {
        memset(E->kb, 0, sizeof(double) * (size_t)E->R * (size_t)(E->s->kb_count + 1));
        memset(E->kb_land, 0, sizeof(double) * (size_t)E->R * (size_t)E->s->kb_count);
    }
    rng_seed(&E->r, seed);
    E->k = 0;
    E->kb_run_sum = 0;
    E->kb_run_count = 0;
    stretch_reset(E);
    contend_reset(E);
    storenear_reset(E);
    E->block_left = 0;
    E->unit_row0 = -1;
    const sch_table *T = E->s->table;
    if (T && E->s->machine.whole_run && T->nunits > 0 && !E->means_only && !E->no_replay) {
        /* a unit from an empty pipeline: replay one traced SM from its first tile */
        E->unit_row0 = T->unit_first[rng_below(&E->r, (uint64_t)T->nunits)];
        E->row = E->unit_row0 - 1;
        if (E->row < 0)
            E->row += T->rows;
        E->block_left = INT32_MAX;
    }
}

void engine_free(engine *E)
{
    free(E->x);
    free(E->smp);
    free(E->kb);
    free(E->kb_land);
    free(E->ct_iv);
    free(E->ct_row_ov);
    free(E->sn_row_o);
    free(E->st_iv);
    E->x = E->smp = E->kb = E->kb_land = E->ct_iv = E->ct_row_ov = E->sn_row_o = E->st_iv = NULL;
}

/* the drawn row's value in the table's column col (NAN: no column, or a
 * parametric draw) */
static double row_value(const engine *E, int col)
{
    const sch_table *T = E->s->table;
    return T && !E->means_only && col >= 0 ? T->v[E->row * T->cols + col] : NAN;
}

static void draw(engine *E, double *out)
{
    const pg_schedule *s = E->s;
    int64_t row = -1;
    if (s->table && !E->means_only) {
        /* a run of consecutive traced tiles (block bootstrap), else one at random */
        if (E->block_left > 0) {
            E->row = (E->row + 1) % s->table->rows;
            E->block_left--;
        } else {
            E->row = (int64_t)rng_below(&E->r, (uint64_t)s->table->rows);
            E->block_left = s->table->block > 1 ? s->table->block - 1 : 0;
        }
    }
    /* solve=tile: the row's own overlap (a parametric draw has none) */
    double *row_ov = E->ct_row_ov + (E->k % E->R) * s->nct;
    for (int i = 0; i < s->nct; i++)
        row_ov[i] = row_value(E, E->ct_ov_col[i]);
    E->sn_row_o[E->k % E->R] = row_value(E, E->sn_col); /* storenear own=1: the row's own position */
    for (int i = 0; i < s->nslots; i++) {
        const sch_dist *d = &s->dists[s->slots[i].dist];
        if (E->means_only) {
            out[i] = dist_mean(d) * E->scale[i] * E->dq[i] + rowfirst_shift(s, s->slots[i].dist, NAN);
        } else if (E->col[i] >= 0) {
            /* one trace tile for all of this tile's phases: keeps their correlation */
            row = E->row;
            out[i] = (l2reuse_replayed(E, i, row, s->table->v[row * s->table->cols + E->col[i]]) + d->shift) * E->dq[i] +
                     rowfirst_shift(s, s->slots[i].dist, row_value(E, E->rf_col));
        } else {
            out[i] = dist_sample(d, &E->r) * E->scale[i] * E->dq[i] + rowfirst_shift(s, s->slots[i].dist, NAN);
        }
    }
}

/* Tile k's node v, its inputs known. */
static void eval_node(engine *E, int64_t k, int v)
{
    const pg_schedule *s = E->s;
    const int n = s->nnodes, R = E->R;
    double *xk = E->x + (k % R) * n;
    double best = 0; /* nothing before the kernel starts: time 0 */
    if (v == s->kb_node) {
        /* a k-block loop: its one (sequential) edge gives the start */
        const sch_edge *e = &s->edges[s->in_edge[s->in_begin[v]]];
        const int64_t kk = k - e->off;
        double start = kk < 0 ? (s->machine.whole_run ? s->role_start[s->nodes[v].role] : 0.0)
                              : E->x[(kk % R) * n + e->from];
        double *b = E->kb + (k % R) * (s->kb_count + 1);
        kblocks_run(E, k, start, e->w, b);
        xk[v] = b[s->kb_count];
        if (E->ct_at[v]) /* its work: the loop without its constant */
            contend_record(E, v, k, start, b[s->kb_count] - e->w, b[s->kb_count]);
        return;
    }
    for (int j = s->in_begin[v]; j < s->in_begin[v + 1]; j++) {
        const sch_edge *e = &s->edges[s->in_edge[j]];
        const int64_t kk = k - e->off;
        if (kk < 0 && E->s->machine.whole_run) {
            /* no tile before the first: nothing to wait for but the
             * role's own start-up */
            if (e->kind == EDGE_SEQ) {
                double st = E->s->role_start[E->s->nodes[v].role];
                if (st > best)
                    best = st;
            }
            continue;
        }
        double t = (kk < 0 ? 0.0 : E->x[(kk % R) * n + e->from]) + e->w;
        int q0 = 0;
        if (e->at_node >= 0 && e->at_node == s->kb_node && e->at_frac > 0) {
            /* ROLE.STEP@F of a k-block loop: its boundary, not F x a duration */
            t = (kk < 0 ? 0.0 : kblocks_at(E, k - e->at_off, e->at_frac, e->kb_event)) + e->w;
            q0 = e->at_frac < 1; /* term 0 was F x the phase's sample (none at @1: the step's end) */
        }
        for (int q = q0; q < e->nterms; q++) {
            int64_t ks = k - e->toff[q];
            if (ks < 0)
                ks = k; /* before the first tile: use this tile's draw */
            const double sample = e->coef[q] * E->smp[(ks % R) * s->nslots + e->slot[q]];
            const int dist = s->slots[e->slot[q]].dist;
            t += sample;
            t += stretch_extra(E, k, dist, t, sample) + storenear_extra(E, k, dist, t, sample) +
                 inflight_extra(E, k, dist, t, sample);
        }
        if (t > best)
            best = t;
    }
    if (E->ct_at[v])
        best = contend_step_end(E, v, k, engine_start(E, v, k), best);
    xk[v] = best;
}

/* solve=tile lines whose `by` step is v (tile k's, just run): tile k - 1's
 * contended step is solved against it, then the steps that follow from it
 * in tile k - 1 run again (sch_contend desc; nothing of tile k run so far
 * reads them, contend_parse.c checks). */
static void solve_previous(engine *E, int64_t k, int v)
{
    const pg_schedule *s = E->s;
    for (int i = 0; i < s->nct && k >= 1; i++) {
        const sch_contend *c = &s->ct[i];
        if (!c->solve_tile || c->by_node != v)
            continue;
        E->x[((k - 1) % E->R) * s->nnodes + c->node] = contend_solve_tile(E, i, k - 1);
        for (int d = 0; d < c->ndesc; d++)
            eval_node(E, k - 1, c->desc[d]);
    }
}

/* Tile k's nodes, in their order. */
static void eval_tile(engine *E, int64_t k)
{
    const pg_schedule *s = E->s;
    for (int ti = 0; ti < s->nnodes; ti++) {
        const int v = s->topo[ti];
        eval_node(E, k, v);
        if (E->ct_solve_by[v])
            solve_previous(E, k, v);
        if (E->st_solve_by[v])
            stretch_solve_previous(E, k, v);
    }
}

void engine_step(engine *E)
{
    const int ns = E->s->nslots ? E->s->nslots : 1;
    draw(E, E->smp + (E->k % E->R) * ns);
    eval_tile(E, E->k);
    E->k++;
}

double engine_latest(const engine *E)
{
    double m = 0;
    int64_t first = E->k - E->R;
    if (first < 0)
        first = 0;
    for (int64_t k = first; k < E->k; k++)
        for (int v = 0; v < E->s->nnodes; v++)
            if (engine_x(E, v, k) > m)
                m = engine_x(E, v, k);
    return m;
}
