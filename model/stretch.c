/* The `stretch` line: `stretch LATENCY by=STEP slowdown=C overlap=OV`.
 * A latency an edge adds after an event of tile k - j (in h100-bres the
 * warpgroup's D store, `epilogue_store[2] + store_drain`) runs [end -
 * sample, end]; where that interval overlaps the previous tile's STEP work
 * (the other warpgroup's mainloop, its spin taken off), the latency lasts C
 * cycles longer per cycle of overlap beyond OV, the calibration's mean
 * overlap (set by `pegemm model fit`, store_lines_fit.c), so that at the
 * calibration the traced latencies replay as measured.  In bres the TMA
 * store reads D out of shared memory while the other warpgroup's wgmma
 * reads its operands there: the drain takes 1,472 + 0.30 x its overlap
 * (M55's pooled fit on both GPUs, on the tiles it held the turn); C = 0.15
 * on the KM-fitted drain (M66).  This file is the line's engine part; its
 * parse is in stretch_parse.c. */
#include "engine.h"
#include "sched.h"

/* the previous tile's `by` work: a k-block loop without its spin */
static void by_interval(const engine *E, int64_t k, double *start, double *end)
{
    const pg_schedule *s = E->s;
    if (s->st_by_node == s->kb_node) {
        *start = kblocks_at(E, k, 0, -1);
        *end = kblocks_at(E, k, 1, -1);
    } else {
        *start = engine_start(E, s->st_by_node, k);
        *end = engine_x(E, s->st_by_node, k);
    }
}

double stretch_extra(engine *E, int64_t k, int dist, double end, double sample)
{
    const pg_schedule *s = E->s;
    if (!s->st_line || dist != s->st_dist || k < 1 || E->kb_fit_load)
        return 0;
    double bs, be;
    by_interval(E, k - 1, &bs, &be);
    const double ov = contend_overlap(end - sample, end, bs, be);
    E->st_sum += ov;
    E->st_n++;
    return s->st_on && !E->lines_record_only ? s->st_slowdown * (ov - s->st_overlap) : 0;
}
