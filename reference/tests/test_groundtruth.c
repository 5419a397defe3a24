/* The reference against the real libraries: every element of every
 * supported case of reference/groundtruth/data/scaled_mm_gt.h5
 * (torch._scaled_mm on an H100) bit for bit, with the library presets
 * (torch-cublaslt for per-tensor scales, torch-cutlass-rowwise for row-wise)
 * and the accumulation presets (use_fast_accum: sm90, else sm90-promote).
 * It also prints, as evidence, how many elements every other order of
 * operations and accumulation mode gets wrong, and lists the cases torch
 * refused.  Usage: test_ref_groundtruth FILE.h5 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gt_file.h"
#include "pg_error.h"
#include "scaled.h"

static const char *g_path;
static gt_file g_gt;

/* Accumulations tried: the two named by use_fast_accum come first. */
static const pg_accum_mode k_accs[] = {PG_ACC_SM90, PG_ACC_SM90_PROMOTE, PG_ACC_EXACT, PG_ACC_FP32};
#define NACC 4
#define NORDERS (PG_SCALE_ORDER_COUNT * PG_BIAS_ORDER_COUNT)

static int64_t col(int c, int64_t i)
{
    return g_gt.cases[c][i];
}

/* acc[set][a][M*N]: the accumulators of every set under every k_accs mode. */
static float *accumulators(void)
{
    int64_t MN = g_gt.M * g_gt.N;
    float *acc = malloc((size_t)(g_gt.nsets * NACC * MN) * sizeof *acc);
    assert_non_null(acc);
    for (int64_t s = 0; s < g_gt.nsets; s++) {
        const uint8_t *codes = g_gt.codes.data;
        pg_scaled_problem sp = {.M = g_gt.M, .N = g_gt.N, .K = g_gt.set[GT_SET_K][s],
                                .fmt_a = (pg_fp8_format)g_gt.set[GT_SET_FMT_A][s],
                                .fmt_b = (pg_fp8_format)g_gt.set[GT_SET_FMT_B][s],
                                .A = codes + g_gt.set[GT_SET_A_OFF][s], .B = codes + g_gt.set[GT_SET_B_OFF][s]};
        for (int a = 0; a < NACC; a++)
#pragma omp parallel for
            for (int64_t e = 0; e < MN; e++)
                acc[(s * NACC + a) * MN + e] = pg_scaled_acc(&sp, pg_accum_preset(k_accs[a]), e / g_gt.N, e % g_gt.N);
    }
    return acc;
}

/* Mismatching elements of case i under accumulation a and the given order. */
static int64_t mismatches(const float *acc, int64_t i, int a, pg_scale_order so, pg_bias_order bo, int64_t *first)
{
    int64_t M = g_gt.M, N = g_gt.N, s = col(GT_CASE_SET, i);
    const float *sc = g_gt.scales.data, *bias = (const float *)g_gt.bias_values.data + g_gt.set[GT_SET_BIAS_OFF][s];
    const float *sa = sc + col(GT_CASE_SCALE_A_OFF, i), *sb = sc + col(GT_CASE_SCALE_B_OFF, i);
    int row = col(GT_CASE_SCALE_A_LEN, i) > 1;
    pg_out_dtype out = (pg_out_dtype)col(GT_CASE_OUT_DTYPE, i);
    int has_bias = col(GT_CASE_BIAS_DTYPE, i) != 0;
    pg_lib_epilogue e = {"candidate", so, bo, ""};
    int64_t bad = 0;
    for (int64_t m = 0; m < M; m++)
        for (int64_t n = 0; n < N; n++) {
            float v = acc[(s * NACC + a) * M * N + m * N + n];
            uint32_t got = pg_scaled_epilogue(&e, v, sa[row ? m : 0], sb[row ? n : 0], has_bias, bias[n], out);
            uint32_t want = out == PG_OUT_FP32 ? ((const uint32_t *)g_gt.out32.data)[col(GT_CASE_OUT_OFF, i) + m * N + n]
                                               : ((const uint16_t *)g_gt.out16.data)[col(GT_CASE_OUT_OFF, i) + m * N + n];
            if (got != want && bad++ == 0 && first)
                *first = m * N + n;
        }
    return bad;
}

static int setup(void **state)
{
    (void)state;
    if (gt_file_read(g_path, &g_gt) != 0) {
        print_error("%s\n", pg_last_error());
        return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    gt_file_free(&g_gt);
    return 0;
}

static const char *preset_for(int64_t i)
{
    return col(GT_CASE_SCALE_A_LEN, i) > 1 ? "torch-cutlass-rowwise" : "torch-cublaslt";
}

/* Evidence: per library path and fast_accum, the mismatching elements of
 * every (accumulation, scale order, bias order). */
static void print_evidence(const float *acc)
{
    static const char *so_names[] = {"fl(sa*sb)*acc", "(acc*sa)*sb", "(acc*sb)*sa", "acc*sa*sb once"};
    static const char *bo_names[] = {"+bias fp32", "fma bias", "+bias in out"};
    for (int lib = 0; lib < 2; lib++)
        for (int fast = 0; fast < 2; fast++) {
            int64_t count[NACC][NORDERS] = {{0}}, elems = 0;
            for (int64_t i = 0; i < g_gt.ncases; i++) {
                if (!col(GT_CASE_SUPPORTED, i) || (col(GT_CASE_SCALE_A_LEN, i) > 1) != lib ||
                    col(GT_CASE_FAST_ACCUM, i) != fast)
                    continue;
                elems += g_gt.M * g_gt.N;
                for (int a = 0; a < NACC; a++)
                    for (int o = 0; o < NORDERS; o++)
                        count[a][o] += mismatches(acc, i, a, (pg_scale_order)(o / PG_BIAS_ORDER_COUNT),
                                                  (pg_bias_order)(o % PG_BIAS_ORDER_COUNT), NULL);
            }
            printf("evidence: %s, use_fast_accum=%d, %lld elements; mismatching elements per accumulation x order:\n",
                   lib ? "row-wise" : "per-tensor", fast, (long long)elems);
            for (int a = 0; a < NACC; a++) {
                printf("  %-13s", pg_accum_name(k_accs[a]));
                for (int o = 0; o < NORDERS; o++)
                    printf(" %s %s: %lld;", so_names[o / PG_BIAS_ORDER_COUNT], bo_names[o % PG_BIAS_ORDER_COUNT],
                           (long long)count[a][o]);
                printf("\n");
            }
        }
}

static void test_every_element(void **state)
{
    (void)state;
    printf("ground truth: %s, torch %s, cuBLASLt %s, %lld cases\n", g_gt.gpu, g_gt.torch, g_gt.cublaslt,
           (long long)g_gt.ncases);
    float *acc = accumulators();
    int64_t cases = 0, elems = 0, bad_elems = 0, bad_cases = 0, unsupported = 0;
    for (int64_t i = 0; i < g_gt.ncases; i++) {
        int64_t s = col(GT_CASE_SET, i);
        const char *name = (const char *)g_gt.names.data + g_gt.set[GT_SET_NAME_OFF][s];
        int name_len = (int)g_gt.set[GT_SET_NAME_LEN][s];
        if (!col(GT_CASE_SUPPORTED, i)) {
            printf("unsupported: %.*s scale=%lld fast=%lld out=%s bias=%lld: %.*s\n", name_len, name,
                   (long long)col(GT_CASE_SCALE_KIND, i), (long long)col(GT_CASE_FAST_ACCUM, i),
                   pg_out_dtype_name((pg_out_dtype)col(GT_CASE_OUT_DTYPE, i)), (long long)col(GT_CASE_BIAS_DTYPE, i),
                   (int)col(GT_CASE_ERR_LEN, i), (const char *)g_gt.errors.data + col(GT_CASE_ERR_OFF, i));
            unsupported++;
            continue;
        }
        assert_int_equal(col(GT_CASE_BIG_MISMATCH, i), 0);
        assert_int_equal(col(GT_CASE_REPEAT_MISMATCH, i), 0);
        const pg_lib_epilogue *e = pg_lib_epilogue_find(preset_for(i));
        assert_non_null(e);
        int64_t first = -1;
        int64_t bad = mismatches(acc, i, col(GT_CASE_FAST_ACCUM, i) ? 0 : 1, e->scale_order, e->bias_order, &first);
        if (bad) {
            if (bad_cases < 10)
                printf("MISMATCH case %lld (%.*s, %s, fast=%lld, out=%s, bias=%lld): %lld elements, first at %lld\n",
                       (long long)i, name_len, name, e->name, (long long)col(GT_CASE_FAST_ACCUM, i),
                       pg_out_dtype_name((pg_out_dtype)col(GT_CASE_OUT_DTYPE, i)),
                       (long long)col(GT_CASE_BIAS_DTYPE, i), (long long)bad, (long long)first);
            bad_cases++;
        }
        cases++;
        elems += g_gt.M * g_gt.N;
        bad_elems += bad;
    }
    print_evidence(acc);
    printf("checked %lld elements of %lld supported cases bit for bit: %lld mismatching elements in %lld cases; "
           "%lld unsupported cases listed\n",
           (long long)elems, (long long)cases, (long long)bad_elems, (long long)bad_cases, (long long)unsupported);
    free(acc);
    assert_true(cases > 0);
    assert_int_equal(bad_elems, 0);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s GROUND_TRUTH.h5\n", argv[0]);
        return 2;
    }
    g_path = argv[1];
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_every_element)};
    return cmocka_run_group_tests(tests, setup, teardown);
}
