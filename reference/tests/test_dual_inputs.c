/* The dual GEMM's generated inputs (dual_inputs.h): block quantization as
 * DeepGEMM does it, determinism, argument errors. */
#include <math.h>
#include <omp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dual_inputs.h"
#include "formats.h"
#include "pg_error.h"

/* Every scale block holds one code of magnitude 448 (its amax / scale),
 * and no code is NaN. */
static void check_blocks(const uint8_t *codes, int64_t rows, int64_t K, int64_t brows)
{
    const int64_t KB = (K + 127) / 128;
    for (int64_t rb = 0; rb < rows / brows; rb++)
        for (int64_t kb = 0; kb < KB; kb++) {
            int has_max = 0;
            for (int64_t r = rb * brows; r < (rb + 1) * brows; r++)
                for (int64_t k = kb * 128; k < K && k < (kb + 1) * 128; k++) {
                    const uint8_t c = codes[r * K + k];
                    assert_false((c & 0x7F) == 0x7F); /* NaN */
                    has_max |= (c & 0x7F) == 0x7E;    /* 448 */
                }
            if (!has_max)
                fail_msg("block (%lld, %lld) has no code of magnitude 448", (long long)rb, (long long)kb);
        }
}

static void test_quantization(void **state)
{
    (void)state;
    pg_dual_inputs in;
    assert_int_equal(pg_dual_generate(&in, 2, 64, 256, 300, PG_OUT_BF16, 7), 0);
    check_blocks(in.A, 2 * 64, 300, 1);
    check_blocks(in.B1, 2 * 256, 300, 128);
    check_blocks(in.B2, 2 * 256, 300, 128);
    /* rows differ in magnitude: the A scales span more than 2x */
    float lo = INFINITY, hi = 0;
    for (int64_t i = 0; i < 2 * 64 * 3; i++) {
        assert_true(in.scale_a[i] > 0);
        lo = fminf(lo, in.scale_a[i]);
        hi = fmaxf(hi, in.scale_a[i]);
    }
    assert_true(hi > 2 * lo);
    assert_memory_not_equal(in.B1, in.B2, 256 * 300);
    assert_int_equal(pg_dual_check(&in.p, pg_accum_preset(PG_ACC_SM90)), 0);
    pg_dual_inputs_free(&in);
}

static void test_deterministic(void **state)
{
    (void)state;
    pg_dual_inputs a, b;
    omp_set_num_threads(1);
    assert_int_equal(pg_dual_generate(&a, 3, 40, 128, 256, PG_OUT_FP16, 11), 0);
    omp_set_num_threads(3);
    assert_int_equal(pg_dual_generate(&b, 3, 40, 128, 256, PG_OUT_FP16, 11), 0);
    assert_memory_equal(a.A, b.A, 3 * 40 * 256);
    assert_memory_equal(a.B2, b.B2, 3 * 128 * 256);
    assert_memory_equal(a.scale_b1, b.scale_b1, 3 * 2 * sizeof(float));
    assert_int_equal(a.p.out, PG_OUT_FP16);
    pg_dual_inputs_free(&b);
    assert_int_equal(pg_dual_generate(&b, 3, 40, 128, 256, PG_OUT_FP16, 12), 0);
    assert_memory_not_equal(a.A, b.A, 3 * 40 * 256); /* another seed */
    pg_dual_inputs_free(&a);
    pg_dual_inputs_free(&b);
}

static void test_errors(void **state)
{
    (void)state;
    pg_dual_inputs in;
    assert_int_equal(pg_dual_generate(&in, 1, 64, 100, 128, PG_OUT_BF16, 1), -1);
    assert_non_null(strstr(pg_last_error(), "multiple of 128"));
    assert_null(in.A);
    assert_int_equal(pg_dual_generate(&in, 0, 64, 128, 128, PG_OUT_BF16, 1), -1);
    assert_non_null(strstr(pg_last_error(), ">= 1"));
    assert_int_equal(pg_dual_generate(&in, 1, 1LL << 30, 1LL << 20, 1LL << 20, PG_OUT_BF16, 1), -1);
    assert_null(in.A);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quantization),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
