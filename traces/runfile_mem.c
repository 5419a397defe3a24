/* Allocation and release of the in-memory run (pg_run, pg_trace, pg_timing). */
#include <stdlib.h>
#include <string.h>

#include "pg_alloc.h"
#include "pg_error.h"
#include "runfile.h"
#include "runfile_internal.h"

void pg_trace_free(pg_trace *t)
{
    free(t->sm);
    free(t->role);
    free(t->warp);
    free(t->tile);
    free(t->phase);
    free(t->begin);
    free(t->end);
    free(t->anchor_clock);
    free(t->anchor_globaltimer_ns);
    memset(t, 0, sizeof *t);
}

void pg_run_free(pg_run *run)
{
    if (!run)
        return;
    pg_problem_free(&run->problem);
    free(run->rows);
    free(run->D);
    free(run->D32);
    free(run->acc);
    for (int i = 0; i < run->ntimings && i < PG_MAX_TIMINGS; i++)
        free(run->timings[i].ms);
    pg_trace_free(&run->trace);
    memset(run, 0, sizeof *run);
}

int pg_trace_alloc(pg_trace *t, int64_t n, int64_t n_sm)
{
    memset(t, 0, sizeof *t);
    if (n < 0 || n_sm < 0)
        return pg_fail("trace size must not be negative (n = %lld, n_sm = %lld)", (long long)n, (long long)n_sm);
    /* calloc(0) may return NULL; allocate at least one element so a
     * successful call always leaves usable (non-NULL) columns. */
    size_t rn = n ? (size_t)n : 1, sn = n_sm ? (size_t)n_sm : 1;
    t->sm = calloc(rn, sizeof *t->sm);
    t->role = calloc(rn, sizeof *t->role);
    t->warp = calloc(rn, sizeof *t->warp);
    t->tile = calloc(rn, sizeof *t->tile);
    t->phase = calloc(rn, sizeof *t->phase);
    t->begin = calloc(rn, sizeof *t->begin);
    t->end = calloc(rn, sizeof *t->end);
    t->anchor_clock = calloc(sn, sizeof *t->anchor_clock);
    t->anchor_globaltimer_ns = calloc(sn, sizeof *t->anchor_globaltimer_ns);
    if (!t->sm || !t->role || !t->warp || !t->tile || !t->phase || !t->begin || !t->end || !t->anchor_clock ||
        !t->anchor_globaltimer_ns) {
        pg_trace_free(t);
        return pg_fail("out of memory for a trace of %lld intervals", (long long)n);
    }
    t->n = n;
    t->n_sm = n_sm;
    return 0;
}

int pg_run_add_timing(pg_run *run, const char *name, const double *ms, int64_t n, double flops, double bytes)
{
    if (run->ntimings >= PG_MAX_TIMINGS)
        return pg_fail("too many timing sets (at most %d); cannot add '%s'", PG_MAX_TIMINGS, name);
    if (strlen(name) >= sizeof run->timings[0].name)
        return pg_fail("timing name '%s' is longer than %zu characters", name, sizeof run->timings[0].name - 1);
    if (pg_runfile_check_timing_name(name, sizeof run->timings[0].name) < 0)
        return -1;
    for (int i = 0; i < run->ntimings; i++)
        if (strcmp(run->timings[i].name, name) == 0)
            return pg_fail("timing set '%s' is already in the run", name);
    if (n < 1 || !ms)
        return pg_fail("timing set '%s' has no samples", name);
    pg_timing *t = &run->timings[run->ntimings];
    memset(t, 0, sizeof *t);
    if (!(t->ms = pg_alloc("timing samples", n, sizeof *t->ms)))
        return -1;
    memcpy(t->ms, ms, (size_t)n * sizeof *t->ms);
    strcpy(t->name, name);
    t->n = n;
    t->flops = flops;
    t->bytes = bytes;
    run->ntimings++;
    return 0;
}
