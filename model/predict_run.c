/* The period of a run as it runs (docs/experiments.md M128).  The steady
 * chain (predict.c) averages the engine's states over 100,000 tiles.  Where
 * the dynamics keep a state the run's start chose, that average is not the
 * run's: in bres with the whole tile's k-blocks in the A ring (K <= 512)
 * and a long epilogue, the second warpgroup starts right behind the
 * first's loop and stays there (96-100% of the H200's tiles, by trace),
 * its epilogue then slowing the first's, where the chain drifts to the
 * warpgroups half a cycle apart and predicts 4-5% fast.  So a fitted
 * run's period is each unit's share of the tiles from an empty pipeline,
 * as the trace measures it (first to last tile start over the gaps).
 * The rows are drawn as the chain draws them, not replayed from a traced
 * SM's first tile: the calibration's start-up swing (every SM's first loads
 * queueing for DRAM at once) is the `warmup` line's to carry, and the
 * engine's own pipeline fill (its first PG_RUN_FILL_GAPS gaps) is left
 * out, as the chain leaves out its warm-up. */
#include <math.h>

#include "predict_run.h"

double predict_run_period(const pg_schedule *s, const pg_model_opts *o, engine *E)
{
    const int64_t units = (int64_t)s->machine.units, tiles = (int64_t)s->machine.tiles;
    const int64_t base = units > 0 ? tiles / units : 0, extra = units > 0 ? tiles % units : 0;
    const int64_t skip = PG_RUN_FILL_GAPS;
    if (base < 2 * skip + 2)
        return NAN;
    const int vref = sch_node_of(s, s->period_role, 0, s->period_step);
    const int replay = E->no_replay;
    double span = 0;
    int64_t gaps = 0;
    E->no_replay = 1;
    for (int64_t u = 0; u < units; u++) {
        const int64_t n = base + (u < extra ? 1 : 0);
        double first = 0;
        engine_reset(E, o->seed * 2654435761u + (uint64_t)u + 7001);
        for (int64_t k = 0; k < n; k++) {
            engine_step(E); /* settles tile k - 1 (engine.h): tile skip's start is known after step skip + 1 */
            if (k == skip + 1)
                first = engine_start(E, vref, skip);
        }
        span += engine_start(E, vref, n - 1) - first;
        gaps += n - 1 - skip;
    }
    E->no_replay = replay;
    return span / (double)gaps;
}
