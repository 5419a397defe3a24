#include "gpu_session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pg_error.h"
#include "tma_maps.h"

int pg_cuda_fail(const char *what, cudaError_t e)
{
    if (e == cudaErrorMemoryAllocation)
        return pg_fail("%s: out of GPU memory (%s)", what, cudaGetErrorString(e));
    return pg_fail("%s: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
}

#define CK(call, what)                                                                                             \
    do {                                                                                                           \
        cudaError_t e_ = (call);                                                                                   \
        if (e_ != cudaSuccess) {                                                                                   \
            rc = pg_cuda_fail(what, e_);                                                                           \
            goto done;                                                                                             \
        }                                                                                                          \
    } while (0)

/* The pingpong kernel's name from the constants it was built with (a
 * -DPG_STAGES=3 build is not the 4-stage kernel; a run file must say so). */
#define PG_STR_(x) #x
#define PG_STR(x) PG_STR_(x)
#define PG_PINGPONG_NAME                                                                                           \
    "h100-pingpong-" PG_STR(PG_TILE_M) "x" PG_STR(PG_TILE_N) "x" PG_STR(PG_TILE_K) "-s" PG_STR(PG_STAGES)

static const pg_variant_info k_variants[PG_VARIANT_COUNT] = {
    [PG_VARIANT_PINGPONG] = {"pingpong", PG_PINGPONG_NAME, PG_TILE_M, PG_TILE_N, PG_TILE_K, PG_STAGES,
                             PG_CLUSTER, 0},
    [PG_VARIANT_BRES] = {"bres", "h100-pingpong-bres-64x192x128-s4", PG_TILE_M, PG_BRES_TILE_N, PG_TILE_K, 4, 1, 0},
    [PG_VARIANT_BRES64] = {"bres64", "h100-pingpong-bres-64x192x64-s8", PG_TILE_M, PG_BRES_TILE_N, 64, 8, 1, 0},
    [PG_VARIANT_BRESMC2] = {"bresmc2", "h100-pingpong-bres-mcA2-64x192x128-s4", PG_TILE_M, PG_BRES_TILE_N, PG_TILE_K, 4,
                            2, 0},
    [PG_VARIANT_BRESMC4] = {"bresmc4", "h100-pingpong-bres-mcA4-64x192x128-s4", PG_TILE_M, PG_BRES_TILE_N, PG_TILE_K, 4,
                            4, 0},
};

const pg_variant_info *pg_variant_get(pg_variant v)
{
    return v >= 0 && v < PG_VARIANT_COUNT ? &k_variants[v] : &k_variants[PG_DEFAULT_VARIANT];
}

int pg_variant_parse(const char *s, pg_variant *v)
{
    if (!strcmp(s, "default") || !strcmp(s, "auto")) {
        *v = PG_VARIANT_AUTO;
        return 0;
    }
    for (int i = 0; i < PG_VARIANT_COUNT; i++)
        if (!strcmp(s, k_variants[i].cli)) {
            *v = (pg_variant)i;
            return 0;
        }
    return pg_fail("unknown kernel variant '%s' (pingpong, bres, bres64, bresmc2, bresmc4, default = %s)", s,
                   k_variants[PG_DEFAULT_VARIANT].cli);
}

static int variant_supports(const pg_shape *s, pg_variant v)
{
    const pg_variant_info *vi = pg_variant_get(v);
    if (pg_shape_check(s) != 0)
        return -1;
    if (s->P < 1) /* a plain GEMM (P = 0) has no combined table for the fused epilogue to add */
        return pg_fail("the %s kernel computes the fused epilogue with a combined table: P >= 1 (P = 0 is a plain GEMM)",
                       vi->cli);
    if (s->N % vi->tile_n != 0)
        return pg_fail("the %s kernel needs N to be a multiple of %d (N = %lld)", vi->cli, vi->tile_n, (long long)s->N);
    if (s->K % vi->tile_k != 0)
        return pg_fail("the %s kernel needs K to be a multiple of %d (K = %lld)", vi->cli, vi->tile_k, (long long)s->K);
    if (PG_VARIANT_IS_BRES(v) && s->K % PG_TILE_K != 0)
        return pg_fail("the %s kernel needs K to be a multiple of %d (K = %lld)", vi->cli, PG_TILE_K, (long long)s->K);
    if (PG_VARIANT_IS_BRES(v) && s->K > PG_BRES_MAX_K)
        return pg_fail("the bres kernel keeps a %d x K panel of B in shared memory: K <= %d (K = %lld)",
                       PG_BRES_TILE_N, PG_BRES_MAX_K, (long long)s->K);
    if (PG_VARIANT_IS_BRES(v) && (s->N / PG_BRES_TILE_N) % vi->cluster != 0)
        return pg_fail("the %s kernel multicasts A over clusters of %d column blocks: N must be a multiple of %d (N = %lld)",
                       vi->cli, vi->cluster, vi->cluster * PG_BRES_TILE_N, (long long)s->N);
    if (PG_VARIANT_IS_BRES(v) && s->N > 64 * PG_BRES_TILE_N)
        return pg_fail("the bres kernel needs one CTA per %d columns: N <= %d (N = %lld)", PG_BRES_TILE_N,
                       64 * PG_BRES_TILE_N, (long long)s->N);
    if (s->M > INT32_MAX / 2 || s->N > 65536 || s->K > 65536 || s->P > INT32_MAX / 4)
        return pg_fail("shape too large for the kernel's 32-bit tile coordinates (M <= 2^30, N, K <= 65536)");
    return 0;
}

pg_variant pg_variant_for_shape(const pg_shape *s)
{
    if (PG_DEFAULT_VARIANT != PG_VARIANT_PINGPONG) {
        if (variant_supports(s, PG_DEFAULT_VARIANT) == 0)
            return PG_DEFAULT_VARIANT;
        pg_clear_error(); /* not an error: the fallback runs it */
    }
    return PG_VARIANT_PINGPONG;
}

int pg_gpu_shape_supported_v(const pg_shape *s, pg_variant v)
{
    if (pg_shape_check(s) != 0)
        return -1;
    return variant_supports(s, v == PG_VARIANT_AUTO ? pg_variant_for_shape(s) : v);
}

int pg_gpu_shape_supported(const pg_shape *s) { return pg_gpu_shape_supported_v(s, PG_VARIANT_AUTO); }

int pg_gpu_open(pg_gpu *g)
{
    int rc = -1, n = 0;
    struct cudaDeviceProp prop;
    int cl = 0, st = 0, tk = 0;
    memset(g, 0, sizeof *g);
    pg_kernel_build_config(&cl, &st, &tk);
    if (cl != PG_CLUSTER || st != PG_STAGES || tk != PG_TILE_K)
        return pg_fail("this build's kernel was compiled with PG_CLUSTER=%d PG_STAGES=%d PG_TILE_K=%d but its host code "
                       "with %d, %d, %d: pass the same -D flags in both -Dcuda_args and -Dc_args",
                       cl, st, tk, PG_CLUSTER, PG_STAGES, PG_TILE_K);
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0)
        return pg_fail("no CUDA GPU available (%s)", e != cudaSuccess ? cudaGetErrorString(e) : "device count is 0");
    CK(cudaGetDeviceProperties(&prop, 0), "reading GPU 0's properties");
    if (prop.major != 9 || prop.minor != 0) {
        rc = pg_fail("the kernel needs an sm_90 (Hopper) GPU; GPU 0 is %s with compute capability %d.%d", prop.name,
                     prop.major, prop.minor);
        goto done;
    }
    g->device = 0;
    g->variant = PG_VARIANT_AUTO;
    g->a_prefetch = -1;
    snprintf(g->name, sizeof g->name, "%.127s", prop.name);
    g->sm_count = prop.multiProcessorCount;
    g->l2_bytes = (size_t)prop.l2CacheSize;
    g->smem_optin = (size_t)prop.sharedMemPerBlockOptin;
    if (g->smem_optin < pg_kernel_smem_bytes(PG_VARIANT_PINGPONG)) {
        rc = pg_fail("GPU 0 allows %zu bytes of shared memory per block; the kernel needs %zu", g->smem_optin,
                     pg_kernel_smem_bytes(PG_VARIANT_PINGPONG));
        goto done;
    }
    CK(cudaSetDevice(0), "selecting GPU 0");
    CK(cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking), "creating a stream");
    CK(cudaEventCreate(&g->ev0), "creating an event");
    CK(cudaEventCreate(&g->ev1), "creating an event");
    rc = 0;
done:
    return rc;
}

static int alloc_dev(void **p, size_t bytes, const char *what)
{
    cudaError_t e = cudaMalloc(p, bytes);
    if (e != cudaSuccess) {
        *p = NULL;
        pg_cuda_fail(what, e);
        return pg_fail_context("allocating %.3f GB on the GPU", (double)bytes / 1e9);
    }
    return 0;
}

int pg_gpu_configure(pg_gpu *g, pg_variant v)
{
    int rc = -1;
    const pg_shape s = g->shape;
    if (v == PG_VARIANT_AUTO)
        v = pg_variant_for_shape(&s);
    if (pg_gpu_shape_supported_v(&s, v) != 0)
        return -1;
    const pg_variant_info *vi = pg_variant_get(v);
    if (g->smem_optin < pg_kernel_smem_bytes(v))
        return pg_fail("GPU 0 allows %zu bytes of shared memory per block; the %s kernel needs %zu", g->smem_optin,
                       vi->cli, pg_kernel_smem_bytes(v));
    if (g->trace_buf.dev.spans)
        return pg_fail("pg_gpu_configure: the trace buffers are sized for the %s kernel", pg_variant_get(g->variant)->cli);
    g->variant = v;
    const int64_t epi_delay = g->params.epi_delay, mainloop_delay = g->params.mainloop_delay;
    memset(&g->params, 0, sizeof g->params);
    if (pg_tma_maps_build(&g->params, g->dA, g->dB, g->d_combined_rep, g->comb_rows, g->dD, &s,
                          PG_VARIANT_IS_BRES(v) ? PG_BRES_TILE_N : PG_TILE_N / PG_CLUSTER, vi->tile_k,
                          PG_VARIANT_IS_BRES(v) ? PG_TILE_M / vi->cluster : PG_TILE_M) != 0)
        goto done;
    g->params.combined = g->d_combined;
    g->params.M = (int32_t)s.M;
    g->params.N = (int32_t)s.N;
    g->params.K = (int32_t)s.K;
    g->params.P = (int32_t)s.P;
    g->params.epi_delay = epi_delay;
    g->params.mainloop_delay = mainloop_delay;
    g->params.a_prefetch = g->a_prefetch >= 0 ? g->a_prefetch : vi->a_prefetch;
    g->tiles_m = (s.M + PG_TILE_M - 1) / PG_TILE_M;
    g->tiles_n = s.N / vi->tile_n;
    g->num_tiles = g->tiles_m * g->tiles_n;
    int max_grid = 0;
    CK(pg_kernel_max_grid(v, g->sm_count, &max_grid), "sizing the persistent grid");
#ifdef PG_DIAG_GRID
    /* A diagnostic build only (docs/experiments.md M104; never the
     * production or trace build): the persistent grid capped at the
     * environment's PG_DIAG_GRID CTAs, whole clusters, so each SM that runs
     * one keeps its pipeline while fewer SMs share the DRAM. */
    const char *grid_cap = getenv("PG_DIAG_GRID");
    const int cap = grid_cap ? atoi(grid_cap) : 0, cluster = vi->cluster > 0 ? vi->cluster : 1;
    if (cap >= cluster && max_grid > cap)
        max_grid = cap - cap % cluster;
#endif
    if (PG_VARIANT_IS_BRES(v)) {
        /* groups of tiles_n CTAs, one per column block; each group takes row blocks */
        int64_t groups = max_grid / g->tiles_n;
        if (groups < 1) {
            rc = pg_fail("the bres kernel needs %lld CTAs at once (one per %d columns); %d fit",
                         (long long)g->tiles_n, PG_BRES_TILE_N, max_grid);
            goto done;
        }
        if (groups > g->tiles_m)
            groups = g->tiles_m;
        g->num_pairs = g->tiles_m * g->tiles_n; /* work units: single tiles */
        g->grid = (int)(groups * g->tiles_n);
    } else {
        g->num_pairs = (g->tiles_m + PG_CLUSTER - 1) / PG_CLUSTER * g->tiles_n;
        g->grid = g->num_pairs * PG_CLUSTER < max_grid ? (int)(g->num_pairs * PG_CLUSTER) : max_grid;
    }
    rc = 0;
done:
    return rc;
}

int pg_gpu_load(pg_gpu *g, const pg_problem *p)
{
    int rc = -1;
    const pg_shape s = p->shape;
    if (pg_gpu_shape_supported_v(&s, g->variant) != 0)
        return -1;
    g->shape = s;
    /* Rows m0 mod P .. + PG_TILE_M - 1 must exist: repeat the table. */
    const int64_t reps = (s.P - 1 + PG_TILE_M + s.P - 1) / s.P;
    g->comb_rows = reps * s.P;
    if (alloc_dev((void **)&g->dA, (size_t)(s.M * s.K), "A") || alloc_dev((void **)&g->dB, (size_t)(s.N * s.K), "B") ||
        alloc_dev((void **)&g->d_combined, (size_t)(s.P * s.N * 2), "combined") ||
        alloc_dev((void **)&g->d_combined_rep, (size_t)(g->comb_rows * s.N * 2), "combined (repeated)") ||
        alloc_dev((void **)&g->dD, (size_t)(s.M * s.N * 2), "D") ||
        alloc_dev((void **)&g->d_count, sizeof(unsigned long long), "counter"))
        goto done;
    CK(cudaMemcpy(g->dA, p->A, (size_t)(s.M * s.K), cudaMemcpyHostToDevice), "uploading A");
    CK(cudaMemcpy(g->dB, p->B, (size_t)(s.N * s.K), cudaMemcpyHostToDevice), "uploading B");
    CK(cudaMemcpy(g->d_combined, p->combined, (size_t)(s.P * s.N * 2), cudaMemcpyHostToDevice), "uploading combined");
    for (int64_t r = 0; r < reps; r++)
        CK(cudaMemcpy(g->d_combined_rep + r * s.P * s.N, p->combined, (size_t)(s.P * s.N * 2), cudaMemcpyHostToDevice),
           "uploading combined (repeated)");
    memset(&g->params, 0, sizeof g->params);
    if (pg_gpu_configure(g, g->variant) != 0)
        goto done;
    rc = 0;
done:
    return rc;
}

int pg_gpu_launch(pg_gpu *g, int trace, int64_t epi_delay, int64_t mainloop_delay)
{
    int rc = -1;
    if (epi_delay < 0 || mainloop_delay < 0)
        return pg_fail("delays must be >= 0 cycles");
    if (trace && pg_gpu_trace_prepare(g) != 0)
        return -1;
    g->params.epi_delay = epi_delay;
    g->params.mainloop_delay = mainloop_delay;
    CK(pg_kernel_launch(g->variant, &g->params, trace, g->grid, g->stream), "launching the fused kernel");
    rc = 0;
done:
    return rc;
}

int pg_gpu_checked_run(pg_gpu *g, int trace, int64_t epi_delay, int64_t mainloop_delay, int64_t *unwritten)
{
    int rc = -1;
    unsigned long long count = 0;
    const int64_t n = g->shape.M * g->shape.N;
    /* 0xFF bytes make every element PG_D_POISON. */
    CK(cudaMemsetAsync(g->dD, 0xFF, (size_t)n * 2, g->stream), "poisoning D");
    if (trace && (pg_gpu_trace_prepare(g) != 0 || pg_gpu_trace_reset(g) != 0))
        goto done;
    if (pg_gpu_launch(g, trace, epi_delay, mainloop_delay) != 0)
        goto done;
    CK(cudaStreamSynchronize(g->stream), "running the fused kernel");
    CK(cudaMemsetAsync(g->d_count, 0, sizeof count, g->stream), "clearing the counter");
    CK(pg_count_equal_launch(g->dD, n, PG_D_POISON, g->d_count, g->stream), "launching the poison count");
    CK(cudaMemcpyAsync(&count, g->d_count, sizeof count, cudaMemcpyDeviceToHost, g->stream), "reading the count");
    CK(cudaStreamSynchronize(g->stream), "counting unwritten outputs");
    *unwritten = (int64_t)count;
    rc = 0;
done:
    return rc;
}

int pg_gpu_time(pg_gpu *g, int trace, int64_t epi_delay, int64_t mainloop_delay, int warmup, int reps, double *ms)
{
    int rc = -1;
    for (int i = 0; i < warmup; i++)
        if (pg_gpu_launch(g, trace, epi_delay, mainloop_delay) != 0)
            goto done;
    for (int i = 0; i < reps; i++) {
        float t = 0;
        CK(cudaEventRecord(g->ev0, g->stream), "recording an event");
        if (pg_gpu_launch(g, trace, epi_delay, mainloop_delay) != 0)
            goto done;
        CK(cudaEventRecord(g->ev1, g->stream), "recording an event");
        CK(cudaEventSynchronize(g->ev1), "running the fused kernel");
        CK(cudaEventElapsedTime(&t, g->ev0, g->ev1), "reading an event time");
        ms[i] = t;
    }
    rc = 0;
done:
    return rc;
}

int pg_gpu_measure_clock(pg_gpu *g, double *hz)
{
    int rc = -1;
    int64_t *d_out = NULL, h[4];
    if (alloc_dev((void **)&d_out, sizeof h, "clock probe"))
        goto done;
    /* ~10 ms at boost clock: globaltimer's coarse steps (~1 us) stay < 1e-3. */
    CK(pg_clock_probe_launch(20000000, d_out, g->stream), "launching the clock probe");
    CK(cudaMemcpyAsync(h, d_out, sizeof h, cudaMemcpyDeviceToHost, g->stream), "reading the clock probe");
    CK(cudaStreamSynchronize(g->stream), "running the clock probe");
    if (h[3] <= h[1]) {
        rc = pg_fail("clock probe: %%globaltimer did not advance");
        goto done;
    }
    *hz = (double)(h[2] - h[0]) / ((double)(h[3] - h[1]) * 1e-9);
    rc = 0;
done:
    cudaFree(d_out);
    return rc;
}

int pg_gpu_download_rows(pg_gpu *g, const int64_t *rows, int64_t nrows, uint16_t *D)
{
    int rc = -1;
    const int64_t N = g->shape.N;
    if (!rows) {
        CK(cudaMemcpy(D, g->dD, (size_t)(g->shape.M * N * 2), cudaMemcpyDeviceToHost), "downloading D");
        return 0;
    }
    for (int64_t i = 0; i < nrows;) {
        /* one copy per run of consecutive rows */
        int64_t j = i + 1;
        while (j < nrows && rows[j] == rows[j - 1] + 1)
            j++;
        if (rows[i] < 0 || rows[j - 1] >= g->shape.M) {
            rc = pg_fail("row %lld is outside 0..%lld", (long long)(rows[i] < 0 ? rows[i] : rows[j - 1]),
                         (long long)g->shape.M - 1);
            goto done;
        }
        CK(cudaMemcpy(D + i * N, g->dD + rows[i] * N, (size_t)((j - i) * N * 2), cudaMemcpyDeviceToHost),
           "downloading D rows");
        i = j;
    }
    rc = 0;
done:
    return rc;
}

void pg_gpu_close(pg_gpu *g)
{
    cudaFree(g->dA);
    cudaFree(g->dB);
    cudaFree(g->d_combined);
    cudaFree(g->d_combined_rep);
    cudaFree(g->dD);
    cudaFree(g->d_count);
    pg_gpu_trace_destroy(g);
    if (g->ev0)
        cudaEventDestroy(g->ev0);
    if (g->ev1)
        cudaEventDestroy(g->ev1);
    if (g->stream)
        cudaStreamDestroy(g->stream);
    memset(g, 0, sizeof *g);
}
