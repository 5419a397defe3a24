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
 * already carries colshare_factor): the factor with whole=0, else 1. */
double colshare_queued_divisor(const pg_schedule *s, int dist)
{
    return s->cs_whole == 0 ? colshare_factor(s, dist) : 1;
}
