#include "clark.h"

#include <math.h>
#include <string.h>

#include "engine.h"
#include "maxplus.h"

void clark_max2(double m1, double v1, double m2, double v2, double rho, double *m, double *v)
{
    double a2 = v1 + v2 - 2 * rho * sqrt(v1 * v2);
    if (a2 <= 1e-300) { /* identical up to a constant: the max is the larger */
        *m = m1 > m2 ? m1 : m2;
        *v = m1 > m2 ? v1 : v2;
        return;
    }
    double a = sqrt(a2), al = (m1 - m2) / a;
    double P = norm_cdf(al), Q = norm_cdf(-al), p = norm_pdf(al);
    double e1 = m1 * P + m2 * Q + a * p;
    double e2 = (m1 * m1 + v1) * P + (m2 * m2 + v2) * Q + (m1 + m2) * a * p;
    *m = e1;
    *v = e2 - e1 * e1 > 0 ? e2 - e1 * e1 : 0;
}

void clark_max_n(const double *m, const double *v, int n, double *mean, double *var)
{
    double cm = m[0], cv = v[0];
    for (int i = 1; i < n; i++) {
        /* Clark: the running max's correlation with the next (independent)
         * variable is 0, since the variables are independent. */
        clark_max2(cm, cv, m[i], v[i], 0.0, &cm, &cv);
    }
    *mean = cm;
    *var = cv;
}

double sch_dist_var(const pg_schedule *s, int di)
{
    const sch_dist *d = &s->dists[di];
    switch (d->family) {
    case DIST_NORMAL:
        return d->sd * d->sd;
    case DIST_LOGNORMAL:
        return (exp(d->s * d->s) - 1) * exp(2 * d->mu + d->s * d->s);
    case DIST_EMPIRICAL: {
        double sum = 0, sum2 = 0;
        int64_t n = 0;
        for (int c = 0; c < s->table->cols; c++) {
            int col = sch_table_column(s, di, c);
            if (col < 0)
                break;
            for (int64_t r = 0; r < s->table->rows; r++) {
                double x = s->table->v[r * s->table->cols + col];
                sum += x;
                sum2 += x * x;
                n++;
            }
        }
        return n > 1 ? (sum2 - sum * sum / n) / (n - 1) : 0;
    }
    default:
        return 0;
    }
}

/* Variance of what arrives along edge e: the source step's own duration plus
 * the edge's random terms. */
static double arrival_var(const pg_schedule *s, const sch_edge *e)
{
    double v = 0;
    for (int t = 0; t < e->nterms; t++)
        v += e->coef[t] * e->coef[t] * sch_dist_var(s, s->slots[e->slot[t]].dist);
    for (int j = s->in_begin[e->from]; j < s->in_begin[e->from + 1]; j++) {
        const sch_edge *f = &s->edges[s->in_edge[j]];
        if (f->kind == EDGE_SEQ)
            for (int t = 0; t < f->nterms; t++)
                v += f->coef[t] * f->coef[t] * sch_dist_var(s, s->slots[f->slot[t]].dist);
    }
    return v;
}

double sch_clark_period(const pg_schedule *s)
{
    double w[SCH_MAX_EDGES];
    for (int i = 0; i < s->nedges; i++)
        w[i] = sch_edge_mean(s, &s->edges[i]);
    /* steady-state mean event times (relative positions of the warps) */
    engine E;
    if (engine_init(&E, s, 1, 1))
        return NAN;
    for (int k = 0; k < 200; k++)
        engine_step(&E);
    int64_t k = E.k - 1;
    int any = 0;
    for (int v = 0; v < s->nnodes; v++) {
        /* group the in-edges that differ only in the source chain: a barrier */
        int done[SCH_MAX_EDGES] = {0};
        for (int j = s->in_begin[v]; j < s->in_begin[v + 1]; j++) {
            int i = s->in_edge[j];
            if (done[i] || s->edges[i].kind == EDGE_SEQ)
                continue;
            const sch_node *ni = &s->nodes[s->edges[i].from];
            int grp[64], ng = 0;
            for (int jj = j; jj < s->in_begin[v + 1] && ng < 64; jj++) {
                int i2 = s->in_edge[jj];
                const sch_node *n2 = &s->nodes[s->edges[i2].from];
                if (!done[i2] && s->edges[i2].kind == s->edges[i].kind && n2->role == ni->role &&
                    n2->step == ni->step && s->edges[i2].off == s->edges[i].off) {
                    grp[ng++] = i2;
                    done[i2] = 1;
                }
            }
            if (ng < 2)
                continue;
            double m[64], var[64], top = -INFINITY, em, ev;
            for (int g = 0; g < ng; g++) {
                const sch_edge *e = &s->edges[grp[g]];
                m[g] = engine_x(&E, e->from, k - e->off) + w[grp[g]];
                var[g] = arrival_var(s, e);
                if (m[g] > top)
                    top = m[g];
            }
            clark_max_n(m, var, ng, &em, &ev);
            if (em - top > 0)
                any = 1;
            for (int g = 0; g < ng; g++)
                w[grp[g]] += em - top;
        }
    }
    engine_free(&E);
    if (!any)
        return NAN;
    double lambda;
    int edges[SCH_MAX_NODES], n;
    if (sch_max_cycle_mean(s, w, &lambda, edges, &n))
        return NAN;
    return lambda;
}
