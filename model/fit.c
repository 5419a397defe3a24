/* Calibration from traces: pg_schedule_fit (per-tile phase samples kept
 * together, memory latency from the binding load waits), and the trace-side
 * helpers verify/ uses (pg_trace_summarize, pg_model_simulate_trace). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "model.h"
#include "pg_error.h"
#include "sched.h"

int sch_table_column(const pg_schedule *s, int dist, int instance)
{
    if (!s->table)
        return -1;
    char want[SCH_NAME + 8];
    int n0 = -1, count = 0;
    for (int c = 0; c < s->table->cols; c++) {
        const char *cn = s->table->colname[c];
        size_t L = strlen(s->dists[dist].name);
        if (strncmp(cn, s->dists[dist].name, L) == 0 && cn[L] == '#') {
            if (atoi(cn + L + 1) == 0)
                n0 = c;
            count++;
        }
    }
    if (n0 < 0)
        return -1;
    snprintf(want, sizeof want, "%s#%d", s->dists[dist].name, instance % count);
    for (int c = 0; c < s->table->cols; c++)
        if (strcmp(s->table->colname[c], want) == 0)
            return c;
    return n0;
}

int sch_attach_table(pg_schedule *s)
{
    for (int d = 0; d < s->ndists; d++) {
        sch_dist *D = &s->dists[d];
        if (D->kind != DKIND_PHASE || sch_table_column(s, d, 0) < 0)
            continue;
        double sum = 0;
        int64_t n = 0;
        for (int c = 0; c < s->table->cols; c++) {
            size_t L = strlen(D->name);
            if (strncmp(s->table->colname[c], D->name, L) || s->table->colname[c][L] != '#')
                continue;
            for (int64_t r = 0; r < s->table->rows; r++, n++)
                sum += s->table->v[r * s->table->cols + c];
        }
        D->family = DIST_EMPIRICAL;
        D->emp_mean = n ? sum / (double)n : 0;
        D->shift = 0;
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double quantile_sorted(const double *v, int64_t n, double q)
{
    if (n == 0)
        return NAN;
    double pos = q * (double)(n - 1);
    int64_t i = (int64_t)pos;
    double f = pos - (double)i;
    return i + 1 < n ? v[i] * (1 - f) + v[i + 1] * f : v[i];
}

static const char *schedule_for_kernel(const char *kname)
{
    if (strstr(kname, "pingpong") || strstr(kname, "h100") || strstr(kname, "sm90"))
        return "h100-pingpong";
    if (strstr(kname, "b200") || strstr(kname, "seed"))
        return "b200-seed";
    return NULL;
}

/* The constant part of a work step's own edge (e.g. "+ $epi_delay"): the trace
 * includes it, so it comes off the samples. */
static double work_step_const(const pg_schedule *s, int node)
{
    for (int j = s->in_begin[node]; j < s->in_begin[node + 1]; j++) {
        const sch_edge *e = &s->edges[s->in_edge[j]];
        if (e->kind == EDGE_SEQ)
            return e->w;
    }
    return 0;
}

static int step_has_deps(const pg_schedule *s, int node)
{
    for (int j = s->in_begin[node]; j < s->in_begin[node + 1]; j++)
        if (s->edges[s->in_edge[j]].kind != EDGE_SEQ)
            return 1;
    return 0;
}

int pg_schedule_fit(const pg_run *run, pg_schedule **out)
{
    *out = NULL;
    const pg_trace *t = &run->trace;
    pg_schedule *s = NULL;
    double *ends = NULL, *buf = NULL;
    sch_table *tab = NULL;
    int rc = -1;
    char opt[96];
    if (t->n == 0)
        return pg_fail("the run has no trace (record one with the kernel's trace build)");
    const char *kname = run->kernel.present ? run->kernel.name : "";
    const char *sname = schedule_for_kernel(kname);
    if (!sname)
        return pg_fail("no schedule for kernel '%s' (known: h100-pingpong, b200-seed)", kname);
    if (pg_schedule_load(sname, &s))
        return -1;
    /* the run's probes and machine */
    snprintf(opt, sizeof opt, "epi_delay=%lld", (long long)run->kernel.epi_delay);
    if (pg_schedule_option(s, "epi_delay", NULL, 0) == 0 && pg_schedule_set(s, opt, 0))
        goto done;
    snprintf(opt, sizeof opt, "mainloop_delay=%lld", (long long)run->kernel.mainloop_delay);
    if (pg_schedule_option(s, "mainloop_delay", NULL, 0) == 0 && pg_schedule_set(s, opt, 0))
        goto done;
    if (run->kernel.stages >= 2 && run->kernel.stages <= 5) {
        snprintf(opt, sizeof opt, "stages=%d", run->kernel.stages);
        if (pg_schedule_option(s, "stages", NULL, 0) == 0 && pg_schedule_set(s, opt, 0))
            goto done;
    }
    if (run->kernel.sm_count > 0)
        s->machine.units = run->kernel.sm_count;
    if (run->kernel.sm_clock_hz > 0)
        s->machine.clock_hz = run->kernel.sm_clock_hz;
    const pg_shape *sh = &run->problem.shape;
    if (sh->M > 0 && run->kernel.tile_m > 0 && run->kernel.tile_n > 0) {
        s->machine.tiles = (double)((sh->M + run->kernel.tile_m - 1) / run->kernel.tile_m) *
                           (double)((sh->N + run->kernel.tile_n - 1) / run->kernel.tile_n);
        s->machine.flops = 2.0 * (double)sh->M * (double)sh->N * (double)sh->K;
    }
    /* machine values become overrides so a recompile keeps them */
    const char *mk[] = {"units", "tiles", "clock_hz", "flops"};
    const double mv[] = {s->machine.units, s->machine.tiles, s->machine.clock_hz, s->machine.flops};
    for (int i = 0; i < 4; i++) {
        snprintf(opt, sizeof opt, "%s=%.17g", mk[i], mv[i]);
        if (pg_schedule_set(s, opt, 0))
            goto done;
    }

    /* columns: one per work phase (per warp for roles whose every warp works each tile) */
    int64_t maxtile = -1;
    for (int64_t i = 0; i < t->n; i++)
        if (t->tile[i] > maxtile)
            maxtile = t->tile[i];
    if (maxtile < 0)
        return pg_fail("the trace has no tile indices");
    tab = calloc(1, sizeof *tab);
    if (!tab) {
        pg_fail("out of memory");
        goto done;
    }
    int colrole[SCH_MAX_NODES], colchain[SCH_MAX_NODES];
    double colconst[SCH_MAX_NODES];
    pg_phase colphase[SCH_MAX_NODES];
    for (int r = 0; r < s->nroles; r++)
        for (int st = 0; st < s->roles[r].nsteps; st++) {
            const sch_step *S = &s->roles[r].steps[st];
            if (S->kind != STEP_WORK)
                continue;
            for (int c = 0; c < s->roles[r].nchains && tab->cols < SCH_MAX_NODES; c++) {
                int v = sch_node_of(s, r, c, st);
                if (step_has_deps(s, v))
                    continue; /* fitted below as a constant: its trace time includes waits */
                snprintf(tab->colname[tab->cols], sizeof tab->colname[0], "%s#%d", S->name, c);
                colrole[tab->cols] = r;
                colchain[tab->cols] = c;
                colconst[tab->cols] = work_step_const(s, v);
                pg_phase_parse(S->name, &colphase[tab->cols]);
                tab->cols++;
            }
        }
    const int64_t ntiles = maxtile + 1;
    buf = malloc(sizeof(double) * (size_t)ntiles * (size_t)(tab->cols ? tab->cols : 1));
    if (!buf) {
        pg_fail("out of memory for %lld tiles", (long long)ntiles);
        goto done;
    }
    for (int64_t i = 0; i < ntiles * tab->cols; i++)
        buf[i] = NAN;
    pg_role roleid[SCH_MAX_ROLES];
    for (int r = 0; r < s->nroles; r++)
        pg_role_parse(s->roles[r].name, &roleid[r]);
    for (int64_t i = 0; i < t->n; i++)
        for (int c = 0; c < tab->cols; c++) {
            const sch_role *R = &s->roles[colrole[c]];
            if (t->role[i] != roleid[colrole[c]] || t->phase[i] != colphase[c])
                continue;
            if (!R->rotate && t->warp[i] % R->nchains != colchain[c])
                continue;
            buf[t->tile[i] * tab->cols + c] = (double)(t->end[i] - t->begin[i]) - colconst[c];
        }
    int64_t rows = 0;
    for (int64_t k = 0; k < ntiles; k++) {
        int full = 1;
        for (int c = 0; c < tab->cols; c++)
            if (!isfinite(buf[k * tab->cols + c]))
                full = 0;
        if (full && tab->cols) {
            memmove(buf + rows * tab->cols, buf + k * tab->cols, sizeof(double) * (size_t)tab->cols);
            rows++;
        }
    }
    if (rows < 10) {
        pg_fail("the trace has only %lld tiles with every work phase of schedule %s recorded", (long long)rows,
                s->name);
        goto done;
    }
    tab->rows = rows;
    tab->v = buf;
    buf = NULL;
    s->table = tab;
    tab = NULL;

    /* work steps that also wait (producer_issue waits for stages 1..5): their
     * own time is the fast end of the measured durations */
    for (int r = 0; r < s->nroles; r++)
        for (int st = 0; st < s->roles[r].nsteps; st++) {
            const sch_step *S = &s->roles[r].steps[st];
            int v = sch_node_of(s, r, 0, st);
            pg_phase ph;
            if (S->kind != STEP_WORK || !step_has_deps(s, v) || pg_phase_parse(S->name, &ph))
                continue;
            pg_role rid = roleid[r];
            int64_t n = 0;
            ends = realloc(ends, sizeof(double) * (size_t)t->n);
            if (!ends) {
                pg_fail("out of memory");
                goto done;
            }
            for (int64_t i = 0; i < t->n; i++)
                if (t->role[i] == rid && t->phase[i] == ph)
                    ends[n++] = (double)(t->end[i] - t->begin[i]);
            if (n < 10)
                continue;
            qsort(ends, (size_t)n, sizeof(double), cmp_double);
            snprintf(opt, sizeof opt, "%s.mean=%.6g", S->name, quantile_sorted(ends, n, 0.05));
            if (pg_schedule_set(s, opt, 0))
                goto done;
        }

    /* memory latency: a load wait that binds ends when the load lands, so
     * (wait end - issue event) samples the latency; only same-tile issue
     * events (offset 0) can be read off a trace row by row. */
    for (int ei = 0; ei < s->nedges; ei++) {
        const sch_edge *e = &s->edges[ei];
        if (e->kind != EDGE_MEMORY || e->off != 0)
            continue;
        const sch_node *nv = &s->nodes[e->to], *nu = &s->nodes[e->from];
        pg_phase pv, pu;
        if (pg_phase_parse(s->roles[nv->role].steps[nv->step].name, &pv) ||
            pg_phase_parse(s->roles[nu->role].steps[nu->step].name, &pu))
            continue;
        pg_role rv = roleid[nv->role], ru = roleid[nu->role];
        double *src = malloc(sizeof(double) * (size_t)ntiles), *lat = malloc(sizeof(double) * (size_t)ntiles);
        double *wdur = malloc(sizeof(double) * (size_t)ntiles), *wend = malloc(sizeof(double) * (size_t)ntiles);
        if (!src || !lat || !wdur || !wend) {
            free(src);
            free(lat);
            free(wdur);
            free(wend);
            pg_fail("out of memory");
            goto done;
        }
        for (int64_t k = 0; k < ntiles; k++)
            src[k] = wend[k] = NAN;
        for (int64_t i = 0; i < t->n; i++) {
            if (t->role[i] == ru && t->phase[i] == pu)
                src[t->tile[i]] = (double)t->end[i];
            if (t->role[i] == rv && t->phase[i] == pv) {
                wend[t->tile[i]] = (double)t->end[i];
                wdur[t->tile[i]] = (double)(t->end[i] - t->begin[i]);
            }
        }
        int64_t n = 0;
        for (int64_t k = 0; k < ntiles; k++)
            if (isfinite(src[k]) && isfinite(wend[k]) && wdur[k] > 32)
                lat[n++] = wend[k] - src[k] - e->w;
        if (n >= 20) {
            qsort(lat, (size_t)n, sizeof(double), cmp_double);
            int mem = -1;
            for (int q = 0; q < e->nterms; q++)
                if (s->dists[s->slots[e->slot[q]].dist].kind == DKIND_MEMORY)
                    mem = s->slots[e->slot[q]].dist;
            if (mem >= 0) {
                double med = quantile_sorted(lat, n, 0.5);
                double sd = (quantile_sorted(lat, n, 0.75) - quantile_sorted(lat, n, 0.25)) / 1.349;
                snprintf(opt, sizeof opt, "%s.mean=%.6g", s->dists[mem].name, med);
                int r1 = pg_schedule_set(s, opt, 0);
                snprintf(opt, sizeof opt, "%s.sd=%.6g", s->dists[mem].name, sd);
                if (r1 || pg_schedule_set(s, opt, 0)) {
                    free(src);
                    free(lat);
                    free(wdur);
                    free(wend);
                    goto done;
                }
            }
        }
        free(src);
        free(lat);
        free(wdur);
        free(wend);
    }
    snprintf(s->origin, sizeof s->origin, "fit:%s", s->name);
    *out = s;
    s = NULL;
    rc = 0;
done:
    free(ends);
    free(buf);
    if (tab) {
        free(tab->v);
        free(tab);
    }
    pg_schedule_free(s);
    return rc;
}

/* ------------------------------------------------------ measured-trace summary */

typedef struct {
    int32_t sm;
    int64_t begin, end;
} interval;

static int cmp_interval(const void *a, const void *b)
{
    const interval *x = a, *y = b;
    if (x->sm != y->sm)
        return x->sm < y->sm ? -1 : 1;
    return x->begin < y->begin ? -1 : x->begin > y->begin;
}

int pg_trace_summarize(const pg_trace *t, double sm_clock_hz, pg_prediction *out)
{
    memset(out, 0, sizeof *out);
    out->clark_tile_period = out->cycle_time_deterministic = NAN;
    out->tflops = NAN;
    if (t->n == 0)
        return pg_fail("the trace is empty");
    int rc = -1;
    double *v = malloc(sizeof(double) * (size_t)t->n);
    interval *iv = malloc(sizeof(interval) * (size_t)t->n);
    if (!v || !iv) {
        pg_fail("out of memory");
        goto done;
    }
    for (int ph = 0; ph < PG_PH_COUNT; ph++) {
        int64_t n = 0;
        double sum = 0;
        for (int64_t i = 0; i < t->n; i++)
            if (t->phase[i] == ph) {
                v[n] = (double)(t->end[i] - t->begin[i]);
                sum += v[n++];
            }
        if (n == 0)
            continue;
        qsort(v, (size_t)n, sizeof(double), cmp_double);
        pg_stat st = {0};
        snprintf(st.name, sizeof st.name, "%s", pg_phase_name((pg_phase)ph));
        st.mean = sum / (double)n;
        st.p50 = quantile_sorted(v, n, 0.5);
        st.p95 = quantile_sorted(v, n, 0.95);
        double ss = 0;
        for (int64_t i = 0; i < n; i++)
            ss += (v[i] - st.mean) * (v[i] - st.mean);
        st.ci95 = n > 1 ? 1.96 * sqrt(ss / (double)(n - 1) / (double)n) : NAN;
        if (pg_phase_is_wait((pg_phase)ph) && out->nwaits < PG_MODEL_MAX_STATS)
            out->waits[out->nwaits++] = st;
        else if (out->nphases < PG_MODEL_MAX_STATS)
            out->phases[out->nphases++] = st;
    }
    /* the tensor-core phase (mainloop or kloop): tile period and idle gaps per SM */
    int pref = -1;
    for (int64_t i = 0; i < t->n && pref < 0; i++)
        if (t->phase[i] == PG_PH_MAINLOOP || t->phase[i] == PG_PH_KLOOP)
            pref = t->phase[i];
    if (pref >= 0) {
        int64_t n = 0;
        for (int64_t i = 0; i < t->n; i++)
            if (t->phase[i] == pref)
                iv[n++] = (interval){t->sm[i], t->begin[i], t->end[i]};
        qsort(iv, (size_t)n, sizeof(interval), cmp_interval);
        double span = 0, gsum = 0;
        int64_t gaps = 0, ng = 0;
        for (int64_t i = 0; i < n;) {
            int64_t j = i;
            while (j < n && iv[j].sm == iv[i].sm)
                j++;
            if (j - i >= 2) {
                span += (double)(iv[j - 1].begin - iv[i].begin);
                gaps += j - i - 1;
                for (int64_t q = i + 1; q < j; q++) {
                    double g = (double)(iv[q].begin - iv[q - 1].end);
                    v[ng++] = g > 0 ? g : 0;
                    gsum += g > 0 ? g : 0;
                }
            }
            i = j;
        }
        out->tile_period = gaps ? span / (double)gaps : NAN;
        if (ng && out->nwaits < PG_MODEL_MAX_STATS) {
            qsort(v, (size_t)ng, sizeof(double), cmp_double);
            pg_stat st = {0};
            snprintf(st.name, sizeof st.name, "tensor_idle");
            st.mean = gsum / (double)ng;
            st.p50 = quantile_sorted(v, ng, 0.5);
            st.p95 = quantile_sorted(v, ng, 0.95);
            st.ci95 = NAN;
            out->waits[out->nwaits++] = st;
        }
        snprintf(out->bottleneck, sizeof out->bottleneck, "measured");
    } else {
        out->tile_period = NAN;
    }
    /* wall clock: the longest SM from its first begin to its last end */
    double longest = 0;
    int64_t n = 0;
    for (int64_t i = 0; i < t->n; i++)
        iv[n++] = (interval){t->sm[i], t->begin[i], t->end[i]};
    qsort(iv, (size_t)n, sizeof(interval), cmp_interval);
    for (int64_t i = 0; i < n;) {
        int64_t j = i, last = iv[i].end;
        while (j < n && iv[j].sm == iv[i].sm) {
            if (iv[j].end > last)
                last = iv[j].end;
            j++;
        }
        if ((double)(last - iv[i].begin) > longest)
            longest = (double)(last - iv[i].begin);
        i = j;
    }
    out->wall_ms = sm_clock_hz > 0 ? longest / sm_clock_hz * 1e3 : NAN;
    rc = 0;
done:
    free(v);
    free(iv);
    return rc;
}

/* ------------------------------------------------------------ simulated trace */

static void trace_release(pg_trace *t)
{
    free(t->sm);
    free(t->role);
    free(t->warp);
    free(t->tile);
    free(t->phase);
    free(t->begin);
    free(t->end);
    free(t->anchor_clock);
    free(t->anchor_globaltimer_ns);
    memset(t, 0, sizeof *t);
}

int pg_model_simulate_trace(const pg_schedule *s, const pg_model_opts *o, int n_sm, pg_trace *out)
{
    memset(out, 0, sizeof *out);
    if (n_sm < 1)
        return pg_fail("n_sm must be at least 1");
    int64_t per_sm = (int64_t)(s->machine.tiles / s->machine.units);
    if (o->tiles > 0 && o->tiles < per_sm)
        per_sm = o->tiles;
    if (per_sm < 1)
        per_sm = 1;
    int rows_per_tile = 0;
    pg_role roleid[SCH_MAX_ROLES];
    for (int r = 0; r < s->nroles; r++) {
        if (pg_role_parse(s->roles[r].name, &roleid[r]))
            return -1;
        for (int st = 0; st < s->roles[r].nsteps; st++)
            if (s->roles[r].steps[st].kind != STEP_DELAY)
                rows_per_tile += s->roles[r].nchains;
    }
    if (pg_trace_alloc(out, (int64_t)n_sm * per_sm * rows_per_tile, n_sm))
        return -1;
    engine E;
    if (engine_init(&E, s, o->seed, o->deterministic)) {
        trace_release(out);
        return -1;
    }
    int64_t row = 0;
    for (int sm = 0; sm < n_sm; sm++) {
        engine_reset(&E, o->seed * 31u + (uint64_t)sm + 1);
        for (int64_t k = 0; k < per_sm; k++) {
            engine_step(&E);
            for (int v = 0; v < s->nnodes; v++) {
                const sch_node *nd = &s->nodes[v];
                const sch_role *R = &s->roles[nd->role];
                pg_phase ph;
                if (R->steps[nd->step].kind == STEP_DELAY || pg_phase_parse(R->steps[nd->step].name, &ph))
                    continue;
                out->sm[row] = sm;
                out->role[row] = (uint8_t)roleid[nd->role];
                out->warp[row] = R->rotate ? (int32_t)(k % R->instances) : nd->chain;
                out->tile[row] = (int32_t)(k * n_sm + sm);
                out->phase[row] = (uint8_t)ph;
                out->begin[row] = (int64_t)llround(engine_start(&E, v, k));
                out->end[row] = (int64_t)llround(engine_x(&E, v, k));
                row++;
            }
        }
    }
    engine_free(&E);
    if (row != out->n) {
        trace_release(out);
        return pg_fail("simulated trace: %lld rows written, %lld expected", (long long)row, (long long)out->n);
    }
    return 0;
}
