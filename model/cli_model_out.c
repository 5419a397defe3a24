#include "cli_model_out.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pg_error.h"
#include "pg_json.h"
#include "pg_svg.h"
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
    pg_json_kv_number(j, "cycle_time_deterministic", p->cycle_time_deterministic);
    pg_json_kv_string(j, "critical_cycle", p->critical_cycle);
    pg_json_kv_string(j, "bottleneck", p->bottleneck);
    pg_json_kv_number(j, "clark_tile_period", p->clark_tile_period);
    pg_json_kv_number(j, "wall_ms", p->wall_ms);
    pg_json_kv_number(j, "tflops", p->tflops);
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
    if (isfinite(p->clark_tile_period))
        fprintf(f, "  Clark closed form       %.1f cycles (%+.1f%% vs Monte Carlo)\n", p->clark_tile_period,
                100 * (p->clark_tile_period / p->tile_period - 1));
    fprintf(f, "  wall clock              %.4f ms (%.0f units x %.0f tiles at %.4g GHz)\n", p->wall_ms,
            s->machine.units, s->machine.tiles / s->machine.units, s->machine.clock_hz / 1e9);
    fprintf(f, "  throughput              %.0f TFLOPS\n", p->tflops);
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

int fit_print_text(FILE *f, const pg_schedule *s, const pg_prediction *p, const pg_prediction *m, const pg_run *run)
{
    char v[64] = "";
    pg_schedule_option(s, "epi_delay", v, sizeof v);
    fprintf(f, "fit of schedule %s to the trace of kernel '%s' on %s (%lld rows, epi_delay %s)\n", s->name,
            run->kernel.name, run->kernel.device, (long long)run->trace.n, v[0] ? v : "-");
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
    return ferror(f) ? pg_fail("write error") : 0;
}

int fit_print_json(FILE *f, const pg_schedule *s, const pg_prediction *p, const pg_prediction *m, const pg_run *run)
{
    pg_json j;
    pg_json_init(&j, f, 1);
    pg_json_object_begin(&j);
    json_schedule(&j, s);
    pg_json_kv_string(&j, "kernel", run->kernel.name);
    pg_json_kv_int(&j, "trace_rows", run->trace.n);
    pg_json_key(&j, "model");
    pg_json_object_begin(&j);
    json_prediction_body(&j, p);
    pg_json_object_end(&j);
    pg_json_key(&j, "measured");
    pg_json_object_begin(&j);
    json_prediction_body(&j, m);
    pg_json_object_end(&j);
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
