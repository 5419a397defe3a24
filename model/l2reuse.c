/* The `l2reuse` line: `l2reuse LATENCY... bytes=C ratio=R full=F
 * cal_bytes=W0 on=0|1`.
 *
 * A benchmark launches a kernel back to back; what one launch leaves in the
 * L2 the next one finds there.  A run whose working set W (A read, D
 * written: the `bandwidth` line's compulsory bytes per tile x the tiles)
 * fits the L2's C bytes reads its A from the L2 from its first tile, where
 * the calibration (a large run) streams it from DRAM (docs/experiments.md
 * M58, M60).  The share of W the L2 keeps between launches,
 *
 *     h(W) = clamp((C - W) / (C - F C), 0, 1),
 *
 * is 1 up to F x C and falls to 0 at C (F < 1: the L2 does not keep a
 * working set of its own size whole -- set hashing, and the D lines each
 * launch writes; F = 0.5 was chosen on probe set 16, M60).  Each
 * listed latency (per-tile replayed or parametric) is multiplied by
 *
 *     (1 - h + h R) / (1 - h0 + h0 R),    h0 = h(W0), W0 the calibration's,
 *
 * R the latency of an L2 hit over a DRAM read at the same load (the bench's
 * floors: L2-resident boxes against A's boxes from DRAM, one in flight per
 * SM: 494 / 698 ns on an H100, 500 / 698 on an H200, M48), and the `warmup`
 * line's start-up swing, a DRAM queue of every SM starting at once, by
 * (1 - h) / (1 - h0).  At W = W0 nothing moves; a run of W >= C against a
 * calibration of W0 >= C neither.  List only the latencies whose bytes come
 * from DRAM: pingpong's loads are bound by its B stages' L2 reads and are
 * not listed (M58: its small runs are not faster).
 *
 * This file is the line's engine part; its parse is in l2reuse_parse.c, its
 * fit (cal_bytes) in l2reuse_fit.c. */
#include <math.h>

#include "engine.h"
#include "sched.h"

double l2reuse_kept(const pg_schedule *s, double working_set)
{
    const double C = s->l2_bytes, lo = s->l2_full * s->l2_bytes;
    if (!(working_set > lo))
        return 1;
    if (!(working_set < C))
        return 0;
    return (C - working_set) / (C - lo);
}

double l2reuse_working_set(const pg_schedule *s)
{
    return s->machine.tiles * s->bw_bytes_per_tile;
}

/* h at the run and at the calibration; 0 where the line is off or the
 * calibration's working set is unknown (cal_bytes=0: nothing moves) */
static int kept_pair(const pg_schedule *s, double *h, double *h0)
{
    if (!s->l2_line || !s->l2_on || !(s->l2_cal_bytes > 0) || s->bw_dist < 0)
        return 0;
    *h = l2reuse_kept(s, l2reuse_working_set(s));
    *h0 = l2reuse_kept(s, s->l2_cal_bytes);
    return 1;
}

int l2reuse_report(const pg_schedule *s, double *working_set, double *kept, double *kept_cal)
{
    double h, h0;
    if (!kept_pair(s, &h, &h0))
        return 0;
    *working_set = l2reuse_working_set(s);
    *kept = h;
    *kept_cal = h0;
    return 1;
}

double l2reuse_factor(const pg_schedule *s, int dist)
{
    double h, h0;
    if (!kept_pair(s, &h, &h0))
        return 1;
    int listed = 0;
    for (int i = 0; i < s->l2_n; i++)
        listed |= s->l2_dist[i] == dist;
    if (!listed)
        return 1;
    const double R = s->l2_ratio;
    return (1 - h + h * R) / (1 - h0 + h0 * R);
}

double l2reuse_swing_scale(const pg_schedule *s)
{
    double h, h0;
    if (!kept_pair(s, &h, &h0) || h0 >= 1)
        return 1; /* a calibration kept whole measured no DRAM swing to scale */
    return (1 - h) / (1 - h0);
}
