/* The dual-GEMM kernel's C ABI (dual_capi.h) over kernel/dual_gpu.h. */
#include "dual_capi.h"

#include "dual_gpu.h"
#include "pg_error.h"
#include "scaled.h"

void *pegemm_dual_create(int64_t G, int64_t M, int64_t N, int64_t K, const char *out_dtype, const void *A,
                         const void *B1, const void *B2, const void *scale_a, const void *scale_b1,
                         const void *scale_b2, void *C)
{
    pg_out_dtype out;
    pg_dual_gpu *g = NULL;
    pg_clear_error();
    if (pg_out_dtype_parse(out_dtype, &out) != 0 ||
        pg_dual_gpu_wrap(&g, G, M, N, K, out, A, B1, B2, scale_a, scale_b1, scale_b2, C) != 0) {
        pg_fail_context("pegemm_dual_create");
        return NULL;
    }
    return g;
}

int pegemm_dual_launch(void *handle, int design, uintptr_t stream)
{
    pg_clear_error();
    if (!handle)
        return pg_fail("pegemm_dual_launch: NULL handle");
    if (design < 0 || design >= PG_DUAL_DESIGN_COUNT)
        return pg_fail("pegemm_dual_launch: design %d (0 inter, 1 seq)", design);
    return pg_dual_gpu_launch(handle, (pg_dual_design)design, NULL, (cudaStream_t)stream);
}

int pegemm_dual_grid(const void *handle) { return handle ? pg_dual_gpu_grid(handle) : -1; }

void pegemm_dual_destroy(void *handle) { pg_dual_gpu_free(handle); }

const char *pegemm_dual_last_error(void) { return pg_last_error(); }
