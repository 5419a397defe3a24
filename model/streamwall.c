/* The `streamwall` line: `streamwall LATENCY... bytes_per_s=B
 * [copy_bytes_per_s=C write_bytes=W] [floor=device|written] [on=0|1]`.
 *
 * DRAM moves a kernel's compulsory bytes no faster than its floor for that
 * traffic: `pegemm bench`'s "stream A in, D out (no math)", B, where 2/3 of
 * the bytes are written (2.72 TB/s on an H100, 3.76 TB/s on an H200, 0.90
 * of the copy floor on every bench of probe sets 5-25), and its D2D copy,
 * C, where half are (3.00 / 4.23 TB/s).  The bus turns round between reads
 * and writes, so the floor falls as the write share w rises: C up to w =
 * 1/2, B from 2/3 (bres at w = 0.80-0.92 ran at 1.00-1.02 of B on an H100,
 * at w = 0.33-0.50 at 1.01-1.04 of C: docs/experiments.md M77), linear
 * between; without C and W, B alone.  So the tile period is at least
 *
 *     wall = bytes_per_tile x units x clock_hz / floor(W / bytes_per_tile),
 *
 * the `bandwidth` line's bytes per tile, W the tile's written bytes.  A schedule whose period at the
 * bandwidth equilibrium falls below it (a short tile: bres at K <= 384 on
 * an H100 ran at 0.95-0.99 of its stream floor, docs/experiments.md M73)
 * has its listed loads, the ones DRAM serves, wait longer: each listed
 * latency is multiplied by the smallest common factor >= 1 that brings the
 * period up to the wall (predict.c solves it).  Above the wall the factor
 * is 1 and the line changes nothing; the `bandwidth` line's stall (taken
 * against the copy floor) carries the approach to it.
 *
 * This file is the line's engine part; its parse is in streamwall_parse.c,
 * its fit (floor=device: the floor pegemm measured on the run's GPU) in
 * fit_lines.c. */
#include "engine.h"
#include "sched.h"

/* the DRAM floor (bytes/s) at write share w */
static double floor_at(const pg_schedule *s, double w)
{
    const double B = s->sw_bytes_per_s, C = s->sw_copy_bytes_per_s;
    if (!(C > 0) || w >= 2.0 / 3.0)
        return B;
    if (w <= 0.5)
        return C;
    return C + (w - 0.5) * 6 * (B - C);
}

double streamwall_period(const pg_schedule *s)
{
    if (!s->sw_line || !s->sw_on || s->bw_dist < 0 || !(s->sw_bytes_per_s > 0) || !(s->bw_bytes_per_tile > 0))
        return 0;
    const double w = s->sw_write_bytes / s->bw_bytes_per_tile;
    return s->bw_bytes_per_tile * s->machine.units * s->machine.clock_hz / floor_at(s, w > 1 ? 1 : w);
}

double streamwall_factor(const pg_schedule *s, int dist)
{
    if (!s->sw_line || !s->sw_on || !(s->sw_scale > 1))
        return 1;
    for (int i = 0; i < s->sw_n; i++)
        if (s->sw_dist[i] == dist)
            return s->sw_scale;
    return 1;
}
