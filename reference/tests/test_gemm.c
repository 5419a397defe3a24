/* The reference GEMM: every output equals the scalar definition (pg_dot +
 * pg_epilogue_apply) in every mode, family, epilogue and kernel instruction
 * set; the bits do not depend on the thread count; bad arguments fail. */
#include <omp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gemm.h"
#include "inputs.h"
#include "pg_error.h"

/* N not a multiple of the 64-column panels, K not a multiple of 32, M not
 * a multiple of the 8-row tiles; large enough for `special` to hold NaN
 * rows in A and B. */
static const pg_shape k_shape = {.M = 203, .N = 150, .K = 300, .P = 13};

static void check_against_definition(pg_family f, pg_accum_mode m, pg_epilogue e, const int64_t *rows,
                                     int64_t nrows, long *nan_seen)
{
    pg_problem p;
    assert_int_equal(pg_problem_generate(&p, k_shape, f, 17), 0);
    int64_t N = k_shape.N, K = k_shape.K;
    uint16_t *D = malloc((size_t)(nrows * N) * sizeof *D);
    float *acc = malloc((size_t)(nrows * N) * sizeof *acc);
    assert_non_null(D);
    assert_non_null(acc);
    assert_int_equal(pg_gemm_ref(&p, m, e, rows, nrows, D, acc, NULL), 0);
    long bad = 0;
    for (int64_t i = 0; i < nrows; i++) {
        int64_t r = rows ? rows[i] : i;
        for (int64_t n = 0; n < N; n++) {
            float want = pg_dot(m, p.A + r * K, p.B + n * K, K);
            uint16_t dwant = pg_epilogue_apply(e, want, p.combined[(r % k_shape.P) * N + n]);
            if (pg_f32_bits(want) != pg_f32_bits(acc[i * N + n]) || dwant != D[i * N + n]) {
                if (bad++ < 3)
                    print_error("%s %s %s row %lld col %lld: acc %08x want %08x, D %04x want %04x\n",
                                pg_family_name(f), pg_accum_name(m), pg_epilogue_name(e), (long long)r,
                                (long long)n, pg_f32_bits(acc[i * N + n]), pg_f32_bits(want), D[i * N + n], dwant);
            }
            *nan_seen += want != want;
        }
    }
    free(D);
    free(acc);
    pg_problem_free(&p);
    assert_int_equal(bad, 0);
}

static void run_all(const char *isa)
{
    if (isa)
        setenv("PG_KERNEL_ISA", isa, 1);
    for (int f = 0; f < PG_FAM_COUNT; f++) {
        long nan_seen = 0;
        for (int m = 0; m < PG_ACC_COUNT; m++)
            check_against_definition((pg_family)f, (pg_accum_mode)m, PG_EPI_DOUBLE, NULL, k_shape.M, &nan_seen);
        if (f == PG_FAM_SPECIAL)
            assert_true(nan_seen > 0); /* the NaN path was exercised */
        else
            assert_int_equal(nan_seen, 0);
    }
}

static void test_gemm_matches_definition(void **state)
{
    (void)state;
    run_all(NULL);
    int64_t rows[] = {202, 0, 7, 8, 9, 100, 5, 5};
    long nan_seen = 0;
    for (int m = 0; m < PG_ACC_COUNT; m++)
        check_against_definition(PG_FAM_SPECIAL, (pg_accum_mode)m, PG_EPI_SINGLE, rows, 8, &nan_seen);
}

/* The kernel instruction set is chosen once per process, so the other
 * paths run in child processes of the test binary (see main). */
static void test_gemm_matches_definition_isa(void **state)
{
    (void)state;
    const char *isa = getenv("PG_TEST_ISA");
    if (isa == NULL)
        skip();
    run_all(isa);
}

static void test_thread_count_determinism(void **state)
{
    (void)state;
    pg_shape sh = {.M = 97, .N = 130, .K = 200, .P = 7};
    for (int f = 0; f < PG_FAM_COUNT; f++) {
        pg_problem p;
        assert_int_equal(pg_problem_generate(&p, sh, (pg_family)f, 5), 0);
        size_t nout = (size_t)(sh.M * sh.N);
        for (int m = 0; m < PG_ACC_COUNT; m++) {
            uint16_t *D[3];
            float *acc[3];
            for (int t = 0; t < 3; t++) {
                D[t] = malloc(nout * sizeof *D[t]);
                acc[t] = malloc(nout * sizeof *acc[t]);
                omp_set_num_threads(t + 1);
                assert_int_equal(pg_gemm_ref(&p, (pg_accum_mode)m, PG_EPI_DOUBLE, NULL, sh.M, D[t], acc[t], NULL),
                                 0);
            }
            for (int t = 1; t < 3; t++) {
                assert_memory_equal(D[0], D[t], nout * sizeof *D[0]);
                assert_memory_equal(acc[0], acc[t], nout * sizeof *acc[0]);
            }
            for (int t = 0; t < 3; t++) {
                free(D[t]);
                free(acc[t]);
            }
        }
        pg_problem_free(&p);
    }
    omp_set_num_threads(omp_get_num_procs());
}

static void test_bad_arguments(void **state)
{
    (void)state;
    pg_shape sh = {.M = 4, .N = 4, .K = 4, .P = 2};
    pg_problem p;
    assert_int_equal(pg_problem_generate(&p, sh, PG_FAM_NORMAL, 1), 0);
    uint16_t D[16];
    assert_int_equal(pg_gemm_ref(&p, PG_ACC_SM90, PG_EPI_DOUBLE, NULL, 3, D, NULL, NULL), -1);
    int64_t bad_rows[] = {0, 4};
    assert_int_equal(pg_gemm_ref(&p, PG_ACC_SM90, PG_EPI_DOUBLE, bad_rows, 2, D, NULL, NULL), -1);
    assert_non_null(strstr(pg_last_error(), "row 4"));
    assert_int_equal(pg_gemm_ref(&p, (pg_accum_mode)9, PG_EPI_DOUBLE, NULL, 4, D, NULL, NULL), -1);
    assert_int_equal(pg_gemm_ref(&p, PG_ACC_SM90, PG_EPI_DOUBLE, NULL, 4, NULL, NULL, NULL), -1);
    pg_problem_free(&p);
}

int main(int argc, char **argv)
{
    /* `test_ref_gemm` runs the default path, then re-runs itself once per
     * lower instruction set available (PG_TEST_ISA + PG_KERNEL_ISA). */
    if (getenv("PG_TEST_ISA") == NULL) {
        for (int isa = 1; isa <= 2; isa++) {
            char cmd[4096];
            snprintf(cmd, sizeof cmd, "PG_TEST_ISA=%d '%s' >/dev/null", isa, argv[0]);
            (void)argc;
            if (system(cmd) != 0) {
                fprintf(stderr, "kernel instruction set %d: the GEMM does not match the definition\n", isa);
                return 1;
            }
        }
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_gemm_matches_definition),
            cmocka_unit_test(test_thread_count_determinism),
            cmocka_unit_test(test_bad_arguments),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_gemm_matches_definition_isa)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
