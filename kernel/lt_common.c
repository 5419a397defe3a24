/* The cuBLASLt baselines' shared plan steps and teardown (lt_common.h). */
#include "lt_common.h"

void pg_lt_plan_destroy(cublasLtMatmulDesc_t op, const cublasLtMatrixLayout_t *layouts, int n)
{
    if (op)
        cublasLtMatmulDescDestroy(op);
    for (int i = 0; i < n; i++)
        if (layouts[i])
            cublasLtMatrixLayoutDestroy(layouts[i]);
}

int pg_lt_layout_batch(cublasLtMatrixLayout_t l, int64_t count, int64_t stride, char *why, size_t why_len)
{
    const int32_t n = (int32_t)count;
    PG_LT_TRY(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &n, sizeof n));
    PG_LT_TRY(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof stride));
    return 0;
refused:
    return 1;
}
