/* The TMA read floors of `pegemm bench` (docs/experiments.md M44): how fast
 * the SMs' TMA units can pull boxes into shared memory when nothing else
 * runs -- from an L2-resident buffer (the path pingpong's operand stages
 * take) and from DRAM (A's boxes, each read once).  One CTA per SM; its one
 * thread keeps `stages` box loads in flight, and can time each load (M48:
 * latency against loads in flight). */
#ifndef PG_TMA_FLOOR_H
#define PG_TMA_FLOOR_H

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PG_TMA_FLOOR_MAX_STAGES 8

typedef struct {
    CUtensorMap map;       /* 2-D, 128-byte swizzled rows of u8 */
    int64_t row_blocks;    /* boxes down the tensor */
    int col_blocks;        /* boxes across it */
    int box_rows, box_cols;
    int stages;            /* loads in flight per SM, <= PG_TMA_FLOOR_MAX_STAGES */
    int64_t loads_per_cta; /* CTA c loads boxes c, c + grid, ... (mod the box count) */
    int64_t *lat_ns;       /* device [grid][2]: per CTA the summed issue-to-landing ns and the loads
                              counted (%globaltimer at the issue and when its wait returned), or NULL */
} pg_tma_floor;

/* Shared memory one CTA of the floor kernel needs (its stages, aligned). */
size_t pg_tma_floor_smem(const pg_tma_floor *f);
/* Launch on `grid` CTAs (one per SM); the caller has checked the shared
 * memory against the device's opt-in limit. */
cudaError_t pg_tma_floor_launch(const pg_tma_floor *f, int grid, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
