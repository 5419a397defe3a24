#include "cli_model_out.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"
#include "pg_error.h"
#include "pg_json.h"
#include "pg_svg.h"
#include "predict_run.h"
#include "sched.h"

static void json_stat(pg_json *j, const pg_stat *st)
{
    pg_json_key(j, st->name);
    pg_json_object_begin(j);
    pg_json_kv_number(j, "mean", st->mean);
    pg_json_kv_number(j, "p50", st->p50);
    pg_json_kv_number(j, "p95", st->p95);
    pg_json_kv_number(j, "ci95", st->ci95);
    pg_json_object_end(j);
}

static void json_prediction_body(pg_json *j, const pg_prediction *p)
{
    pg_json_kv_number(j, "tile_period", p->tile_period);
    pg_json_kv_number(j, "tile_period_ci95", p->tile_period_ci95);
    pg_json_kv_number(j, "tile_period_chain", p->tile_period_chain);
    pg_json_kv_number(j, "cycle_time_deterministic", p->cycle_time_deterministic);
    pg_json_kv_string(j, "critical_cycle", p->critical_cycle);
    pg_json_kv_string(j, "bottleneck", p->bottleneck);
    pg_json_kv_number(j, "clark_tile_period", p->clark_tile_period);
    pg_json_kv_number(j, "wall_ms", p->wall_ms);
    pg_json_kv_number(j, "sm_clock_hz", p->clock_hz);
    pg_json_kv_number(j, "tflops", p->tflops);
    pg_json_kv_number(j, "dram_utilization", p->dram_utilization);
    pg_json_kv_number(j, "l2_working_set_bytes", p->l2_working_set);
    pg_json_kv_number(j, "l2_kept", p->l2_kept);
    pg_json_kv_number(j, "l2_kept_calibration", p->l2_kept_cal);
    pg_json_key(j, "waits");
    pg_json_object_begin(j);
    for (int i = 0; i < p->nwaits; i++)
        json_stat(j, &p->waits[i]);
    pg_json_object_end(j);
    pg_json_key(j, "phases");
    pg_json_object_begin(j);
    for (int i = 0; i < p->nphases; i++)
        json_stat(j, &p->phases[i]);
    pg_json_object_end(j);
}

static void json_schedule(pg_json *j, const pg_schedule *s)
{
    pg_json_kv_string(j, "schedule", s->name);
    pg_json_key(j, "options");
    pg_json_object_begin(j);
    for (int i = 0; i < s->noptions; i++)
        pg_json_kv_string(j, s->options[i].name, s->options[i].value);
    pg_json_object_end(j);
    pg_json_key(j, "overrides");
    pg_json_array_begin(j);
    for (int i = 0; i < s->noverrides; i++) {
        char b[128];
        snprintf(b, sizeof b, "%s%s%.6g", s->overrides[i].param, s->overrides[i].relative ? "+=" : "=",
                 s->overrides[i].value);
        pg_json_string(j, b);
    }
    pg_json_array_end(j);
}

int model_print_json(FILE *f, const pg_schedule *s, const pg_model_opts *o, const pg_prediction *p)
{
    pg_json j;
    pg_json_init(&j, f, 1);
    pg_json_object_begin(&j);
    json_schedule(&j, s);
    pg_json_kv_int(&j, "tiles", o->tiles);
    pg_json_kv_int(&j, "seed", (int64_t)o->seed);
    pg_json_kv_bool(&j, "deterministic", o->deterministic);
    json_prediction_body(&j, p);
    pg_json_object_end(&j);
    return pg_json_finish(&j);
}

static void print_stats(FILE *f, const char *title, const pg_stat *st, int n)
{
    fprintf(f, "  %-16s %10s %10s %10s %10s\n", title, "mean", "p50", "p95", "+-ci95");
    for (int i = 0; i < n; i++)
        fprintf(f, "  %-16s %10.1f %10.1f %10.1f %10.1f\n", st[i].name, st[i].mean, st[i].p50, st[i].p95, st[i].ci95);
}

int model_print_text(FILE *f, const pg_schedule *s, const pg_model_opts *o, const pg_prediction *p)
{
    fprintf(f, "schedule %s", s->name);
    for (int i = 0; i < s->noptions; i++)
        fprintf(f, " %s=%s", s->options[i].name, s->options[i].value);
    fprintf(f, "\n");
    for (int i = 0; i < s->noverrides; i++)
        fprintf(f, "  override %s %s %g\n", s->overrides[i].param, s->overrides[i].relative ? "+=" : "=",
                s->overrides[i].value);
    fprintf(f, "deterministic cycle time  %.1f cycles/tile\n", p->cycle_time_deterministic);
    fprintf(f, "  critical cycle          %s\n", p->critical_cycle);
    fprintf(f, "  bottleneck              %s\n", p->bottleneck);
    fprintf(f, "Monte Carlo (%lld tiles, seed %llu%s)\n", (long long)o->tiles, (unsigned long long)o->seed,
            o->deterministic ? ", deterministic" : "");
    fprintf(f, "  tile period             %.1f +- %.1f cycles (95%% CI)\n", p->tile_period, p->tile_period_ci95);
    if (isfinite(p->tile_period_chain))
        fprintf(f, "  steady chain            %.1f cycles (the period above is the run's own: each unit from an empty "
                   "pipeline, its first %d gaps left out)\n",
                p->tile_period_chain, PG_RUN_FILL_GAPS);
    if (p->startup_shift != 0)
        fprintf(f, "  start-up transient      %+.1f cycles of it (%.4g tiles per unit against the calibration's %.4g)\n",
                p->startup_shift, s->machine.tiles / s->machine.units, s->wu_tiles);
    if (isfinite(p->l2_kept) && (p->l2_kept > 0 || p->l2_kept_cal > 0))
        fprintf(f, "  L2 between launches     %.0f%% of the %.1f MB working set kept (l2reuse; the calibration's: %.0f%%)\n",
                100 * p->l2_kept, p->l2_working_set / 1e6, 100 * p->l2_kept_cal);
    if (isfinite(p->clark_tile_period))
        fprintf(f, "  Clark closed form       %.1f cycles (%+.1f%% vs Monte Carlo)\n", p->clark_tile_period,
                100 * (p->clark_tile_period / p->tile_period - 1));
    fprintf(f, "  wall clock              %.4f ms (%.0f units x %.0f tiles at %.4g GHz%s)\n", p->wall_ms,
            s->machine.units, s->machine.tiles / s->machine.units,
            (p->clock_hz > 0 ? p->clock_hz : s->machine.clock_hz) / 1e9,
            p->clock_hz > 0 ? ": the clock line's law at the power cap" : "");
    fprintf(f, "  throughput              %.0f TFLOPS\n", p->tflops);
    if (isfinite(p->dram_utilization))
        fprintf(f, "  DRAM bandwidth share    %.1f%% (%s mean %.1f at that load)\n", 100 * p->dram_utilization,
                s->dists[s->bw_dist].name, p->bandwidth_phase_mean);
    print_stats(f, "waits", p->waits, p->nwaits);
    print_stats(f, "phases", p->phases, p->nphases);
    return ferror(f) ? pg_fail("write error") : 0;
}

/* ------------------------------------------------------------------ sweeps */

int sweep_print_text(FILE *f, const pg_schedule *s, const pg_sweep *sw)
{
    const pg_prediction *p0 = &sw->pred[0];
    fprintf(f, "sweep %s of schedule %s (%d points)\n", sw->param, s->name, sw->npoints);
    fprintf(f, "%12s %10s %9s %8s", sw->param, "period", "wall_ms", "TFLOPS");
    for (int w = 0; w < p0->nwaits; w++)
        fprintf(f, " %12s", p0->waits[w].name);
    fprintf(f, "  bottleneck\n");
    for (int i = 0; i < sw->npoints; i++) {
        const pg_prediction *p = &sw->pred[i];
        fprintf(f, "%12.6g %10.1f %9.4f %8.0f", sw->x[i], p->tile_period, p->wall_ms, p->tflops);
        for (int w = 0; w < p0->nwaits; w++) {
            const pg_stat *st = pg_prediction_find(p, p0->waits[w].name);
            fprintf(f, " %12.1f", st ? st->mean : NAN);
        }
        fprintf(f, "  %s\n", p->bottleneck);
    }
    fprintf(f, "transitions:\n");
    if (sw->nevents == 0)
        fprintf(f, "  none in [%g, %g]\n", sw->x[0], sw->x[sw->npoints - 1]);
    for (int e = 0; e < sw->nevents; e++)
        fprintf(f, "  %s = %.6g: %s\n", sw->param, sw->events[e].x, sw->events[e].what);
    return ferror(f) ? pg_fail("write error") : 0;
}

int sweep_print_json(FILE *f, const pg_schedule *s, const pg_sweep *sw)
{
    pg_json j;
    pg_json_init(&j, f, 1);
    pg_json_object_begin(&j);
    json_schedule(&j, s);
    pg_json_kv_string(&j, "vary", sw->param);
    pg_json_key(&j, "points");
    pg_json_array_begin(&j);
    for (int i = 0; i < sw->npoints; i++) {
        pg_json_object_begin(&j);
        pg_json_kv_number(&j, "x", sw->x[i]);
        json_prediction_body(&j, &sw->pred[i]);
        pg_json_object_end(&j);
    }
    pg_json_array_end(&j);
    pg_json_key(&j, "transitions");
    pg_json_array_begin(&j);
    for (int e = 0; e < sw->nevents; e++) {
        pg_json_object_begin(&j);
        pg_json_kv_number(&j, "x", sw->events[e].x);
        pg_json_kv_string(&j, "what", sw->events[e].what);
        pg_json_object_end(&j);
    }
    pg_json_array_end(&j);
    pg_json_object_end(&j);
    return pg_json_finish(&j);
}

int sweep_write_svg(const char *path, const pg_schedule *s, const pg_sweep *sw)
{
    const pg_prediction *p0 = &sw->pred[0];
    int ns = 1 + (p0->nwaits < PG_SVG_MAX_SERIES - 1 ? p0->nwaits : PG_SVG_MAX_SERIES - 1);
    double *y = calloc((size_t)ns * (size_t)sw->npoints, sizeof(double));
    if (!y)
        return pg_fail("out of memory");
    pg_svg_xy plot;
    memset(&plot, 0, sizeof plot);
    char title[160], xl[96];
    snprintf(title, sizeof title, "%s: tile period and waits vs %s", s->name, sw->param);
    snprintf(xl, sizeof xl, "%s", sw->param);
    plot.title = title;
    plot.xlabel = xl;
    plot.ylabel = "cycles per tile";
    plot.nseries = ns;
    for (int k = 0; k < ns; k++) {
        for (int i = 0; i < sw->npoints; i++) {
            const pg_stat *st = k ? pg_prediction_find(&sw->pred[i], p0->waits[k - 1].name) : NULL;
            y[k * sw->npoints + i] = k == 0 ? sw->pred[i].tile_period : (st ? st->mean : NAN);
        }
        plot.series[k].label = k == 0 ? "tile period" : p0->waits[k - 1].name;
        plot.series[k].x = sw->x;
        plot.series[k].y = y + k * sw->npoints;
        plot.series[k].n = sw->npoints;
        plot.series[k].style = PG_SVG_LINE | (k == 0 ? PG_SVG_POINTS : 0);
    }
    char labels[PG_SVG_MAX_MARKS][48];
    for (int e = 0; e < sw->nevents && plot.nmarks < PG_SVG_MAX_MARKS; e++) {
        snprintf(labels[plot.nmarks], sizeof labels[0], "%.40s", sw->events[e].what);
        plot.mark_x[plot.nmarks] = sw->events[e].x;
        plot.mark_label[plot.nmarks] = labels[plot.nmarks];
        plot.nmarks++;
    }
    int rc = pg_svg_xy_save(path, &plot);
    free(y);
    return rc;
}

/* --------------------------------------------------------------------- fit */

static void compare_line(FILE *f, const char *name, double model, double meas)
{
    fprintf(f, "  %-16s %12.1f %12.1f %+9.1f%%\n", name, model, meas, 100 * (model / meas - 1));
}

/* The start-up transient a `warmup` line measured: what a run with fewer
 * tiles per unit pays per tile (docs/experiments.md M53) */
static void startup_print(FILE *f, const pg_schedule *s)
{
    if (!s->wu_line || !(s->wu_tiles >= 2))
        return;
    fprintf(f, "  start-up transient (warmup): the first");
    int n = 0;
    for (int i = 0; i < SCH_WU_NKEYS; i++)
        if (isfinite(s->wu_e[i]) && (sch_wu_k[i] == 8 || sch_wu_k[i] == 16 || sch_wu_k[i] == 32))
            fprintf(f, "%s %d", n++ ? " /" : "", sch_wu_k[i]);
    fprintf(f, "%s tile gaps per unit take", n ? "" : " (none measured)");
    for (int i = 0, k = 0; i < SCH_WU_NKEYS; i++)
        if (isfinite(s->wu_e[i]) && (sch_wu_k[i] == 8 || sch_wu_k[i] == 16 || sch_wu_k[i] == 32))
            fprintf(f, "%s %+.0f", k++ ? " /" : "", s->wu_e[i]);
    fprintf(f, " cycles over the steady period (%+.0f over all %.0f tiles)\n", s->wu_total, s->wu_tiles);
}

/* What each fitted latency rests on: the tiles where it held a wait, of the
 * tiles that observed it (docs/experiments.md M55: bres's store drain holds
 * 2% of its turns at zero delay, so its fit is the tail of its values, and
 * a probe that makes it bind tests what the calibration could not see). */
static void evidence_print(FILE *f, const pg_schedule *s)
{
    int n = 0;
    for (int d = 0; d < s->ndists; d++) {
        const sch_dist *x = &s->dists[d];
        if (x->fit_bound <= 0)
            continue;
        if (n++ == 0)
            fprintf(f, "  latencies read off the waits they held (tiles where each held one, of the tiles that saw it):\n   ");
        const char *sep = n > 1 ? ";" : "";
        if (x->fit_seen > 0)
            fprintf(f, "%s %s %lld of %lld (%.1f%%)", sep, x->name, (long long)x->fit_bound, (long long)x->fit_seen,
                    100.0 * (double)x->fit_bound / (double)x->fit_seen);
        else
            fprintf(f, "%s %s %lld tiles", sep, x->name, (long long)x->fit_bound);
    }
    if (n)
        fputc('\n', f);
    for (int d = 0; d < s->ndists; d++)
        if (fit_latency_is_thin(&s->dists[d]))
            fprintf(f, "  %s held under %.0f%% of its waits: the fit knows its longest values only; a run where it "
                       "binds more tests it\n",
                    s->dists[d].name, 100 * FIT_FEW_BOUND_SHARE);
}

/* The option a `rowfirst ... option=NAME above=C` line had the fit set
 * from its extra (M146), and whether the trace or the caller chose it */
static void rowfirst_option_print(FILE *f, const pg_schedule *s)
{
    char v[32];
    if (!s->rf_line || !s->rf_option[0] || pg_schedule_option(s, s->rf_option, v, sizeof v) != 0)
        return;
    if (s->rf_option_by_caller)
        fprintf(f, "  option %s = %s, as the caller set it (the trace's rowfirst extra: %.0f cycles)\n", s->rf_option, v,
                s->rf_extra);
    else if (!s->rf_extra_fitted)
        fprintf(f, "  option %s = %s, as written: the fit could not measure the rowfirst extra on this trace\n",
                s->rf_option, v);
    else
        fprintf(f, "  option %s = %s, read off the trace: its rowfirst extra is %.0f cycles (1 over %.0f)\n",
                s->rf_option, v, s->rf_extra, s->rf_above);
}

/* a loop whose ring holds the whole tile (fit_evidence.c, M123) */
static void loop_unmeasured_print(FILE *f, const pg_schedule *s)
{
    char note[256];
    if (fit_loop_unmeasured(s, note, sizeof note))
        fprintf(f, "  note: %s\n", note);
}

/* a `tmaqueue` penalty the fit could not settle (tmaqueue_fit.c, M120) */
static void tmaqueue_print(FILE *f, const pg_schedule *s)
{
    if (!s->tq_on || s->tq_fit_state != SCH_TQ_UNSETTLED)
        return;
    fprintf(f,
            "  tmaqueue: the penalty did not settle on this trace (the loads in the store's window still %+.0f cycles "
            "against the others at penalty %.0f): they differ for another reason than the queue; kept the written "
            "penalty=%.9g\n",
            s->tq_fit_excess, s->tq_fit_reached, s->tq_penalty);
}

int fit_print_text(FILE *f, const pg_schedule *s, const pg_prediction *p, const pg_prediction *m, const pg_run *run)
{
    char v[64] = "";
    pg_schedule_option(s, "epi_delay", v, sizeof v);
    if (run->kernel.present)
        fprintf(f, "fit of schedule %s to the trace of kernel '%s' on %s (%lld rows, epi_delay %s)\n", s->name,
                run->kernel.name, run->kernel.device, (long long)run->trace.n, v[0] ? v : "-");
    else
        fprintf(f, "fit of schedule %s to the trace of kernel '%s' (%lld rows)\n", s->name, run->trace.kernel,
                (long long)run->trace.n);
    if (s->table)
        fprintf(f, "  per-tile samples: %lld tiles x %d phase columns\n", (long long)s->table->rows, s->table->cols);
    fprintf(f, "  %-16s %12s %12s %10s\n", "", "model", "measured", "diff");
    compare_line(f, "tile_period", p->tile_period, m->tile_period);
    for (int i = 0; i < m->nwaits; i++) {
        const pg_stat *q = pg_prediction_find(p, m->waits[i].name);
        if (q)
            compare_line(f, m->waits[i].name, q->mean, m->waits[i].mean);
    }
    for (int i = 0; i < m->nphases; i++) {
        const pg_stat *q = pg_prediction_find(p, m->phases[i].name);
        if (q)
            compare_line(f, m->phases[i].name, q->mean, m->phases[i].mean);
    }
    fprintf(f, "  critical cycle: %s (bottleneck %s)\n", p->critical_cycle, p->bottleneck);
    startup_print(f, s);
    rowfirst_option_print(f, s);
    evidence_print(f, s);
    tmaqueue_print(f, s);
    loop_unmeasured_print(f, s);
    return ferror(f) ? pg_fail("write error") : 0;
}

/* evidence_print's figures: "latency_evidence": [{name, tiles_seen, tiles_bound}] */
static void json_evidence(pg_json *j, const pg_schedule *s)
{
    pg_json_key(j, "latency_evidence");
    pg_json_array_begin(j);
    for (int d = 0; d < s->ndists; d++) {
        const sch_dist *x = &s->dists[d];
        if (x->fit_bound <= 0)
            continue;
        pg_json_object_begin(j);
        pg_json_kv_string(j, "name", x->name);
        pg_json_kv_int(j, "tiles_seen", x->fit_seen);
        pg_json_kv_int(j, "tiles_bound", x->fit_bound);
        pg_json_object_end(j);
    }
    pg_json_array_end(j);
}

int fit_print_json(FILE *f, const pg_schedule *s, const pg_prediction *p, const pg_prediction *m, const pg_run *run)
{
    pg_json j;
    pg_json_init(&j, f, 1);
    pg_json_object_begin(&j);
    json_schedule(&j, s);
    pg_json_kv_string(&j, "kernel", run->kernel.present ? run->kernel.name : run->trace.kernel);
    pg_json_kv_int(&j, "trace_rows", run->trace.n);
    pg_json_key(&j, "model");
    pg_json_object_begin(&j);
    json_prediction_body(&j, p);
    pg_json_object_end(&j);
    pg_json_key(&j, "measured");
    pg_json_object_begin(&j);
    json_prediction_body(&j, m);
    pg_json_object_end(&j);
    json_evidence(&j, s);
    char note[256];
    fit_loop_unmeasured(s, note, sizeof note);
    pg_json_kv_string(&j, "loop_unmeasured", note);
    if (s->tq_on) {
        pg_json_key(&j, "tmaqueue_fit");
        pg_json_object_begin(&j);
        pg_json_kv_bool(&j, "settled", s->tq_fit_state == SCH_TQ_SETTLED);
        pg_json_kv_number(&j, "penalty", s->tq_penalty);
        pg_json_kv_number(&j, "excess_left", s->tq_fit_excess);
        pg_json_object_end(&j);
    }
    pg_json_object_end(&j);
    return pg_json_finish(&j);
}

/* ------------------------------------------------------------- seed rows */

static int within(double model, double meas, double rel, double abs_cycles)
{
    if (!isfinite(meas))
        return 1;
    return fabs(model - meas) <= rel * fabs(meas) || fabs(model - meas) <= abs_cycles;
}

int seed_validate(FILE *f, const pg_seed_row *rows, int n, const pg_model_opts *o, int json, int *all_ok)
{
    pg_json j;
    *all_ok = 1;
    if (json) {
        pg_json_init(&j, f, 1);
        pg_json_array_begin(&j);
    } else {
        fprintf(f, "%-11s %-7s %-5s | %-13s | %-13s | %-13s | %-13s | %-13s | %s\n", "row", "release", "warps",
                "tile m/p", "epi_wait m/p", "tma0_wait m/p", "ml_wait m/p", "wall_ms m/p", "ok");
    }
    for (int i = 0; i < n; i++) {
        const pg_seed_row *r = &rows[i];
        pg_schedule *s;
        pg_prediction p;
        char note[128];
        if (pg_seed_row_schedule(rows, n, i, &s, note, sizeof note) || pg_model_predict(s, o, &p)) {
            pg_schedule_free(s);
            return pg_fail_context("row %s", r->experiment);
        }
        pg_schedule_free(s);
        const pg_stat *ew = pg_prediction_find(&p, "epi_wait"), *tw = pg_prediction_find(&p, "tma0_wait"),
                      *mw = pg_prediction_find(&p, "ml_wait");
        int ok_tile = within(p.tile_period, r->tile, 0.05, 0);
        int ok_epi = within(ew->mean, r->epi_wait, 0.20, 150), ok_tma = within(tw->mean, r->tma0_wait, 0.20, 150);
        int ok = ok_tile && ok_epi && ok_tma;
        if (!ok)
            *all_ok = 0;
        if (json) {
            pg_json_object_begin(&j);
            pg_json_kv_string(&j, "experiment", r->experiment);
            pg_json_kv_string(&j, "release_after", r->release_after);
            pg_json_kv_int(&j, "epilogue_warps", r->epilogue_warps);
            pg_json_kv_string(&j, "note", note);
            pg_json_kv_number(&j, "tile_measured", r->tile);
            pg_json_kv_number(&j, "tile_predicted", p.tile_period);
            pg_json_kv_number(&j, "epi_wait_measured", r->epi_wait);
            pg_json_kv_number(&j, "epi_wait_predicted", ew->mean);
            pg_json_kv_number(&j, "tma0_wait_measured", r->tma0_wait);
            pg_json_kv_number(&j, "tma0_wait_predicted", tw->mean);
            pg_json_kv_number(&j, "ml_wait_measured", r->ml_wait);
            pg_json_kv_number(&j, "ml_wait_predicted", mw ? mw->mean : NAN);
            pg_json_kv_number(&j, "wall_ms_measured", r->wall_ms);
            pg_json_kv_number(&j, "wall_ms_predicted", p.wall_ms);
            pg_json_kv_number(&j, "cycle_time_deterministic", p.cycle_time_deterministic);
            pg_json_kv_string(&j, "bottleneck", p.bottleneck);
            pg_json_kv_bool(&j, "within_tolerance", ok);
            pg_json_object_end(&j);
        } else {
            fprintf(f, "%-11s %-7s %-5d | %6.0f %6.0f | %6.0f %6.0f | %6.0f %6.0f | %6.0f %6.0f | %6.3f %6.3f | %s%s%s%s",
                    r->experiment, r->release_after, r->epilogue_warps, r->tile, p.tile_period, r->epi_wait, ew->mean,
                    r->tma0_wait, tw->mean, r->ml_wait, mw ? mw->mean : NAN, r->wall_ms, p.wall_ms,
                    ok ? "yes" : "NO", ok_tile ? "" : " tile", ok_epi ? "" : " epi", ok_tma ? "" : " tma0");
            if (note[0])
                fprintf(f, " (%s)", note);
            fprintf(f, "\n");
        }
    }
    if (json) {
        pg_json_array_end(&j);
        return pg_json_finish(&j);
    }
    fprintf(f, "m = measured (b200-calibration.csv), p = predicted; tolerance: tile 5%%, waits 20%% or 150 cycles\n");
    return ferror(f) ? pg_fail("write error") : 0;
}

/* ------------------------------------------------------- epi-delay sweep */

static void sort_by_delay(pg_delay_check *c)
{
    for (int i = 1; i < c->n; i++)
        for (int j = i; j > 0 && c->delay[j - 1] > c->delay[j]; j--) {
            double *arr[] = {c->delay, c->meas_period, c->pred_period, c->meas_idle, c->pred_idle, c->clock_hz};
            for (int q = 0; q < 6; q++) {
                double t = arr[q][j];
                arr[q][j] = arr[q][j - 1];
                arr[q][j - 1] = t;
            }
        }
}

/* Where idle(D) - idle(first) first reaches 10% of the first period (linear between points), NAN if never. */
static double onset(const double *delay, const double *idle, const double *period, int n)
{
    double rise = 0.10 * period[0];
    for (int i = 1; i < n; i++) {
        double a = idle[i - 1] - idle[0], b = idle[i] - idle[0];
        if (b >= rise && a < rise)
            return delay[i - 1] + (delay[i] - delay[i - 1]) * (rise - a) / (b - a);
    }
    return NAN;
}

/* A run of the sweep must be the zero-delay run at another delay: one that
 * differs in more (M, the ring, the GPU, the kernel) would be predicted as
 * if it did not. */
static int only_the_delay_differs(const pg_run *base, const pg_run *run, const pg_schedule *fit, const char *path)
{
    pg_whatif w;
    if (pg_whatif_derive(base, run, fit, NULL, &w))
        return pg_fail_context("%s", path);
    if (w.why_not[0])
        return pg_fail("%s is not the zero-delay run at another delay: %s", path, w.why_not);
    for (int i = 0; i < w.n; i++)
        if (strncmp(w.set[i], "epi_delay=", 10) != 0 && strncmp(w.set[i], "mainloop_delay=", 15) != 0)
            return pg_fail("%s differs from the zero-delay run in more than the delay (%s): validate-delays "
                           "checks one sweep; `pegemm model validate` predicts runs that differ in more",
                           path, w.set[i]);
    return 0;
}

int pg_model_validate_delays(const char *const *paths, int n, const pg_model_opts *o, pg_delay_check *out)
{
    return pg_model_validate_delays_ex(paths, n, o, 0, out);
}

int pg_model_validate_delays_ex(const char *const *paths, int n, const pg_model_opts *o, int at_run_clock,
                                pg_delay_check *out)
{
    return pg_model_validate_delays_as(paths, n, o, at_run_clock, NULL, out);
}

int pg_model_validate_delays_as(const char *const *paths, int n, const pg_model_opts *o, int at_run_clock,
                                const char *schedule, pg_delay_check *out)
{
    memset(out, 0, sizeof *out);
    if (n < 2 || n > PG_DELAYS_MAX)
        return pg_fail("give 2..%d runs of one --epi-delay or --mainloop-delay sweep", PG_DELAYS_MAX);
    pg_run *runs = calloc((size_t)n, sizeof *runs);
    pg_schedule *fit = NULL;
    int rc = -1, base = -1;
    if (!runs)
        return pg_fail("out of memory");
    for (int i = 0; i < n; i++) {
        if (pg_run_read(paths[i], &runs[i], PG_READ_TRACE))
            goto done;
        if (runs[i].trace.n == 0) {
            pg_fail("%s has no trace", paths[i]);
            goto done;
        }
        if (runs[i].kernel.epi_delay == 0 && runs[i].kernel.mainloop_delay == 0 && base < 0)
            base = i;
        if (runs[i].kernel.mainloop_delay != 0)
            out->mainloop = 1;
    }
    for (int i = 0; i < n; i++)
        if (out->mainloop && runs[i].kernel.epi_delay != 0) {
            pg_fail("%s has --epi-delay %lld in a --mainloop-delay sweep: give one sweep at a time", paths[i],
                    (long long)runs[i].kernel.epi_delay);
            goto done;
        }
    if (base < 0) {
        pg_fail("none of the runs has --epi-delay 0 and --mainloop-delay 0 (the fit uses the zero-delay trace only)");
        goto done;
    }
    if (pg_schedule_fit_as(&runs[base], schedule, &fit)) {
        pg_fail_context("fitting %s", paths[base]);
        goto done;
    }
    out->n = n;
    out->base = base;
    for (int i = 0; i < n; i++) {
        pg_prediction m, p;
        pg_schedule *c = NULL;
        char a[64];
        if (only_the_delay_differs(&runs[base], &runs[i], fit, paths[i]))
            goto done;
        if (pg_schedule_match_trace(fit, &runs[i].trace)) {
            pg_fail_context("%s", paths[i]);
            goto done;
        }
        if (pg_trace_summarize_period(&runs[i].trace, runs[i].kernel.sm_clock_hz, pg_schedule_period_phase(fit), &m) ||
            pg_schedule_clone(fit, &c))
            goto done;
        const int64_t delay = out->mainloop ? runs[i].kernel.mainloop_delay : runs[i].kernel.epi_delay;
        snprintf(a, sizeof a, "%s=%lld", out->mainloop ? "mainloop_delay" : "epi_delay", (long long)delay);
        int r = pg_schedule_set(c, a, 0);
        out->clock_hz[i] = runs[i].kernel.sm_clock_hz;
        if (!r && at_run_clock && runs[i].kernel.sm_clock_hz > 0 && runs[base].kernel.sm_clock_hz > 0) {
            snprintf(a, sizeof a, "mem_clock_hz=%.17g", runs[base].kernel.sm_clock_hz);
            r = pg_schedule_set(c, a, 0);
            snprintf(a, sizeof a, "clock_hz=%.17g", runs[i].kernel.sm_clock_hz);
            r = r || pg_schedule_set(c, a, 0);
        }
        /* at the run's measured clock the clock line's law is not wanted */
        r = r || (at_run_clock ? pg_model_predict(c, o, &p) : pg_model_predict_clocked(fit, c, o, &p));
        pg_schedule_free(c);
        if (r)
            goto done;
        const pg_stat *mi = pg_prediction_find(&m, "tensor_idle"), *pi = pg_prediction_find(&p, "tensor_idle");
        out->delay[i] = (double)delay;
        out->meas_period[i] = m.tile_period;
        out->pred_period[i] = p.tile_period;
        out->meas_idle[i] = mi ? mi->mean : NAN;
        out->pred_idle[i] = pi ? pi->mean : NAN;
    }
    sort_by_delay(out);
    /* the transition: tensor_idle turning on (epilogue sweep), or the period
     * starting to follow the spin (mainloop sweep: idle falls there) */
    out->onset_measured = onset(out->delay, out->mainloop ? out->meas_period : out->meas_idle, out->meas_period, n);
    out->onset_predicted = onset(out->delay, out->mainloop ? out->pred_period : out->pred_idle, out->pred_period, n);
    rc = 0;
done:
    for (int i = 0; i < n; i++)
        pg_run_free(&runs[i]);
    free(runs);
    pg_schedule_free(fit);
    return rc;
}

int delays_validate(FILE *f, const char *const *paths, int n, const pg_model_opts *o, const char *schedule, int json,
                    int *all_ok)
{
    pg_delay_check c;
    pg_json j;
    *all_ok = 1;
    if (pg_model_validate_delays_as(paths, n, o, 0, schedule, &c))
        return -1;
    double on_m = c.onset_measured, on_p = c.onset_predicted;
    int on_ok = isfinite(on_m) && isfinite(on_p) && fabs(on_p - on_m) <= 0.10 * on_m;
    if (!on_ok)
        *all_ok = 0;
    if (json) {
        pg_json_init(&j, f, 1);
        pg_json_object_begin(&j);
        pg_json_kv_string(&j, "fitted_on", paths[c.base]);
        pg_json_kv_string(&j, "swept", c.mainloop ? "mainloop_delay" : "epi_delay");
        pg_json_key(&j, "points");
        pg_json_array_begin(&j);
    } else {
        fprintf(f, "fit on %s (delay 0); --%s sweep; tile period and tensor_idle in cycles per tile\n",
                paths[c.base], c.mainloop ? "mainloop-delay" : "epi-delay");
        fprintf(f, "(self-fit: the run the model was fitted on, reproduced by construction; out-of-sample: a "
                   "prediction of a run it never saw)\n");
        fprintf(f, "%8s %8s %10s %10s %8s %10s %10s  %-13s %s\n", "delay", "MHz", "measured", "predicted", "diff",
                "idle meas", "idle pred", "kind", "ok");
    }
    int oos = 0, oos_ok = 0;
    for (int i = 0; i < c.n; i++) {
        double d = c.pred_period[i] / c.meas_period[i] - 1;
        int ok = fabs(d) <= 0.05;
        const int self = i == c.base;
        if (!ok)
            *all_ok = 0;
        if (!self) {
            oos++;
            oos_ok += ok;
        }
        if (json) {
            pg_json_object_begin(&j);
            pg_json_kv_number(&j, c.mainloop ? "mainloop_delay" : "epi_delay", c.delay[i]);
            pg_json_kv_number(&j, "sm_clock_hz", c.clock_hz[i]);
            pg_json_kv_number(&j, "tile_period_measured", c.meas_period[i]);
            pg_json_kv_number(&j, "tile_period_predicted", c.pred_period[i]);
            pg_json_kv_number(&j, "tensor_idle_measured", c.meas_idle[i]);
            pg_json_kv_number(&j, "tensor_idle_predicted", c.pred_idle[i]);
            pg_json_kv_bool(&j, "within_5_percent", ok);
            pg_json_kv_string(&j, "kind", self ? "self-fit" : "out-of-sample");
            pg_json_object_end(&j);
        } else {
            fprintf(f, "%8.0f %8.1f %10.1f %10.1f %+7.1f%% %10.1f %10.1f  %-13s %s\n", c.delay[i], c.clock_hz[i] / 1e6,
                    c.meas_period[i], c.pred_period[i], 100 * d, c.meas_idle[i], c.pred_idle[i],
                    self ? "self-fit" : "out-of-sample", ok ? "yes" : "NO");
        }
    }
    if (json) {
        pg_json_array_end(&j);
        pg_json_kv_number(&j, "idle_onset_measured", on_m);
        pg_json_kv_number(&j, "idle_onset_predicted", on_p);
        pg_json_kv_bool(&j, "onset_within_10_percent", on_ok);
        pg_json_kv_int(&j, "out_of_sample_runs", oos);
        pg_json_kv_int(&j, "out_of_sample_within_5_percent", oos_ok);
        pg_json_kv_bool(&j, "out_of_sample_pass", oos_ok == oos && on_ok);
        pg_json_object_end(&j);
        return pg_json_finish(&j);
    }
    fprintf(f, "%s: measured %.0f, predicted %.0f cycles of delay (%+.1f%%) %s\n",
            c.mainloop ? "onset (tile period up by 10% of the zero-delay period)"
                       : "idle onset (tensor_idle up by 10% of the zero-delay period)",
            on_m, on_p, 100 * (on_p / on_m - 1), on_ok ? "ok" : "NOT within 10%");
    fprintf(f, "out-of-sample sweep check: %d of %d predicted runs within 5%%, onset %s: %s\n", oos_ok, oos,
            on_ok ? "within 10%" : "NOT within 10%", oos_ok == oos && on_ok ? "PASS" : "FAIL");
    return ferror(f) ? pg_fail("write error") : 0;
}
