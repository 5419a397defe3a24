/* The oracle for silu_fp32.h's branch-free pg_silu_f32: the formulation it
 * replaced (docs/experiments.md D3), kept here only to prove that the
 * restructuring changed no bit.  Branches on the sign and the special
 * inputs and divides twice (x / d or (x p) / d), through pg_sf_div
 * (__fdiv_rn on the device, '/' on the host).  Used by
 * reference/tests/test_silu_old.c (host, all 2^32 inputs) and
 * kernel/silu_check.cu (device, all 2^32 inputs). */
#ifndef PG_SILU_FP32_OLD_H
#define PG_SILU_FP32_OLD_H

#include "silu_fp32.h"

static inline PG_HOSTDEV float pg_silu_f32_old(float x)
{
    uint32_t bits = pg_sf_bits(x);
    uint32_t abs_bits = bits & 0x7FFFFFFFu;
    if (abs_bits > 0x7F800000u)
        return pg_sf_from_bits(0x7FFFFFFFu);
    float a = pg_sf_from_bits(abs_bits);
    int negative = (bits >> 31) != 0;
    if (a > PG_SILU_MAX_ABS)
        return negative ? -0.0f : x;
    int n;
    float p = pg_silu_exp_parts(a, &n);
    float d = pg_sf_add(1.0f, pg_silu_scale(p, n));
    if (!negative)
        return pg_sf_div(x, d);
    float s = pg_sf_div(pg_sf_mul(x, p), d);
    return pg_silu_scale(s, n);
}

#endif
