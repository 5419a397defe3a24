#include "chrome.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pg_error.h"
#include "pg_json.h"
#include "pg_outfile.h"

/* Thread id of a (role, warp) within its SM's process. */
static int64_t tid_of(int role, int warp) { return (int64_t)role * 1000 + warp; }

typedef struct {
    int64_t sm, tid;
} thread_key;

static int cmp_key(const void *a, const void *b)
{
    const thread_key *x = a, *y = b;
    if (x->sm != y->sm)
        return x->sm < y->sm ? -1 : 1;
    return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* Every record must name a real SM, role and phase and have a duration
 * (no negative "X" events); *max_sm: the highest SM named. */
static int check_exportable(const pg_trace *t, int64_t *max_sm)
{
    *max_sm = 0;
    for (int64_t i = 0; i < t->n; i++) {
        if (t->sm[i] < 0 || t->role[i] >= t->vocab.n_roles || t->phase[i] >= t->vocab.n_phases)
            return pg_fail("trace record %lld has sm %d, role %d, phase %d: not exportable", (long long)i, t->sm[i],
                           t->role[i], t->phase[i]);
        int64_t dur; /* durations must exist and be non-negative: no negative "X" events */
        if (__builtin_sub_overflow(t->end[i], t->begin[i], &dur) || dur < 0)
            return pg_fail("trace record %lld ends before it begins or out of range (begin %lld, end %lld)",
                           (long long)i, (long long)t->begin[i], (long long)t->end[i]);
        if (t->sm[i] > *max_sm)
            *max_sm = t->sm[i];
    }
    return 0;
}

/* With anchors for every traced SM: SM s's clock c happens at
 * globaltimer_s + (c - anchor_clock_s)/hz; shift so the earliest anchor is 0. */
static int origins_from_anchors(const pg_trace *t, int64_t max_sm, double hz, double *origin_us)
{
    int64_t g0 = INT64_MAX;
    for (int64_t s = 0; s <= max_sm; s++) /* -1: an SM that ran nothing (no records either) */
        if (t->anchor_globaltimer_ns[s] >= 0 && t->anchor_globaltimer_ns[s] < g0)
            g0 = t->anchor_globaltimer_ns[s];
    for (int64_t s = 0; s <= max_sm; s++) {
        origin_us[s] = 0;
        if (t->anchor_globaltimer_ns[s] < 0)
            continue;
        int64_t since; /* the reader bounds anchors; a run built in memory may not */
        if (__builtin_sub_overflow(t->anchor_globaltimer_ns[s], g0, &since))
            return pg_fail("SM %lld's globaltimer anchor %lld is out of range", (long long)s,
                           (long long)t->anchor_globaltimer_ns[s]);
        origin_us[s] = (double)since * 1e-3 - (double)t->anchor_clock[s] / hz * 1e6;
    }
    return 0;
}

/* Without anchors: each SM's own clock, starting at its first record (not aligned). */
static int origins_from_first_records(const pg_trace *t, int64_t max_sm, double hz, double *origin_us)
{
    for (int64_t s = 0; s <= max_sm; s++)
        origin_us[s] = 0;
    int64_t *first = malloc(((size_t)max_sm + 1) * sizeof *first);
    if (!first)
        return pg_fail("out of memory exporting the trace");
    for (int64_t s = 0; s <= max_sm; s++)
        first[s] = INT64_MAX;
    for (int64_t i = 0; i < t->n; i++)
        if (t->begin[i] < first[t->sm[i]])
            first[t->sm[i]] = t->begin[i];
    for (int64_t s = 0; s <= max_sm; s++)
        origin_us[s] = first[s] == INT64_MAX ? 0 : -(double)first[s] / hz * 1e6;
    free(first);
    return 0;
}

/* Shift the common axis so the earliest event is at 0 (Perfetto and
 * chrome://tracing expect non-negative timestamps). */
static void shift_to_zero(const pg_trace *t, int64_t max_sm, double hz, double *origin_us)
{
    double t_min = INFINITY;
    for (int64_t i = 0; i < t->n; i++) {
        double ts = origin_us[t->sm[i]] + (double)t->begin[i] / hz * 1e6;
        if (ts < t_min)
            t_min = ts;
    }
    for (int64_t s = 0; s <= max_sm; s++)
        origin_us[s] -= t_min;
}

static void write_other_data(pg_json *j, const pg_run *run, const char *run_name, double hz, int aligned)
{
    pg_json_key(j, "otherData");
    pg_json_object_begin(j);
    pg_json_kv_string(j, "run", run_name);
    pg_json_kv_string(j, "kernel", run->kernel.name);
    pg_json_kv_string(j, "device", run->kernel.device);
    pg_json_kv_number(j, "sm_clock_hz", hz);
    pg_json_kv_bool(j, "sms_aligned_by_globaltimer", aligned);
    pg_json_object_end(j);
}

/* A metadata ("M") event naming a process (has_tid 0) or a thread. */
static void write_name_event(pg_json *j, const char *what, int64_t pid, int has_tid, int64_t tid, const char *name)
{
    pg_json_object_begin(j);
    pg_json_kv_string(j, "ph", "M");
    pg_json_kv_string(j, "name", what);
    pg_json_kv_int(j, "pid", pid);
    if (has_tid)
        pg_json_kv_int(j, "tid", tid);
    pg_json_key(j, "args");
    pg_json_object_begin(j);
    pg_json_kv_string(j, "name", name);
    pg_json_object_end(j);
    pg_json_object_end(j);
}

/* One process name per SM and one thread name per (role, warp) in it, in
 * (SM, thread) order; keys: room for t->n of them. */
static void write_names(pg_json *j, const pg_trace *t, thread_key *keys, pg_chrome_counts *counts)
{
    for (int64_t i = 0; i < t->n; i++)
        keys[i] = (thread_key){t->sm[i], tid_of(t->role[i], t->warp[i])};
    qsort(keys, (size_t)t->n, sizeof *keys, cmp_key);
    for (int64_t i = 0; i < t->n; i++) {
        int new_sm = i == 0 || keys[i].sm != keys[i - 1].sm;
        if (!new_sm && keys[i].tid == keys[i - 1].tid)
            continue;
        char name[64];
        if (new_sm) {
            snprintf(name, sizeof name, "SM %lld", (long long)keys[i].sm);
            write_name_event(j, "process_name", keys[i].sm, 0, 0, name);
            counts->process_names++;
        }
        snprintf(name, sizeof name, "%s %lld", t->vocab.role[keys[i].tid / 1000], (long long)(keys[i].tid % 1000));
        write_name_event(j, "thread_name", keys[i].sm, 1, keys[i].tid, name);
        counts->thread_names++;
    }
}

/* One complete ("X") event per trace record. */
static void write_phase_events(pg_json *j, const pg_trace *t, const double *origin_us, double hz,
                               pg_chrome_counts *counts)
{
    for (int64_t i = 0; i < t->n; i++) {
        /* 0.1 ns resolution (a cycle is ~0.6 ns) keeps the numbers short */
        double ts = round((origin_us[t->sm[i]] + (double)t->begin[i] / hz * 1e6) * 1e4) / 1e4;
        double dur = round((double)(t->end[i] - t->begin[i]) / hz * 1e6 * 1e4) / 1e4;
        pg_json_object_begin(j);
        pg_json_kv_string(j, "ph", "X");
        pg_json_kv_string(j, "name", t->vocab.phase[t->phase[i]]);
        pg_json_kv_string(j, "cat", t->vocab.phase_is_wait[t->phase[i]] ? "wait" : "work");
        pg_json_kv_int(j, "pid", t->sm[i]);
        pg_json_kv_int(j, "tid", tid_of(t->role[i], t->warp[i]));
        pg_json_kv_number(j, "ts", ts);
        pg_json_kv_number(j, "dur", dur);
        pg_json_key(j, "args");
        pg_json_object_begin(j);
        pg_json_kv_int(j, "tile", t->tile[i]);
        pg_json_kv_int(j, "cycles", t->end[i] - t->begin[i]);
        pg_json_object_end(j);
        pg_json_object_end(j);
        counts->phase_events++;
    }
}

int pg_chrome_write(FILE *f, const pg_run *run, const char *run_name, pg_chrome_counts *counts)
{
    const pg_trace *t = &run->trace;
    const double hz = run->kernel.sm_clock_hz > 0 ? run->kernel.sm_clock_hz : run->trace.clock_hz;
    int rc = -1;
    thread_key *keys = NULL;
    double *origin_us = NULL; /* per SM: the time (us) of clock 0 on the common axis */
    pg_json j;
    int64_t max_sm;

    memset(counts, 0, sizeof *counts);
    if (t->n <= 0)
        return pg_fail("the run has no trace to export");
    if (!(hz > 0))
        return pg_fail("the run has no measured SM clock (/kernel sm_clock_hz or /trace clock_hz = %g), so cycles "
                       "cannot become time",
                       hz);
    if (check_exportable(t, &max_sm) != 0)
        return -1;
    keys = malloc((size_t)t->n * sizeof *keys);
    origin_us = calloc((size_t)max_sm + 1, sizeof *origin_us);
    if (!keys || !origin_us) {
        pg_fail("out of memory exporting %lld trace records", (long long)t->n);
        goto done;
    }
    counts->aligned = t->n_sm > max_sm; /* anchors for every traced SM */
    if ((counts->aligned ? origins_from_anchors(t, max_sm, hz, origin_us)
                         : origins_from_first_records(t, max_sm, hz, origin_us)) != 0)
        goto done;
    shift_to_zero(t, max_sm, hz, origin_us);

    pg_json_init(&j, f, 0);
    pg_json_object_begin(&j);
    pg_json_kv_string(&j, "displayTimeUnit", "ns");
    write_other_data(&j, run, run_name, hz, counts->aligned);
    pg_json_key(&j, "traceEvents");
    pg_json_array_begin(&j);
    write_names(&j, t, keys, counts);
    write_phase_events(&j, t, origin_us, hz, counts);
    pg_json_array_end(&j);
    pg_json_object_end(&j);
    if (pg_json_finish(&j) != 0)
        goto done;
    rc = 0;
done:
    free(keys);
    free(origin_us);
    return rc;
}

int pg_chrome_save(const char *path, const pg_run *run, const char *run_name, pg_chrome_counts *counts)
{
    pg_outfile o;
    if (pg_outfile_open(&o, path) != 0)
        return -1;
    if (pg_chrome_write(o.f, run, run_name, counts) != 0) {
        /* a write error is the output's; anything else is the run's trace */
        int write_failed = ferror(o.f);
        pg_outfile_abort(&o);
        return pg_fail_context("%s", write_failed ? path : run_name);
    }
    return pg_outfile_commit(&o);
}
