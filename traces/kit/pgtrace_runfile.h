/* pgtrace -> pegemm run file: a pgtrace_write_fn that writes the view as a
 * schema-v2 run file (traces/runfile.h): the trace in the kernel's own
 * vocabulary, per-SM anchors, the measured clock, the kernel's name and,
 * if given, the schedule that describes it.  No GEMM problem, no /kernel.
 *
 *   pgtrace_runfile dst = {"trace.h5", "my_kernel.sched"};
 *   pgtrace_emit(&t, &vocab, "my_kernel", pgtrace_write_runfile, &dst);
 *
 * Unlike the rest of the kit this part needs pegemm's traces library (and
 * HDF5): link it with pegemm's traces/ sources. */
#ifndef PGTRACE_RUNFILE_H
#define PGTRACE_RUNFILE_H

#include "pgtrace_trace.h"
#include "runfile.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const char *path;     /* the run file to write (atomically; nothing changes on failure) */
    const char *schedule; /* /trace schedule: a built-in name or a .sched path; NULL or "" for none */
} pgtrace_runfile;

/* The view as a pg_run (trace only); -1 with pg_fail() if the vocabulary
 * does not fit a run file's (at most PG_VOCAB_MAX_ROLES roles and
 * PG_VOCAB_MAX_PHASES phases, names at most PG_VOCAB_NAME - 1 long). */
int pgtrace_view_to_run(const pgtrace_view *v, const char *schedule, pg_run *run);
/* A pgtrace_write_fn: ctx is a pgtrace_runfile. */
int pgtrace_write_runfile(void *ctx, const pgtrace_view *view);
/* A CSV trace (pgtrace_csv.h) converted to a run file, data unchanged:
 * 0, or -1 with pg_fail() naming the file and the problem (nothing is
 * written then). */
int pgtrace_csv_to_runfile(const char *csv_path, const char *run_path, const char *schedule);

#ifdef __cplusplus
}
#endif

#endif
