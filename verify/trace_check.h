/* Is a trace possible at all, and does it belong to the run's kernel?
 * Checked before any model comparison, because a fit to an impossible
 * trace produces confident nonsense. */
#ifndef PG_VERIFY_TRACE_CHECK_H
#define PG_VERIFY_TRACE_CHECK_H

#include <stdint.h>
#include <stdio.h>

#include "model.h"
#include "runfile.h"

#define PG_TRACE_MAX_NOTES 8

typedef struct {
    int64_t records;
    int64_t impossible;      /* violations of time or phase order */
    int64_t config_mismatch; /* disagreements with the run's /kernel attributes */
    int nnotes;              /* the first few problems, described */
    char notes[PG_TRACE_MAX_NOTES][256];
} pg_trace_issues;

/* 0 when the checks ran (issues, if any, are in *out); -1 with a message on
 * an internal failure (out of memory) or a run without a trace.  The
 * schedule that describes the kernel (NULL: none) says which phases each
 * role runs and in what order within a tile; any vocabulary. */
int pg_trace_check(const pg_run *run, const pg_schedule *s, pg_trace_issues *out);
void pg_trace_issues_print(FILE *f, const pg_trace_issues *t);


#endif
