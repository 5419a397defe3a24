#include "baselines.h"

#include <stdio.h>
#include <string.h>

#include <cublasLt.h>

#include "lt_common.h"
#include "pg_error.h"
#include "tma_floor_host.h"

/* One cuBLASLt matmul, ready to run. */
typedef struct {
    cublasLtMatmulDesc_t op;
    cublasLtMatrixLayout_t la, lb, lc, ld;
    cublasLtMatmulHeuristicResult_t heur;
    const void *a, *b, *c;
    void *d;
    float alpha, beta;
} lt_plan;

static void plan_free(lt_plan *p)
{
    pg_lt_plan_destroy(p->op, (const cublasLtMatrixLayout_t[]){p->la, p->lb, p->lc, p->ld}, 4);
    memset(p, 0, sizeof *p);
}

typedef enum { PLAN_PLAIN, PLAN_BIAS, PLAN_BATCHED_C } plan_kind;

/* 0: ready; 1: cuBLASLt refused this configuration (reason in why). */
static int plan_make(cublasLtHandle_t h, cublasLtMatmulPreference_t pref, const pg_gpu *g, plan_kind kind, lt_plan *p,
                     char *why, size_t why_len)
{
    const pg_shape s = g->shape;
    const int32_t opT = CUBLAS_OP_T, opN = CUBLAS_OP_N;
    const int8_t fast = 1; /* chained accumulation: the kernel's own `sm90` mode */
    int64_t images = 1, cols = s.M;
    memset(p, 0, sizeof *p);
    if (kind == PLAN_BATCHED_C) {
        if (s.M % s.P != 0) {
            snprintf(why, why_len, "M %% P != 0: no whole images to batch over");
            return 1;
        }
        images = s.M / s.P;
        cols = s.P;
    }
    PG_LT_TRY(cublasLtMatmulDescCreate(&p->op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    PG_LT_TRY(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_TRANSA, &opT, sizeof opT));
    PG_LT_TRY(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_TRANSB, &opN, sizeof opN));
    PG_LT_TRY(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast));
    if (kind == PLAN_BIAS) {
        const int32_t epi = CUBLASLT_EPILOGUE_BIAS;
        const void *bias = g->d_combined; /* one row of combined as the per-column bias */
        const int32_t bias_type = CUDA_R_16BF;
        PG_LT_TRY(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi));
        PG_LT_TRY(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias));
        PG_LT_TRY(
            cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &bias_type, sizeof bias_type));
    }
    /* "A" of cuBLASLt = our B (K x N col-major), "B" = our A (K x cols col-major). */
    PG_LT_TRY(cublasLtMatrixLayoutCreate(&p->la, CUDA_R_8F_E4M3, (uint64_t)s.K, (uint64_t)s.N, s.K));
    PG_LT_TRY(cublasLtMatrixLayoutCreate(&p->lb, CUDA_R_8F_E4M3, (uint64_t)s.K, (uint64_t)cols, s.K));
    PG_LT_TRY(cublasLtMatrixLayoutCreate(&p->lc, CUDA_R_16BF, (uint64_t)s.N, (uint64_t)cols, s.N));
    PG_LT_TRY(cublasLtMatrixLayoutCreate(&p->ld, CUDA_R_16BF, (uint64_t)s.N, (uint64_t)cols, s.N));
    if (kind == PLAN_BATCHED_C) {
        if (pg_lt_layout_batch(p->la, images, 0, why, why_len) ||
            pg_lt_layout_batch(p->lb, images, s.P * s.K, why, why_len) ||
            pg_lt_layout_batch(p->lc, images, 0, why, why_len) ||
            pg_lt_layout_batch(p->ld, images, s.P * s.N, why, why_len))
            goto refused;
    }
    int found = 0;
    PG_LT_TRY(cublasLtMatmulAlgoGetHeuristic(h, p->op, p->la, p->lb, p->lc, p->ld, pref, 1, &p->heur, &found));
    if (found < 1) {
        snprintf(why, why_len, "cuBLASLt found no algorithm");
        goto refused;
    }
    p->a = g->dB;
    p->b = g->dA;
    p->d = g->dD;
    p->alpha = 1.0f;
    if (kind == PLAN_BATCHED_C) {
        p->c = g->d_combined;
        p->beta = 1.0f;
    } else {
        p->c = g->dD;
        p->beta = 0.0f;
    }
    return 0;
refused:
    plan_free(p);
    return 1;
}

static cudaError_t plan_run(cublasLtHandle_t h, const lt_plan *p, void *ws, cudaStream_t st, cublasStatus_t *cs)
{
    *cs = cublasLtMatmul(h, p->op, &p->alpha, p->a, p->la, p->b, p->lb, &p->beta, p->c, p->lc, p->d, p->ld,
                         &p->heur.algo, ws, PG_LT_WORKSPACE_BYTES, st);
    return cudaGetLastError();
}

/* What one sample runs. */
typedef struct {
    cublasLtHandle_t h;
    const lt_plan *plan;
    void *ws;
    int add;             /* then the separate add kernel */
    int stream;          /* the A -> D stream kernel */
    int write_d;         /* D written alone (memset) */
    void *copy_dst;      /* copy baseline when != NULL */
    const void *copy_src;
    size_t copy_bytes;
    const pg_tma_floor *floor; /* a TMA read floor when != NULL */
} sample_job;

static int run_job(pg_gpu *g, const sample_job *j)
{
    cudaError_t e;
    cublasStatus_t cs = CUBLAS_STATUS_SUCCESS;
    if (j->floor)
        e = pg_tma_floor_launch(j->floor, g->sm_count, g->stream);
    else if (j->copy_dst)
        e = cudaMemcpyAsync(j->copy_dst, j->copy_src, j->copy_bytes, cudaMemcpyDeviceToDevice, g->stream);
    else if (j->stream)
        e = pg_stream_a_to_d_launch(g->dA, g->dD, g->shape.M, g->shape.K, g->shape.N, g->stream);
    else if (j->write_d)
        e = cudaMemsetAsync(g->dD, 0x3F, (size_t)g->shape.M * (size_t)g->shape.N * 2, g->stream);
    else
        e = plan_run(j->h, j->plan, j->ws, g->stream, &cs);
    if (cs != CUBLAS_STATUS_SUCCESS)
        return pg_fail("cublasLtMatmul: %s", cublasLtGetStatusString(cs));
    if (e == cudaSuccess && j->add)
        e = pg_add_combined_launch(g->dD, g->d_combined, g->shape.M, g->shape.N, g->shape.P, g->stream);
    if (e != cudaSuccess)
        return pg_cuda_fail("running a baseline", e);
    return 0;
}

static int time_job(pg_gpu *g, const sample_job *j, int warmup, int reps, pg_baseline *b)
{
    for (int i = 0; i < warmup; i++)
        if (run_job(g, j) != 0)
            return -1;
    for (int i = 0; i < reps; i++) {
        float t = 0;
        cudaError_t e = cudaEventRecord(g->ev0, g->stream);
        if (e == cudaSuccess && run_job(g, j) != 0)
            return -1;
        if (e == cudaSuccess)
            e = cudaEventRecord(g->ev1, g->stream);
        if (e == cudaSuccess)
            e = cudaEventSynchronize(g->ev1);
        if (e == cudaSuccess)
            e = cudaEventElapsedTime(&t, g->ev0, g->ev1);
        if (e != cudaSuccess)
            return pg_cuda_fail("timing a baseline", e);
        b->ms[i] = t;
    }
    b->n = reps;
    b->ok = 1;
    return 0;
}

/* The stream-floor kernel moves 16-byte chunks of A rows and D rows. */
static int stream_fits(const pg_shape *s) { return s->K % 16 == 0 && s->N % 8 == 0; }

/* cuBLASLt's handle, a preference allowing the workspace, the workspace. */
typedef struct {
    cublasLtHandle_t h;
    cublasLtMatmulPreference_t pref;
    void *ws;
} lt_env;

static void lt_env_close(lt_env *v)
{
    cudaFree(v->ws);
    if (v->pref)
        cublasLtMatmulPreferenceDestroy(v->pref);
    if (v->h)
        cublasLtDestroy(v->h);
    memset(v, 0, sizeof *v);
}

static int lt_env_open(lt_env *v)
{
    const size_t ws_bytes = PG_LT_WORKSPACE_BYTES;
    memset(v, 0, sizeof *v);
    cublasStatus_t st = cublasLtCreate(&v->h);
    if (st != CUBLAS_STATUS_SUCCESS)
        return pg_fail("cublasLtCreate: %s", cublasLtGetStatusString(st));
    st = cublasLtMatmulPreferenceCreate(&v->pref);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = cublasLtMatmulPreferenceSetAttribute(v->pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws_bytes,
                                                  sizeof ws_bytes);
    if (st != CUBLAS_STATUS_SUCCESS) {
        lt_env_close(v);
        return pg_fail("cuBLASLt preference: %s", cublasLtGetStatusString(st));
    }
    cudaError_t e = cudaMalloc(&v->ws, ws_bytes);
    if (e != cudaSuccess) {
        v->ws = NULL;
        lt_env_close(v);
        return pg_cuda_fail("cuBLASLt workspace", e);
    }
    return 0;
}

typedef struct {
    pg_gpu *g;
    const sample_job *job;
} job_ctx;

static int job_launch(void *ctx)
{
    const job_ctx *c = ctx;
    return run_job(c->g, c->job);
}

int pg_baselines_energy(pg_gpu *g, pg_energy *en, double warm_ms, double min_ms, pg_energy_sample *gemm,
                        pg_energy_sample *stream)
{
    int rc = -1;
    lt_env v;
    lt_plan plan;
    char why[160];
    memset(&plan, 0, sizeof plan);
    if (lt_env_open(&v) != 0)
        return -1;
    if (plan_make(v.h, v.pref, g, PLAN_PLAIN, &plan, why, sizeof why) != 0) {
        pg_fail("cuBLASLt refused the plain FP8 GEMM: %s", why);
        goto done;
    }
    {
        const sample_job j = {.h = v.h, .plan = &plan, .ws = v.ws};
        job_ctx c = {g, &j};
        if (pg_energy_measure(en, g->stream, job_launch, &c, warm_ms, min_ms, gemm) != 0)
            goto done;
    }
    if (stream_fits(&g->shape)) {
        const sample_job j = {.stream = 1};
        job_ctx c = {g, &j};
        if (pg_energy_measure(en, g->stream, job_launch, &c, warm_ms, min_ms, stream) != 0)
            goto done;
    } else {
        memset(stream, 0, sizeof *stream);
    }
    rc = 0;
done:
    plan_free(&plan);
    lt_env_close(&v);
    return rc;
}

/* The TMA read floors (docs/experiments.md M44, tma_floor_host.h): 6 loads
 * of 32 KB in flight per SM from L2, 8 of A's 8 KB boxes from DRAM. */
static int time_tma_floors(pg_gpu *g, int warmup, int reps, pg_baseline *l2, pg_baseline *dram)
{
    pg_tma_floor f;
    void *buf = NULL;
    int ready = pg_tma_floor_l2(g, 6, &f, &buf, l2->why, sizeof l2->why);
    if (ready == 0) {
        const sample_job j = {.floor = &f};
        l2->bytes = pg_tma_floor_bytes(&f, g->sm_count);
        ready = time_job(g, &j, warmup, reps, l2);
    }
    cudaFree(buf);
    if (ready < 0)
        return -1;
    ready = pg_tma_floor_dram(g, 8, &f, dram->why, sizeof dram->why);
    if (ready == 0) {
        const sample_job j = {.floor = &f};
        dram->bytes = pg_tma_floor_bytes(&f, g->sm_count);
        ready = time_job(g, &j, warmup, reps, dram);
    }
    return ready < 0 ? -1 : 0;
}

int pg_baselines_run(pg_gpu *g, int warmup, int reps, pg_baseline out[PG_BASE_COUNT])
{
    int rc = -1;
    lt_env v;
    void *copy_a = NULL, *copy_b = NULL;
    lt_plan plans[3];
    const pg_shape s = g->shape;
    const double flops = 2.0 * (double)s.M * (double)s.N * (double)s.K;
    const double bytes = (double)s.M * s.K + 2.0 * (double)s.M * s.N; /* A read once + D written once */
    static const char *const names[PG_BASE_COUNT] = {"cublaslt_gemm", "cublaslt_bias", "cublaslt_batched_c",
                                                     "cublaslt_gemm_add", "copy", "stream_a_to_d", "write_d",
                                                     "tma_read_l2", "tma_read_dram"};
    static const char *const labels[PG_BASE_COUNT] = {"cuBLASLt FP8 GEMM alone", "cuBLASLt + BIAS epilogue",
                                                      "cuBLASLt batched, C=combined", "cuBLASLt + add kernel",
                                                      "D2D copy of compulsory bytes", "stream A in, D out (no math)",
                                                      "write D only (memset)",
                                                      "TMA read of L2-resident boxes", "TMA read of A from DRAM"};
    memset(plans, 0, sizeof plans);
    if (reps > 256)
        reps = 256;
    for (int i = 0; i < PG_BASE_COUNT; i++) {
        memset(&out[i], 0, sizeof out[i]);
        out[i].name = names[i];
        out[i].label = labels[i];
        out[i].flops = i >= PG_BASE_COPY ? 0.0 : flops;
        out[i].bytes = bytes;
    }
    if (lt_env_open(&v) != 0)
        return -1;
    const cublasLtHandle_t h = v.h;
    void *const ws = v.ws;
    cudaError_t e;
    const plan_kind kinds[3] = {PLAN_PLAIN, PLAN_BIAS, PLAN_BATCHED_C};
    const int slot[3] = {PG_BASE_GEMM, PG_BASE_BIAS, PG_BASE_BATCHED_C};
    for (int k = 0; k < 3; k++) {
        if (plan_make(h, v.pref, g, kinds[k], &plans[k], out[slot[k]].why, sizeof out[slot[k]].why) != 0)
            continue;
        sample_job j = {.h = h, .plan = &plans[k], .ws = ws};
        if (time_job(g, &j, warmup, reps, &out[slot[k]]) != 0)
            goto done;
    }
    if (plans[0].op) {
        sample_job j = {.h = h, .plan = &plans[0], .ws = ws, .add = 1};
        if (time_job(g, &j, warmup, reps, &out[PG_BASE_GEMM_ADD]) != 0)
            goto done;
    } else {
        snprintf(out[PG_BASE_GEMM_ADD].why, sizeof out[PG_BASE_GEMM_ADD].why, "the plain GEMM was refused");
    }
    /* A copy of half the compulsory bytes reads them and writes them: the
     * same traffic as A in + D out. */
    const size_t half = (size_t)(bytes / 2) & ~(size_t)255;
    e = cudaMalloc(&copy_a, half);
    if (e == cudaSuccess)
        e = cudaMalloc(&copy_b, half);
    if (e == cudaSuccess)
        e = cudaMemsetAsync(copy_a, 0x5A, half, g->stream);
    if (e != cudaSuccess) {
        rc = pg_cuda_fail("copy baseline buffers", e);
        goto done;
    }
    {
        sample_job j = {.copy_dst = copy_b, .copy_src = copy_a, .copy_bytes = half};
        out[PG_BASE_COPY].bytes = 2.0 * (double)half;
        if (time_job(g, &j, warmup, reps, &out[PG_BASE_COPY]) != 0)
            goto done;
    }
    /* The kernel's own traffic mix (A in once, D out once: 1 : 2), which the
     * balanced copy above does not have; D is rewritten by the next checked
     * run, which poisons it first. */
    if (stream_fits(&s)) {
        sample_job j = {.stream = 1};
        if (time_job(g, &j, warmup, reps, &out[PG_BASE_STREAM]) != 0)
            goto done;
    } else {
        snprintf(out[PG_BASE_STREAM].why, sizeof out[PG_BASE_STREAM].why, "needs K %% 16 == 0 and N %% 8 == 0");
    }
    {
        sample_job j = {.write_d = 1};
        out[PG_BASE_WRITE].bytes = 2.0 * (double)s.M * s.N;
        if (time_job(g, &j, warmup, reps, &out[PG_BASE_WRITE]) != 0)
            goto done;
    }
    if (time_tma_floors(g, warmup, reps, &out[PG_BASE_TMA_L2], &out[PG_BASE_TMA_DRAM]) != 0)
        goto done;
    rc = 0;
done:
    for (int k = 0; k < 3; k++)
        plan_free(&plans[k]);
    cudaFree(copy_a);
    cudaFree(copy_b);
    lt_env_close(&v);
    return rc;
}
