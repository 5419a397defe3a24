/* The `storewin` line: `storewin PHASE after=STEP span=S gain=G [fit=0|1]
 * [on=0|1]`.  PHASE is the `kblocks` loop's phase.  In pingpong the other
 * warpgroup's tile boundary -- its D store read out of shared memory, the
 * drain it waits for and the combined rows it loads in after it -- runs
 * beside this warpgroup's loop, whose wgmma reads of shared memory and
 * stage writes already take most of the SM's shared-memory bandwidth: the
 * loop runs G cycles longer per cycle it overlaps the window of S cycles
 * from the start of the previous tile's STEP (the other warpgroup's
 * `epilogue_store`).  A --mainloop-delay spin moves that store past the
 * loop's end, an --epilogue delay moves it later; a short loop (small K)
 * ends before it.  `pegemm model fit` measures G on the trace's own tiles
 * (storewin_fit.c), and the k-block loop's per-tile latency is then solved
 * net of it, so the traced loops replay as they ran.  The overlap is the
 * loop's own (its k-blocks and their stalls, before this extra and any
 * spin).  docs/experiments.md M99.
 *
 * load_gain=G' load_span=S' (M174): the window slows the loads, not the
 * loop's compute.  Each in-loop load runs G' cycles longer per cycle of its
 * flight (from its issue for its latency, before `tmaqueue` and `fifo=`)
 * inside the S' cycles from that store's start, and the loop's end takes
 * nothing more: a loop whose loads went out a tile or more ahead (a short
 * tile, K <= 512 on a 4-stage ring) does not wait for them and runs its
 * compute whatever the store beside it (the K = 256-512 self-fits measure
 * the loop-level gain at 0).  M157's clocks: a load
 * issued 0-1,500 cycles after a store's start runs 1.29-1.60x one issued
 * 3,500 or more after, at zero delay; the window ends 1,500-2,500 after
 * the start.  load_span= defaults to span=. */
#include "engine.h"
#include "sched.h"

double storewin_extra(const engine *E, int64_t k, double start, double end)
{
    const pg_schedule *s = E->s;
    if (!s->wn_line || !s->wn_on || k < 1 || s->wn_load_gain > 0)
        return 0;
    const double open = engine_start(E, s->wn_after_node, k - 1);
    return s->wn_gain * contend_overlap(start, end, open, open + s->wn_span);
}

double storewin_load_extra(const engine *E, int64_t k, double issue, double latency)
{
    const pg_schedule *s = E->s;
    if (!s->wn_line || !s->wn_on || k < 1 || !(s->wn_load_gain > 0))
        return 0;
    const double open = engine_start(E, s->wn_after_node, k - 1);
    const double span = s->wn_load_span > 0 ? s->wn_load_span : s->wn_span; /* unset: the line's span */
    return s->wn_load_gain * contend_overlap(issue, issue + latency, open, open + span);
}
