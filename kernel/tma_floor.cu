/* The TMA read-floor kernel (tma_floor.h): no math, no consumers; one
 * thread per CTA waits for a stage's box to land and reloads the stage. */
#include "tma_floor.h"

#include "ptx.cuh"

__global__ void __launch_bounds__(32, 1) pg_tma_read_floor(const __grid_constant__ pg_tma_floor f)
{
    extern __shared__ uint8_t smem_raw[];
    __shared__ __align__(8) uint64_t full[PG_TMA_FLOOR_MAX_STAGES];
    if (threadIdx.x != 0)
        return;
    /* 128-byte swizzled boxes land on 1,024-byte boundaries */
    const uint32_t base = (smem_addr(smem_raw) + 1023u) & ~1023u;
    const uint32_t box_bytes = (uint32_t)(f.box_rows * f.box_cols);
    const int64_t boxes = f.row_blocks * f.col_blocks;
    int64_t issued[PG_TMA_FLOOR_MAX_STAGES], lat = 0, nlat = 0;
    const bool timed = f.lat_ns != nullptr;
    for (int s = 0; s < f.stages; s++)
        mbar_init(smem_addr(&full[s]), 1);
    mbar_init_fence();
    for (int64_t i = 0; i < f.loads_per_cta; i++) {
        const int s = (int)(i % f.stages);
        const uint32_t bar = smem_addr(&full[s]);
        if (i >= f.stages) { /* the stage's previous load (phase i / stages - 1) landed */
            mbar_wait(bar, (uint32_t)((i / f.stages - 1) & 1));
            if (timed) {
                lat += read_globaltimer() - issued[s];
                nlat++;
            }
        }
        const int64_t b = ((int64_t)blockIdx.x + i * gridDim.x) % boxes;
        if (timed) /* the floors run untimed: the timer reads cost ~13% of the L2 floor */
            issued[s] = read_globaltimer();
        mbar_expect_tx(bar, box_bytes);
        tma_load_2d(base + (uint32_t)s * box_bytes, &f.map, (int32_t)(b % f.col_blocks) * f.box_cols,
                    (int32_t)(b / f.col_blocks) * f.box_rows, bar);
    }
    const int64_t first = f.loads_per_cta > f.stages ? f.loads_per_cta - f.stages : 0;
    for (int64_t i = first; i < f.loads_per_cta; i++) {
        mbar_wait(smem_addr(&full[i % f.stages]), (uint32_t)((i / f.stages) & 1));
        if (timed) {
            lat += read_globaltimer() - issued[i % f.stages];
            nlat++;
        }
    }
    if (timed) {
        f.lat_ns[2 * blockIdx.x] = lat;
        f.lat_ns[2 * blockIdx.x + 1] = nlat;
    }
}

extern "C" size_t pg_tma_floor_smem(const pg_tma_floor *f)
{
    return (size_t)f->stages * (size_t)(f->box_rows * f->box_cols) + 1024;
}

extern "C" cudaError_t pg_tma_floor_launch(const pg_tma_floor *f, int grid, cudaStream_t stream)
{
    const size_t smem = pg_tma_floor_smem(f);
    cudaError_t e = cudaFuncSetAttribute(pg_tma_read_floor, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (e != cudaSuccess)
        return e;
    pg_tma_read_floor<<<grid, 32, smem, stream>>>(*f);
    return cudaGetLastError();
}
