/* Scaled GEMM: the GEMM (fast path and scalar path) equals the per-element
 * definition; hand-worked block-wise (DeepGEMM) and MX cases; the epilogue
 * orders on hand cases; bad arguments. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "rng.h"
#include "scaled.h"

static uint8_t finite_code(pg_fp8_format f, uint64_t r)
{
    uint8_t mag = (uint8_t)(0x20 + (r >> 8) % 0x38); /* moderate exponents, finite in both formats */
    (void)f;
    return (uint8_t)((r & 0x80) | mag);
}

static void check_gemm(pg_fp8_format fa, pg_fp8_format fb, pg_scale_kind sk, pg_out_dtype out, pg_accum_mode mode,
                       const char *lib)
{
    enum { M = 19, N = 70, K = 200 };
    static uint8_t A[M * K], B[N * K];
    static float sa[M], sb[N], bias[N], acc[M * N];
    static uint32_t D32[M * N];
    static uint16_t D16[M * N];
    for (int i = 0; i < M * K; i++)
        A[i] = finite_code(fa, pg_rng_u64(3, 1, (uint64_t)i));
    for (int i = 0; i < N * K; i++)
        B[i] = finite_code(fb, pg_rng_u64(3, 2, (uint64_t)i));
    for (int i = 0; i < M; i++)
        sa[i] = 0.75f + (float)(pg_rng_u64(3, 3, (uint64_t)i) % 1000) / 997.0f;
    for (int i = 0; i < N; i++) {
        sb[i] = 0.5f + (float)(pg_rng_u64(3, 4, (uint64_t)i) % 1000) / 991.0f;
        bias[i] = pg_bf16_to_f32(pg_bf16_from_f32((float)(pg_rng_u64(3, 5, (uint64_t)i) % 200) - 100.0f));
    }
    pg_scaled_problem sp = {.M = M, .N = N, .K = K, .fmt_a = fa, .fmt_b = fb, .A = A, .B = B, .scale = sk,
                            .scale_a = sa, .scale_b = sb, .bias = bias, .out = out};
    const pg_lib_epilogue *e = pg_lib_epilogue_find(lib);
    assert_non_null(e);
    void *D = out == PG_OUT_FP32 ? (void *)D32 : (void *)D16;
    assert_int_equal(pg_scaled_gemm(&sp, pg_accum_preset(mode), e, D, acc), 0);
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            float want = pg_dot_params(pg_accum_preset(mode), fa, fb, A + m * K, B + n * K, K);
            assert_int_equal(pg_f32_bits(acc[m * N + n]), pg_f32_bits(want));
            float s_a = sk == PG_SCALE_ROWCOL ? sa[m] : sk == PG_SCALE_TENSOR ? sa[0] : 1.0f;
            float s_b = sk == PG_SCALE_ROWCOL ? sb[n] : sk == PG_SCALE_TENSOR ? sb[0] : 1.0f;
            uint32_t dwant = pg_scaled_epilogue(e, want, s_a, s_b, 1, bias[n], out);
            uint32_t dgot = out == PG_OUT_FP32 ? D32[m * N + n] : D16[m * N + n];
            assert_int_equal(dgot, dwant);
        }
}

static void test_gemm_matches_definition(void **state)
{
    (void)state;
    for (int mode = 0; mode < PG_ACC_COUNT; mode++)
        for (int out = 0; out < PG_OUT_COUNT; out++) {
            check_gemm(PG_FMT_E4M3, PG_FMT_E4M3, PG_SCALE_TENSOR, (pg_out_dtype)out, (pg_accum_mode)mode,
                       "torch-cublaslt");
            check_gemm(PG_FMT_E4M3, PG_FMT_E4M3, PG_SCALE_ROWCOL, (pg_out_dtype)out, (pg_accum_mode)mode,
                       "torch-cutlass-rowwise");
            check_gemm(PG_FMT_E5M2, PG_FMT_E4M3, PG_SCALE_TENSOR, (pg_out_dtype)out, (pg_accum_mode)mode,
                       "torch-cublaslt");
            check_gemm(PG_FMT_E4M3, PG_FMT_E5M2, PG_SCALE_ROWCOL, (pg_out_dtype)out, (pg_accum_mode)mode,
                       "torch-cutlass-rowwise");
        }
}

/* DeepGEMM: two 128-k groups of 1*1 (partials 128 each), scales
 * 0.5*2 = 1 and 3*0.25 = 0.75: acc = fma(128, 0.75, fma(128, 1, 0)) = 224. */
static void test_block_scaling(void **state)
{
    (void)state;
    enum { K = 256 };
    uint8_t A[K], B[K];
    memset(A, 0x38, sizeof A);
    memset(B, 0x38, sizeof B);
    float sa[2] = {0.5f, 3.0f}, sb[2] = {2.0f, 0.25f};
    uint32_t D;
    pg_scaled_problem sp = {.M = 1, .N = 1, .K = K, .A = A, .B = B, .scale = PG_SCALE_BLOCK, .scale_a = sa,
                            .scale_b = sb, .out = PG_OUT_FP32};
    assert_int_equal(pg_scaled_gemm(&sp, pg_accum_preset(PG_ACC_SM90), pg_lib_epilogue_find("torch-cublaslt"), &D,
                                    NULL),
                     0);
    assert_int_equal(D, pg_f32_bits(224.0f));
}

/* MX: two 32-k blocks of 1*1, E8M0 scales 2^0 * 2^1 and 2^-1 * 2^0:
 * 32 * 2 + 32 / 2 = 80; an E8M0 NaN (0xFF) gives NaN. */
static void test_mx_scaling(void **state)
{
    (void)state;
    enum { K = 64 };
    uint8_t A[K], B[K];
    memset(A, 0x38, sizeof A);
    memset(B, 0x38, sizeof B);
    uint8_t xa[2] = {127, 126}, xb[2] = {128, 127};
    uint32_t D;
    pg_scaled_problem sp = {.M = 1, .N = 1, .K = K, .A = A, .B = B, .scale = PG_SCALE_MX, .mx_a = xa, .mx_b = xb,
                            .out = PG_OUT_FP32};
    const pg_lib_epilogue *e = pg_lib_epilogue_find("torch-cublaslt");
    assert_int_equal(pg_scaled_gemm(&sp, pg_accum_preset(PG_ACC_SM100), e, &D, NULL), 0);
    assert_int_equal(D, pg_f32_bits(80.0f));
    xb[1] = 0xFF;
    assert_int_equal(pg_scaled_gemm(&sp, pg_accum_preset(PG_ACC_SM100), e, &D, NULL), 0);
    assert_int_equal(D, PG_F32_QNAN_BITS);
    sp.K = 48; /* not a multiple of 32 */
    assert_int_equal(pg_scaled_gemm(&sp, pg_accum_preset(PG_ACC_SM100), e, &D, NULL), -1);
    sp.K = K;
    assert_int_equal(pg_scaled_gemm(&sp, pg_accum_preset(PG_ACC_FP32), e, &D, NULL), -1);
}

static void test_epilogue_orders(void **state)
{
    (void)state;
    pg_lib_epilogue e = {"t", PG_SCALE_AB_THEN_ACC, PG_BIAS_OUT_ADD, ""};
    /* fp16: 1 + 2^-11 is a tie between 1 and 1 + 2^-10: even, 1.0 */
    assert_int_equal(pg_scaled_epilogue(&e, 1.0f, 1.0f, 1.0f, 1, 0x1p-11f, PG_OUT_FP16), 0x3C00);
    assert_int_equal(pg_scaled_epilogue(&e, 1.0f + 0x1p-10f, 1.0f, 1.0f, 1, 0x1p-11f, PG_OUT_FP16), 0x3C02);
    /* bf16 in the output format: bf16(1 + 2^-9) = 1, then 1 + 2^-8 is a tie: even, 1 */
    assert_int_equal(pg_scaled_epilogue(&e, 1.0f + 0x1p-9f, 1.0f, 1.0f, 1, 0x1p-8f, PG_OUT_BF16), 0x3F80);
    /* the fp32 sum first: 1 + 2^-9 + 2^-8 = 1 + 3*2^-9 rounds up to 1 + 2^-7 */
    e.bias_order = PG_BIAS_F32_ADD;
    assert_int_equal(pg_scaled_epilogue(&e, 1.0f + 0x1p-9f, 1.0f, 1.0f, 1, 0x1p-8f, PG_OUT_BF16), 0x3F81);
    /* scale orders: fl(sa*sb) with sa = sb = 1 + 2^-12 loses 2^-24 */
    float s = 1.0f + 0x1p-12f;
    e.scale_order = PG_SCALE_AB_THEN_ACC;
    assert_int_equal(pg_scaled_epilogue(&e, 1.0f, s, s, 0, 0.0f, PG_OUT_FP32), pg_f32_bits(1.0f + 0x1p-11f));
    e.scale_order = PG_SCALE_ACC_B_A;
    assert_int_equal(pg_scaled_epilogue(&e, 1.0f, s, s, 0, 0.0f, PG_OUT_FP32), pg_f32_bits(1.0f + 0x1p-11f));
    assert_null(pg_lib_epilogue_find("cublas"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gemm_matches_definition),
        cmocka_unit_test(test_block_scaling),
        cmocka_unit_test(test_mx_scaling),
        cmocka_unit_test(test_epilogue_orders),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
