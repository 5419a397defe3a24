/* PTX primitives for sm_90a, one inline wrapper per instruction (or per
 * fixed pair): mbarriers, TMA loads/stores/prefetches, bulk-group waits,
 * proxy fences, named and cluster barriers, wgmma fences, setmaxnreg,
 * shared-memory access, and the special registers.  No policy here: which
 * barrier, which stage and when is the kernels' business (ws_skeleton.cuh
 * and the variants).  The trace build reads its clocks through the tracing
 * kit (traces/kit/pgtrace.cuh, via gemm_trace.cuh); the reads below serve
 * the clock probe and the model's delay spins. */
#ifndef PG_PTX_CUH
#define PG_PTX_CUH

#include <cuda.h>
#include <stdint.h>

static __device__ __forceinline__ uint32_t smem_addr(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

/* ---------------------------------------------------------------- mbarrier */
static __device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}

/* Make the initialised barriers visible to the cluster (and the async proxy). */
static __device__ __forceinline__ void mbar_init_fence(void)
{
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
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

/* Arrive on the mbarrier at the same offset in CTA `rank` of the cluster. */
static __device__ __forceinline__ void mbar_arrive_cluster(uint32_t bar, uint32_t rank)
{
    uint32_t remote;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(bar), "r"(rank));
    asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];" ::"r"(remote) : "memory");
}

/* ---------------------------------------------------------------- TMA */
static __device__ __forceinline__ void tma_prefetch_descriptor(const CUtensorMap *map)
{
    asm volatile("prefetch.tensormap [%0];" ::"l"((uint64_t)map) : "memory");
}

static __device__ __forceinline__ void tma_load_2d(uint32_t dst, const CUtensorMap *map, int32_t c0, int32_t c1, uint32_t bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 ::"r"(dst), "l"((uint64_t)map), "r"(c0), "r"(c1), "r"(bar)
                 : "memory");
}

/* A hint: bring a box of the tensor into L2 (no smem, no barrier). */
static __device__ __forceinline__ void tma_prefetch_l2_2d(const CUtensorMap *map, int32_t c0, int32_t c1)
{
    asm volatile("cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%0, {%1, %2}];" ::"l"((uint64_t)map), "r"(c0), "r"(c1)
                 : "memory");
}

/* The same box lands at the same smem offset in every CTA of cta_mask and
 * completes bytes on the mbarrier at the same offset in each. */
static __device__ __forceinline__ void tma_load_2d_multicast(uint32_t dst, const CUtensorMap *map, int32_t c0, int32_t c1,
                                                             uint32_t bar, uint16_t cta_mask)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                 " [%0], [%1, {%2, %3}], [%4], %5;"
                 ::"r"(dst), "l"((uint64_t)map), "r"(c0), "r"(c1), "r"(bar), "h"(cta_mask)
                 : "memory");
}

static __device__ __forceinline__ void tma_store_2d(const CUtensorMap *map, int32_t c0, int32_t c1, uint32_t src)
{
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];"
                 ::"l"((uint64_t)map), "r"(c0), "r"(c1), "r"(src)
                 : "memory");
}

#ifdef PG_DIAG_STORE_EVICT_FIRST
/* diagnostic builds only (docs/experiments.md M59): the store with an L2
 * evict-first policy (D is written once and never read back) */
static __device__ __forceinline__ void tma_store_2d_evict_first(const CUtensorMap *map, int32_t c0, int32_t c1,
                                                                uint32_t src)
{
    uint64_t policy;
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group.L2::cache_hint [%0, {%1, %2}], [%3], %4;"
                 ::"l"((uint64_t)map), "r"(c0), "r"(c1), "r"(src), "l"(policy)
                 : "memory");
}
#endif

static __device__ __forceinline__ void bulk_commit(void) { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }
/* The staging buffer may be overwritten once the stores have read it. */
static __device__ __forceinline__ void bulk_wait_read_all(void) { asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory"); }
static __device__ __forceinline__ void bulk_wait_all(void) { asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); }
/* Generic-proxy smem writes become visible to the async proxy (TMA store). */
static __device__ __forceinline__ void fence_proxy_async(void) { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }

/* ---------------------------------------------------------------- barriers */
static __device__ __forceinline__ void named_barrier_sync(uint32_t id, uint32_t threads)
{
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

/* This CTA's rank in its cluster of CL CTAs (0 without clusters). */
template <int CL> static __device__ __forceinline__ uint32_t cluster_rank(void)
{
    if (CL == 1)
        return 0;
    uint32_t r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}

/* All threads of the cluster (of the CTA when CL == 1), converged warps. */
template <int CL> static __device__ __forceinline__ void cluster_sync(void)
{
    if (CL == 1) {
        __syncthreads();
        return;
    }
    asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

/* The same for threads that may arrive diverged (not .aligned); nothing
 * without clusters. */
template <int CL> static __device__ __forceinline__ void cluster_sync_diverged(void)
{
    if (CL > 1)
        asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;" ::: "memory");
}

/* ---------------------------------------------------------------- wgmma, registers */
static __device__ __forceinline__ void wgmma_fence(void) { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
static __device__ __forceinline__ void wgmma_commit(void) { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int N> static __device__ __forceinline__ void wgmma_wait(void)
{
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}

/* Keep the compiler from moving accumulator reads/writes across wgmma issue/wait. */
template <int NACC> static __device__ __forceinline__ void fence_acc(float *acc)
{
#pragma unroll
    for (int i = 0; i < NACC; i++)
        asm volatile("" : "+f"(acc[i])::"memory");
}

/* Warpgroup-wide register budget: give registers away / take them. */
template <int REGS> static __device__ __forceinline__ void setmaxnreg_dec(void)
{
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(REGS));
}
template <int REGS> static __device__ __forceinline__ void setmaxnreg_inc(void)
{
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(REGS));
}

/* Shared-memory matrix descriptor, K-major operand in `row_bytes`-swizzled
 * smem (128: 128B swizzle, 64: 64B): 8-row core-matrix groups 8 * row_bytes
 * apart (SBO); LBO is unused for these layouts; k32 steps inside a row
 * advance the start address. */
static __device__ __forceinline__ uint64_t smem_desc_rows(uint32_t addr, uint32_t row_bytes)
{
    uint64_t d = (uint64_t)((addr & 0x3FFFF) >> 4);
    d |= (uint64_t)1 << 16;
    d |= (uint64_t)((8 * row_bytes) >> 4) << 32;
    d |= (uint64_t)(row_bytes == 128 ? 1 : 2) << 62;
    return d;
}

/* ---------------------------------------------------------------- shared memory, epilogue math */
static __device__ __forceinline__ uint32_t ld_shared_u32(uint32_t a)
{
    uint32_t v;
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory");
    return v;
}
static __device__ __forceinline__ void st_shared_u32(uint32_t a, uint32_t v)
{
    asm volatile("st.shared.u32 [%0], %1;" ::"r"(a), "r"(v) : "memory");
}

/* bf16_rn(bf16_rn(acc_lo, acc_hi) + c): low half = lower column. */
static __device__ __forceinline__ uint32_t epilogue_pair(float lo, float hi, uint32_t c)
{
    uint32_t v, d;
    asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(v) : "f"(hi), "f"(lo));
    asm("add.rn.bf16x2 %0, %1, %2;" : "=r"(d) : "r"(v), "r"(c));
    return d;
}

/* ---------------------------------------------------------------- clocks */
static __device__ __forceinline__ int64_t read_globaltimer(void)
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return (int64_t)t;
}

/* The model probes: spin a calibrated number of SM cycles. */
static __device__ __forceinline__ void spin_cycles(int64_t cycles)
{
    const int64_t t0 = clock64();
    while (clock64() - t0 < cycles) {
#ifdef PG_DELAY_SLEEP
        /* diagnostic builds only (docs/experiments.md M49): the warp leaves
         * the scheduler between clock reads instead of issuing every cycle */
        __nanosleep(64);
#endif
    }
}

#endif
