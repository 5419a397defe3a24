/* Progress for long runs: a single updating line on stderr, only when stderr
 * is a terminal (CI logs and pipes stay clean). */
#ifndef PG_PROGRESS_H
#define PG_PROGRESS_H

#include <stdint.h>

typedef struct {
    const char *label;
    int64_t total;
    int enabled;
    double t_start;
    double t_last;
} pg_progress;

void pg_progress_begin(pg_progress *p, const char *label, int64_t total);
/* Thread-safe to call from the master thread only; cheap when disabled. */
void pg_progress_update(pg_progress *p, int64_t done);
void pg_progress_end(pg_progress *p);
double pg_now_seconds(void);

#endif
