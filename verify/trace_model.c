#include "trace_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pg_error.h"

pg_tolerance pg_tolerance_default(void) { return (pg_tolerance){.rel = 0.15, .abs_cycles = 150}; }

int pg_tolerance_parse(const char *s, pg_tolerance *out)
{
    char *end;
    pg_tolerance t = pg_tolerance_default();
    t.rel = strtod(s, &end);
    if (end == s)
        return pg_fail("--tolerance '%s': expected REL[,ABS] (e.g. 0.15,150 or 15%%,150)", s);
    if (*end == '%') {
        t.rel /= 100;
        end++;
    }
    if (*end == ',') {
        const char *a = end + 1;
        t.abs_cycles = strtod(a, &end);
        if (end == a)
            return pg_fail("--tolerance '%s': expected a cycle count after the comma", s);
    }
    if (*end != '\0' || !(t.rel >= 0) || !(t.abs_cycles >= 0) || !isfinite(t.rel) || !isfinite(t.abs_cycles))
        return pg_fail("--tolerance '%s': expected REL[,ABS] with non-negative numbers", s);
    *out = t;
    return 0;
}

static void add_row(pg_trace_cmp *c, const char *name, const char *unit, double meas, double pred, double abs_floor)
{
    if (c->nrows >= PG_TRACE_CMP_MAX)
        return;
    pg_trace_cmp_row *r = &c->rows[c->nrows++];
    snprintf(r->name, sizeof r->name, "%s", name);
    snprintf(r->unit, sizeof r->unit, "%s", unit);
    r->measured = meas;
    r->predicted = pred;
    r->allowed = fmax(c->tol.rel * fabs(meas), abs_floor);
    /* a figure the model cannot produce is a disagreement too */
    r->flagged = !isfinite(meas) || !isfinite(pred) || fabs(pred - meas) > r->allowed;
    c->flagged += r->flagged;
}

static const pg_stat *find_stat(const pg_stat *v, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(v[i].name, name) == 0)
            return &v[i];
    return NULL;
}

static void add_stats(pg_trace_cmp *c, const pg_stat *meas, int nmeas, const pg_stat *pred, int npred)
{
    for (int i = 0; i < nmeas; i++) {
        const pg_stat *p = find_stat(pred, npred, meas[i].name);
        char name[48];
        double pm = p ? p->mean : NAN, p50 = p ? p->p50 : NAN, p95 = p ? p->p95 : NAN;
        snprintf(name, sizeof name, "%s.mean", meas[i].name);
        add_row(c, name, "cycles", meas[i].mean, pm, c->tol.abs_cycles);
        snprintf(name, sizeof name, "%s.p50", meas[i].name);
        add_row(c, name, "cycles", meas[i].p50, p50, c->tol.abs_cycles);
        snprintf(name, sizeof name, "%s.p95", meas[i].name);
        add_row(c, name, "cycles", meas[i].p95, p95, c->tol.abs_cycles);
    }
}

void pg_trace_compare_stats(const pg_prediction *measured, const pg_prediction *predicted, pg_tolerance tol,
                            pg_trace_cmp *out)
{
    out->tol = tol;
    out->measured = *measured;
    out->predicted = *predicted;
    out->nrows = 0;
    out->flagged = 0;
    out->timed_trace_ms = NAN;
    out->timed_production_ms = NAN;
    add_stats(out, measured->phases, measured->nphases, predicted->phases, predicted->nphases);
    add_stats(out, measured->waits, measured->nwaits, predicted->waits, predicted->nwaits);
    add_row(out, "tile_period", "cycles", measured->tile_period, predicted->tile_period, out->tol.abs_cycles);
    /* wall clock: relative tolerance only (no cycle floor applies to ms) */
    add_row(out, "wall_ms", "ms", measured->wall_ms, predicted->wall_ms, 0);
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median of the timing set `name`, NAN if the run has none. */
static double timing_median(const pg_run *run, const char *name)
{
    for (int i = 0; i < run->ntimings; i++) {
        const pg_timing *t = &run->timings[i];
        if (strcmp(t->name, name) != 0 || t->n < 1)
            continue;
        double *v = malloc((size_t)t->n * sizeof *v);
        if (!v)
            return NAN;
        memcpy(v, t->ms, (size_t)t->n * sizeof *v);
        qsort(v, (size_t)t->n, sizeof *v, cmp_dbl);
        double m = t->n % 2 ? v[t->n / 2] : 0.5 * (v[t->n / 2 - 1] + v[t->n / 2]);
        free(v);
        return m;
    }
    return NAN;
}

int pg_trace_compare(const pg_run *run, const pg_model_opts *opts, pg_tolerance tol, pg_trace_cmp *out,
                     pg_schedule **fitted)
{
    return pg_trace_compare_as(run, NULL, opts, tol, out, fitted);
}

int pg_trace_compare_as(const pg_run *run, const char *schedule, const pg_model_opts *opts, pg_tolerance tol,
                        pg_trace_cmp *out, pg_schedule **fitted)
{
    int rc = -1;
    pg_schedule *s = NULL;
    pg_prediction meas, pred;
    memset(out, 0, sizeof *out);
    if (fitted)
        *fitted = NULL;
    if (pg_schedule_fit_as(run, schedule, &s) != 0) {
        pg_fail_context("fitting the model to the trace");
        goto done;
    }
    const double clock_hz = run->kernel.sm_clock_hz > 0 ? run->kernel.sm_clock_hz : run->trace.clock_hz;
    if (pg_trace_summarize_period(&run->trace, clock_hz, pg_schedule_period_phase(s), &meas) != 0) {
        pg_fail_context("summarizing the trace");
        goto done;
    }
    if (pg_model_predict(s, opts, &pred) != 0) {
        pg_fail_context("predicting with the fitted %s schedule", pg_schedule_name(s));
        goto done;
    }
    pg_trace_compare_stats(&meas, &pred, tol, out);
    snprintf(out->schedule, sizeof out->schedule, "%s", pg_schedule_name(s));
    out->timed_trace_ms = timing_median(run, "fused_trace");
    out->timed_production_ms = timing_median(run, "fused");
    if (fitted) {
        *fitted = s;
        s = NULL;
    }
    rc = 0;
done:
    pg_schedule_free(s);
    return rc;
}

void pg_trace_cmp_print(FILE *f, const pg_trace_cmp *c)
{
    fprintf(f, "  model: %s schedule fitted to the trace; tolerance %.3g%% or %.0f cycles, whichever is larger\n",
            c->schedule, c->tol.rel * 100, c->tol.abs_cycles);
    fprintf(f, "  measured: tile period %.1f cycles, wall %.4f ms; model: tile period %.1f cycles (deterministic %.1f), "
               "wall %.4f ms, bottleneck %s\n",
            c->measured.tile_period, c->measured.wall_ms, c->predicted.tile_period,
            c->predicted.cycle_time_deterministic, c->predicted.wall_ms, c->predicted.bottleneck);
    if (isfinite(c->timed_trace_ms) || isfinite(c->timed_production_ms))
        fprintf(f, "  timed by the runner (median): trace build %.4f ms, production build %.4f ms\n", c->timed_trace_ms,
                c->timed_production_ms);
    if (c->predicted.critical_cycle[0])
        fprintf(f, "  critical cycle: %s\n", c->predicted.critical_cycle);
    fprintf(f, "    %-28s %14s %14s %10s %10s\n", "figure", "measured", "model", "diff", "allowed");
    for (int i = 0; i < c->nrows; i++) {
        const pg_trace_cmp_row *r = &c->rows[i];
        int ms = strcmp(r->unit, "ms") == 0;
        fprintf(f, ms ? "    %-28s %14.4f %14.4f %+10.4f %10.4f%s\n" : "    %-28s %14.1f %14.1f %+10.1f %10.1f%s\n",
                r->name, r->measured, r->predicted, r->predicted - r->measured, r->allowed,
                r->flagged ? "  <-- outside tolerance" : "");
    }
    fprintf(f, "  %d of %d figures outside tolerance\n", c->flagged, c->nrows);
}

void pg_trace_cmp_json(pg_json *j, const pg_trace_cmp *c)
{
    pg_json_object_begin(j);
    pg_json_kv_string(j, "schedule", c->schedule);
    pg_json_kv_number(j, "tolerance_rel", c->tol.rel);
    pg_json_kv_number(j, "tolerance_abs_cycles", c->tol.abs_cycles);
    pg_json_kv_int(j, "flagged", c->flagged);
    pg_json_kv_bool(j, "pass", c->flagged == 0);
    pg_json_kv_string(j, "bottleneck", c->predicted.bottleneck);
    pg_json_kv_string(j, "critical_cycle", c->predicted.critical_cycle);
    pg_json_kv_number(j, "deterministic_cycle_time", c->predicted.cycle_time_deterministic);
    pg_json_kv_number(j, "clark_tile_period", c->predicted.clark_tile_period);
    pg_json_kv_number(j, "timed_trace_ms", c->timed_trace_ms);
    pg_json_kv_number(j, "timed_production_ms", c->timed_production_ms);
    pg_json_key(j, "figures");
    pg_json_array_begin(j);
    for (int i = 0; i < c->nrows; i++) {
        const pg_trace_cmp_row *r = &c->rows[i];
        pg_json_object_begin(j);
        pg_json_kv_string(j, "name", r->name);
        pg_json_kv_string(j, "unit", r->unit);
        pg_json_kv_number(j, "measured", r->measured);
        pg_json_kv_number(j, "model", r->predicted);
        pg_json_kv_number(j, "allowed", r->allowed);
        pg_json_kv_bool(j, "flagged", r->flagged);
        pg_json_object_end(j);
    }
    pg_json_array_end(j);
    pg_json_object_end(j);
}
