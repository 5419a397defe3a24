/* Fitting a `dramq` line (model/dramq.c) to a trace: only the calibration's
 * SM clock is the run's own (the latencies it scales are the fit's per-tile
 * columns, the period is the `bandwidth` line's calibrated_period, the
 * bandwidths are the machines' copy floors, given with --set).  Recorded as
 * an override, so a recompile (`--set dramq=1`) keeps it. */
#include <stdio.h>

#include "fit.h"
#include "model.h"

int dramq_fit(pg_schedule *s)
{
    if (!s->dq_line)
        return 0;
    char set[64];
    snprintf(set, sizeof set, "dramq.clock_cal=%.9g", s->machine.clock_hz);
    return pg_schedule_set(s, set, 0);
}
