/* A trace as Chrome trace-event JSON (chrome://tracing, Perfetto): one
 * process per SM, one thread per warp role and warp, one complete ("X")
 * event per phase interval.  Cycles become microseconds with the run's
 * measured SM clock; SMs are placed on one time axis by their %globaltimer
 * anchors (clock64 counters of different SMs are not synchronised). */
#ifndef PG_VERIFY_CHROME_H
#define PG_VERIFY_CHROME_H

#include <stdint.h>
#include <stdio.h>

#include "runfile.h"

typedef struct {
    int64_t phase_events;    /* "X" events, one per trace record */
    int64_t process_names;   /* "M" process_name events (SMs) */
    int64_t thread_names;    /* "M" thread_name events (role, warp per SM) */
    int aligned;             /* 1 if %globaltimer anchors placed the SMs */
} pg_chrome_counts;

/* Write the JSON to f.  -1 with a message if the run has no trace or no
 * usable clock (sm_clock_hz <= 0). */
int pg_chrome_write(FILE *f, const pg_run *run, const char *run_name, pg_chrome_counts *counts);
/* The same, to `path` atomically.  A message names `path` when the file
 * could not be made, and `run_name` when the run could not be exported. */
int pg_chrome_save(const char *path, const pg_run *run, const char *run_name, pg_chrome_counts *counts);

#endif
