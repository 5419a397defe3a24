/* Consistency checks of a run in memory, shared by the writer (so no file
 * that the reader would reject is ever written) and the reader. */
#include <inttypes.h>
#include <string.h>

#include "pg_error.h"
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

int pg_runfile_check_trace(const pg_trace *t, int n_roles, int n_phases, const char *where)
{
    for (int64_t i = 0; i < t->n; i++) {
        if (t->role[i] >= n_roles)
            return pg_fail("%s/role[%" PRId64 "] = %d is not a known role (%d roles)", where, i, t->role[i], n_roles);
        if (t->phase[i] >= n_phases)
            return pg_fail("%s/phase[%" PRId64 "] = %d is not a known phase (%d phases)", where, i, t->phase[i],
                           n_phases);
        if (t->sm[i] < 0 || (t->n_sm > 0 && t->sm[i] >= t->n_sm))
            return pg_fail("%s/sm[%" PRId64 "] = %d is out of range (%" PRId64 " SMs have anchors)", where, i,
                           t->sm[i], t->n_sm);
    }
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
    if ((unsigned)run->mode >= PG_ACC_COUNT)
        return pg_fail("accumulation mode %d is not a known mode", (int)run->mode);
    if ((unsigned)run->epilogue >= PG_EPI_COUNT)
        return pg_fail("epilogue %d is not a known epilogue", (int)run->epilogue);
    if (!run->D)
        return pg_fail("nrows = %" PRId64 " but D is NULL", run->nrows);
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
    return pg_runfile_check_trace(t, PG_ROLE_COUNT, PG_PH_COUNT, "trace");
}

static int check_kernel(const pg_kernel_info *k)
{
    if (!k->present)
        return 0;
    if (strnlen(k->name, sizeof k->name) == sizeof k->name || strnlen(k->device, sizeof k->device) == sizeof k->device)
        return pg_fail("kernel name or device is not NUL-terminated");
    return 0;
}

int pg_runfile_check_run(const pg_run *run, int store_problem)
{
    const pg_problem *p = &run->problem;
    if (pg_shape_check(&p->shape) < 0)
        return pg_fail_context("problem shape");
    size_t flen = strnlen(p->family, sizeof p->family);
    if (flen == 0 || flen == sizeof p->family)
        return pg_fail("problem family is empty or not NUL-terminated");
    if ((store_problem || strcmp(p->family, "file") == 0) && (!p->A || !p->B || !p->combined))
        return pg_fail("the inputs must be stored (family '%s'%s) but A, B or combined is NULL", p->family,
                       store_problem ? ", store_problem set" : "");
    if (check_outputs(run) < 0)
        return pg_fail_context("outputs");
    if (check_timings(run) < 0)
        return pg_fail_context("timings");
    if (check_trace(&run->trace) < 0)
        return -1;
    return check_kernel(&run->kernel);
}
