/* pg_problem_ref on selected rows equals the whole GEMM's rows, for every
 * kind of general problem and thread counts 1 and 3; the plain GEMM (P = 0)
 * is one rounding; the fp16/fp32 ULP distances; accumulation sets parsed
 * field by field; E5M2 encoding of every E4M3 value; terms generation is
 * deterministic. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <omp.h>

#include "gemm.h"
#include "inputs.h"
#include "out_values.h"
#include "pg_error.h"
#include "problem_ref.h"
#include "problem_terms.h"

static void make(pg_problem *p, int64_t P, int fa, int fb, int scale, int bias, int out, uint64_t seed)
{
    pg_shape s = {.M = 70, .N = 40, .K = 288, .P = P};
    assert_int_equal(pg_problem_generate(p, s, PG_FAM_CODES, seed), 0);
    p->fmt_a = fa, p->fmt_b = fb, p->scale = scale, p->has_bias = bias, p->bias_dtype = out, p->out = out;
    assert_int_equal(pg_problem_terms_generate(p), 0);
    assert_int_equal(pg_problem_terms_check(p), 0);
}

static void test_rows_equal_whole(void **state)
{
    (void)state;
    const int64_t rows[5] = {0, 3, 31, 32, 69};
    struct { int fa, fb, scale, bias, out; const char *mode; } cases[] = {
        {0, 1, PG_SCALE_ROWCOL, 1, PG_OUT_BF16, "sm90-promote"}, {1, 0, PG_SCALE_TENSOR, 1, PG_OUT_FP16, "sm90"},
        {0, 0, PG_SCALE_BLOCK, 0, PG_OUT_FP32, "exact"},          {0, 1, PG_SCALE_MX, 1, PG_OUT_BF16, "sm100"},
        {1, 1, PG_SCALE_NONE, 0, PG_OUT_FP32, "fp32"},             {0, 0, PG_SCALE_NONE, 0, PG_OUT_BF16, "sm90,promote_k=64"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        pg_problem p;
        make(&p, 0, cases[c].fa, cases[c].fb, cases[c].scale, cases[c].bias, cases[c].out, 11 + c);
        pg_accum_params ap;
        assert_int_equal(pg_accum_params_parse(cases[c].mode, &ap), 0);
        size_t es = pg_out_dtype_size((pg_out_dtype)p.out);
        int64_t N = p.shape.N;
        unsigned char *all = malloc((size_t)(p.shape.M * N) * es), *sel = malloc((size_t)(5 * N) * es);
        unsigned char *all3 = malloc((size_t)(p.shape.M * N) * es);
        omp_set_num_threads(1);
        assert_int_equal(pg_problem_ref(&p, &ap, NULL, PG_EPI_DOUBLE, NULL, p.shape.M, all, NULL, NULL), 0);
        omp_set_num_threads(3);
        assert_int_equal(pg_problem_ref(&p, &ap, NULL, PG_EPI_DOUBLE, NULL, p.shape.M, all3, NULL, NULL), 0);
        assert_int_equal(pg_problem_ref(&p, &ap, NULL, PG_EPI_DOUBLE, rows, 5, sel, NULL, NULL), 0);
        assert_memory_equal(all, all3, (size_t)(p.shape.M * N) * es);
        for (int i = 0; i < 5; i++)
            assert_memory_equal(sel + (size_t)(i * N) * es, all + (size_t)(rows[i] * N) * es, (size_t)N * es);
        /* the definition, element by element */
        pg_scaled_problem sp = {.M = p.shape.M, .N = N, .K = p.shape.K, .fmt_a = p.fmt_a, .fmt_b = p.fmt_b, .A = p.A,
                                .B = p.B, .scale = p.scale, .scale_a = p.scale_a, .scale_b = p.scale_b,
                                .mx_a = p.mx_a, .mx_b = p.mx_b, .bias = p.has_bias ? p.bias : NULL,
                                .out = (pg_out_dtype)p.out};
        const pg_lib_epilogue *e = pg_lib_epilogue_default((pg_scale_kind)p.scale);
        for (int64_t m = 0; m < p.shape.M; m += 7)
            for (int64_t n = 0; n < N; n++) {
                float sa = p.scale == PG_SCALE_ROWCOL ? p.scale_a[m] : p.scale == PG_SCALE_TENSOR ? p.scale_a[0] : 1;
                float sb = p.scale == PG_SCALE_ROWCOL ? p.scale_b[n] : p.scale == PG_SCALE_TENSOR ? p.scale_b[0] : 1;
                uint32_t want = pg_scaled_epilogue(e, pg_scaled_acc(&sp, &ap, m, n), sa, sb, p.has_bias,
                                                   p.has_bias ? p.bias[n] : 0.0f, sp.out);
                assert_int_equal(pg_out_get(sp.out, all, m * N + n), want);
            }
        free(all);
        free(all3);
        free(sel);
        pg_problem_free(&p);
    }
    omp_set_num_threads(omp_get_num_procs());
}

/* P = 0: one rounding of the accumulator, whichever epilogue; with
 * combined, the general path equals pg_gemm_ref for a custom set that is
 * a preset spelt differently. */
static void test_plain_gemm(void **state)
{
    (void)state;
    pg_problem p;
    make(&p, 0, 0, 0, 0, 0, PG_OUT_BF16, 5);
    int64_t MN = p.shape.M * p.shape.N;
    uint16_t *d = malloc((size_t)MN * 2), *d2 = malloc((size_t)MN * 2);
    float *acc = malloc((size_t)MN * 4);
    assert_int_equal(pg_gemm_ref(&p, PG_ACC_SM90, PG_EPI_DOUBLE, NULL, p.shape.M, d, acc, NULL), 0);
    for (int64_t k = 0; k < MN; k++)
        assert_int_equal(d[k], pg_bf16_from_f32(acc[k]));
    assert_int_equal(pg_gemm_ref(&p, PG_ACC_SM90, PG_EPI_SINGLE, NULL, p.shape.M, d2, NULL, NULL), 0);
    assert_memory_equal(d, d2, (size_t)MN * 2);
    assert_true(pg_problem_ref_correctly_rounded(&p, pg_accum_preset(PG_ACC_EXACT), PG_EPI_DOUBLE));
    char what[200];
    pg_problem_ref_describe(&p, pg_accum_preset(PG_ACC_EXACT), NULL, PG_EPI_DOUBLE, what, sizeof what);
    assert_non_null(strstr(what, "correctly rounded"));
    assert_null(strstr(what, "not correctly rounded"));
    pg_problem_free(&p);
    free(d);
    free(d2);
    free(acc);

    /* with combined and a scale, the general path: bf16(bf16(t) + c) */
    make(&p, 7, 0, 0, PG_SCALE_TENSOR, 0, PG_OUT_BF16, 6);
    pg_problem_ref_describe(&p, pg_accum_preset(PG_ACC_EXACT), NULL, PG_EPI_DOUBLE, what, sizeof what);
    assert_non_null(strstr(what, "double-rounded"));
    assert_non_null(strstr(what, "not correctly rounded"));
    d = malloc((size_t)(p.shape.M * p.shape.N) * 2);
    assert_int_equal(pg_problem_ref(&p, pg_accum_preset(PG_ACC_SM90), NULL, PG_EPI_DOUBLE, NULL, p.shape.M, d, NULL,
                                    NULL), 0);
    for (int64_t m = 0; m < p.shape.M; m += 5)
        for (int64_t n = 0; n < p.shape.N; n++) {
            float acc1 = pg_dot_params(pg_accum_preset(PG_ACC_SM90), 0, 0, p.A + m * p.shape.K, p.B + n * p.shape.K,
                                       p.shape.K);
            float t = (p.scale_a[0] * p.scale_b[0]) * acc1;
            assert_int_equal(d[m * p.shape.N + n],
                             pg_epilogue_apply(PG_EPI_DOUBLE, t, p.combined[(m % 7) * p.shape.N + n]));
        }
    free(d);
    pg_problem_free(&p);
}

static void test_ulp_distances(void **state)
{
    (void)state;
    assert_int_equal(pg_fp16_ulp_distance(0x3C00, 0x3C01), 1);
    assert_int_equal(pg_fp16_ulp_distance(0x0001, 0x8001), 2);  /* across zero */
    assert_int_equal(pg_fp16_ulp_distance(0x0000, 0x8000), 0);
    assert_int_equal(pg_fp16_ulp_distance(0x7BFF, 0x7C00), 1);  /* max finite to inf */
    assert_int_equal(pg_fp16_ulp_distance(0x7E00, 0x3C00), INT32_MAX);
    assert_int_equal(pg_fp16_ulp_distance(0x7E00, 0xFFFF), 0);
    assert_int_equal(pg_f32_ulp_distance(0x3F800000u, 0x3F800003u), 3);
    assert_int_equal(pg_f32_ulp_distance(0x00000001u, 0x80000001u), 2);
    assert_int_equal(pg_f32_ulp_distance(0x7F7FFFFFu, 0xFF7FFFFFu), INT32_MAX - 1); /* capped */
    assert_int_equal(pg_f32_ulp_distance(0x7FC00000u, 0x3F800000u), INT32_MAX);
    assert_int_equal(pg_out_ulp_distance(PG_OUT_BF16, 0x3F80, 0x3F82), 2);
    assert_true(pg_out_is_foreign_nan(PG_OUT_FP16, 0x7E00));
    assert_false(pg_out_is_foreign_nan(PG_OUT_FP16, PG_FP16_QNAN));
}

static void test_accum_parse(void **state)
{
    (void)state;
    pg_accum_params a;
    assert_int_equal(pg_accum_params_parse("sm90,promote_k=128", &a), 0);
    assert_string_equal(a.name, "sm90-promote"); /* a preset spelt field by field */
    assert_int_equal(pg_accum_params_parse("sm90,F=20,out_round=rne", &a), 0);
    assert_string_equal(a.name, "custom");
    assert_int_equal(a.align_frac_bits, 20);
    assert_int_equal(a.out_round, PG_RND_RNE);
    assert_int_equal(pg_accum_params_mode(&a), -1);
    assert_int_equal(pg_accum_params_parse("exact", &a), 0);
    assert_int_equal(pg_accum_params_mode(&a), PG_ACC_EXACT);
    assert_int_equal(pg_accum_params_parse("sm90,promote_k=40", &a), -1); /* not a multiple of block_k */
    assert_int_equal(pg_accum_params_parse("sm90,colour=red", &a), -1);
    assert_int_equal(pg_accum_params_parse("tf32", &a), -1);
    assert_int_equal(pg_accum_params_parse("sm90,F", &a), -1);
}

static void test_e5m2_encode(void **state)
{
    (void)state;
    for (int c = 0; c < 256; c++) {
        float v = pg_fp8_to_f32((uint8_t)c);
        uint8_t e = pg_e5m2_from_f32(v);
        if (isnan(v)) {
            assert_true(pg_e5m2_is_nan(e));
            continue;
        }
        /* E4M3 has one more mantissa bit: the E5M2 value is the RNE neighbour */
        float w = pg_e5m2_to_f32(e);
        assert_true(fabsf(w - v) <= fabsf(v) * 0x1p-3f);
        assert_int_equal(pg_e5m2_from_f32(w), e); /* E5M2 values are fixed points */
    }
    assert_int_equal(pg_e5m2_from_f32(1.125f), 0x3C); /* tie to even: 1.0 */
    assert_int_equal(pg_e5m2_from_f32(1.375f), 0x3E); /* tie to even: 1.5 */
    assert_int_equal(pg_e5m2_from_f32(65536.0f), 0x7C); /* inf */
}

static void test_terms_deterministic(void **state)
{
    (void)state;
    pg_problem a, b;
    make(&a, 0, 1, 0, PG_SCALE_BLOCK, 1, PG_OUT_FP16, 9);
    make(&b, 0, 1, 0, PG_SCALE_BLOCK, 1, PG_OUT_FP16, 9);
    int64_t na, nb;
    pg_scale_counts(PG_SCALE_BLOCK, &a.shape, &na, &nb);
    assert_int_equal(na, 70 * 3);
    assert_int_equal(nb, 1 * 3);
    assert_memory_equal(a.A, b.A, (size_t)(a.shape.M * a.shape.K));
    assert_memory_equal(a.scale_a, b.scale_a, (size_t)na * 4);
    assert_memory_equal(a.bias, b.bias, (size_t)a.shape.N * 4);
    /* scales are not powers of two, and the bias is exact in fp16 */
    assert_true(a.scale_a[0] != exp2f(roundf(log2f(a.scale_a[0]))));
    a.bias[1] = 1.0f + 0x1p-12f;
    assert_int_equal(pg_problem_terms_check(&a), -1);
    pg_problem_free(&a);
    pg_problem_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_equal_whole), cmocka_unit_test(test_plain_gemm),
        cmocka_unit_test(test_ulp_distances),    cmocka_unit_test(test_accum_parse),
        cmocka_unit_test(test_e5m2_encode),      cmocka_unit_test(test_terms_deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
