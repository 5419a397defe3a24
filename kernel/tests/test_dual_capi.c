/* The dual-GEMM kernel's C ABI (kernel/dual_capi.h, libpegemm_dual.so, the
 * library this test links): argument checks without a GPU -- NULL and
 * misaligned pointers, shapes and output types the kernel does not run, a
 * NULL handle -- each failing with NULL / -1 and a message naming it; then,
 * on an sm_90 GPU, both designs on caller-owned buffers against the CPU
 * reference bit for bit (on a caller's stream), the buffers left to the
 * caller by destroy, and pointers the GPU part refuses (host memory, an
 * allocation too small).  Exits 77 (SKIP) without an sm_90 GPU, after the
 * checks that need none. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cuda_runtime_api.h>

#include "accum.h"
#include "dual_capi.h"
#include "dual_inputs.h"
#include "gpu_skip.h"
#include "pg_error.h"

/* Stand-ins for device buffers in the checks that fail before touching the
 * device: 16-byte aligned host memory, never dereferenced. */
static _Alignas(16) unsigned char k_fake[7][64];

typedef struct {
    int64_t G, M, N, K;
    const char *out;
    const void *p[7]; /* A, B1, B2, scale_a, scale_b1, scale_b2, C */
} args;

static args good_args(void)
{
    args a = {1, 128, 128, 128, "bf16", {0}};
    for (int i = 0; i < 7; i++)
        a.p[i] = k_fake[i];
    return a;
}

static void *create(const args *a)
{
    return pegemm_dual_create(a->G, a->M, a->N, a->K, a->out, a->p[0], a->p[1], a->p[2], a->p[3], a->p[4], a->p[5],
                              (void *)a->p[6]);
}

/* create(a) fails and the message holds `want` and the entry point's name. */
static void refused(const args *a, const char *want)
{
    void *h = create(a);
    const char *msg = pegemm_dual_last_error();
    if (h || !strstr(msg, want) || !strstr(msg, "pegemm_dual_create"))
        fail_msg("expected a refusal naming '%s', got %s '%s'", want, h ? "a handle" : "NULL", msg);
}

/* ---------------------------------------------------------------- no GPU needed */
static void test_null_pointers(void **state)
{
    (void)state;
    static const char *const names[7] = {"A is NULL",        "B1 is NULL",       "B2 is NULL", "scale_a is NULL",
                                         "scale_b1 is NULL", "scale_b2 is NULL", "C is NULL"};
    for (int i = 0; i < 7; i++) {
        args a = good_args();
        a.p[i] = NULL;
        refused(&a, names[i]);
    }
}

static void test_misaligned(void **state)
{
    (void)state;
    static const char *const names[7] = {"A at", "B1 at", "B2 at", "scale_a at", "scale_b1 at", "scale_b2 at", "C at"};
    for (int i = 0; i < 7; i++) {
        args a = good_args();
        const int off = i >= 3 && i <= 5 ? 2 : 8; /* the scales need 4 bytes, the TMA operands 16 */
        a.p[i] = k_fake[i] + off;
        refused(&a, names[i]);
        refused(&a, i >= 3 && i <= 5 ? "not 4-byte aligned" : "not 16-byte aligned");
    }
}

static void test_bad_shapes(void **state)
{
    (void)state;
    const int64_t shapes[][4] = {{0, 128, 128, 128}, {1, 0, 128, 128}, {1, 128, -128, 128}, {1, 128, 128, 0}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        args a = good_args();
        a.G = shapes[i][0], a.M = shapes[i][1], a.N = shapes[i][2], a.K = shapes[i][3];
        refused(&a, "shape G=");
    }
    const int64_t not128[][4] = {{1, 100, 128, 128}, {1, 128, 192, 128}, {1, 128, 128, 64}};
    for (size_t i = 0; i < sizeof not128 / sizeof not128[0]; i++) {
        args a = good_args();
        a.G = not128[i][0], a.M = not128[i][1], a.N = not128[i][2], a.K = not128[i][3];
        refused(&a, "multiples of 128");
    }
    args a = good_args();
    a.G = (int64_t)1 << 24; /* G*M = 2^31 */
    refused(&a, "below 2^31");
    a = good_args();
    a.G = INT64_MAX / 2; /* no overflow on the way to the refusal */
    refused(&a, "below 2^31");
}

static void test_bad_out_dtype(void **state)
{
    (void)state;
    args a = good_args();
    a.out = "fp32";
    refused(&a, "output type fp32 unsupported");
    a.out = "bf8";
    refused(&a, "bf8");
    a.out = NULL;
    refused(&a, "output type");
}

static void test_null_handle(void **state)
{
    (void)state;
    assert_int_equal(pegemm_dual_launch(NULL, 0, 0), -1);
    assert_non_null(strstr(pegemm_dual_last_error(), "NULL handle"));
    assert_int_equal(pegemm_dual_grid(NULL), -1);
    pegemm_dual_destroy(NULL);
}

/* ---------------------------------------------------------------- GPU */
#define CUDA_CHECK(call)                                                                                           \
    do {                                                                                                           \
        cudaError_t e_ = (call);                                                                                   \
        if (e_ != cudaSuccess)                                                                                     \
            fail_msg("%s: %s", #call, cudaGetErrorString(e_));                                                     \
    } while (0)

typedef struct {
    pg_dual_inputs in;
    size_t bytes[7];
    void *d[7]; /* the device copies, ours (the caller's) */
} device_problem;

static void device_problem_make(device_problem *dp, int64_t G, int64_t M, int64_t N, int64_t K, pg_out_dtype out,
                                uint64_t seed)
{
    memset(dp, 0, sizeof *dp);
    if (pg_dual_generate(&dp->in, G, M, N, K, out, seed) != 0)
        fail_msg("pg_dual_generate: %s", pg_last_error());
    const pg_dual_inputs *in = &dp->in;
    const void *host[6] = {in->A, in->B1, in->B2, in->scale_a, in->scale_b1, in->scale_b2};
    const int64_t KB = K / 128, NB = N / 128;
    const size_t bytes[7] = {(size_t)(G * M * K),          (size_t)(G * N * K),          (size_t)(G * N * K),
                             (size_t)(G * M * KB) * 4,     (size_t)(G * NB * KB) * 4,    (size_t)(G * NB * KB) * 4,
                             (size_t)(G * M * N) * 2};
    for (int i = 0; i < 7; i++) {
        dp->bytes[i] = bytes[i];
        CUDA_CHECK(cudaMalloc(&dp->d[i], bytes[i]));
        if (i < 6)
            CUDA_CHECK(cudaMemcpy(dp->d[i], host[i], bytes[i], cudaMemcpyHostToDevice));
    }
}

static void device_problem_free(device_problem *dp)
{
    for (int i = 0; i < 7; i++)
        CUDA_CHECK(cudaFree(dp->d[i])); /* fails if destroy had freed one */
    pg_dual_inputs_free(&dp->in);
}

static args device_args(const device_problem *dp, const char *out)
{
    const pg_dual_problem *p = &dp->in.p;
    args a = {p->G, p->M, p->N, p->K, out, {0}};
    for (int i = 0; i < 7; i++)
        a.p[i] = dp->d[i];
    return a;
}

static void check_case(int64_t G, int64_t M, int64_t N, int64_t K, pg_out_dtype out, uint64_t seed)
{
    device_problem dp;
    device_problem_make(&dp, G, M, N, K, out, seed);
    const int64_t n = G * M * N;
    uint16_t *want = malloc((size_t)n * 2), *got = malloc((size_t)n * 2);
    assert_true(want && got);
    if (pg_dual_gemm_ref(&dp.in.p, pg_accum_preset(PG_ACC_SM90), want) != 0)
        fail_msg("pg_dual_gemm_ref: %s", pg_last_error());
    const args a = device_args(&dp, out == PG_OUT_FP16 ? "fp16" : "bf16");
    void *h = create(&a);
    if (!h)
        fail_msg("pegemm_dual_create: %s", pegemm_dual_last_error());
    assert_true(pegemm_dual_grid(h) >= 1);
    cudaStream_t s;
    CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    int64_t bad = 0;
    for (int d = 0; d < 2; d++) {
        CUDA_CHECK(cudaMemsetAsync(dp.d[6], 0xFF, dp.bytes[6], s));
        if (pegemm_dual_launch(h, d, (uintptr_t)s) != 0)
            fail_msg("pegemm_dual_launch %d: %s", d, pegemm_dual_last_error());
        CUDA_CHECK(cudaStreamSynchronize(s));
        CUDA_CHECK(cudaMemcpy(got, dp.d[6], dp.bytes[6], cudaMemcpyDeviceToHost));
        for (int64_t i = 0; i < n; i++)
            if (got[i] != want[i] && bad++ < 8)
                print_message("design %d: C[%lld] got 0x%04x want 0x%04x\n", d, (long long)i, got[i], want[i]);
    }
    print_message("G=%lld M=%lld N=%lld K=%lld %s: %lld of %lld elements differ (both designs)\n", (long long)G,
                  (long long)M, (long long)N, (long long)K, a.out, (long long)bad, (long long)(2 * n));
    assert_int_equal(pegemm_dual_launch(h, 2, (uintptr_t)s), -1);
    assert_non_null(strstr(pegemm_dual_last_error(), "design 2"));
    pegemm_dual_destroy(h);
    CUDA_CHECK(cudaStreamDestroy(s));
    device_problem_free(&dp); /* the caller's buffers outlive the handle */
    free(want);
    free(got);
    assert_int_equal(bad, 0);
}

static void test_bit_exact(void **state)
{
    (void)state;
    check_case(2, 256, 384, 512, PG_OUT_BF16, 11);
    check_case(1, 128, 256, 384, PG_OUT_FP16, 12);
}

static void test_device_refusals(void **state)
{
    (void)state;
    device_problem dp;
    device_problem_make(&dp, 1, 128, 256, 256, PG_OUT_BF16, 13);
    args a = device_args(&dp, "bf16");
    a.p[1] = k_fake[1]; /* host memory */
    refused(&a, "B1 at");
    refused(&a, "not memory of the current device");
    a = device_args(&dp, "bf16");
    a.p[0] = (const unsigned char *)dp.d[0] + 16; /* runs 16 bytes past A's allocation */
    refused(&a, "A at");
    refused(&a, "its allocation ends");
    a = device_args(&dp, "bf16");
    a.M = 256; /* C and A hold 128 rows */
    refused(&a, "its allocation ends");
    device_problem_free(&dp);
}

int main(void)
{
    const struct CMUnitTest cpu_tests[] = {
        cmocka_unit_test(test_null_pointers), cmocka_unit_test(test_misaligned), cmocka_unit_test(test_bad_shapes),
        cmocka_unit_test(test_bad_out_dtype), cmocka_unit_test(test_null_handle),
    };
    const struct CMUnitTest gpu_tests[] = {cmocka_unit_test(test_bit_exact), cmocka_unit_test(test_device_refusals)};
    const int failed = cmocka_run_group_tests(cpu_tests, NULL, NULL);
    const char *why = gpu_missing();
    if (why) {
        print_message("skipping the GPU cases: %s\n", why);
        return failed ? 1 : 77;
    }
    return cmocka_run_group_tests(gpu_tests, NULL, NULL) || failed ? 1 : 0;
}
