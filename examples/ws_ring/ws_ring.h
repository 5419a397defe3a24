/* ws_ring: a small warp-specialized CUDA kernel, the worked example of the
 * pgtrace kit (examples/README.md).  Row-wise softmax of a [rows, cols]
 * fp32 matrix, persistent over tiles of WS_TILE_ROWS rows:
 *   warp 0 (producer): one lane copies each tile into a two-stage shared-
 *       memory ring with cp.async.bulk (1-D TMA), guarded by mbarriers;
 *   warps 1..4 (consumers): warp w takes row w of the tile: max, exp and
 *       sum (written back to shared memory), then scales and stores the row.
 * Its trace vocabulary is its own (below), declared to the kit as data. */
#ifndef WS_RING_H
#define WS_RING_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#include "pgtrace_common.h"

#define WS_TILE_ROWS 4                  /* = consumer warps */
#define WS_STAGES 2
#define WS_THREADS (32 * (1 + WS_TILE_ROWS))
#define WS_COLS_MULTIPLE 128            /* 32 lanes x float4 */
#define WS_MAX_COLS 6144                /* 2 stages x 4 rows x 6144 x 4 B = 192 KiB of shared memory */

/* The example's trace vocabulary: role and phase codes (indices into the
 * name lists of ws_ring_main.c's pgtrace_vocab). */
enum { WS_ROLE_PRODUCER = 0, WS_ROLE_CONSUMER = 1, WS_ROLE_COUNT };
enum {
    WS_PH_PRODUCER_WAIT = 0, /* producer: waits for a free stage (wait) */
    WS_PH_ISSUE,             /* producer: issues the tile's bulk copies */
    WS_PH_LOAD_WAIT,         /* consumer: waits for the tile to land (wait) */
    WS_PH_SOFTMAX,           /* consumer: max, exp, sum of its row (+ the probe delay) */
    WS_PH_STORE,             /* consumer: scale and store its row; then frees the stage */
    WS_PH_COUNT
};
#define WS_EVENTS_PER_TILE (2 + 3 * WS_TILE_ROWS)

typedef struct {
    const float *x; /* [rows, cols] */
    float *y;       /* [rows, cols] */
    int32_t rows, cols;
    int64_t softmax_delay; /* cycles of clock64 spin added to each consumer's softmax (a what-if probe) */
} ws_ring_args;

/* Shared memory one CTA needs: the ring, then full[2] and empty[2] mbarriers. */
static inline size_t ws_ring_smem_bytes(int32_t cols)
{
    return (size_t)WS_STAGES * WS_TILE_ROWS * (size_t)cols * sizeof(float) + 2 * WS_STAGES * 8;
}

#ifdef __cplusplus
extern "C" {
#endif
/* The same kernel built twice: with the kit compiled out, and traced. */
cudaError_t ws_ring_launch_plain(const ws_ring_args *a, pgtrace_dev trace, int grid, cudaStream_t stream);
cudaError_t ws_ring_launch_traced(const ws_ring_args *a, pgtrace_dev trace, int grid, cudaStream_t stream);
#ifdef __cplusplus
}
#endif

#endif
