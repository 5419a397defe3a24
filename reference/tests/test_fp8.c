/* FP8 E4M3 decode (all 256 codes) and encode (RNE, saturation, NaN). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "formats.h"

/* Independent decode: fields by division and remainder, value by ldexp. */
static double expected_value(int code)
{
    int sign = code / 128, efield = (code % 128) / 8, mant = code % 8;
    double mag = efield == 0 ? ldexp(mant / 8.0, -6) : ldexp(1.0 + mant / 8.0, efield - 7);
    return sign ? -mag : mag;
}

static void test_decode_all_codes(void **state)
{
    (void)state;
    for (int c = 0; c < 256; c++) {
        float v = pg_fp8_to_f32((uint8_t)c);
        if (c == 0x7F || c == 0xFF) {
            assert_true(isnan(v));
            assert_true(pg_fp8_is_nan((uint8_t)c));
            assert_int_equal(pg_fp8_to_fixed((uint8_t)c), 0);
            continue;
        }
        assert_false(pg_fp8_is_nan((uint8_t)c));
        double want = expected_value(c);
        assert_true((double)v == want);
        assert_int_equal(signbit(v) != 0, c >= 128);
        assert_true((double)pg_fp8_to_fixed((uint8_t)c) == want * 512.0);
    }
}

/* Values stated outright (OCP OFP8 spec, E4M3 table). */
static void test_decode_stated_values(void **state)
{
    (void)state;
    struct {
        uint8_t code;
        double value;
    } k[] = {
        {0x00, 0.0},      {0x01, 0.001953125}, {0x07, 0.013671875}, {0x08, 0.015625}, {0x38, 1.0},
        {0x3C, 1.5},      {0x40, 2.0},         {0x77, 240.0},       {0x7E, 448.0},    {0x80, -0.0},
        {0xB8, -1.0},     {0xFE, -448.0},      {0x30, 0.5},         {0x0F, 0.029296875},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        assert_true((double)pg_fp8_to_f32(k[i].code) == k[i].value);
    assert_true(signbit(pg_fp8_to_f32(0x80)));
}

static void test_encode_round_trip(void **state)
{
    (void)state;
    for (int c = 0; c < 256; c++) {
        if (c == 0x7F || c == 0xFF)
            continue;
        assert_int_equal(pg_fp8_from_f32(pg_fp8_to_f32((uint8_t)c)), c);
    }
}

/* Between two neighbouring codes: below the midpoint -> lower, above ->
 * upper, at the midpoint -> the even code (mantissa bit 0 clear). */
static void test_encode_rne_midpoints(void **state)
{
    (void)state;
    for (int c = 0; c < 0x7E; c++) {
        for (int s = 0; s < 2; s++) {
            uint8_t lo = (uint8_t)(c | (s << 7)), hi = (uint8_t)((c + 1) | (s << 7));
            double a = fabs(expected_value(lo)), b = fabs(expected_value(hi));
            double mid = (a + b) / 2, sign = s ? -1.0 : 1.0;
            uint8_t even = (c % 2 == 0) ? lo : hi;
            assert_int_equal(pg_fp8_from_f32((float)(sign * mid)), even);
            assert_int_equal(pg_fp8_from_f32((float)(sign * (mid - (b - a) / 64))), lo);
            assert_int_equal(pg_fp8_from_f32((float)(sign * (mid + (b - a) / 64))), hi);
        }
    }
}

static void test_encode_saturation_and_nan(void **state)
{
    (void)state;
    float big[] = {448.0f, 448.5f, 463.9f, 464.0f, 480.0f, 1e30f, INFINITY};
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        assert_int_equal(pg_fp8_from_f32(big[i]), 0x7E);
        assert_int_equal(pg_fp8_from_f32(-big[i]), 0xFE);
    }
    assert_int_equal(pg_fp8_from_f32(NAN), 0x7F);
    assert_int_equal(pg_fp8_from_f32(-NAN), 0xFF);
    assert_int_equal(pg_fp8_from_f32(0.0f), 0x00);
    assert_int_equal(pg_fp8_from_f32(-0.0f), 0x80);
    /* half the smallest subnormal ties to even (zero); just above rounds up */
    assert_int_equal(pg_fp8_from_f32(0x1p-10f), 0x00);
    assert_int_equal(pg_fp8_from_f32(0x1.01p-10f), 0x01);
    assert_int_equal(pg_fp8_from_f32(-0x1p-11f), 0x80);
    /* 1.5 * 2^-9 lies halfway between 2^-9 (0x01) and 2^-8 (0x02) */
    assert_int_equal(pg_fp8_from_f32(0x1.8p-9f), 0x02); /* 1.5 units: tie -> 2 (even) */
    assert_int_equal(pg_fp8_from_f32(0x1.4p-9f), 0x01);
}

/* Independent encoder: double arithmetic, rint() (round half to even in the
 * default mode) on the grid spacing of the value's binade. */
static uint8_t encode_by_rint(float x)
{
    uint8_t sign = signbit(x) ? 0x80 : 0;
    if (isnan(x))
        return (uint8_t)(0x7F | sign);
    double a = fabs((double)x);
    if (a >= 448.0)
        return (uint8_t)(0x7E | sign);
    int e;
    frexp(a, &e);
    int binade = (a == 0.0 || e - 1 < -6) ? -6 : e - 1;
    double units = rint(a / ldexp(1.0, binade - 3));
    if (units >= 16.0) {
        units /= 2.0;
        binade++;
    }
    if (units < 8.0)
        return (uint8_t)(sign | (int)units);
    return (uint8_t)(sign | ((binade + 7) << 3) | ((int)units - 8));
}

static void test_encode_against_rint(void **state)
{
    (void)state;
    /* every float in [2^-12, 512) with the low 8 mantissa bits fixed to a
     * few patterns (both signs), plus random patterns */
    long bad = 0;
    for (uint32_t e = 115; e < 136; e++)
        for (uint32_t hi = 0; hi < (1u << 15); hi++)
            for (uint32_t lo = 0; lo < 4; lo++) {
                static const uint32_t low[4] = {0x00, 0x01, 0x80, 0xFF};
                uint32_t u = (e << 23) | (hi << 8) | low[lo] | ((hi & 1u) << 31);
                float x = pg_f32_from_bits(u);
                bad += pg_fp8_from_f32(x) != encode_by_rint(x);
            }
    uint64_t s = 5;
    for (int i = 0; i < 2000000; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        float x = pg_f32_from_bits((uint32_t)(s >> 32));
        bad += pg_fp8_from_f32(x) != encode_by_rint(x);
    }
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode_all_codes),    cmocka_unit_test(test_decode_stated_values),
        cmocka_unit_test(test_encode_round_trip),   cmocka_unit_test(test_encode_rne_midpoints),
        cmocka_unit_test(test_encode_saturation_and_nan), cmocka_unit_test(test_encode_against_rint),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
