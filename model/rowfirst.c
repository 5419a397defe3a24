/* The `rowfirst` line: `rowfirst LATENCY... blocks=B cal_blocks=B0
 * extra=E [next=0|1] [fit=0|1] [on=0|1]` (docs/experiments.md M96).
 *
 * Some of a kernel's work is done once per row block: pingpong's producer
 * asks the L2 for the tile's A block (a TMA prefetch per k-block) on the
 * first column tile of each row block only, which its untraced gap before
 * that tile carries (~500 cycles more on the H200).  The share of such
 * tiles is 1/B, B = N / tile_n column blocks: every tile at N = 256, one
 * in eight at N = 2,048, so the producer's mean gap moves with N although
 * nothing in the calibration's per-tile samples says so.
 *
 * The tiles are numbered row block by row block (tile = row block x B +
 * column) and a CTA's static schedule gives each SM the same tile indices
 * at any N, so a replayed row (the calibration's traced tile q) is a first
 * tile at B when q mod B = 0.  Its listed samples move by
 *
 *     E ([q mod B = 0] - [q mod B0 = 0]),
 *
 * nothing at B = B0; a parametric draw (no table) moves by E (1/B - 1/B0).
 * A build that prefetches where the calibration's does not (or the
 * reverse) adds X = +-prefetch on each first tile (added=, M148) and
 * X0 = +-prefetch_all on every tile (added_all=, M156: the producer's test
 * for a tile to prefetch runs before each).
 *
 * This file is the line's engine part; its parse is in rowfirst_parse.c,
 * its fit (B = B0 = the run's column blocks, the rows' tiles, E) in
 * rowfirst_fit.c. */
#include <math.h>

#include "engine.h"
#include "sched.h"

static int listed(const pg_schedule *s, int dist)
{
    for (int i = 0; i < s->rf_n; i++)
        if (s->rf_dist[i] == dist)
            return 1;
    return 0;
}

static double is_first(double tile, double blocks)
{
    return fmod(tile, blocks) == 0;
}

/* added=X (M148, a prefetch build predicted from a calibration without)
 * moves every row-first tile at the run's B by X, on top of the moved
 * share of the calibration's extra; added_all=X0 (M156) every tile by X0,
 * a parametric draw too (not a share of one in B). */
double rowfirst_shift(const pg_schedule *s, int dist, double row_tile)
{
    if (!s->rf_line || !s->rf_on ||
        (s->rf_blocks == s->rf_cal_blocks && s->rf_added == 0 && s->rf_added_all == 0) || !listed(s, dist))
        return 0;
    if (isnan(row_tile))
        return s->rf_extra * (1 / s->rf_blocks - 1 / s->rf_cal_blocks) + s->rf_added / s->rf_blocks +
               s->rf_added_all;
    return s->rf_extra * (is_first(row_tile, s->rf_blocks) - is_first(row_tile, s->rf_cal_blocks)) +
           s->rf_added * is_first(row_tile, s->rf_blocks) + s->rf_added_all;
}
