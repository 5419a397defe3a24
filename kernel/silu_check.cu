/* The device side of the exhaustive silu check (silu_check.h): each thread
 * evaluates pg_silu_f32 (the kernel's branch-free silu) on one fp32 bit
 * pattern, stores it for the host's comparison with the CPU reference, and
 * compares on the device (a) with the formulation it replaced (two
 * __fdiv_rn behind branches, silu_fp32_old.h) and (b) its division
 * pg_silu_div with __fdiv_rn on the operands silu gives it. */
#include "silu_check.h"

#include "silu_fp32.h"
#include "tests/silu_fp32_old.h"

static __device__ void note(unsigned long long *count, unsigned long long *first, uint32_t x_bits)
{
    atomicAdd(count, 1ull);
    atomicMin(first, (unsigned long long)x_bits);
}

__global__ void pg_silu_check_kernel(uint32_t first, uint32_t count, float *out, pg_silu_check_counts *counts)
{
    const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    const uint32_t bits = first + i;
    const float x = __uint_as_float(bits);
    const float y = pg_silu_f32(x);
    out[i] = y;
    if (__float_as_uint(y) != __float_as_uint(pg_silu_f32_old(x)))
        note(&counts->old_differ, &counts->first_old, bits);
    /* steps 1-8 of silu_fp32.h's sequence up to the division (on +-0 for
     * the special inputs, as pg_silu_f32 does) */
    const float xs = (bits & 0x7FFFFFFFu) > PG_SILU_MAX_ABS_BITS ? __uint_as_float(bits & 0x80000000u) : x;
    int n;
    const float p = pg_silu_exp_parts(fabsf(xs), &n);
    const float d = pg_sf_add(1.0f, pg_silu_scale(p, n));
    const float num = (bits >> 31) ? pg_sf_mul(xs, p) : xs;
    if (__float_as_uint(pg_silu_div(num, d)) != __float_as_uint(__fdiv_rn(num, d)))
        note(&counts->div_differ, &counts->first_div, bits);
}

extern "C" cudaError_t pg_silu_check_launch(uint32_t first, uint32_t count, float *out, pg_silu_check_counts *counts)
{
    const uint32_t threads = 256;
    pg_silu_check_kernel<<<(count + threads - 1) / threads, threads>>>(first, count, out, counts);
    return cudaGetLastError();
}
