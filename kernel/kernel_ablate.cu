/* The ablated bres instantiations (`pegemm bench --ablate`; production
 * build only, never checked): separate kernels, so the checked ones contain
 * none of it. */
#include "bres.cuh"
#include "kernel_fns.h"

pg_kernel_fn pg_bres_ablated_kernel(int ablate)
{
    switch (ablate) {
    case PG_ABLATE_MMA:
        return pg_bres_gemm<false, 128, 1, PG_ABLATE_MMA>;
    case PG_ABLATE_LOAD:
        return pg_bres_gemm<false, 128, 1, PG_ABLATE_LOAD>;
    case PG_ABLATE_STORE:
        return pg_bres_gemm<false, 128, 1, PG_ABLATE_STORE>;
    case PG_ABLATE_LOAD | PG_ABLATE_STORE:
        return pg_bres_gemm<false, 128, 1, PG_ABLATE_LOAD | PG_ABLATE_STORE>;
    case PG_ABLATE_MMA | PG_ABLATE_STORE:
        return pg_bres_gemm<false, 128, 1, PG_ABLATE_MMA | PG_ABLATE_STORE>;
    case PG_ABLATE_MMA | PG_ABLATE_LOAD:
        return pg_bres_gemm<false, 128, 1, PG_ABLATE_MMA | PG_ABLATE_LOAD>;
    default:
        return NULL;
    }
}
