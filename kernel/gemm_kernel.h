/* The fused FP8 GEMM kernel's launch interface (C-callable; the device code
 * is split by job, kernel/README.md; the launch is gemm_launch.cu).  Tile
 * shape and pipeline are compile-time constants; the host builds the four
 * TMA descriptors (tma_maps.c) and the trace buffer (gpu_trace.c, with the
 * tracing kit). */
#ifndef PG_GEMM_KERNEL_H
#define PG_GEMM_KERNEL_H

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <stdint.h>

#include "pgtrace_common.h"

/* One consumer warpgroup computes a PG_TILE_M x PG_TILE_N tile; two
 * consumer warpgroups take turns (ping-pong).  The k-loop steps PG_TILE_K
 * (one 128-byte swizzle row of E4M3) per pipeline stage. */
#define PG_TILE_M 64
#define PG_TILE_N 256
#ifndef PG_TILE_K
#define PG_TILE_K 128 /* 128 (128B swizzle) or 64 (64B swizzle) */
#endif
#ifndef PG_STAGES
#define PG_STAGES 4
#endif
#define PG_CONSUMERS 2
#ifndef PG_CLUSTER
#define PG_CLUSTER 2 /* CTAs sharing each B tile through TMA multicast */
#endif
#define PG_THREADS 384 /* producer warpgroup + two consumer warpgroups */

/* Kernel variants (`pegemm run/bench --variant NAME`):
 *   pingpong: 64 x 256 tiles, 4-stage A+B ring, 2-CTA clusters multicasting B
 *             (N % 256 == 0, K % 128 == 0);
 *   bres:     64 x 192 tiles, the CTA's 192 x K B panel resident in shared
 *             memory, 4-stage A ring, no clusters (N % 192 == 0,
 *             K % 128 == 0, K <= 768);
 *   bres64:   bres with the same 32 KB A ring cut into 8 stages of 64 x 64
 *             (64B swizzle), released in finer steps;
 *   bresmc2, bresmc4: bres in clusters of 2 / 4 CTAs (neighbouring column
 *             blocks of one row-block group, N / 192 a multiple of 2 / 4):
 *             each CTA TMA-loads 1/2 / 1/4 of every A stage and multicasts it
 *             into all CTAs of the cluster, so each A block leaves L2 once
 *             per cluster instead of once per CTA.
 * PG_DEFAULT_VARIANT is used when no variant is named; where the default
 * cannot run a shape, the runner falls back to pingpong. */
typedef enum {
    PG_VARIANT_PINGPONG = 0,
    PG_VARIANT_BRES = 1,
    PG_VARIANT_BRES64 = 2,
    PG_VARIANT_BRESMC2 = 3,
    PG_VARIANT_BRESMC4 = 4,
    PG_VARIANT_COUNT
} pg_variant;
#define PG_VARIANT_IS_BRES(v) ((v) >= PG_VARIANT_BRES && (v) <= PG_VARIANT_BRESMC4)
#ifndef PG_DEFAULT_VARIANT
#define PG_DEFAULT_VARIANT PG_VARIANT_BRES
#endif
#define PG_BRES_TILE_N 192
#define PG_BRES_MAX_K 768

/* Ablations (`pegemm bench --ablate`, variant bres, production build only):
 * drop one part of the work to see what the rest costs.  The outputs are
 * then not the GEMM: never checked, never stored in a run file's outputs.
 * Separate instantiations: the kernels that are checked contain none of it. */
#define PG_ABLATE_MMA 1   /* no wgmma (the accumulators stay 0) */
#define PG_ABLATE_LOAD 2  /* no A loads (the ring's stages are released unfilled) */
#define PG_ABLATE_STORE 4 /* no D stores (the staging is still written) */

typedef struct {
    CUtensorMap map_a;        /* A [M, K] u8, box 128 x 64, 128B swizzle */
    CUtensorMap map_b;        /* B [N, K] u8, 128B swizzle; box 128 x 128 (pingpong: half a tile, multicast per
                               * CTA of the pair) or 192 x 128 (bres: one k-block of the panel) */
    CUtensorMap map_combined; /* combined replicated [R, N] bf16, box 64 x 64, 128B swizzle */
    CUtensorMap map_d;        /* D [M, N] bf16, box 64 x 64, 128B swizzle */
    const uint16_t *combined; /* [P, N] bf16, for the epilogue that reads it from global */
    int32_t M, N, K, P;
    int64_t epi_delay;        /* extra cycles spun in epilogue_regs (0 = off) */
    int64_t mainloop_delay;   /* extra cycles spun at the end of mainloop (0 = off) */
    int32_t a_prefetch;       /* the producer asks L2 for A this many tiles ahead (0: pingpong off, bres* the tile itself; M142) */
    int32_t ablate;           /* PG_ABLATE_* bits (variant bres only; 0 in every checked run) */
    /* trace build only (last, so the production kernels' parameter offsets
     * do not depend on it): the tracing kit's compact fixed-slot buffer,
     * [grid * trace_tiles_per_cta * PG_TR_PHASES] 16-byte slots (gemm_trace.cuh), and one
     * anchor per CTA. */
    pgtrace_dev trace;
    int32_t trace_tiles_per_cta;
} pg_kernel_params;

#ifdef __cplusplus
extern "C" {
#endif

/* PG_CLUSTER, PG_STAGES and PG_TILE_K as the device code was compiled. */
void pg_kernel_build_config(int *cluster, int *stages, int *tile_k);
/* Dynamic shared memory variant v needs (bytes). */
size_t pg_kernel_smem_bytes(pg_variant v);
/* The persistent grid: CTAs (whole clusters) of variant v that fit at once. */
cudaError_t pg_kernel_max_grid(pg_variant v, int sm_count, int *grid);
/* Launch variant v on `grid` CTAs (persistent; a multiple of its cluster size,
 * <= pg_kernel_max_grid).  trace != 0 picks the clock64 trace build.
 * Returns the launch's cudaError_t (cudaSuccess = 0). */
cudaError_t pg_kernel_launch(pg_variant v, const pg_kernel_params *p, int trace, int grid, cudaStream_t stream);
/* Spin `cycles` SM cycles in one thread per CTA and record clock64 and
 * %globaltimer before and after in out[4] (device memory): the measured SM
 * clock is d(clock64) / d(globaltimer). */
cudaError_t pg_clock_probe_launch(int64_t cycles, int64_t *out, cudaStream_t stream);
/* The "separate add kernel" baseline: d[m, n] = bf16_rn(d[m, n] +
 * combined[m mod P, n]) in place on a bf16 GEMM output (add.bf16x2). */
cudaError_t pg_add_combined_launch(uint16_t *d, const uint16_t *combined, int64_t M, int64_t N, int64_t P,
                                   cudaStream_t stream);

/* The fused kernel's DRAM traffic without its math (a bench baseline): read
 * A [M, K] u8 once and write D [M, N] bf16 once, 16-byte accesses
 * (K % 16 == 0, N % 8 == 0). */
cudaError_t pg_stream_a_to_d_launch(const uint8_t *a, uint16_t *d, int64_t M, int64_t K, int64_t N, cudaStream_t stream);

/* *count += number of elements of x[0..n) equal to `value` (the poison
 * check: every output element must have been overwritten). */
cudaError_t pg_count_equal_launch(const uint16_t *x, int64_t n, uint16_t value, unsigned long long *count,
                                  cudaStream_t stream);

#ifdef PG_KB_TRACE
/* The diagnostic build's per-k-block clocks of variant v's family (the last
 * launch) to `path` (ws_skeleton.cuh); 0 or -1. */
int pg_kbt_dump(pg_variant v, const char *path);
#endif

#ifdef __cplusplus
}
#endif

#endif
