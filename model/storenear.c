/* The `storenear` line: `storenear LATENCY store=STEP back=B gain=G far=F
 * near=N window=W cal=P`.  LATENCY is added after an issue event (in
 * h100-bres the tile's first load: `producer.producer_issue@0 +
 * first_load`).  Tile k's position o = the start of tile k - B's STEP (the
 * same warpgroup's previous D store) less that issue; m, o's running mean
 * over W tiles, stands for every SM's stores at once (each SM runs the same
 * schedule); the latency is L0 (1 + G r(m)), r = 0 below F, 1 at N, linear
 * between, then down to `after` at `fall` (M68), so a sample traced at the
 * calibration's position P moves by (1 + G r(m)) / (1 + G r(P)) (set by
 * `pegemm model fit`, store_lines_fit.c).  M64: a tile's first load slows as
 * the SMs' stores leave nearer before its issue (a delay spun after the
 * store takes the slowdown away), following the run's typical position,
 * not the tile's own, and saturating within ~1,000 cycles; F, N and G
 * (M66) are H100 figures the zero-delay calibration cannot measure.
 * own=1 (M88): the tile's own position o, not the running mean, and the
 * sample moves from the position its traced row had (the fit's table
 * column, storenear_table_fit.c), not from P: pingpong's first load
 * (40 KB of A and B behind the same warpgroup's 32 KB store) follows its
 * own tile's store, the same per-tile law at every --epi-delay.  This file
 * is the line's engine part; its parse is in storenear_parse.c. */
#include <math.h>

#include "engine.h"
#include "sched.h"

static double clamp01(double x) { return x < 0 ? 0 : x > 1 ? 1 : x; }

/* 0 at far, 1 at near, then down to `after` at fall (after=1: flat) */
static double ramp(const pg_schedule *s, double o)
{
    if (o <= s->sn_near)
        return clamp01((o - s->sn_far) / (s->sn_near - s->sn_far));
    return 1 - (1 - s->sn_after) * clamp01((o - s->sn_near) / (s->sn_fall - s->sn_near));
}

void storenear_reset(engine *E) { E->sn_mean = E->s->sn_cal; }

double storenear_extra(engine *E, int64_t k, int dist, double end, double sample)
{
    const pg_schedule *s = E->s;
    if (!s->sn_line || dist != s->sn_dist || k < s->sn_back || E->kb_fit_load)
        return 0;
    const double o = engine_start(E, s->sn_store_node, k - s->sn_back) - (end - sample);
    E->sn_mean += (o - E->sn_mean) / s->sn_window;
    E->sn_sum += o;
    E->sn_n++;
    if (!s->sn_on || E->lines_record_only)
        return 0;
    /* the latency is L0 (1 + G r): the calibration's sample carries r(cal),
     * with own=1 r(its row's own position) where the table has it */
    const double g = s->sn_gain, row_o = E->sn_row_o[k % E->R];
    const double at = s->sn_own ? o : E->sn_mean, from = s->sn_own && isfinite(row_o) ? row_o : s->sn_cal;
    return sample * ((1 + g * ramp(s, at)) / (1 + g * ramp(s, from)) - 1);
}
