#include "dual_baselines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cublasLt.h>

#include "gpu_session.h"
#include "lt_common.h"
#include "pg_error.h"

#define SCALE_BLOCK 128

/* cuBLASLt gained VEC128_32F / BLK128x128_32F in 12.9 (sm_90 only); an older
 * cuBLASLt refuses block mode in prepare with this reason. */
#if CUBLAS_VERSION >= 120900
#define HAVE_LT_BLOCK_SCALES 1
#else
#define HAVE_LT_BLOCK_SCALES 0
#endif

struct pg_dual_plan {
    cublasLtMatmulDesc_t op;
    cublasLtMatrixLayout_t la, lb, ld; /* C is D (beta = 0) */
    cublasLtMatmulHeuristicResult_t heur;
    const uint8_t *b;     /* our B1 or B2: cuBLASLt's A */
    const float *b_scale; /* its scales as cuBLASLt reads them */
    uint16_t *d;
};

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t kb_of(const pg_dual_dims *d) { return ceil_div(d->K, SCALE_BLOCK); }
static int64_t nb_of(const pg_dual_dims *d) { return ceil_div(d->N, SCALE_BLOCK); }
static int64_t kb4_of(const pg_dual_dims *d) { return ceil_div(kb_of(d), 4) * 4; }

double pg_dual_flops(const pg_dual_dims *d) { return 4.0 * (double)d->G * (double)d->M * (double)d->N * (double)d->K; }

int pg_dual_dims_check(const pg_dual_dims *d)
{
    if (d->G < 1 || d->M < 1 || d->N < 1 || d->K < 1)
        return pg_fail("dual baseline: G, M, N, K must be >= 1 (got %lld, %lld, %lld, %lld)", (long long)d->G,
                       (long long)d->M, (long long)d->N, (long long)d->K);
    if (d->K % 16 != 0)
        return pg_fail("dual baseline: cuBLASLt FP8 needs K %% 16 == 0 (16-byte rows; K = %lld)", (long long)d->K);
    if (d->N % 8 != 0)
        return pg_fail("dual baseline: cuBLASLt needs N %% 8 == 0 (16-byte bf16 rows; N = %lld)", (long long)d->N);
    if (d->M % 4 != 0)
        return pg_fail("dual baseline: cuBLASLt block scales need M %% 4 == 0 (M = %lld)", (long long)d->M);
    if (d->M > INT32_MAX || d->N > INT32_MAX || d->K > INT32_MAX || d->G > INT32_MAX)
        return pg_fail("dual baseline: dimensions above 2^31 - 1");
    if ((unsigned)d->out > PG_DUAL_OUT_FP16 || (unsigned)d->scale > PG_DUAL_SCALE_TENSOR ||
        (unsigned)d->groups > PG_DUAL_GROUPS_BATCHED)
        return pg_fail("dual baseline: unknown output type, scale mode or group mode");
    return 0;
}

static void plan_free(pg_dual_plan *p)
{
    if (!p)
        return;
    pg_lt_plan_destroy(p->op, (const cublasLtMatrixLayout_t[]){p->la, p->lb, p->ld}, 3);
    free(p);
}

/* Group g's scale pointers for plan p: (cuBLASLt A = our B, cuBLASLt B = our A). */
static void group_scales(const pg_dual_baseline *b, const pg_dual_plan *p, int64_t g, const void **sa_lt,
                         const void **sb_lt)
{
    const pg_dual_dims *d = &b->dims;
    /* block: the group's scale arrays; tensor: their first element, the
     * group's scale_b[0][0] and scale_a[0][0], as the tensor scales */
    *sa_lt = p->b_scale + g * nb_of(d) * kb4_of(d);
    *sb_lt = b->sa_t + g * kb_of(d) * d->M;
}

static int set_scale_modes(cublasLtMatmulDesc_t op, pg_dual_scale scale, char *why, size_t why_len)
{
    if (scale == PG_DUAL_SCALE_TENSOR) {
        const int8_t fast = 1; /* the fastest per-tensor configuration */
        PG_LT_TRY(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast));
        return 0;
    }
#if HAVE_LT_BLOCK_SCALES
    const int32_t mode_w = CUBLASLT_MATMUL_MATRIX_SCALE_BLK128x128_32F; /* cuBLASLt A: our B1/B2 */
    const int32_t mode_x = CUBLASLT_MATMUL_MATRIX_SCALE_VEC128_32F;     /* cuBLASLt B: our A */
    PG_LT_TRY(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_A_SCALE_MODE, &mode_w, sizeof mode_w));
    PG_LT_TRY(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_B_SCALE_MODE, &mode_x, sizeof mode_x));
    return 0;
#else
    snprintf(why, why_len, "this cuBLASLt (%d) predates block scales (12.9): use PG_DUAL_SCALE_TENSOR", CUBLAS_VERSION);
    return 1;
#endif
refused:
    return 1;
}

/* 0: ready; 1: refused (why). */
static int plan_make(const pg_dual_baseline *b, const uint8_t *B, const float *b_scale, uint16_t *d_out,
                     cublasLtMatmulPreference_t pref, pg_dual_plan **out, char *why, size_t why_len)
{
    const pg_dual_dims *d = &b->dims;
    const cublasLtHandle_t h = b->lt;
    const int32_t opT = CUBLAS_OP_T, opN = CUBLAS_OP_N;
    int found = 0;
    *out = NULL;
    pg_dual_plan *p = calloc(1, sizeof *p);
    if (!p) {
        pg_fail("out of host memory");
        return -1;
    }
    p->b = B;
    p->b_scale = b_scale;
    p->d = d_out;
    PG_LT_TRY(cublasLtMatmulDescCreate(&p->op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    PG_LT_TRY(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_TRANSA, &opT, sizeof opT));
    PG_LT_TRY(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_TRANSB, &opN, sizeof opN));
    if (set_scale_modes(p->op, d->scale, why, why_len) != 0)
        goto refused;
    const void *sa_lt, *sb_lt;
    group_scales(b, p, 0, &sa_lt, &sb_lt);
    PG_LT_TRY(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &sa_lt, sizeof sa_lt));
    PG_LT_TRY(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &sb_lt, sizeof sb_lt));
    PG_LT_TRY(cublasLtMatrixLayoutCreate(&p->la, CUDA_R_8F_E4M3, (uint64_t)d->K, (uint64_t)d->N, d->K));
    PG_LT_TRY(cublasLtMatrixLayoutCreate(&p->lb, CUDA_R_8F_E4M3, (uint64_t)d->K, (uint64_t)d->M, d->K));
    PG_LT_TRY(cublasLtMatrixLayoutCreate(&p->ld, CUDA_R_16BF, (uint64_t)d->N, (uint64_t)d->M, d->N));
    if (d->groups == PG_DUAL_GROUPS_BATCHED && d->G > 1 &&
        (pg_lt_layout_batch(p->la, d->G, d->N * d->K, why, why_len) ||
         pg_lt_layout_batch(p->lb, d->G, d->M * d->K, why, why_len) ||
         pg_lt_layout_batch(p->ld, d->G, d->M * d->N, why, why_len)))
        goto refused;
    PG_LT_TRY(cublasLtMatmulAlgoGetHeuristic(h, p->op, p->la, p->lb, p->ld, p->ld, pref, 1, &p->heur, &found));
    if (found < 1) {
        snprintf(why, why_len, "cublasLtMatmulAlgoGetHeuristic: no algorithm for this configuration");
        goto refused;
    }
    *out = p;
    return 0;
refused:
    plan_free(p);
    return 1;
}

static int lt_matmul(const pg_dual_baseline *b, const pg_dual_plan *p, int64_t g, int64_t batch, cudaStream_t stream,
                     const char *which)
{
    const pg_dual_dims *d = &b->dims;
    const float alpha = 1.0f, beta = 0.0f;
    const void *sa_lt, *sb_lt;
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    if (batch == 1) { /* one group: point the descriptor at its scales (read at the call) */
        group_scales(b, p, g, &sa_lt, &sb_lt);
        st = cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &sa_lt, sizeof sa_lt);
        if (st == CUBLAS_STATUS_SUCCESS)
            st = cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &sb_lt, sizeof sb_lt);
        if (st != CUBLAS_STATUS_SUCCESS)
            return pg_fail("cublasLtMatmulDescSetAttribute (%s scale pointers, group %lld): %s", which, (long long)g,
                           cublasLtGetStatusString(st));
    }
    const uint8_t *Bg = p->b + g * d->N * d->K;
    const uint8_t *Ag = b->buf.A + g * d->M * d->K;
    uint16_t *Dg = p->d + g * d->M * d->N;
    st = cublasLtMatmul(b->lt, p->op, &alpha, Bg, p->la, Ag, p->lb, &beta, Dg, p->ld, Dg, p->ld, &p->heur.algo, b->ws,
                        PG_LT_WORKSPACE_BYTES, stream);
    if (st != CUBLAS_STATUS_SUCCESS)
        return pg_fail("cublasLtMatmul (%s, group %lld): %s", which, (long long)g, cublasLtGetStatusString(st));
    return 0;
}

int pg_dual_baseline_launch(pg_dual_baseline *b, cudaStream_t stream)
{
    const pg_dual_dims *d = &b->dims;
    if (!b->plan1 || !b->plan2)
        return pg_fail("dual baseline: launch before a successful pg_dual_baseline_prepare");
    const int64_t batch = b->matmuls == 1 ? d->G : 1;
    for (int64_t g = 0; g < b->matmuls; g++)
        if (lt_matmul(b, b->plan1, g, batch, stream, "D1 = A B1^T") != 0 ||
            lt_matmul(b, b->plan2, g, batch, stream, "D2 = A B2^T") != 0)
            return -1;
    cudaError_t e = pg_dual_silu_mul_launch(b->d1, b->d2, b->buf.C, d->G * d->M * d->N, d->out == PG_DUAL_OUT_FP16,
                                            stream);
    if (e != cudaSuccess)
        return pg_cuda_fail("launching the silu(D1) * D2 kernel", e);
    return 0;
}

int pg_dual_baseline_launch_fn(void *ctx)
{
    pg_dual_baseline *b = ctx;
    return pg_dual_baseline_launch(b, b->stream);
}

void pg_dual_baseline_free(pg_dual_baseline *b)
{
    plan_free(b->plan1);
    plan_free(b->plan2);
    cudaFree(b->d1);
    cudaFree(b->d2);
    cudaFree(b->sa_t);
    cudaFree(b->sb1_p);
    cudaFree(b->sb2_p);
    cudaFree(b->ws);
    if (b->lt)
        cublasLtDestroy(b->lt);
    memset(b, 0, sizeof *b);
}

static int dev_alloc(void **p, size_t bytes, const char *what)
{
    cudaError_t e = cudaMalloc(p, bytes);
    if (e != cudaSuccess) {
        *p = NULL;
        pg_cuda_fail(what, e);
        return pg_fail_context("dual baseline: allocating %.3f GB", (double)bytes / 1e9);
    }
    return 0;
}

/* scale_a transposed to M-major, scale_b1/2 padded to KB4
 * columns (zeros beyond KB), as cuBLASLt's VEC128 / BLK128x128 layouts. */
static int copy_block_scales(pg_dual_baseline *b, cudaStream_t stream)
{
    const pg_dual_dims *d = &b->dims;
    const int64_t kb = kb_of(d), kb4 = kb4_of(d), nb = nb_of(d);
    const size_t sa_bytes = (size_t)(d->G * kb * d->M) * sizeof(float);
    const size_t sb_bytes = (size_t)(d->G * nb * kb4) * sizeof(float);
    if (dev_alloc((void **)&b->sa_t, sa_bytes, "scale_a (M-major copy)") ||
        dev_alloc((void **)&b->sb1_p, sb_bytes, "scale_b1 (padded copy)") ||
        dev_alloc((void **)&b->sb2_p, sb_bytes, "scale_b2 (padded copy)"))
        return -1;
    cudaError_t e = pg_dual_transpose_scales_launch(b->buf.scale_a, b->sa_t, d->G, d->M, kb, stream);
    if (e != cudaSuccess)
        return pg_cuda_fail("launching the scale_a transpose", e);
    float *const dst[2] = {b->sb1_p, b->sb2_p};
    const float *const src[2] = {b->buf.scale_b1, b->buf.scale_b2};
    for (int i = 0; i < 2; i++) {
        e = cudaMemsetAsync(dst[i], 0, sb_bytes, stream);
        if (e == cudaSuccess)
            e = cudaMemcpy2DAsync(dst[i], (size_t)kb4 * sizeof(float), src[i], (size_t)kb * sizeof(float),
                                  (size_t)kb * sizeof(float), (size_t)(d->G * nb), cudaMemcpyDeviceToDevice, stream);
        if (e != cudaSuccess)
            return pg_cuda_fail("cudaMemcpy2DAsync (padding scale_b to a multiple of 4 k blocks)", e);
    }
    e = cudaStreamSynchronize(stream);
    if (e != cudaSuccess)
        return pg_cuda_fail("copying the block scales", e);
    return 0;
}

static int open_lt(pg_dual_baseline *b, cublasLtMatmulPreference_t *pref)
{
    const size_t ws_bytes = PG_LT_WORKSPACE_BYTES;
    cublasLtHandle_t h = NULL;
    cublasStatus_t st = cublasLtCreate(&h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return pg_fail("cublasLtCreate: %s", cublasLtGetStatusString(st));
    b->lt = h;
    st = cublasLtMatmulPreferenceCreate(pref);
    if (st != CUBLAS_STATUS_SUCCESS) {
        *pref = NULL;
        return pg_fail("cublasLtMatmulPreferenceCreate: %s", cublasLtGetStatusString(st));
    }
    st = cublasLtMatmulPreferenceSetAttribute(*pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws_bytes,
                                              sizeof ws_bytes);
    if (st != CUBLAS_STATUS_SUCCESS)
        return pg_fail("cublasLtMatmulPreferenceSetAttribute (workspace): %s", cublasLtGetStatusString(st));
    return dev_alloc(&b->ws, ws_bytes, "cuBLASLt workspace");
}

int pg_dual_baseline_prepare(pg_dual_baseline *b, const pg_dual_dims *dims, const pg_dual_buffers *buf,
                             cudaStream_t stream)
{
    int rc = -1;
    cublasLtMatmulPreference_t pref = NULL;
    memset(b, 0, sizeof *b);
    if (pg_dual_dims_check(dims) != 0)
        return -1;
    if (!buf->A || !buf->B1 || !buf->B2 || !buf->scale_a || !buf->scale_b1 || !buf->scale_b2 || !buf->C)
        return pg_fail("dual baseline: a device buffer is NULL");
    b->dims = *dims;
    b->buf = *buf;
    b->stream = stream;
    const pg_dual_dims *d = &b->dims;
    const size_t d_bytes = (size_t)(d->G * d->M * d->N) * 2;
    if (open_lt(b, &pref) != 0 || dev_alloc((void **)&b->d1, d_bytes, "D1") ||
        dev_alloc((void **)&b->d2, d_bytes, "D2"))
        goto done;
    /* Both modes take the scales from these copies: cuBLASLt wants every
     * scale pointer 16-byte aligned, which a group's first scale in the
     * caller's arrays need not be (tensor mode). */
    if (copy_block_scales(b, stream) != 0)
        goto done;
    int r = plan_make(b, buf->B1, b->sb1_p, b->d1, pref, &b->plan1, b->why, sizeof b->why);
    if (r == 0)
        r = plan_make(b, buf->B2, b->sb2_p, b->d2, pref, &b->plan2, b->why, sizeof b->why);
    if (r != 0) {
        if (r == 1) {
            pg_fail("dual baseline: cuBLASLt refused the %s-scaled FP8 GEMM: %s",
                    d->scale == PG_DUAL_SCALE_BLOCK ? "block" : "tensor", b->why);
            rc = 1;
        }
        goto done;
    }
    b->matmuls = d->groups == PG_DUAL_GROUPS_BATCHED ? 1 : (int)d->G;
    rc = 0;
done:
    if (pref)
        cublasLtMatmulPreferenceDestroy(pref);
    if (rc != 0) {
        char why[sizeof b->why];
        memcpy(why, b->why, sizeof why);
        pg_dual_baseline_free(b);
        memcpy(b->why, why, sizeof why);
    }
    return rc;
}
