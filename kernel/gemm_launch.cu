/* Launching a variant: which instantiation (kernel_fns.h), its shared
 * memory and cluster size, the persistent grid that fits. */
#include "gemm_kernel.h"
#include "kernel_fns.h"

extern "C" void pg_kernel_build_config(int *cluster, int *stages, int *tile_k)
{
    pg_pingpong_build_config(cluster, stages, tile_k);
}

extern "C" size_t pg_kernel_smem_bytes(pg_variant v)
{
    return PG_VARIANT_IS_BRES(v) ? pg_bres_smem_bytes() : pg_pingpong_smem_bytes();
}

static void launch_config(cudaLaunchConfig_t *cfg, cudaLaunchAttribute *attr, int grid, int cluster, size_t smem,
                          cudaStream_t stream)
{
    *cfg = cudaLaunchConfig_t{};
    cfg->gridDim = dim3(grid, 1, 1);
    cfg->blockDim = dim3(PG_THREADS, 1, 1);
    cfg->dynamicSmemBytes = smem;
    cfg->stream = stream;
    attr->id = cudaLaunchAttributeClusterDimension;
    attr->val.clusterDim.x = cluster;
    attr->val.clusterDim.y = 1;
    attr->val.clusterDim.z = 1;
    cfg->attrs = attr;
    cfg->numAttrs = 1;
}

static pg_kernel_fn kernel_of(pg_variant v, int trace, int ablate)
{
    if (ablate)
        return v == PG_VARIANT_BRES && !trace ? pg_bres_ablated_kernel(ablate) : NULL;
    if (PG_VARIANT_IS_BRES(v))
        return pg_bres_kernel(v, trace);
    return pg_pingpong_kernel(trace);
}

static int cluster_of(pg_variant v)
{
    if (v == PG_VARIANT_BRESMC2)
        return 2;
    if (v == PG_VARIANT_BRESMC4)
        return 4;
    return PG_VARIANT_IS_BRES(v) ? 1 : PG_CLUSTER;
}

extern "C" cudaError_t pg_kernel_launch(pg_variant v, const pg_kernel_params *p, int trace, int grid, cudaStream_t stream)
{
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute attr;
    const pg_kernel_fn fn = kernel_of(v, trace, p->ablate);
    if (!fn)
        return cudaErrorInvalidValue; /* an ablation other than bres's, or traced */
    const size_t smem = pg_kernel_smem_bytes(v);
    if (grid % cluster_of(v) != 0)
        return cudaErrorInvalidValue;
    cudaError_t e = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (e != cudaSuccess)
        return e;
    launch_config(&cfg, &attr, grid, cluster_of(v), smem, stream);
    e = cudaLaunchKernelEx(&cfg, fn, *p);
    if (e != cudaSuccess)
        return e;
    return cudaGetLastError();
}

extern "C" cudaError_t pg_kernel_max_grid(pg_variant v, int sm_count, int *grid)
{
    cudaLaunchConfig_t cfg;
    cudaLaunchAttribute attr;
    int clusters = 0;
    const pg_kernel_fn fn = kernel_of(v, 0, 0);
    const size_t smem = pg_kernel_smem_bytes(v);
    const int cl = cluster_of(v);
    cudaError_t e = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (e != cudaSuccess)
        return e;
    launch_config(&cfg, &attr, sm_count - sm_count % cl, cl, smem, 0);
    e = cudaOccupancyMaxActiveClusters(&clusters, fn, &cfg);
    if (e != cudaSuccess)
        return e;
    *grid = clusters * cl;
    return clusters > 0 ? cudaSuccess : cudaErrorInvalidConfiguration;
}

#ifdef PG_KB_TRACE
extern "C" int pg_kbt_dump_pingpong(const char *path);
extern "C" int pg_kbt_dump_bres(const char *path);
extern "C" int pg_kbt_dump(pg_variant v, const char *path)
{
    return v == PG_VARIANT_PINGPONG ? pg_kbt_dump_pingpong(path) : pg_kbt_dump_bres(path);
}
#endif
