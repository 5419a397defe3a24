/* The warp-specialized skeleton both kernel families share (pingpong.cuh,
 * bres.cuh): 384 threads, warpgroup 0 a TMA producer (one thread), warpgroups
 * 1 and 2 consumers in ping-pong.  What is common lives here, once:
 *   - the barriers: a STAGES-deep ring (full: the stage landed; empty: every
 *     consumer warp of every CTA that loads into it has read it), the order
 *     barriers (your turn for the mainloop) and the combined-rows barriers;
 *   - the producer's per-tile stage loop (wait for a free stage, issue);
 *   - the consumer's turn-taking, its k-loop (wgmma issue, release of the
 *     previous stage once its wgmmas retired), the combined-rows load, the
 *     hand-over of the staging buffer to the TMA unit and the tile store.
 * What differs (tile schedule, what a stage holds, the wgmma shape, the
 * epilogue's register code) the variants pass in as lambdas and template
 * arguments.  Everything is __forceinline__: each variant compiles to the
 * code it had when it spelled all of this out (docs: kernel/README.md). */
#ifndef PG_WS_SKELETON_CUH
#define PG_WS_SKELETON_CUH

#include "gemm_kernel.h"
#include "gemm_trace.cuh"
#include "ptx.cuh"

#ifdef PG_KB_TRACE
#include <stdio.h>
#endif

/* A diagnostic build only (-DPG_KB_TRACE, docs/experiments.md M45; never the
 * production or the trace build): clock64 per k-block of each CTA's first
 * KBT_TILES tiles -- the producer's issue (once its slot was free), the
 * stage's landing and its release by every consumer warp -- which the
 * trace schema does not carry.  The landings and releases are watched by
 * two idle threads of the producer warpgroup polling the ring's barriers
 * (ws_kbt_observe), not by the consumers: stores inside the wgmma loop
 * made bres's k-blocks 1.5-2x longer (M45).  Each TU (variant family) has
 * its own buffer; kbt_write copies it out. */
#ifdef PG_KB_TRACE
#define KBT_CTAS 132
#define KBT_TILES 64
#define KBT_K 16
enum { KBT_ISSUE = 0, KBT_LANDED = 1, KBT_RELEASED = 2 };
static __device__ long long g_kbt[KBT_CTAS * KBT_TILES * KBT_K * 3];
static __device__ __forceinline__ void kbt_mark(uint32_t g, int nstages, int what)
{
    const uint32_t tile = g / (uint32_t)nstages, k = g % (uint32_t)nstages;
    if (blockIdx.x < KBT_CTAS && tile < KBT_TILES && k < KBT_K)
        g_kbt[((blockIdx.x * KBT_TILES + tile) * KBT_K + k) * 3 + what] = clock64();
}
/* ... and the epilogue's steps per consumer warp (docs/experiments.md M134;
 * bres only): its start, the combined rows landed, the register work and
 * staging done, the probe's spin done, the warpgroup's barrier passed --
 * lane 0 of each warp, tile i = 2 j + w of the CTA's own -- and (M135) the
 * tile's loop, from its turn (after the order wait) to its end before any
 * --mainloop-delay spin: clocks read there into registers (EPT_CLOCK) and
 * stored once the epilogue has begun, so that no store lands on the
 * loop's handover.  (The clocks come from the run's last launch, an
 * untraced one: the trace's own t1..t3 are zero there.) */
#define EPT_WARPS 4
enum { EPT_START = 0, EPT_COMBINED, EPT_STAGED, EPT_SPUN, EPT_BARRIER, EPT_LOOP_BEGIN, EPT_LOOP_END, EPT_POINTS };
static __device__ long long g_ept[KBT_CTAS * KBT_TILES * EPT_WARPS * EPT_POINTS];
static __device__ __forceinline__ void ept_put(int tile, int warp, int lane, int what, long long value)
{
    if (lane == 0 && blockIdx.x < KBT_CTAS && tile >= 0 && tile < KBT_TILES)
        g_ept[((blockIdx.x * KBT_TILES + tile) * EPT_WARPS + warp) * EPT_POINTS + what] = value;
}
static __device__ __forceinline__ void ept_mark(int tile, int warp, int lane, int what)
{
    ept_put(tile, warp, lane, what, clock64());
}
/* One device buffer to `path` (raw int64); 0 or -1.  mode "wb" for the
 * file the caller named, "wbx" for one derived from it, which must not
 * replace a file already there.  A file left short by a failed write is
 * removed: the clocks are whole or absent. */
template <class T, size_t N> static int kbt_dump_buffer(const T (&sym)[N], const char *path, const char *mode)
{
    static T h[N];
    if (cudaMemcpyFromSymbol(h, sym, sizeof h) != cudaSuccess)
        return -1;
    FILE *f = fopen(path, mode);
    if (!f)
        return -1;
    const size_t n = fwrite(h, sizeof h, 1, f);
    if (fclose(f) == 0 && n == 1)
        return 0;
    if (remove(path) != 0)
        fprintf(stderr, "pegemm: %s was left short and could not be removed\n", path);
    return -1;
}
/* Host: the TU's k-block clocks to `path` (raw int64, [cta][tile][k][issue,
 * landed, released]); 0 or -1. */
__attribute__((unused)) static int kbt_write(const char *path) { return kbt_dump_buffer(g_kbt, path, "wb"); }
/* Host: the epilogue's clocks to a new file `path`.ept ([cta][tile][warp]
 * [EPT_POINTS]), written before `path` itself so that a run whose .ept
 * could not be made leaves no fresh k-block file beside an old .ept (bres
 * only: pingpong does not clock its epilogue); 0 or -1. */
__attribute__((unused)) static int ept_write(const char *path)
{
    char ept[4096];
    const int n = snprintf(ept, sizeof ept, "%s.ept", path);
    if (n < 0 || n >= (int)sizeof ept)
        return -1;
    return kbt_dump_buffer(g_ept, ept, "wbx");
}
#define KBT_MARK(g, n, what) kbt_mark((g), (n), (what))
#define EPT_MARK(tile, warp, lane, what) ept_mark((tile), (warp), (lane), (what))
#define EPT_PUT(tile, warp, lane, what, value) ept_put((tile), (warp), (lane), (what), (value))
#define EPT_CLOCK(name) const long long name = clock64()
#else
#define KBT_MARK(g, n, what) ((void)0)
#define EPT_MARK(tile, warp, lane, what) ((void)0)
#define EPT_PUT(tile, warp, lane, what, value) ((void)0)
#define EPT_CLOCK(name) ((void)0)
#endif

#define EPI_SUB_COLS 64 /* 64 bf16 = one 128-byte swizzle row */
#define EPI_SUB_BYTES (PG_TILE_M * EPI_SUB_COLS * 2)

/* The mbarriers, consecutive 8-byte words from `base`: full[STAGES],
 * empty[STAGES], order[2], comb[2] (a variant may put more after them). */
template <int STAGES> struct ws_bars {
    uint32_t full, empty, order, comb;
    __device__ __forceinline__ explicit ws_bars(uint32_t base)
        : full(base), empty(base + 8 * STAGES), order(base + 16 * STAGES),
          comb(base + 16 * STAGES + 8 * PG_CONSUMERS)
    {
    }
    __device__ __forceinline__ uint32_t end(void) const { return comb + 8 * PG_CONSUMERS; }
};

/* Thread 0: the ring and the ping-pong barriers.  empty_arrivals: lane 0 of
 * each consumer warp, in every CTA that loads into the stage. */
template <int STAGES> static __device__ __forceinline__ void ws_init_barriers(const ws_bars<STAGES> &b, uint32_t empty_arrivals)
{
    for (int s = 0; s < STAGES; s++) {
        mbar_init(b.full + 8 * s, 1);
        mbar_init(b.empty + 8 * s, empty_arrivals);
    }
    for (int w = 0; w < PG_CONSUMERS; w++) {
        mbar_init(b.order + 8 * w, 1);
        mbar_init(b.comb + 8 * w, 1);
    }
}

/* Thread 0, after every barrier is initialised: publish them and warm the
 * four TMA descriptors. */
static __device__ __forceinline__ void ws_publish_barriers(const pg_kernel_params &p)
{
    mbar_init_fence();
    tma_prefetch_descriptor(&p.map_a);
    tma_prefetch_descriptor(&p.map_b);
    tma_prefetch_descriptor(&p.map_combined);
    tma_prefetch_descriptor(&p.map_d);
}

/* A consumer warp is done reading a stage: tell every CTA of the cluster
 * whose producer writes into it. */
template <int CL> static __device__ __forceinline__ void ws_release_stage(uint32_t bar)
{
    if (CL == 1)
        mbar_arrive(bar);
    else
#pragma unroll
        for (uint32_t r = 0; r < (uint32_t)CL; r++)
            mbar_arrive_cluster(bar, r);
}

/* ---------------------------------------------------------------- producer */
/* One tile's stages: for each of `nstages`, wait until the consumers freed
 * ring slot g % STAGES, then issue(stage, k) its loads; g counts the
 * stages issued so far.  t_issue: when the first stage was free.
 * after_first_issue() runs once the first stage's loads are out (the trace
 * build stores the previous tile's record there). */
template <bool TRACE, int STAGES, class Issue, class AfterFirstIssue>
static __device__ __forceinline__ void ws_produce_tile(const ws_bars<STAGES> &b, uint32_t &g, int nstages, int64_t &t_issue,
                                                       Issue issue, AfterFirstIssue after_first_issue)
{
    for (int k = 0; k < nstages; k++, g++) {
        const uint32_t stage = g % STAGES;
        mbar_wait(b.empty + 8 * stage, ((g / STAGES) & 1) ^ 1);
        KBT_MARK(g, nstages, KBT_ISSUE);
        if (TRACE && k == 0)
            t_issue = trace_clock<TRACE>();
        issue(stage, k);
        if (k == 0)
            after_first_issue();
    }
}

#ifdef PG_KB_TRACE
/* An idle producer thread: the clock at which each stage of the CTA's
 * tiles (first, first + step, ... below limit; nstages each) completes its
 * full (what = KBT_LANDED) or empty (KBT_RELEASED) barrier phase, in ring
 * order.  A poll that fell two phases behind would wait forever: the
 * diagnostic runs under a timeout. */
template <int STAGES>
static __device__ __forceinline__ void ws_kbt_observe(const ws_bars<STAGES> &b, int first, int step, int limit,
                                                      int nstages, int what)
{
    uint32_t tiles = 0;
    while (first + (int)tiles * step < limit)
        tiles++;
    const uint32_t total = tiles * (uint32_t)nstages;
    const uint32_t bars = what == KBT_LANDED ? b.full : b.empty;
    for (uint32_t g = 0; g < total && g / (uint32_t)nstages < KBT_TILES; g++) {
        mbar_wait(bars + 8 * (g % STAGES), (g / STAGES) & 1);
        kbt_mark(g, nstages, what);
    }
}
#endif

/* ---------------------------------------------------------------- consumers */
/* Thread 0 of consumer w: the combined rows of the tile (row m0 mod P of the
 * replicated table) into its staging buffer, once the previous tile's TMA
 * store has finished reading it. */
template <int SUBTILES>
static __device__ __forceinline__ void ws_load_combined(const pg_kernel_params &p, uint32_t bar_comb, uint32_t my_epi, int m0,
                                                        int n0)
{
    bulk_wait_read_all();
#ifdef PG_DIAG_NO_COMBINED
    /* diagnostic builds only (docs/experiments.md M56): the drain wait
     * stays, the 24 KB combined load goes (the barrier completes at once;
     * the epilogue adds whatever the staging buffer holds: outputs wrong) */
    (void)p, (void)my_epi, (void)m0, (void)n0;
    mbar_arrive(bar_comb);
#else
    mbar_expect_tx(bar_comb, SUBTILES * EPI_SUB_BYTES);
    const int r0 = m0 % p.P;
    for (int s = 0; s < SUBTILES; s++)
        tma_load_2d(my_epi + s * EPI_SUB_BYTES, &p.map_combined, n0 + s * EPI_SUB_COLS, r0, bar_comb);
#endif
}

/* Ping-pong: consumer w's j-th tile waits for the other warpgroup's
 * previous mainloop (warpgroup 0 starts). */
static __device__ __forceinline__ void ws_wait_turn(uint32_t bar_order, int w, int j)
{
    if (w == 1)
        mbar_wait(bar_order + 8 * 1, j & 1);
    else if (j > 0)
        mbar_wait(bar_order + 8 * 0, (j - 1) & 1);
}

/* Thread 0 of consumer w: the tensor cores are the other warpgroup's. */
static __device__ __forceinline__ void ws_pass_turn(uint32_t bar_order, int w) { mbar_arrive(bar_order + 8 * (1 - w)); }

/* The k-loop of one tile: stages g0 .. g0 + nstages - 1 of the ring.  Per
 * stage: wait until it landed, mma(stage, k) issues its wgmmas into acc,
 * commit; after_last_issue() runs once the last stage's wgmmas are queued;
 * a stage is released (lane 0 of each warp) once the next stage's wgmmas are
 * in flight and its own have retired.  Returns the clock when the first
 * stage had landed (TRACE), else 0. */
template <bool TRACE, int STAGES, int CL, int NACC, class Mma, class AfterLastIssue>
static __device__ __forceinline__ int64_t ws_mainloop(float *acc, const ws_bars<STAGES> &b, uint32_t g0, int nstages, int lane,
                                                      Mma mma, AfterLastIssue after_last_issue)
{
    int64_t t_landed = 0;
    for (int k = 0; k < nstages; k++) {
        const uint32_t g = g0 + k;
        const uint32_t stage = g % STAGES;
        mbar_wait(b.full + 8 * stage, (g / STAGES) & 1);
        if (TRACE && k == 0)
            t_landed = trace_clock<TRACE>();
        fence_acc<NACC>(acc);
        wgmma_fence();
        mma(stage, k);
        wgmma_commit();
        fence_acc<NACC>(acc);
        if (k == nstages - 1)
            after_last_issue();
        if (k > 0) {
            wgmma_wait<1>();
            if (lane == 0)
                ws_release_stage<CL>(b.empty + 8 * ((g - 1) % STAGES));
        }
    }
    wgmma_wait<0>();
    fence_acc<NACC>(acc);
    if (lane == 0)
        ws_release_stage<CL>(b.empty + 8 * ((g0 + nstages - 1) % STAGES));
    return t_landed;
}

/* After the epilogue wrote the tile into consumer w's staging buffer: the
 * model probe's delay, then make the writes visible to the TMA unit and
 * wait for the whole warpgroup. */
static __device__ __forceinline__ void ws_epilogue_staged(const pg_kernel_params &p, int w, int ept_tile = -1,
                                                          int warp = 0, int lane = 0)
{
    /* ept_tile >= 0: the diagnostic build clocks the steps (M134; bres's
     * epilogue, that tile of the CTA, lane 0 of each warp) */
    EPT_MARK(ept_tile, warp, lane, EPT_STAGED);
#ifndef PG_DIAG_DELAY_AFTER_STORE
    if (p.epi_delay > 0)
        spin_cycles(p.epi_delay);
#endif
    EPT_MARK(ept_tile, warp, lane, EPT_SPUN);
    fence_proxy_async();
    named_barrier_sync(1 + w, 128);
    EPT_MARK(ept_tile, warp, lane, EPT_BARRIER);
}

/* After the tile's store was issued (and traced).  Diagnostic builds only
 * (docs/experiments.md M64): -DPG_DIAG_DELAY_AFTER_STORE moves the probe's
 * delay here, so the epilogue is as long but D's store leaves when it does
 * at zero delay.  Outputs unchanged. */
static __device__ __forceinline__ void ws_epilogue_after_store(const pg_kernel_params &p)
{
#ifdef PG_DIAG_DELAY_AFTER_STORE
    if (p.epi_delay > 0)
        spin_cycles(p.epi_delay);
#else
    (void)p;
#endif
}

/* Thread 0 of the consumer: TMA-store the staged tile (SUBTILES 64-column
 * boxes; rows past M are clipped by the TMA unit).  STORE false: the
 * ablation that drops the stores (the commit stays). */
template <int SUBTILES, bool STORE = true>
static __device__ __forceinline__ void ws_store_tile(const pg_kernel_params &p, uint32_t my_epi, int m0, int n0)
{
#ifdef PG_DIAG_NO_STORE
    /* diagnostic builds only (docs/experiments.md M57): no D store, so no
     * write traffic and no drain (the commit stays; outputs unwritten) */
    (void)p, (void)my_epi, (void)m0, (void)n0;
#elif defined(PG_DIAG_STORE_EVICT_FIRST)
    for (int s = 0; s < SUBTILES && STORE; s++)
        tma_store_2d_evict_first(&p.map_d, n0 + s * EPI_SUB_COLS, m0, my_epi + s * EPI_SUB_BYTES);
#else
    for (int s = 0; s < SUBTILES && STORE; s++)
        tma_store_2d(&p.map_d, n0 + s * EPI_SUB_COLS, m0, my_epi + s * EPI_SUB_BYTES);
#endif
    bulk_commit();
}

/* Thread 0 of consumer w after its last tile: drain the stores; consumer 0
 * closes the CTA's trace anchor. */
template <bool TRACE> static __device__ __forceinline__ void ws_consumer_done(const pg_kernel_params &p, int w)
{
    bulk_wait_all();
    if (TRACE && w == 0)
        trace_cta_end<TRACE>(p);
}

#endif
