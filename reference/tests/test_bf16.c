/* BF16: add (one RNE rounding of the exact sum) over all pairs of a
 * structured sample, the single-rounding epilogue, the double-rounding
 * epilogue, the row epilogue, ULP distance.  The expected results come from
 * an independent integer method: operands as (sign, integer significand,
 * exponent), the exact sum in __int128, rounding by remainder comparison. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "formats.h"

typedef struct {
    int neg;
    uint32_t sig; /* integer significand */
    int exp;      /* value = sig * 2^exp */
} num;

/* fp32 bits -> num (finite only). */
static num from_f32_bits(uint32_t u)
{
    num n;
    n.neg = (int)(u >> 31);
    int e = (int)((u >> 23) & 0xFF);
    uint32_t f = u & 0x7FFFFF;
    if (e == 0) {
        n.sig = f;
        n.exp = -149;
    } else {
        n.sig = f | 0x800000;
        n.exp = e - 150;
    }
    return n;
}

/* Round the exact value v = S * 2^e0 (S signed __int128, S != 0) to BF16. */
static uint16_t round_to_bf16(__int128 S, int e0)
{
    int neg = S < 0;
    unsigned __int128 mag = (unsigned __int128)(neg ? -S : S);
    int top = 127;
    while (!((mag >> top) & 1))
        top--;
    int p = top + e0;                    /* value in [2^p, 2^(p+1)) */
    int q = (p - 7 > -133) ? p - 7 : -133; /* quantum exponent of BF16 there */
    int shift = q - e0;
    unsigned __int128 kept;
    if (shift <= 0) {
        kept = mag << -shift; /* exact */
    } else {
        unsigned __int128 rem = mag & (((unsigned __int128)1 << shift) - 1);
        unsigned __int128 half = (unsigned __int128)1 << (shift - 1);
        kept = mag >> shift;
        if (rem > half || (rem == half && (kept & 1)))
            kept++;
    }
    /* value = kept * 2^q; kept <= 2^8 */
    double v = ldexp((double)kept, q);
    uint16_t sign = neg ? 0x8000 : 0;
    if (v >= 0x1p128)
        return sign | 0x7F80;
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return (uint16_t)(sign | (u >> 16));
}

static int is_nan32(uint32_t u)
{
    return (u & 0x7FFFFFFF) > 0x7F800000;
}

static int is_inf32(uint32_t u)
{
    return (u & 0x7FFFFFFF) == 0x7F800000;
}

/* The reference: bf16_rn(x + y) for fp32 bit patterns x, y. */
static uint16_t expected_sum(uint32_t x, uint32_t y)
{
    if (is_nan32(x) || is_nan32(y))
        return PG_BF16_QNAN;
    if (is_inf32(x) || is_inf32(y)) {
        if (is_inf32(x) && is_inf32(y) && (x >> 31) != (y >> 31))
            return PG_BF16_QNAN;
        uint32_t inf = is_inf32(x) ? x : y;
        return (uint16_t)(inf >> 16);
    }
    num a = from_f32_bits(x), b = from_f32_bits(y);
    if (a.sig == 0 && b.sig == 0)
        return (a.neg && b.neg) ? 0x8000 : 0x0000;
    if (a.sig == 0)
        a = b, b = (num){0, 0, b.exp};
    if (b.sig == 0)
        return round_to_bf16(a.neg ? -(__int128)a.sig : (__int128)a.sig, a.exp);
    /* Order by exponent of the leading bit; a far smaller operand only
     * matters as a sticky bit: replace it by +-2^(top - 60). */
    int ta = 31 - __builtin_clz(a.sig) + a.exp, tb = 31 - __builtin_clz(b.sig) + b.exp;
    if (ta < tb) {
        num t = a;
        a = b, b = t;
        int tt = ta;
        ta = tb, tb = tt;
    }
    if (ta - tb > 40)
        b = (num){b.neg, 1, ta - 60};
    int e0 = a.exp < b.exp ? a.exp : b.exp;
    __int128 A = (__int128)a.sig << (a.exp - e0), B = (__int128)b.sig << (b.exp - e0);
    __int128 S = (a.neg ? -A : A) + (b.neg ? -B : B);
    if (S == 0)
        return 0x0000; /* exact cancellation of non-zero operands: +0 */
    return round_to_bf16(S, e0);
}

/* Structured BF16 sample: every exponent field with several mantissas,
 * both signs, plus zeros, infinities and NaNs. */
static int make_sample(uint16_t *out, int cap)
{
    static const uint16_t mants[] = {0x00, 0x01, 0x02, 0x3F, 0x40, 0x41, 0x55, 0x7E, 0x7F};
    int n = 0;
    for (int e = 0; e < 255; e++)
        for (size_t m = 0; m < sizeof mants / sizeof mants[0]; m++)
            for (int s = 0; s < 2 && n < cap; s++)
                out[n++] = (uint16_t)((s << 15) | (e << 7) | mants[m]);
    uint16_t specials[] = {0x7F80, 0xFF80, 0x7FC0, 0xFFC1, 0x7F81};
    for (size_t i = 0; i < sizeof specials / sizeof specials[0] && n < cap; i++)
        out[n++] = specials[i];
    return n;
}

static void test_bf16_add_all_pairs(void **state)
{
    (void)state;
    static uint16_t s[8192];
    int n = make_sample(s, 8192);
    long bad = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            uint16_t got = pg_bf16_add(s[i], s[j]);
            uint16_t want = expected_sum((uint32_t)s[i] << 16, (uint32_t)s[j] << 16);
            if (got != want && bad++ < 5)
                print_error("add %04x + %04x: got %04x want %04x\n", s[i], s[j], got, want);
        }
    assert_int_equal(bad, 0);
}

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Single rounding bf16_rn(acc + c): accumulators with full 24-bit
 * significands (random, and ones on and next to BF16 ties), every BF16
 * sample value as c. */
static void test_bf16_add_f32_single_rounding(void **state)
{
    (void)state;
    static uint16_t s[8192];
    int n = make_sample(s, 8192);
    uint64_t seed = 7;
    long bad = 0;
    for (int t = 0; t < 3000; t++) {
        uint32_t u = (uint32_t)splitmix(&seed);
        int kind = t % 4;
        if (kind == 1)
            u = (u & 0xFFFF0000u) | 0x8000u; /* exactly on a BF16 tie */
        else if (kind == 2)
            u = (u & 0xFFFF0000u) | 0x8001u; /* just above */
        else if (kind == 3)
            u = (u & 0xFFFF0000u) | 0x7FFFu; /* just below */
        if (is_nan32(u) || is_inf32(u))
            continue;
        float acc;
        memcpy(&acc, &u, sizeof acc);
        for (int j = 0; j < n; j += 3) {
            uint16_t got = pg_bf16_add_f32(acc, s[j]);
            uint16_t want = expected_sum(u, (uint32_t)s[j] << 16);
            if (got != want && bad++ < 5)
                print_error("add_f32 %08x + %04x: got %04x want %04x\n", u, s[j], got, want);
            uint16_t single = pg_epilogue_apply(PG_EPI_SINGLE, acc, s[j]);
            if (single != want && bad++ < 5)
                print_error("single epilogue %08x + %04x: got %04x want %04x\n", u, s[j], single, want);
        }
    }
    assert_int_equal(bad, 0);
}

/* A far smaller c decides a tie of acc: the case a float sum gets wrong. */
static void test_single_rounding_sticky(void **state)
{
    (void)state;
    /* 1 + 2^-7 + 2^-8 is halfway between the BF16 values 1 + 2^-7 (odd)
     * and 1 + 2^-6 (even); a tiny c of either sign decides. */
    float acc = 0x1.03p0f;
    uint16_t tiny_pos = pg_bf16_from_f32(0x1p-60f), tiny_neg = pg_bf16_from_f32(-0x1p-60f);
    uint16_t up = pg_bf16_from_f32(0x1.04p0f), down = pg_bf16_from_f32(0x1.02p0f);
    assert_int_equal(pg_bf16_add_f32(acc, tiny_pos), up);
    assert_int_equal(pg_bf16_add_f32(acc, tiny_neg), down);
    assert_int_equal(pg_bf16_add_f32(acc, 0x0000), up); /* exact tie: to even */
}

static void test_double_rounding_epilogue(void **state)
{
    (void)state;
    uint64_t seed = 11;
    for (int t = 0; t < 200000; t++) {
        uint32_t u = (uint32_t)splitmix(&seed);
        uint16_t c = (uint16_t)splitmix(&seed);
        float acc;
        memcpy(&acc, &u, sizeof acc);
        uint16_t want = pg_bf16_add(pg_bf16_from_f32(acc), c);
        assert_int_equal(pg_epilogue_apply(PG_EPI_DOUBLE, acc, c), want);
    }
    /* double rounding differs from single rounding: acc = 1 + 2^-8 + 2^-12
     * first rounds up to 1 + 2^-7; with c = -2^-6 the double-rounded result
     * is 254/256, the correctly rounded one 253/256 (exact 253.0625/256) */
    float acc = 0x1.011p0f;
    uint16_t c = pg_bf16_from_f32(-0x1p-6f);
    assert_int_equal(pg_epilogue_apply(PG_EPI_SINGLE, acc, c), pg_bf16_from_f32(253.0f / 256.0f));
    assert_int_equal(pg_epilogue_apply(PG_EPI_DOUBLE, acc, c), pg_bf16_from_f32(254.0f / 256.0f));
    /* NaN in, the one NaN out */
    assert_int_equal(pg_epilogue_apply(PG_EPI_DOUBLE, NAN, 0x3F80), PG_BF16_QNAN);
    assert_int_equal(pg_epilogue_apply(PG_EPI_SINGLE, 1.0f, 0x7FC1), PG_BF16_QNAN);
}

static void test_epilogue_row_matches_apply(void **state)
{
    (void)state;
    enum { n = 4099 };
    static float acc[n];
    static uint16_t c[n], d[n];
    uint64_t seed = 3;
    for (int e = 0; e < PG_EPI_COUNT; e++) {
        for (int i = 0; i < n; i++) {
            uint32_t u = (uint32_t)splitmix(&seed);
            if (i % 5 == 0)
                u &= 0xC3FFFFFFu; /* moderate exponents: mostly the fast path */
            if (i % 97 == 0)
                u = 0x7FFFFFFFu; /* the accumulator NaN */
            if (i % 89 == 0)
                u = 0x7F7FFFFFu; /* rounds to inf */
            memcpy(&acc[i], &u, sizeof acc[i]);
            c[i] = (uint16_t)splitmix(&seed);
        }
        pg_epilogue_row((pg_epilogue)e, acc, c, d, n);
        for (int i = 0; i < n; i++)
            assert_int_equal(d[i], pg_epilogue_apply((pg_epilogue)e, acc[i], c[i]));
    }
}

static void test_ulp_distance(void **state)
{
    (void)state;
    assert_int_equal(pg_bf16_ulp_distance(0x3F80, 0x3F80), 0);
    assert_int_equal(pg_bf16_ulp_distance(0x3F80, 0x3F81), 1);
    assert_int_equal(pg_bf16_ulp_distance(0x0000, 0x8000), 0);
    assert_int_equal(pg_bf16_ulp_distance(0x0001, 0x8001), 2);
    assert_int_equal(pg_bf16_ulp_distance(0x3F80, 0xBF80), 2 * 0x3F80);
    assert_int_equal(pg_bf16_ulp_distance(0x7F7F, 0x7F80), 1);
    assert_int_equal(pg_bf16_ulp_distance(0x7FFF, 0x3F80), INT32_MAX);
    assert_int_equal(pg_bf16_ulp_distance(0x7FFF, 0xFFC0), 0);
}

static void test_names(void **state)
{
    (void)state;
    pg_epilogue e;
    assert_int_equal(pg_epilogue_parse("single", &e), 0);
    assert_int_equal(e, PG_EPI_SINGLE);
    assert_int_equal(pg_epilogue_parse("triple", &e), -1);
    assert_string_equal(pg_epilogue_name(PG_EPI_DOUBLE), "double");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bf16_add_all_pairs),         cmocka_unit_test(test_bf16_add_f32_single_rounding),
        cmocka_unit_test(test_single_rounding_sticky),     cmocka_unit_test(test_double_rounding_epilogue),
        cmocka_unit_test(test_epilogue_row_matches_apply), cmocka_unit_test(test_ulp_distance),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
