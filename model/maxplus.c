/* The deterministic equilibrium: with every duration at its mean, the
 * recurrence x_v(k) = max_e (x_u(k - off_e) + w_e) grows by the maximum cycle
 * mean lambda = max over cycles of (sum w) / (sum off) per tile.  Found by
 * Lawler's search (a positive cycle under w - lambda*off exists iff lambda is
 * below the maximum) and then made exact: the answer is the ratio of an
 * actual cycle, which is also the critical cycle we name. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "maxplus.h"
#include "pg_error.h"

double sch_edge_mean(const pg_schedule *s, const sch_edge *e)
{
    double w = e->w;
    for (int t = 0; t < e->nterms; t++)
        w += e->coef[t] * dist_mean(&s->dists[s->slots[e->slot[t]].dist]) * sch_dist_scale(s, s->slots[e->slot[t]].dist);
    return w;
}

/* Bellman-Ford for a positive cycle under weights w - lambda*off; returns a
 * node on one (following predecessors), or -1 if there is none. */
static int positive_cycle(const pg_schedule *s, const double *w, double lambda, int *pred)
{
    double dist[SCH_MAX_NODES];
    int n = s->nnodes, last = -1;
    for (int v = 0; v < n; v++) {
        dist[v] = 0;
        pred[v] = -1;
    }
    for (int it = 0; it <= n; it++) {
        last = -1;
        for (int i = 0; i < s->nedges; i++) {
            const sch_edge *e = &s->edges[i];
            double nd = dist[e->from] + w[i] - lambda * e->off;
            if (nd > dist[e->to] + 1e-9 * (1 + fabs(dist[e->to]))) {
                dist[e->to] = nd;
                pred[e->to] = i;
                last = e->to;
            }
        }
        if (last < 0)
            return -1;
    }
    for (int i = 0; i < n; i++) /* walk back into the cycle */
        last = s->edges[pred[last]].from;
    return last;
}

int sch_max_cycle_mean(const pg_schedule *s, const double *w, double *lambda, int *cycle_edges, int *ncycle)
{
    int pred[SCH_MAX_NODES];
    double hi = 1, lo = -1;
    for (int i = 0; i < s->nedges; i++) {
        hi += fabs(w[i]);
        lo -= fabs(w[i]);
    }
    if (positive_cycle(s, w, hi, pred) >= 0)
        return pg_fail("max-plus: a cycle grows without bound (a tile offset of 0 slipped through)");
    for (int it = 0; it < 200 && hi - lo > 1e-7 * (1 + fabs(hi)); it++) {
        double mid = 0.5 * (lo + hi);
        if (positive_cycle(s, w, mid, pred) >= 0)
            lo = mid;
        else
            hi = mid;
    }
    for (int attempt = 0; attempt < 50; attempt++) {
        int v = positive_cycle(s, w, lo, pred);
        if (v < 0)
            return pg_fail("max-plus: lost the critical cycle (lambda near %g)", lo);
        int n = 0, u = v;
        double sw = 0;
        int so = 0;
        do {
            int e = pred[u];
            cycle_edges[n++] = e;
            sw += w[e];
            so += s->edges[e].off;
            u = s->edges[e].from;
        } while (u != v && n < SCH_MAX_NODES);
        if (so <= 0)
            return pg_fail("max-plus: a cycle with no tile offset (deadlock)");
        double r = sw / so;
        if (positive_cycle(s, w, r + 1e-9 * (1 + fabs(r)), pred) < 0) {
            *lambda = r;
            /* edges were collected walking backwards: reverse to execution order */
            for (int i = 0; i < n / 2; i++) {
                int t = cycle_edges[i];
                cycle_edges[i] = cycle_edges[n - 1 - i];
                cycle_edges[n - 1 - i] = t;
            }
            *ncycle = n;
            return 0;
        }
        lo = r;
    }
    return pg_fail("max-plus: the cycle search did not settle");
}

void sch_describe_cycle(const pg_schedule *s, const int *edges, int n, char *cycle, int cn, char *bottleneck, int bn)
{
    char buf[512] = "", nm[96], last[96] = "";
    int buffer = -1, memory = -1, roles[SCH_MAX_ROLES] = {0}, nroles = 0;
    for (int i = 0; i < n; i++) {
        const sch_edge *e = &s->edges[edges[i]];
        const sch_node *nd = &s->nodes[e->to];
        /* name steps without the warp index: a barrier cycle is the same for every warp */
        snprintf(nm, sizeof nm, "%s.%s", s->roles[nd->role].name, s->roles[nd->role].steps[nd->step].name);
        if (e->kind == EDGE_BUFFER)
            buffer = e->label;
        if (e->kind == EDGE_MEMORY)
            memory = e->label;
        if (!roles[nd->role]++)
            nroles++;
        if (strcmp(nm, last) == 0 || strncmp(nm + strlen(s->roles[nd->role].name) + 1, "delay", 5) == 0)
            continue;
        if (buf[0])
            strncat(buf, " -> ", sizeof buf - strlen(buf) - 1);
        strncat(buf, nm, sizeof buf - strlen(buf) - 1);
        snprintf(last, sizeof last, "%s", nm);
    }
    if (buffer >= 0) {
        char b[96];
        snprintf(b, sizeof b, " (buffer %s x%d)", s->buffers[buffer].name, s->buffers[buffer].count);
        strncat(buf, b, sizeof buf - strlen(buf) - 1);
        snprintf(bottleneck, (size_t)bn, "buffer %s", s->buffers[buffer].name);
    } else if (memory >= 0) {
        snprintf(bottleneck, (size_t)bn, "memory %s", s->dists[memory].name);
    } else {
        bottleneck[0] = '\0';
        for (int r = 0; r < s->nroles; r++)
            if (roles[r]) {
                if (bottleneck[0])
                    strncat(bottleneck, "+", (size_t)bn - strlen(bottleneck) - 1);
                strncat(bottleneck, s->roles[r].name, (size_t)bn - strlen(bottleneck) - 1);
            }
        (void)nroles;
    }
    snprintf(cycle, (size_t)cn, "%s", buf);
}

int sch_deterministic(const pg_schedule *s, double *lambda, char *cycle, int cn, char *bottleneck, int bn)
{
    double w[SCH_MAX_EDGES];
    int edges[SCH_MAX_NODES], n = 0;
    for (int i = 0; i < s->nedges; i++)
        w[i] = sch_edge_mean(s, &s->edges[i]);
    if (sch_max_cycle_mean(s, w, lambda, edges, &n))
        return -1;
    sch_describe_cycle(s, edges, n, cycle, cn, bottleneck, bn);
    return 0;
}
