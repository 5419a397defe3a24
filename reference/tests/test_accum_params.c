/* Accumulation as data: every preset reproduces its named mode (pg_dot) on
 * random inputs; hand-worked E5M2, mixed-format, rounding and C-entry
 * cases; the special-value rule; parameter checks. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "accum_params.h"
#include "formats.h"
#include "rng.h"

static uint32_t bits(float x)
{
    return pg_f32_bits(x);
}

/* Random E4M3 codes of one flavour: 0 any finite code, 1 small exponents
 * (|x| around 1), 2 subnormal-heavy, 3 the second half cancels the first. */
static void fill(uint8_t *row, int64_t K, int flavour, uint64_t seed, uint64_t id)
{
    for (int64_t k = 0; k < K; k++) {
        uint64_t r = pg_rng_u64(seed, id, (uint64_t)k);
        uint8_t sign = (uint8_t)(r & 0x80);
        uint8_t mag;
        switch (flavour) {
        case 0: mag = (uint8_t)((r >> 8) % 0x7F); break;            /* 0x00..0x7E */
        case 1: mag = (uint8_t)(0x28 + (r >> 8) % 0x20); break;     /* 2^-2 .. < 2^2 */
        case 2: mag = (uint8_t)((r >> 8) % 0x18); break;            /* exponent field 0..2 */
        default: mag = (uint8_t)(0x20 + (r >> 8) % 0x30); break;
        }
        row[k] = (uint8_t)(sign | mag);
    }
    if (flavour == 3)
        for (int64_t k = K / 2; k < K; k++)
            row[k] = (uint8_t)(row[k - K / 2] ^ (id & 1 ? 0x80 : 0x00));
}

static void test_presets_match_named_modes(void **state)
{
    (void)state;
    static const int64_t ks[] = {1, 31, 32, 33, 127, 128, 129, 400, 768};
    uint8_t a[768], b[768];
    long checked = 0;
    for (int m = 0; m < PG_ACC_COUNT; m++) {
        const pg_accum_params *p = pg_accum_preset((pg_accum_mode)m);
        assert_non_null(p);
        assert_int_equal(pg_accum_params_check(p), 0);
        for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++)
            for (int fl = 0; fl < 4; fl++)
                for (uint64_t s = 0; s < 40; s++) {
                    int64_t K = ks[ki];
                    fill(a, K, fl, s, 2 * s);
                    fill(b, K, fl, s, 2 * s + 1);
                    float want = pg_dot((pg_accum_mode)m, a, b, K);
                    float got = pg_dot_params(p, PG_FMT_E4M3, PG_FMT_E4M3, a, b, K);
                    if (bits(want) != bits(got))
                        print_error("%s K=%lld flavour %d seed %llu: %08x want %08x\n", p->name, (long long)K, fl,
                                    (unsigned long long)s, bits(got), bits(want));
                    assert_int_equal(bits(got), bits(want));
                    checked++;
                }
    }
    assert_int_equal(checked, PG_ACC_COUNT * 9 * 4 * 40);
}

/* Preset blocks equal pg_tc_block on random C too (the C-inside path). */
static void test_block_with_random_c(void **state)
{
    (void)state;
    const pg_accum_params *p90 = pg_accum_preset(PG_ACC_SM90), *p100 = pg_accum_preset(PG_ACC_SM100);
    uint8_t a[32], b[32];
    for (uint64_t s = 0; s < 2000; s++) {
        fill(a, 32, (int)(s % 3), s, 100);
        fill(b, 32, (int)(s % 3), s, 101);
        uint64_t r = pg_rng_u64(s, 102, 0);
        float c = pg_f32_from_bits((uint32_t)(r & 0x8FFFFFFFu) | 0x30000000u); /* |C| 2^-31 .. 2^32 */
        assert_int_equal(bits(pg_tc_chain_params(p90, PG_FMT_E4M3, PG_FMT_E4M3, a, b, 32, c, 0)),
                         bits(pg_tc_block(a, b, 32, c, PG_SM90_FRAC_BITS, PG_SM90_OUT_FRAC_BITS)));
        assert_int_equal(bits(pg_tc_chain_params(p100, PG_FMT_E4M3, PG_FMT_E4M3, a, b, 32, c, 0)),
                         bits(pg_tc_block(a, b, 32, c, PG_SM100_FRAC_BITS, PG_SM100_OUT_FRAC_BITS)));
    }
}

/* E5M2 subnormals: 2^-16 * 2^-16 = 2^-32 exactly in every mode (significand
 * 1/16 at exponent -28 in the tensor-core rule). */
static void test_e5m2_smallest_product(void **state)
{
    (void)state;
    uint8_t a[1] = {0x01}, b[1] = {0x01};
    for (int m = 0; m < PG_ACC_COUNT; m++)
        assert_int_equal(bits(pg_dot_params(pg_accum_preset((pg_accum_mode)m), PG_FMT_E5M2, PG_FMT_E5M2, a, b, 1)),
                         bits(0x1p-32f));
    /* E5M2 2^-16 (0x01) x E4M3 2^-9 (0x01) = 2^-25 */
    assert_int_equal(bits(pg_dot_params(pg_accum_preset(PG_ACC_SM90), PG_FMT_E5M2, PG_FMT_E4M3, a, b, 1)),
                     bits(0x1p-25f));
}

/* Mixed: 57344 (E5M2 0x7B) * 1 + 1.5 (E5M2 0x3E) * 2^-6 (E4M3 0x08):
 * emax = 15, so F = 13 keeps multiples of 4 and the small product vanishes
 * in sm90; exact and fp32 keep it (6 * 2^-8, and ulp(2^15) = 2^-8). */
static void test_mixed_alignment(void **state)
{
    (void)state;
    uint8_t a[2] = {0x7B, 0x3E}, b[2] = {0x38, 0x08};
    assert_int_equal(bits(pg_dot_params(pg_accum_preset(PG_ACC_SM90), PG_FMT_E5M2, PG_FMT_E4M3, a, b, 2)),
                     bits(57344.0f));
    assert_int_equal(bits(pg_dot_params(pg_accum_preset(PG_ACC_EXACT), PG_FMT_E5M2, PG_FMT_E4M3, a, b, 2)),
                     bits(57344.0f + 0x1.8p-6f));
    assert_int_equal(bits(pg_dot_params(pg_accum_preset(PG_ACC_FP32), PG_FMT_E5M2, PG_FMT_E4M3, a, b, 2)),
                     bits(57344.0f + 0x1.8p-6f));
}

/* RNE alignment: 1*1 + (0.75*2^-6)(2^-6) = 1 + 1.5*2^-13: truncation keeps
 * 1 + 2^-13, RNE keeps 1 + 2^-12.  C after the block: 1024 + (1 + 1.5*2^-4)
 * is exact in fp32, while C inside truncates the small product away. */
static void test_rounding_and_c_entry(void **state)
{
    (void)state;
    pg_accum_params p = *pg_accum_preset(PG_ACC_SM90);
    uint8_t a[2] = {0x38, 0x06}, b[2] = {0x38, 0x08};
    assert_int_equal(bits(pg_tc_chain_params(&p, PG_FMT_E4M3, PG_FMT_E4M3, a, b, 2, 0.0f, 0)), bits(1.0f + 0x1p-13f));
    p.align_round = PG_RND_RNE;
    assert_int_equal(bits(pg_tc_chain_params(&p, PG_FMT_E4M3, PG_FMT_E4M3, a, b, 2, 0.0f, 0)), bits(1.0f + 0x1p-12f));
    p = *pg_accum_preset(PG_ACC_SM90);
    uint8_t a2[2] = {0x38, 0x3C}, b2[2] = {0x38, 0x18};
    assert_int_equal(bits(pg_tc_chain_params(&p, PG_FMT_E4M3, PG_FMT_E4M3, a2, b2, 2, 1024.0f, 0)), bits(1025.0f));
    p.c_entry = PG_C_AFTER;
    assert_int_equal(bits(pg_tc_chain_params(&p, PG_FMT_E4M3, PG_FMT_E4M3, a2, b2, 2, 1024.0f, 0)),
                     bits(1025.09375f));
    /* MX scale exponent: the same block scaled by 2^-3 */
    p = *pg_accum_preset(PG_ACC_SM90);
    assert_int_equal(bits(pg_tc_chain_params(&p, PG_FMT_E4M3, PG_FMT_E4M3, a, b, 2, 0.0f, -3)),
                     bits((1.0f + 0x1p-13f) * 0x1p-3f));
}

static void test_specials(void **state)
{
    (void)state;
    const pg_accum_params *p = pg_accum_preset(PG_ACC_SM90);
    uint8_t one = 0x3C, inf = 0x7C, ninf = 0xFC, zero = 0x00, nan = 0x7E;
    uint8_t a[2], b[2] = {0x38, 0x38}; /* B is E4M3 1.0 */
    a[0] = inf, a[1] = one;
    assert_int_equal(bits(pg_dot_params(p, PG_FMT_E5M2, PG_FMT_E4M3, a, b, 2)), bits(INFINITY));
    a[0] = ninf;
    assert_int_equal(bits(pg_dot_params(p, PG_FMT_E5M2, PG_FMT_E4M3, a, b, 2)), bits(-INFINITY));
    a[1] = inf;
    assert_int_equal(bits(pg_dot_params(p, PG_FMT_E5M2, PG_FMT_E4M3, a, b, 2)), PG_F32_QNAN_BITS);
    uint8_t bz[2] = {0x00, 0x38};
    a[0] = inf, a[1] = one;
    assert_int_equal(bits(pg_dot_params(p, PG_FMT_E5M2, PG_FMT_E4M3, a, bz, 2)), PG_F32_QNAN_BITS);
    a[0] = nan, a[1] = zero;
    assert_int_equal(bits(pg_dot_params(p, PG_FMT_E5M2, PG_FMT_E4M3, a, b, 2)), PG_F32_QNAN_BITS);
    /* 0x7C is a finite E4M3 value (384), not an infinity */
    a[0] = 0x7C, a[1] = zero;
    assert_int_equal(bits(pg_dot_params(p, PG_FMT_E4M3, PG_FMT_E4M3, a, b, 2)), bits(384.0f));
}

static void test_params_check(void **state)
{
    (void)state;
    pg_accum_params p = *pg_accum_preset(PG_ACC_SM90_PROMOTE);
    p.promote_k = 100;
    assert_int_equal(pg_accum_params_check(&p), -1);
    p = *pg_accum_preset(PG_ACC_SM90);
    p.block_k = 0;
    assert_int_equal(pg_accum_params_check(&p), -1);
    p = *pg_accum_preset(PG_ACC_SM90);
    p.out_frac_bits = 24;
    assert_int_equal(pg_accum_params_check(&p), -1);
    assert_int_equal(pg_accum_params_check(NULL), -1);
    assert_null(pg_accum_preset(PG_ACC_COUNT));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_presets_match_named_modes),
        cmocka_unit_test(test_block_with_random_c),
        cmocka_unit_test(test_e5m2_smallest_product),
        cmocka_unit_test(test_mixed_alignment),
        cmocka_unit_test(test_rounding_and_c_entry),
        cmocka_unit_test(test_specials),
        cmocka_unit_test(test_params_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
