/* Is a trace possible at all, and does it belong to the run's kernel?
 * Checked before any model comparison, because a fit to an impossible
 * trace produces confident nonsense. */
#ifndef PG_VERIFY_TRACE_CHECK_H
#define PG_VERIFY_TRACE_CHECK_H

#include <stdint.h>
#include <stdio.h>

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
 * an internal failure (out of memory) or a run without a trace. */
int pg_trace_check(const pg_run *run, pg_trace_issues *out);
void pg_trace_issues_print(FILE *f, const pg_trace_issues *t);

/* Which phases a role may record (the schedules of phases.h). */
int pg_role_has_phase(pg_role r, pg_phase p);
/* Does the kernel name denote the Blackwell seed schedule (mma/epilogue roles)? */
int pg_kernel_is_b200(const char *kernel_name);

#endif
