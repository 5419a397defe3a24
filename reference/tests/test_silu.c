/* silu_fp32.h: hand values, pinned bits, monotonic sanity, sampled accuracy
 * against double, and the same bits whether the caller's translation unit
 * is compiled with -ffp-contract=off or -ffp-contract=fast -mfma (the two
 * copies of silu_fill.c).  The exhaustive accuracy run is test_silu_all.c. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "silu_ulp.h"

void silu_fill_contract_off(const float *in, float *out, int64_t n);
void silu_fill_contract_fast(const float *in, float *out, int64_t n);

/* The accuracy bounds measured over all 2^32 inputs (test_silu_all.c). */
#define SILU_MAX_ULP 3.35
#define EXP_MAX_ULP 1.02

static uint32_t silu_bits(float x)
{
    float y = pg_silu_f32(x);
    uint32_t u;
    memcpy(&u, &y, sizeof u);
    return u;
}

static void test_specials(void **state)
{
    (void)state;
    assert_int_equal(silu_bits(0.0f), 0x00000000u);
    assert_int_equal(silu_bits(-0.0f), 0x80000000u);
    assert_int_equal(silu_bits(INFINITY), 0x7F800000u);
    assert_int_equal(silu_bits(-INFINITY), 0x80000000u);
    assert_int_equal(silu_bits(NAN), 0x7FFFFFFFu);
    assert_int_equal(silu_bits(-NAN), 0x7FFFFFFFu);
    assert_int_equal(silu_bits(f32_of(0x7F800001u)), 0x7FFFFFFFu); /* signalling NaN */
    assert_int_equal(silu_bits(f32_of(0xFFC01234u)), 0x7FFFFFFFu);
    /* largest finite: silu(x) = x; beyond 110 the shortcut, below it the sequence */
    assert_int_equal(silu_bits(0x1.fffffep127f), 0x7F7FFFFFu);
    assert_int_equal(silu_bits(-0x1.fffffep127f), 0x80000000u);
    assert_int_equal(silu_bits(20.0f), 0x41A00000u);
    assert_int_equal(silu_bits(110.0f), 0x42DC0000u);
    assert_int_equal(silu_bits(-110.0f), 0x80000000u); /* |silu| < 2^-151 */
    assert_int_equal(silu_bits(-111.0f), 0x80000000u);
}

static void test_tiny_and_subnormal_results(void **state)
{
    (void)state;
    /* silu(x) ~ x / 2 for tiny x: x / 2 rounded once, ties to even */
    assert_int_equal(silu_bits(0x1p-149f), 0x00000000u);
    assert_int_equal(silu_bits(-0x1p-149f), 0x80000000u);
    assert_int_equal(silu_bits(0x3p-149f), 0x00000002u);
    assert_int_equal(silu_bits(0x1p-126f), 0x00400000u);
    assert_int_equal(silu_bits(-0x1p-120f), 0x83000000u); /* -2^-121 */
    /* x < -88.7: exp(-x) would overflow fp32, silu is still a normal or
     * subnormal number; each within half an ulp of the double here */
    const float xs[] = {-88.8f, -95.0f, -100.0f, -105.0f, -108.0f, -109.5f};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        float y = pg_silu_f32(xs[i]);
        assert_true(signbit(y));
        assert_true(f32_ulp_error(y, silu_double(xs[i])) <= 0.5);
    }
    assert_int_equal(silu_bits(-88.8f), 0x82A4693Du);
    assert_int_equal(silu_bits(-100.0f), 0x80000A5Fu);
    assert_int_equal(silu_bits(-108.0f), 0x80000001u);
}

/* The bits of a few ordinary values, pinned: a change to the sequence
 * shows here first (the kernel must give these). */
static void test_pinned_bits(void **state)
{
    (void)state;
    assert_int_equal(silu_bits(1.0f), 0x3F3B26A8u);
    assert_int_equal(silu_bits(-1.0f), 0xBE89B2B1u);
    assert_int_equal(silu_bits(0.5f), 0x3E9F597Fu);
    assert_int_equal(silu_bits(3.0f), 0x4036E4EDu);
    assert_int_equal(silu_bits(-3.0f), 0xBE11B139u);
    assert_int_equal(silu_bits(-1.2784645f), 0xBE8E92E7u);
}

/* Non-decreasing for x >= 0 (every pattern up to 110 in the slow test;
 * here every 61st); on x < 0 the ulp-level wiggle of a 3.35-ulp function
 * is allowed, so only the shape on a 1/1024 grid: falling to the minimum
 * near -1.2785, rising towards -0 on both sides of it. */
static void test_monotonic(void **state)
{
    (void)state;
    float prev = 0.0f;
    for (uint32_t u = 61; u <= 0x42DC0000u; u += 61) {
        float y = pg_silu_f32(f32_of(u));
        assert_true(y >= prev);
        prev = y;
    }
    prev = pg_silu_f32(-1.2784645f);
    for (int i = 1; i <= 1024 * 40; i++) { /* from the minimum towards -41.3 */
        float y = pg_silu_f32(-1.2784645f - (float)i / 1024.0f);
        assert_true(y > prev);
        prev = y;
    }
    prev = pg_silu_f32(-1.2784645f);
    for (int i = 1; i < 1309; i++) { /* from the minimum towards 0 */
        float y = pg_silu_f32(-1.2784645f + (float)i / 1024.0f);
        assert_true(y > prev);
        prev = y;
    }
}

static void test_sampled_accuracy(void **state)
{
    (void)state;
    silu_accuracy a = silu_measure(0, UINT32_MAX, 257);
    assert_true(a.checked > 16000000);
    assert_int_equal(a.nan_wrong, 0);
    assert_true(a.silu_max <= SILU_MAX_ULP);
    assert_true(a.exp_max <= EXP_MAX_ULP);
    /* dense around the minimum and 0, where SwiGLU inputs live */
    a = silu_measure(0xBF800000u, 0xC0400000u, 1); /* [-3, -1] */
    assert_true(a.silu_max <= SILU_MAX_ULP);
}

static void test_contraction_flags_do_not_matter(void **state)
{
    (void)state;
    enum { N = 1 << 22 };
    float *in = malloc(N * sizeof *in), *off = malloc(N * sizeof *off), *fast = malloc(N * sizeof *fast);
    assert_non_null(in);
    assert_non_null(off);
    assert_non_null(fast);
    for (uint32_t i = 0; i < N / 2; i++) /* spread over all patterns */
        in[i] = f32_of(i * 2039u * 1024u + i);
    for (uint32_t i = N / 2; i < N; i++) /* dense in [-8, 8] */
        in[i] = -8.0f + 16.0f * (float)(i - N / 2) / (float)(N / 2);
    silu_fill_contract_off(in, off, N);
    silu_fill_contract_fast(in, fast, N);
    for (int64_t i = 0; i < N; i++) {
        assert_memory_equal(&off[i], &fast[i], sizeof off[i]);
        uint32_t want = silu_bits(in[i]);
        assert_memory_equal(&off[i], &want, sizeof want);
    }
    free(in);
    free(off);
    free(fast);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_specials),          cmocka_unit_test(test_tiny_and_subnormal_results),
        cmocka_unit_test(test_pinned_bits),       cmocka_unit_test(test_monotonic),
        cmocka_unit_test(test_sampled_accuracy),  cmocka_unit_test(test_contraction_flags_do_not_matter),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
