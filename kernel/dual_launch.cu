/* Launching the dual kernel: its instantiation (kernel_dual.cu), the
 * opt-in shared memory, the persistent grid. */
#include "dual_kernel_fns.h"

extern "C" cudaError_t pg_dual_kernel_occupancy(int design, int *ctas_per_sm)
{
    const pg_dual_kernel_fn fn = pg_dual_kernel_of(design, 0, 0);
    if (!fn)
        return cudaErrorInvalidValue;
    const size_t smem = pg_dual_kernel_smem_bytes(design);
    cudaError_t e = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (e != cudaSuccess)
        return e;
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(ctas_per_sm, fn, PG_DUAL_THREADS, smem);
}

extern "C" cudaError_t pg_dual_kernel_launch(int design, int fp16, int trace, const pg_dual_params *p, int grid,
                                             cudaStream_t stream)
{
    const pg_dual_kernel_fn fn = pg_dual_kernel_of(design, fp16, trace);
    if (!fn || grid < 1)
        return cudaErrorInvalidValue;
    const size_t smem = pg_dual_kernel_smem_bytes(design);
    cudaError_t e = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (e != cudaSuccess)
        return e;
    fn<<<grid, PG_DUAL_THREADS, smem, stream>>>(*p);
    return cudaGetLastError();
}
