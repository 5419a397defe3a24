/* E5M2 decode (every code against an independent formula) and fp32 ->
 * fp16 RNE (against the nearest of all 63488 finite fp16 values, found by
 * bisection, ties to the even code). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "formats.h"
#include "rng.h"

static void test_e5m2_all_codes(void **state)
{
    (void)state;
    for (int c = 0; c < 256; c++) {
        int s = c >> 7, e = (c >> 2) & 31, m = c & 3;
        float got = pg_e5m2_to_f32((uint8_t)c);
        if (e == 31) {
            assert_int_equal(pg_e5m2_is_inf((uint8_t)c), m == 0);
            assert_int_equal(pg_e5m2_is_nan((uint8_t)c), m != 0);
            if (m == 0)
                assert_true(isinf(got) && (signbit(got) != 0) == s);
            else
                assert_true(isnan(got));
            continue;
        }
        assert_false(pg_e5m2_is_nan((uint8_t)c) || pg_e5m2_is_inf((uint8_t)c));
        double want = e == 0 ? ldexp(m / 4.0, -14) : ldexp(1.0 + m / 4.0, e - 15);
        if (s)
            want = -want;
        assert_true((double)got == want);
        assert_int_equal(signbit(got) != 0, s);
        assert_true(pg_fp8f_to_f32(PG_FMT_E5M2, (uint8_t)c) == got || isnan(got));
        /* integer multiple of 2^-16 */
        assert_true(fabs(ldexp(want, 16) - nearbyint(ldexp(want, 16))) == 0.0);
    }
    assert_true(pg_e5m2_to_f32(0x7B) == PG_E5M2_MAX);
}

static float fp16_value(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 0x3FF;
    double v = e == 0 ? ldexp(m, -24) : ldexp(1024 + m, e - 25);
    return (float)((h & 0x8000) ? -v : v);
}

static uint16_t fp16_nearest(float x)
{
    if (isnan(x))
        return PG_FP16_QNAN;
    uint16_t sign = signbit(x) ? 0x8000 : 0;
    double a = fabs((double)x);
    if (a >= 65520.0) /* 65504 + half an ulp (32 / 2 * 2) rounds to inf */
        return sign | 0x7C00;
    uint16_t lo = 0, hi = 0x7BFF; /* largest code with value <= a */
    while (lo < hi) {
        uint16_t mid = (uint16_t)((lo + hi + 1) / 2);
        if ((double)fp16_value(mid) <= a)
            lo = mid;
        else
            hi = (uint16_t)(mid - 1);
    }
    if (lo == 0x7BFF)
        return sign | lo;
    double d_lo = a - fp16_value(lo), d_hi = fp16_value((uint16_t)(lo + 1)) - a;
    uint16_t pick = d_lo < d_hi ? lo : d_hi < d_lo ? (uint16_t)(lo + 1) : ((lo & 1) ? (uint16_t)(lo + 1) : lo);
    return sign | pick;
}

static void check(float x)
{
    uint16_t want = fp16_nearest(x), got = pg_fp16_from_f32(x);
    if (want != got)
        print_error("fp16(%a) = %04x, want %04x\n", (double)x, got, want);
    assert_int_equal(got, want);
}

static void test_fp16_conversion(void **state)
{
    (void)state;
    /* every fp16 value, the midpoints between neighbours and their float neighbours */
    for (uint32_t h = 0; h < 0x7C00; h++) {
        float v = fp16_value((uint16_t)h);
        check(v);
        check(-v);
        assert_true(pg_fp16_to_f32((uint16_t)h) == v);
        float mid = (float)(((double)v + (double)fp16_value((uint16_t)(h + 1))) / 2.0);
        check(mid);
        check(-mid);
        check(nextafterf(mid, 0.0f));
        check(nextafterf(mid, INFINITY));
    }
    for (uint64_t i = 0; i < 1000000; i++) /* random bit patterns, weighted to the fp16 range */
        check(pg_f32_from_bits(((uint32_t)pg_rng_u64(7, 1, i) & 0x87FFFFFFu) | 0x30000000u));
    check(INFINITY);
    check(-INFINITY);
    check(0x1p-25f);  /* tie between 0 and the smallest subnormal: even 0 */
    check(0x1.8p-25f);
    check(65519.0f);
    check(65520.0f);
    assert_int_equal(pg_fp16_from_f32(NAN), PG_FP16_QNAN);
    assert_true(isinf(pg_fp16_to_f32(0x7C00)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_e5m2_all_codes),
        cmocka_unit_test(test_fp16_conversion),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
