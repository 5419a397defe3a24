/* The small kernels beside the GEMM: the SM-clock probe, the "separate add
 * kernel" baseline, the stream floor (A read once, D written once) and the
 * poison counter, with their launches. */
#include "gemm_kernel.h"
#include "ptx.cuh"

__global__ void pg_clock_probe(int64_t cycles, int64_t *out)
{
    if (threadIdx.x != 0 || blockIdx.x != 0)
        return;
    const int64_t c0 = clock64(), g0 = read_globaltimer();
    spin_cycles(cycles);
    const int64_t c1 = clock64(), g1 = read_globaltimer();
    out[0] = c0;
    out[1] = g0;
    out[2] = c1;
    out[3] = g1;
}

/* 8 bf16 per thread (16-byte loads); N % 8 == 0 is checked by the host. */
__global__ void pg_add_combined(uint16_t *d, const uint16_t *combined, int64_t M, int64_t N, int64_t P)
{
    const int64_t vecs = M * N / 8;
    for (int64_t v = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; v < vecs; v += (int64_t)gridDim.x * blockDim.x) {
        const int64_t e = v * 8, m = e / N, n = e % N;
        uint4 x = *(const uint4 *)(d + e);
        const uint4 c = *(const uint4 *)(combined + (m % P) * N + n);
        asm("add.rn.bf16x2 %0, %0, %1;" : "+r"(x.x) : "r"(c.x));
        asm("add.rn.bf16x2 %0, %0, %1;" : "+r"(x.y) : "r"(c.y));
        asm("add.rn.bf16x2 %0, %0, %1;" : "+r"(x.z) : "r"(c.z));
        asm("add.rn.bf16x2 %0, %0, %1;" : "+r"(x.w) : "r"(c.w));
        *(uint4 *)(d + e) = x;
    }
}

/* Chunk c of D's row m copies chunk c * a_chunks / d_chunks of A's row m:
 * every A byte is read (neighbouring threads share a chunk: one request) and
 * every D byte written, so neither side can be elided. */
__global__ void pg_stream_a_to_d(const uint4 *a, uint4 *d, int64_t M, int64_t a_chunks, int64_t d_chunks)
{
    const int64_t total = M * d_chunks;
    for (int64_t v = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; v < total; v += (int64_t)gridDim.x * blockDim.x) {
        const int64_t m = v / d_chunks, c = v % d_chunks;
        d[v] = a[m * a_chunks + c * a_chunks / d_chunks];
    }
}

extern "C" cudaError_t pg_stream_a_to_d_launch(const uint8_t *a, uint16_t *d, int64_t M, int64_t K, int64_t N,
                                               cudaStream_t stream)
{
    pg_stream_a_to_d<<<132 * 8, 256, 0, stream>>>((const uint4 *)a, (uint4 *)d, M, K / 16, N / 8);
    return cudaGetLastError();
}

__global__ void pg_count_equal(const uint16_t *x, int64_t n, uint16_t value, unsigned long long *count)
{
    unsigned long long mine = 0;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        mine += x[i] == value;
    if (mine)
        atomicAdd(count, mine);
}

extern "C" cudaError_t pg_count_equal_launch(const uint16_t *x, int64_t n, uint16_t value, unsigned long long *count,
                                             cudaStream_t stream)
{
    pg_count_equal<<<132 * 4, 256, 0, stream>>>(x, n, value, count);
    return cudaGetLastError();
}

extern "C" cudaError_t pg_clock_probe_launch(int64_t cycles, int64_t *out, cudaStream_t stream)
{
    pg_clock_probe<<<1, 32, 0, stream>>>(cycles, out);
    return cudaGetLastError();
}

extern "C" cudaError_t pg_add_combined_launch(uint16_t *d, const uint16_t *combined, int64_t M, int64_t N, int64_t P,
                                              cudaStream_t stream)
{
    pg_add_combined<<<132 * 8, 256, 0, stream>>>(d, combined, M, N, P);
    return cudaGetLastError();
}
