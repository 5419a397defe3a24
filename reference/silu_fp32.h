/* silu(x) = x * sigmoid(x) in fp32 as ONE fixed sequence of IEEE fp32
 * operations, shared by the CPU reference (C17) and the CUDA kernels
 * (__host__ __device__), so both give the same bits for every input.
 *
 * The sequence (every step one IEEE binary32 operation, round to nearest
 * even; fl() = one rounding; no approximate instruction, no contraction):
 *
 *   1. a = |x| (sign bit cleared); x is special if NaN or a > 110 (incl.
 *      inf): then steps 2-8 run on x' = +-0 (x's sign) instead of x, so
 *      every value they compute is finite and every conversion in range,
 *      and step 9 replaces their result
 *   2. z  = fl(-a * L2E)                          L2E = 0x1.715476p+0
 *   3. nf = fl(fl(z + 0x1.8p23) - 0x1.8p23)       rint(z), RNE; n = (int)nf in [-159, 0]
 *   4. r  = fma(nf, -LN2_HI, -a)                  LN2_HI = 0x1.62e4p-1
 *      r  = fma(nf, -LN2_LO, r)                   LN2_LO = 0x1.7f7d1cp-20
 *   5. P  = fma(C0, r, C1); P = fma(P, r, C2); P = fma(P, r, C3);
 *      P  = fma(P, r, C4); P = fma(P, r, C5)      (C0..C5 below)
 *      r2 = fl(r * r); q = fma(P, r2, r); p = fl(q + 1)      p ~ e^r
 *   6. n1 = max(n, -100), n2 = n - n1             (2^n1, 2^n2 normal fp32, built from bits)
 *      e  = fl(fl(p * 2^n1) * 2^n2)               e ~ exp(-a); the first multiply is exact
 *   7. d  = fl(1 + e)                             d in [1, 2]
 *   8. num = x (x >= 0, sign clear) or fl(x * p) (x < 0)
 *      q   = fl(num / d)                          the one division
 *      silu = q (x >= 0) or fl(fl(q * 2^n1) * 2^n2) (x < 0)
 *   9. x NaN                        -> the NaN 0x7FFFFFFF (PG_F32_QNAN_BITS)
 *      else a > 110 (incl. inf)     -> x if x > 0, else -0.0f (|silu| < 2^-151)
 *
 * Steps 8 and 9 are selects, not branches: every input runs the same
 * operations (the kernel's warps do not diverge) and the values are the
 * same as when x >= 0 and x < 0 took separate paths.
 *
 * Why this shape: exp is only ever taken of -|x| <= 0, so it cannot
 * overflow; for x < 0 silu = x e^x / (1 + e^x) is formed from the scaled
 * mantissa p and the power 2^n is applied last, in two steps of which only
 * the second rounds, so results down to the subnormals are rounded once
 * (x / (1 + exp(-x)) would give -0 below x = -88.7, where silu is still
 * about -2^-121).  Step 3 is the 1.5 * 2^23 trick: exact RNE for |z| < 2^22,
 * the same on host and device.  The polynomial is Cephes' expf polynomial
 * (S. Moshier, Cephes Math Library: e^r = 1 + r + r^2 P(r) on
 * |r| <= ln2/2, stated peak relative error 4.2e-9 = 2^-27.8 in exact
 * arithmetic): a published fit whose fp32 accuracy is known, written here
 * as hexadecimal literals so no compiler reads a different value.
 *
 * Accuracy (tests/test_silu_all.c, all 2^32 inputs against silu in
 * double): at most 3.344 ulp; its exp at most 1.010 ulp on [-110, 0]
 * (docs/numerics.md, "Dual GEMM (SwiGLU)").
 *
 * Host: plain fp32 operators (FLT_EVAL_METHOD 0 is required) and fmaf
 * (libm's is correctly rounded); every product goes through an empty asm
 * statement, so no compiler flag (-ffp-contract=fast included) can fuse it
 * with the add that follows.  Device: __fmul_rn / __fadd_rn / __fmaf_rn /
 * __fdiv_rn, which nvcc never contracts; compile without -ftz=true
 * (--use_fast_math), since subnormal results are part of the definition.
 * Step 8's division on the device is pg_silu_div (below): a branch-free
 * sequence equal to __fdiv_rn on every (num, d) that silu gives it. */
#ifndef PG_SILU_FP32_H
#define PG_SILU_FP32_H

#include <stdint.h>

#ifdef __CUDACC__
#define PG_HOSTDEV __host__ __device__
#else
#define PG_HOSTDEV
#endif

#ifndef __CUDA_ARCH__
#include <math.h>
#include <string.h>
#if defined(__FLT_EVAL_METHOD__) && __FLT_EVAL_METHOD__ != 0
#error "silu_fp32.h needs fp32 arithmetic in fp32 (FLT_EVAL_METHOD 0, e.g. SSE on x86)"
#endif
#endif

/* ---- the fp32 primitives: one IEEE rounding each, never fused ---- */

static inline PG_HOSTDEV uint32_t pg_sf_bits(float x)
{
#ifdef __CUDA_ARCH__
    return __float_as_uint(x);
#else
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
#endif
}

static inline PG_HOSTDEV float pg_sf_from_bits(uint32_t u)
{
#ifdef __CUDA_ARCH__
    return __uint_as_float(u);
#else
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
#endif
}

/* The host's value barrier: the compiler must treat v as unknown, so a
 * product passed through it cannot be contracted into a later add. */
static inline float pg_sf_opaque(float v)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    __asm__("" : "+x"(v));
#elif defined(__GNUC__) && defined(__aarch64__)
    __asm__("" : "+w"(v));
#else
    volatile float keep = v;
    v = keep;
#endif
    return v;
}

static inline PG_HOSTDEV float pg_sf_mul(float a, float b)
{
#ifdef __CUDA_ARCH__
    return __fmul_rn(a, b);
#else
    return pg_sf_opaque(a * b);
#endif
}

static inline PG_HOSTDEV float pg_sf_add(float a, float b)
{
#ifdef __CUDA_ARCH__
    return __fadd_rn(a, b);
#else
    return pg_sf_opaque(a + b);
#endif
}

static inline PG_HOSTDEV float pg_sf_sub(float a, float b)
{
#ifdef __CUDA_ARCH__
    return __fsub_rn(a, b);
#else
    return pg_sf_opaque(a - b);
#endif
}

static inline PG_HOSTDEV float pg_sf_fma(float a, float b, float c)
{
#ifdef __CUDA_ARCH__
    return __fmaf_rn(a, b, c);
#else
    return pg_sf_opaque(fmaf(a, b, c));
#endif
}

static inline PG_HOSTDEV float pg_sf_div(float a, float b)
{
#ifdef __CUDA_ARCH__
    return __fdiv_rn(a, b);
#else
    return pg_sf_opaque(a / b);
#endif
}

/* 2^k for -126 <= k <= 127, exactly, from the bits. */
static inline PG_HOSTDEV float pg_sf_pow2(int k)
{
    return pg_sf_from_bits((uint32_t)(k + 127) << 23);
}

/* ---- the constants (fp32 values, hexadecimal) ---- */
#define PG_SILU_L2E 0x1.715476p+0f      /* log2(e) rounded */
#define PG_SILU_LN2_HI 0x1.62e4p-1f     /* 0.693145751953125: ln 2, 15 significant bits */
#define PG_SILU_LN2_LO 0x1.7f7d1cp-20f  /* ln 2 - LN2_HI rounded */
#define PG_SILU_RINT_MAGIC 0x1.8p23f    /* 1.5 * 2^23 */
#define PG_SILU_C0 0x1.a0d2cep-13f      /* Cephes expf: 1.9875691500E-4 */
#define PG_SILU_C1 0x1.6e879cp-10f      /* 1.3981999507E-3 */
#define PG_SILU_C2 0x1.11121p-7f        /* 8.3334519073E-3 */
#define PG_SILU_C3 0x1.555382p-5f       /* 4.1665795894E-2 */
#define PG_SILU_C4 0x1.555554p-3f       /* 1.6666665459E-1 */
#define PG_SILU_C5 0x1p-1f              /* 5.0000001201E-1 rounds to 0.5 */
#define PG_SILU_MAX_ABS 110.0f          /* beyond: silu = x (x > 0) or -0 */
#define PG_SILU_MAX_ABS_BITS 0x42DC0000u /* the bits of 110.0f: |x|'s bits above it are special */
#define PG_SILU_SPLIT_MIN (-100)        /* n1 = max(n, -100) */

/* Steps 2-5 for a = |x| in [0, 110]: *n and p with exp(-a) ~ p * 2^n. */
static inline PG_HOSTDEV float pg_silu_exp_parts(float a, int *n)
{
    float z = pg_sf_mul(-a, PG_SILU_L2E);
    float nf = pg_sf_sub(pg_sf_add(z, PG_SILU_RINT_MAGIC), PG_SILU_RINT_MAGIC);
    *n = (int)nf; /* an integer in [-159, 0]: the conversion is exact */
    float r = pg_sf_fma(nf, -PG_SILU_LN2_HI, -a);
    r = pg_sf_fma(nf, -PG_SILU_LN2_LO, r);
    float P = pg_sf_fma(PG_SILU_C0, r, PG_SILU_C1);
    P = pg_sf_fma(P, r, PG_SILU_C2);
    P = pg_sf_fma(P, r, PG_SILU_C3);
    P = pg_sf_fma(P, r, PG_SILU_C4);
    P = pg_sf_fma(P, r, PG_SILU_C5);
    float r2 = pg_sf_mul(r, r);
    float q = pg_sf_fma(P, r2, r);
    return pg_sf_add(q, 1.0f);
}

/* Step 6 (and the last step of 8): v * 2^n for n in [-159, 0], rounded once. */
static inline PG_HOSTDEV float pg_silu_scale(float v, int n)
{
    int n1 = n < PG_SILU_SPLIT_MIN ? PG_SILU_SPLIT_MIN : n;
    return pg_sf_mul(pg_sf_mul(v, pg_sf_pow2(n1)), pg_sf_pow2(n - n1));
}

/* exp(-a) for a = |x| in [0, 110] as silu uses it (steps 2-6). */
static inline PG_HOSTDEV float pg_silu_exp_neg(float a)
{
    int n;
    float p = pg_silu_exp_parts(a, &n);
    return pg_silu_scale(p, n);
}

/* Step 8's division q = fl(num / d), for d = 1 + e in [1, 2] and the num
 * silu gives it: num = x in [0, 110] or fl(x * p) with x in [-110, 0) and p
 * in about [0.7, 1.42], tiny and subnormal numerators and +-0 included.
 * Host: the IEEE division.  Device: no FCHK and no slow-path call, so the
 * kernel's 64 outputs a thread can interleave:
 *   y0 = rcp.approx(d)                   MUFU.RCP; .ftz flushes nothing here:
 *                                        d in [1, 2], y0 in [0.5, 1]
 *   y  = fma(y0, fma(-d, y0, 1), y0)     one Newton step: y = RN(1/d) for
 *                                        every d in [1, 2] and every y0
 *                                        within 1 ulp of 1/d (PTX's bound
 *                                        for rcp.approx), checked over all
 *                                        2^23 + 1 such d, except
 *   y  = 0x1.000002p-1 if d = 0x1.fffffep+0   where 1/d is 2^-49 above a
 *                                        midpoint and y0 = 0.5 gives y = 0.5
 *   q0 = fl(num * y)
 *   t  = fma(d, q0, -num)                -(num - d q0), the residual negated
 *   q  = fma(-t, y, q0)
 * With y = RN(1/d), q0 within an ulp and t exact, q = fl(num / d) where
 * the quotient is normal (Markstein's theorem); these are the operations
 * of nvcc's own __fdiv_rn fast path (MUFU.RCP and five FFMA on sm_90),
 * which __fdiv_rn returns when its FCHK finds the operands in range, plus
 * the select (one FSETP, one FSEL) that makes y independent of MUFU's
 * rounding.  The residual is formed negated: the same value for num != 0,
 * and num's sign kept for num = +-0 (num = -0: q0 = -0, t = +0,
 * q = fma(-0, y, -0) = -0, as -0 / d is).  Tiny and subnormal quotients
 * occur only with d = 2 exactly (|x| < 2^-25: p = 1, n = 0, e = 1): then
 * y = 1/2, q0 = fl(num / 2), t is exact and q = fl(q0 + (num - 2 q0) / 2) =
 * fl(num / 2).  Proven by exhaustion, not by this argument: on the host
 * (reference/tests/test_silu_div.c, suite slow) y = RN(1/d) for every d in
 * [1, 2] and y0 within an ulp, and the sequence (pg_silu_div_from_rcp)
 * with y0 = RN(1/d) and either neighbour equals '/' on the (num, d) of all
 * 2^32 inputs, whatever MUFU.RCP rounds to; on the GPU,
 * kernel/tests/test_silu_gpu.c runs silu on the GPU for all 2^32 inputs and
 * compares this with __fdiv_rn on every (num, d) reached (0 differences),
 * and silu's bits with the host's.  Valid only for such operands: it is not
 * a general division (silu's own use, nowhere else). */
#define PG_SILU_D_HARD 0x1.fffffep+0f      /* 2 - 2^-23: y0 = 0.5 gives y = 0.5 */
#define PG_SILU_D_HARD_RCP 0x1.000002p-1f  /* RN(1 / PG_SILU_D_HARD) */

/* The device division's steps after the reciprocal, from y0 (the host
 * tests call it with chosen y0: reference/tests/test_silu_div.c). */
static inline PG_HOSTDEV float pg_silu_div_from_rcp(float num, float d, float y0)
{
    float y = pg_sf_fma(y0, pg_sf_fma(-d, y0, 1.0f), y0);
    y = d == PG_SILU_D_HARD ? PG_SILU_D_HARD_RCP : y;
    const float q0 = pg_sf_mul(num, y);
    const float t = pg_sf_fma(d, q0, -num);
    return pg_sf_fma(-t, y, q0);
}

static inline PG_HOSTDEV float pg_silu_div(float num, float d)
{
#ifdef __CUDA_ARCH__
    float y0;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y0) : "f"(d));
    return pg_silu_div_from_rcp(num, d, y0);
#else
    return pg_sf_div(num, d);
#endif
}

/* (mask & a) | (~mask & b) on the bits: a select the compiler cannot turn
 * into a branch (one LOP3 on the device). */
static inline PG_HOSTDEV uint32_t pg_sf_pick(uint32_t mask, uint32_t a, uint32_t b)
{
    return (mask & a) | (~mask & b);
}

/* Steps 1-8 up to the division, with no branch: returns num and sets *d
 * and *n, for x itself or for +-0 (x's sign) when x is special (NaN or
 * |x| > 110).  pg_silu_f32's first half; the tests use it to reach the
 * division's operands. */
static inline PG_HOSTDEV float pg_silu_division_operands(float x, float *d, int *n)
{
    const uint32_t bits = pg_sf_bits(x);
    const uint32_t sign = bits & 0x80000000u;
    const uint32_t negative = 0u - (sign >> 31); /* all ones if x < 0 */
    const uint32_t special = 0u - (uint32_t)((bits & 0x7FFFFFFFu) > PG_SILU_MAX_ABS_BITS);
    const uint32_t safe_bits = pg_sf_pick(special, sign, bits); /* step 1: x' */
    const float a = pg_sf_from_bits(safe_bits & 0x7FFFFFFFu);
    const float p = pg_silu_exp_parts(a, n); /* steps 2-5 */
    *d = pg_sf_add(1.0f, pg_silu_scale(p, *n)); /* steps 6-7 */
    return pg_sf_from_bits(pg_sf_pick(negative, pg_sf_bits(pg_sf_mul(pg_sf_from_bits(safe_bits), p)), safe_bits));
}

/* silu(x) = x / (1 + exp(-x)): the sequence at the top of this file, with
 * no branch: steps 2-8 run for every x (on +-0 for the special inputs),
 * steps 8 and 9 choose by masks. */
static inline PG_HOSTDEV float pg_silu_f32(float x)
{
    const uint32_t bits = pg_sf_bits(x);
    const uint32_t abs_bits = bits & 0x7FFFFFFFu;
    const uint32_t negative = 0u - (bits >> 31);
    const uint32_t special = 0u - (uint32_t)(abs_bits > PG_SILU_MAX_ABS_BITS); /* |x| > 110, inf, NaN */
    const uint32_t is_nan = 0u - (uint32_t)(abs_bits > 0x7F800000u);
    float d;
    int n;
    const float num = pg_silu_division_operands(x, &d, &n); /* steps 1-8's num */
    const float q = pg_silu_div(num, d);
    uint32_t out = pg_sf_pick(negative, pg_sf_bits(pg_silu_scale(q, n)), pg_sf_bits(q));
    /* step 9 */
    out = pg_sf_pick(special, pg_sf_pick(negative, 0x80000000u, bits), out);
    out = pg_sf_pick(is_nan, 0x7FFFFFFFu, out);
    return pg_sf_from_bits(out);
}

#endif
