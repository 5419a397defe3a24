/* The device division of silu_fp32.h (pg_silu_div: MUFU.RCP, then
 * pg_silu_div_from_rcp) proven on the host for whatever MUFU.RCP rounds to
 * within its 1-ulp bound: (a) the Newton step (and the select for
 * d = 2 - 2^-23) gives y = RN(1/d) for every d in [1, 2] from every y0
 * within an ulp of 1/d; (b) the whole sequence equals the IEEE division on
 * the (num, d) of all 2^32 fp32 inputs for y0 = RN(1/d) and both its
 * neighbours (where they are within an ulp).  The GPU test
 * (kernel/tests/test_silu_gpu.c) checks the same against the hardware.
 * Suite 'slow' (the 2^32 part). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "silu_fp32.h"

/* y0 = RN(1/d) moved by k ulps; *ok = 0 if that is more than an ulp
 * (2^-24 in [0.5, 1]) from 1/d, which MUFU.RCP never returns. */
static float rcp_candidate(float d, int k, int *ok)
{
    float y0 = pg_sf_div(1.0f, d);
    for (int j = 0; j < (k < 0 ? -k : k); j++)
        y0 = nextafterf(y0, k < 0 ? 0.0f : 2.0f);
    *ok = fabs((double)y0 - 1.0 / (double)d) <= 0x1p-24;
    return y0;
}

static void test_reciprocal_all_d(void **state)
{
    (void)state;
    int64_t tried = 0, wrong = 0, d_count = 0;
    for (uint32_t u = pg_sf_bits(1.0f); u <= pg_sf_bits(2.0f); u++) {
        const float d = pg_sf_from_bits(u);
        const float want = pg_sf_div(1.0f, d);
        for (int k = -2; k <= 2; k++) {
            int ok;
            const float y0 = rcp_candidate(d, k, &ok);
            if (!ok)
                continue;
            /* y as pg_silu_div_from_rcp forms it, and its quotient 1 / d */
            float y = pg_sf_fma(y0, pg_sf_fma(-d, y0, 1.0f), y0);
            y = d == PG_SILU_D_HARD ? PG_SILU_D_HARD_RCP : y;
            tried++;
            wrong += pg_sf_bits(y) != pg_sf_bits(want);
            wrong += pg_sf_bits(pg_silu_div_from_rcp(1.0f, d, y0)) != pg_sf_bits(want);
        }
        d_count++;
    }
    printf("reciprocal: %lld d in [1, 2], %lld y0 within an ulp, %lld wrong\n", (long long)d_count,
           (long long)tried, (long long)wrong);
    assert_int_equal(d_count, ((int64_t)1 << 23) + 1);
    assert_true(tried >= 2 * d_count);
    assert_int_equal(wrong, 0);
}

/* Without the select, d = 2 - 2^-23 from y0 = 0.5 gives y = 0.5: the case
 * it is there for (so the test above can fail). */
static void test_hard_d_needs_the_select(void **state)
{
    (void)state;
    const float d = PG_SILU_D_HARD, y0 = 0.5f;
    assert_true(fabs((double)y0 - 1.0 / (double)d) <= 0x1p-24);
    assert_int_equal(pg_sf_bits(pg_sf_fma(y0, pg_sf_fma(-d, y0, 1.0f), y0)), pg_sf_bits(0.5f));
    assert_int_equal(pg_sf_bits(pg_sf_div(1.0f, d)), pg_sf_bits(PG_SILU_D_HARD_RCP));
    assert_int_equal(pg_sf_bits(pg_silu_div_from_rcp(0x1p-23f, d, y0)), pg_sf_bits(pg_sf_div(0x1p-23f, d)));
}

static void test_division_all_inputs(void **state)
{
    (void)state;
    int64_t checked = 0, wrong = 0, first = -1;
#pragma omp parallel for reduction(+ : checked, wrong) schedule(static, 1 << 20)
    for (int64_t i = 0; i < ((int64_t)1 << 32); i++) {
        float d;
        int n;
        const float num = pg_silu_division_operands(pg_sf_from_bits((uint32_t)i), &d, &n);
        const uint32_t want = pg_sf_bits(pg_sf_div(num, d));
        for (int k = -1; k <= 1; k++) {
            int ok;
            const float y0 = rcp_candidate(d, k, &ok);
            if (!ok)
                continue;
            checked++;
            if (pg_sf_bits(pg_silu_div_from_rcp(num, d, y0)) != want) {
                wrong++;
#pragma omp critical
                if (first < 0 || i < first)
                    first = i;
            }
        }
    }
    printf("division: %lld (input, y0) pairs, %lld wrong", (long long)checked, (long long)wrong);
    if (wrong)
        printf(" (first x bits 0x%08llx)", (unsigned long long)first);
    printf("\n");
    assert_true(checked >= ((int64_t)2 << 32));
    assert_int_equal(wrong, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_hard_d_needs_the_select),
                                       cmocka_unit_test(test_reciprocal_all_d),
                                       cmocka_unit_test(test_division_all_inputs)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
