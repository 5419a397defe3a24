#define _POSIX_C_SOURCE 200809L
#include "pg_progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* Nothing is drawn before this: short work stays silent. */
#define PG_PROGRESS_DELAY 0.5
/* Redraw interval on a terminal. */
#define PG_PROGRESS_TTY_INTERVAL 0.2

static int g_quiet;

void pg_progress_set_quiet(int quiet) { g_quiet = quiet; }
int pg_progress_quiet(void) { return g_quiet; }

double pg_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Seconds between plain lines when stderr is not a terminal. */
static double line_interval(void)
{
    const char *s = getenv("PEGEMM_PROGRESS_SECONDS");
    if (s == NULL || *s == '\0')
        return 2.0;
    char *end = NULL;
    double v = strtod(s, &end);
    return (end != s && *end == '\0' && v >= 0.0) ? v : 2.0;
}

void pg_progress_begin(pg_progress *p, const char *label, int64_t total)
{
    p->label = label;
    p->total = total > 0 ? total : 1;
    p->enabled = !g_quiet;
    p->tty = isatty(STDERR_FILENO);
    p->drawn = 0;
    p->decile = 0;
    p->t_start = pg_now_seconds();
    p->t_last = p->t_start;
}

void pg_progress_update(pg_progress *p, int64_t done)
{
    if (!p->enabled)
        return;
    const double t = pg_now_seconds(), el = t - p->t_start;
    const double interval = p->tty ? PG_PROGRESS_TTY_INTERVAL : line_interval();
    const double delay = interval < PG_PROGRESS_DELAY ? interval : PG_PROGRESS_DELAY;
    const double frac = (double)done / (double)p->total;
    const int decile = (int)(10.0 * frac);
    if (el < delay)
        return;
    const int due = t - p->t_last >= interval || !p->drawn || (!p->tty && decile > p->decile);
    if (!due)
        return;
    p->t_last = t;
    p->decile = decile;
    p->drawn = 1;
    const double eta = frac > 0 ? el * (1.0 - frac) / frac : 0.0;
    fprintf(stderr, "%s%s: %5.1f%%  %.1fs elapsed, ~%.0fs left%s", p->tty ? "\r" : "", p->label, 100.0 * frac, el, eta,
            p->tty ? "   " : "\n");
    fflush(stderr);
}

void pg_progress_end(pg_progress *p)
{
    if (!p->enabled || !p->drawn)
        return;
    fprintf(stderr, "%s%s: done in %.1fs%s\n", p->tty ? "\r" : "", p->label, pg_now_seconds() - p->t_start,
            p->tty ? "                              " : "");
    fflush(stderr);
}

void pg_note(const char *fmt, ...)
{
    if (g_quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
}
