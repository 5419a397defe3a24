/* The kernel instantiations, one translation unit per variant family
 * (kernel_pingpong.cu, kernel_bres.cu, kernel_ablate.cu), as host-side
 * kernel pointers for the launcher (gemm_launch.cu).  CUDA C++ only. */
#ifndef PG_KERNEL_FNS_H
#define PG_KERNEL_FNS_H

#include <stddef.h>

#include "gemm_kernel.h"

typedef void (*pg_kernel_fn)(const pg_kernel_params);

/* pingpong, the production (trace 0) or trace build. */
pg_kernel_fn pg_pingpong_kernel(int trace);
size_t pg_pingpong_smem_bytes(void);
/* PG_CLUSTER, PG_STAGES, PG_TILE_K as the device code saw them. */
void pg_pingpong_build_config(int *cluster, int *stages, int *tile_k);

/* bres, bres64, bresmc2, bresmc4 (NULL for another variant). */
pg_kernel_fn pg_bres_kernel(pg_variant v, int trace);
size_t pg_bres_smem_bytes(void);

/* bres with PG_ABLATE_* bits `ablate` (production build only; NULL for a
 * combination that has no instantiation). */
pg_kernel_fn pg_bres_ablated_kernel(int ablate);

#endif
