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
 * on the KM-fitted drain (M66), 0.1 since M95 (which keeps bres's short-K
 * one-sided state; it stands in for more than the drain).  tile=next (M92): the latency is a delay
 * step's that the NEXT tile's STEP overlaps (pingpong's untraced gap after
 * its store, which runs beside the other warpgroup's following mainloop);
 * the step ends before that work is known, so it is settled once the next
 * tile's STEP has run (stretch_solve_previous; nothing of that tile reads
 * it, stretch_parse.c checks).  This file is the line's engine part; its
 * parse is in stretch_parse.c.  A schedule may have several lines, each
 * on its own latency (bres: its store drain and its untraced gap). */
#include <math.h>

#include "engine.h"
#include "sched.h"

/* line L's `by` work of tile k: a k-block loop without its spin */
static void by_interval(const engine *E, const sch_stretch *L, int64_t k, double *start, double *end)
{
    const pg_schedule *s = E->s;
    if (L->by_node == s->kb_node) {
        *start = kblocks_at(E, k, 0, -1);
        *end = kblocks_at(E, k, 1, -1);
    } else {
        *start = engine_start(E, L->by_node, k);
        *end = engine_x(E, L->by_node, k);
    }
}

double stretch_extra(engine *E, int64_t k, int dist, double end, double sample)
{
    const pg_schedule *s = E->s;
    double extra = 0;
    for (int l = 0; l < s->nst && !E->kb_fit_load; l++) {
        const sch_stretch *L = &s->st[l];
        if (dist != L->dist)
            continue;
        if (L->next) {
            /* settled by stretch_solve_previous once tile k + 1's work ran */
            double *iv = E->st_iv + ((k % E->R) * SCH_ST_MAX + l) * 2;
            iv[0] = end - sample;
            iv[1] = end;
            continue;
        }
        if (k < 1)
            continue;
        double bs, be;
        by_interval(E, L, k - 1, &bs, &be);
        const double ov = contend_overlap(end - sample, end, bs, be);
        E->st_sum[l] += ov;
        E->st_n[l]++;
        if (L->on && !E->lines_record_only)
            extra += L->slowdown * (ov - L->overlap);
    }
    return extra;
}

void stretch_reset(engine *E)
{
    for (int i = 0; i < 2 * SCH_ST_MAX * E->R; i++)
        E->st_iv[i] = NAN;
}

/* the fit's replay keeps line l's (sample, overlap) pairs where it asked */
static void record_pair(engine *E, int l, double sample, double ov)
{
    if (E->st_rec[l] && E->st_rec_n[l] < E->st_rec_cap) {
        E->st_rec[l][2 * E->st_rec_n[l]] = sample;
        E->st_rec[l][2 * E->st_rec_n[l] + 1] = ov;
        E->st_rec_n[l]++;
    }
}

void stretch_solve_previous(engine *E, int64_t k, int v)
{
    const pg_schedule *s = E->s;
    if (k < 1 || E->kb_fit_load)
        return;
    for (int l = 0; l < s->nst; l++) {
        const sch_stretch *L = &s->st[l];
        double *iv = E->st_iv + (((k - 1) % E->R) * SCH_ST_MAX + l) * 2;
        if (!L->next || L->by_node != v || !isfinite(iv[0]))
            continue;
        double bs, be;
        by_interval(E, L, k, &bs, &be);
        const double ov = contend_overlap(iv[0], iv[1], bs, be);
        E->st_sum[l] += ov;
        E->st_n[l]++;
        record_pair(E, l, iv[1] - iv[0], ov);
        if (L->on && !E->lines_record_only) {
            /* a delay shortened below its traced overlap's share ends no
             * sooner than it began (bres's gap samples reach 0) */
            double *x = &E->x[((k - 1) % E->R) * s->nnodes + L->node];
            *x = fmax(iv[0], *x + L->slowdown * (ov - L->overlap));
        }
        iv[0] = iv[1] = NAN;
    }
}
