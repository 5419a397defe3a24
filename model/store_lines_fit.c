/* The calibration points of the `stretch` and `storenear` lines (stretch.c,
 * storenear.c say what they do): the calibration's mean overlap of the
 * stretched latency with its `by` step, and its mean store position, read
 * off the fitted schedule's own replay of the trace with both lines only
 * recording, so that at the calibration neither moves anything and the
 * traced latencies replay as measured. */
#include <stdio.h>

#include "engine.h"
#include "fit.h"
#include "pg_error.h"
#include "sched.h"

#define CAL_TILES 20000

int store_lines_fit(pg_schedule *s)
{
    if (!s->st_line && !s->sn_line)
        return 0;
    engine E;
    if (engine_init(&E, s, 1, 0))
        return -1;
    E.lines_record_only = 1;
    for (int64_t k = 0; k < CAL_TILES; k++)
        engine_step(&E);
    char set[96];
    int rc = 0;
    if (s->st_line && E.st_n > 0) {
        snprintf(set, sizeof set, "stretch.overlap=%.9g", E.st_sum / (double)E.st_n);
        rc = pg_schedule_set(s, set, 0);
    }
    if (rc == 0 && s->sn_line && E.sn_n > 0) {
        snprintf(set, sizeof set, "storenear.cal=%.9g", E.sn_sum / (double)E.sn_n);
        rc = pg_schedule_set(s, set, 0);
    }
    engine_free(&E);
    return rc;
}
