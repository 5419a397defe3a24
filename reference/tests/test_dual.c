/* The SwiGLU dual GEMM (dual.h): the fast path (pg_dual_gemm_ref) against
 * the scalar definition (pg_dual_element) on every element of random
 * problems, a hand-worked case, and bad arguments. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dual.h"
#include "pg_error.h"
#include "silu_fp32.h"

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

/* A random FP8 code, |x| < 1 mostly (d of a few units, where silu is
 * neither 0 nor x) and one in 64 any finite value (E4M3 NaN codes
 * 0x7F/0xFF avoided; E5M2 up to 2^8 so that sums stay finite). */
static uint8_t random_code(uint64_t *s, pg_fp8_format f)
{
    uint64_t r = next(s);
    uint8_t c = (uint8_t)(r >> 24), sign = c & 0x80;
    int wide = (r >> 40) % 64 == 0;
    if (f == PG_FMT_E4M3)
        return wide ? ((c & 0x7F) == 0x7F ? 0x00 : c) : (uint8_t)(sign | (c & 0x7F) % 0x38);
    return (uint8_t)(sign | (c & 0x7F) % (wide ? 0x5C : 0x3C));
}

typedef struct {
    pg_dual_problem dp;
    uint8_t *A, *B1, *B2, *mx_a, *mx_b1, *mx_b2;
    float *sa, *sb1, *sb2;
} owned_problem;

static void make_problem(owned_problem *o, int64_t G, int64_t M, int64_t N, int64_t K, pg_fp8_format fb,
                         pg_scale_kind scale, pg_out_dtype out, uint64_t seed)
{
    memset(o, 0, sizeof *o);
    int64_t na, nb;
    pg_dual_scale_counts(scale, M, N, K, &na, &nb);
    o->A = malloc((size_t)(G * M * K));
    o->B1 = malloc((size_t)(G * N * K));
    o->B2 = malloc((size_t)(G * N * K));
    o->sa = malloc((size_t)(G * na + 1) * sizeof(float));
    o->sb1 = malloc((size_t)(G * nb + 1) * sizeof(float));
    o->sb2 = malloc((size_t)(G * nb + 1) * sizeof(float));
    o->mx_a = malloc((size_t)(G * na + 1));
    o->mx_b1 = malloc((size_t)(G * nb + 1));
    o->mx_b2 = malloc((size_t)(G * nb + 1));
    assert_true(o->A && o->B1 && o->B2 && o->sa && o->sb1 && o->sb2 && o->mx_a && o->mx_b1 && o->mx_b2);
    uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
    for (int64_t i = 0; i < G * M * K; i++)
        o->A[i] = random_code(&s, PG_FMT_E4M3);
    for (int64_t i = 0; i < G * N * K; i++)
        o->B1[i] = random_code(&s, fb), o->B2[i] = random_code(&s, fb);
    for (int64_t i = 0; i < G * na; i++)
        o->sa[i] = ldexpf(1.0f + (float)(next(&s) % 1000) / 1000.0f, (int)(next(&s) % 9) - 10),
        o->mx_a[i] = (uint8_t)(123 + next(&s) % 8);
    for (int64_t i = 0; i < G * nb; i++) {
        o->sb1[i] = ldexpf(1.0f + (float)(next(&s) % 1000) / 1000.0f, (int)(next(&s) % 9) - 6);
        o->sb2[i] = ldexpf(1.0f + (float)(next(&s) % 1000) / 1000.0f, (int)(next(&s) % 9) - 6);
        o->mx_b1[i] = (uint8_t)(123 + next(&s) % 8), o->mx_b2[i] = (uint8_t)(123 + next(&s) % 8);
    }
    o->dp = (pg_dual_problem){.G = G, .M = M, .N = N, .K = K, .fmt_a = PG_FMT_E4M3, .fmt_b = fb,
                              .A = o->A, .B1 = o->B1, .B2 = o->B2, .scale = scale, .out = out};
    if (scale == PG_SCALE_MX)
        o->dp.mx_a = o->mx_a, o->dp.mx_b1 = o->mx_b1, o->dp.mx_b2 = o->mx_b2;
    else if (scale != PG_SCALE_NONE)
        o->dp.scale_a = o->sa, o->dp.scale_b1 = o->sb1, o->dp.scale_b2 = o->sb2;
}

static void free_problem(owned_problem *o)
{
    free(o->A), free(o->B1), free(o->B2), free(o->sa), free(o->sb1), free(o->sb2);
    free(o->mx_a), free(o->mx_b1), free(o->mx_b2);
}

/* Every element of the fast result equals the scalar definition. */
static void check_fast_vs_scalar(int64_t G, int64_t M, int64_t N, int64_t K, pg_fp8_format fb,
                                 pg_scale_kind scale, pg_out_dtype out, pg_accum_mode mode, uint64_t seed)
{
    owned_problem o;
    make_problem(&o, G, M, N, K, fb, scale, out, seed);
    const pg_accum_params *p = pg_accum_preset(mode);
    uint16_t *C = malloc((size_t)(G * M * N) * sizeof *C);
    assert_non_null(C);
    assert_int_equal(pg_dual_gemm_ref(&o.dp, p, C), 0);
    int64_t nonzero = 0;
    for (int64_t g = 0; g < G; g++)
        for (int64_t m = 0; m < M; m++)
            for (int64_t n = 0; n < N; n++) {
                uint16_t want = pg_dual_element(&o.dp, p, g, m, n), got = C[(g * M + m) * N + n];
                if (got != want)
                    fail_msg("G%lld M%lld N%lld K%lld scale %s out %s mode %d: C[%lld][%lld][%lld] = 0x%04x, "
                             "scalar 0x%04x", (long long)G, (long long)M, (long long)N, (long long)K,
                             pg_scale_kind_name(scale), pg_out_dtype_name(out), (int)mode, (long long)g,
                             (long long)m, (long long)n, got, want);
                nonzero += (got & 0x7FFF) != 0;
            }
    assert_true(nonzero > G * M * N / 4); /* the problems are not trivially zero */
    free(C);
    free_problem(&o);
}

static void test_fast_vs_scalar(void **state)
{
    (void)state;
    const pg_scale_kind scales[] = {PG_SCALE_NONE, PG_SCALE_BLOCK, PG_SCALE_TENSOR, PG_SCALE_ROWCOL};
    const pg_out_dtype outs[] = {PG_OUT_BF16, PG_OUT_FP16};
    const pg_accum_mode modes[] = {PG_ACC_SM90_PROMOTE, PG_ACC_SM90, PG_ACC_FP32};
    uint64_t seed = 1;
    for (size_t s = 0; s < 4; s++)
        for (size_t o = 0; o < 2; o++)
            for (size_t md = 0; md < 3; md++) {
                check_fast_vs_scalar(1, 37, 150, 200, PG_FMT_E4M3, scales[s], outs[o], modes[md], seed++);
                check_fast_vs_scalar(3, 20, 130, 384, PG_FMT_E4M3, scales[s], outs[o], modes[md], seed++);
            }
    check_fast_vs_scalar(3, 17, 140, 300, PG_FMT_E5M2, PG_SCALE_BLOCK, PG_OUT_BF16, PG_ACC_SM90_PROMOTE, seed++);
    check_fast_vs_scalar(2, 16, 70, 256, PG_FMT_E4M3, PG_SCALE_MX, PG_OUT_FP16, PG_ACC_SM100, seed++);
}

/* One element worked by hand: A = [1, 1], B1 = [2, 0.5], B2 = [3, -1];
 * block scales sa = 0.5, sb1 = 4, sb2 = 2: d1 = (2 + 0.5) * 2 = 5,
 * d2 = (3 - 1) * 1 = 2, h = silu(5) * 2 = 9.93307 (silu(5) = 4.966536). */
static void test_hand_case(void **state)
{
    (void)state;
    const uint8_t A[2] = {0x38, 0x38}, B1[2] = {0x40, 0x30}, B2[2] = {0x44, 0xB8};
    const float sa[1] = {0.5f}, sb1[1] = {4.0f}, sb2[1] = {2.0f};
    pg_dual_problem dp = {.G = 1, .M = 1, .N = 1, .K = 2, .fmt_a = PG_FMT_E4M3, .fmt_b = PG_FMT_E4M3,
                          .A = A, .B1 = B1, .B2 = B2, .scale = PG_SCALE_BLOCK,
                          .scale_a = sa, .scale_b1 = sb1, .scale_b2 = sb2, .out = PG_OUT_BF16};
    uint16_t C = 0;
    for (int mode = 0; mode < PG_ACC_COUNT; mode++) {
        assert_int_equal(pg_dual_gemm_ref(&dp, pg_accum_preset((pg_accum_mode)mode), &C), 0);
        float h = pg_silu_f32(5.0f) * 2.0f;
        assert_int_equal(C, pg_bf16_from_f32(h));
        assert_int_equal(C, 0x411Fu); /* 9.9375: bf16 of 9.93307 */
    }
    dp.out = PG_OUT_FP16;
    assert_int_equal(pg_dual_gemm_ref(&dp, pg_accum_preset(PG_ACC_EXACT), &C), 0);
    assert_int_equal(C, pg_fp16_from_f32(pg_silu_f32(5.0f) * 2.0f));
    assert_true(fabsf(pg_fp16_to_f32(C) - 9.93307f) < 0.005f);
    /* NaN d: the output NaN */
    assert_int_equal(pg_dual_combine(NAN, 1.0f, PG_OUT_BF16), PG_BF16_QNAN);
    assert_int_equal(pg_dual_combine(1.0f, NAN, PG_OUT_FP16), PG_FP16_QNAN);
    assert_int_equal(pg_dual_combine(INFINITY, 0.0f, PG_OUT_BF16), PG_BF16_QNAN);
}

static void expect_fail(const pg_dual_problem *dp, const pg_accum_params *p, void *C, const char *part)
{
    pg_clear_error();
    assert_int_equal(pg_dual_gemm_ref(dp, p, C), -1);
    if (strstr(pg_last_error(), part) == NULL)
        fail_msg("message '%s' does not mention '%s'", pg_last_error(), part);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    owned_problem o;
    make_problem(&o, 2, 4, 8, 64, PG_FMT_E4M3, PG_SCALE_BLOCK, PG_OUT_BF16, 99);
    const pg_accum_params *p = pg_accum_preset(PG_ACC_SM90_PROMOTE);
    uint16_t C[2 * 4 * 8];
    pg_dual_problem d = o.dp;
    expect_fail(&d, p, NULL, "output");
    d.G = 0;
    expect_fail(&d, p, C, "G=0");
    d = o.dp, d.K = -1;
    expect_fail(&d, p, C, "K=-1");
    d = o.dp, d.out = PG_OUT_FP32;
    expect_fail(&d, p, C, "bf16 or fp16");
    d = o.dp, d.B2 = NULL;
    expect_fail(&d, p, C, "B2");
    d = o.dp, d.scale_b2 = NULL;
    expect_fail(&d, p, C, "scale_b2");
    d = o.dp, d.scale = PG_SCALE_MX;
    expect_fail(&d, p, C, "mx_a");
    d = o.dp, d.fmt_b = (pg_fp8_format)7;
    expect_fail(&d, p, C, "format");
    d = o.dp, d.scale = PG_SCALE_COUNT;
    expect_fail(&d, p, C, "scale kind");
    expect_fail(NULL, p, C, "missing");
    free_problem(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_fast_vs_scalar), cmocka_unit_test(test_hand_case),
                                       cmocka_unit_test(test_bad_arguments)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
