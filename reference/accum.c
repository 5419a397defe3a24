/* Accumulation modes, scalar definitions.  These are the specification the
 * vectorized GEMM (gemm_kernels.c) is tested against; keep them literal.
 *
 * The tensor-core block rule (sm90, sm100), from microsoft/MMA-Sim
 * (mmasim/simulator/nv.py WGMMASim/TCGen05MMASim and arithmetic.py
 * fused_dot_add / fused_sum / nv_fused_dot_add) and Khattak & Mikaitis
 * "Accurate models of NVIDIA tensor cores" (models/H100TC.m), as stated in
 * ../shared/DESIGN.md:
 *
 *  1. Each product a_i*b_i is exact and NOT renormalised: significand
 *     sa*sb in [0,4) with exponent ea+eb.  E4M3 operands: a normal has
 *     significand 1.mmm and exponent E-7; a subnormal 0.mmm and exponent -6;
 *     a zero counts as exponent -126 (so a product with a zero operand has
 *     exponent -126 + e_other; its significand is 0).
 *  2. The incoming accumulator C (fp32) enters with its own significand and
 *     exponent (subnormal fp32: exponent -126; zero: exponent -126).
 *  3. emax = max of all product exponents and C's exponent.
 *  4. Each term (products and C) is truncated toward zero to F fraction
 *     bits relative to 2^emax: trunc(sig * 2^(F + e - emax)) * 2^-F.
 *  5. The truncated terms are added exactly.
 *  6. The sum is normalised (fp32 exponent range; below 2^-126 the
 *     significand is taken relative to 2^-126) and truncated toward zero to
 *     O fraction bits: sm90 (wgmma e4m3, output "f32_e8m13"): F = 13,
 *     O = 13 (14 significant bits); sm100 (tcgen05 kind::f8f6f4, fp32
 *     output): F = 25, O = 23.  An exact zero sum is +0 (MMA-Sim adds
 *     integers, which carry no sign).
 *  7. A NaN anywhere (a NaN code, or C NaN) gives the NaN with bits
 *     0x7FFFFFFF (nv_fused_dot_add); an infinite C passes through (products
 *     of E4M3 values cannot overflow).
 *
 * The newest MMA-Sim gives zeros the exponent -999 instead of -126.  In a
 * chain that starts from C = 0 the two agree: a product with a non-zero
 * value has exponent >= -12 and a non-zero C has exponent >= -12 - F, both
 * above any zero product's exponent (<= -118), so a zero can only set emax
 * when every term is zero and the sum is +0 either way. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "accum.h"
#include "formats.h"
#include "pg_error.h"

static const char *const k_mode_names[PG_ACC_COUNT] = {"exact", "fp32", "sm90", "sm90-promote", "sm100"};

const char *pg_accum_name(pg_accum_mode m)
{
    return (m >= 0 && m < PG_ACC_COUNT) ? k_mode_names[m] : "?";
}

int pg_accum_parse(const char *s, pg_accum_mode *out)
{
    for (int i = 0; i < PG_ACC_COUNT; i++) {
        if (s != NULL && strcmp(s, k_mode_names[i]) == 0) {
            *out = (pg_accum_mode)i;
            return 0;
        }
    }
    return pg_fail("unknown accumulation mode '%s' (valid: exact, fp32, sm90, sm90-promote, sm100)",
                   s ? s : "(null)");
}

/* E4M3 operand as (integer significand with 3 fraction bits, exponent). */
static void fp8_sig_exp(uint8_t code, int32_t *sig, int *exp)
{
    int e = (code >> 3) & 0xF;
    int m = code & 7;
    if (e == 0 && m == 0) {
        *sig = 0;
        *exp = -126;
    } else if (e == 0) {
        *sig = m;
        *exp = -6;
    } else {
        *sig = 8 + m;
        *exp = e - 7;
    }
}

/* x * 2^sh for sh of either sign, truncating toward zero (x >= 0). */
static int64_t shift_trunc(int64_t x, int sh)
{
    if (sh >= 0)
        return x << sh; /* callers keep x * 2^sh < 2^62 */
    if (sh <= -63)
        return 0;
    return x >> -sh;
}

float pg_tc_block(const uint8_t *a, const uint8_t *b, int64_t n, float c, int frac_bits, int out_frac_bits)
{
    uint32_t cu = pg_f32_bits(c);
    if (isnan(c))
        return pg_f32_from_bits(PG_F32_QNAN_BITS);
    for (int64_t i = 0; i < n; i++)
        if (pg_fp8_is_nan(a[i]) || pg_fp8_is_nan(b[i]))
            return pg_f32_from_bits(PG_F32_QNAN_BITS);
    if (isinf(c))
        return c;

    /* C as significand with 23 fraction bits and exponent. */
    int c_exp_field = (int)((cu >> 23) & 0xFF);
    int64_t c_sig = (int64_t)(cu & 0x7FFFFF);
    int c_exp;
    if (c_exp_field == 0) {
        c_exp = -126; /* subnormal or zero */
    } else {
        c_sig |= 0x800000;
        c_exp = c_exp_field - 127;
    }
    int c_neg = (cu >> 31) != 0;

    int emax = c_exp;
    for (int64_t i = 0; i < n; i++) {
        int32_t sa, sb;
        int ea, eb;
        fp8_sig_exp(a[i], &sa, &ea);
        fp8_sig_exp(b[i], &sb, &eb);
        if (ea + eb > emax)
            emax = ea + eb;
    }

    /* Sum in units of 2^(emax - F). */
    int64_t sum = 0;
    {
        /* C = c_sig * 2^(c_exp - 23): units shift F - 23 + c_exp - emax */
        int64_t t = shift_trunc(c_sig, frac_bits - 23 + c_exp - emax);
        sum += c_neg ? -t : t;
    }
    for (int64_t i = 0; i < n; i++) {
        int32_t sa, sb;
        int ea, eb;
        fp8_sig_exp(a[i], &sa, &ea);
        fp8_sig_exp(b[i], &sb, &eb);
        /* product = sa*sb * 2^(ea + eb - 6) */
        int64_t t = shift_trunc((int64_t)sa * sb, frac_bits - 6 + ea + eb - emax);
        int neg = ((a[i] ^ b[i]) & 0x80) != 0;
        sum += neg ? -t : t;
    }
    if (sum == 0)
        return 0.0f;

    /* Normalise: value = sum * 2^(emax - F). */
    int neg = sum < 0;
    uint64_t mag = (uint64_t)(neg ? -sum : sum);
    int bitlen = 64 - __builtin_clzll(mag);
    int unit_exp = emax - frac_bits;
    int exp = bitlen - 1 + unit_exp;           /* value in [2^exp, 2^(exp+1)) */
    int q_exp = (exp < -126 ? -126 : exp) - out_frac_bits; /* output quantum */
    int drop = q_exp - unit_exp;
    if (drop > 0)
        mag = drop >= 64 ? 0 : (mag >> drop) << drop;
    /* mag has at most out_frac_bits+1 significant bits: exact in double and,
     * being on the fp32 grid, exact in float. */
    double v = ldexp((double)mag, unit_exp);
    float f = (float)v;
    return neg ? -f : f;
}

static int any_nan(const uint8_t *a, const uint8_t *b, int64_t K)
{
    for (int64_t k = 0; k < K; k++)
        if (pg_fp8_is_nan(a[k]) || pg_fp8_is_nan(b[k]))
            return 1;
    return 0;
}

/* The chain of blocks of 32 k starting from C = c0. */
static float tc_chain(const uint8_t *a, const uint8_t *b, int64_t K, float c0, int frac_bits, int out_frac_bits)
{
    float c = c0;
    for (int64_t k = 0; k < K; k += PG_TC_BLOCK_K) {
        int64_t n = K - k < PG_TC_BLOCK_K ? K - k : PG_TC_BLOCK_K;
        c = pg_tc_block(a + k, b + k, n, c, frac_bits, out_frac_bits);
    }
    return c;
}

float pg_dot(pg_accum_mode m, const uint8_t *a, const uint8_t *b, int64_t K)
{
    if (any_nan(a, b, K))
        return pg_f32_from_bits(PG_F32_QNAN_BITS);
    switch (m) {
    case PG_ACC_EXACT: {
        /* |product| <= 229376^2 < 2^36 units of 2^-18: int64 holds K < 2^27. */
        int64_t s = 0;
        for (int64_t k = 0; k < K; k++)
            s += (int64_t)pg_fp8_to_fixed(a[k]) * pg_fp8_to_fixed(b[k]);
        /* One RNE rounding (int64 -> float), then an exact power-of-two scale. */
        return (float)s * 0x1p-18f;
    }
    case PG_ACC_FP32: {
        float acc = 0.0f;
        for (int64_t k = 0; k < K; k++)
            acc = acc + pg_fp8_to_f32(a[k]) * pg_fp8_to_f32(b[k]); /* product exact in fp32 */
        return acc;
    }
    case PG_ACC_SM90:
        return tc_chain(a, b, K, 0.0f, PG_SM90_FRAC_BITS, PG_SM90_OUT_FRAC_BITS);
    case PG_ACC_SM90_PROMOTE: {
        float acc = 0.0f;
        for (int64_t k = 0; k < K; k += PG_SM90_PROMOTE_K) {
            int64_t n = K - k < PG_SM90_PROMOTE_K ? K - k : PG_SM90_PROMOTE_K;
            float g = tc_chain(a + k, b + k, n, 0.0f, PG_SM90_FRAC_BITS, PG_SM90_OUT_FRAC_BITS);
            acc = acc + g; /* one fp32 RNE add per group */
        }
        return acc;
    }
    case PG_ACC_SM100:
        return tc_chain(a, b, K, 0.0f, PG_SM100_FRAC_BITS, PG_SM100_OUT_FRAC_BITS);
    default:
        return pg_f32_from_bits(PG_F32_QNAN_BITS);
    }
}
