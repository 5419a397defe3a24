/* ws_ring's kernel (ws_ring.h).  Compiled twice: -DPGTRACE_ENABLED=0
 * -DWS_RING_LAUNCH=ws_ring_launch_plain, and -DPGTRACE_ENABLED=1
 * -DWS_RING_LAUNCH=ws_ring_launch_traced; the source is the same, the kit
 * compiles to nothing in the first.
 *
 * Ring protocol, stage s = i % 2 of the CTA's i-th tile, round r = i / 2:
 *   full[s]  (count 1): the producer's arrive.expect_tx(tile bytes); the
 *            bulk copies complete the transaction bytes;
 *   empty[s] (count 4): lane 0 of each consumer warp, after its last
 *            shared-memory read of the stage.
 * The producer waits empty[s] with parity (r & 1) ^ 1 (passes at once in
 * round 0), the consumers full[s] with parity r & 1. */
#include <stdint.h>

#include "pgtrace.cuh"
#include "ws_ring.h"

#ifndef WS_RING_LAUNCH
#error "define WS_RING_LAUNCH (ws_ring_launch_plain or ws_ring_launch_traced)"
#endif
#define WS_KERNEL_NAME WS_CAT(WS_RING_LAUNCH, _kernel)
#define WS_CAT(a, b) WS_CAT2(a, b)
#define WS_CAT2(a, b) a##b

static __device__ __forceinline__ uint32_t smem_addr(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

static __device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}

static __device__ __forceinline__ void mbar_expect_tx(uint32_t bar, uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}

static __device__ __forceinline__ void mbar_arrive(uint32_t bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}

static __device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity)
{
    uint32_t done;
    do {
        asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(done)
                     : "r"(bar), "r"(parity)
                     : "memory");
    } while (!done);
}

/* 1-D bulk copy global -> shared, completing `bytes` on the mbarrier. */
static __device__ __forceinline__ void bulk_load(uint32_t dst, const void *src, uint32_t bytes, uint32_t bar)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 ::"r"(dst), "l"((uint64_t)src), "r"(bytes), "r"(bar)
                 : "memory");
}

/* The what-if probe: spin a number of SM cycles (present in both builds). */
static __device__ __forceinline__ void spin_cycles(int64_t cycles)
{
    const int64_t t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
}

static __device__ __forceinline__ float warp_max(float v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

static __device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

static __device__ void produce(const ws_ring_args &a, const pgtrace_dev &tr, float *ring, uint32_t bar_full,
                               uint32_t bar_empty, int n_tiles)
{
    const uint32_t row_bytes = (uint32_t)a.cols * sizeof(float);
    for (int tile = blockIdx.x, i = 0; tile < n_tiles; tile += gridDim.x, i++) {
        const int s = i % WS_STAGES;
        const uint32_t round = (uint32_t)(i / WS_STAGES);
        const int64_t t0 = pgtrace_clock();
        mbar_wait(bar_empty + 8 * s, (round & 1) ^ 1);
        const int64_t t1 = pgtrace_clock();
        mbar_expect_tx(bar_full + 8 * s, row_bytes * WS_TILE_ROWS);
        const float *src = a.x + (int64_t)tile * WS_TILE_ROWS * a.cols;
        float *dst = ring + (size_t)s * WS_TILE_ROWS * a.cols;
        for (int r = 0; r < WS_TILE_ROWS; r++)
            bulk_load(smem_addr(dst + (size_t)r * a.cols), src + (int64_t)r * a.cols, row_bytes, bar_full + 8 * s);
        const int64_t t2 = pgtrace_clock();
        const pgtrace_event ev[2] = {pgtrace_ev(WS_ROLE_PRODUCER, 0, tile, WS_PH_PRODUCER_WAIT, t0, t1),
                                     pgtrace_ev(WS_ROLE_PRODUCER, 0, tile, WS_PH_ISSUE, t1, t2)};
        pgtrace_put_n(tr, ev, 2);
    }
}

/* Max, then exp(x - max) written back in place, and their sum. */
static __device__ __forceinline__ float softmax_row(float4 *row, int vecs, int lane)
{
    float m = -INFINITY;
    for (int v = lane; v < vecs; v += 32) {
        const float4 x = row[v];
        m = fmaxf(m, fmaxf(fmaxf(x.x, x.y), fmaxf(x.z, x.w)));
    }
    m = warp_max(m);
    float sum = 0.0f;
    for (int v = lane; v < vecs; v += 32) {
        float4 x = row[v];
        x.x = expf(x.x - m);
        x.y = expf(x.y - m);
        x.z = expf(x.z - m);
        x.w = expf(x.w - m);
        row[v] = x;
        sum += (x.x + x.y) + (x.z + x.w);
    }
    return warp_sum(sum);
}

static __device__ void consume(const ws_ring_args &a, const pgtrace_dev &tr, float *ring, uint32_t bar_full,
                               uint32_t bar_empty, int n_tiles, int w, int lane)
{
    const int vecs = a.cols / 4;
    for (int tile = blockIdx.x, i = 0; tile < n_tiles; tile += gridDim.x, i++) {
        const int s = i % WS_STAGES;
        const uint32_t round = (uint32_t)(i / WS_STAGES);
        const int64_t t0 = pgtrace_clock();
        mbar_wait(bar_full + 8 * s, round & 1);
        const int64_t t1 = pgtrace_clock();
        float4 *row = reinterpret_cast<float4 *>(ring + ((size_t)s * WS_TILE_ROWS + w) * a.cols);
        const float inv = 1.0f / softmax_row(row, vecs, lane);
        if (a.softmax_delay > 0)
            spin_cycles(a.softmax_delay);
        const int64_t t2 = pgtrace_clock();
        float4 *out = reinterpret_cast<float4 *>(a.y + ((int64_t)tile * WS_TILE_ROWS + w) * a.cols);
        for (int v = lane; v < vecs; v += 32) {
            float4 e = row[v];
            e.x *= inv;
            e.y *= inv;
            e.z *= inv;
            e.w *= inv;
            __stcs(out + v, e); /* streaming: y is not read again */
        }
        /* the softmax wrote the stage (generic proxy); the next bulk copy
         * into it is the async proxy: order them before freeing the stage */
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        __syncwarp();
        if (lane == 0)
            mbar_arrive(bar_empty + 8 * s);
        const int64_t t3 = pgtrace_clock();
        if (lane == 0) {
            const pgtrace_event ev[3] = {pgtrace_ev(WS_ROLE_CONSUMER, w, tile, WS_PH_LOAD_WAIT, t0, t1),
                                         pgtrace_ev(WS_ROLE_CONSUMER, w, tile, WS_PH_SOFTMAX, t1, t2),
                                         pgtrace_ev(WS_ROLE_CONSUMER, w, tile, WS_PH_STORE, t2, t3)};
            pgtrace_put_n(tr, ev, 3);
        }
    }
}

__global__ void __launch_bounds__(WS_THREADS, 1) WS_KERNEL_NAME(const ws_ring_args a, const pgtrace_dev tr)
{
    extern __shared__ __align__(128) uint8_t smem[];
    float *ring = reinterpret_cast<float *>(smem);
    const uint32_t bar_full = smem_addr(smem + (size_t)WS_STAGES * WS_TILE_ROWS * a.cols * sizeof(float));
    const uint32_t bar_empty = bar_full + 8 * WS_STAGES;
    const int n_tiles = a.rows / WS_TILE_ROWS;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (threadIdx.x == 0) {
        pgtrace_cta_begin(tr);
        for (int s = 0; s < WS_STAGES; s++) {
            mbar_init(bar_full + 8 * s, 1);
            mbar_init(bar_empty + 8 * s, WS_TILE_ROWS);
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (warp == 0) {
        if (lane == 0)
            produce(a, tr, ring, bar_full, bar_empty, n_tiles);
        __syncwarp(); /* the producer warp reconverges before the CTA barrier */
    } else {
        consume(a, tr, ring, bar_full, bar_empty, n_tiles, warp - 1, lane);
    }
    __syncthreads();
    if (threadIdx.x == 0)
        pgtrace_cta_end(tr);
}

extern "C" cudaError_t WS_RING_LAUNCH(const ws_ring_args *a, pgtrace_dev trace, int grid, cudaStream_t stream)
{
    const size_t smem = ws_ring_smem_bytes(a->cols);
    cudaError_t e = cudaFuncSetAttribute(WS_KERNEL_NAME, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (e != cudaSuccess)
        return e;
    WS_KERNEL_NAME<<<grid, WS_THREADS, smem, stream>>>(*a, trace);
    return cudaGetLastError();
}
