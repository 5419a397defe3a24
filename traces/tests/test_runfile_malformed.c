/* Every way a run file can be wrong gives an error whose message names the
 * file, the dataset or attribute, and what is wrong; never a crash. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <hdf5.h>

#include "pg_error.h"
#include "run_fixture.h"
#include "runfile.h"

enum { M = 40, N = 16, K = 32, P = 7 };

typedef struct {
    char *dir;
    char *path;       /* a valid run with inputs, row subset, accumulators, trace */
    char *full_path;  /* a valid run with all rows, no inputs */
    int64_t nrows;    /* rows in the subset */
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->dir = fx_tempdir();
    f->path = fx_path(f->dir, "run.h5");
    f->full_path = fx_path(f->dir, "full.h5");
    pg_run run;
    fx_spec s = {.M = M, .N = N, .K = K, .P = P, .subset = 1, .accumulator = 1, .trace = 1, .kernel = 1,
                 .ntimings = 2};
    fx_make_run(&run, &s);
    if (pg_run_write(f->path, &run, 1) != 0)
        fail_msg("%s", pg_last_error());
    f->nrows = run.nrows;
    pg_run_free(&run);
    fx_spec sf = {.M = M, .N = N, .K = K, .P = P};
    fx_make_run(&run, &sf);
    if (pg_run_write(f->full_path, &run, 0) != 0)
        fail_msg("%s", pg_last_error());
    pg_run_free(&run);
    /* the fixtures themselves are valid */
    assert_int_equal(pg_run_read(f->path, &run, PG_READ_ALL), 0);
    pg_run_free(&run);
    assert_int_equal(pg_run_read(f->full_path, &run, PG_READ_OUTPUT), 0);
    pg_run_free(&run);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    fx_rmtree(f->dir);
    free(f->path);
    free(f->full_path);
    free(f);
    return 0;
}

#define FX ((fixture *)*state)

/* ---- files that are not run files at all ---- */

static void test_nonexistent_path(void **state)
{
    char *p = fx_path(FX->dir, "nope.h5");
    fx_expect_read_error(p, PG_READ_ALL, "No such file or directory");
    free(p);
}

static void test_directory(void **state)
{
    fx_expect_read_error(FX->dir, PG_READ_ALL, "not a regular file (a directory)");
}

static void write_bytes(const char *path, const void *data, size_t n)
{
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(data, 1, n, fp), n);
    assert_int_equal(fclose(fp), 0);
}

static void test_garbage_file(void **state)
{
    char *p = fx_path(FX->dir, "garbage.h5");
    char junk[4096];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (char)(i * 131 + 7);
    write_bytes(p, junk, sizeof junk);
    fx_expect_read_error(p, PG_READ_ALL, "not an HDF5 file or truncated");
    write_bytes(p, "", 0);
    fx_expect_read_error(p, PG_READ_ALL, "not an HDF5 file or truncated");
    free(p);
}

/* Cut a valid file at several lengths: the superblock survives the longer
 * cuts, so HDF5 itself must notice the missing end. */
static void test_truncated_file(void **state)
{
    size_t n;
    unsigned char *bytes = fx_slurp(FX->path, &n);
    assert_non_null(bytes);
    char *p = fx_path(FX->dir, "cut.h5");
    const size_t cuts[] = {8, 100, n / 2, n - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        write_bytes(p, bytes, cuts[i]);
        fx_expect_read_error(p, PG_READ_ALL, "not an HDF5 file or truncated");
    }
    free(p);
    free(bytes);
}

static void test_not_a_pegemm_file(void **state)
{
    char *p = fx_path(FX->dir, "plain.h5");
    hid_t file = H5Fcreate(p, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(file >= 0);
    H5Fclose(file);
    fx_expect_read_error(p, PG_READ_ALL, "not a pegemm run file (no pegemm_schema_version");
    free(p);
}

/* ---- schema version ---- */

static void test_newer_schema_version(void **state)
{
    char want[96];
    snprintf(want, sizeof want, "schema version %d is newer than this pegemm reads (%d)", PG_RUN_SCHEMA_VERSION + 1,
             PG_RUN_SCHEMA_VERSION);
    fx_h5_set_attr_i64(FX->path, "/", "pegemm_schema_version", PG_RUN_SCHEMA_VERSION + 1);
    fx_expect_read_error(FX->path, PG_READ_ALL, want);
}

static void test_invalid_schema_version(void **state)
{
    fx_h5_set_attr_i64(FX->path, "/", "pegemm_schema_version", 0);
    fx_expect_read_error(FX->path, PG_READ_ALL, "schema version 0 is not valid");
    fx_h5_set_attr_str(FX->path, "/", "pegemm_schema_version", "1");
    fx_expect_read_error(FX->path, PG_READ_ALL, "attribute pegemm_schema_version of / has type string");
}

/* Integers are read in the stored type's sign, so nothing is clamped:
 * a negative value for an unsigned attribute and an unsigned one above
 * INT64_MAX for a signed attribute are errors naming the value. */
static void test_integer_attribute_range(void **state)
{
    fx_h5_set_attr_i64(FX->path, "/problem", "seed", -5);
    fx_expect_read_error(FX->path, 0, "attribute seed of /problem is -5 but must not be negative");
    fx_h5_set_attr_u64(FX->path, "/problem", "seed", UINT64_MAX);
    pg_run run;
    assert_int_equal(pg_run_read(FX->path, &run, 0), 0);
    assert_true(run.problem.seed == UINT64_MAX);
    pg_run_free(&run);
    fx_h5_set_attr_u64(FX->path, "/problem", "M", (uint64_t)INT64_MAX + 2);
    fx_expect_read_error(FX->path, 0, "attribute M of /problem is 9223372036854775809, too large");
}

/* ---- /problem ---- */

static void test_missing_problem_group(void **state)
{
    fx_h5_delete(FX->path, "/problem");
    fx_expect_read_error(FX->path, PG_READ_ALL, "/problem is missing");
}

static void test_missing_problem_attribute(void **state)
{
    fx_h5_delete_attr(FX->path, "/problem", "K");
    fx_expect_read_error(FX->path, 0, "attribute K of /problem is missing");
}

static void test_zero_M(void **state)
{
    fx_h5_set_attr_i64(FX->path, "/problem", "M", 0);
    fx_expect_read_error(FX->path, 0, "/problem attributes");
}

static void test_unknown_family(void **state)
{
    fx_h5_set_attr_str(FX->path, "/problem", "family", "gaussian-ish");
    fx_expect_read_error(FX->path, 0, "attribute family of /problem");
}

/* K in the attributes no longer matches the stored A and B. */
static void test_K_mismatch(void **state)
{
    fx_h5_set_attr_i64(FX->path, "/problem", "K", K + 1);
    fx_expect_read_error(FX->path, 0, "/problem/A has shape [40,32] but K = 33");
}

/* N in the attributes no longer matches B (and D). */
static void test_N_mismatch(void **state)
{
    fx_h5_set_attr_i64(FX->path, "/problem", "N", 2 * N);
    fx_expect_read_error(FX->path, 0, "/problem/B has shape [16,32] but N = 32");
}

static void test_combined_wrong_P(void **state)
{
    uint16_t c[6 * N] = {0};
    hsize_t dims[2] = {6, N};
    fx_h5_write_dataset(FX->path, "/problem/combined", H5T_NATIVE_UINT16, H5T_STD_U16LE, 2, dims, c);
    fx_expect_read_error(FX->path, PG_READ_PROBLEM, "/problem/combined has shape [6,16] but P = 7");
}

static void test_A_wrong_type(void **state)
{
    int8_t a[M * K] = {0};
    hsize_t dims[2] = {M, K};
    fx_h5_write_dataset(FX->path, "/problem/A", H5T_NATIVE_INT8, H5T_STD_I8LE, 2, dims, a);
    fx_expect_read_error(FX->path, PG_READ_PROBLEM, "/problem/A has type int8 but must be uint8");
}

static void test_B_missing_while_A_stored(void **state)
{
    fx_h5_delete(FX->path, "/problem/B");
    fx_expect_read_error(FX->path, 0, "/problem/B is missing while /problem/A is stored");
}

static void test_file_family_without_inputs(void **state)
{
    fx_h5_set_attr_str(FX->full_path, "/problem", "family", "file");
    fx_expect_read_error(FX->full_path, 0, "/problem/A is missing but family is 'file'");
}

/* ---- /output ---- */

static void test_missing_D(void **state)
{
    fx_h5_delete(FX->path, "/output/D");
    fx_expect_read_error(FX->path, PG_READ_OUTPUT, "/output/D is missing");
}

static void test_D_as_float(void **state)
{
    float *d = calloc((size_t)(FX->nrows * N), sizeof *d);
    hsize_t dims[2] = {(hsize_t)FX->nrows, N};
    fx_h5_write_dataset(FX->path, "/output/D", H5T_NATIVE_FLOAT, H5T_IEEE_F32LE, 2, dims, d);
    fx_expect_read_error(FX->path, PG_READ_OUTPUT, "/output/D has type float32 but must be uint16");
    free(d);
}

static void test_D_wrong_rank(void **state)
{
    uint16_t *d = calloc((size_t)(FX->nrows * N), sizeof *d);
    hsize_t dims[1] = {(hsize_t)(FX->nrows * N)};
    fx_h5_write_dataset(FX->path, "/output/D", H5T_NATIVE_UINT16, H5T_STD_U16LE, 1, dims, d);
    fx_expect_read_error(FX->path, PG_READ_OUTPUT, "/output/D has rank 1 but must have rank 2");
    free(d);
}

static void test_D_wrong_N(void **state)
{
    uint16_t *d = calloc((size_t)(FX->nrows * (N + 1)), sizeof *d);
    hsize_t dims[2] = {(hsize_t)FX->nrows, N + 1};
    fx_h5_write_dataset(FX->path, "/output/D", H5T_NATIVE_UINT16, H5T_STD_U16LE, 2, dims, d);
    char want[64];
    snprintf(want, sizeof want, "/output/D has shape [%lld,17] but N = 16", (long long)FX->nrows);
    fx_expect_read_error(FX->path, PG_READ_OUTPUT, want);
    free(d);
}

static void test_D_rows_disagree_with_row_list(void **state)
{
    uint16_t *d = calloc((size_t)((FX->nrows - 1) * N), sizeof *d);
    hsize_t dims[2] = {(hsize_t)FX->nrows - 1, N};
    fx_h5_write_dataset(FX->path, "/output/D", H5T_NATIVE_UINT16, H5T_STD_U16LE, 2, dims, d);
    fx_expect_read_error(FX->path, PG_READ_OUTPUT, "but len(/output/rows) = ");
    free(d);
}

/* No /output/rows means every row; a D with fewer rows is then wrong. */
static void test_all_rows_D_short(void **state)
{
    uint16_t d[(M - 1) * N] = {0};
    hsize_t dims[2] = {M - 1, N};
    fx_h5_write_dataset(FX->full_path, "/output/D", H5T_NATIVE_UINT16, H5T_STD_U16LE, 2, dims, d);
    fx_expect_read_error(FX->full_path, 0, "/output/D has shape [39,16] but M (there is no /output/rows");
}

static void set_rows(const char *path, int64_t n, const int64_t *rows)
{
    hsize_t dims[1] = {(hsize_t)n};
    fx_h5_write_dataset(path, "/output/rows", H5T_NATIVE_INT64, H5T_STD_I64LE, 1, dims, rows);
}

static void test_rows_out_of_range(void **state)
{
    int64_t *rows = calloc((size_t)FX->nrows, sizeof *rows);
    for (int64_t i = 0; i < FX->nrows; i++)
        rows[i] = i;
    rows[FX->nrows - 1] = M; /* one past the end */
    set_rows(FX->path, FX->nrows, rows);
    fx_expect_read_error(FX->path, 0, "is out of range (M = 40)");
    rows[FX->nrows - 1] = FX->nrows - 1;
    rows[0] = -1;
    set_rows(FX->path, FX->nrows, rows);
    fx_expect_read_error(FX->path, 0, "/output/rows[0] = -1 is out of range");
    free(rows);
}

static void test_rows_unsorted(void **state)
{
    int64_t *rows = calloc((size_t)FX->nrows, sizeof *rows);
    for (int64_t i = 0; i < FX->nrows; i++)
        rows[i] = i;
    rows[3] = 2; /* duplicate */
    set_rows(FX->path, FX->nrows, rows);
    fx_expect_read_error(FX->path, 0, "/output/rows is not strictly increasing: [3] = 2 follows 2");
    free(rows);
}

static void test_rows_wrong_type(void **state)
{
    int32_t rows[3] = {0, 1, 2};
    hsize_t dims[1] = {3};
    fx_h5_write_dataset(FX->path, "/output/rows", H5T_NATIVE_INT32, H5T_STD_I32LE, 1, dims, rows);
    fx_expect_read_error(FX->path, 0, "/output/rows has type int32 but must be int64");
}

static void test_accumulator_wrong_shape(void **state)
{
    float *a = calloc((size_t)(FX->nrows * N), sizeof *a);
    hsize_t dims[2] = {(hsize_t)FX->nrows, N - 1};
    fx_h5_write_dataset(FX->path, "/output/accumulator", H5T_NATIVE_FLOAT, H5T_IEEE_F32LE, 2, dims, a);
    fx_expect_read_error(FX->path, PG_READ_OUTPUT, "/output/accumulator has shape");
    free(a);
}

static void test_unknown_mode(void **state)
{
    fx_h5_set_attr_str(FX->path, "/output", "mode", "tf32");
    fx_expect_read_error(FX->path, 0, "attribute mode of /output");
    fx_h5_delete_attr(FX->path, "/output", "mode");
    fx_expect_read_error(FX->path, 0, "attribute mode of /output is missing");
}

/* ---- /kernel and /timing ---- */

static void test_kernel_attribute_missing(void **state)
{
    fx_h5_delete_attr(FX->path, "/kernel", "sm_clock_hz");
    fx_expect_read_error(FX->path, 0, "attribute sm_clock_hz of /kernel is missing");
}

static void test_timing_wrong_type(void **state)
{
    int32_t ms[4] = {1, 2, 3, 4};
    hsize_t dims[1] = {4};
    fx_h5_write_dataset(FX->path, "/timing/copy", H5T_NATIVE_INT32, H5T_STD_I32LE, 1, dims, ms);
    fx_expect_read_error(FX->path, 0, "/timing/copy has type int32 but must be float64");
}

static void test_timing_without_flops(void **state)
{
    double ms[2] = {1, 2};
    hsize_t dims[1] = {2};
    fx_h5_write_dataset(FX->path, "/timing/extra", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, 1, dims, ms);
    fx_expect_read_error(FX->path, 0, "attribute flops of /timing/extra is missing");
}

/* ---- /trace ---- */

static void test_trace_column_missing(void **state)
{
    fx_h5_delete(FX->path, "/trace/end");
    fx_expect_read_error(FX->path, 0, "/trace/end is missing");
}

static void test_trace_columns_unequal(void **state)
{
    uint8_t ph[49] = {0};
    hsize_t dims[1] = {49};
    fx_h5_write_dataset(FX->path, "/trace/phase", H5T_NATIVE_UINT8, H5T_STD_U8LE, 1, dims, ph);
    fx_expect_read_error(FX->path, 0, "/trace/phase has shape [49] but len(/trace/sm) = 50");
}

static void test_trace_phase_code_out_of_range(void **state)
{
    uint8_t ph[50] = {0};
    ph[7] = 200;
    hsize_t dims[1] = {50};
    fx_h5_write_dataset(FX->path, "/trace/phase", H5T_NATIVE_UINT8, H5T_STD_U8LE, 1, dims, ph);
    fx_expect_read_error(FX->path, PG_READ_TRACE, "/trace/phase[7] = 200 is not a known phase");
}

static void test_trace_role_code_out_of_range(void **state)
{
    uint8_t r[50] = {0};
    r[49] = PG_ROLE_COUNT;
    hsize_t dims[1] = {50};
    fx_h5_write_dataset(FX->path, "/trace/role", H5T_NATIVE_UINT8, H5T_STD_U8LE, 1, dims, r);
    fx_expect_read_error(FX->path, PG_READ_TRACE, "/trace/role[49] = 4 is not a known role");
}

static void test_trace_sm_without_anchor(void **state)
{
    int32_t sm[50] = {0};
    sm[2] = 4; /* anchors exist for SMs 0..3 */
    hsize_t dims[1] = {50};
    fx_h5_write_dataset(FX->path, "/trace/sm", H5T_NATIVE_INT32, H5T_STD_I32LE, 1, dims, sm);
    fx_expect_read_error(FX->path, PG_READ_TRACE, "/trace/sm[2] = 4 is out of range");
}

static void test_trace_anchor_lengths_differ(void **state)
{
    int64_t a[3] = {1, 2, 3};
    hsize_t dims[1] = {3};
    fx_h5_write_dataset(FX->path, "/trace/anchor_globaltimer_ns", H5T_NATIVE_INT64, H5T_STD_I64LE, 1, dims, a);
    fx_expect_read_error(FX->path, 0, "/trace/anchor_globaltimer_ns has shape [3] but len(/trace/anchor_clock) = 4");
}

/* A file whose phase codes mean other phases must not be read as ours. */
static void test_trace_phase_names_differ(void **state)
{
    const char *names[3] = {"order_wait", "load_wait", "bogus"};
    fx_h5_set_attr_strs(FX->path, "/trace", "phase_names", names, 3);
    /* in a v2 file the names are the file's own: 'bogus' is a name like any
     * other, but the wait flags must cover every phase */
    fx_expect_read_error(FX->path, 0, "/trace/phase_is_wait has shape [13] but len(phase_names of /trace) = 3");
    /* a v1 file could only list pegemm's names, code for code */
    fx_h5_set_attr_i64(FX->path, "/", "pegemm_schema_version", 1);
    fx_expect_read_error(FX->path, 0, "phase_names[2] of /trace is 'bogus' but version-1 files call code 2 'mainloop'");
}

/* v2: names are identifiers, unique within their list. */
static void test_trace_duplicate_role_name(void **state)
{
    const char *names[2] = {"loader", "loader"};
    fx_h5_set_attr_strs(FX->path, "/trace", "role_names", names, 2);
    fx_expect_read_error(FX->path, 0, "role 'loader' is listed twice");
}

/* An older file listing fewer phases is fine, but then codes beyond its
 * list are errors. */
static void test_trace_fewer_phase_names(void **state)
{
    hid_t file = H5Fopen(FX->path, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(file >= 0);
    assert_true(H5Adelete_by_name(file, "/trace", "phase_names", H5P_DEFAULT) >= 0);
    const char *names[2] = {"order_wait", "load_wait"};
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, 16); /* fixed-length strings, as numpy bytes arrays give */
    char fixed[2][16] = {{0}};
    strcpy(fixed[0], names[0]);
    strcpy(fixed[1], names[1]);
    hsize_t n = 2;
    hid_t sp = H5Screate_simple(1, &n, NULL);
    hid_t a = H5Acreate_by_name(file, "/trace", "phase_names", t, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(a >= 0);
    assert_true(H5Awrite(a, t, fixed) >= 0);
    H5Aclose(a);
    H5Sclose(sp);
    H5Tclose(t);
    assert_true(H5Fclose(file) >= 0);
    fx_h5_set_attr_i64(FX->path, "/", "pegemm_schema_version", 1); /* v1: no phase_is_wait needed */
    fx_expect_read_error(FX->path, PG_READ_TRACE, "/trace/phase[2] = 2 is not a known phase (2 phases)");
    /* without loading the trace, the names alone are acceptable */
    pg_run run;
    if (pg_run_read(FX->path, &run, PG_READ_OUTPUT) != 0)
        fail_msg("%s", pg_last_error());
    pg_run_free(&run);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_nonexistent_path),
        T(test_directory),
        T(test_garbage_file),
        T(test_truncated_file),
        T(test_not_a_pegemm_file),
        T(test_newer_schema_version),
        T(test_invalid_schema_version),
        T(test_integer_attribute_range),
        T(test_missing_problem_group),
        T(test_missing_problem_attribute),
        T(test_zero_M),
        T(test_unknown_family),
        T(test_K_mismatch),
        T(test_N_mismatch),
        T(test_combined_wrong_P),
        T(test_A_wrong_type),
        T(test_B_missing_while_A_stored),
        T(test_file_family_without_inputs),
        T(test_missing_D),
        T(test_D_as_float),
        T(test_D_wrong_rank),
        T(test_D_wrong_N),
        T(test_D_rows_disagree_with_row_list),
        T(test_all_rows_D_short),
        T(test_rows_out_of_range),
        T(test_rows_unsorted),
        T(test_rows_wrong_type),
        T(test_accumulator_wrong_shape),
        T(test_unknown_mode),
        T(test_kernel_attribute_missing),
        T(test_timing_wrong_type),
        T(test_timing_without_flops),
        T(test_trace_column_missing),
        T(test_trace_columns_unequal),
        T(test_trace_phase_code_out_of_range),
        T(test_trace_role_code_out_of_range),
        T(test_trace_sm_without_anchor),
        T(test_trace_anchor_lengths_differ),
        T(test_trace_phase_names_differ),
        T(test_trace_fewer_phase_names),
        T(test_trace_duplicate_role_name),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
