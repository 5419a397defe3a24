/* silu_fp32.h over all 2^32 fp32 inputs against silu in double, and its
 * exp over every input in [0, 110] against exp in double; the results
 * are stated in docs/numerics.md ("Dual GEMM (SwiGLU)").  Also silu is
 * non-decreasing over every pattern in [0, 110]. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "silu_ulp.h"

static void test_all_inputs(void **state)
{
    (void)state;
    silu_accuracy a = silu_measure(0, UINT32_MAX, 1);
    printf("silu: %lld inputs, max %.4f ulp at 0x%08x; exp: max %.4f ulp at 0x%08x\n", (long long)a.checked,
           a.silu_max, a.silu_worst, a.exp_max, a.exp_worst);
    assert_int_equal(a.checked, (int64_t)1 << 32);
    assert_int_equal(a.nan_wrong, 0);
    assert_true(a.silu_max <= 3.35);
    assert_true(a.exp_max <= 1.02);
}

static void test_monotonic_positive(void **state)
{
    (void)state;
    int64_t falls = 0;
#pragma omp parallel for reduction(+ : falls) schedule(static)
    for (uint32_t u = 1; u <= 0x42DC0000u; u++)
        falls += pg_silu_f32(f32_of(u)) < pg_silu_f32(f32_of(u - 1));
    assert_int_equal(falls, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_all_inputs), cmocka_unit_test(test_monotonic_positive)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
