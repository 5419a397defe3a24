/* The cuBLASLt baselines' shared plan teardown (lt_common.h). */
#include "lt_common.h"

void pg_lt_plan_destroy(cublasLtMatmulDesc_t op, const cublasLtMatrixLayout_t *layouts, int n)
{
    if (op)
        cublasLtMatmulDescDestroy(op);
    for (int i = 0; i < n; i++)
        if (layouts[i])
            cublasLtMatrixLayoutDestroy(layouts[i]);
}
