/* solve=tile (docs/experiments.md M86): a traced tile's contended work
 * already holds the contention of its own overlap, so the engine's solve
 * moves each replayed row by the model's overlap less that row's, not less
 * the trace's mean (which would count a row's contention twice and, through
 * the solve's feedback, lengthen the calibration's own period).  The rows'
 * overlaps ride in the fit's per-tile table as one more column,
 * "@ov:PHASE" (NAN where the trace has none; sched_table.c names and
 * finds it), so the table's copies and block draws keep them with their
 * row. */
#include <stdint.h>

#include "fit.h"
#include "sched.h"

int contend_table_set_overlaps(pg_schedule *s, int line, const int64_t *row, const double *ov, int64_t n)
{
    char name[SCH_NAME + 8];
    sch_table_contend_name(&s->ct[line], name, sizeof name);
    const int col = sch_table_fresh_column(s, name);
    if (col < 0)
        return -1;
    for (int64_t i = 0; i < n; i++)
        s->table->v[row[i] * s->table->cols + col] = ov[i];
    return 0;
}
