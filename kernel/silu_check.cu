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
    /* the division's operands as pg_silu_f32 forms them */
    float d;
    int n;
    const float num = pg_silu_division_operands(x, &d, &n);
    if (__float_as_uint(pg_silu_div(num, d)) != __float_as_uint(__fdiv_rn(num, d)))
        note(&counts->div_differ, &counts->first_div, bits);
}

extern "C" cudaError_t pg_silu_check_launch(uint32_t first, uint32_t count, float *out, pg_silu_check_counts *counts)
{
    const uint32_t threads = 256;
    pg_silu_check_kernel<<<(count + threads - 1) / threads, threads>>>(first, count, out, counts);
    return cudaGetLastError();
}
