/* The OpenMP reference is deterministic across thread counts: for every
 * accumulation mode and both epilogues, a few shapes (including sizes that
 * are not multiples of the tile or of the 32-k block), all rows and a row
 * subset, the outputs D and the fp32 accumulators with 2, 3 and 8 threads are
 * bit-identical to those with 1 thread, and the 1-thread accumulators equal
 * the serial pg_dot of each row and column.  The input generator is checked
 * the same way.  A data race in the reference (shared scratch, a shared
 * accumulator) would show as differing bits under some thread count.
 * This is the race check chosen over ThreadSanitizer: Debian's libgomp is
 * not built with TSan, so TSan cannot see its barriers and reports false
 * races (docs/reliability.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <omp.h>

#include "accum.h"
#include "formats.h"
#include "gemm.h"
#include "inputs.h"
#include "pg_error.h"
#include "problem.h"

static const int k_threads[] = {2, 3, 8};

typedef struct {
    pg_shape shape;
    pg_family family;
} case_spec;

static const case_spec k_cases[] = {
    {{700, 70, 100, 7}, PG_FAM_NORMAL},   /* 11 work blocks; K not a multiple of 32, N of the tile */
    {{33, 9, 31, 196}, PG_FAM_SPECIAL},   /* P > M, NaN and +-448 codes */
    {{64, 64, 256, 5}, PG_FAM_SUBNORMAL}, /* multiples everywhere */
    {{129, 33, 160, 196}, PG_FAM_CODES},
};

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* Run the reference with `threads` threads into fresh D and acc. */
static void run_ref(const pg_problem *p, pg_accum_mode mode, pg_epilogue epi, const int64_t *rows, int64_t nrows,
                    int threads, uint16_t **D, float **acc)
{
    size_t n = (size_t)(nrows * p->shape.N);
    *D = malloc(n * sizeof **D);
    *acc = malloc(n * sizeof **acc);
    assert_non_null(*D);
    assert_non_null(*acc);
    memset(*D, 0xA5, n * sizeof **D); /* poison: every element must be written */
    memset(*acc, 0xA5, n * sizeof **acc);
    omp_set_num_threads(threads);
    if (pg_gemm_ref(p, mode, epi, rows, nrows, *D, *acc, NULL) != 0)
        fail_msg("pg_gemm_ref: %s", pg_last_error());
}

/* The 1-thread accumulators are pg_dot's, element by element. */
static void check_against_dot(const pg_problem *p, pg_accum_mode mode, const int64_t *rows, int64_t nrows,
                              const float *acc)
{
    int64_t N = p->shape.N, K = p->shape.K;
    for (int64_t i = 0; i < nrows; i++) {
        int64_t m = rows ? rows[i] : i;
        for (int64_t n = 0; n < N; n++) {
            float want = pg_dot(mode, p->A + m * K, p->B + n * K, K);
            if (f32_bits(want) != f32_bits(acc[i * N + n]))
                fail_msg("%s: acc[%lld,%lld] = 0x%08x, pg_dot 0x%08x", pg_accum_name(mode), (long long)m,
                         (long long)n, f32_bits(acc[i * N + n]), f32_bits(want));
        }
    }
}

static void check_case(const pg_problem *p, const int64_t *rows, int64_t nrows)
{
    size_t n = (size_t)(nrows * p->shape.N);
    for (int mode = 0; mode < PG_ACC_COUNT; mode++) {
        for (int epi = 0; epi < PG_EPI_COUNT; epi++) {
            uint16_t *D1 = NULL;
            float *acc1 = NULL;
            run_ref(p, (pg_accum_mode)mode, (pg_epilogue)epi, rows, nrows, 1, &D1, &acc1);
            if (epi == 0)
                check_against_dot(p, (pg_accum_mode)mode, rows, nrows, acc1);
            for (size_t t = 0; t < sizeof k_threads / sizeof k_threads[0]; t++) {
                uint16_t *D = NULL;
                float *acc = NULL;
                run_ref(p, (pg_accum_mode)mode, (pg_epilogue)epi, rows, nrows, k_threads[t], &D, &acc);
                if (memcmp(D1, D, n * sizeof *D) != 0 || memcmp(acc1, acc, n * sizeof *acc) != 0)
                    fail_msg("%s, epilogue %d, %lldx%lldx%lld: %d threads differ from 1 thread",
                             pg_accum_name((pg_accum_mode)mode), epi, (long long)p->shape.M, (long long)p->shape.N,
                             (long long)p->shape.K, k_threads[t]);
                free(D);
                free(acc);
            }
            free(D1);
            free(acc1);
        }
    }
}

static void generate(pg_problem *p, const case_spec *c, int threads)
{
    memset(p, 0, sizeof *p);
    omp_set_num_threads(threads);
    if (pg_problem_generate(p, c->shape, c->family, 7) != 0)
        fail_msg("pg_problem_generate: %s", pg_last_error());
}

static void test_generator_thread_counts(void **state)
{
    (void)state;
    for (size_t c = 0; c < sizeof k_cases / sizeof k_cases[0]; c++) {
        pg_problem one;
        generate(&one, &k_cases[c], 1);
        const pg_shape *s = &k_cases[c].shape;
        for (size_t t = 0; t < sizeof k_threads / sizeof k_threads[0]; t++) {
            pg_problem many;
            generate(&many, &k_cases[c], k_threads[t]);
            assert_memory_equal(one.A, many.A, (size_t)(s->M * s->K));
            assert_memory_equal(one.B, many.B, (size_t)(s->N * s->K));
            assert_memory_equal(one.combined, many.combined, (size_t)(s->P * s->N) * sizeof *one.combined);
            pg_problem_free(&many);
        }
        pg_problem_free(&one);
    }
}

static void test_reference_all_rows(void **state)
{
    (void)state;
    for (size_t c = 0; c < sizeof k_cases / sizeof k_cases[0]; c++) {
        pg_problem p;
        generate(&p, &k_cases[c], 1);
        check_case(&p, NULL, p.shape.M);
        pg_problem_free(&p);
    }
}

/* Rows 1, 4, 7, ... (increasing, as the reference requires): the
 * row-subset path and partial row tiles. */
static void test_reference_row_subset(void **state)
{
    (void)state;
    for (size_t c = 0; c < sizeof k_cases / sizeof k_cases[0]; c++) {
        pg_problem p;
        generate(&p, &k_cases[c], 1);
        int64_t nrows = (p.shape.M + 1) / 3;
        int64_t *rows = malloc((size_t)nrows * sizeof *rows);
        assert_non_null(rows);
        for (int64_t i = 0; i < nrows; i++)
            rows[i] = 1 + 3 * i;
        nrows -= rows[nrows - 1] >= p.shape.M; /* keep every row below M */
        check_case(&p, rows, nrows);
        free(rows);
        pg_problem_free(&p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generator_thread_counts),
        cmocka_unit_test(test_reference_all_rows),
        cmocka_unit_test(test_reference_row_subset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
