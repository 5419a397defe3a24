/* Variant `pingpong`: the fused FP8 GEMM for Hopper (sm_90a),
 *     D[m, n] = bf16_rn( bf16_rn(sum_k A[m,k] B[n,k]) + combined[m mod P, n] )
 *
 * Persistent grid (one CTA per SM), 384 threads in three warpgroups
 * (ws_skeleton.cuh):
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
 * clips the stores, so both CTAs keep the same schedule (the trace build
 * records no rows for that block).
 * Constraints (checked by the host): N % 256 == 0, K % PG_TILE_K == 0.
 * Compile-time variants (-DPG_...; measured in docs/experiments.md "## kernel",
 * all bit-exact, the defaults the fastest): PG_CLUSTER 1|2, PG_STAGES,
 * PG_TILE_K 128|64, PG_EARLY_ORDER, PG_EPI_FROM_GLOBAL. */
#ifndef PG_PINGPONG_CUH
#define PG_PINGPONG_CUH

#include "wgmma_m64n256.cuh"
#include "ws_skeleton.cuh"

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
#define EPI_SUBTILES (PG_TILE_N / EPI_SUB_COLS)
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

/* The epilogue in registers: fragment element e of m64n256 sits at row
 * warp*16 + lane/4 + 8*((e>>1)&1), column (e>>2)*8 + (lane&3)*2 + (e&1).
 * Each converted pair goes to the staging buffer's word that held its
 * combined pair (or, EPI_FROM_GLOBAL, combined comes from L2). */
static __device__ __forceinline__ void pingpong_epilogue(const pg_kernel_params &p, const float *acc, uint32_t my_epi,
                                                         uint32_t bar_comb, int w, int j, int warp, int lane, int ltid,
                                                         int m0, int n0)
{
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
        mbar_wait(bar_comb, j & 1);
        EPT_MARK(2 * j + w, warp, lane, EPT_COMBINED);
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
}

template <bool TRACE>
__global__ void __launch_bounds__(PG_THREADS, 1) pg_fused_gemm(const __grid_constant__ pg_kernel_params p)
{
    extern __shared__ uint8_t smem_raw[];
    const uint32_t base = (smem_addr(smem_raw) + 1023u) & ~1023u;
    const uint32_t s_a = base + OFF_A, s_b = base + OFF_B, s_epi = base + OFF_EPI;
    const ws_bars<PG_STAGES> bars(base + OFF_BAR);

    const int tid = threadIdx.x;
    const int wg = tid / 128;
    const int tiles_n = p.N / PG_TILE_N;
    const int tiles_m = (p.M + PG_TILE_M - 1) / PG_TILE_M;
    const int num_pairs = ((tiles_m + CLUSTER - 1) / CLUSTER) * tiles_n; /* groups of CLUSTER row blocks */
    const uint32_t rank = cluster_rank<CLUSTER>();
    const int cluster_id = blockIdx.x / CLUSTER, clusters = gridDim.x / CLUSTER;
    const int kblocks = p.K / PG_TILE_K;

    if (tid == 0)
        trace_cta_begin<TRACE>(p);
    if (tid == 0) {
        ws_init_barriers(bars, 4 * CLUSTER); /* lane 0 of each consumer warp of both CTAs */
        ws_publish_barriers(p);
    }
    /* Both CTAs' barriers must exist before either multicasts or arrives remotely. */
    cluster_sync<CLUSTER>();

    if (wg == 0) {
        /* ---- producer warpgroup: only thread 0 works; give registers away. */
        setmaxnreg_dec<40>();
        if (tid == 0) {
            trace_producer_pending<TRACE> pending;
            uint32_t g = 0; /* k-blocks issued so far: ring slot and phase */
            for (int i = 0;; i++) {
                const int q = cluster_id + i * clusters;
                if (q >= num_pairs)
                    break;
                const int mb = CLUSTER * (q / tiles_n) + (int)rank;
                const int m0 = mb * PG_TILE_M;
                const int n0 = (q % tiles_n) * PG_TILE_N;
                /* --a-prefetch D: A of the pair D local tiles ahead into L2
                 * (at the first tile also those 1..D-1 ahead); only the first
                 * column tile of a row block asks, the others find it there.
                 * D = 0 is off: d >= 1, else every tile after the first
                 * prefetched its own A (docs/experiments.md M142). */
                for (int d = i == 0 ? 1 : p.a_prefetch; d >= 1 && d <= p.a_prefetch; d++) {
                    const int qp = cluster_id + (i + d) * clusters;
                    if (qp < num_pairs && qp % tiles_n == 0)
                        for (int kb = 0; kb < kblocks; kb++)
                            tma_prefetch_l2_2d(&p.map_a, kb * PG_TILE_K, (CLUSTER * (qp / tiles_n) + (int)rank) * PG_TILE_M);
                }
                const int64_t t_wait = trace_clock<TRACE>();
                int64_t t_issue = 0;
                ws_produce_tile<TRACE>(bars, g, kblocks, t_issue, [&](uint32_t stage, int kb) {
                    const uint32_t full = bars.full + 8 * stage;
                    mbar_expect_tx(full, STAGE_TX_BYTES);
                    tma_load_2d(s_a + stage * A_STAGE_BYTES, &p.map_a, kb * PG_TILE_K, m0, full);
                    if (CLUSTER > 1)
                        tma_load_2d_multicast(s_b + stage * B_STAGE_BYTES + rank * (B_HALF_ROWS * PG_TILE_K), &p.map_b,
                                              kb * PG_TILE_K, n0 + (int)rank * B_HALF_ROWS, full,
                                              (uint16_t)((1u << CLUSTER) - 1));
                    else
                        tma_load_2d(s_b + stage * B_STAGE_BYTES, &p.map_b, kb * PG_TILE_K, n0, full);
                }, [&] { pending.flush(p); });
                /* the block past M (odd row blocks) runs but is not traced */
                pending.hold(i, mb < tiles_m, t_wait, t_issue, trace_clock<TRACE>());
            }
            pending.flush(p);
        }
#ifdef PG_KB_TRACE
        else if (tid == 32 || tid == 64)
            ws_kbt_observe<PG_STAGES>(bars, cluster_id, clusters, num_pairs, kblocks,
                                      tid == 32 ? KBT_LANDED : KBT_RELEASED);
#endif
    } else {
        /* ---- consumer warpgroups */
        setmaxnreg_inc<232>();
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
            const int mb = CLUSTER * (q / tiles_n) + (int)rank;
            const int m0 = mb * PG_TILE_M;
            const int n0 = (q % tiles_n) * PG_TILE_N;
            const int64_t t0 = trace_clock<TRACE>();

            if (!EPI_FROM_GLOBAL && ltid == 0)
                ws_load_combined<EPI_SUBTILES>(p, bars.comb + 8 * w, my_epi, m0, n0);
            ws_wait_turn(bars.order, w, j);
            const int64_t t1 = trace_clock<TRACE>();
            EPT_CLOCK(ept_loop_begin);

            const int64_t t2 = ws_mainloop<TRACE, PG_STAGES, CLUSTER, ACC_REGS>(
                acc, bars, (uint32_t)i * (uint32_t)kblocks, kblocks, lane,
                [&](uint32_t stage, int kb) {
#pragma unroll
                    for (int ks = 0; ks < K_STEPS; ks++) {
                        const uint64_t da = smem_desc_rows(s_a + stage * A_STAGE_BYTES + ks * 32, PG_TILE_K);
                        const uint64_t db = smem_desc_rows(s_b + stage * B_STAGE_BYTES + ks * 32, PG_TILE_K);
                        wgmma_m64n256k32_e4m3(acc, da, db, (kb | ks) != 0);
                    }
                },
                [&]() {
                    if (EARLY_ORDER) {
                        /* Hand the tensor cores over as soon as the last wgmma is
                         * queued, so the other warpgroup's first wgmma follows it
                         * without the pipeline draining in between. */
                        if (p.mainloop_delay > 0)
                            spin_cycles(p.mainloop_delay);
                        if (ltid == 0)
                            ws_pass_turn(bars.order, w);
                    }
                });
            EPT_CLOCK(ept_loop_end);
            if (!EARLY_ORDER && p.mainloop_delay > 0)
                spin_cycles(p.mainloop_delay);
            const int64_t t3 = trace_clock<TRACE>();
            if (!EARLY_ORDER && ltid == 0)
                ws_pass_turn(bars.order, w);

            /* the diagnostic build's epilogue step clocks (M180; M134's for bres) */
            EPT_MARK(i, warp, lane, EPT_START);
            EPT_PUT(i, warp, lane, EPT_LOOP_BEGIN, ept_loop_begin);
            EPT_PUT(i, warp, lane, EPT_LOOP_END, ept_loop_end);
            pingpong_epilogue(p, acc, my_epi, bars.comb + 8 * w, w, j, warp, lane, ltid, m0, n0);
            ws_epilogue_staged(p, w, i, warp, lane);
            const int64_t t4 = trace_clock<TRACE>();
            if (ltid == 0)
                ws_store_tile<EPI_SUBTILES>(p, my_epi, m0, n0);
            if (TRACE && ltid == 0 && mb < tiles_m) {
                const int64_t t5 = trace_clock<TRACE>();
                trace_consumer_tile<TRACE>(p, i, t0, t1, t2, t3, t4, t5);
            }
            ws_epilogue_after_store(p);
        }
        if (ltid == 0)
            ws_consumer_done<TRACE>(p, w);
    }
    /* No CTA may leave while its peer can still arrive on its barriers. */
    cluster_sync<CLUSTER>();
}

#endif
