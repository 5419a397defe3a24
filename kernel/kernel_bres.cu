/* The bres family's instantiations, production and trace build of each:
 * bres (AK 128, no cluster), bres64 (AK 64), bresmc2 / bresmc4 (A multicast
 * in clusters of 2 / 4). */
#include "bres.cuh"
#include "kernel_fns.h"

pg_kernel_fn pg_bres_kernel(pg_variant v, int trace)
{
    switch (v) {
    case PG_VARIANT_BRES:
        return trace ? pg_bres_gemm<true, 128, 1> : pg_bres_gemm<false, 128, 1>;
    case PG_VARIANT_BRES64:
        return trace ? pg_bres_gemm<true, 64, 1> : pg_bres_gemm<false, 64, 1>;
    case PG_VARIANT_BRESMC2:
        return trace ? pg_bres_gemm<true, 128, 2> : pg_bres_gemm<false, 128, 2>;
    case PG_VARIANT_BRESMC4:
        return trace ? pg_bres_gemm<true, 128, 4> : pg_bres_gemm<false, 128, 4>;
    default:
        return NULL;
    }
}

size_t pg_bres_smem_bytes(void) { return BR_SMEM_BYTES; }

static_assert(BR_TILE_N == PG_BRES_TILE_N && BR_MAX_K == PG_BRES_MAX_K && BR_A_RING_BYTES == 4 * PG_TILE_M * 128,
              "gemm_kernel.h's bres constants");
static_assert(BR_SMEM_BYTES <= 232448, "bres: shared memory over the 227 KB a block can opt into");

#ifdef PG_KB_TRACE
extern "C" int pg_kbt_dump_bres(const char *path) { return ept_write(path) == 0 && kbt_write(path) == 0 ? 0 : -1; }
#endif
