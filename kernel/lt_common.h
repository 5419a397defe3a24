/* What the cuBLASLt baselines (baselines.c for the fused GEMM,
 * dual_baselines.c for the SwiGLU dual GEMM) share: the workspace size, the
 * "refused, and why" step of building a matmul plan, and its teardown. */
#ifndef PG_KERNEL_LT_COMMON_H
#define PG_KERNEL_LT_COMMON_H

#include <stdint.h>
#include <stdio.h>

#include <cublasLt.h>

/* The workspace every baseline offers cuBLASLt (preference and buffer). */
#define PG_LT_WORKSPACE_BYTES ((size_t)64 << 20)

/* One step of building a plan: on failure the call and cuBLASLt's status go
 * into why (why_len bytes) and control goes to the caller's `refused:`
 * label (cuBLASLt refused this configuration: not an error that stops the
 * run). */
#define PG_LT_TRY(call)                                                                                            \
    do {                                                                                                           \
        cublasStatus_t st_ = (call);                                                                               \
        if (st_ != CUBLAS_STATUS_SUCCESS) {                                                                        \
            snprintf(why, why_len, "%s: %s", #call, cublasLtGetStatusString(st_));                                 \
            goto refused;                                                                                          \
        }                                                                                                          \
    } while (0)

/* Makes layout l a strided batch: count matrices, stride elements apart
 * (0: the same matrix for every batch entry).  0, or 1 refused (why). */
int pg_lt_layout_batch(cublasLtMatrixLayout_t l, int64_t count, int64_t stride, char *why, size_t why_len);

/* Destroys a plan's matmul descriptor, then its n layouts, in that order;
 * NULL handles (a plan built part way) are skipped. */
void pg_lt_plan_destroy(cublasLtMatmulDesc_t op, const cublasLtMatrixLayout_t *layouts, int n);

#endif
