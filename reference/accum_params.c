/* Accumulation as data: presets and the literal scalar definition.
 *
 * PG_SUM_BLOCK, one block of n <= block_k products plus the incoming
 * accumulator C (the rule of accum.c with its constants as parameters):
 *  1. product i is sig_a*sig_b * 2^(ea + eb + scale_exp - fa - fb), not
 *     renormalised (pg_fp8f_sig_exp: fa, fb are the formats' mantissa
 *     bits; a zero operand has exponent -126);
 *  2. C enters with its fp32 significand and exponent (zero and subnormal:
 *     -126) when c_entry is PG_C_INSIDE; with PG_C_AFTER the block starts
 *     from C = 0 and its result is added to C with one fp32 RNE add;
 *  3. emax = the largest exponent among the products and C;
 *  4. each term keeps F = align_frac_bits fraction bits relative to 2^emax
 *     (align_round: truncation toward zero, or RNE on the magnitude);
 *  5. the kept terms add exactly; 6. the sum is normalised (fp32 exponent
 *     range) and keeps O = out_frac_bits fraction bits (out_round); an exact
 *     zero is +0.
 * Blocks chain over k ascending; promote_k > 0 restarts the chain from 0
 * every promote_k k and adds each group into an fp32 accumulator (RNE).
 *
 * With fa = fb = E4M3, scale_exp = 0, PG_C_INSIDE and truncation these are
 * pg_tc_block's steps exactly (tests/test_accum_params.c checks every
 * preset against pg_dot on random inputs). */
#include <math.h>
#include <stdio.h>

#include "accum_params.h"
#include "pg_error.h"

#define SM_SOURCE "microsoft/MMA-Sim nv.py/arithmetic.py; Khattak & Mikaitis H100TC.m"

static const pg_accum_params k_presets[PG_ACC_COUNT] = {
    [PG_ACC_EXACT] = {"exact", PG_SUM_EXACT, 32, 0, PG_RND_TRUNC, 23, PG_RND_RNE, 0, PG_C_INSIDE, PG_FMT_BOTH, 1,
                      "definition (one RNE rounding of the exact sum)"},
    [PG_ACC_FP32] = {"fp32", PG_SUM_FP32, 1, 0, PG_RND_RNE, 23, PG_RND_RNE, 0, PG_C_AFTER, PG_FMT_BOTH, 1,
                     "definition (IEEE binary32, k ascending)"},
    [PG_ACC_SM90] = {"sm90", PG_SUM_BLOCK, 32, 13, PG_RND_TRUNC, 13, PG_RND_TRUNC, 0, PG_C_INSIDE, PG_FMT_BOTH, 1,
                     SM_SOURCE "; H100 cuBLASLt fast accumulation, Triton tl.dot"},
    [PG_ACC_SM90_PROMOTE] = {"sm90-promote", PG_SUM_BLOCK, 32, 13, PG_RND_TRUNC, 13, PG_RND_TRUNC, 128, PG_C_INSIDE,
                             PG_FMT_BOTH, 1, SM_SOURCE "; H100 cuBLASLt without fast accumulation"},
    [PG_ACC_SM100] = {"sm100", PG_SUM_BLOCK, 32, 25, PG_RND_TRUNC, 23, PG_RND_TRUNC, 0, PG_C_INSIDE, PG_FMT_BOTH, 0,
                      SM_SOURCE " (tcgen05 kind::f8f6f4; no Blackwell here)"},
};

const pg_accum_params *pg_accum_preset(pg_accum_mode m)
{
    return (m >= 0 && m < PG_ACC_COUNT) ? &k_presets[m] : NULL;
}

int pg_accum_params_check(const pg_accum_params *p)
{
    if (p == NULL)
        return pg_fail("accumulation parameters: none given");
    if (p->kind < PG_SUM_EXACT || p->kind > PG_SUM_BLOCK)
        return pg_fail("accumulation parameters '%s': unknown kind %d", p->name, (int)p->kind);
    if (p->kind != PG_SUM_BLOCK)
        return 0;
    if (p->block_k < 1 || p->block_k > 64)
        return pg_fail("accumulation parameters '%s': block_k = %d (valid: 1..64)", p->name, p->block_k);
    if (p->align_frac_bits < 0 || p->align_frac_bits > 40)
        return pg_fail("accumulation parameters '%s': align_frac_bits = %d (valid: 0..40)", p->name,
                       p->align_frac_bits);
    if (p->out_frac_bits < 0 || p->out_frac_bits > 23)
        return pg_fail("accumulation parameters '%s': out_frac_bits = %d (valid: 0..23)", p->name, p->out_frac_bits);
    if (p->promote_k < 0 || (p->promote_k > 0 && p->promote_k % p->block_k != 0))
        return pg_fail("accumulation parameters '%s': promote_k = %d is not a multiple of block_k = %d", p->name,
                       p->promote_k, p->block_k);
    return 0;
}

/* x * 2^sh (x >= 0) with truncation or RNE when sh < 0. */
static uint64_t shift_round(uint64_t x, int sh, pg_rounding r)
{
    if (sh >= 0)
        return x << sh; /* callers keep x * 2^sh < 2^62 */
    int d = -sh;
    if (d > 63)
        return 0; /* x < 2^62 < half of 2^d: RNE gives 0 too */
    uint64_t kept = x >> d;
    if (r == PG_RND_TRUNC)
        return kept;
    uint64_t rem = x & ((UINT64_C(1) << d) - 1), half = UINT64_C(1) << (d - 1);
    return kept + (rem > half || (rem == half && (kept & 1)));
}

typedef struct {
    int64_t sig; /* signed integer significand */
    int exp;     /* value = sig * 2^(exp - frac) */
    int frac;
} term;

static term product(pg_fp8_format fa, pg_fp8_format fb, uint8_t a, uint8_t b, int scale_exp)
{
    int32_t sa, sb;
    int ea, eb;
    int f = pg_fp8f_sig_exp(fa, a, &sa, &ea) + pg_fp8f_sig_exp(fb, b, &sb, &eb);
    int64_t s = (int64_t)sa * sb;
    return (term){((a ^ b) & 0x80) ? -s : s, ea + eb + scale_exp, f};
}

static term f32_term(float c)
{
    uint32_t u = pg_f32_bits(c);
    int field = (int)((u >> 23) & 0xFF);
    int64_t sig = (int64_t)(u & 0x7FFFFF);
    if (field != 0)
        sig |= 0x800000;
    return (term){(u >> 31) ? -sig : sig, field == 0 ? -126 : field - 127, 23};
}

/* sum * 2^unit (sum != 0 fits int64) rounded to O fraction bits in the fp32
 * exponent range. */
static float normalise(int64_t sum, int unit, int out_frac, pg_rounding r)
{
    int neg = sum < 0;
    uint64_t mag = (uint64_t)(neg ? -sum : sum);
    int exp = 63 - __builtin_clzll(mag) + unit;
    int q = (exp < -126 ? -126 : exp) - out_frac; /* output quantum 2^q */
    if (q > unit) {
        mag = shift_round(mag, unit - q, r);
        unit = q;
    }
    /* <= O + 2 significant bits: exact in double; on the fp32 grid unless it overflows */
    float f = (float)ldexp((double)mag, unit);
    return neg ? -f : f;
}

static float block_sum(const pg_accum_params *p, pg_fp8_format fa, pg_fp8_format fb, const uint8_t *a,
                       const uint8_t *b, int64_t n, float c, int scale_exp)
{
    int inside = p->c_entry == PG_C_INSIDE;
    term ct = f32_term(inside ? c : 0.0f);
    int emax = ct.exp;
    for (int64_t i = 0; i < n; i++) {
        term t = product(fa, fb, a[i], b[i], scale_exp);
        emax = t.exp > emax ? t.exp : emax;
    }
    int F = p->align_frac_bits;
    int64_t sum = 0;
    for (int64_t i = -1; i < n; i++) {
        term t = i < 0 ? ct : product(fa, fb, a[i], b[i], scale_exp);
        uint64_t mag = (uint64_t)(t.sig < 0 ? -t.sig : t.sig);
        int64_t kept = (int64_t)shift_round(mag, F - t.frac + t.exp - emax, p->align_round);
        sum += t.sig < 0 ? -kept : kept;
    }
    float r = sum == 0 ? 0.0f : normalise(sum, emax - F, p->out_frac_bits, p->out_round);
    return inside ? r : c + r;
}

float pg_tc_chain_params(const pg_accum_params *p, pg_fp8_format fa, pg_fp8_format fb, const uint8_t *a,
                         const uint8_t *b, int64_t n, float c, int scale_exp)
{
    for (int64_t k = 0; k < n; k += p->block_k) {
        int64_t len = n - k < p->block_k ? n - k : p->block_k;
        c = block_sum(p, fa, fb, a + k, b + k, len, c, scale_exp);
    }
    return c;
}

int pg_dot_specials(pg_fp8_format fa, pg_fp8_format fb, const uint8_t *a, const uint8_t *b, int64_t K, float *out)
{
    int special = 0, pos_inf = 0, neg_inf = 0, nan = 0;
    for (int64_t k = 0; k < K; k++) {
        int ia = pg_fp8f_is_inf(fa, a[k]), ib = pg_fp8f_is_inf(fb, b[k]);
        if (pg_fp8f_is_nan(fa, a[k]) || pg_fp8f_is_nan(fb, b[k])) {
            special = nan = 1;
        } else if (ia || ib) {
            special = 1;
            if ((a[k] & 0x7F) == 0 || (b[k] & 0x7F) == 0)
                nan = 1; /* inf * 0 */
            else if ((a[k] ^ b[k]) & 0x80)
                neg_inf = 1;
            else
                pos_inf = 1;
        }
    }
    if (!special)
        return 0;
    if (nan || (pos_inf && neg_inf))
        *out = pg_f32_from_bits(PG_F32_QNAN_BITS);
    else
        *out = pos_inf ? INFINITY : -INFINITY;
    return 1;
}

/* Fixed-point units of a format: values are integers times 2^-shift. */
static int fixed_shift(pg_fp8_format f)
{
    return f == PG_FMT_E5M2 ? PG_E5M2_FIXED_SHIFT : PG_FP8_FIXED_SHIFT;
}

/* The exact sum, in int128 (|product| < 2^64 units of 2^-32 for E5M2 x E5M2). */
static float exact_dot(pg_fp8_format fa, pg_fp8_format fb, const uint8_t *a, const uint8_t *b, int64_t K)
{
    __int128 s = 0;
    for (int64_t k = 0; k < K; k++) {
        int32_t sa, sb;
        int ea, eb;
        int fra = pg_fp8f_sig_exp(fa, a[k], &sa, &ea), frb = pg_fp8f_sig_exp(fb, b[k], &sb, &eb);
        if (sa == 0 || sb == 0)
            continue;
        /* sig * 2^(e - frac) in units 2^-shift: shift left by e - frac + shift >= 0 */
        __int128 ma = (__int128)sa << (ea - fra + fixed_shift(fa));
        __int128 mb = (__int128)sb << (eb - frb + fixed_shift(fb));
        __int128 prod = ma * mb;
        s += ((a[k] ^ b[k]) & 0x80) ? -prod : prod;
    }
    if (s == 0)
        return 0.0f;
    int neg = s < 0;
    unsigned __int128 mag = (unsigned __int128)(neg ? -s : s);
    int unit = -(fixed_shift(fa) + fixed_shift(fb));
    int bitlen = 0;
    for (unsigned __int128 t = mag; t != 0; t >>= 1)
        bitlen++;
    int exp = bitlen - 1 + unit;
    int q = (exp < -126 ? -126 : exp) - 23;
    if (q > unit) { /* one RNE rounding to 24 bits (or the subnormal grid) */
        int d = q - unit;
        unsigned __int128 kept = mag >> d, rem = mag - (kept << d), half = (unsigned __int128)1 << (d - 1);
        mag = kept + (rem > half || (rem == half && (kept & 1)));
        unit = q;
    }
    float f = (float)ldexp((double)(uint64_t)mag, unit); /* <= 25 bits: exact; inf on overflow */
    return neg ? -f : f;
}

float pg_dot_params(const pg_accum_params *p, pg_fp8_format fa, pg_fp8_format fb, const uint8_t *a,
                    const uint8_t *b, int64_t K)
{
    float special;
    if (pg_dot_specials(fa, fb, a, b, K, &special))
        return special;
    switch (p->kind) {
    case PG_SUM_EXACT:
        return exact_dot(fa, fb, a, b, K);
    case PG_SUM_FP32: {
        float acc = 0.0f;
        for (int64_t k = 0; k < K; k++) /* products are exact in fp32 (<= 8 bits, 2^-32..2^32) */
            acc = acc + pg_fp8f_to_f32(fa, a[k]) * pg_fp8f_to_f32(fb, b[k]);
        return acc;
    }
    case PG_SUM_BLOCK:
    default: {
        if (p->promote_k == 0)
            return pg_tc_chain_params(p, fa, fb, a, b, K, 0.0f, 0);
        float acc = 0.0f;
        for (int64_t k = 0; k < K; k += p->promote_k) {
            int64_t n = K - k < p->promote_k ? K - k : p->promote_k;
            acc = acc + pg_tc_chain_params(p, fa, fb, a + k, b + k, n, 0.0f, 0);
        }
        return acc;
    }
    }
}
