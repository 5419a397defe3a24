/* solve=tile (docs/experiments.md M86): a traced tile's contended work
 * already holds the contention of its own overlap, so the engine's solve
 * moves each replayed row by the model's overlap less that row's, not less
 * the trace's mean (which would count a row's contention twice and, through
 * the solve's feedback, lengthen the calibration's own period).  The rows'
 * overlaps ride in the fit's per-tile table as one more column,
 * "@ov:PHASE" (NAN where the trace has none; sched_table.c names and
 * finds it), so the table's copies and block draws keep them with their
 * row. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"
#include "pg_error.h"
#include "sched.h"

int contend_table_set_overlaps(pg_schedule *s, int line, const int64_t *row, const double *ov, int64_t n)
{
    sch_table *T = s->table;
    char name[SCH_NAME + 8];
    sch_table_contend_name(&s->ct[line], name, sizeof name);
    int col = sch_table_contend_column(s, line);
    if (col < 0) {
        col = sch_table_add_column(T, name);
        if (col < 0)
            return -1;
    }
    for (int64_t r = 0; r < T->rows; r++)
        T->v[r * T->cols + col] = NAN;
    for (int64_t i = 0; i < n; i++)
        T->v[row[i] * T->cols + col] = ov[i];
    return 0;
}
