/* Measured trace against the cycle model fitted to it: per phase and per
 * wait (mean, p50, p95), tile period and wall clock, each flagged when the
 * model misses by more than the stated tolerance. */
#ifndef PG_VERIFY_TRACE_MODEL_H
#define PG_VERIFY_TRACE_MODEL_H

#include <stdio.h>

#include "model.h"
#include "pg_json.h"

#define PG_TRACE_CMP_MAX 160

typedef struct {
    double rel;        /* relative tolerance, e.g. 0.15 */
    double abs_cycles; /* absolute floor for cycle figures (short waits are noisy) */
} pg_tolerance;

typedef struct {
    char name[48];      /* "mainloop.p95", "tile_period", "wall_ms" */
    char unit[8];       /* "cycles" or "ms" */
    double measured, predicted;
    double allowed;     /* the tolerance applied to this figure */
    int flagged;
} pg_trace_cmp_row;

typedef struct {
    pg_tolerance tol;
    char schedule[64];
    pg_prediction measured, predicted;
    int nrows, flagged;
    pg_trace_cmp_row rows[PG_TRACE_CMP_MAX];
    /* the run's own timing sets (CUDA events), for context: medians in ms,
     * NAN when absent; not flagged (the trace's span is the wall compared) */
    double timed_trace_ms, timed_production_ms;
} pg_trace_cmp;

/* Default: 15% or 150 cycles, whichever is larger. */
pg_tolerance pg_tolerance_default(void);
/* "REL" or "REL,ABS" (REL a fraction like 0.15 or a percentage like 15%). */
int pg_tolerance_parse(const char *s, pg_tolerance *out);

/* Fit the model to the run's trace, predict, and compare.  `fitted`, if not
 * NULL, receives the fitted schedule (caller frees). */
/* ... with a given schedule (a built-in name or a .sched file; NULL: the run's). */
int pg_trace_compare_as(const pg_run *run, const char *schedule, const pg_model_opts *opts, pg_tolerance tol,
                        pg_trace_cmp *out, pg_schedule **fitted);
int pg_trace_compare(const pg_run *run, const pg_model_opts *opts, pg_tolerance tol, pg_trace_cmp *out,
                     pg_schedule **fitted);
/* Compare a measured summary and a prediction (the core of the above). */
void pg_trace_compare_stats(const pg_prediction *measured, const pg_prediction *predicted, pg_tolerance tol,
                            pg_trace_cmp *out);
void pg_trace_cmp_print(FILE *f, const pg_trace_cmp *c);
void pg_trace_cmp_json(pg_json *j, const pg_trace_cmp *c);

#endif
