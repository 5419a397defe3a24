/* The `contend` line: `contend PHASE by=PHASE slowdown=C overlap=OV
 * window=W`.  A work step of a role whose instances take tiles in turn (the
 * ping-pong warpgroups) runs slower the more of it the *next* tile's instance
 * spends in its `by` step: they share the SM's shared memory (the epilogue's
 * ld/st.shared against wgmma's operand reads and the stage ring's TMA
 * writes).  Each cycle of overlap costs C cycles of work.  The step's sampled
 * work (a traced tile's, which had the trace's overlap, OV on average) moves
 * by C x (the model's overlap, averaged over the last W tiles, - OV): at the
 * fitted point the traced tiles replay as they ran, tails included, and a
 * probe that changes the overlap (a longer epilogue delays the other
 * mainloop) moves the step's mean.  Constants added to the step (a probe's
 * spin, which the kernel runs after the work) do not contend.
 * docs/model.md "Contention"; docs/experiments.md M17.
 *
 * The next tile's `by` step starts after this tile's step may have begun, so
 * the engine evaluates the contended step and what follows it in its tile
 * one tile late (engine.c): that needs no dependency of the next tile on
 * those steps, which resolve checks here. */
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "pg_error.h"
#include "sched.h"

double contend_overlap(double start, double end, double by_start, double by_end)
{
    const double lo = by_start > start ? by_start : start, hi = by_end < end ? by_end : end;
    return hi > lo ? hi - lo : 0;
}

double contend_step_end(engine *E, int64_t k, double start, double best)
{
    const pg_schedule *s = E->s;
    const double work = E->smp[(k % E->R) * s->nslots + s->ct_slot];
    const double rest = best - start - work; /* constants after the work (a probe's spin) */
    double w = work + s->ct_slowdown * (E->ct_mean - s->ct_overlap);
    if (w < 0)
        w = 0;
    const double ov = contend_overlap(start, start + w, engine_start(E, s->ct_by_node, k + 1),
                                      engine_x(E, s->ct_by_node, k + 1));
    E->ct_mean += (ov - E->ct_mean) / s->ct_window;
    return start + w + rest;
}
