/* Fitting a `colshare` line (model/colshare.c) to a run: its column blocks,
 * the run's N over its tile's N (rounded up: a partial block is a CTA
 * reading the row too), as both the line's B and the calibration's B0, so
 * the fit's own replays move nothing.  As overrides, so a recompile keeps
 * them; written back by the line's write hook. */
#include <math.h>
#include <stdio.h>

#include "fit.h"
#include "model.h"
#include "sched.h"

double colshare_run_blocks(const pg_run *run)
{
    const int tile_n = run->kernel.tile_n;
    return tile_n > 0 && run->problem.shape.N > 0 ? ceil((double)run->problem.shape.N / tile_n) : 0;
}

int colshare_fit(pg_schedule *s, const pg_run *run)
{
    const double blocks = colshare_run_blocks(run);
    if (!s->cs_line || !(blocks >= 1)) /* no line, or no tile width recorded: the schedule's stay */
        return 0;
    char set[64];
    snprintf(set, sizeof set, "colshare.blocks=%.17g", blocks);
    if (pg_schedule_set(s, set, 0))
        return -1;
    snprintf(set, sizeof set, "colshare.cal_blocks=%.17g", blocks);
    return pg_schedule_set(s, set, 0);
}
