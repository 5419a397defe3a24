/* The `streamwall` line: `streamwall LATENCY... bytes_per_s=B
 * [floor=device|written] [on=0|1]`.
 *
 * DRAM moves a kernel's compulsory bytes no faster than the GPU's stream
 * floor B (`pegemm bench`'s "stream A in, D out (no math)": 2.72 TB/s on
 * an H100, 3.76 TB/s on an H200, 0.90-0.91 of the copy floor on every
 * bench of probe sets 5-25).  So the tile period is at least
 *
 *     wall = bytes_per_tile x units x clock_hz / B      (cycles),
 *
 * the `bandwidth` line's bytes per tile.  A schedule whose period at the
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

double streamwall_period(const pg_schedule *s)
{
    if (!s->sw_line || !s->sw_on || s->bw_dist < 0 || !(s->sw_bytes_per_s > 0))
        return 0;
    return s->bw_bytes_per_tile * s->machine.units * s->machine.clock_hz / s->sw_bytes_per_s;
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
