/* Variant `bres` (and bres64, bresmc2, bresmc4): B panel resident.
 * Each CTA owns one 192-column block of N for the whole run and keeps its B
 * panel (192 x K, K <= 768: 144 KB) in shared memory, loaded once; only A
 * streams through the ring (64 x 128 = 8 KB per stage).  Two consumer
 * warpgroups in ping-pong (ws_skeleton.cuh) compute 64 x 192 tiles with
 * wgmma m64n192k32 (the same chain over all of K: mode `sm90`).  CTA c takes
 * column block c % tiles_n and row blocks c / tiles_n + i * (grid / tiles_n),
 * so the tiles_n CTAs of one group read each A block at about the same time
 * (one DRAM read, the others L2 hits).  Shared-memory bytes per 64-row k32
 * step: wgmma reads 2 KB of A + 6 KB of B, TMA writes 2 KB of A (B: never),
 * against 20 KB for the 64 x 256 pingpong (napkin math: docs/experiments.md,
 * K14).  Constraints: N % 192 == 0, K % 128 == 0, K <= 768.
 * AK (bres64): the k extent of one A stage (128: 4 stages, 128B swizzle; 64:
 * 8 stages, 64B swizzle -- the same 32 KB, released in finer steps).
 * CL > 1 (bresmc2/bresmc4, K21): clusters of CL neighbouring column blocks of
 * one group; each producer loads rows [rank, rank + 1) * 64 / CL of every A
 * stage and multicasts them into all CTAs of the cluster; a stage is
 * refilled once the consumers of all CL CTAs have released it (4 * CL
 * arrivals).  Bit-exact, but slower: the coupled release lengthens each
 * stage's round trip (measured in K21).
 * ABL: PG_ABLATE_* bits (`bench --ablate`), a compile-time parameter so that
 * the production and trace builds (ABL = 0) carry no trace of the ablations. */
#ifndef PG_BRES_CUH
#define PG_BRES_CUH

#include "wgmma_m64n192.cuh"
#include "ws_skeleton.cuh"

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

/* One 64-column subtile at a time: its 16 combined words are loaded back to
 * back (the shared-memory latency overlaps), then converted, added and
 * stored in place (K15: loading each word right before its use serialised
 * 48 load latencies).  Fragment layout as in pingpong.cuh. */
static __device__ __forceinline__ void bres_epilogue(const float *acc, uint32_t my_epi, int warp, int lane)
{
    const int row_lo = warp * 16 + lane / 4;
#pragma unroll
    for (int sub = 0; sub < BR_EPI_SUBTILES; sub++) {
        uint32_t cw[16];
#pragma unroll
        for (int chunk = 0; chunk < 8; chunk++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const int r = row_lo + 8 * h;
                cw[chunk * 2 + h] =
                    ld_shared_u32(my_epi + sub * EPI_SUB_BYTES + r * 128 + ((chunk ^ (r & 7)) << 4) + (lane & 3) * 4);
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
}

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
    const ws_bars<BR_STAGES> bars(base + BR_OFF_BAR);
    const uint32_t bar_b = bars.end(); /* the B panel landed */

    const int tid = threadIdx.x;
    const int wg = tid / 128;
    const int tiles_n = p.N / BR_TILE_N;
    const int tiles_m = (p.M + PG_TILE_M - 1) / PG_TILE_M;
    const int group = blockIdx.x / tiles_n, groups = gridDim.x / tiles_n;
    const int nb = blockIdx.x % tiles_n; /* this CTA's column block */
    const int n0 = nb * BR_TILE_N;
    const int kblocks = p.K / PG_TILE_K; /* B panel k-blocks */
    const int kst = p.K / AK;            /* A stages per tile */
    const uint32_t rank = cluster_rank<CL>();

    if (tid == 0)
        trace_cta_begin<TRACE>(p);
    if (tid == 0) {
        ws_init_barriers(bars, 4 * CL); /* lane 0 of each consumer warp, in every CTA of the cluster */
        mbar_init(bar_b, 1);
        ws_publish_barriers(p);
    }
    /* every CTA's barriers must exist before a peer multicasts or arrives into them */
    cluster_sync<CL>();

    if (wg == 0) {
        setmaxnreg_dec<40>();
        if (tid == 0) {
            /* the B panel once: kblocks boxes of 192 x 128 */
            mbar_expect_tx(bar_b, (uint32_t)(kblocks * BR_KB_BYTES));
            for (int kb = 0; kb < kblocks; kb++)
                tma_load_2d(s_b + kb * BR_KB_BYTES, &p.map_b, kb * PG_TILE_K, n0, bar_b);
            trace_producer_pending<TRACE> pending;
            uint32_t g = 0;
            for (int i = 0;; i++) {
                const int mb = group + i * groups;
                if (mb >= tiles_m)
                    break;
                const int m0 = mb * PG_TILE_M;
                /* --a-prefetch D: the A block D tiles ahead into L2 (at the
                 * first tile also 1..D-1 ahead); the group's CTAs split its
                 * k-blocks between them.  D = 0 (the default) is the tile's
                 * own block, from the second tile on: the group asks L2 for
                 * all of it at once, ahead of the ring's k-block loads;
                 * without it bres ran 6.9% slower on an H200 (burst; 3.7%
                 * sustained; docs/experiments.md M142; pingpong's D = 0 is
                 * off). */
                for (int d = i == 0 ? 1 : p.a_prefetch; d <= p.a_prefetch; d++) {
                    const int mbp = group + (i + d) * groups;
                    if (mbp < tiles_m)
                        for (int ka = (int)(blockIdx.x % tiles_n); ka < kst; ka += tiles_n)
                            tma_prefetch_l2_2d(&p.map_a, ka * AK, mbp * PG_TILE_M);
                }
                const int64_t t_wait = trace_clock<TRACE>();
                int64_t t_issue = 0;
                ws_produce_tile<TRACE>(bars, g, kst, t_issue, [&](uint32_t stage, int ka) {
                    const uint32_t full = bars.full + 8 * stage;
                    if (ABL & PG_ABLATE_LOAD) { /* ablation: the stage "lands" with whatever it holds */
                        mbar_arrive(full);
                        return;
                    }
                    mbar_expect_tx(full, BR_A_STAGE_BYTES);
                    if (CL > 1) /* this CTA's slice of the stage into every CTA of the cluster */
                        tma_load_2d_multicast(s_a + stage * BR_A_STAGE_BYTES + rank * (A_SLICE_ROWS * AK), &p.map_a, ka * AK,
                                              m0 + (int)rank * A_SLICE_ROWS, full, (uint16_t)((1u << CL) - 1));
                    else
                        tma_load_2d(s_a + stage * BR_A_STAGE_BYTES, &p.map_a, ka * AK, m0, full);
                }, [&] { pending.flush(p); });
                pending.hold(i, true, t_wait, t_issue, trace_clock<TRACE>());
            }
            pending.flush(p);
        }
#ifdef PG_KB_TRACE
        else if (tid == 32 || tid == 64)
            ws_kbt_observe<BR_STAGES>(bars, group, groups, tiles_m, kst, tid == 32 ? KBT_LANDED : KBT_RELEASED);
#endif
    } else {
        setmaxnreg_inc<232>();
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
            const int64_t t0 = trace_clock<TRACE>();

            if (ltid == 0)
                ws_load_combined<BR_EPI_SUBTILES>(p, bars.comb + 8 * w, my_epi, m0, n0);
            ws_wait_turn(bars.order, w, j);
            if (j == 0)
                mbar_wait(bar_b, 0);
            const int64_t t1 = trace_clock<TRACE>();
            EPT_CLOCK(ept_loop_begin);

            const int64_t t2 = ws_mainloop<TRACE, BR_STAGES, CL, BR_ACC_REGS>(
                acc, bars, (uint32_t)i * (uint32_t)kst, kst, lane,
                [&](uint32_t stage, int ka) {
                    const uint32_t b_k = s_b + (ka * AK / PG_TILE_K) * BR_KB_BYTES + (ka * AK) % PG_TILE_K;
                    if (!(ABL & PG_ABLATE_MMA)) {
#pragma unroll
                        for (int ks = 0; ks < A_KSTEPS; ks++) {
                            const uint64_t da = smem_desc_rows(s_a + stage * BR_A_STAGE_BYTES + ks * 32, AK);
                            const uint64_t db = smem_desc_rows(b_k + ks * 32, PG_TILE_K);
                            wgmma_m64n192k32_e4m3(acc, da, db, (ka | ks) != 0);
                        }
                    }
                },
                [] {});
            EPT_CLOCK(ept_loop_end);
            if (p.mainloop_delay > 0)
                spin_cycles(p.mainloop_delay);
            const int64_t t3 = trace_clock<TRACE>();
            if (ltid == 0)
                ws_pass_turn(bars.order, w);

            EPT_MARK(i, warp, lane, EPT_START);
            EPT_PUT(i, warp, lane, EPT_LOOP_BEGIN, ept_loop_begin);
            EPT_PUT(i, warp, lane, EPT_LOOP_END, ept_loop_end);
            mbar_wait(bars.comb + 8 * w, j & 1);
            EPT_MARK(i, warp, lane, EPT_COMBINED);
            bres_epilogue(acc, my_epi, warp, lane);
            ws_epilogue_staged(p, w, i, warp, lane);
            const int64_t t4 = trace_clock<TRACE>();
            if (ltid == 0)
                ws_store_tile<BR_EPI_SUBTILES, !(ABL & PG_ABLATE_STORE)>(p, my_epi, m0, n0);
            if (TRACE && ltid == 0) {
                const int64_t t5 = trace_clock<TRACE>();
                trace_consumer_tile<TRACE>(p, i, t0, t1, t2, t3, t4, t5);
            }
            ws_epilogue_after_store(p);
        }
        if (ltid == 0)
            ws_consumer_done<TRACE>(p, w);
    }
    /* No CTA may leave while a peer can still multicast or arrive into it
     * (not .aligned: the producer warp's lanes arrive here diverged). */
    cluster_sync_diverged<CL>();
}

#endif
