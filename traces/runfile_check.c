/* Consistency checks of a run in memory, shared by the writer (so no file
 * that the reader would reject is ever written) and the reader. */
#include <inttypes.h>
#include <string.h>

#include "pg_error.h"
#include "pg_limits.h"
#include "problem_terms.h"
#include "runfile_internal.h"

int pg_runfile_check_rows(const int64_t *rows, int64_t n, int64_t M, const char *where)
{
    for (int64_t i = 0; i < n; i++) {
        if (rows[i] < 0 || rows[i] >= M)
            return pg_fail("%s[%" PRId64 "] = %" PRId64 " is out of range (M = %" PRId64 ")", where, i, rows[i], M);
        if (i > 0 && rows[i] <= rows[i - 1])
            return pg_fail("%s is not strictly increasing: [%" PRId64 "] = %" PRId64 " follows %" PRId64, where, i,
                           rows[i], rows[i - 1]);
    }
    return 0;
}

/* Clock values in [0, PG_LIMIT_CLOCK_VALUE): every difference and every
 * sum of two of them fits an int64, whatever a reader computes. */
static int clock_ok(int64_t v) { return v >= 0 && v < PG_LIMIT_CLOCK_VALUE; }

static int check_interval(const pg_trace *t, int64_t i, int n_roles, int n_phases, const char *where)
{
    if (t->role[i] >= n_roles)
        return pg_fail("%s/role[%" PRId64 "] = %d is not a known role (%d roles)", where, i, t->role[i], n_roles);
    if (t->phase[i] >= n_phases)
        return pg_fail("%s/phase[%" PRId64 "] = %d is not a known phase (%d phases)", where, i, t->phase[i],
                       n_phases);
    if (t->sm[i] < 0 || t->sm[i] >= t->n_sm)
        return pg_fail("%s/sm[%" PRId64 "] = %d is out of range (%" PRId64 " SMs have anchors)", where, i, t->sm[i],
                       t->n_sm);
    if (t->warp[i] < 0 || t->tile[i] < 0)
        return pg_fail("%s: interval %" PRId64 " has warp %d, tile %d (must not be negative)", where, i, t->warp[i],
                       t->tile[i]);
    if (!clock_ok(t->begin[i]) || !clock_ok(t->end[i]))
        return pg_fail("%s: interval %" PRId64 " has begin %" PRId64 ", end %" PRId64 " (clock values must be in [0, 2^62))",
                       where, i, t->begin[i], t->end[i]);
    if (t->begin[i] > t->end[i])
        return pg_fail("%s: interval %" PRId64 " ends before it begins (begin %" PRId64 " > end %" PRId64 ")", where,
                       i, t->begin[i], t->end[i]);
    int s = t->sm[i];
    if (!clock_ok(t->anchor_clock[s]) || !clock_ok(t->anchor_globaltimer_ns[s]))
        return pg_fail("%s: SM %d has intervals but its anchor is missing or out of range (anchor_clock %" PRId64
                       ", anchor_globaltimer_ns %" PRId64 ")",
                       where, s, t->anchor_clock[s], t->anchor_globaltimer_ns[s]);
    return 0;
}

int pg_runfile_check_trace(const pg_trace *t, int n_roles, int n_phases, const char *where)
{
    if (t->n > 0 && t->n_sm < 1)
        return pg_fail("%s has %" PRId64 " intervals but no per-SM anchors (anchor_clock is empty)", where, t->n);
    if (t->n > PG_LIMIT_TRACE_ROWS || t->n_sm > PG_LIMIT_SM_COUNT)
        return pg_fail("%s has %" PRId64 " intervals on %" PRId64 " SMs; at most %" PRId64 " on %d are allowed", where,
                       t->n, t->n_sm, PG_LIMIT_TRACE_ROWS, PG_LIMIT_SM_COUNT);
    for (int64_t i = 0; i < t->n; i++)
        if (check_interval(t, i, n_roles, n_phases, where) < 0)
            return -1;
    return 0;
}

static int int_in(const char *name, int64_t v, int64_t lo, int64_t hi)
{
    if (v < lo || v > hi)
        return pg_fail("attribute %s of /kernel is %" PRId64 "; it must be in [%" PRId64 ", %" PRId64 "]", name, v, lo,
                       hi);
    return 0;
}

int pg_runfile_check_kernel(const pg_kernel_info *k)
{
    if (strnlen(k->name, sizeof k->name) == sizeof k->name || strnlen(k->device, sizeof k->device) == sizeof k->device)
        return pg_fail("kernel name or device is not NUL-terminated");
    /* !(a <= x && x <= b) also refuses NaN */
    if (!(k->sm_clock_hz >= PG_LIMIT_CLOCK_HZ_MIN && k->sm_clock_hz <= PG_LIMIT_CLOCK_HZ_MAX))
        return pg_fail("attribute sm_clock_hz of /kernel is %g; it must be a clock in [%g, %g] Hz", k->sm_clock_hz,
                       PG_LIMIT_CLOCK_HZ_MIN, PG_LIMIT_CLOCK_HZ_MAX);
    if (int_in("sm_count", k->sm_count, 1, PG_LIMIT_SM_COUNT) < 0 || int_in("tile_m", k->tile_m, 1, PG_LIMIT_TILE) < 0 ||
        int_in("tile_n", k->tile_n, 1, PG_LIMIT_TILE) < 0 || int_in("tile_k", k->tile_k, 1, PG_LIMIT_TILE) < 0 ||
        int_in("stages", k->stages, 1, PG_LIMIT_STAGES) < 0 ||
        int_in("consumers", k->consumers, 1, PG_LIMIT_CONSUMERS) < 0 ||
        int_in("trace_build", k->trace_build, 0, 1) < 0 || int_in("epi_delay", k->epi_delay, 0, PG_LIMIT_DELAY) < 0 ||
        int_in("mainloop_delay", k->mainloop_delay, 0, PG_LIMIT_DELAY) < 0 ||
        int_in("l2_bytes", k->l2_bytes, 0, PG_LIMIT_L2_BYTES) < 0 ||
        int_in("cluster", k->cluster, 0, PG_LIMIT_CLUSTER) < 0)
        return -1;
    return 0;
}

int pg_runfile_check_timing_name(const char *name, size_t cap)
{
    size_t len = strnlen(name, cap);
    if (len == cap)
        return pg_fail("a timing name is not NUL-terminated within %zu bytes", cap);
    if (len == 0 || strchr(name, '/') || strcmp(name, ".") == 0)
        return pg_fail("timing name '%s' is not a valid HDF5 link name (empty, '.', or contains '/')", name);
    return 0;
}

static int check_outputs(const pg_run *run)
{
    int64_t M = run->problem.shape.M;
    if (run->nrows < 0)
        return pg_fail("nrows = %" PRId64 " is negative", run->nrows);
    if (run->nrows == 0)
        return 0;
    if (run->accum.name == NULL && (unsigned)run->mode >= PG_ACC_COUNT)
        return pg_fail("accumulation mode %d is not a known mode", (int)run->mode);
    if (run->accum.name != NULL && pg_accum_params_check(&run->accum) < 0)
        return -1;
    if ((unsigned)run->epilogue >= PG_EPI_COUNT)
        return pg_fail("epilogue %d is not a known epilogue", (int)run->epilogue);
    if (strnlen(run->library, sizeof run->library) == sizeof run->library)
        return pg_fail("library preset name is not NUL-terminated");
    if (run->library[0] && !pg_lib_epilogue_find(run->library))
        return -1;
    int fp32 = run->problem.out == PG_OUT_FP32;
    if ((fp32 && !run->D32) || (!fp32 && !run->D))
        return pg_fail("nrows = %" PRId64 " but %s is NULL", run->nrows, fp32 ? "D32 (fp32 outputs)" : "D");
    if (!run->rows && run->nrows != M)
        return pg_fail("rows is NULL (all rows) but nrows = %" PRId64 " and M = %" PRId64, run->nrows, M);
    if (run->rows)
        return pg_runfile_check_rows(run->rows, run->nrows, M, "rows");
    return 0;
}

static int check_timings(const pg_run *run)
{
    if (run->ntimings < 0 || run->ntimings > PG_MAX_TIMINGS)
        return pg_fail("ntimings = %d is outside [0, %d]", run->ntimings, PG_MAX_TIMINGS);
    for (int i = 0; i < run->ntimings; i++) {
        const pg_timing *t = &run->timings[i];
        if (pg_runfile_check_timing_name(t->name, sizeof t->name) < 0)
            return -1;
        if (t->n < 1 || !t->ms)
            return pg_fail("timing set '%s' has no samples", t->name);
        for (int j = 0; j < i; j++)
            if (strcmp(run->timings[j].name, t->name) == 0)
                return pg_fail("timing set '%s' appears twice", t->name);
    }
    return 0;
}

static int check_trace(const pg_trace *t)
{
    if (t->n < 0 || t->n_sm < 0)
        return pg_fail("trace sizes are negative (n = %" PRId64 ", n_sm = %" PRId64 ")", t->n, t->n_sm);
    if (t->n == 0)
        return 0;
    if (!t->sm || !t->role || !t->warp || !t->tile || !t->phase || !t->begin || !t->end)
        return pg_fail("trace has %" PRId64 " intervals but a column is NULL", t->n);
    if (t->n_sm > 0 && (!t->anchor_clock || !t->anchor_globaltimer_ns))
        return pg_fail("trace has %" PRId64 " SM anchors but an anchor array is NULL", t->n_sm);
    if (pg_vocab_check(&t->vocab) < 0)
        return pg_fail_context("trace vocabulary");
    if (!(t->clock_hz == 0 || (t->clock_hz >= PG_LIMIT_CLOCK_HZ_MIN && t->clock_hz <= PG_LIMIT_CLOCK_HZ_MAX)))
        return pg_fail("trace clock_hz %g is not 0 or a clock in [%g, %g] Hz", t->clock_hz, PG_LIMIT_CLOCK_HZ_MIN,
                       PG_LIMIT_CLOCK_HZ_MAX);
    if (strnlen(t->schedule, sizeof t->schedule) == sizeof t->schedule ||
        strnlen(t->kernel, sizeof t->kernel) == sizeof t->kernel)
        return pg_fail("trace schedule or kernel name is not NUL-terminated");
    return pg_runfile_check_trace(t, t->vocab.n_roles, t->vocab.n_phases, "trace");
}

static int check_kernel(const pg_kernel_info *k, const pg_trace *t)
{
    if (!k->present)
        return 0;
    if (pg_runfile_check_kernel(k) < 0)
        return -1;
    if (t->n_sm > k->sm_count)
        return pg_fail("the trace has anchors for %" PRId64 " SMs but the kernel ran on %d", t->n_sm, k->sm_count);
    return 0;
}

int pg_runfile_check_run(const pg_run *run, int store_problem)
{
    const pg_problem *p = &run->problem;
    if (p->shape.M == 0 && p->shape.N == 0 && p->shape.K == 0) { /* no GEMM problem: a trace of another kernel */
        if (run->nrows != 0)
            return pg_fail("the run has outputs but no problem");
        if (store_problem)
            return pg_fail("store_problem is set but the run has no problem");
    } else if (pg_shape_check(&p->shape) < 0)
        return pg_fail_context("problem shape");
    size_t flen = strnlen(p->family, sizeof p->family);
    if (p->shape.M != 0 && (flen == 0 || flen == sizeof p->family))
        return pg_fail("problem family is empty or not NUL-terminated");
    int store = store_problem || strcmp(p->family, "file") == 0;
    if (store && (!p->A || !p->B || (!p->combined && p->shape.P > 0)))
        return pg_fail("the inputs must be stored (family '%s'%s) but A, B or combined is NULL", p->family,
                       store_problem ? ", store_problem set" : "");
    if ((store ? pg_problem_terms_check(p) : pg_problem_terms_check_kinds(p)) < 0)
        return pg_fail_context("problem terms");
    if (check_outputs(run) < 0)
        return pg_fail_context("outputs");
    if (check_timings(run) < 0)
        return pg_fail_context("timings");
    if (check_trace(&run->trace) < 0)
        return -1;
    return check_kernel(&run->kernel, &run->trace);
}
