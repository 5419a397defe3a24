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
 * on the KM-fitted drain (M66).  tile=next (M92): the latency is a delay
 * step's that the NEXT tile's STEP overlaps (pingpong's untraced gap after
 * its store, which runs beside the other warpgroup's following mainloop);
 * the step ends before that work is known, so it is settled once the next
 * tile's STEP has run (stretch_solve_previous; nothing of that tile reads
 * it, stretch_parse.c checks).  This file is the line's engine part; its
 * parse is in stretch_parse.c. */
#include <math.h>

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
    if (!s->st_line || dist != s->st_dist || E->kb_fit_load)
        return 0;
    if (s->st_next) {
        /* settled by stretch_solve_previous once tile k + 1's work ran */
        E->st_iv[(k % E->R) * 2] = end - sample;
        E->st_iv[(k % E->R) * 2 + 1] = end;
        return 0;
    }
    if (k < 1)
        return 0;
    double bs, be;
    by_interval(E, k - 1, &bs, &be);
    const double ov = contend_overlap(end - sample, end, bs, be);
    E->st_sum += ov;
    E->st_n++;
    return s->st_on && !E->lines_record_only ? s->st_slowdown * (ov - s->st_overlap) : 0;
}

void stretch_solve_previous(engine *E, int64_t k)
{
    const pg_schedule *s = E->s;
    if (k < 1 || E->kb_fit_load)
        return;
    double *iv = E->st_iv + ((k - 1) % E->R) * 2;
    if (!isfinite(iv[0]))
        return;
    double bs, be;
    by_interval(E, k, &bs, &be);
    const double ov = contend_overlap(iv[0], iv[1], bs, be);
    E->st_sum += ov;
    E->st_n++;
    if (E->st_rec && E->st_rec_n < E->st_rec_cap) {
        E->st_rec[2 * E->st_rec_n] = iv[1] - iv[0];
        E->st_rec[2 * E->st_rec_n + 1] = ov;
        E->st_rec_n++;
    }
    if (s->st_on && !E->lines_record_only)
        E->x[((k - 1) % E->R) * s->nnodes + s->st_node] += s->st_slowdown * (ov - s->st_overlap);
    iv[0] = iv[1] = NAN;
}
