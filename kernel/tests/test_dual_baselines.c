/* The unfused SwiGLU dual-GEMM baseline (kernel/dual_baselines.c) against a
 * plain CPU computation: D1 and D2 against the scaled dot products in double
 * (tolerance: bf16 rounding plus fp32 accumulation), C against
 * silu(D1) * D2 of the GPU's own D1, D2 (tolerance: the output rounding and
 * __expf).  GPU cases skip with the reason when no sm_90 GPU is present; the
 * shape checks run everywhere. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cuda_runtime_api.h>

#include "dual_baselines.h"
#include "formats.h"
#include "gpu_skip.h"
#include "pg_error.h"
#include "rng.h"

/* The GPU cases need cuBLASLt block scales: Hopper-only. */
static const char *lt_gpu_missing(void)
{
    return gpu_missing_because("GPU 0 is not sm_90 (cuBLASLt block scales are Hopper-only)");
}

/* Host copies of one problem. */
typedef struct {
    pg_dual_dims d;
    int64_t kb, nb;
    uint8_t *A, *B[2];
    float *sa, *sb[2];
} host_problem;

/* E4M3 codes with exponent field 0..9 (|x| < 8, subnormals included, no NaN). */
static uint8_t small_code(uint64_t r) { return (uint8_t)((r & 0x80) | ((r >> 8) % 10) << 3 | ((r >> 16) & 7)); }

/* Scales in [2^-6, 2^-4]: distinct per block, so a misplaced scale shows. */
static float block_scale(uint64_t r) { return (float)(4 + r % 5) / 4.0f * ldexpf(1.0f, -5 - (int)((r >> 8) % 2)); }

static void problem_make(host_problem *p, pg_dual_dims d, uint64_t seed, int same_scales_per_group)
{
    memset(p, 0, sizeof *p);
    p->d = d;
    p->kb = (d.K + 127) / 128;
    p->nb = (d.N + 127) / 128;
    const int64_t na = d.G * d.M * d.K, nbw = d.G * d.N * d.K, nsa = d.G * d.M * p->kb, nsb = d.G * p->nb * p->kb;
    p->A = malloc((size_t)na);
    p->sa = malloc((size_t)nsa * sizeof(float));
    assert_non_null(p->A);
    assert_non_null(p->sa);
    for (int64_t i = 0; i < na; i++)
        p->A[i] = small_code(pg_rng_u64(seed, 1, (uint64_t)i));
    for (int64_t i = 0; i < nsa; i++)
        p->sa[i] = block_scale(pg_rng_u64(seed, 4, (uint64_t)(same_scales_per_group ? i % (nsa / d.G) : i)));
    for (int w = 0; w < 2; w++) {
        p->B[w] = malloc((size_t)nbw);
        p->sb[w] = malloc((size_t)nsb * sizeof(float));
        assert_non_null(p->B[w]);
        assert_non_null(p->sb[w]);
        for (int64_t i = 0; i < nbw; i++)
            p->B[w][i] = small_code(pg_rng_u64(seed, 2 + (uint64_t)w, (uint64_t)i));
        for (int64_t i = 0; i < nsb; i++)
            p->sb[w][i] =
                block_scale(pg_rng_u64(seed, 5 + (uint64_t)w, (uint64_t)(same_scales_per_group ? i % (nsb / d.G) : i)));
    }
}

static void problem_free(host_problem *p)
{
    free(p->A);
    free(p->sa);
    for (int w = 0; w < 2; w++) {
        free(p->B[w]);
        free(p->sb[w]);
    }
}

/* D[g][m][n] in double and the sum of the magnitudes of its scaled terms. */
static void ref_dot(const host_problem *p, int w, int64_t g, int64_t m, int64_t n, double *dot, double *mag)
{
    const pg_dual_dims *d = &p->d;
    const uint8_t *a = p->A + (g * d->M + m) * d->K, *b = p->B[w] + (g * d->N + n) * d->K;
    const float *sa = p->sa + (g * d->M + m) * p->kb, *sb = p->sb[w] + (g * p->nb + n / 128) * p->kb;
    const double tensor = (double)p->sa[g * d->M * p->kb] * (double)p->sb[w][g * p->nb * p->kb];
    *dot = 0;
    *mag = 0;
    for (int64_t k = 0; k < d->K; k++) {
        const double s = d->scale == PG_DUAL_SCALE_BLOCK ? (double)sa[k / 128] * (double)sb[k / 128] : tensor;
        const double t = s * (double)pg_fp8_to_f32(a[k]) * (double)pg_fp8_to_f32(b[k]);
        *dot += t;
        *mag += fabs(t);
    }
}

static float out_to_f32(uint16_t h, pg_dual_out t) { return t == PG_DUAL_OUT_FP16 ? pg_fp16_to_f32(h) : pg_bf16_to_f32(h); }

/* Elements of D1 (w = 0) or D2 outside tolerance; prints the first few. */
static int64_t check_d(const host_problem *p, int w, const uint16_t *gpu)
{
    const pg_dual_dims *d = &p->d;
    /* fp32 accumulation: Hopper's FP8 MMA aligns each 32-k block to 13
     * fraction bits; fast accumulation (tensor mode) chains that over K */
    const double acc_tol = d->scale == PG_DUAL_SCALE_BLOCK ? 1e-3 : 4e-3;
    int64_t bad = 0;
    for (int64_t g = 0; g < d->G; g++)
        for (int64_t m = 0; m < d->M; m++)
            for (int64_t n = 0; n < d->N; n++) {
                double ref, mag;
                ref_dot(p, w, g, m, n, &ref, &mag);
                const double got = pg_bf16_to_f32(gpu[(g * d->M + m) * d->N + n]);
                if (fabs(got - ref) <= fabs(ref) * 0x1p-8 + mag * acc_tol)
                    continue;
                if (bad++ < 5)
                    print_message("D%d[%lld][%lld][%lld]: gpu %.6g ref %.6g (|terms| %.3g)\n", w + 1, (long long)g,
                                  (long long)m, (long long)n, got, ref, mag);
            }
    return bad;
}

/* C against silu(D1) * D2 computed in double from the GPU's D1, D2. */
static int64_t check_c(const pg_dual_dims *d, const uint16_t *d1, const uint16_t *d2, const uint16_t *c)
{
    const int64_t n = d->G * d->M * d->N;
    const double tiny = d->out == PG_DUAL_OUT_FP16 ? 0x1p-24 : 0x1p-126;
    int64_t bad = 0;
    for (int64_t i = 0; i < n; i++) {
        const double x = pg_bf16_to_f32(d1[i]), y = pg_bf16_to_f32(d2[i]);
        const double ref = x / (1.0 + exp(-x)) * y, got = out_to_f32(c[i], d->out);
        if (fabs(got - ref) <= fabs(ref) * 0x1p-7 + tiny)
            continue;
        if (bad++ < 5)
            print_message("C[%lld]: gpu %.6g ref %.6g (d1 %.6g d2 %.6g)\n", (long long)i, got, ref, x, y);
    }
    return bad;
}

/* Device copies of a host problem. */
typedef struct {
    pg_dual_buffers buf;
    void *alloc[7];
} dev_problem;

static void *upload(dev_problem *dp, int slot, const void *src, size_t bytes)
{
    void *p = NULL;
    assert_int_equal(cudaMalloc(&p, bytes), cudaSuccess);
    dp->alloc[slot] = p;
    if (src)
        assert_int_equal(cudaMemcpy(p, src, bytes, cudaMemcpyHostToDevice), cudaSuccess);
    return p;
}

static void dev_make(dev_problem *dp, const host_problem *p)
{
    const pg_dual_dims *d = &p->d;
    const size_t na = (size_t)(d->G * d->M * d->K), nbw = (size_t)(d->G * d->N * d->K);
    const size_t nsa = (size_t)(d->G * d->M * p->kb), nsb = (size_t)(d->G * p->nb * p->kb);
    memset(dp, 0, sizeof *dp);
    dp->buf.A = upload(dp, 0, p->A, na);
    dp->buf.B1 = upload(dp, 1, p->B[0], nbw);
    dp->buf.B2 = upload(dp, 2, p->B[1], nbw);
    dp->buf.scale_a = upload(dp, 3, p->sa, nsa * sizeof(float));
    dp->buf.scale_b1 = upload(dp, 4, p->sb[0], nsb * sizeof(float));
    dp->buf.scale_b2 = upload(dp, 5, p->sb[1], nsb * sizeof(float));
    dp->buf.C = upload(dp, 6, NULL, (size_t)(d->G * d->M * d->N) * 2);
}

static void dev_free(dev_problem *dp)
{
    for (int i = 0; i < 7; i++)
        cudaFree(dp->alloc[i]);
}

/* Run the baseline once on p and check D1, D2 and C.  A batched plan
 * cuBLASLt refuses (return 1) is reported, not failed: the loop covers it. */
static void run_case(pg_dual_dims d, uint64_t seed)
{
    host_problem p;
    dev_problem dp;
    pg_dual_baseline b;
    cudaStream_t stream = NULL;
    const size_t n = (size_t)(d.G * d.M * d.N);
    problem_make(&p, d, seed, d.groups == PG_DUAL_GROUPS_BATCHED);
    dev_make(&dp, &p);
    assert_int_equal(cudaStreamCreate(&stream), cudaSuccess);
    const int rc = pg_dual_baseline_prepare(&b, &d, &dp.buf, stream);
    if (rc == 1 && d.groups == PG_DUAL_GROUPS_BATCHED) {
        print_message("cuBLASLt refused the batched plan (G = %lld): %s\n", (long long)d.G, pg_last_error());
        assert_true(strlen(b.why) > 0);
        goto done;
    }
    if (rc != 0)
        fail_msg("prepare (G=%lld M=%lld N=%lld K=%lld): %s", (long long)d.G, (long long)d.M, (long long)d.N,
                 (long long)d.K, pg_last_error());
    assert_int_equal(cudaMemset(dp.buf.C, 0xFF, n * 2), cudaSuccess); /* NaN poison in both formats */
    if (pg_dual_baseline_launch(&b, stream) != 0)
        fail_msg("launch: %s", pg_last_error());
    assert_int_equal(cudaStreamSynchronize(stream), cudaSuccess);
    uint16_t *d1 = malloc(n * 2), *d2 = malloc(n * 2), *c = malloc(n * 2);
    assert_non_null(d1);
    assert_non_null(d2);
    assert_non_null(c);
    assert_int_equal(cudaMemcpy(d1, b.d1, n * 2, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_int_equal(cudaMemcpy(d2, b.d2, n * 2, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_int_equal(cudaMemcpy(c, dp.buf.C, n * 2, cudaMemcpyDeviceToHost), cudaSuccess);
    assert_int_equal(check_d(&p, 0, d1), 0);
    assert_int_equal(check_d(&p, 1, d2), 0);
    assert_int_equal(check_c(&d, d1, d2, c), 0);
    free(d1);
    free(d2);
    free(c);
done:
    pg_dual_baseline_free(&b);
    cudaStreamDestroy(stream);
    dev_free(&dp);
    problem_free(&p);
}

static void test_block_bf16(void **state)
{
    (void)state;
    skip_without_gpu_because(lt_gpu_missing());
    run_case((pg_dual_dims){1, 256, 384, 512, PG_DUAL_OUT_BF16, PG_DUAL_SCALE_BLOCK, PG_DUAL_GROUPS_LOOP}, 1);
}

/* Partial 128-blocks in M, N and K; KB = 3, so scale_b is padded to 4. */
static void test_block_partial_fp16_groups(void **state)
{
    (void)state;
    skip_without_gpu_because(lt_gpu_missing());
    run_case((pg_dual_dims){2, 200, 136, 272, PG_DUAL_OUT_FP16, PG_DUAL_SCALE_BLOCK, PG_DUAL_GROUPS_LOOP}, 2);
}

static void test_block_batched(void **state)
{
    (void)state;
    skip_without_gpu_because(lt_gpu_missing());
    run_case((pg_dual_dims){3, 128, 256, 384, PG_DUAL_OUT_BF16, PG_DUAL_SCALE_BLOCK, PG_DUAL_GROUPS_BATCHED}, 3);
}

static void test_tensor_fallback(void **state)
{
    (void)state;
    skip_without_gpu_because(lt_gpu_missing());
    run_case((pg_dual_dims){2, 64, 128, 256, PG_DUAL_OUT_BF16, PG_DUAL_SCALE_TENSOR, PG_DUAL_GROUPS_LOOP}, 4);
}

static void test_rejects_bad_dims(void **state)
{
    (void)state;
    const pg_dual_dims ok = {2, 256, 384, 512, PG_DUAL_OUT_BF16, PG_DUAL_SCALE_BLOCK, PG_DUAL_GROUPS_LOOP};
    pg_dual_dims d = ok;
    assert_int_equal(pg_dual_dims_check(&d), 0);
    d.K = 520;
    assert_int_equal(pg_dual_dims_check(&d), -1);
    assert_non_null(strstr(pg_last_error(), "K % 16"));
    d = ok;
    d.N = 100;
    assert_int_equal(pg_dual_dims_check(&d), -1);
    assert_non_null(strstr(pg_last_error(), "N % 8"));
    d = ok;
    d.M = 6;
    assert_int_equal(pg_dual_dims_check(&d), -1);
    assert_non_null(strstr(pg_last_error(), "M % 4"));
    d = ok;
    d.G = 0;
    assert_int_equal(pg_dual_dims_check(&d), -1);
    d = ok;
    d.scale = (pg_dual_scale)7;
    assert_int_equal(pg_dual_dims_check(&d), -1);
    /* no CUDA call is reached: NULL buffers, launch before prepare */
    pg_dual_baseline b;
    const pg_dual_buffers none = {0};
    assert_int_equal(pg_dual_baseline_prepare(&b, &ok, &none, NULL), -1);
    assert_non_null(strstr(pg_last_error(), "NULL"));
    assert_int_equal(pg_dual_baseline_launch(&b, NULL), -1);
    assert_non_null(strstr(pg_last_error(), "before"));
    pg_dual_baseline_free(&b);
    /* 2 GEMMs of 2 M N K flops per group */
    assert_true(pg_dual_flops(&ok) == 4.0 * 2 * 256 * 384 * 512);
}

/* Exit 77 (meson's SKIP) when no sm_90 GPU ran the GPU cases. */
int main(void)
{
    const struct CMUnitTest cpu_tests[] = {
        cmocka_unit_test(test_rejects_bad_dims),
    };
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_block_bf16),
        cmocka_unit_test(test_block_partial_fp16_groups),
        cmocka_unit_test(test_block_batched),
        cmocka_unit_test(test_tensor_fallback),
    };
    const int failed = cmocka_run_group_tests(cpu_tests, NULL, NULL);
    const char *why = lt_gpu_missing();
    if (why) {
        print_message("skipping the GPU cases: %s\n", why);
        return failed ? 1 : 77;
    }
    return cmocka_run_group_tests(tests, NULL, NULL) || failed ? 1 : 0;
}
