/* The `tmaqueue` line: `tmaqueue PHASE after=STEP window=LATENCY penalty=C`.
 * PHASE is the `kblocks` loop's phase.  In bres the other warpgroup's TMA
 * store of its tile (24 KB of D read out of shared memory) and, right after
 * it, its next tile's combined load (24 KB in) go through the SM's TMA unit
 * in the same queue as the A stages: a stage issued while that store is
 * being read out lands later.  A k-block load of tile k issued within
 * WINDOW cycles (a latency sampled with tile k - 1: in h100-bres the store's
 * drain, `store_drain`) of the start of tile k - 1's STEP (the other
 * warpgroup's `epilogue_store`) lands C cycles later.  `pegemm model fit`
 * chooses C on the trace's own tiles (tmaqueue_fit): the value at which the
 * per-tile load latency the k-block replay solves for no longer differs
 * between the tiles whose loads fell in the window and those that did not,
 * since the DRAM latency cannot depend on where the other store was.
 * docs/experiments.md M19. */
#include <math.h>

#include "engine.h"
#include "sched.h"

double tmaqueue_extra(const engine *E, int64_t k, double start, double landed, int *hit)
{
    const pg_schedule *s = E->s;
    if (!s->tq_on || k < 1)
        return 0;
    const double open = engine_start(E, s->tq_after_node, k - 1);
    const double width = E->smp[((k - 1) % E->R) * s->nslots + s->tq_win_slot];
    if (open >= start && open < start + width && landed > open) {
        *hit = 1;
        return s->tq_penalty;
    }
    return 0;
}
