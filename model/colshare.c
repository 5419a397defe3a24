/* The `colshare` line: `colshare LATENCY... blocks=B cal_blocks=B0
 * ratio=R [on=0|1]` (docs/experiments.md M83).
 *
 * A row block of A is read by the CTAs of its B column blocks at about the
 * same time: one read comes from DRAM, the others hit the L2 (bres's
 * comment: "one DRAM read, three L2 hits"), so the mean latency of a listed
 * A load is a DRAM read's times
 *
 *     share(B) = 1/B + (1 - 1/B) R,
 *
 * R an L2 hit's latency over a DRAM read's (the bench's floors at one load
 * in flight per SM: 0.71 on both GPUs, M48).  The fitted latencies were
 * measured at the calibration's B0, so each sample moves by share(B) /
 * share(B0): at N = 256 on pingpong (B = 1 against 3) its first load takes
 * 1.24 x as long.  No constant is fitted; at B = B0 nothing moves.
 *
 * whole=0 (M110): a `kblocks` line's load with queue=F is F parts the
 * SM's own queue behind its loads in flight (which colshare does not
 * touch: the other CTAs' reads change where the read is served, not how
 * many this SM has out) and 1 - F parts the read itself, so only that part
 * moves: colshare_queued_divisor() gives the factor the loop takes back
 * off the queued part.  whole=1 (M83's, the default) moves it all.
 * whole=2 (M130): all of it where the run has fewer column blocks than the
 * calibration (factor > 1), the unqueued part where it has more.  With
 * fewer, DRAM serves more of each tile's bytes (pingpong at N = 256 reads
 * its whole A block there: 81,920 B a tile against 49,152 at N = 768, the
 * H200's DRAM at ~3.1 TB/s against ~2.0), so the loads in flight ahead of
 * this SM's are served slower too and its queue grows with the read; with
 * more, the extra reads are L2 hits and the queue stays what the ring
 * holds.
 *
 * This file is the line's engine part; its parse is in colshare_parse.c,
 * its fit (B = B0 = the run's N / tile_n) in colshare_fit.c. */
#include "engine.h"
#include "sched.h"

static double share(double blocks, double ratio)
{
    return 1 / blocks + (1 - 1 / blocks) * ratio;
}

double colshare_factor(const pg_schedule *s, int dist)
{
    if (!s->cs_line || !s->cs_on || s->cs_blocks == s->cs_cal_blocks)
        return 1;
    for (int i = 0; i < s->cs_n; i++)
        if (s->cs_dist[i] == dist)
            return share(s->cs_blocks, s->cs_ratio) / share(s->cs_cal_blocks, s->cs_ratio);
    return 1;
}

/* What the k-block loop divides its load's queued part by (its `load`
 * already carries colshare_factor): the factor where the queue does not
 * move (whole=0; whole=2 at more column blocks), else 1. */
double colshare_queued_divisor(const pg_schedule *s, int dist)
{
    const double f = colshare_factor(s, dist);
    return s->cs_whole == 0 || (s->cs_whole == 2 && f < 1) ? f : 1;
}
