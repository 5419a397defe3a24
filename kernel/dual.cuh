/* The fused SwiGLU dual GEMM for Hopper (sm_90a), both designs of issue 14
 * (docs/experiments.md D1, model/schedules/h100-dual-{inter,seq}.sched):
 *
 *     C = silu(A B1^T) * (A B2^T),  FP8 E4M3, DeepGEMM block scales,
 *
 * bit for bit the CPU reference's pg_dual_gemm_ref under the `sm90` preset.
 *
 * Persistent grid (one CTA per SM, grid = min(#SMs, #tiles)), 384 threads:
 *   warpgroup 0:    producer; one thread TMA-loads the ring (setmaxnreg 40).
 *                   It only ever waits for a free slot, so it runs ahead
 *                   into the next tile and keeps the ring full while the
 *                   consumers run the epilogue.
 *   warpgroups 1,2: consumers (setmaxnreg 232), cooperative: both work on
 *                   the same 128 x 128 output tile in step, consumer w on
 *                   rows 64w .. 64w+63; each thread holds acc1[64],
 *                   acc2[64] and partial[64] (the m64n128 fp32 fragment).
 * Ring (128B swizzle, boxes 128 rows x 128 bytes, one k-block = 128 of K):
 *   inter: 4 stages of {A, B1, B2} (48 KB); a tile takes K/128 stages; per
 *          stage: 4 wgmma m64n128k32 into partial (the first with
 *          scale-d = 0), wait, acc1 = fma(partial, fl(sa sb1), acc1); the
 *          same with B2 into acc2; the stage is released once B2's wgmmas
 *          retired (lane 0 of each consumer warp: 8 arrivals).
 *   seq:   6 stages of {A, B} (32 KB); a tile takes 2 K/128 stages: A with
 *          B1 into acc1 for every k-block, then A (again) with B2 into acc2.
 * Scales: each consumer thread reads its two rows' scale_a and the tile's
 * scale_b for the k-block with __ldg; the next k-block's are loaded before
 * waiting for its stage.
 * Epilogue: h = fl(pg_silu_f32(acc1) * acc2) (silu_fp32.h's device silu is
 * branch-free with one division and no slow-path call, so a thread's 64
 * outputs interleave: docs/experiments.md D3), converted with RNE
 * (cvt.rn.{bf16,f16}x2.f32; NaN made the reference's 0x7FFF explicitly),
 * written into the 32 KB staging buffer (two 128 x 64 sub-tiles, 128B
 * swizzle), fence.proxy.async, a named barrier over the 256 consumer
 * threads, and consumer 0's thread 0 issues the two TMA stores; before the
 * next tile writes the staging buffer that thread waits until the stores
 * have read it (cp.async.bulk.wait_group.read 0) and a named barrier
 * releases the others.
 * Tile order: tile t = blockIdx.x + i gridDim.x over G x MB x NB, group by
 * group; inside a group the index with FEWER blocks varies fastest (ties: m),
 * so consecutive tiles share the operand that has many blocks: MB <= NB
 * (the pitch, M = 256): the MB row blocks of one B column block run back to
 * back (B read from DRAM once); MB > NB (M = 8192, N = 2048): n fastest,
 * the small B stays in L2 and A streams once.  dual_gpu.c's trace layout
 * mirrors dual_tile_of.
 * Trace build (TRACE): the kit's compact slots, PG_DTR_PHASES per (CTA,
 * local tile) (dual_kernel.h): the producer's producer_wait (from the start
 * of the wait for the tile's first slot) and producer_issue (to the last
 * load issued), held until the next tile's first load is out; consumer 0's
 * thread 0 records load_wait, mainloop, epilogue_math, epilogue_store.
 * Probes: mainloop_delay / epi_delay cycles spun after the mainloop / after
 * the epilogue math. */
#ifndef PG_DUAL_CUH
#define PG_DUAL_CUH

#include "dual_kernel.h"
#include "pgtrace.cuh"
#include "ptx.cuh"
#include "silu_fp32.h"
#include "wgmma_m64n128.cuh"
#include "ws_skeleton.cuh"

#define DUAL_TILE_BYTES (PG_DUAL_BLOCK * PG_DUAL_BLOCK) /* one 128 x 128 E4M3 box: 16 KB */
#define DUAL_HALF_A_BYTES (64 * PG_DUAL_BLOCK)          /* consumer w's 64 rows of A */
#define DUAL_EPI_SUB_BYTES (PG_DUAL_BLOCK * 64 * 2)     /* 128 rows x 64 16-bit columns: 16 KB */
#define DUAL_EPI_BYTES (2 * DUAL_EPI_SUB_BYTES)
#define DUAL_ACC 64 /* fp32 fragment registers of m64n128 per thread */
#define DUAL_CONSUMER_THREADS 256
#define DUAL_EPI_BARRIER 1 /* named barrier id (0 is __syncthreads) */

enum { DUAL_INTER = 0, DUAL_SEQ = 1 };

/* Per design: ring stages and the 16 KB boxes per stage. */
template <int DESIGN> struct dual_cfg {
    static constexpr int STAGES = DESIGN == DUAL_INTER ? 4 : 6;
    static constexpr int BOXES = DESIGN == DUAL_INTER ? 3 : 2; /* A, B1, B2 | A, B */
    static constexpr int STAGE_BYTES = BOXES * DUAL_TILE_BYTES;
    static constexpr int OFF_EPI = STAGES * STAGE_BYTES;
    static constexpr int OFF_BAR = OFF_EPI + DUAL_EPI_BYTES;
    static constexpr int BAR_BYTES = (2 * STAGES + 2 * PG_CONSUMERS) * 8; /* ws_bars */
    /* + 1024: the dynamic smem base is only 16-byte aligned; swizzled boxes need 1024 */
    static constexpr int SMEM_BYTES = OFF_BAR + BAR_BYTES + 1024;
    static_assert(SMEM_BYTES <= PG_DUAL_MAX_SMEM, "dual kernel: shared memory above the H100's 227 KB");
};

/* The output tile of schedule index t (see the header comment). */
struct dual_tile {
    int g, mb, nb;
};
static __device__ __forceinline__ dual_tile dual_tile_of(int t, int MB, int NB)
{
    dual_tile d;
    d.g = t / (MB * NB);
    const int r = t % (MB * NB);
    if (MB <= NB) {
        d.mb = r % MB;
        d.nb = r / MB;
    } else {
        d.nb = r % NB;
        d.mb = r / NB;
    }
    return d;
}

/* ---------------------------------------------------------------- trace */
/* The first slot of CTA blockIdx.x's local tile i, phase `phase`. */
static __device__ __forceinline__ int64_t dual_trace_slot(const pg_dual_params &p, int32_t local_tile, int phase)
{
    return ((int64_t)blockIdx.x * p.trace_tiles_per_cta + local_tile) * PG_DTR_PHASES + phase;
}

/* The producer's record of a tile, held until the next tile's first stage
 * is issued (as gemm_trace.cuh's trace_producer_pending, for these params):
 * 32-bit lengths after t_wait keep the 40-register producer small. */
template <bool TRACE> struct dual_producer_pending {
    int64_t t_wait = 0;
    uint32_t wait_cycles = 0, issue_cycles = 0;
    int32_t local_tile = -1;

    __device__ __forceinline__ void hold(int32_t local, int64_t w, int64_t issue, int64_t end)
    {
        if (TRACE) {
            local_tile = local;
            t_wait = w;
            wait_cycles = (uint32_t)(issue - w);
            issue_cycles = (uint32_t)(end - issue);
        }
    }
    __device__ __forceinline__ void flush(const pg_dual_params &p)
    {
        if (TRACE && local_tile >= 0) {
            const int64_t t_issue = t_wait + wait_cycles;
            const int64_t bounds[3] = {t_wait, t_issue, t_issue + issue_cycles};
            pgtrace_put_spans(p.trace, dual_trace_slot(p, local_tile, PG_DTR_PRODUCER_WAIT), bounds, 2);
            local_tile = -1;
        }
    }
};

/* ---------------------------------------------------------------- consumer math */
/* One k-block of one GEMM into partial: 4 wgmma k32 (the first restarts the
 * chain from 0), committed and retired. */
static __device__ __forceinline__ void dual_mma_kblock(float *partial, uint32_t a_rows, uint32_t b_tile)
{
    fence_acc<DUAL_ACC>(partial);
    wgmma_fence();
#pragma unroll
    for (int ks = 0; ks < PG_DUAL_BLOCK / 32; ks++)
        wgmma_m64n128k32_e4m3(partial, smem_desc_rows(a_rows + ks * 32, PG_DUAL_BLOCK),
                              smem_desc_rows(b_tile + ks * 32, PG_DUAL_BLOCK), ks != 0);
    wgmma_commit();
    wgmma_wait<0>();
    fence_acc<DUAL_ACC>(partial);
}

/* The block-scale rule: acc = fma(partial, fl(sa sb), acc); fragment
 * element e is on the thread's lower row when (e & 2) == 0. */
static __device__ __forceinline__ void dual_promote(float *acc, const float *partial, float sa_lo, float sa_hi, float sb)
{
    const float s_lo = __fmul_rn(sa_lo, sb), s_hi = __fmul_rn(sa_hi, sb);
#pragma unroll
    for (int e = 0; e < DUAL_ACC; e++)
        acc[e] = __fmaf_rn(partial[e], (e & 2) ? s_hi : s_lo, acc[e]);
}

/* Two outputs (lo: the lower column) as the reference converts them: RNE,
 * overflow to inf, subnormals kept, every NaN 0x7FFF. */
template <bool FP16> static __device__ __forceinline__ uint32_t dual_pack(float lo, float hi)
{
    uint32_t v;
    if (FP16)
        asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(v) : "f"(hi), "f"(lo));
    else
        asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(v) : "f"(hi), "f"(lo));
    if (isnan(lo))
        v = (v & 0xFFFF0000u) | 0x7FFFu;
    if (isnan(hi))
        v = (v & 0x0000FFFFu) | 0x7FFF0000u;
    return v;
}

static __device__ __forceinline__ float dual_swiglu(float d1, float d2) { return __fmul_rn(pg_silu_f32(d1), d2); }

/* The tile's C into the staging buffer: fragment element e of consumer w
 * is row 64w + 16 warp + lane/4 + 8((e>>1)&1), column (e>>2)*8 +
 * (lane&3)*2 + (e&1); pairs of columns are one 32-bit word, placed as the
 * 128B swizzle of a 128 x 64 sub-tile (pingpong.cuh's epilogue, 128 rows). */
template <bool FP16>
static __device__ __forceinline__ void dual_epilogue_math(const float *acc1, const float *acc2, uint32_t s_epi, int w,
                                                          int warp, int lane)
{
#pragma unroll
    for (int c8 = 0; c8 < PG_DUAL_BLOCK / 8; c8++) {
        const int sub = c8 / 8, chunk = c8 % 8;
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const int r = 64 * w + 16 * warp + lane / 4 + 8 * h;
            const int e = c8 * 4 + 2 * h;
            const uint32_t a = s_epi + sub * DUAL_EPI_SUB_BYTES + r * 128 + ((chunk ^ (r & 7)) << 4) + (lane & 3) * 4;
            st_shared_u32(a, dual_pack<FP16>(dual_swiglu(acc1[e], acc2[e]), dual_swiglu(acc1[e + 1], acc2[e + 1])));
        }
    }
}

/* ---------------------------------------------------------------- the kernel */
template <int DESIGN, bool FP16, bool TRACE>
__global__ void __launch_bounds__(PG_DUAL_THREADS, 1) pg_dual_kernel(const __grid_constant__ pg_dual_params p)
{
    using cfg = dual_cfg<DESIGN>;
    extern __shared__ uint8_t smem_raw[];
    const uint32_t base = (smem_addr(smem_raw) + 1023u) & ~1023u;
    const uint32_t s_ring = base, s_epi = base + cfg::OFF_EPI;
    const ws_bars<cfg::STAGES> bars(base + cfg::OFF_BAR);

    const int tid = threadIdx.x;
    const int wg = tid / 128;
    const int MB = p.M / PG_DUAL_BLOCK, NB = p.N / PG_DUAL_BLOCK, KB = p.K / PG_DUAL_BLOCK;
    const int tiles = p.G * MB * NB;
    const int stages_per_tile = DESIGN == DUAL_INTER ? KB : 2 * KB;

    if (tid == 0) {
        if (TRACE)
            pgtrace_cta_begin(p.trace);
        ws_init_barriers(bars, 2 * 4); /* lane 0 of each of the 8 consumer warps */
        mbar_init_fence();
        tma_prefetch_descriptor(&p.map_a);
        tma_prefetch_descriptor(&p.map_b1);
        tma_prefetch_descriptor(&p.map_b2);
        tma_prefetch_descriptor(&p.map_c);
    }
    __syncthreads();

    if (wg == 0) {
        /* ---- producer warpgroup: only thread 0 works; give registers away. */
        setmaxnreg_dec<40>();
        if (tid == 0) {
            dual_producer_pending<TRACE> pending;
            uint32_t g = 0; /* stages issued so far: ring slot and phase */
            for (int i = 0;; i++) {
                const int t = blockIdx.x + i * gridDim.x;
                if (t >= tiles)
                    break;
                const dual_tile tl = dual_tile_of(t, MB, NB);
                const int row_a = tl.g * p.M + tl.mb * PG_DUAL_BLOCK, row_b = tl.g * p.N + tl.nb * PG_DUAL_BLOCK;
                const int64_t t_wait = trace_clock<TRACE>();
                int64_t t_issue = 0;
                ws_produce_tile<TRACE>(bars, g, stages_per_tile, t_issue, [&](uint32_t stage, int k) {
                    const uint32_t full = bars.full + 8 * stage;
                    const uint32_t dst = s_ring + stage * cfg::STAGE_BYTES;
                    mbar_expect_tx(full, cfg::STAGE_BYTES);
                    if (DESIGN == DUAL_INTER) {
                        tma_load_2d(dst, &p.map_a, k * PG_DUAL_BLOCK, row_a, full);
                        tma_load_2d(dst + DUAL_TILE_BYTES, &p.map_b1, k * PG_DUAL_BLOCK, row_b, full);
                        tma_load_2d(dst + 2 * DUAL_TILE_BYTES, &p.map_b2, k * PG_DUAL_BLOCK, row_b, full);
                    } else {
                        const int kb = k < KB ? k : k - KB;
                        tma_load_2d(dst, &p.map_a, kb * PG_DUAL_BLOCK, row_a, full);
                        tma_load_2d(dst + DUAL_TILE_BYTES, k < KB ? &p.map_b1 : &p.map_b2, kb * PG_DUAL_BLOCK, row_b,
                                    full);
                    }
                }, [&] { pending.flush(p); });
                pending.hold(i, t_wait, t_issue, trace_clock<TRACE>());
            }
            pending.flush(p);
        }
    } else {
        /* ---- consumer warpgroups, cooperative on one tile */
        setmaxnreg_inc<232>();
        const int w = wg - 1;
        const int ltid = tid - 128 * wg;
        const int warp = ltid / 32, lane = ltid % 32;
        const bool leader = w == 0 && ltid == 0; /* issues the stores, records the trace */
        const int row_lo = 64 * w + 16 * warp + lane / 4; /* the thread's rows: row_lo, row_lo + 8 */
        float acc1[DUAL_ACC], acc2[DUAL_ACC], partial[DUAL_ACC];
#pragma unroll
        for (int e = 0; e < DUAL_ACC; e++)
            partial[e] = 0.0f;
        uint32_t g = 0; /* stages consumed so far */

        for (int i = 0;; i++) {
            const int t = blockIdx.x + i * gridDim.x;
            if (t >= tiles)
                break;
            const dual_tile tl = dual_tile_of(t, MB, NB);
            const int row_c = tl.g * p.M + tl.mb * PG_DUAL_BLOCK;
            const float *sa = p.scale_a + (int64_t)(row_c + row_lo) * KB;
            const int64_t sb_at = (int64_t)(tl.g * NB + tl.nb) * KB;
            const float *sb1 = p.scale_b1 + sb_at, *sb2 = p.scale_b2 + sb_at;
#pragma unroll
            for (int e = 0; e < DUAL_ACC; e++)
                acc1[e] = acc2[e] = 0.0f;
            const int64_t t0 = trace_clock<TRACE>();
            int64_t t1 = 0;

            /* One pass over K with one B (seq) or both (inter): per k-block
             * wait for its stage, mma, promote, release; the next k-block's
             * scales are loaded before the wait. */
            if (DESIGN == DUAL_INTER) {
                float sa_lo = __ldg(sa), sa_hi = __ldg(sa + 8 * KB), b1 = __ldg(sb1), b2 = __ldg(sb2);
                for (int kb = 0; kb < KB; kb++, g++) {
                    const int kn = kb + 1 < KB ? kb + 1 : kb;
                    const float n_lo = __ldg(sa + kn), n_hi = __ldg(sa + 8 * KB + kn);
                    const float n_b1 = __ldg(sb1 + kn), n_b2 = __ldg(sb2 + kn);
                    const uint32_t stage = g % cfg::STAGES;
                    mbar_wait(bars.full + 8 * stage, (g / cfg::STAGES) & 1);
                    if (TRACE && kb == 0)
                        t1 = trace_clock<TRACE>();
                    const uint32_t st = s_ring + stage * cfg::STAGE_BYTES;
                    dual_mma_kblock(partial, st + w * DUAL_HALF_A_BYTES, st + DUAL_TILE_BYTES);
                    dual_promote(acc1, partial, sa_lo, sa_hi, b1);
                    dual_mma_kblock(partial, st + w * DUAL_HALF_A_BYTES, st + 2 * DUAL_TILE_BYTES);
                    if (lane == 0)
                        mbar_arrive(bars.empty + 8 * stage);
                    dual_promote(acc2, partial, sa_lo, sa_hi, b2);
                    sa_lo = n_lo, sa_hi = n_hi, b1 = n_b1, b2 = n_b2;
                }
            } else {
                auto pass = [&](float *acc, const float *sb, bool first) {
                    float sa_lo = __ldg(sa), sa_hi = __ldg(sa + 8 * KB), b = __ldg(sb);
                    for (int kb = 0; kb < KB; kb++, g++) {
                        const int kn = kb + 1 < KB ? kb + 1 : kb;
                        const float n_lo = __ldg(sa + kn), n_hi = __ldg(sa + 8 * KB + kn), n_b = __ldg(sb + kn);
                        const uint32_t stage = g % cfg::STAGES;
                        mbar_wait(bars.full + 8 * stage, (g / cfg::STAGES) & 1);
                        if (TRACE && first && kb == 0)
                            t1 = trace_clock<TRACE>();
                        const uint32_t st = s_ring + stage * cfg::STAGE_BYTES;
                        dual_mma_kblock(partial, st + w * DUAL_HALF_A_BYTES, st + DUAL_TILE_BYTES);
                        if (lane == 0)
                            mbar_arrive(bars.empty + 8 * stage);
                        dual_promote(acc, partial, sa_lo, sa_hi, b);
                        sa_lo = n_lo, sa_hi = n_hi, b = n_b;
                    }
                };
                pass(acc1, sb1, true);
                pass(acc2, sb2, false);
            }
            if (p.mainloop_delay > 0)
                spin_cycles(p.mainloop_delay);
            const int64_t t2 = trace_clock<TRACE>();

            /* the previous tile's stores must have read the staging buffer */
            if (leader)
                bulk_wait_read_all();
            named_barrier_sync(DUAL_EPI_BARRIER, DUAL_CONSUMER_THREADS);
            dual_epilogue_math<FP16>(acc1, acc2, s_epi, w, warp, lane);
            if (p.epi_delay > 0)
                spin_cycles(p.epi_delay);
            const int64_t t3 = trace_clock<TRACE>();
            fence_proxy_async();
            named_barrier_sync(DUAL_EPI_BARRIER, DUAL_CONSUMER_THREADS);
            if (leader) {
                const int n0 = tl.nb * PG_DUAL_BLOCK;
                tma_store_2d(&p.map_c, n0, row_c, s_epi);
                tma_store_2d(&p.map_c, n0 + 64, row_c, s_epi + DUAL_EPI_SUB_BYTES);
                bulk_commit();
                if (TRACE) {
                    const int64_t bounds[5] = {t0, t1, t2, t3, trace_clock<TRACE>()};
                    pgtrace_put_spans(p.trace, dual_trace_slot(p, i, PG_DTR_LOAD_WAIT), bounds, 4);
                }
            }
        }
        if (leader) {
            bulk_wait_all();
            if (TRACE)
                pgtrace_cta_end(p.trace);
        }
    }
    __syncthreads();
}

#endif
