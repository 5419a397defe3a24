/* Vectorized inner kernels of the reference GEMM: SIMD over the PG_KW
 * columns of a tile (n innermost), PG_KR rows sharing each B load.  Portable
 * C that gcc auto-vectorizes (#pragma omp simd); on x86-64 with gcc each
 * kernel is also compiled for x86-64-v3 (AVX2+FMA) and x86-64-v4 (AVX-512)
 * and picked at load time (target_clones), so the library runs on any
 * x86-64 and is fast on the machines we have.
 *
 * This file is compiled with -ffp-contract=fast: every a*b here is exact
 * (E4M3 values have 4 significant bits), so fma(a, b, c) and a*b + c round
 * identically.
 *
 * Tensor-core kernels (sm90, sm100) implement the block rule of accum.c
 * with floats:
 *  - emax: the largest of 2^(ea+eb) = proxy(a)*proxy(b) over the block and
 *    of C's power of two (its exponent bits) -- a max of powers of two.
 *  - A term truncated to F fraction bits relative to 2^emax is
 *    trunc(value * 2^(F - emax)): value = significand * 2^e holds for
 *    subnormal operands too, value*2^(F-emax) is exact (a product of E4M3
 *    values has <= 8 significant bits, scaling by a power of two is exact)
 *    and |.| < 2^(F+2), and truncf() truncates toward zero.
 *  - sm90 (F = 13): every partial sum is an integer < 33 * 2^15 < 2^24, so
 *    the float sum is exact; keeping the top 14 significant bits of a float
 *    is clearing its 10 low mantissa bits (sign-magnitude: toward zero).
 *    sm100 (F = 25) sums in double (< 2^33) and keeps 24 bits.
 *  - The sum starts from +0, so an exact zero is +0 as in the rule.
 *  - Zero operands: the proxy 2^-60 instead of 2^-126.  A chain from C = 0
 *    only holds 0 or values >= 2^(-12-F) >= 2^-37, non-zero products have
 *    exponents >= -12, and a product with a zero operand has proxy <= 2^-52,
 *    so zeros decide emax only when every term is zero and the sum is +0
 *    whatever emax is.  emax is clamped to >= 2^-100 so the scale factors
 *    stay normal floats; again that only touches all-zero blocks.
 * The tests check these kernels against pg_dot (the literal rule) on every
 * family, including zeros, subnormals and NaN. */
#include <math.h>
#include <string.h>

#include "gemm_kernels.h"

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define PG_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define PG_CLONES
#endif

static inline uint32_t f2u(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static inline float u2f(uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

static inline uint64_t d2u(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static inline double u2d(uint64_t u)
{
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

PG_CLONES void pg_kern_fp32(const float *restrict av, const float *restrict bv, int64_t Kp, float *restrict out)
{
    float acc[PG_KR][PG_KW];
    for (int r = 0; r < PG_KR; r++)
        for (int j = 0; j < PG_KW; j++)
            acc[r][j] = 0.0f;
    for (int64_t k = 0; k < Kp; k++) {
        const float *b = bv + k * PG_KW;
        for (int r = 0; r < PG_KR; r++) {
            float a = av[r * Kp + k];
#pragma omp simd
            for (int j = 0; j < PG_KW; j++)
                acc[r][j] = acc[r][j] + a * b[j];
        }
    }
    memcpy(out, acc, sizeof acc);
}

/* Exact: products are multiples of 2^-18 below 2^17.6, so a double sum of
 * up to 2^16 of them is exact (< 2^34 < 2^(53-18)); longer sums go through
 * int64 in chunks.  One RNE rounding at the end (int64 -> float). */
#define PG_EXACT_CHUNK 65536

PG_CLONES void pg_kern_exact(const float *restrict av, const double *restrict bvd, int64_t Kp, float *restrict out)
{
    int64_t total[PG_KR][PG_KW];
    for (int r = 0; r < PG_KR; r++)
        for (int j = 0; j < PG_KW; j++)
            total[r][j] = 0;
    for (int64_t k0 = 0; k0 < Kp; k0 += PG_EXACT_CHUNK) {
        int64_t k1 = Kp - k0 < PG_EXACT_CHUNK ? Kp : k0 + PG_EXACT_CHUNK;
        double acc[PG_KR][PG_KW];
        for (int r = 0; r < PG_KR; r++)
            for (int j = 0; j < PG_KW; j++)
                acc[r][j] = 0.0;
        for (int64_t k = k0; k < k1; k++) {
            const double *b = bvd + k * PG_KW;
            for (int r = 0; r < PG_KR; r++) {
                double a = (double)av[r * Kp + k];
#pragma omp simd
                for (int j = 0; j < PG_KW; j++)
                    acc[r][j] = acc[r][j] + a * b[j];
            }
        }
        for (int r = 0; r < PG_KR; r++)
            for (int j = 0; j < PG_KW; j++)
                total[r][j] += (int64_t)(acc[r][j] * 0x1p18); /* exact integer */
    }
    for (int r = 0; r < PG_KR; r++)
        for (int j = 0; j < PG_KW; j++)
            out[r * PG_KW + j] = (float)total[r][j] * 0x1p-18f;
}

/* emax of one block for each (row, column): max over the block's 32 k of
 * proxy products, starting from C's power of two and the 2^-100 floor. */
static inline void block_emax(const float *restrict ap, const float *restrict bp, int64_t Kp, int64_t k0,
                              const float c[PG_KR][PG_KW], float mx[PG_KR][PG_KW])
{
    for (int r = 0; r < PG_KR; r++) {
#pragma omp simd
        for (int j = 0; j < PG_KW; j++) {
            float pc = u2f(f2u(c[r][j]) & 0x7F800000u);
            mx[r][j] = pc > 0x1p-100f ? pc : 0x1p-100f;
        }
    }
    for (int64_t k = k0; k < k0 + 32; k++) {
        const float *b = bp + k * PG_KW;
        for (int r = 0; r < PG_KR; r++) {
            float a = ap[r * Kp + k];
#pragma omp simd
            for (int j = 0; j < PG_KW; j++) {
                float p = a * b[j];
                mx[r][j] = p > mx[r][j] ? p : mx[r][j];
            }
        }
    }
}

PG_CLONES void pg_kern_sm90(const float *restrict av, const float *restrict ap, const float *restrict bv,
                            const float *restrict bp, int64_t Kp, int promote_blocks, float *restrict out)
{
    float c[PG_KR][PG_KW], promoted[PG_KR][PG_KW];
    for (int r = 0; r < PG_KR; r++)
        for (int j = 0; j < PG_KW; j++)
            c[r][j] = promoted[r][j] = 0.0f;
    int64_t nblocks = Kp / 32;
    for (int64_t kb = 0; kb < nblocks; kb++) {
        if (promote_blocks > 0 && kb > 0 && kb % promote_blocks == 0) {
            for (int r = 0; r < PG_KR; r++)
                for (int j = 0; j < PG_KW; j++) {
                    promoted[r][j] = promoted[r][j] + c[r][j]; /* fp32 RNE add */
                    c[r][j] = 0.0f;
                }
        }
        float mx[PG_KR][PG_KW], scale[PG_KR][PG_KW], s[PG_KR][PG_KW];
        block_emax(ap, bp, Kp, kb * 32, c, mx);
        for (int r = 0; r < PG_KR; r++) {
#pragma omp simd
            for (int j = 0; j < PG_KW; j++) {
                /* 2^(13 - e) from the bits of 2^e: (13 - e + 127) << 23 */
                scale[r][j] = u2f((267u << 23) - f2u(mx[r][j]));
                s[r][j] = 0.0f + truncf(c[r][j] * scale[r][j]);
            }
        }
        for (int64_t k = kb * 32; k < kb * 32 + 32; k++) {
            const float *b = bv + k * PG_KW;
            for (int r = 0; r < PG_KR; r++) {
                float a = av[r * Kp + k];
#pragma omp simd
                for (int j = 0; j < PG_KW; j++)
                    s[r][j] = s[r][j] + truncf(a * b[j] * scale[r][j]);
            }
        }
        for (int r = 0; r < PG_KR; r++) {
#pragma omp simd
            for (int j = 0; j < PG_KW; j++) {
                float kept = u2f(f2u(s[r][j]) & 0xFFFFFC00u);  /* 14 significant bits */
                float unit = u2f(f2u(mx[r][j]) - (13u << 23)); /* 2^(e - 13) */
                c[r][j] = kept * unit;
            }
        }
    }
    for (int r = 0; r < PG_KR; r++)
        for (int j = 0; j < PG_KW; j++)
            out[r * PG_KW + j] = promote_blocks > 0 ? promoted[r][j] + c[r][j] : c[r][j];
}

PG_CLONES void pg_kern_sm100(const float *restrict av, const float *restrict ap, const float *restrict bv,
                             const float *restrict bp, int64_t Kp, float *restrict out)
{
    float c[PG_KR][PG_KW];
    for (int r = 0; r < PG_KR; r++)
        for (int j = 0; j < PG_KW; j++)
            c[r][j] = 0.0f;
    int64_t nblocks = Kp / 32;
    for (int64_t kb = 0; kb < nblocks; kb++) {
        float mx[PG_KR][PG_KW], scale[PG_KR][PG_KW];
        double s[PG_KR][PG_KW];
        block_emax(ap, bp, Kp, kb * 32, c, mx);
        for (int r = 0; r < PG_KR; r++) {
#pragma omp simd
            for (int j = 0; j < PG_KW; j++) {
                /* 2^(25 - e): (25 - e + 127) << 23 */
                scale[r][j] = u2f((279u << 23) - f2u(mx[r][j]));
                s[r][j] = 0.0 + (double)truncf(c[r][j] * scale[r][j]);
            }
        }
        for (int64_t k = kb * 32; k < kb * 32 + 32; k++) {
            const float *b = bv + k * PG_KW;
            for (int r = 0; r < PG_KR; r++) {
                float a = av[r * Kp + k];
#pragma omp simd
                for (int j = 0; j < PG_KW; j++)
                    s[r][j] = s[r][j] + (double)truncf(a * b[j] * scale[r][j]);
            }
        }
        for (int r = 0; r < PG_KR; r++) {
#pragma omp simd
            for (int j = 0; j < PG_KW; j++) {
                /* keep 24 significant bits of the double: clear 29 low bits */
                double kept = u2d(d2u(s[r][j]) & ~((UINT64_C(1) << 29) - 1));
                float unit = u2f(f2u(mx[r][j]) - (25u << 23)); /* 2^(e - 25) */
                c[r][j] = (float)kept * unit;
            }
        }
    }
    memcpy(out, c, sizeof c);
}
