#include "engine.h"

#include <stdlib.h>
#include <string.h>

#include "pg_error.h"

int engine_init(engine *E, const pg_schedule *s, uint64_t seed, int means_only)
{
    memset(E, 0, sizeof *E);
    E->s = s;
    E->R = s->maxoff + 1 + (s->ct_node >= 0); /* + the next tile, run ahead for `contend` */
    E->means_only = means_only;
    E->x = calloc((size_t)E->R * (size_t)s->nnodes, sizeof(double));
    E->smp = calloc((size_t)E->R * (size_t)(s->nslots ? s->nslots : 1), sizeof(double));
    if (s->kb_node >= 0) {
        E->kb = calloc((size_t)E->R * (size_t)(s->kb_count + 1), sizeof(double));
        E->kb_land = calloc((size_t)E->R * (size_t)s->kb_count, sizeof(double));
    }
    if (!E->x || !E->smp || (s->kb_node >= 0 && (!E->kb || !E->kb_land))) {
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
        E->dq[i] = dramq_factor(s, s->slots[i].dist);
    rng_seed(&E->r, seed);
    E->ct_mean = s->ct_overlap;
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
    E->ct_mean = E->s->ct_overlap;
    E->block_left = 0;
    const sch_table *T = E->s->table;
    if (T && E->s->machine.whole_run && T->nunits > 0 && !E->means_only) {
        /* a unit from an empty pipeline: replay one traced SM from its first tile */
        E->row = T->unit_first[rng_below(&E->r, (uint64_t)T->nunits)] - 1;
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
    E->x = E->smp = E->kb = E->kb_land = NULL;
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
    for (int i = 0; i < s->nslots; i++) {
        const sch_dist *d = &s->dists[s->slots[i].dist];
        if (E->means_only) {
            out[i] = dist_mean(d) * E->scale[i] * E->dq[i];
        } else if (E->col[i] >= 0) {
            /* one trace tile for all of this tile's phases: keeps their correlation */
            row = E->row;
            out[i] = (s->table->v[row * s->table->cols + E->col[i]] + d->shift) * E->dq[i];
        } else {
            out[i] = dist_sample(d, &E->r) * E->scale[i] * E->dq[i];
        }
    }
}

enum { EVAL_ALL, EVAL_EARLY, EVAL_LATE };

/* Tile k's nodes: all of them, or (with a `contend` line) those before the
 * contended step (EVAL_EARLY) or it and what follows it (EVAL_LATE). */
static void eval_tile(engine *E, int64_t k, int which)
{
    const pg_schedule *s = E->s;
    const int n = s->nnodes, R = E->R;
    double *xk = E->x + (k % R) * n;
    for (int ti = 0; ti < n; ti++) {
        const int v = s->topo[ti];
        if (which != EVAL_ALL && (which == EVAL_LATE) != (s->ct_late[v] != 0))
            continue;
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
            continue;
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
                t = (kk < 0 ? 0.0 : kblocks_at(E, k - e->at_off, e->at_frac)) + e->w;
                q0 = 1; /* term 0 was F x the phase's sample */
            }
            for (int q = q0; q < e->nterms; q++) {
                int64_t ks = k - e->toff[q];
                if (ks < 0)
                    ks = k; /* before the first tile: use this tile's draw */
                t += e->coef[q] * E->smp[(ks % R) * s->nslots + e->slot[q]];
            }
            if (t > best)
                best = t;
        }
        if (v == s->ct_node)
            best = contend_step_end(E, k, engine_start(E, v, k), best);
        xk[v] = best;
    }
}

void engine_step(engine *E)
{
    const pg_schedule *s = E->s;
    const int64_t k = E->k;
    const int R = E->R, ns = s->nslots ? s->nslots : 1;
    if (s->ct_node < 0) {
        draw(E, E->smp + (k % R) * ns);
        eval_tile(E, k, EVAL_ALL);
    } else {
        /* the contended step of tile k needs the next tile's `by` step: run
         * the next tile up to its own contended step first (the draws stay
         * in tile order) */
        if (k == 0) {
            draw(E, E->smp);
            eval_tile(E, 0, EVAL_EARLY);
        }
        draw(E, E->smp + ((k + 1) % R) * ns);
        eval_tile(E, k + 1, EVAL_EARLY);
        eval_tile(E, k, EVAL_LATE);
    }
    E->k++;
}

double engine_latest(const engine *E)
{
    double m = 0;
    /* (with `contend`, the oldest slot holds the next tile, part-run) */
    int64_t first = E->k - E->R + (E->s->ct_node >= 0);
    if (first < 0)
        first = 0;
    for (int64_t k = first; k < E->k; k++)
        for (int v = 0; v < E->s->nnodes; v++)
            if (engine_x(E, v, k) > m)
                m = engine_x(E, v, k);
    return m;
}
