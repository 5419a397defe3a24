/* pg_run_write then pg_run_read gives back every field, bit for bit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <hdf5.h>

#include "inputs.h"
#include "pg_error.h"
#include "run_fixture.h"
#include "runfile.h"

static void roundtrip(const fx_spec *spec, int store_problem, unsigned what)
{
    char *dir = fx_tempdir();
    char *path = fx_path(dir, "run.h5");
    pg_run want, got;
    fx_make_run(&want, spec);
    if (pg_run_write(path, &want, store_problem) != 0)
        fail_msg("%s", pg_last_error());
    if (pg_run_read(path, &got, what) != 0)
        fail_msg("%s", pg_last_error());
    assert_int_equal(got.problem_stored, store_problem);
    fx_assert_runs_equal(&want, &got, what);
    assert_int_equal(fx_count_temp_files(dir), 0);
    pg_run_free(&got);
    pg_run_free(&want);
    free(path);
    fx_rmtree(dir);
}

/* Everything at once: inputs stored, all rows, accumulators, kernel,
 * timings and trace; big enough (M*N*2 > 64 KiB) to take the chunked,
 * compressed path. */
static void test_everything_all_rows(void **state)
{
    (void)state;
    fx_spec s = {.M = 300, .N = 128, .K = 64, .P = 7, .accumulator = 1, .trace = 1, .kernel = 1, .ntimings = 5};
    roundtrip(&s, 1, PG_READ_ALL);
}

/* Several compressed chunks per dataset, the last one partial, for every
 * element size (1: A, 2: D, 4: accumulator and trace sm, 8: trace clocks):
 * the parallel chunk filter must match HDF5's own pipeline byte for byte. */
static void test_many_chunks(void **state)
{
    (void)state;
    fx_spec s = {.M = 9001, .N = 128, .K = 256, .P = 196, .accumulator = 1, .trace = 1, .trace_n = 300007,
                 .ntimings = 1, .salt = 21};
    roundtrip(&s, 1, PG_READ_ALL);
}

static void test_row_subset_without_accumulator(void **state)
{
    (void)state;
    fx_spec s = {.M = 41, .N = 16, .K = 32, .P = 5, .subset = 1, .ntimings = 1, .salt = 3};
    roundtrip(&s, 1, PG_READ_ALL);
}

static void test_row_subset_with_accumulator_and_trace(void **state)
{
    (void)state;
    fx_spec s = {.M = 97, .N = 24, .K = 32, .P = 196, .subset = 1, .accumulator = 1, .trace = 1, .salt = 5};
    roundtrip(&s, 1, PG_READ_ALL);
}

/* Without the inputs stored: /problem keeps only the attributes. */
static void test_outputs_only(void **state)
{
    (void)state;
    fx_spec s = {.M = 20, .N = 8, .K = 16, .P = 3, .subset = 1, .kernel = 1, .ntimings = 2, .salt = 9};
    roundtrip(&s, 0, PG_READ_OUTPUT | PG_READ_TRACE);
}

/* what = 0: metadata only (kernel info, timings); outputs and trace are
 * validated but left empty. */
static void test_metadata_only(void **state)
{
    (void)state;
    fx_spec s = {.M = 50, .N = 16, .K = 32, .P = 4, .subset = 1, .accumulator = 1, .trace = 1, .ntimings = 3};
    roundtrip(&s, 1, 0);
}

/* A run with no outputs at all (only the problem). */
static void test_problem_only(void **state)
{
    (void)state;
    char *dir = fx_tempdir();
    char *path = fx_path(dir, "inputs.h5");
    pg_run want, got;
    fx_spec s = {.M = 12, .N = 8, .K = 16, .P = 2};
    fx_make_run(&want, &s);
    free(want.D);
    want.D = NULL;
    want.nrows = 0;
    snprintf(want.problem.family, sizeof want.problem.family, "file");
    /* family "file" stores the inputs even when store_problem is 0 */
    assert_int_equal(pg_run_write(path, &want, 0), 0);
    assert_int_equal(pg_run_read(path, &got, PG_READ_ALL), 0);
    assert_int_equal(got.problem_stored, 1);
    fx_assert_runs_equal(&want, &got, PG_READ_ALL);
    pg_run_free(&got);
    pg_run_free(&want);
    free(path);
    fx_rmtree(dir);
}

/* A generated problem stored by family + seed only is regenerated on read,
 * byte for byte what pg_problem_generate makes. */
static void test_regenerate_inputs(void **state)
{
    (void)state;
    char *dir = fx_tempdir();
    char *path = fx_path(dir, "gen.h5");
    pg_shape shape = {33, 16, 64, 7};
    pg_problem gen;
    memset(&gen, 0, sizeof gen);
    if (pg_problem_generate(&gen, shape, PG_FAM_CODES, 77) != 0)
        fail_msg("%s", pg_last_error());
    pg_run want;
    memset(&want, 0, sizeof want);
    want.problem.shape = shape;
    snprintf(want.problem.family, sizeof want.problem.family, "%s", pg_family_name(PG_FAM_CODES));
    want.problem.seed = 77;
    assert_int_equal(pg_run_write(path, &want, 0), 0);

    pg_run got;
    if (pg_run_read(path, &got, PG_READ_PROBLEM) != 0)
        fail_msg("%s", pg_last_error());
    assert_int_equal(got.problem_stored, 0);
    assert_string_equal(got.problem.family, "codes");
    assert_true(got.problem.seed == 77);
    assert_memory_equal(got.problem.A, gen.A, (size_t)(shape.M * shape.K));
    assert_memory_equal(got.problem.B, gen.B, (size_t)(shape.N * shape.K));
    assert_memory_equal(got.problem.combined, gen.combined, (size_t)(shape.P * shape.N) * 2);
    pg_run_free(&got);
    pg_problem_free(&gen);
    free(path);
    fx_rmtree(dir);
}

/* The same run gives the same bytes (no timestamps in the file), so a
 * committed run only changes in git when its contents do. */
static void test_reproducible_bytes(void **state)
{
    (void)state;
    char *dir = fx_tempdir();
    char *p1 = fx_path(dir, "a.h5"), *p2 = fx_path(dir, "b.h5");
    pg_run run;
    fx_spec s = {.M = 700, .N = 128, .K = 64, .P = 7, .subset = 1, .accumulator = 1, .trace = 1, .kernel = 1,
                 .ntimings = 3};
    fx_make_run(&run, &s);
    assert_int_equal(pg_run_write(p1, &run, 1), 0);
    sleep(1); /* a timestamp, were there one, would now differ */
    assert_int_equal(pg_run_write(p2, &run, 1), 0);
    size_t n1, n2;
    unsigned char *b1 = fx_slurp(p1, &n1), *b2 = fx_slurp(p2, &n2);
    assert_non_null(b1);
    assert_non_null(b2);
    assert_int_equal(n1, n2);
    assert_memory_equal(b1, b2, n1);
    free(b1);
    free(b2);
    pg_run_free(&run);
    free(p1);
    free(p2);
    fx_rmtree(dir);
}

/* Rewriting a path replaces the old run entirely. */
static void test_overwrite(void **state)
{
    (void)state;
    char *dir = fx_tempdir();
    char *path = fx_path(dir, "run.h5");
    pg_run a, b, got;
    fx_spec sa = {.M = 30, .N = 8, .K = 16, .P = 3, .trace = 1, .ntimings = 4, .kernel = 1};
    fx_spec sb = {.M = 10, .N = 16, .K = 32, .P = 2, .subset = 1, .salt = 11};
    fx_make_run(&a, &sa);
    fx_make_run(&b, &sb);
    assert_int_equal(pg_run_write(path, &a, 1), 0);
    assert_int_equal(pg_run_write(path, &b, 0), 0);
    assert_int_equal(pg_run_read(path, &got, PG_READ_OUTPUT | PG_READ_TRACE), 0);
    fx_assert_runs_equal(&b, &got, PG_READ_OUTPUT | PG_READ_TRACE);
    assert_int_equal(got.problem_stored, 0);
    pg_run_free(&got);
    pg_run_free(&a);
    pg_run_free(&b);
    free(path);
    fx_rmtree(dir);
}

/* The file states its own phase and role names, in code order, so a
 * reader without our headers can map the codes. */
static void test_trace_names_in_file(void **state)
{
    (void)state;
    char *dir = fx_tempdir();
    char *path = fx_path(dir, "trace.h5");
    pg_run run;
    fx_spec s = {.M = 4, .N = 8, .K = 16, .P = 1, .trace = 1};
    fx_make_run(&run, &s);
    assert_int_equal(pg_run_write(path, &run, 0), 0);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(f >= 0);
    hid_t a = H5Aopen_by_name(f, "/trace", "phase_names", H5P_DEFAULT, H5P_DEFAULT);
    assert_true(a >= 0);
    hid_t sp = H5Aget_space(a);
    assert_int_equal(H5Sget_simple_extent_npoints(sp), PG_PH_COUNT);
    hid_t t = H5Aget_type(a);
    char *names[PG_PH_COUNT];
    assert_true(H5Aread(a, t, names) >= 0);
    for (int i = 0; i < PG_PH_COUNT; i++) {
        assert_string_equal(names[i], pg_phase_name((pg_phase)i));
        H5free_memory(names[i]);
    }
    H5Tclose(t);
    H5Sclose(sp);
    H5Aclose(a);
    int64_t version = 0;
    hid_t va = H5Aopen(f, "pegemm_schema_version", H5P_DEFAULT);
    assert_true(va >= 0);
    assert_true(H5Aread(va, H5T_NATIVE_INT64, &version) >= 0);
    assert_int_equal(version, PG_RUN_SCHEMA_VERSION);
    H5Aclose(va);
    assert_true(H5Fclose(f) >= 0);
    pg_run_free(&run);
    free(path);
    fx_rmtree(dir);
}

/* What other writers (h5py, other HDF5 programs) may produce and the
 * format allows: fixed-length strings, narrower integer attributes,
 * big-endian datasets, timing groups without creation order. */
static void test_accepts_other_writers_variants(void **state)
{
    (void)state;
    char *dir = fx_tempdir();
    char *path = fx_path(dir, "variants.h5");
    pg_run want, got;
    fx_spec s = {.M = 6, .N = 4, .K = 8, .P = 2, .subset = 1};
    fx_make_run(&want, &s);
    assert_int_equal(pg_run_write(path, &want, 1), 0);

    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    assert_true(f >= 0);
    /* family as a fixed-length, space-padded string */
    assert_true(H5Adelete_by_name(f, "/problem", "family", H5P_DEFAULT) >= 0);
    hid_t t = H5Tcopy(H5T_C_S1);
    assert_true(H5Tset_size(t, 10) >= 0 && H5Tset_strpad(t, H5T_STR_SPACEPAD) >= 0);
    hid_t sp = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate_by_name(f, "/problem", "family", t, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(a >= 0);
    assert_true(H5Awrite(a, t, "normal    ") >= 0);
    H5Aclose(a);
    H5Tclose(t);
    /* N as an int32 attribute */
    assert_true(H5Adelete_by_name(f, "/problem", "N", H5P_DEFAULT) >= 0);
    a = H5Acreate_by_name(f, "/problem", "N", H5T_STD_I32LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int32_t n32 = 4;
    assert_true(a >= 0 && H5Awrite(a, H5T_NATIVE_INT32, &n32) >= 0);
    H5Aclose(a);
    H5Sclose(sp);
    /* D stored big-endian */
    assert_true(H5Ldelete(f, "/output/D", H5P_DEFAULT) >= 0);
    hsize_t dims[2] = {(hsize_t)want.nrows, 4};
    sp = H5Screate_simple(2, dims, NULL);
    hid_t d = H5Dcreate2(f, "/output/D", H5T_STD_U16BE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(d >= 0 && H5Dwrite(d, H5T_NATIVE_UINT16, H5S_ALL, H5S_ALL, H5P_DEFAULT, want.D) >= 0);
    H5Dclose(d);
    H5Sclose(sp);
    /* a /timing group without creation order: read in name order */
    hid_t g = H5Gcreate2(f, "/timing", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    assert_true(g >= 0);
    const char *names[2] = {"zeta", "alpha"};
    for (int i = 0; i < 2; i++) {
        hsize_t n = 3;
        double ms[3] = {i + 1.0, i + 2.0, i + 3.0};
        sp = H5Screate_simple(1, &n, NULL);
        d = H5Dcreate2(g, names[i], H5T_IEEE_F64LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        assert_true(d >= 0 && H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, ms) >= 0);
        H5Sclose(sp);
        sp = H5Screate(H5S_SCALAR);
        int64_t flops = 100; /* an integer where a float64 is expected: converted */
        a = H5Acreate2(d, "flops", H5T_STD_I64LE, sp, H5P_DEFAULT, H5P_DEFAULT);
        assert_true(a >= 0 && H5Awrite(a, H5T_NATIVE_INT64, &flops) >= 0);
        H5Aclose(a);
        double bytes = 0.5;
        a = H5Acreate2(d, "bytes", H5T_IEEE_F64LE, sp, H5P_DEFAULT, H5P_DEFAULT);
        assert_true(a >= 0 && H5Awrite(a, H5T_NATIVE_DOUBLE, &bytes) >= 0);
        H5Aclose(a);
        H5Sclose(sp);
        H5Dclose(d);
    }
    H5Gclose(g);
    assert_true(H5Fclose(f) >= 0);

    if (pg_run_read(path, &got, PG_READ_ALL) != 0)
        fail_msg("%s", pg_last_error());
    assert_string_equal(got.problem.family, "normal");
    assert_int_equal(got.problem.shape.N, 4);
    assert_memory_equal(got.D, want.D, (size_t)(want.nrows * 4) * sizeof *want.D);
    assert_int_equal(got.ntimings, 2);
    assert_string_equal(got.timings[0].name, "alpha");
    assert_string_equal(got.timings[1].name, "zeta");
    assert_true(got.timings[0].ms[2] == 4.0);
    assert_true(got.timings[0].flops == 100.0);
    pg_run_free(&got);
    pg_run_free(&want);
    free(path);
    fx_rmtree(dir);
}

/* pg_run_add_timing refuses what the file could not hold. */
static void test_add_timing_checks(void **state)
{
    (void)state;
    pg_run run;
    memset(&run, 0, sizeof run);
    double ms[2] = {1.0, 2.0};
    assert_int_equal(pg_run_add_timing(&run, "a/b", ms, 2, 0, 0), -1);
    assert_non_null(strstr(pg_last_error(), "a/b"));
    assert_int_equal(pg_run_add_timing(&run, "", ms, 2, 0, 0), -1);
    assert_int_equal(pg_run_add_timing(&run, "x", ms, 0, 0, 0), -1);
    assert_non_null(strstr(pg_last_error(), "no samples"));
    assert_int_equal(pg_run_add_timing(&run, "x", ms, 2, 0, 0), 0);
    assert_int_equal(pg_run_add_timing(&run, "x", ms, 2, 0, 0), -1);
    assert_non_null(strstr(pg_last_error(), "already"));
    for (int i = 1; i < PG_MAX_TIMINGS; i++) {
        char name[16];
        snprintf(name, sizeof name, "t%d", i);
        assert_int_equal(pg_run_add_timing(&run, name, ms, 2, 0, 0), 0);
    }
    assert_int_equal(pg_run_add_timing(&run, "one_too_many", ms, 2, 0, 0), -1);
    assert_non_null(strstr(pg_last_error(), "too many"));
    assert_int_equal(run.ntimings, PG_MAX_TIMINGS);
    pg_run_free(&run);
    assert_int_equal(run.ntimings, 0);
}

static void test_trace_alloc(void **state)
{
    (void)state;
    pg_trace t;
    assert_int_equal(pg_trace_alloc(&t, 0, 0), 0);
    assert_non_null(t.sm);
    assert_int_equal(t.n, 0);
    pg_run run;
    memset(&run, 0, sizeof run);
    run.trace = t;
    pg_run_free(&run);
    assert_int_equal(pg_trace_alloc(&t, -1, 0), -1);
    assert_non_null(strstr(pg_last_error(), "negative"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_everything_all_rows),
        cmocka_unit_test(test_many_chunks),
        cmocka_unit_test(test_row_subset_without_accumulator),
        cmocka_unit_test(test_row_subset_with_accumulator_and_trace),
        cmocka_unit_test(test_outputs_only),
        cmocka_unit_test(test_metadata_only),
        cmocka_unit_test(test_problem_only),
        cmocka_unit_test(test_regenerate_inputs),
        cmocka_unit_test(test_reproducible_bytes),
        cmocka_unit_test(test_overwrite),
        cmocka_unit_test(test_trace_names_in_file),
        cmocka_unit_test(test_accepts_other_writers_variants),
        cmocka_unit_test(test_add_timing_checks),
        cmocka_unit_test(test_trace_alloc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
