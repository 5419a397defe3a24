#include "sweep.h"

#include <math.h>
#include <string.h>

#include "pg_error.h"
#include "pg_svg.h"

double pg_prediction_stat_mean(const pg_prediction *p, const char *name)
{
    for (int i = 0; i < p->nwaits; i++)
        if (strcmp(p->waits[i].name, name) == 0)
            return p->waits[i].mean;
    for (int i = 0; i < p->nphases; i++)
        if (strcmp(p->phases[i].name, name) == 0)
            return p->phases[i].mean;
    return NAN;
}

int pg_sweep_run(pg_schedule *s, const char *param, const double *xs, int n, const pg_model_opts *o,
                 const char *wait_name, pg_sweep *out)
{
    memset(out, 0, sizeof *out);
    if (n < 1 || n > PG_SWEEP_MAX)
        return pg_fail("sweep of %s: %d points (1..%d)", param, n, PG_SWEEP_MAX);
    snprintf(out->param, sizeof out->param, "%s", param);
    snprintf(out->wait_name, sizeof out->wait_name, "%s", wait_name ? wait_name : "");
    out->transition_x = NAN;
    for (int i = 0; i < n; i++) {
        char assign[96];
        pg_prediction pr;
        snprintf(assign, sizeof assign, "%s=%.17g", param, xs[i]);
        if (pg_schedule_set(s, assign, 0) != 0 || pg_model_predict(s, o, &pr) != 0)
            return pg_fail_context("sweep of %s at %g", param, xs[i]);
        out->x[i] = xs[i];
        out->tile_period[i] = pr.tile_period;
        out->wait_mean[i] = wait_name ? pg_prediction_stat_mean(&pr, wait_name) : NAN;
        out->wall_ms[i] = pr.wall_ms;
        out->tflops[i] = pr.tflops;
        snprintf(out->bottleneck[i], sizeof out->bottleneck[i], "%s", pr.bottleneck);
        if (i > 0 && isnan(out->transition_x) && strcmp(out->bottleneck[i], out->bottleneck[i - 1]) != 0)
            out->transition_x = 0.5 * (xs[i] + xs[i - 1]);
        out->n = i + 1;
    }
    /* a wait "off" is below 2% of its largest value along the sweep (and
     * below 20 cycles): Monte Carlo noise never makes it exactly zero */
    out->wait_off_x = NAN;
    double wmax = 0;
    for (int i = 0; i < n; i++)
        if (isfinite(out->wait_mean[i]) && out->wait_mean[i] > wmax)
            wmax = out->wait_mean[i];
    double thr = fmin(20.0, 0.02 * wmax);
    for (int i = 1; i < n && wmax > 0; i++) {
        int off_a = out->wait_mean[i - 1] <= thr, off_b = out->wait_mean[i] <= thr;
        if (off_a != off_b) {
            out->wait_off_x = 0.5 * (xs[i] + xs[i - 1]);
            break;
        }
    }
    return 0;
}

int pg_sweep_svg(const char *path, const char *title, const pg_sweep *s, const double *mx, const double *my, int nm,
                 const char *points_label, const double *mwait)
{
    char xlabel[96], wlabel[64];
    snprintf(xlabel, sizeof xlabel, "%s (cycles)", s->param);
    snprintf(wlabel, sizeof wlabel, "model %s mean", s->wait_name);
    pg_svg_xy plot = {
        .title = title,
        .xlabel = xlabel,
        .ylabel = "cycles",
        .nseries = 1,
        .series = {{"model tile period", s->x, s->tile_period, s->n, PG_SVG_LINE | PG_SVG_POINTS}},
    };
    if (s->wait_name[0])
        plot.series[plot.nseries++] = (pg_svg_series){wlabel, s->x, s->wait_mean, s->n, PG_SVG_LINE};
    char mwlabel[64];
    snprintf(mwlabel, sizeof mwlabel, "measured %s mean", s->wait_name);
    if (nm > 0)
        plot.series[plot.nseries++] = (pg_svg_series){points_label ? points_label : "measured", mx, my, nm, PG_SVG_POINTS};
    if (nm > 0 && mwait)
        plot.series[plot.nseries++] = (pg_svg_series){mwlabel, mx, mwait, nm, PG_SVG_POINTS};
    char off_label[64];
    if (isfinite(s->transition_x)) {
        plot.mark_x[plot.nmarks] = s->transition_x;
        plot.mark_label[plot.nmarks++] = "bottleneck changes";
    }
    if (isfinite(s->wait_off_x)) {
        snprintf(off_label, sizeof off_label, "%s turns off", s->wait_name);
        plot.mark_x[plot.nmarks] = s->wait_off_x;
        plot.mark_label[plot.nmarks++] = off_label;
    }
    return pg_svg_xy_save(path, &plot);
}

void pg_sweep_json(pg_json *j, const pg_sweep *s)
{
    pg_json_object_begin(j);
    pg_json_kv_string(j, "param", s->param);
    pg_json_key(j, "x");
    pg_json_number_array(j, s->x, s->n);
    pg_json_key(j, "tile_period");
    pg_json_number_array(j, s->tile_period, s->n);
    pg_json_kv_string(j, "wait", s->wait_name);
    pg_json_key(j, "wait_mean");
    pg_json_number_array(j, s->wait_mean, s->n);
    pg_json_key(j, "wall_ms");
    pg_json_number_array(j, s->wall_ms, s->n);
    pg_json_key(j, "tflops");
    pg_json_number_array(j, s->tflops, s->n);
    pg_json_key(j, "bottleneck");
    pg_json_array_begin(j);
    for (int i = 0; i < s->n; i++)
        pg_json_string(j, s->bottleneck[i]);
    pg_json_array_end(j);
    pg_json_kv_number(j, "transition_x", s->transition_x);
    pg_json_kv_number(j, "wait_off_x", s->wait_off_x);
    pg_json_object_end(j);
}
