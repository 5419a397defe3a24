/* The elementwise half of the unfused SwiGLU baseline (dual_baselines.c):
 * c = cvt(silu(d1) * d2) with d1, d2 bf16 and c bf16 or fp16, written the
 * way a user writes it (silu = x / (1 + __expf(-x)) in fp32, one rounding
 * at the end): a speed baseline, not a numerics one.  Also the one-off
 * transpose of scale_a into cuBLASLt's M-major VEC128 layout. */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

#include "dual_baselines.h"

__device__ __forceinline__ float silu_mul(uint16_t a_bits, uint16_t b_bits)
{
    const float x = __bfloat162float(__ushort_as_bfloat16(a_bits));
    const float y = __bfloat162float(__ushort_as_bfloat16(b_bits));
    return x / (1.0f + __expf(-x)) * y;
}

template <bool FP16> __device__ __forceinline__ uint16_t to_out(float v)
{
    if (FP16)
        return __half_as_ushort(__float2half_rn(v));
    return __bfloat16_as_ushort(__float2bfloat16_rn(v));
}

/* 8 elements per thread through 16-byte loads and stores for the whole
 * vectors (n / 8 of them; the buffers are cudaMalloc'd, so aligned), then
 * the n % 8 tail element by element. */
template <bool FP16> __global__ void pg_dual_silu_mul(const uint4 *d1, const uint4 *d2, uint4 *c, int64_t n)
{
    const int64_t vecs = n / 8, stride = (int64_t)gridDim.x * blockDim.x;
    const int64_t first = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    for (int64_t v = first; v < vecs; v += stride) {
        const uint4 a = d1[v], b = d2[v];
        const uint32_t aw[4] = {a.x, a.y, a.z, a.w}, bw[4] = {b.x, b.y, b.z, b.w};
        uint32_t cw[4];
#pragma unroll
        for (int i = 0; i < 4; i++) {
            const uint16_t lo = to_out<FP16>(silu_mul((uint16_t)aw[i], (uint16_t)bw[i]));
            const uint16_t hi = to_out<FP16>(silu_mul((uint16_t)(aw[i] >> 16), (uint16_t)(bw[i] >> 16)));
            cw[i] = (uint32_t)lo | (uint32_t)hi << 16;
        }
        c[v] = make_uint4(cw[0], cw[1], cw[2], cw[3]);
    }
    const uint16_t *a16 = (const uint16_t *)d1, *b16 = (const uint16_t *)d2;
    uint16_t *c16 = (uint16_t *)c;
    for (int64_t e = vecs * 8 + first; e < n; e += stride)
        c16[e] = to_out<FP16>(silu_mul(a16[e], b16[e]));
}

__global__ void pg_dual_transpose_scales(const float *src, float *dst, int64_t G, int64_t M, int64_t KB)
{
    const int64_t total = G * M * KB;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < total; i += (int64_t)gridDim.x * blockDim.x) {
        const int64_t g = i / (M * KB), r = i % (M * KB), m = r / KB, kb = r % KB;
        dst[g * KB * M + kb * M + m] = src[i];
    }
}

static int grid_for(int64_t work)
{
    const int64_t blocks = (work + 255) / 256;
    return blocks < 132 * 8 ? (int)(blocks > 0 ? blocks : 1) : 132 * 8;
}

extern "C" cudaError_t pg_dual_silu_mul_launch(const uint16_t *d1, const uint16_t *d2, void *c, int64_t n,
                                               int fp16_out, cudaStream_t stream)
{
    const int grid = grid_for(n / 8 > 0 ? n / 8 : n);
    if (fp16_out)
        pg_dual_silu_mul<true><<<grid, 256, 0, stream>>>((const uint4 *)d1, (const uint4 *)d2, (uint4 *)c, n);
    else
        pg_dual_silu_mul<false><<<grid, 256, 0, stream>>>((const uint4 *)d1, (const uint4 *)d2, (uint4 *)c, n);
    return cudaGetLastError();
}

extern "C" cudaError_t pg_dual_transpose_scales_launch(const float *src, float *dst, int64_t G, int64_t M, int64_t KB,
                                                       cudaStream_t stream)
{
    pg_dual_transpose_scales<<<grid_for(G * M * KB), 256, 0, stream>>>(src, dst, G, M, KB);
    return cudaGetLastError();
}
