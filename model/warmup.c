/* The `warmup` line: a run's start-up transient, measured on the
 * calibration (warmup_fit.c), carried to a run with another number of
 * tiles per unit.  Every unit starts its first tile at once, so its first
 * ~20 tiles run slower than its steady period and the next ~20 faster
 * (docs/experiments.md M53): a run of 18-30 tiles per unit averages most
 * of its tile gaps inside that swing, one of hundreds hardly any.  The
 * engine's period reproduces the calibration's mean gap, swing included at
 * the calibration's weight; the prediction moves it by
 *
 *     E(T' - 1) / (T' - 1)  -  E(T - 1) / (T - 1)
 *
 * with E(k) the cumulative excess of the first k gaps over the steady
 * period (piecewise linear between the line's keys, 0 at k = 0, flat past
 * the calibration's gaps), T the calibration's tiles per unit and T' the
 * run's.  At T' = T nothing moves, so every what-if at the calibration's
 * tile count is untouched.  Waits are not moved (the swing is measured on
 * the period only).  The swing is the memory system queueing while every
 * unit starts at once: where the `dramq` line runs (another GPU, M54; in
 * h100-pingpong also a build that does not prefetch A, M159) the
 * move is scaled by that queue's wait at the run's DRAM share against the
 * calibration's (dramq_queue_ratio); at T' = T it stays 0 (the other GPU's
 * period at the calibration's count is the `dramq` line's alone); where
 * the `l2reuse` line keeps part of the run's working set in the L2 between
 * launches, by the share left to stream from DRAM (M60). */
#include <math.h>

#include "engine.h"
#include "sched.h"

/* E(k), k >= 0 gaps */
static double cum_excess(const pg_schedule *s, double k)
{
    const double gaps = s->wu_tiles - 1;
    if (k >= gaps)
        return s->wu_total;
    double k0 = 0, e0 = 0;
    for (int i = 0; i < SCH_WU_NKEYS; i++) {
        if (!isfinite(s->wu_e[i]) || sch_wu_k[i] >= gaps)
            continue;
        const double k1 = sch_wu_k[i], e1 = s->wu_e[i];
        if (k <= k1)
            return e0 + (e1 - e0) * (k - k0) / (k1 - k0);
        k0 = k1;
        e0 = e1;
    }
    return e0 + (s->wu_total - e0) * (k - k0) / (gaps - k0);
}

double warmup_period_delta(const pg_schedule *s, double tiles_per_unit)
{
    /* (the calibration's own count, as written back to 9 digits: no move) */
    if (!s->wu_line || !(s->wu_tiles >= 2) || !(tiles_per_unit >= 2) ||
        fabs(tiles_per_unit - s->wu_tiles) <= 1e-6 * s->wu_tiles)
        return 0;
    const double gaps = s->wu_tiles - 1, run_gaps = tiles_per_unit - 1;
    return dramq_queue_ratio(s) * l2reuse_swing_scale(s) * (cum_excess(s, run_gaps) / run_gaps - s->wu_total / gaps);
}

void warmup_apply(const pg_schedule *s, pg_prediction *p)
{
    if (!(s->machine.units > 0))
        return;
    const double per_unit = s->machine.tiles / s->machine.units;
    const double d = warmup_period_delta(s, per_unit);
    if (d == 0)
        return;
    p->tile_period += d;
    if (isfinite(p->tile_period_chain))
        p->tile_period_chain += d;
    p->startup_shift = d;
    if (isfinite(p->wall_ms) && s->machine.clock_hz > 0) {
        /* each unit's gaps all move by d */
        p->wall_ms += (per_unit - 1) * d / s->machine.clock_hz * 1e3;
        p->tflops = s->machine.flops / (p->wall_ms * 1e-3) / 1e12;
    }
}
