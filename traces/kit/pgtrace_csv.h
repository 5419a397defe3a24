/* pgtrace's intermediate trace file: CSV with a header naming the
 * vocabulary (traces/kit/README.md "The CSV trace").  A writer for
 * pgtrace_emit and a reader that validates and loads it back, so a trace
 * taken today converts into a run file once run files carry their own
 * vocabularies.  No CUDA needed. */
#ifndef PGTRACE_CSV_H
#define PGTRACE_CSV_H

#include <stdint.h>

#include "pgtrace_trace.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PGTRACE_CSV_MAGIC "# pgtrace-csv 1"
#define PGTRACE_CSV_COLUMNS "sm,role,warp,tile,phase,begin,end"

/* A pgtrace_write_fn: ctx is the destination path (const char *).  Written
 * atomically: a temporary file in the same directory, synced, renamed over
 * the path; on any failure the path is left as it was. */
int pgtrace_write_csv(void *path, const pgtrace_view *view);

/* A CSV trace read back: owns everything it points to. */
typedef struct {
    char kernel[128];
    int n_roles, n_phases;
    char **role_names, **phase_names;
    unsigned char *phase_is_wait;
    pgtrace_vocab vocab; /* views of the three arrays above */
    int32_t n_sm;
    int64_t *anchor_clock, *anchor_globaltimer_ns; /* [n_sm], -1 where none */
    double clock_hz, clock_hz_nominal;
    unsigned long long count;
    int64_t dropped;
    int64_t n_events;
    pgtrace_event *events;
} pgtrace_csv;

/* Read and validate (every name known, every SM anchored, begin <= end,
 * count = events + dropped).  On failure `out` is left empty and the message
 * names the file and line. */
int pgtrace_read_csv(const char *path, pgtrace_csv *out);
void pgtrace_csv_free(pgtrace_csv *f);

#ifdef __cplusplus
}
#endif

#endif
