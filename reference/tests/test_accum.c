/* Accumulation modes: hand-worked tensor-core block cases (expected values
 * worked out by hand from the rule in accum.c), chains over k blocks,
 * sm90-promote group boundaries, sm100, `exact` against an independent
 * 128-bit integer sum, `fp32` against a plain sequential loop. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "accum.h"
#include "formats.h"

/* E4M3 codes used below */
enum {
    ONE = 0x38,      /* 1.0 */
    NEG_ONE = 0xB8,  /* -1.0 */
    FOUR = 0x48,     /* 4.0 */
    ONE_HALF = 0x3C, /* 1.5 */
    P2_M4 = 0x18,    /* 2^-4 */
    P2_M6 = 0x08,    /* 2^-6, smallest normal */
    SUB6 = 0x06,     /* 6 * 2^-9 = 0.75 * 2^-6 (subnormal) */
    P2_M7 = 0x04,    /* 2^-7 (subnormal: significand 0.5, exponent -6) */
    P2_M9 = 0x01,    /* 2^-9, smallest subnormal */
    NEG_P2_M9 = 0x81,
    ZERO = 0x00,
    NEG_ZERO = 0x80,
};

static uint32_t bits(float x)
{
    return pg_f32_bits(x);
}

static float sm90_block(const uint8_t *a, const uint8_t *b, int n, float c)
{
    return pg_tc_block(a, b, n, c, PG_SM90_FRAC_BITS, PG_SM90_OUT_FRAC_BITS);
}

/* 1*1 + (0.75*2^-6)(2^-6): the small product is 1.5*2^-13, truncated to
 * 13 fraction bits relative to 2^0 it keeps 2^-13 only. */
static void test_alignment_truncation(void **state)
{
    (void)state;
    uint8_t a[2] = {ONE, SUB6}, b[2] = {ONE, P2_M6};
    assert_int_equal(bits(sm90_block(a, b, 2, 0.0f)), bits(1.0f + 0x1p-13f));
    assert_int_equal(bits(pg_dot(PG_ACC_SM90, a, b, 2)), bits(1.0f + 0x1p-13f));
    assert_int_equal(bits(pg_dot(PG_ACC_EXACT, a, b, 2)), bits(1.0f + 0x1.8p-13f));
}

/* C = 1024 sets emax = 10: 1*1 keeps 8 units of 2^-3 (= 1), 1.5*2^-4 is
 * below 2^-3 and vanishes. */
static void test_c_larger_than_products(void **state)
{
    (void)state;
    uint8_t a[2] = {ONE, ONE_HALF}, b[2] = {ONE, P2_M4};
    assert_int_equal(bits(sm90_block(a, b, 2, 1024.0f)), bits(1025.0f));
}

/* 4*4 sets emax = 4: C = 1 + 2^-23 keeps 512 units of 2^-9 (= 1). */
static void test_products_larger_than_c(void **state)
{
    (void)state;
    uint8_t a[1] = {FOUR}, b[1] = {FOUR};
    assert_int_equal(bits(sm90_block(a, b, 1, 0x1.000002p0f)), bits(17.0f));
}

static void test_cancellation_gives_plus_zero(void **state)
{
    (void)state;
    uint8_t a[2] = {ONE, NEG_ONE}, b[2] = {ONE, ONE};
    assert_int_equal(bits(sm90_block(a, b, 2, 0.0f)), 0u);
    assert_int_equal(bits(sm90_block(a, b, 2, -0.0f)), 0u);
    uint8_t z[1] = {NEG_ZERO}, o[1] = {ONE};
    assert_int_equal(bits(sm90_block(z, o, 1, -0.0f)), 0u);
    uint8_t n[1] = {NEG_ONE};
    assert_int_equal(bits(sm90_block(n, o, 1, 0.0f)), bits(-1.0f));
    /* C = -1 cancelled by the product: +0 too */
    assert_int_equal(bits(sm90_block(o, o, 1, -1.0f)), 0u);
}

static void test_subnormal_products(void **state)
{
    (void)state;
    uint8_t a1[1] = {P2_M9}, b1[1] = {P2_M9};
    /* (1/8 * 2^-6)^2: significand 1/64 at exponent -12, exactly 2^-18 */
    assert_int_equal(bits(sm90_block(a1, b1, 1, 0.0f)), bits(0x1p-18f));
    uint8_t a2[2] = {ONE, P2_M9}, b2[2] = {ONE, P2_M9};
    assert_int_equal(bits(sm90_block(a2, b2, 2, 0.0f)), bits(1.0f));
    /* Not renormalised: 2^-9 * 1 has significand 1/8 at exponent -6, so
     * emax = -6 although the value is 2^-9; C = 2^-9 + 2^-22 then loses
     * its 2^-22 (it keeps 13 fraction bits relative to 2^-6). */
    uint8_t a3[1] = {P2_M9}, b3[1] = {ONE};
    assert_int_equal(bits(sm90_block(a3, b3, 1, 0x1.0008p-9f)), bits(0x1p-8f));
}

static void test_all_zero_block(void **state)
{
    (void)state;
    uint8_t a[32], b[32];
    memset(a, ZERO, sizeof a);
    memset(b, ONE, sizeof b);
    assert_int_equal(bits(sm90_block(a, b, 32, 0.0f)), 0u);
    assert_int_equal(bits(sm90_block(a, b, 32, 3.0f)), bits(3.0f));
    /* C itself is truncated to 14 significant bits, toward zero */
    assert_int_equal(bits(sm90_block(a, b, 32, 0x1.00001p0f)), bits(1.0f));
    assert_int_equal(bits(sm90_block(a, b, 32, -0x1.00001p0f)), bits(-1.0f));
}

static void test_nan(void **state)
{
    (void)state;
    uint8_t a[32], b[32];
    memset(a, ONE, sizeof a);
    memset(b, ONE, sizeof b);
    a[3] = 0x7F;
    assert_int_equal(bits(sm90_block(a, b, 32, 0.0f)), PG_F32_QNAN_BITS);
    a[3] = ONE;
    b[5] = 0xFF;
    assert_int_equal(bits(sm90_block(a, b, 32, 0.0f)), PG_F32_QNAN_BITS);
    b[5] = ONE;
    assert_int_equal(bits(sm90_block(a, b, 32, NAN)), PG_F32_QNAN_BITS);
    b[31] = 0x7F;
    for (int m = 0; m < PG_ACC_COUNT; m++)
        assert_int_equal(bits(pg_dot((pg_accum_mode)m, a, b, 32)), PG_F32_QNAN_BITS);
}

/* Chain: 1*1 in block 0 and 32 products of 2^-14 in block 1: each is
 * 0.25 * 2^-12 -> trunc(0.5) = 0 relative to C = 1, so sm90 keeps 1.0;
 * in the other order block 0 sums them exactly to 2^-9 and block 1 keeps
 * it (16 units of 2^-13). */
static void test_chain_over_blocks(void **state)
{
    (void)state;
    uint8_t a[64], b[64];
    memset(a, ZERO, sizeof a);
    memset(b, ZERO, sizeof b);
    a[0] = b[0] = ONE;
    for (int k = 32; k < 64; k++)
        a[k] = b[k] = P2_M7;
    assert_int_equal(bits(pg_dot(PG_ACC_SM90, a, b, 64)), bits(1.0f));
    assert_int_equal(bits(pg_dot(PG_ACC_EXACT, a, b, 64)), bits(1.0f + 0x1p-9f));
    assert_int_equal(bits(pg_dot(PG_ACC_FP32, a, b, 64)), bits(1.0f + 0x1p-9f));
    memset(a, ZERO, sizeof a);
    memset(b, ZERO, sizeof b);
    for (int k = 0; k < 32; k++)
        a[k] = b[k] = P2_M7;
    a[32] = b[32] = ONE;
    assert_int_equal(bits(pg_dot(PG_ACC_SM90, a, b, 64)), bits(1.0f + 0x1p-9f));
    /* a partial last block (K = 40) behaves like zero padding */
    assert_int_equal(bits(pg_dot(PG_ACC_SM90, a, b, 40)), bits(1.0f + 0x1p-9f));
}

/* sm90-promote restarts at k = 128: the small products of k = 128..159
 * start their own group and survive; at k = 96..127 they are in the
 * first group and vanish as in sm90. */
static void test_promote_group_boundary(void **state)
{
    (void)state;
    uint8_t a[256], b[256];
    memset(a, ZERO, sizeof a);
    memset(b, ZERO, sizeof b);
    a[0] = b[0] = ONE;
    for (int k = 128; k < 160; k++)
        a[k] = b[k] = P2_M7;
    assert_int_equal(bits(pg_dot(PG_ACC_SM90, a, b, 256)), bits(1.0f));
    assert_int_equal(bits(pg_dot(PG_ACC_SM90_PROMOTE, a, b, 256)), bits(1.0f + 0x1p-9f));
    memset(a + 128, ZERO, 32);
    memset(b + 128, ZERO, 32);
    for (int k = 96; k < 128; k++)
        a[k] = b[k] = P2_M7;
    assert_int_equal(bits(pg_dot(PG_ACC_SM90, a, b, 256)), bits(1.0f));
    assert_int_equal(bits(pg_dot(PG_ACC_SM90_PROMOTE, a, b, 256)), bits(1.0f));
}

static void test_sm100(void **state)
{
    (void)state;
    /* 1 - 2^-18: 25 fraction bits keep the small product, 13 do not */
    uint8_t a[2] = {ONE, NEG_P2_M9}, b[2] = {ONE, P2_M9};
    assert_int_equal(bits(pg_dot(PG_ACC_SM100, a, b, 2)), bits(1.0f - 0x1p-18f));
    assert_int_equal(bits(pg_dot(PG_ACC_SM90, a, b, 2)), bits(1.0f));
    /* final truncation to fp32: (128 + 2^-16) - 2^-18 = 128 + 3 * 2^-18
     * needs 26 bits; truncated to 24 it is 128 (RNE would give 128 + 2^-16) */
    uint8_t a2[1] = {NEG_P2_M9}, b2[1] = {P2_M9};
    float r = pg_tc_block(a2, b2, 1, 0x1.000002p7f, PG_SM100_FRAC_BITS, PG_SM100_OUT_FRAC_BITS);
    assert_int_equal(bits(r), bits(128.0f));
}

/* ---- exact against a 128-bit integer sum, fp32 against a plain loop */

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint8_t random_finite_code(uint64_t *s)
{
    uint8_t c;
    do
        c = (uint8_t)splitmix(s);
    while ((c & 0x7F) == 0x7F);
    return c;
}

/* code -> value * 2^9 as an integer, from the fields by arithmetic */
static int64_t fixed_of(uint8_t c)
{
    int e = (c / 8) % 16, m = c % 8;
    int64_t mag = e == 0 ? m : (int64_t)(8 + m) * ((int64_t)1 << (e - 1));
    return c >= 128 ? -mag : mag;
}

/* S * 2^-18 rounded to fp32 by integer RNE */
static float round_fixed(__int128 S)
{
    if (S == 0)
        return 0.0f;
    int neg = S < 0;
    unsigned __int128 mag = (unsigned __int128)(neg ? -S : S);
    int top = 127;
    while (!((mag >> top) & 1))
        top--;
    int shift = top - 23 > 0 ? top - 23 : 0;
    unsigned __int128 kept = mag >> shift;
    if (shift > 0) {
        unsigned __int128 rem = mag & (((unsigned __int128)1 << shift) - 1), half = (unsigned __int128)1 << (shift - 1);
        if (rem > half || (rem == half && (kept & 1)))
            kept++;
    }
    float f = (float)ldexp((double)kept, shift - 18);
    return neg ? -f : f;
}

static void test_exact_and_fp32_against_independent(void **state)
{
    (void)state;
    static uint8_t a[5000], b[5000];
    const int64_t Ks[] = {1, 2, 31, 32, 33, 127, 768, 5000};
    uint64_t s = 99;
    for (size_t t = 0; t < sizeof Ks / sizeof Ks[0]; t++) {
        for (int rep = 0; rep < 200; rep++) {
            int64_t K = Ks[t];
            for (int64_t k = 0; k < K; k++) {
                a[k] = random_finite_code(&s);
                b[k] = random_finite_code(&s);
                if (rep % 3 == 0 && k % 2) { /* cancelling pairs: exact zeros happen */
                    a[k] = (uint8_t)(a[k - 1] ^ 0x80);
                    b[k] = b[k - 1];
                }
            }
            __int128 S = 0;
            float loop = 0.0f;
            for (int64_t k = 0; k < K; k++) {
                S += (__int128)fixed_of(a[k]) * fixed_of(b[k]);
                loop = loop + (float)ldexp((double)fixed_of(a[k]), -9) * (float)ldexp((double)fixed_of(b[k]), -9);
            }
            assert_int_equal(bits(pg_dot(PG_ACC_EXACT, a, b, K)), bits(round_fixed(S)));
            assert_int_equal(bits(pg_dot(PG_ACC_FP32, a, b, K)), bits(loop));
        }
    }
}

static void test_mode_names(void **state)
{
    (void)state;
    const char *names[] = {"exact", "fp32", "sm90", "sm90-promote", "sm100"};
    for (int m = 0; m < PG_ACC_COUNT; m++) {
        pg_accum_mode got;
        assert_string_equal(pg_accum_name((pg_accum_mode)m), names[m]);
        assert_int_equal(pg_accum_parse(names[m], &got), 0);
        assert_int_equal(got, m);
    }
    pg_accum_mode x;
    assert_int_equal(pg_accum_parse("sm91", &x), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alignment_truncation),
        cmocka_unit_test(test_c_larger_than_products),
        cmocka_unit_test(test_products_larger_than_c),
        cmocka_unit_test(test_cancellation_gives_plus_zero),
        cmocka_unit_test(test_subnormal_products),
        cmocka_unit_test(test_all_zero_block),
        cmocka_unit_test(test_nan),
        cmocka_unit_test(test_chain_over_blocks),
        cmocka_unit_test(test_promote_group_boundary),
        cmocka_unit_test(test_sm100),
        cmocka_unit_test(test_exact_and_fp32_against_independent),
        cmocka_unit_test(test_mode_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
