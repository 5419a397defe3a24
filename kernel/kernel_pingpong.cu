/* The pingpong variant's two instantiations: production and trace build. */
#include "kernel_fns.h"
#include "pingpong.cuh"

pg_kernel_fn pg_pingpong_kernel(int trace) { return trace ? pg_fused_gemm<true> : pg_fused_gemm<false>; }

size_t pg_pingpong_smem_bytes(void) { return SMEM_BYTES; }

/* The compile-time knobs as the device code saw them (nvcc's -D flags can
 * differ from the C compiler's: the host would then size grids and
 * descriptors for another kernel, which hangs). */
void pg_pingpong_build_config(int *cluster, int *stages, int *tile_k)
{
    *cluster = CLUSTER;
    *stages = PG_STAGES;
    *tile_k = PG_TILE_K;
}

#ifdef PG_KB_TRACE
extern "C" int pg_kbt_dump_pingpong(const char *path)
{
    return ept_write(path) == 0 && kbt_write(path) == 0 ? 0 : -1;
}
#endif
