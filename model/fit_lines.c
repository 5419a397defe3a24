/* The schedule lines' fits, registered in one table: a line that fits
 * something adds its row here and its hooks in its own LINE_fit.c (the
 * line's parse is in LINE_parse.c, its engine part in LINE.c). */
#include <math.h>
#include <stdio.h>

#include "fit.h"
#include "pg_error.h"

typedef struct {
    const char *name;
    /* the run's tile does `ratio` x the schedule's work: the assignment that
     * scales the line's compute, written to out (0: nothing to scale; NULL:
     * the line never scales) */
    int (*scale_work)(const pg_schedule *s, double ratio, char *out, size_t cap);
    /* the same on a fitted schedule, whose lines were calibrated at the
     * calibration's work (a what-if: `pegemm model validate` at another K) */
    int (*work_whatif)(const pg_schedule *s, double ratio, char *out, size_t cap);
    /* the line's fit on the run (NULL: none); 0 without the line in s */
    int (*fit)(pg_schedule *s, const pg_run *run, const int64_t *row_of, int64_t ntiles);
} fit_line;

/* `bandwidth`: the pure tensor-core time of the run's tile (e.g. 64x192 for
 * the bres variant) */
static int bandwidth_scale_work(const pg_schedule *s, double ratio, char *out, size_t cap)
{
    if (s->bw_dist < 0 || ratio == 1)
        return 0;
    snprintf(out, cap, "bandwidth.compute=%.9g", s->bw_compute * ratio);
    return 1;
}


/* the phase a `kblocks` line replays */
static int kb_step_dist(const pg_schedule *s)
{
    const sch_node *kn = &s->nodes[s->kb_node];
    return s->roles[kn->role].steps[kn->step].dist;
}

/* `bandwidth`, fitted: the phase's mean grows by the extra work, its fitted
 * split into compute and stall kept; not where a `kblocks` line replays the
 * same phase (its loop's compute carries the work, and the phase's samples
 * are its spread about the calibrated mean) */
static int bandwidth_work_whatif(const pg_schedule *s, double ratio, char *out, size_t cap)
{
    if (s->bw_dist < 0 || ratio == 1 || (s->kb_node >= 0 && kb_step_dist(s) == s->bw_dist))
        return 0;
    snprintf(out, cap, "bandwidth.work=%.9g", s->bw_work + s->bw_compute * (ratio - 1));
    return 1;
}

/* `bandwidth`: the fitted phase was measured at the trace's period and
 * traffic, and with floor=device on the run's GPU's copy floor where
 * pegemm knows it (M72: an H200 trace against the H100's figure put a run
 * at another N +10.5% over) */
static int bandwidth_fit(pg_schedule *s, const pg_run *run, const int64_t *row_of, int64_t ntiles)
{
    (void)row_of, (void)ntiles;
    if (s->bw_dist < 0)
        return 0;
    char opt[96];
    const double floor = s->bw_floor_device ? fit_gpu_copy_floor(run->kernel.device) : 0;
    if (floor > 0) {
        snprintf(opt, sizeof opt, "bandwidth.bytes_per_s=%.9g", floor);
        if (pg_schedule_set(s, opt, 0))
            return -1;
    }
    pg_prediction m;
    if (pg_trace_summarize_period(&run->trace, s->machine.clock_hz,
                                  s->roles[s->period_role].steps[s->period_step].name, &m))
        return -1;
    if (isfinite(m.tile_period) && m.tile_period > 0) {
        snprintf(opt, sizeof opt, "bandwidth.calibrated_period=%.9g", m.tile_period);
        if (pg_schedule_set(s, opt, 0))
            return -1;
    }
    /* ... on the run's SMs: a what-if on units moves only the predicted share (M104) */
    snprintf(opt, sizeof opt, "bandwidth.cal_units=%.9g", s->machine.units);
    if (s->machine.units > 0 && pg_schedule_set(s, opt, 0))
        return -1;
    const pg_shape *sh = &run->problem.shape;
    if (sh->M > 0 && s->machine.tiles > 0) {
        /* the run's traffic, which is also the traffic its period was measured at */
        const double bytes = fit_bandwidth_bytes_per_tile(sh, s->machine.tiles);
        for (int i = 0; i < 2; i++) {
            snprintf(opt, sizeof opt, "bandwidth.%s=%.9g", i ? "cal_bytes_per_tile" : "bytes_per_tile", bytes);
            if (pg_schedule_set(s, opt, 0))
                return -1;
        }
    }
    return 0;
}

/* `contend`: each line's slowdown and the overlap its phase's column was
 * traced at (the column stays: the work at that overlap); before the
 * k-block replay, which solves a contended loop's latencies without its
 * contention (kblocks.c) */
static int contend_fit_line(pg_schedule *s, const pg_run *run, const int64_t *row_of, int64_t ntiles)
{
    return contend_fit(s, &run->trace, row_of, ntiles);
}

/* `kblocks`: ... and of its loop, set as the tile's (split over count, so
 * that a what-if on the count splits the run's tile work: `--set kblocks=`) */
static int kblocks_scale_work(const pg_schedule *s, double ratio, char *out, size_t cap)
{
    if (s->kb_node < 0)
        return 0;
    snprintf(out, cap, "kblocks.tile_compute=%.9g", s->kb_compute * s->kb_count * ratio);
    return 1;
}

/* the traced mean of the k-block loop's phase (NAN if the trace has none) */
static int kblocks_traced_mean(const pg_schedule *s, const pg_run *run, double *mean)
{
    pg_prediction m;
    const sch_node *kn = &s->nodes[s->kb_node];
    if (pg_trace_summarize_period(&run->trace, s->machine.clock_hz,
                                  s->roles[s->period_role].steps[s->period_step].name, &m))
        return -1;
    const pg_stat *ml = pg_prediction_find(&m, s->roles[kn->role].steps[kn->step].name);
    *mean = ml ? ml->mean : NAN;
    return 0;
}

/* `kblocks`, after the bandwidth calibration: the loop is fitted at the
 * trace's own period */
static int kblocks_fit_line(pg_schedule *s, const pg_run *run, const int64_t *row_of, int64_t ntiles)
{
    (void)row_of, (void)ntiles;
    double mean;
    if (s->kb_node < 0)
        return 0;
    return kblocks_traced_mean(s, run, &mean) || kblocks_fit(s, mean) ? -1 : 0;
}

/* `tmaqueue`: its penalty on the fitted k-block loop */
static int tmaqueue_fit_line(pg_schedule *s, const pg_run *run, const int64_t *row_of, int64_t ntiles)
{
    (void)row_of, (void)ntiles;
    double mean;
    if (s->kb_node < 0 || !s->tq_on)
        return 0;
    return kblocks_traced_mean(s, run, &mean) || tmaqueue_fit(s, mean) ? -1 : 0;
}

/* `storewin`: its gain on the trace's own tiles, before the k-block loop's
 * fit solves each tile's load latency net of it */
static int storewin_fit_line(pg_schedule *s, const pg_run *run, const int64_t *row_of, int64_t ntiles)
{
    return storewin_fit(s, &run->trace, row_of, ntiles);
}

/* `dramq`: the calibration's clock (the latencies it scales are the fitted
 * columns, its period the `bandwidth` line's calibrated_period) */
static int dramq_fit_line(pg_schedule *s, const pg_run *run, const int64_t *row_of, int64_t ntiles)
{
    (void)run, (void)row_of, (void)ntiles;
    return dramq_fit(s);
}

/* `l2reuse`: the calibration's working set, once the `bandwidth` line has
 * the run's bytes per tile */
static int l2reuse_fit_line(pg_schedule *s, const pg_run *run, const int64_t *row_of, int64_t ntiles)
{
    (void)row_of, (void)ntiles;
    return l2reuse_fit(s, run);
}

/* in the order the fit runs them */
/* `warmup`: the calibration's start-up transient, from its tile starts */
static int warmup_fit_line(pg_schedule *s, const pg_run *run, const int64_t *row_of, int64_t ntiles)
{
    (void)row_of, (void)ntiles;
    return warmup_fit(s, &run->trace);
}

/* `stretch`, `storenear`, `inflight`: their calibration points, last (the replay they
 * read needs every other line fitted); with storenear own=1 the rows'
 * traced positions first */
static int store_lines_fit_line(pg_schedule *s, const pg_run *run, const int64_t *row_of, int64_t ntiles)
{
    return storenear_table_fit(s, &run->trace, row_of, ntiles) || store_lines_fit(s) ? -1 : 0;
}

/* `streamwall` with floor=device: the stream (and copy) floors pegemm
 * measured on the run's GPU, where it knows that GPU (else the written
 * figures stay) */
static int streamwall_fit_line(pg_schedule *s, const pg_run *run, const int64_t *row_of, int64_t ntiles)
{
    (void)row_of, (void)ntiles;
    const double stream = s->sw_line && s->sw_floor_device ? fit_gpu_stream_floor(run->kernel.device) : 0;
    char opt[64];
    snprintf(opt, sizeof opt, "streamwall.bytes_per_s=%.9g", stream);
    if (!(stream > 0) || pg_schedule_set(s, opt, 0))
        return stream > 0 ? -1 : 0;
    snprintf(opt, sizeof opt, "streamwall.copy_bytes_per_s=%.9g", fit_gpu_copy_floor(run->kernel.device));
    return s->sw_copy_bytes_per_s > 0 ? pg_schedule_set(s, opt, 0) : 0;
}

/* `colshare`: the run's column blocks (the line's law and R are the
 * kernel's and the machine's) */
static int colshare_fit_line(pg_schedule *s, const pg_run *run, const int64_t *row_of, int64_t ntiles)
{
    (void)row_of, (void)ntiles;
    return colshare_fit(s, run);
}

/* `clock`: the law's anchor is the calibration: its traced period, its
 * tile's compute (the line's, at the run's options) and its clock */
static int clock_fit_line(pg_schedule *s, const pg_run *run, const int64_t *row_of, int64_t ntiles)
{
    (void)row_of, (void)ntiles;
    if (!s->ck_line || s->period_role < 0)
        return 0;
    pg_prediction m;
    if (pg_trace_summarize_period(&run->trace, s->machine.clock_hz,
                                  s->roles[s->period_role].steps[s->period_step].name, &m))
        return -1;
    if (!(isfinite(m.tile_period) && m.tile_period > 0))
        return 0; /* no period traced: the line keeps its written anchor */
    const struct {
        const char *key;
        double value;
    } sets[] = {{"cal_period", m.tile_period}, {"cal_compute", s->ck_compute}, {"cal_clock", s->machine.clock_hz}};
    char opt[64];
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        snprintf(opt, sizeof opt, "clock.%s=%.9g", sets[i].key, sets[i].value);
        if (pg_schedule_set(s, opt, 0))
            return -1;
    }
    return 0;
}

static const fit_line fit_line_table[] = {
    {"bandwidth", bandwidth_scale_work, bandwidth_work_whatif, bandwidth_fit},
    {"colshare", NULL, NULL, colshare_fit_line},
    {"rowfirst", NULL, NULL, rowfirst_fit},
    {"l2reuse", l2reuse_cal_set, NULL, l2reuse_fit_line},
    {"contend", NULL, NULL, contend_fit_line},
    {"storewin", NULL, NULL, storewin_fit_line},
    {"kblocks", kblocks_scale_work, kblocks_scale_work, kblocks_fit_line},
    {"tmaqueue", NULL, NULL, tmaqueue_fit_line},
    {"dramq", NULL, NULL, dramq_fit_line},
    {"warmup", NULL, NULL, warmup_fit_line},
    {"stretch, storenear, inflight", NULL, NULL, store_lines_fit_line},
    {"streamwall", NULL, NULL, streamwall_fit_line},
    {"clock", NULL, NULL, clock_fit_line},
};
#define NLINES (int)(sizeof fit_line_table / sizeof fit_line_table[0])

int fit_lines_work_sets(const pg_schedule *s, double work_ratio, char sets[][FIT_SET_LEN], int cap)
{
    int n = 0;
    for (int i = 0; i < NLINES && n < cap; i++)
        if (fit_line_table[i].work_whatif && fit_line_table[i].work_whatif(s, work_ratio, sets[n], FIT_SET_LEN))
            n++;
    return n;
}

int fit_lines_scale_work(pg_schedule *s, double work_ratio)
{
    char opt[FIT_SET_LEN];
    for (int i = 0; i < NLINES; i++)
        if (fit_line_table[i].scale_work && fit_line_table[i].scale_work(s, work_ratio, opt, sizeof opt) &&
            pg_schedule_set(s, opt, 0))
            return -1;
    return 0;
}

int fit_lines(pg_schedule *s, const pg_run *run, const int64_t *row_of, int64_t ntiles)
{
    for (int i = 0; i < NLINES; i++)
        if (fit_line_table[i].fit && fit_line_table[i].fit(s, run, row_of, ntiles))
            return -1;
    return 0;
}
