/* Vectorized inner kernels of the reference GEMM: SIMD over the PG_KW
 * columns of a tile (n innermost), PG_KR rows sharing each B load.  Portable
 * C that gcc auto-vectorizes (#pragma omp simd); on x86-64 with gcc each
 * kernel is also compiled for x86-64-v3 (AVX2+FMA) and x86-64-v4 (AVX-512)
 * and picked at load time (target_clones), so the library runs on any
 * x86-64 and is fast on the machines we have.
 *
 * This file is compiled with -ffp-contract=fast: every a*b here that meets
 * an add is an exact product of FP8 values (<= 4 significant bits each), so
 * fma(a, b, c) and a*b + c round identically.  The one product that is
 * rounded, fl(sa * sb) of block scales, goes into an explicit fma.
 *
 * Tensor-core kernels (sm90, sm100) implement the block rule of accum_params.c
 * with floats and small integers:
 *  - emax: the largest of ea+eb over the block and of C's exponent, on int8
 *    exponents (one vector covers 4x the columns of a float vector).
 *  - A term truncated to F fraction bits relative to 2^emax is
 *    trunc(value * 2^(F - emax)): value = significand * 2^e holds for
 *    subnormal operands too, value*2^(F-emax) is exact (a product of E4M3
 *    values has <= 8 significant bits, scaling by a power of two is exact)
 *    and |.| < 2^(F+2); the float -> int32 conversion truncates toward zero.
 *  - sm90 (F = 13): the int32 sum stays below 33 * 2^15 < 2^21, so it is
 *    exact as a float, and keeping the top 14 significant bits of a float
 *    is clearing its 10 low mantissa bits (sign-magnitude: toward zero).
 *    sm100 (F = 25) sums in int32 partials and double (< 2^33) and keeps 24
 *    bits.  An integer sum of 0 converts to +0, as in the rule.
 *  - Zero operands get the exponent PG_ZERO_EXP = -60 instead of -126.
 *    Non-zero products have exponents >= -28 (E5M2 subnormals; -12 for
 *    E4M3 x E4M3) and a product with a zero operand has exponent <= -45, so
 *    the largest product exponent of a block is below -40 exactly when all
 *    its products are zero; then they leave emax to C, as -126 would (the
 *    kernels test this, so the stand-in holds for any formats, any C and
 *    any MX offset).  emax is floored at -100 so the scale factors stay
 *    normal floats; only all-zero blocks with C = 0 notice, and their sum
 *    is +0 whatever emax is.
 *  - Formats: E4M3 and E5M2 values have <= 4 and <= 3 significant bits and
 *    lie in 2^-16..2^16, so every product is exact in fp32 (>= 2^-32,
 *    normal) and the arguments above hold for either operand format.
 *  - MX: block kb's products are scaled by 2^s, s = xa + xb, inside the
 *    alignment: emax = max(emax of the products + s, C's exponent), a term
 *    is trunc(value * 2^(F + s - emax)).  With |s| <= PG_MX_FAST_RANGE
 *    every block result and chain value stays a normal float (exponents
 *    >= -28 - 64 - 25), so the rounding of the result above still holds;
 *    the driver leaves other scale codes to the scalar definition.
 *  - Block scaling and promotion: each group's chain ends and meets the
 *    fp32 accumulator in one vector fma (per lane __builtin_fmaf), the
 *    scalar definition's fmaf(partial, fl(sa * sb), acc).
 *  - exact: sums of products in double are exact while they stay below
 *    2^53 units of the products' granularity; the driver derives that
 *    length (`chunk`) from the operands actually present.  A group that
 *    fits one chunk converts to float in one RNE rounding, the definition's;
 *    longer ones add chunks in int128 and round once (pg_i128_to_f32).
 * The tests check these kernels against pg_dot (the literal rule) on every
 * family, including zeros, subnormals and NaN. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gemm_kernels.h"

#if !defined(__GNUC__)
#error "gemm_kernels.c needs GCC or clang (vector extensions)"
#endif

#define PG_INLINE static inline __attribute__((always_inline))

/* v * 2^unit rounded once to fp32 (RNE, subnormals, inf on overflow): the
 * definition's rounding of an exact sum (accum_params.c). */
static float pg_i128_to_f32(__int128 v, int unit)
{
    if (v == 0)
        return 0.0f;
    int neg = v < 0;
    unsigned __int128 mag = (unsigned __int128)(neg ? -v : v);
    int bitlen = 0;
    for (unsigned __int128 t = mag; t != 0; t >>= 1)
        bitlen++;
    int exp = bitlen - 1 + unit;
    int q = (exp < -126 ? -126 : exp) - 23;
    if (q > unit) {
        int d = q - unit;
        unsigned __int128 kept = mag >> d, rem = mag - (kept << d), half = (unsigned __int128)1 << (d - 1);
        mag = kept + (rem > half || (rem == half && (kept & 1)));
        unit = q;
    }
    float f = (float)ldexp((double)(uint64_t)mag, unit); /* <= 25 bits: exact; inf on overflow */
    return neg ? -f : f;
}
#define PG_EXACT_CHUNK 65536 /* 2^16 products < 2^17.6 each: exact double sums */

#if defined(__x86_64__)
#define PG_VW 16
#define PG_FP32_NV 2 /* 16 zmm accumulators */
#define PG_TR 8      /* tensor-core row group: 16 zmm of sums and scales */
#define PG_SFX(x) pg_v4_##x
#if defined(__clang__)
#define PG_TARGET __attribute__((target("avx512f,avx512dq,avx512bw,avx512vl,avx2,fma")))
#else /* gcc: also let its per-lane helper loops use whole 512-bit vectors */
#define PG_TARGET __attribute__((target("avx512f,avx512dq,avx512bw,avx512vl,avx2,fma,prefer-vector-width=512")))
#endif
#include "gemm_kernels_body.h"
#undef PG_VW
#undef PG_FP32_NV
#undef PG_TR
#undef PG_SFX
#undef PG_TARGET

#define PG_VW 8
#define PG_FP32_NV 1 /* 8 of the 16 ymm registers */
#define PG_TR 4
#define PG_SFX(x) pg_v3_##x
#define PG_TARGET __attribute__((target("avx2,fma")))
#include "gemm_kernels_body.h"
#undef PG_VW
#undef PG_FP32_NV
#undef PG_TR
#undef PG_SFX
#undef PG_TARGET
#endif

#define PG_VW 4
#define PG_FP32_NV 1
#define PG_TR 4
#define PG_SFX(x) pg_v1_##x
#define PG_TARGET
#include "gemm_kernels_body.h"
#undef PG_VW
#undef PG_FP32_NV
#undef PG_TR
#undef PG_SFX
#undef PG_TARGET

/* 3: AVX-512, 2: AVX2+FMA, 1: baseline.  PG_KERNEL_ISA=1/2/3 in the
 * environment lowers the choice (to test and time the other paths). */
static int isa_level(void)
{
    static int level = 0; /* benign race: every thread computes the same value */
    if (level == 0) {
        int l = 1;
#if defined(__x86_64__)
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
            l = 2;
        if (l == 2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
            __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl"))
            l = 3;
#endif
        const char *env = getenv("PG_KERNEL_ISA");
        if (env != NULL && env[0] >= '1' && env[0] <= '3' && env[0] - '0' < l)
            l = env[0] - '0';
        level = l;
    }
    return level;
}

const char *pg_kernel_isa_name(void)
{
    switch (isa_level()) {
    case 3:
        return "avx512";
    case 2:
        return "avx2";
    default:
        return "baseline";
    }
}

#if defined(__x86_64__)
#define PG_DISPATCH(fn, ...)                                                                                           \
    do {                                                                                                               \
        int l_ = isa_level();                                                                                          \
        if (l_ == 3)                                                                                                   \
            pg_v4_##fn(__VA_ARGS__);                                                                                   \
        else if (l_ == 2)                                                                                              \
            pg_v3_##fn(__VA_ARGS__);                                                                                   \
        else                                                                                                           \
            pg_v1_##fn(__VA_ARGS__);                                                                                   \
    } while (0)
#else
#define PG_DISPATCH(fn, ...) pg_v1_##fn(__VA_ARGS__)
#endif

void pg_kern_fp32(const float *av, const float *bv, int64_t Kp, const pg_kern_scaling *sc, float *out)
{
    PG_DISPATCH(fp32, av, bv, Kp, sc, out);
}

void pg_kern_exact(const float *av, const double *bvd, int64_t Kp, float *out)
{
    PG_DISPATCH(exact, av, bvd, Kp, out);
}

void pg_kern_exact_wide(const float *av, const double *bvd, int64_t Kp, const pg_kern_scaling *sc, int64_t chunk,
                        int unit, float *out)
{
    PG_DISPATCH(exact_wide, av, bvd, Kp, sc, chunk, unit, out);
}

void pg_kern_sm90(const float *av, const int8_t *ae, const float *bv, const int8_t *be, int64_t Kp,
                  const pg_kern_scaling *sc, float *out)
{
    PG_DISPATCH(sm90, av, ae, bv, be, Kp, sc, out);
}

void pg_kern_sm100(const float *av, const int8_t *ae, const float *bv, const int8_t *be, int64_t Kp,
                   const pg_kern_scaling *sc, float *out)
{
    PG_DISPATCH(sm100, av, ae, bv, be, Kp, sc, out);
}
