/* Reading and validating /kernel, /timing and /trace of a run file. */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h5io.h"
#include "pg_alloc.h"
#include "pg_error.h"
#include "pg_limits.h"
#include "runfile_internal.h"

static int read_int_attr(hid_t g, const char *obj, const char *name, int *out)
{
    int64_t v;
    if (pg_h5_attr_read_i64(g, obj, name, &v) < 0)
        return -1;
    if (v < INT_MIN || v > INT_MAX)
        return pg_fail("attribute %s of %s is %" PRId64 ", out of range", name, obj, v);
    *out = (int)v;
    return 0;
}

int pg_runfile_read_kernel(hid_t file, pg_kernel_info *k)
{
    hid_t g = -1;
    int rc = -1;
    const char *o = "/kernel";
    memset(k, 0, sizeof *k);
    int e = pg_runfile_open_group(file, o, &g);
    if (e <= 0)
        return e;
    if (pg_h5_attr_read_str(g, o, "name", k->name, sizeof k->name) < 0 ||
        pg_h5_attr_read_str(g, o, "device", k->device, sizeof k->device) < 0 ||
        read_int_attr(g, o, "sm_count", &k->sm_count) < 0 ||
        pg_h5_attr_read_f64(g, o, "sm_clock_hz", &k->sm_clock_hz) < 0 ||
        read_int_attr(g, o, "tile_m", &k->tile_m) < 0 || read_int_attr(g, o, "tile_n", &k->tile_n) < 0 ||
        read_int_attr(g, o, "tile_k", &k->tile_k) < 0 || read_int_attr(g, o, "stages", &k->stages) < 0 ||
        read_int_attr(g, o, "consumers", &k->consumers) < 0 ||
        read_int_attr(g, o, "trace_build", &k->trace_build) < 0 ||
        pg_h5_attr_read_i64(g, o, "epi_delay", &k->epi_delay) < 0 ||
        pg_h5_attr_read_i64(g, o, "mainloop_delay", &k->mainloop_delay) < 0)
        goto done;
    /* optional (runs written before it existed have none: 0) */
    const int has_l2 = pg_h5_attr_exists(g, o, "l2_bytes");
    if (has_l2 < 0 || (has_l2 && pg_h5_attr_read_i64(g, o, "l2_bytes", &k->l2_bytes) < 0))
        goto done;
    const int has_cluster = pg_h5_attr_exists(g, o, "cluster");
    if (has_cluster < 0 || (has_cluster && read_int_attr(g, o, "cluster", &k->cluster) < 0))
        goto done;
    k->present = 1;
    if (pg_runfile_check_kernel(k) < 0)
        goto done;
    rc = 0;
done:
    H5Gclose(g);
    if (rc < 0)
        memset(k, 0, sizeof *k);
    return rc;
}

/* One timing set: /timing/<name>, float64 [n >= 1], attributes flops, bytes. */
static int read_timing(hid_t file, hid_t g, const char *name, pg_timing *t)
{
    int rc = -1;
    hid_t d = -1;
    char path[80];
    snprintf(path, sizeof path, "/timing/%s", name);
    int64_t n;
    if (pg_h5_dataset_check(file, path, &PG_H5_F64, 1, NULL, &n) < 0)
        return -1;
    if (n < 1)
        return pg_fail("%s has no samples", path);
    if (n > PG_LIMIT_TIMING_SAMPLES)
        return pg_fail("%s has %" PRId64 " samples; at most %" PRId64 " are allowed", path, n,
                       PG_LIMIT_TIMING_SAMPLES);
    if ((d = H5Dopen2(g, name, H5P_DEFAULT)) < 0)
        return pg_h5_fail("cannot open a timing dataset");
    if (pg_h5_attr_read_f64(d, path, "flops", &t->flops) < 0 || pg_h5_attr_read_f64(d, path, "bytes", &t->bytes) < 0)
        goto done;
    if (!(t->ms = pg_alloc(path, n, sizeof *t->ms)))
        goto done;
    if (pg_h5_dataset_read(file, path, &PG_H5_F64, t->ms) < 0)
        goto done;
    snprintf(t->name, sizeof t->name, "%s", name);
    t->n = n;
    rc = 0;
done:
    H5Dclose(d);
    return rc;
}

int pg_runfile_read_timings(hid_t file, pg_run *run)
{
    hid_t g = -1, gcpl = -1;
    int rc = -1;
    int e = pg_runfile_open_group(file, "/timing", &g);
    if (e <= 0)
        return e;
    H5G_info_t info;
    unsigned order_flags = 0;
    if (H5Gget_info(g, &info) < 0 || (gcpl = H5Gget_create_plist(g)) < 0 ||
        H5Pget_link_creation_order(gcpl, &order_flags) < 0) {
        pg_h5_fail("cannot list /timing");
        goto done;
    }
    if (info.nlinks > PG_MAX_TIMINGS) {
        pg_fail("/timing holds %llu timing sets; at most %d are allowed", (unsigned long long)info.nlinks,
                PG_MAX_TIMINGS);
        goto done;
    }
    /* Files written by pegemm keep the order the sets were added in; files
     * made elsewhere (h5py) may not track it, then names give the order. */
    H5_index_t index = (order_flags & H5P_CRT_ORDER_TRACKED) ? H5_INDEX_CRT_ORDER : H5_INDEX_NAME;
    for (hsize_t i = 0; i < info.nlinks; i++) {
        char name[sizeof run->timings[0].name];
        ssize_t len = H5Lget_name_by_idx(g, ".", index, H5_ITER_INC, i, name, sizeof name, H5P_DEFAULT);
        if (len < 0) {
            pg_h5_fail("cannot list /timing");
            goto done;
        }
        if ((size_t)len >= sizeof name) {
            pg_fail("/timing/%s... has a name longer than %zu characters", name, sizeof name - 1);
            goto done;
        }
        if (read_timing(file, g, name, &run->timings[run->ntimings]) < 0)
            goto done;
        run->ntimings++;
    }
    rc = 0;
done:
    if (gcpl >= 0)
        H5Pclose(gcpl);
    H5Gclose(g);
    return rc;
}

/* A version-1 file lists pegemm's names, code for code (traces/phases.h
 * then held the only vocabulary); it may list fewer (an older pegemm),
 * never different ones.  Its waits are pegemm's. */
static int v1_names(hid_t g, const char *attr, char (*ours)[PG_VOCAB_NAME], int ours_count, int *file_count)
{
    char **names = NULL;
    size_t n = 0;
    int rc = -1;
    if (pg_h5_attr_read_strs(g, "/trace", attr, &names, &n) < 0)
        return -1;
    if (n > (size_t)ours_count) {
        pg_fail("/trace lists %zu %s but version-1 files have at most %d", n, attr, ours_count);
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        if (strcmp(names[i], ours[i]) != 0) {
            pg_fail("%s[%zu] of /trace is '%s' but version-1 files call code %zu '%s'", attr, i, names[i], i, ours[i]);
            goto done;
        }
    }
    *file_count = (int)n;
    rc = 0;
done:
    pg_h5_strs_free(names, n);
    return rc;
}

static int read_v1_vocab(hid_t g, pg_vocab *v)
{
    pg_vocab_pegemm(v);
    return v1_names(g, "phase_names", v->phase, v->n_phases, &v->n_phases) < 0 ||
                   v1_names(g, "role_names", v->role, v->n_roles, &v->n_roles) < 0
               ? -1
               : 0;
}

/* Version 2: the file's own names (role_names, phase_names attributes)
 * and /trace/phase_is_wait, one flag per phase. */
static int read_names(hid_t g, const char *attr, pg_vocab *v, int is_role)
{
    char **names = NULL;
    size_t n = 0;
    int rc = -1;
    if (pg_h5_attr_read_strs(g, "/trace", attr, &names, &n) < 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        if ((is_role ? pg_vocab_add_role(v, names[i]) : pg_vocab_add_phase(v, names[i], 0)) < 0) {
            pg_fail_context("attribute %s of /trace", attr);
            goto done;
        }
    rc = 0;
done:
    pg_h5_strs_free(names, n);
    return rc;
}

static int read_v2_vocab(hid_t file, hid_t g, pg_vocab *v)
{
    memset(v, 0, sizeof *v);
    if (read_names(g, "role_names", v, 1) < 0 || read_names(g, "phase_names", v, 0) < 0)
        return -1;
    const pg_h5_extent len = {v->n_phases, "len(phase_names of /trace)"};
    if (pg_h5_dataset_check(file, "/trace/phase_is_wait", &PG_H5_U8, 1, &len, NULL) < 0)
        return -1;
    if (v->n_phases > 0 && pg_h5_dataset_read(file, "/trace/phase_is_wait", &PG_H5_U8, v->phase_is_wait) < 0)
        return -1;
    for (int i = 0; i < v->n_phases; i++)
        if (v->phase_is_wait[i] > 1)
            return pg_fail("/trace/phase_is_wait[%d] = %d (must be 0 or 1)", i, v->phase_is_wait[i]);
    return 0;
}

/* Optional v2 attributes: schedule, kernel, clock_hz. */
static int read_v2_attrs(hid_t g, pg_trace *t)
{
    int e;
    if ((e = pg_h5_attr_exists(g, "/trace", "schedule")) < 0 ||
        (e && pg_h5_attr_read_str(g, "/trace", "schedule", t->schedule, sizeof t->schedule) < 0))
        return -1;
    if ((e = pg_h5_attr_exists(g, "/trace", "kernel")) < 0 ||
        (e && pg_h5_attr_read_str(g, "/trace", "kernel", t->kernel, sizeof t->kernel) < 0))
        return -1;
    if ((e = pg_h5_attr_exists(g, "/trace", "clock_hz")) < 0 ||
        (e && pg_h5_attr_read_f64(g, "/trace", "clock_hz", &t->clock_hz) < 0))
        return -1;
    if (!(t->clock_hz == 0 || (t->clock_hz >= PG_LIMIT_CLOCK_HZ_MIN && t->clock_hz <= PG_LIMIT_CLOCK_HZ_MAX)))
        return pg_fail("attribute clock_hz of /trace is %g; it must be a clock in [%g, %g] Hz", t->clock_hz,
                       PG_LIMIT_CLOCK_HZ_MIN, PG_LIMIT_CLOCK_HZ_MAX);
    return 0;
}

static const struct {
    const char *path;
    const pg_h5_kind *kind;
    size_t offset; /* of the column pointer in pg_trace */
} k_columns[] = {
    {"/trace/sm", &PG_H5_I32, offsetof(pg_trace, sm)},
    {"/trace/role", &PG_H5_U8, offsetof(pg_trace, role)},
    {"/trace/warp", &PG_H5_I32, offsetof(pg_trace, warp)},
    {"/trace/tile", &PG_H5_I32, offsetof(pg_trace, tile)},
    {"/trace/phase", &PG_H5_U8, offsetof(pg_trace, phase)},
    {"/trace/begin", &PG_H5_I64, offsetof(pg_trace, begin)},
    {"/trace/end", &PG_H5_I64, offsetof(pg_trace, end)},
};
#define N_COLUMNS (sizeof k_columns / sizeof k_columns[0])

/* Sizes first, before anything is allocated (the row count is checked as
 * soon as it is known): the anchors' count against the SM limit and the kernel's sm_count, and anchors
 * present whenever there are rows. */
static int check_trace_sizes(int64_t n, int64_t n_sm, const pg_kernel_info *k)
{
    if (n_sm > PG_LIMIT_SM_COUNT)
        return pg_fail("/trace/anchor_clock has %" PRId64 " SMs; at most %d are allowed", n_sm, PG_LIMIT_SM_COUNT);
    if (k->present && n_sm > k->sm_count)
        return pg_fail("/trace/anchor_clock has %" PRId64 " SMs but /kernel sm_count = %d", n_sm, k->sm_count);
    if (n > 0 && n_sm == 0)
        return pg_fail("/trace has %" PRId64 " intervals but no per-SM anchors (/trace/anchor_clock is empty)", n);
    return 0;
}

int pg_runfile_read_trace(hid_t file, pg_trace *t, const pg_kernel_info *k, int load, int version)
{
    hid_t g = -1;
    int rc = -1;
    memset(t, 0, sizeof *t);
    int e = pg_runfile_open_group(file, "/trace", &g);
    if (e <= 0)
        return e;
    pg_vocab vocab;
    pg_trace meta; /* the attributes, kept once the columns are allocated */
    memset(&meta, 0, sizeof meta);
    if (version < 2 ? read_v1_vocab(g, &vocab) < 0 : read_v2_vocab(file, g, &vocab) < 0 || read_v2_attrs(g, &meta) < 0)
        goto done;

    /* Every column has the length of the first; both anchors one per SM. */
    int64_t n, n_sm;
    if (pg_h5_dataset_check(file, k_columns[0].path, k_columns[0].kind, 1, NULL, &n) < 0)
        goto done;
    if (n > PG_LIMIT_TRACE_ROWS) { /* before the other columns are even opened */
        pg_fail("/trace has %" PRId64 " intervals; at most %" PRId64 " are allowed", n, PG_LIMIT_TRACE_ROWS);
        goto done;
    }
    const pg_h5_extent len_n = {n, "len(/trace/sm)"};
    for (size_t i = 1; i < N_COLUMNS; i++)
        if (pg_h5_dataset_check(file, k_columns[i].path, k_columns[i].kind, 1, &len_n, NULL) < 0)
            goto done;
    if (pg_h5_dataset_check(file, "/trace/anchor_clock", &PG_H5_I64, 1, NULL, &n_sm) < 0)
        goto done;
    const pg_h5_extent len_sm = {n_sm, "len(/trace/anchor_clock)"};
    if (pg_h5_dataset_check(file, "/trace/anchor_globaltimer_ns", &PG_H5_I64, 1, &len_sm, NULL) < 0 ||
        check_trace_sizes(n, n_sm, k) < 0)
        goto done;

    if (!load) {
        /* Validated but not kept: the run looks as if it had no trace. */
        rc = 0;
        goto done;
    }
    if (pg_trace_alloc(t, n, n_sm) < 0)
        goto done;
    t->vocab = vocab;
    t->from_v1 = version < 2;
    memcpy(t->schedule, meta.schedule, sizeof t->schedule);
    memcpy(t->kernel, meta.kernel, sizeof t->kernel);
    t->clock_hz = meta.clock_hz;
    for (size_t i = 0; i < N_COLUMNS; i++) {
        void *col = *(void **)((char *)t + k_columns[i].offset);
        if (pg_h5_dataset_read(file, k_columns[i].path, k_columns[i].kind, col) < 0)
            goto done;
    }
    if (pg_h5_dataset_read(file, "/trace/anchor_clock", &PG_H5_I64, t->anchor_clock) < 0 ||
        pg_h5_dataset_read(file, "/trace/anchor_globaltimer_ns", &PG_H5_I64, t->anchor_globaltimer_ns) < 0 ||
        pg_runfile_check_trace(t, vocab.n_roles, vocab.n_phases, "/trace") < 0)
        goto done;
    rc = 0;
done:
    H5Gclose(g);
    return rc;
}
