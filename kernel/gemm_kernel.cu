/* The fused FP8 GEMM for Hopper (sm_90a):
 *     D[m, n] = bf16_rn( bf16_rn(sum_k A[m,k] B[n,k]) + combined[m mod P, n] )
 *
 * Persistent grid (one CTA per SM), 384 threads in three warpgroups:
 *   warpgroup 0: one thread issues TMA loads of A (64 x 128) and B (256 x 128)
 *                into a PG_STAGES-deep ring guarded by full/empty mbarriers;
 *   warpgroups 1, 2: consumers in ping-pong.  The CTA's tiles alternate
 *                between them; an order barrier lets only one run its wgmma
 *                mainloop at a time, so one warpgroup's epilogue overlaps the
 *                other's mainloop.
 * Accumulation: wgmma m64n256k32 e4m3 x e4m3 -> f32, chained over all of K
 * without promotion, so the bits are the reference's `sm90` mode.
 * Epilogue: the combined rows for the tile are TMA-loaded (one box at row
 * m0 mod P of a table replicated so that m0 mod P + 64 rows stay inside) into
 * the warpgroup's 128B-swizzled staging buffer; each thread converts its
 * accumulators with cvt.rn.bf16x2.f32, adds its combined pair with
 * add.rn.bf16x2 and writes the result back to the same smem word; then one
 * thread TMA-stores the tile (rows past M are clipped by the TMA unit).
 * Clusters of two CTAs: the two work on tiles with the same columns and
 * neighbouring 64-row blocks at the same time; each producer loads its own A
 * block and one half (128 rows) of the B tile, multicast into both CTAs, so
 * B's L2-to-SM traffic is halved.  A stage is refilled only when the
 * consumers of both CTAs have released it (8 arrivals on each empty barrier).
 * Tile order: pair q covers row blocks 2*(q / tiles_n) + {0, 1} and columns
 * (q % tiles_n) * 256; cluster c takes q = c + i * clusters, so the tiles_n
 * column tiles of one A block run at the same time on neighbouring SMs and
 * read that block from L2 after its first load.  With an odd number of row
 * blocks the last pair's second block lies past M: TMA reads zeros there and
 * clips the stores, so both CTAs keep the same schedule.
 * Constraints (checked by the host): N % 256 == 0, K % PG_TILE_K == 0.
 * Compile-time variants (-DPG_...; measured in docs/experiments.md "## kernel",
 * all bit-exact, the defaults the fastest): PG_CLUSTER 1|2, PG_STAGES,
 * PG_TILE_K 128|64, PG_EARLY_ORDER, PG_EPI_FROM_GLOBAL. */
#include <stdint.h>

#include "gemm_kernel.h"
#include "phases.h" /* the trace slot of a phase is its pg_phase code */

static_assert(PG_TRACE_PHASES == PG_PH_PRODUCER_ISSUE + 1, "trace slots are the Hopper phases of phases.h, in order");
#include "wgmma_m64n256.cuh"
#include "wgmma_m64n192.cuh"

#define CLUSTER PG_CLUSTER
/* 1: the epilogue reads combined from global memory (L2) into registers
 * instead of TMA-loading it into the staging buffer. */
#ifndef PG_EPI_FROM_GLOBAL
#define PG_EPI_FROM_GLOBAL 0
#endif
#define EPI_FROM_GLOBAL PG_EPI_FROM_GLOBAL
/* 1: release the order barrier once the last k-block's wgmmas are issued
 * (0: after they complete). */
#ifndef PG_EARLY_ORDER
#define PG_EARLY_ORDER 0
#endif
#define EARLY_ORDER PG_EARLY_ORDER
#define B_HALF_ROWS (PG_TILE_N / CLUSTER)
#define A_STAGE_BYTES (PG_TILE_M * PG_TILE_K)
#define B_STAGE_BYTES (PG_TILE_N * PG_TILE_K)
#define STAGE_TX_BYTES (A_STAGE_BYTES + B_STAGE_BYTES)
#define EPI_SUB_COLS 64 /* 64 bf16 = one 128-byte swizzle row */
#define EPI_SUBTILES (PG_TILE_N / EPI_SUB_COLS)
#define EPI_SUB_BYTES (PG_TILE_M * EPI_SUB_COLS * 2)
#define EPI_BYTES (PG_TILE_M * PG_TILE_N * 2)
#define K_STEPS (PG_TILE_K / 32) /* wgmma k32 instructions per stage */
#define ACC_REGS (PG_TILE_N / 2) /* fp32 accumulators per consumer thread */

#define OFF_A 0
#define OFF_B (OFF_A + PG_STAGES * A_STAGE_BYTES)
#define OFF_EPI (OFF_B + PG_STAGES * B_STAGE_BYTES)
#define OFF_BAR (OFF_EPI + PG_CONSUMERS * EPI_BYTES)
#define BAR_BYTES ((2 * PG_STAGES + 2 * PG_CONSUMERS) * 8)
/* + 1024: the dynamic smem base is only 16-byte aligned; swizzled tiles need 1024. */
#define SMEM_BYTES (OFF_BAR + BAR_BYTES + 1024)

/* ---------------------------------------------------------------- PTX helpers */
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

/* Arrive on the mbarrier at the same offset in CTA `rank` of the cluster. */
static __device__ __forceinline__ void mbar_arrive_cluster(uint32_t bar, uint32_t rank)
{
    uint32_t remote;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(bar), "r"(rank));
    asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];" ::"r"(remote) : "memory");
}

/* A consumer warp is done reading a stage: tell every CTA whose producer
 * writes into it. */
static __device__ __forceinline__ void release_stage(uint32_t bar)
{
    if (CLUSTER == 1) {
        mbar_arrive(bar);
        return;
    }
    for (uint32_t r = 0; r < CLUSTER; r++)
        mbar_arrive_cluster(bar, r);
}

static __device__ __forceinline__ uint32_t cluster_rank(void)
{
    if (CLUSTER == 1)
        return 0;
    uint32_t r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}

static __device__ __forceinline__ void cluster_sync(void)
{
    if (CLUSTER == 1) {
        __syncthreads();
        return;
    }
    asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

static __device__ __forceinline__ void tma_store_2d(const CUtensorMap *map, int32_t c0, int32_t c1, uint32_t src)
{
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];"
                 ::"l"((uint64_t)map), "r"(c0), "r"(c1), "r"(src)
                 : "memory");
}

static __device__ __forceinline__ void bulk_commit(void) { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }
/* The staging buffer may be overwritten once the stores have read it. */
static __device__ __forceinline__ void bulk_wait_read_all(void) { asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory"); }
static __device__ __forceinline__ void bulk_wait_all(void) { asm volatile("cp.async.bulk.wait_group 0;" ::: "memory"); }
static __device__ __forceinline__ void fence_proxy_async(void) { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }

static __device__ __forceinline__ void named_barrier_sync(uint32_t id, uint32_t threads)
{
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

static __device__ __forceinline__ void wgmma_fence(void) { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
static __device__ __forceinline__ void wgmma_commit(void) { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int N> static __device__ __forceinline__ void wgmma_wait(void)
{
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}
/* Keep the compiler from moving accumulator reads/writes across wgmma issue/wait. */
static __device__ __forceinline__ void fence_acc(float *acc)
{
#pragma unroll
    for (int i = 0; i < ACC_REGS; i++)
        asm volatile("" : "+f"(acc[i])::"memory");
}

/* Shared-memory matrix descriptor, K-major operand with 128-byte swizzle:
 * 8-row core-matrix groups 1024 bytes apart (SBO); LBO is unused for this
 * layout; the k32 steps inside a 128-byte row advance the start address. */
static __device__ __forceinline__ uint64_t smem_desc_sw128(uint32_t addr)
{
    uint64_t d = (uint64_t)((addr & 0x3FFFF) >> 4);
    d |= (uint64_t)1 << 16;
    d |= (uint64_t)((8 * PG_TILE_K) >> 4) << 32; /* 8 rows of PG_TILE_K bytes */
    d |= (uint64_t)(PG_TILE_K == 128 ? 1 : 2) << 62; /* 128B or 64B swizzle */
    return d;
}

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

static __device__ __forceinline__ int64_t read_clock(void) { return clock64(); }
static __device__ __forceinline__ int64_t read_globaltimer(void)
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return (int64_t)t;
}
static __device__ __forceinline__ int32_t read_smid(void)
{
    uint32_t s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return (int32_t)s;
}

/* The model probes: spin a calibrated number of SM cycles. */
static __device__ __forceinline__ void spin_cycles(int64_t cycles)
{
    const int64_t t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
}

template <bool TRACE>
static __device__ __forceinline__ void trace_put(const pg_kernel_params &p, int32_t local_tile, int phase, int64_t t0, int64_t t1)
{
    if (TRACE) {
        int64_t *slot = p.trace_ts + (((int64_t)blockIdx.x * p.trace_tiles_per_cta + local_tile) * PG_TRACE_PHASES + phase) * 2;
        slot[0] = t0;
        slot[1] = t1;
    }
}

/* One consumer tile's five phases, t0..t5 their boundaries. */
template <bool TRACE>
static __device__ __forceinline__ void trace_consumer_tile(const pg_kernel_params &p, int32_t i, int64_t t0, int64_t t1,
                                                           int64_t t2, int64_t t3, int64_t t4, int64_t t5)
{
    trace_put<TRACE>(p, i, PG_PH_ORDER_WAIT, t0, t1);
    trace_put<TRACE>(p, i, PG_PH_LOAD_WAIT, t1, t2);
    trace_put<TRACE>(p, i, PG_PH_MAINLOOP, t2, t3);
    trace_put<TRACE>(p, i, PG_PH_EPILOGUE_REGS, t3, t4);
    trace_put<TRACE>(p, i, PG_PH_EPILOGUE_STORE, t4, t5);
}

/* The producer's wait for a free stage and its issue of one tile's loads. */
template <bool TRACE>
static __device__ __forceinline__ void trace_producer_tile(const pg_kernel_params &p, int32_t i, int64_t t_wait,
                                                           int64_t t_issue, int64_t t_end)
{
    trace_put<TRACE>(p, i, PG_PH_PRODUCER_WAIT, t_wait, t_issue);
    trace_put<TRACE>(p, i, PG_PH_PRODUCER_ISSUE, t_issue, t_end);
}

/* ---------------------------------------------------------------- the kernel */
template <bool TRACE>
__global__ void __launch_bounds__(PG_THREADS, 1) pg_fused_gemm(const __grid_constant__ pg_kernel_params p)
{
    extern __shared__ uint8_t smem_raw[];
    const uint32_t base = (smem_addr(smem_raw) + 1023u) & ~1023u;
    const uint32_t s_a = base + OFF_A, s_b = base + OFF_B, s_epi = base + OFF_EPI;
    const uint32_t bar_full = base + OFF_BAR;              /* [PG_STAGES] TMA landed */
    const uint32_t bar_empty = bar_full + 8 * PG_STAGES;   /* [PG_STAGES] consumers done reading */
    const uint32_t bar_order = bar_empty + 8 * PG_STAGES;  /* [2] your turn for the mainloop */
    const uint32_t bar_comb = bar_order + 8 * PG_CONSUMERS; /* [2] combined rows landed */

    const int tid = threadIdx.x;
    const int wg = tid / 128;
    const int tiles_n = p.N / PG_TILE_N;
    const int tiles_m = (p.M + PG_TILE_M - 1) / PG_TILE_M;
    const int num_pairs = ((tiles_m + CLUSTER - 1) / CLUSTER) * tiles_n; /* groups of CLUSTER row blocks */
    const uint32_t rank = cluster_rank();
    const int cluster_id = blockIdx.x / CLUSTER, clusters = gridDim.x / CLUSTER;
    const int kblocks = p.K / PG_TILE_K;

    if (TRACE && tid == 0) {
        int64_t *c = p.trace_cta + (int64_t)blockIdx.x * PG_TRACE_CTA_FIELDS;
        c[0] = read_smid();
        c[1] = read_clock();
        c[2] = read_globaltimer();
    }
    if (tid == 0) {
        for (int s = 0; s < PG_STAGES; s++) {
            mbar_init(bar_full + 8 * s, 1);
            mbar_init(bar_empty + 8 * s, 4 * CLUSTER); /* lane 0 of each consumer warp of both CTAs */
        }
        for (int w = 0; w < PG_CONSUMERS; w++) {
            mbar_init(bar_order + 8 * w, 1);
            mbar_init(bar_comb + 8 * w, 1);
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("prefetch.tensormap [%0];" ::"l"((uint64_t)&p.map_a) : "memory");
        asm volatile("prefetch.tensormap [%0];" ::"l"((uint64_t)&p.map_b) : "memory");
        asm volatile("prefetch.tensormap [%0];" ::"l"((uint64_t)&p.map_combined) : "memory");
        asm volatile("prefetch.tensormap [%0];" ::"l"((uint64_t)&p.map_d) : "memory");
    }
    /* Both CTAs' barriers must exist before either multicasts or arrives remotely. */
    cluster_sync();

    if (wg == 0) {
        /* ---- producer warpgroup: only thread 0 works; give registers away. */
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
        if (tid == 0) {
        uint32_t g = 0; /* k-blocks issued so far: ring slot and phase */
        for (int i = 0;; i++) {
            const int q = cluster_id + i * clusters;
            if (q >= num_pairs)
                break;
            const int m0 = (CLUSTER * (q / tiles_n) + (int)rank) * PG_TILE_M;
            const int n0 = (q % tiles_n) * PG_TILE_N;
            /* --a-prefetch D: A of the pair D local tiles ahead into L2
             * (at the first tile also those 1..D-1 ahead); only the first
             * column tile of a row block asks, the others find it there. */
            for (int d = i == 0 ? 1 : p.a_prefetch; d <= p.a_prefetch; d++) {
                const int qp = cluster_id + (i + d) * clusters;
                if (qp < num_pairs && qp % tiles_n == 0)
                    for (int kb = 0; kb < kblocks; kb++)
                        tma_prefetch_l2_2d(&p.map_a, kb * PG_TILE_K, (CLUSTER * (qp / tiles_n) + (int)rank) * PG_TILE_M);
            }
            const int64_t t_wait = TRACE ? read_clock() : 0;
            int64_t t_issue = 0;
            for (int kb = 0; kb < kblocks; kb++, g++) {
                const uint32_t stage = g % PG_STAGES;
                mbar_wait(bar_empty + 8 * stage, ((g / PG_STAGES) & 1) ^ 1);
                if (TRACE && kb == 0)
                    t_issue = read_clock();
                mbar_expect_tx(bar_full + 8 * stage, STAGE_TX_BYTES);
                tma_load_2d(s_a + stage * A_STAGE_BYTES, &p.map_a, kb * PG_TILE_K, m0, bar_full + 8 * stage);
                if (CLUSTER > 1)
                    tma_load_2d_multicast(s_b + stage * B_STAGE_BYTES + rank * (B_HALF_ROWS * PG_TILE_K), &p.map_b,
                                          kb * PG_TILE_K, n0 + (int)rank * B_HALF_ROWS, bar_full + 8 * stage,
                                          (uint16_t)((1u << CLUSTER) - 1));
                else
                    tma_load_2d(s_b + stage * B_STAGE_BYTES, &p.map_b, kb * PG_TILE_K, n0, bar_full + 8 * stage);
            }
            if (TRACE) {
                trace_producer_tile<TRACE>(p, i, t_wait, t_issue, read_clock());
            }
        }
        }
    } else {
    /* ---- consumer warpgroups */
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
    const int w = wg - 1;
    const int ltid = tid - 128 * wg;
    const int warp = ltid / 32, lane = ltid % 32;
    const uint32_t my_epi = s_epi + w * EPI_BYTES;
    float acc[ACC_REGS];
#pragma unroll
    for (int r = 0; r < ACC_REGS; r++)
        acc[r] = 0.0f;

    for (int j = 0;; j++) {
        const int i = 2 * j + w; /* this CTA's local tile number */
        const int q = cluster_id + i * clusters;
        if (q >= num_pairs)
            break;
        const int m0 = (CLUSTER * (q / tiles_n) + (int)rank) * PG_TILE_M;
        const int n0 = (q % tiles_n) * PG_TILE_N;
        const int64_t t0 = TRACE ? read_clock() : 0;

        /* Combined rows for this tile into the staging buffer, once the
         * previous tile's TMA store has finished reading it. */
        if (!EPI_FROM_GLOBAL && ltid == 0) {
            bulk_wait_read_all();
            mbar_expect_tx(bar_comb + 8 * w, EPI_BYTES);
            const int r0 = m0 % p.P;
            for (int s = 0; s < EPI_SUBTILES; s++)
                tma_load_2d(my_epi + s * EPI_SUB_BYTES, &p.map_combined, n0 + s * EPI_SUB_COLS, r0, bar_comb + 8 * w);
        }

        /* Ping-pong: wait for the other warpgroup's previous mainloop. */
        if (w == 1)
            mbar_wait(bar_order + 8 * 1, j & 1);
        else if (j > 0)
            mbar_wait(bar_order + 8 * 0, (j - 1) & 1);
        const int64_t t1 = TRACE ? read_clock() : 0;
        int64_t t2 = 0;

        const uint32_t g0 = (uint32_t)i * (uint32_t)kblocks;
        for (int kb = 0; kb < kblocks; kb++) {
            const uint32_t g = g0 + kb;
            const uint32_t stage = g % PG_STAGES;
            mbar_wait(bar_full + 8 * stage, (g / PG_STAGES) & 1);
            if (TRACE && kb == 0)
                t2 = read_clock();
            fence_acc(acc);
            wgmma_fence();
#pragma unroll
            for (int ks = 0; ks < K_STEPS; ks++) {
                const uint64_t da = smem_desc_sw128(s_a + stage * A_STAGE_BYTES + ks * 32);
                const uint64_t db = smem_desc_sw128(s_b + stage * B_STAGE_BYTES + ks * 32);
                wgmma_m64n256k32_e4m3(acc, da, db, (kb | ks) != 0);
            }
            wgmma_commit();
            fence_acc(acc);
            if (EARLY_ORDER && kb == kblocks - 1) {
                /* Hand the tensor cores over as soon as the last wgmma is
                 * queued, so the other warpgroup's first wgmma follows it
                 * without the pipeline draining in between. */
                if (p.mainloop_delay > 0)
                    spin_cycles(p.mainloop_delay);
                if (ltid == 0)
                    mbar_arrive(bar_order + 8 * (1 - w));
            }
            if (kb > 0) {
                wgmma_wait<1>();
                if (lane == 0)
                    release_stage(bar_empty + 8 * ((g - 1) % PG_STAGES));
            }
        }
        wgmma_wait<0>();
        fence_acc(acc);
        if (lane == 0)
            release_stage(bar_empty + 8 * ((g0 + kblocks - 1) % PG_STAGES));
        if (!EARLY_ORDER && p.mainloop_delay > 0)
            spin_cycles(p.mainloop_delay);
        const int64_t t3 = TRACE ? read_clock() : 0;
        if (!EARLY_ORDER && ltid == 0)
            mbar_arrive(bar_order + 8 * (1 - w));

        /* Epilogue in registers: fragment element e of m64n256 sits at row
         * warp*16 + lane/4 + 8*((e>>1)&1), column (e>>2)*8 + (lane&3)*2 + (e&1). */
        const int row_lo = warp * 16 + lane / 4;
        if (EPI_FROM_GLOBAL) {
            /* combined pairs straight from the L2-resident table; the staging
             * buffer only carries D, once the last store has read it out. */
            if (ltid == 0)
                bulk_wait_read_all();
            const uint32_t *crow[2];
#pragma unroll
            for (int h = 0; h < 2; h++)
                crow[h] = (const uint32_t *)(p.combined + (int64_t)((m0 + row_lo + 8 * h) % p.P) * p.N + n0) + (lane & 3);
            named_barrier_sync(1 + w, 128);
#pragma unroll
            for (int c8 = 0; c8 < PG_TILE_N / 8; c8++) {
                const int sub = c8 / 8, chunk = c8 % 8;
#pragma unroll
                for (int h = 0; h < 2; h++) {
                    const int r = row_lo + 8 * h;
                    const uint32_t a = my_epi + sub * EPI_SUB_BYTES + r * 128 + ((chunk ^ (r & 7)) << 4) + (lane & 3) * 4;
                    st_shared_u32(a, epilogue_pair(acc[c8 * 4 + 2 * h], acc[c8 * 4 + 2 * h + 1], __ldg(crow[h] + c8 * 4)));
                }
            }
        } else {
        mbar_wait(bar_comb + 8 * w, j & 1);
#pragma unroll
        for (int c8 = 0; c8 < PG_TILE_N / 8; c8++) {
            const int sub = c8 / 8, chunk = c8 % 8;
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const int r = row_lo + 8 * h;
                const uint32_t a = my_epi + sub * EPI_SUB_BYTES + r * 128 + ((chunk ^ (r & 7)) << 4) + (lane & 3) * 4;
                st_shared_u32(a, epilogue_pair(acc[c8 * 4 + 2 * h], acc[c8 * 4 + 2 * h + 1], ld_shared_u32(a)));
            }
        }
        }
        if (p.epi_delay > 0)
            spin_cycles(p.epi_delay);
        fence_proxy_async();
        named_barrier_sync(1 + w, 128);
        const int64_t t4 = TRACE ? read_clock() : 0;
        if (ltid == 0) {
            for (int s = 0; s < EPI_SUBTILES; s++)
                tma_store_2d(&p.map_d, n0 + s * EPI_SUB_COLS, m0, my_epi + s * EPI_SUB_BYTES);
            bulk_commit();
        }
        if (TRACE && ltid == 0) {
            const int64_t t5 = read_clock();
            trace_consumer_tile<TRACE>(p, i, t0, t1, t2, t3, t4, t5);
        }
    }
    if (ltid == 0) {
        bulk_wait_all();
        if (TRACE && w == 0) {
            int64_t *c = p.trace_cta + (int64_t)blockIdx.x * PG_TRACE_CTA_FIELDS;
            c[3] = read_clock();
            c[4] = read_globaltimer();
        }
    }
    }
    /* No CTA may leave while its peer can still arrive on its barriers. */
    cluster_sync();
}

/* ------------------------------------------- variant `bres`: B panel resident
 * Each CTA owns one 192-column block of N for the whole run and keeps its B
 * panel (192 x K, K <= 768: 144 KB) in shared memory, loaded once; only A
 * streams through the ring (64 x 128 = 8 KB per stage).  Two consumer
 * warpgroups in ping-pong compute 64 x 192 tiles with wgmma m64n192k32 (the
 * same chain over all of K: mode `sm90`).  CTA c takes column block
 * c % tiles_n and row blocks c / tiles_n + i * (grid / tiles_n), so the
 * tiles_n CTAs of one group read each A block at about the same time (one
 * DRAM read, the others L2 hits).  Shared-memory bytes per 64-row k32 step:
 * wgmma reads 2 KB of A + 6 KB of B, TMA writes 2 KB of A (B: never), against
 * 20 KB for the 64 x 256 ping-pong above (napkin math: docs/experiments.md,
 * K14).  Constraints: N % 192 == 0, K % 128 == 0, K <= 768.
 * CL > 1 (variants bresmc2/bresmc4, K21): clusters of CL neighbouring column
 * blocks of one group; each producer loads rows [rank, rank + 1) * 64 / CL
 * of every A stage and multicasts them into all CTAs of the cluster; a stage
 * is refilled once the consumers of all CL CTAs have released it (4 * CL
 * arrivals).  Bit-exact, but slower: the coupled release lengthens each
 * stage's round trip (measured in K21). */
#define BR_TILE_N 192
#define BR_MAX_K 768
#define BR_A_RING_BYTES 32768                        /* 4 stages of 64 x 128 (bres) or 8 of 64 x 64 (bres64) */
#define BR_MAX_STAGES 8
#define BR_KB_BYTES (BR_TILE_N * PG_TILE_K)          /* one 192 x 128 k-block of the B panel */
#define BR_EPI_SUBTILES (BR_TILE_N / EPI_SUB_COLS)   /* 3 */
#define BR_EPI_BYTES (PG_TILE_M * BR_TILE_N * 2)     /* 24 KB */
#define BR_ACC_REGS (BR_TILE_N / 2)                  /* 96 */
#define BR_OFF_B 0
#define BR_OFF_A (BR_OFF_B + (BR_MAX_K / PG_TILE_K) * BR_KB_BYTES)
#define BR_OFF_EPI (BR_OFF_A + BR_A_RING_BYTES)
#define BR_OFF_BAR (BR_OFF_EPI + PG_CONSUMERS * BR_EPI_BYTES)
#define BR_BAR_BYTES ((2 * BR_MAX_STAGES + 2 * PG_CONSUMERS + 1) * 8)
#define BR_SMEM_BYTES (BR_OFF_BAR + BR_BAR_BYTES + 1024)

static __device__ __forceinline__ void fence_acc96(float *acc)
{
#pragma unroll
    for (int i = 0; i < BR_ACC_REGS; i++)
        asm volatile("" : "+f"(acc[i])::"memory");
}

/* K-major operand in `row_bytes`-swizzled smem (128: 128B, 64: 64B): 8-row
 * core-matrix groups 8 * row_bytes apart (SBO). */
static __device__ __forceinline__ uint64_t smem_desc_rows(uint32_t addr, uint32_t row_bytes)
{
    uint64_t d = (uint64_t)((addr & 0x3FFFF) >> 4);
    d |= (uint64_t)1 << 16;
    d |= (uint64_t)((8 * row_bytes) >> 4) << 32;
    d |= (uint64_t)(row_bytes == 128 ? 1 : 2) << 62;
    return d;
}

/* A consumer warp is done reading an A stage: every CTA of the cluster
 * multicast a slice into it, so every CTA's producer must hear it. */
template <int CL> static __device__ __forceinline__ void release_stage_cl(uint32_t bar)
{
    if (CL == 1)
        mbar_arrive(bar);
    else
#pragma unroll
        for (uint32_t r = 0; r < (uint32_t)CL; r++)
            mbar_arrive_cluster(bar, r);
}

/* AK: the k extent of one A stage (128: 4 stages, 128B swizzle; 64: 8
 * stages, 64B swizzle -- the same 32 KB, released in finer steps). */
/* ABL: PG_ABLATE_* bits, a compile-time parameter so that the production
 * and trace builds (ABL = 0) carry no trace of the ablations. */
template <bool TRACE, int AK, int CL, int ABL = 0>
__global__ void __launch_bounds__(PG_THREADS, 1) pg_bres_gemm(const __grid_constant__ pg_kernel_params p)
{
    constexpr int BR_STAGES = BR_A_RING_BYTES / (PG_TILE_M * AK);
    constexpr int BR_A_STAGE_BYTES = PG_TILE_M * AK;
    constexpr int A_KSTEPS = AK / 32;
    static_assert(BR_STAGES <= BR_MAX_STAGES && (AK == 64 || AK == 128), "bres A stages");
    static_assert(CL == 1 || CL == 2 || CL == 4, "bres cluster size");
    constexpr int A_SLICE_ROWS = PG_TILE_M / CL; /* rows of each stage this CTA loads and multicasts */
    extern __shared__ uint8_t smem_raw[];
    const uint32_t base = (smem_addr(smem_raw) + 1023u) & ~1023u;
    const uint32_t s_b = base + BR_OFF_B, s_a = base + BR_OFF_A, s_epi = base + BR_OFF_EPI;
    const uint32_t bar_full = base + BR_OFF_BAR;            /* [BR_STAGES] A landed */
    const uint32_t bar_empty = bar_full + 8 * BR_STAGES;    /* [BR_STAGES] consumers done reading A */
    const uint32_t bar_order = bar_empty + 8 * BR_STAGES;   /* [2] your turn for the mainloop */
    const uint32_t bar_comb = bar_order + 8 * PG_CONSUMERS; /* [2] combined rows landed */
    const uint32_t bar_b = bar_comb + 8 * PG_CONSUMERS;     /* the B panel landed */

    const int tid = threadIdx.x;
    const int wg = tid / 128;
    const int tiles_n = p.N / BR_TILE_N;
    const int tiles_m = (p.M + PG_TILE_M - 1) / PG_TILE_M;
    const int group = blockIdx.x / tiles_n, groups = gridDim.x / tiles_n;
    const int n0 = (blockIdx.x % tiles_n) * BR_TILE_N;
    const int kblocks = p.K / PG_TILE_K; /* B panel k-blocks */
    const int kst = p.K / AK;            /* A stages per tile */
    uint32_t rank = 0;
    if (CL > 1)
        asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));

    if (TRACE && tid == 0) {
        int64_t *c = p.trace_cta + (int64_t)blockIdx.x * PG_TRACE_CTA_FIELDS;
        c[0] = read_smid();
        c[1] = read_clock();
        c[2] = read_globaltimer();
    }
    if (tid == 0) {
        for (int s = 0; s < BR_STAGES; s++) {
            mbar_init(bar_full + 8 * s, 1);
            mbar_init(bar_empty + 8 * s, 4 * CL); /* lane 0 of each consumer warp, in every CTA of the cluster */
        }
        for (int w = 0; w < PG_CONSUMERS; w++) {
            mbar_init(bar_order + 8 * w, 1);
            mbar_init(bar_comb + 8 * w, 1);
        }
        mbar_init(bar_b, 1);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("prefetch.tensormap [%0];" ::"l"((uint64_t)&p.map_a) : "memory");
        asm volatile("prefetch.tensormap [%0];" ::"l"((uint64_t)&p.map_b) : "memory");
        asm volatile("prefetch.tensormap [%0];" ::"l"((uint64_t)&p.map_combined) : "memory");
        asm volatile("prefetch.tensormap [%0];" ::"l"((uint64_t)&p.map_d) : "memory");
    }
    /* every CTA's barriers must exist before a peer multicasts or arrives into them */
    if (CL > 1)
        asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    else
        __syncthreads();

    if (wg == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
        if (tid == 0) {
            /* the B panel once: kblocks boxes of 192 x 128 */
            mbar_expect_tx(bar_b, (uint32_t)(kblocks * BR_KB_BYTES));
            for (int kb = 0; kb < kblocks; kb++)
                tma_load_2d(s_b + kb * BR_KB_BYTES, &p.map_b, kb * PG_TILE_K, n0, bar_b);
            uint32_t g = 0;
            for (int i = 0;; i++) {
                const int mb = group + i * groups;
                if (mb >= tiles_m)
                    break;
                const int m0 = mb * PG_TILE_M;
                /* --a-prefetch D: the A block D tiles ahead into L2 (at the
                 * first tile also 1..D-1 ahead); the group's CTAs split its
                 * k-blocks between them. */
                for (int d = i == 0 ? 1 : p.a_prefetch; d <= p.a_prefetch; d++) {
                    const int mbp = group + (i + d) * groups;
                    if (mbp < tiles_m)
                        for (int ka = (int)(blockIdx.x % tiles_n); ka < kst; ka += tiles_n)
                            tma_prefetch_l2_2d(&p.map_a, ka * AK, mbp * PG_TILE_M);
                }
                const int64_t t_wait = TRACE ? read_clock() : 0;
                int64_t t_issue = 0;
                for (int ka = 0; ka < kst; ka++, g++) {
                    const uint32_t stage = g % BR_STAGES;
                    mbar_wait(bar_empty + 8 * stage, ((g / BR_STAGES) & 1) ^ 1);
                    if (TRACE && ka == 0)
                        t_issue = read_clock();
                    if (ABL & PG_ABLATE_LOAD) { /* ablation: the stage "lands" with whatever it holds */
                        mbar_arrive(bar_full + 8 * stage);
                        continue;
                    }
                    mbar_expect_tx(bar_full + 8 * stage, BR_A_STAGE_BYTES);
                    if (CL > 1) /* this CTA's slice of the stage into every CTA of the cluster */
                        tma_load_2d_multicast(s_a + stage * BR_A_STAGE_BYTES + rank * (A_SLICE_ROWS * AK), &p.map_a, ka * AK,
                                              m0 + (int)rank * A_SLICE_ROWS, bar_full + 8 * stage,
                                              (uint16_t)((1u << CL) - 1));
                    else
                        tma_load_2d(s_a + stage * BR_A_STAGE_BYTES, &p.map_a, ka * AK, m0, bar_full + 8 * stage);
                }
                if (TRACE) {
                    trace_producer_tile<TRACE>(p, i, t_wait, t_issue, read_clock());
                }
            }
        }
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
        const int w = wg - 1;
        const int ltid = tid - 128 * wg;
        const int warp = ltid / 32, lane = ltid % 32;
        const uint32_t my_epi = s_epi + w * BR_EPI_BYTES;
        float acc[BR_ACC_REGS];
#pragma unroll
        for (int r = 0; r < BR_ACC_REGS; r++)
            acc[r] = 0.0f;

        for (int j = 0;; j++) {
            const int i = 2 * j + w;
            const int mb = group + i * groups;
            if (mb >= tiles_m)
                break;
            const int m0 = mb * PG_TILE_M;
            const int64_t t0 = TRACE ? read_clock() : 0;

            if (ltid == 0) {
                bulk_wait_read_all();
                mbar_expect_tx(bar_comb + 8 * w, BR_EPI_BYTES);
                const int r0 = m0 % p.P;
                for (int s = 0; s < BR_EPI_SUBTILES; s++)
                    tma_load_2d(my_epi + s * EPI_SUB_BYTES, &p.map_combined, n0 + s * EPI_SUB_COLS, r0, bar_comb + 8 * w);
            }

            if (w == 1)
                mbar_wait(bar_order + 8 * 1, j & 1);
            else if (j > 0)
                mbar_wait(bar_order + 8 * 0, (j - 1) & 1);
            if (j == 0)
                mbar_wait(bar_b, 0);
            const int64_t t1 = TRACE ? read_clock() : 0;
            int64_t t2 = 0;

            const uint32_t g0 = (uint32_t)i * (uint32_t)kst;
            for (int ka = 0; ka < kst; ka++) {
                const uint32_t g = g0 + ka;
                const uint32_t stage = g % BR_STAGES;
                mbar_wait(bar_full + 8 * stage, (g / BR_STAGES) & 1);
                if (TRACE && ka == 0)
                    t2 = read_clock();
                fence_acc96(acc);
                wgmma_fence();
                const uint32_t b_k = s_b + (ka * AK / PG_TILE_K) * BR_KB_BYTES + (ka * AK) % PG_TILE_K;
                if (!(ABL & PG_ABLATE_MMA)) {
#pragma unroll
                    for (int ks = 0; ks < A_KSTEPS; ks++) {
                        const uint64_t da = smem_desc_rows(s_a + stage * BR_A_STAGE_BYTES + ks * 32, AK);
                        const uint64_t db = smem_desc_rows(b_k + ks * 32, PG_TILE_K);
                        wgmma_m64n192k32_e4m3(acc, da, db, (ka | ks) != 0);
                    }
                }
                wgmma_commit();
                fence_acc96(acc);
                if (ka > 0) {
                    wgmma_wait<1>();
                    if (lane == 0)
                        release_stage_cl<CL>(bar_empty + 8 * ((g - 1) % BR_STAGES));
                }
            }
            wgmma_wait<0>();
            fence_acc96(acc);
            if (lane == 0)
                release_stage_cl<CL>(bar_empty + 8 * ((g0 + kst - 1) % BR_STAGES));
            if (p.mainloop_delay > 0)
                spin_cycles(p.mainloop_delay);
            const int64_t t3 = TRACE ? read_clock() : 0;
            if (ltid == 0)
                mbar_arrive(bar_order + 8 * (1 - w));

            /* One 64-column subtile at a time: its 16 combined words are
             * loaded back to back (the shared-memory latency overlaps), then
             * converted, added and stored in place (K15: loading each word
             * right before its use serialised 48 load latencies). */
            const int row_lo = warp * 16 + lane / 4;
            mbar_wait(bar_comb + 8 * w, j & 1);
#pragma unroll
            for (int sub = 0; sub < BR_EPI_SUBTILES; sub++) {
                uint32_t cw[16];
#pragma unroll
                for (int chunk = 0; chunk < 8; chunk++)
#pragma unroll
                    for (int h = 0; h < 2; h++) {
                        const int r = row_lo + 8 * h;
                        cw[chunk * 2 + h] = ld_shared_u32(my_epi + sub * EPI_SUB_BYTES + r * 128 + ((chunk ^ (r & 7)) << 4) +
                                                          (lane & 3) * 4);
                    }
#pragma unroll
                for (int chunk = 0; chunk < 8; chunk++)
#pragma unroll
                    for (int h = 0; h < 2; h++) {
                        const int r = row_lo + 8 * h, c8 = sub * 8 + chunk;
                        st_shared_u32(my_epi + sub * EPI_SUB_BYTES + r * 128 + ((chunk ^ (r & 7)) << 4) + (lane & 3) * 4,
                                      epilogue_pair(acc[c8 * 4 + 2 * h], acc[c8 * 4 + 2 * h + 1], cw[chunk * 2 + h]));
                    }
            }
            if (p.epi_delay > 0)
                spin_cycles(p.epi_delay);
            fence_proxy_async();
            named_barrier_sync(1 + w, 128);
            const int64_t t4 = TRACE ? read_clock() : 0;
            if (ltid == 0) {
                for (int s = 0; s < BR_EPI_SUBTILES && !(ABL & PG_ABLATE_STORE); s++)
                    tma_store_2d(&p.map_d, n0 + s * EPI_SUB_COLS, m0, my_epi + s * EPI_SUB_BYTES);
                bulk_commit();
            }
            if (TRACE && ltid == 0) {
                const int64_t t5 = read_clock();
                trace_consumer_tile<TRACE>(p, i, t0, t1, t2, t3, t4, t5);
            }
        }
        if (ltid == 0) {
            bulk_wait_all();
            if (TRACE && w == 0) {
                int64_t *c = p.trace_cta + (int64_t)blockIdx.x * PG_TRACE_CTA_FIELDS;
                c[3] = read_clock();
                c[4] = read_globaltimer();
            }
        }
    }
    /* No CTA may leave while a peer can still multicast or arrive into it
     * (not .aligned: the producer warp's lanes arrive here diverged). */
    if (CL > 1)
        asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;" ::: "memory");
}

/* ---------------------------------------------------------------- helpers */
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

/* The compile-time knobs as the device code saw them (nvcc's -D flags can
 * differ from the C compiler's: the host would then size grids and
 * descriptors for another kernel, which hangs). */
extern "C" void pg_kernel_build_config(int *cluster, int *stages, int *tile_k)
{
    *cluster = CLUSTER;
    *stages = PG_STAGES;
    *tile_k = PG_TILE_K;
}

extern "C" size_t pg_kernel_smem_bytes(pg_variant v) { return PG_VARIANT_IS_BRES(v) ? BR_SMEM_BYTES : SMEM_BYTES; }

static void launch_config(cudaLaunchConfig_t *cfg, cudaLaunchAttribute *attr, int grid, int cluster, size_t smem,
                          cudaStream_t stream)
{
    *cfg = cudaLaunchConfig_t{};
    cfg->gridDim = dim3(grid, 1, 1);
    cfg->blockDim = dim3(PG_THREADS, 1, 1);
    cfg->dynamicSmemBytes = smem;
    cfg->stream = stream;
    attr->id = cudaLaunchAttributeClusterDimension;
    attr->val.clusterDim.x = cluster;
    attr->val.clusterDim.y = 1;
    attr->val.clusterDim.z = 1;
    cfg->attrs = attr;
    cfg->numAttrs = 1;
}

typedef void (*kernel_fn)(const pg_kernel_params);

/* The ablated bres instantiations (non-trace; `bench --ablate`). */
static kernel_fn ablated_bres(int ablate)
{
    switch (ablate) {
    case PG_ABLATE_MMA:
        return pg_bres_gemm<false, 128, 1, PG_ABLATE_MMA>;
    case PG_ABLATE_LOAD:
        return pg_bres_gemm<false, 128, 1, PG_ABLATE_LOAD>;
    case PG_ABLATE_STORE:
        return pg_bres_gemm<false, 128, 1, PG_ABLATE_STORE>;
    case PG_ABLATE_LOAD | PG_ABLATE_STORE:
        return pg_bres_gemm<false, 128, 1, PG_ABLATE_LOAD | PG_ABLATE_STORE>;
    case PG_ABLATE_MMA | PG_ABLATE_STORE:
        return pg_bres_gemm<false, 128, 1, PG_ABLATE_MMA | PG_ABLATE_STORE>;
    case PG_ABLATE_MMA | PG_ABLATE_LOAD:
        return pg_bres_gemm<false, 128, 1, PG_ABLATE_MMA | PG_ABLATE_LOAD>;
    default:
        return NULL;
    }
}

static kernel_fn kernel_of(pg_variant v, int trace, int ablate)
{
    if (ablate)
        return v == PG_VARIANT_BRES && !trace ? ablated_bres(ablate) : NULL;
    if (v == PG_VARIANT_BRES)
        return trace ? pg_bres_gemm<true, 128, 1> : pg_bres_gemm<false, 128, 1>;
    if (v == PG_VARIANT_BRES64)
        return trace ? pg_bres_gemm<true, 64, 1> : pg_bres_gemm<false, 64, 1>;
    if (v == PG_VARIANT_BRESMC2)
        return trace ? pg_bres_gemm<true, 128, 2> : pg_bres_gemm<false, 128, 2>;
    if (v == PG_VARIANT_BRESMC4)
        return trace ? pg_bres_gemm<true, 128, 4> : pg_bres_gemm<false, 128, 4>;
    return trace ? pg_fused_gemm<true> : pg_fused_gemm<false>;
}

static int cluster_of(pg_variant v)
{
    if (v == PG_VARIANT_BRESMC2)
        return 2;
    if (v == PG_VARIANT_BRESMC4)
        return 4;
    return PG_VARIANT_IS_BRES(v) ? 1 : CLUSTER;
}

extern "C" cudaError_t pg_kernel_launch(pg_variant v, const pg_kernel_params *p, int trace, int grid, cudaStream_t stream)
{
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute attr;
    const kernel_fn fn = kernel_of(v, trace, p->ablate);
    if (!fn)
        return cudaErrorInvalidValue; /* an ablation other than bres's, or traced */
    const size_t smem = pg_kernel_smem_bytes(v);
    if (grid % cluster_of(v) != 0)
        return cudaErrorInvalidValue;
    cudaError_t e = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (e != cudaSuccess)
        return e;
    launch_config(&cfg, &attr, grid, cluster_of(v), smem, stream);
    e = cudaLaunchKernelEx(&cfg, fn, *p);
    if (e != cudaSuccess)
        return e;
    return cudaGetLastError();
}

extern "C" cudaError_t pg_kernel_max_grid(pg_variant v, int sm_count, int *grid)
{
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute attr;
    int clusters = 0;
    const kernel_fn fn = kernel_of(v, 0, 0);
    const size_t smem = pg_kernel_smem_bytes(v);
    const int cl = cluster_of(v);
    cudaError_t e = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (e != cudaSuccess)
        return e;
    launch_config(&cfg, &attr, sm_count - sm_count % cl, cl, smem, 0);
    e = cudaOccupancyMaxActiveClusters(&clusters, fn, &cfg);
    if (e != cudaSuccess)
        return e;
    *grid = clusters * cl;
    return clusters > 0 ? cudaSuccess : cudaErrorInvalidConfiguration;
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

static_assert(BR_TILE_N == PG_BRES_TILE_N && BR_MAX_K == PG_BRES_MAX_K && BR_A_RING_BYTES == 4 * PG_TILE_M * 128,
              "gemm_kernel.h's bres constants");
static_assert(BR_SMEM_BYTES <= 232448, "bres: shared memory over the 227 KB a block can opt into");
