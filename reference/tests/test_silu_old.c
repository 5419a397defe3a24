/* The branch-free pg_silu_f32 (silu_fp32.h) gives the same bits as the
 * branching two-division formulation it replaced (silu_fp32_old.h), on the
 * host, for all 2^32 fp32 inputs: the restructuring of docs/experiments.md
 * D3 changed no bit of the reference.  Suite 'slow'. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "silu_fp32_old.h"

static void test_all_inputs_same_bits(void **state)
{
    (void)state;
    int64_t checked = 0, differ = 0;
    int64_t first = -1;
#pragma omp parallel for reduction(+ : checked, differ) schedule(static, 1 << 20)
    for (int64_t i = 0; i < ((int64_t)1 << 32); i++) {
        const float x = pg_sf_from_bits((uint32_t)i);
        const uint32_t now = pg_sf_bits(pg_silu_f32(x)), old = pg_sf_bits(pg_silu_f32_old(x));
        checked++;
        if (now != old) {
            differ++;
#pragma omp critical
            if (first < 0 || i < first)
                first = i;
        }
    }
    printf("silu branch-free vs old: %lld inputs, %lld differ", (long long)checked, (long long)differ);
    if (differ)
        printf(" (first x bits 0x%08llx)", (unsigned long long)first);
    printf("\n");
    assert_int_equal(checked, (int64_t)1 << 32);
    assert_int_equal(differ, 0);
}

/* The cases the selects must keep apart, one by one (the exhaustive test
 * counts them among 2^32; these name them). */
static void test_special_inputs(void **state)
{
    (void)state;
    const uint32_t xs[] = {0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x007FFFFFu, 0x807FFFFFu,
                           0x42DC0000u, 0xC2DC0000u, 0x42DC0001u, 0xC2DC0001u, 0x7F800000u, 0xFF800000u,
                           0x7FC00000u, 0xFFC00001u, 0x7F800001u, 0x3F800000u, 0xBF800000u, 0x7F7FFFFFu};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        const float x = pg_sf_from_bits(xs[i]);
        assert_int_equal(pg_sf_bits(pg_silu_f32(x)), pg_sf_bits(pg_silu_f32_old(x)));
    }
    assert_int_equal(pg_sf_bits(pg_silu_f32(pg_sf_from_bits(0x80000000u))), 0x80000000u);
    assert_int_equal(pg_sf_bits(pg_silu_f32(pg_sf_from_bits(0xC2DC0001u))), 0x80000000u);
    assert_int_equal(pg_sf_bits(pg_silu_f32(pg_sf_from_bits(0x42DC0001u))), 0x42DC0001u);
    assert_int_equal(pg_sf_bits(pg_silu_f32(pg_sf_from_bits(0xFFC00001u))), 0x7FFFFFFFu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_special_inputs),
                                       cmocka_unit_test(test_all_inputs_same_bits)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
