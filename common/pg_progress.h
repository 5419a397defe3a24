/* Progress and the one-line summaries of long runs, on stderr.
 *
 * On a terminal a single line is redrawn; otherwise (CI logs, files, pipes)
 * a plain line is printed at each further 10% or every PEGEMM_PROGRESS_SECONDS
 * (default 2) seconds, so a redirected run still shows it is alive.  Work
 * that ends within half a second prints nothing.  `--quiet` (pg_cli) turns
 * all of it off, summaries included; errors are never quiet. */
#ifndef PG_PROGRESS_H
#define PG_PROGRESS_H

#include <stdint.h>

#include "pg_error.h"

typedef struct {
    const char *label;
    int64_t total;
    int enabled;
    int tty;
    int drawn;      /* anything printed yet (the end line follows only then) */
    int decile;     /* last 10% step printed (not a terminal) */
    double t_start;
    double t_last;
} pg_progress;

void pg_progress_begin(pg_progress *p, const char *label, int64_t total);
/* Call from one thread only (OpenMP: the master); cheap when nothing is due. */
void pg_progress_update(pg_progress *p, int64_t done);
void pg_progress_end(pg_progress *p);
double pg_now_seconds(void);

/* --quiet: no progress and no summary lines (process-wide). */
void pg_progress_set_quiet(int quiet);
int pg_progress_quiet(void);

/* A summary line on stderr ("wrote ref.h5 (...)"), unless quiet. */
void pg_note(const char *fmt, ...) PG_PRINTF(1, 2);

#endif
