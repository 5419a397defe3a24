/* The kernel's four TMA descriptors (cuTensorMapEncodeTiled, reached through
 * cudaGetDriverEntryPointByVersion so no -lcuda is needed). */
#ifndef PG_TMA_MAPS_H
#define PG_TMA_MAPS_H

#include "gemm_kernel.h"
#include "problem.h"

/* Fill p->map_a/map_b/map_combined/map_d (A's box: a_box_rows x a_box_k bytes,
 * swizzled over a_box_k (128 or 64); B's box: b_box_rows x PG_TILE_K);
 * -1 with a message on failure. */
int pg_tma_maps_build(pg_kernel_params *p, const uint8_t *dA, const uint8_t *dB, const uint16_t *d_combined_rep,
                      int64_t comb_rows, uint16_t *dD, const pg_shape *s, int b_box_rows, int a_box_k,
                      int a_box_rows);

/* One 2-D descriptor: row-major [rows, cols] of `elem`-byte elements, box
 * box_rows x box_cols, the given swizzle; `what` names it in the error.
 * 0, or -1 with a message. */
int pg_tma_encode_2d(CUtensorMap *map, CUtensorMapDataType type, size_t elem, const void *base, int64_t rows,
                     int64_t cols, uint32_t box_rows, uint32_t box_cols, CUtensorMapSwizzle swizzle, const char *what);

#endif
