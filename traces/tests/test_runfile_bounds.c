/* The reader's bounds and hardening: inputs that are not regular files, a
 * file that crashes libhdf5, sizes that would allocate what the file never
 * stored, values outside their physical range (common/pg_limits.h), and the
 * checks docs/format.md promises for /kernel and /trace.  Each ends in a
 * clear error naming the file; none crashes, blocks or allocates first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <cmocka.h>
#include <hdf5.h>
#include <math.h>

#include "inputs.h"
#include "pg_error.h"
#include "pg_limits.h"
#include "run_fixture.h"
#include "runfile.h"

enum { M = 40, N = 16, K = 32, P = 7 };

static const char *g_data_dir; /* traces/tests/data, from argv[1] */

typedef struct {
    char *dir;
    char *path; /* inputs, row subset, accumulators, kernel, 2 timings, 50-row trace on 4 SMs */
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->dir = fx_tempdir();
    f->path = fx_path(f->dir, "run.h5");
    pg_run run;
    fx_spec s = {.M = M, .N = N, .K = K, .P = P, .subset = 1, .accumulator = 1, .trace = 1, .kernel = 1,
                 .ntimings = 2};
    fx_make_run(&run, &s);
    if (pg_run_write(f->path, &run, 1) != 0)
        fail_msg("%s", pg_last_error());
    pg_run_free(&run);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    fx_rmtree(f->dir);
    free(f->path);
    free(f);
    unsetenv("PEGEMM_READ_TIMEOUT");
    unsetenv("PEGEMM_MEM_LIMIT");
    return 0;
}

#define FX ((fixture *)*state)

/* ---- not a regular file ---- */

/* A FIFO without a writer: opening it blocking would wait for ever. */
static void test_fifo_refused_without_blocking(void **state)
{
    char *p = fx_path(FX->dir, "fifo.h5");
    assert_int_equal(mkfifo(p, 0600), 0);
    fx_expect_read_error(p, PG_READ_ALL, "not a regular file (a FIFO)");
    unlink(p);
    free(p);
}

static void test_device_refused(void **state)
{
    (void)state;
    fx_expect_read_error("/dev/null", PG_READ_ALL, "not a regular file (a character device)");
}

/* ---- a file that crashes libhdf5 1.10 (traces/tests/data/make_crash_vl_heap.py) ---- */

static char *crash_file(void)
{
    char *p = fx_path(g_data_dir, "crash_vl_heap.h5");
    struct stat st;
    assert_int_equal(stat(p, &st), 0);
    return p;
}

static void test_hdf5_crash_is_a_clean_error(void **state)
{
    (void)state;
    char *p = crash_file();
    /* signal 11 in a plain build; under ASan the child's report ends it with
     * ASan's exit status instead ("the isolated reader stopped ...") */
    fx_expect_read_error(p, PG_READ_ALL, "malformed HDF5 file (the ");
    fx_expect_read_error(p, 0, "no output written");
    assert_int_equal(pg_run_read_isolated_check(p), -1);
    free(p);
}

/* The in-process reader stays callable (for fuzzers) and reads a good file. */
static void test_direct_reader_reads_good_file(void **state)
{
    pg_run run;
    if (pg_run_read_direct(FX->path, &run, PG_READ_ALL) != 0)
        fail_msg("%s", pg_last_error());
    assert_int_equal(run.trace.n, 50);
    pg_run_free(&run);
    assert_int_equal(pg_run_read_isolated_check(FX->path), 0);
}

static void test_read_timeout_setting(void **state)
{
    pg_run run;
    setenv("PEGEMM_READ_TIMEOUT", "soon", 1);
    fx_expect_read_error(FX->path, 0, "PEGEMM_READ_TIMEOUT='soon' is not a number of seconds");
    setenv("PEGEMM_READ_TIMEOUT", "0", 1); /* no pre-read: a good file still reads */
    assert_int_equal(pg_run_read(FX->path, &run, PG_READ_ALL), 0);
    pg_run_free(&run);
    setenv("PEGEMM_READ_TIMEOUT", "5", 1);
    assert_int_equal(pg_run_read(FX->path, &run, PG_READ_ALL), 0);
    pg_run_free(&run);
    unsetenv("PEGEMM_READ_TIMEOUT");
}

/* ---- /kernel values (docs/format.md; common/pg_limits.h) ---- */

static void test_sm_count_bounds(void **state)
{
    fx_h5_set_attr_i64(FX->path, "/kernel", "sm_count", 0);
    fx_expect_read_error(FX->path, 0, "attribute sm_count of /kernel is 0; it must be in [1, 1024]");
    fx_h5_set_attr_i64(FX->path, "/kernel", "sm_count", 2147483647);
    fx_expect_read_error(FX->path, 0, "attribute sm_count of /kernel is 2147483647; it must be in [1, 1024]");
}

static void test_sm_clock_hz_finite_and_plausible(void **state)
{
    const double bad[] = {INFINITY, -INFINITY, NAN, 0.0, -1.7e9, 1e5, 1e12};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fx_h5_set_attr_f64(FX->path, "/kernel", "sm_clock_hz", bad[i]);
        fx_expect_read_error(FX->path, 0, "attribute sm_clock_hz of /kernel is");
    }
    fx_h5_set_attr_f64(FX->path, "/kernel", "sm_clock_hz", 1.98e9);
    pg_run run;
    assert_int_equal(pg_run_read(FX->path, &run, 0), 0);
    pg_run_free(&run);
}

static void test_consumers_bounded(void **state)
{
    fx_h5_set_attr_i64(FX->path, "/kernel", "consumers", 1000000);
    fx_expect_read_error(FX->path, 0, "attribute consumers of /kernel is 1000000; it must be in [1, 32]");
    fx_h5_set_attr_i64(FX->path, "/kernel", "consumers", 0);
    fx_expect_read_error(FX->path, 0, "attribute consumers of /kernel is 0");
}

static void test_other_kernel_bounds(void **state)
{
    const struct {
        const char *name;
        int64_t v;
    } bad[] = {{"tile_m", 0}, {"tile_n", 5000}, {"tile_k", -1}, {"stages", 0}, {"stages", 1000},
               {"trace_build", 2}, {"epi_delay", -1}, {"mainloop_delay", (int64_t)1 << 40},
               {"l2_bytes", -1}, {"l2_bytes", (int64_t)1 << 41}, {"cluster", -1}, {"cluster", 17}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fx_h5_set_attr_i64(FX->path, "/kernel", bad[i].name, bad[i].v);
        char want[96];
        snprintf(want, sizeof want, "attribute %s of /kernel is %lld", bad[i].name, (long long)bad[i].v);
        fx_expect_read_error(FX->path, 0, want);
        fx_h5_set_attr_i64(FX->path, "/kernel", bad[i].name, bad[i].name[0] == 't' && bad[i].name[1] == 'r' ? 1 : 4);
    }
}

/* ---- /trace values ---- */

static void set_i64_column(const char *path, const char *obj, const int64_t *v, hsize_t n)
{
    fx_h5_write_dataset(path, obj, H5T_NATIVE_INT64, H5T_STD_I64LE, 1, &n, v);
}

static int64_t *read_column(const char *path, const char *which)
{
    pg_run run;
    if (pg_run_read(path, &run, PG_READ_TRACE) != 0)
        fail_msg("%s", pg_last_error());
    int64_t *v = malloc(sizeof *v * (size_t)run.trace.n);
    memcpy(v, strcmp(which, "begin") == 0 ? run.trace.begin : run.trace.end, sizeof *v * (size_t)run.trace.n);
    pg_run_free(&run);
    return v;
}

static void test_trace_without_anchors(void **state)
{
    int64_t none[1] = {0};
    set_i64_column(FX->path, "/trace/anchor_clock", none, 0);
    set_i64_column(FX->path, "/trace/anchor_globaltimer_ns", none, 0);
    fx_expect_read_error(FX->path, 0, "/trace has 50 intervals but no per-SM anchors");
}

static void test_trace_begin_after_end(void **state)
{
    int64_t *begin = read_column(FX->path, "begin");
    int64_t *end = read_column(FX->path, "end");
    begin[5] = end[5] + 1;
    set_i64_column(FX->path, "/trace/begin", begin, 50);
    fx_expect_read_error(FX->path, PG_READ_TRACE, "interval 5 ends before it begins");
    free(begin);
    free(end);
}

/* Clock values in [0, 2^62): no difference or sum of two overflows. */
static void test_trace_clock_range(void **state)
{
    int64_t *begin = read_column(FX->path, "begin");
    int64_t *end = read_column(FX->path, "end");
    begin[0] = -1;
    set_i64_column(FX->path, "/trace/begin", begin, 50);
    fx_expect_read_error(FX->path, PG_READ_TRACE, "interval 0 has begin -1");
    begin[0] = 0;
    set_i64_column(FX->path, "/trace/begin", begin, 50);
    end[1] = INT64_MAX;
    set_i64_column(FX->path, "/trace/end", end, 50);
    fx_expect_read_error(FX->path, PG_READ_TRACE, "clock values must be in [0, 2^62)");
    free(begin);
    free(end);
}

static void test_trace_anchor_missing_for_traced_sm(void **state)
{
    int64_t anchors[4] = {100, -1, 300, 400}; /* SM 1 has intervals (sm = i % 4) */
    set_i64_column(FX->path, "/trace/anchor_clock", anchors, 4);
    fx_expect_read_error(FX->path, PG_READ_TRACE, "SM 1 has intervals but its anchor is missing");
}

static void test_trace_more_sms_than_kernel(void **state)
{
    fx_h5_set_attr_i64(FX->path, "/kernel", "sm_count", 3);
    fx_expect_read_error(FX->path, 0, "/trace/anchor_clock has 4 SMs but /kernel sm_count = 3");
}

/* ---- sizes checked against the file before anything is allocated ---- */

/* 2^30 declared, unallocated elements cost a few hundred bytes of file. */
static void test_unallocated_rows(void **state)
{
    fx_h5_declare_dataset(FX->path, "/output/rows", H5T_STD_I64LE, (hsize_t)1 << 30, FX_DECLARE_EMPTY);
    fx_expect_read_error(FX->path, PG_READ_OUTPUT, "/output/rows declares 8589934592 bytes of data but the file "
                                                   "stores only 0 bytes");
}

static void test_unallocated_timing(void **state)
{
    fx_h5_declare_dataset(FX->path, "/timing/copy", H5T_IEEE_F64LE, (hsize_t)1 << 30, FX_DECLARE_EMPTY);
    fx_expect_read_error(FX->path, 0, "/timing/copy declares 8589934592 bytes");
}

static void test_unallocated_trace(void **state)
{
    fx_h5_declare_dataset(FX->path, "/trace/sm", H5T_STD_I32LE, (hsize_t)1 << 30, FX_DECLARE_EMPTY);
    fx_expect_read_error(FX->path, 0, "/trace/sm declares 4294967296 bytes");
    fx_h5_declare_dataset(FX->path, "/trace/begin", H5T_STD_I64LE, 50, FX_DECLARE_EMPTY); /* small: fill is fine */
    fx_h5_declare_dataset(FX->path, "/trace/end", H5T_STD_I64LE, (hsize_t)1 << 27, FX_DECLARE_EMPTY);
    fx_expect_read_error(FX->path, 0, "/trace/sm declares");
}

/* Stored rows must be distinct indices below M: more than M cannot be. */
static void test_rows_more_than_M(void **state)
{
    int64_t rows[M + 1];
    for (int i = 0; i <= M; i++)
        rows[i] = i;
    hsize_t n = M + 1;
    fx_h5_write_dataset(FX->path, "/output/rows", H5T_NATIVE_INT64, H5T_STD_I64LE, 1, &n, rows);
    fx_expect_read_error(FX->path, 0, "/output/rows has 41 entries but M = 40");
}

/* Storage that really holds the samples (compressed zeros) passes the
 * storage check; the count bound still holds. */
static void test_timing_sample_bound(void **state)
{
    fx_h5_declare_dataset(FX->path, "/timing/copy", H5T_IEEE_F64LE, (hsize_t)PG_LIMIT_TIMING_SAMPLES + 1,
                          FX_DECLARE_FILLED);
    fx_expect_read_error(FX->path, 0, "/timing/copy has 16777217 samples; at most 16777216 are allowed");
}

static void test_trace_row_bound(void **state)
{
    fx_h5_declare_dataset(FX->path, "/trace/sm", H5T_STD_U8LE, 1, FX_DECLARE_EMPTY); /* wrong type first */
    fx_expect_read_error(FX->path, 0, "/trace/sm has type uint8 but must be int32");
    fx_h5_declare_dataset(FX->path, "/trace/sm", H5T_STD_I32LE, (hsize_t)PG_LIMIT_TRACE_ROWS + 1, FX_DECLARE_FILLED);
    fx_expect_read_error(FX->path, 0, "/trace has 268435457 intervals; at most 268435456 are allowed");
}

/* Data kept outside the file is not read (it could be any file). */
static void test_external_storage_refused(void **state)
{
    fx_h5_declare_dataset(FX->path, "/timing/copy", H5T_IEEE_F64LE, 4, FX_DECLARE_EXTERNAL);
    fx_expect_read_error(FX->path, 0, "/timing/copy keeps its data in 1 external file(s)");
}

/* ---- strings ---- */

static void test_long_strings_refused(void **state)
{
    char *big = malloc(PG_LIMIT_STRING_BYTES + 2);
    memset(big, 'x', PG_LIMIT_STRING_BYTES + 1);
    big[PG_LIMIT_STRING_BYTES + 1] = '\0';
    fx_h5_set_attr_str(FX->path, "/kernel", "device", big); /* variable-length */
    fx_expect_read_error(FX->path, 0, "attribute device of /kernel holds a string longer than 4096 bytes");
    free(big);
    /* fixed-length, refused by its declared size before it is read */
    hid_t f = H5Fopen(FX->path, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(f >= 0);
    assert_true(H5Adelete_by_name(f, "/kernel", "device", H5P_DEFAULT) >= 0);
    hid_t t = H5Tcopy(H5T_C_S1);
    assert_true(H5Tset_size(t, 60000) >= 0); /* object headers hold < 64 KiB */
    hid_t sp = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate_by_name(f, "/kernel", "device", t, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(a >= 0);
    char *fixed = calloc(1, 60000);
    assert_true(H5Awrite(a, t, fixed) >= 0);
    free(fixed);
    H5Aclose(a);
    H5Sclose(sp);
    H5Tclose(t);
    assert_true(H5Fclose(f) >= 0);
    fx_expect_read_error(FX->path, 0, "is a fixed-length string of 60000 bytes; at most 4096");
}

static void test_string_list_bounded(void **state)
{
    enum { n = PG_LIMIT_STRING_LIST + 1 };
    const char *names[n];
    for (int i = 0; i < n; i++)
        names[i] = "order_wait";
    fx_h5_set_attr_strs(FX->path, "/trace", "phase_names", names, n);
    fx_expect_read_error(FX->path, 0, "attribute phase_names of /trace lists 257 strings; at most 256");
}

/* ---- the problem's shape and memory ---- */

static void test_shape_bound_on_read(void **state)
{
    fx_h5_set_attr_i64(FX->path, "/problem", "M", 2147483647);
    fx_expect_read_error(FX->path, 0, "bad shape: M = 2147483647 (must be <= 67108864)");
    fx_h5_set_attr_i64(FX->path, "/problem", "M", PG_LIMIT_M);
    fx_h5_set_attr_i64(FX->path, "/problem", "N", PG_LIMIT_N);
    fx_expect_read_error(FX->path, 0, "is too large: D's fp32 accumulators (M x N x 4 bytes) is 17592186044416 bytes");
}

/* Inputs are checked against memory before they are allocated. */
static void test_inputs_against_memory(void **state)
{
    setenv("PEGEMM_MEM_LIMIT", "1000", 1);
    fx_expect_read_error(FX->path, PG_READ_PROBLEM, "needs 2016 bytes");
    pg_problem p;
    pg_shape s = {.M = 1000, .N = 8, .K = 8, .P = 2};
    assert_int_equal(pg_problem_generate(&p, s, PG_FAM_NORMAL, 1), -1);
    assert_non_null(strstr(pg_last_error(), "the inputs of a 1000 x 8 x 8 problem (A, B and combined) needs 8096 bytes"));
    unsetenv("PEGEMM_MEM_LIMIT");
    assert_int_equal(pg_problem_generate(&p, s, PG_FAM_NORMAL, 1), 0);
    pg_problem_free(&p);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s DATA_DIR\n", argv[0]);
        return 2;
    }
    g_data_dir = argv[1];
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_fifo_refused_without_blocking),
        T(test_device_refused),
        T(test_hdf5_crash_is_a_clean_error),
        T(test_direct_reader_reads_good_file),
        T(test_read_timeout_setting),
        T(test_sm_count_bounds),
        T(test_sm_clock_hz_finite_and_plausible),
        T(test_consumers_bounded),
        T(test_other_kernel_bounds),
        T(test_trace_without_anchors),
        T(test_trace_begin_after_end),
        T(test_trace_clock_range),
        T(test_trace_anchor_missing_for_traced_sm),
        T(test_trace_more_sms_than_kernel),
        T(test_unallocated_rows),
        T(test_unallocated_timing),
        T(test_unallocated_trace),
        T(test_rows_more_than_M),
        T(test_timing_sample_bound),
        T(test_trace_row_bound),
        T(test_external_storage_refused),
        T(test_long_strings_refused),
        T(test_string_list_bounded),
        T(test_shape_bound_on_read),
        T(test_inputs_against_memory),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
