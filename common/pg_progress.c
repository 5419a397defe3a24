#define _POSIX_C_SOURCE 200809L
#include "pg_progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

double pg_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void pg_progress_begin(pg_progress *p, const char *label, int64_t total)
{
    p->label = label;
    p->total = total > 0 ? total : 1;
    p->enabled = isatty(STDERR_FILENO);
    p->t_start = pg_now_seconds();
    p->t_last = 0.0;
}

void pg_progress_update(pg_progress *p, int64_t done)
{
    if (!p->enabled)
        return;
    double t = pg_now_seconds();
    if (t - p->t_last < 0.2 && done < p->total)
        return;
    p->t_last = t;
    double frac = (double)done / (double)p->total;
    double el = t - p->t_start;
    double eta = frac > 0 ? el * (1.0 - frac) / frac : 0.0;
    fprintf(stderr, "\r%s: %5.1f%%  %.1fs elapsed, ~%.0fs left   ", p->label, 100.0 * frac, el, eta);
    fflush(stderr);
}

void pg_progress_end(pg_progress *p)
{
    if (!p->enabled)
        return;
    fprintf(stderr, "\r%s: done in %.1fs%30s\n", p->label, pg_now_seconds() - p->t_start, "");
}
