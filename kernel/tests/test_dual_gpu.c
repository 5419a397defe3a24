/* The fused SwiGLU dual-GEMM kernel (kernel/dual_gpu.h) against the CPU
 * reference pg_dual_gemm_ref under the sm90 preset, every element, bit for
 * bit: both designs, bf16 and fp16, four shapes (one tile; non-square with
 * several k-blocks; two groups with K = 1024; three groups), a case whose
 * per-row magnitudes reach silu's negative tail (-0 below -110, subnormal
 * results) and overflow (inf in fp16, and in fp32 itself), and the trace
 * build (the same C bits; one record per tile and phase).  Inputs: normal
 * data quantised DeepGEMM-style (per 1 x 128 block of A and 128 x 128 block
 * of B: scale = amax / 448, codes = e4m3(x / scale)), deterministic.
 * Also more tiles than SMs (several tiles per CTA, both tile orders).
 * Exits 77 (SKIP) without an sm_90 GPU, after the checks that need none. */
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

#include "accum.h"
#include "dual_gpu.h"
#include "formats.h"
#include "gpu_skip.h"
#include "pg_error.h"
#include "rng.h"

/* ---------------------------------------------------------------- inputs */
typedef struct {
    pg_dual_problem dp;
    uint8_t *A, *B1, *B2;
    float *sa, *sb1, *sb2;
} problem;

/* Approximately N(0, 1): Box-Muller from two 53-bit uniforms. */
static double gauss(uint64_t seed, uint64_t tensor, uint64_t i)
{
    const double u1 = ((double)(pg_rng_u64(seed, tensor, 2 * i) >> 11) + 0.5) * 0x1p-53;
    const double u2 = (double)(pg_rng_u64(seed, tensor, 2 * i + 1) >> 11) * 0x1p-53;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

/* x[rows][K] ~ N(0, 1), quantised per block of `block_rows` rows x 128 k:
 * scale = amax / 448 (1 for an all-zero block), codes = e4m3(x / scale);
 * scale[rb][kb] for row block rb, times 2^row_exp(row block) when given. */
static void quantise(uint64_t seed, uint64_t tensor, int64_t rows, int64_t K, int64_t block_rows, uint8_t *codes,
                     float *scale, int (*row_exp)(int64_t))
{
    const int64_t KB = K / 128;
    float *x = malloc((size_t)(rows * K) * sizeof *x);
    assert_non_null(x);
    for (int64_t i = 0; i < rows * K; i++)
        x[i] = (float)gauss(seed, tensor, (uint64_t)i);
    for (int64_t rb = 0; rb < rows / block_rows; rb++)
        for (int64_t kb = 0; kb < KB; kb++) {
            float amax = 0.0f;
            for (int64_t r = rb * block_rows; r < (rb + 1) * block_rows; r++)
                for (int64_t k = kb * 128; k < (kb + 1) * 128; k++)
                    amax = fmaxf(amax, fabsf(x[r * K + k]));
            const float s = amax > 0.0f ? amax / 448.0f : 1.0f;
            for (int64_t r = rb * block_rows; r < (rb + 1) * block_rows; r++)
                for (int64_t k = kb * 128; k < (kb + 1) * 128; k++)
                    codes[r * K + k] = pg_fp8_from_f32(x[r * K + k] / s);
            scale[rb * KB + kb] = row_exp ? ldexpf(s, row_exp(rb)) : s;
        }
    free(x);
}

/* The large-magnitude case: A row m's scales times 2^((m % 41) 3 - 30), so
 * d1, d2 run from ~2^-28 to ~2^92 and h = silu(d1) d2 from the subnormals
 * past fp32's overflow; |d1| in [88, 110] (subnormal silu) and above 110
 * (silu = -0) both occur. */
static int large_row_exp(int64_t m) { return (int)(m % 41) * 3 - 30; }

static void problem_make(problem *p, int64_t G, int64_t M, int64_t N, int64_t K, pg_out_dtype out, uint64_t seed,
                         int large)
{
    memset(p, 0, sizeof *p);
    const int64_t KB = K / 128, NB = N / 128;
    p->A = malloc((size_t)(G * M * K));
    p->B1 = malloc((size_t)(G * N * K));
    p->B2 = malloc((size_t)(G * N * K));
    p->sa = malloc((size_t)(G * M * KB) * sizeof(float));
    p->sb1 = malloc((size_t)(G * NB * KB) * sizeof(float));
    p->sb2 = malloc((size_t)(G * NB * KB) * sizeof(float));
    assert_true(p->A && p->B1 && p->B2 && p->sa && p->sb1 && p->sb2);
    for (int64_t g = 0; g < G; g++) {
        quantise(seed, 10 * (uint64_t)g + 1, M, K, 1, p->A + g * M * K, p->sa + g * M * KB,
                 large ? large_row_exp : NULL);
        quantise(seed, 10 * (uint64_t)g + 2, N, K, 128, p->B1 + g * N * K, p->sb1 + g * NB * KB, NULL);
        quantise(seed, 10 * (uint64_t)g + 3, N, K, 128, p->B2 + g * N * K, p->sb2 + g * NB * KB, NULL);
    }
    p->dp = (pg_dual_problem){
        .G = G, .M = M, .N = N, .K = K, .fmt_a = PG_FMT_E4M3, .fmt_b = PG_FMT_E4M3,
        .A = p->A, .B1 = p->B1, .B2 = p->B2, .scale = PG_SCALE_BLOCK,
        .scale_a = p->sa, .scale_b1 = p->sb1, .scale_b2 = p->sb2, .out = out,
    };
}

static void problem_free(problem *p)
{
    free(p->A);
    free(p->B1);
    free(p->B2);
    free(p->sa);
    free(p->sb1);
    free(p->sb2);
}

/* ---------------------------------------------------------------- comparison */
static const pg_accum_params *sm90(void) { return pg_accum_preset(PG_ACC_SM90); }

static uint16_t *reference(const problem *p)
{
    const int64_t n = p->dp.G * p->dp.M * p->dp.N;
    uint16_t *want = malloc((size_t)n * sizeof *want);
    assert_non_null(want);
    if (pg_dual_gemm_ref(&p->dp, sm90(), want) != 0)
        fail_msg("pg_dual_gemm_ref: %s", pg_last_error());
    return want;
}

/* Every element; the count and the first mismatches (g, m, n, got, want). */
static int64_t compare(const problem *p, const uint16_t *got, const uint16_t *want, const char *what)
{
    const pg_dual_problem *d = &p->dp;
    int64_t bad = 0;
    for (int64_t i = 0; i < d->G * d->M * d->N; i++)
        if (got[i] != want[i]) {
            if (bad < 8)
                print_message("%s: C[%lld][%lld][%lld] (index %lld) got 0x%04x want 0x%04x\n", what,
                              (long long)(i / (d->M * d->N)), (long long)(i / d->N % d->M), (long long)(i % d->N),
                              (long long)i, got[i], want[i]);
            bad++;
        }
    if (bad)
        print_message("%s: %lld of %lld elements differ\n", what, (long long)bad, (long long)(d->G * d->M * d->N));
    return bad;
}

typedef int (*gpu_fn)(const pg_dual_problem *, const pg_accum_params *, void *);

static void check_case(int64_t G, int64_t M, int64_t N, int64_t K, pg_out_dtype out, uint64_t seed, int large)
{
    problem p;
    problem_make(&p, G, M, N, K, out, seed, large);
    uint16_t *want = reference(&p);
    uint16_t *got = malloc((size_t)(G * M * N) * sizeof *got);
    assert_non_null(got);
    const gpu_fn fns[2] = {pg_dual_gemm_gpu_inter, pg_dual_gemm_gpu_seq};
    int64_t bad = 0;
    for (int d = 0; d < 2; d++) {
        char what[160];
        snprintf(what, sizeof what, "%s %s G=%lld M=%lld N=%lld K=%lld%s", pg_dual_design_name((pg_dual_design)d),
                 out == PG_OUT_FP16 ? "fp16" : "bf16", (long long)G, (long long)M, (long long)N, (long long)K,
                 large ? " large" : "");
        memset(got, 0xAB, (size_t)(G * M * N) * sizeof *got);
        if (fns[d](&p.dp, sm90(), got) != 0)
            fail_msg("%s: %s", what, pg_last_error());
        bad += compare(&p, got, want, what);
    }
    free(got);
    free(want);
    problem_free(&p);
    assert_int_equal(bad, 0);
}

static const int64_t k_shapes[4][4] = {{1, 128, 128, 128}, {1, 256, 384, 512}, {2, 256, 256, 1024}, {3, 128, 256, 384}};

static void test_shapes_bf16(void **state)
{
    (void)state;
    for (int s = 0; s < 4; s++)
        check_case(k_shapes[s][0], k_shapes[s][1], k_shapes[s][2], k_shapes[s][3], PG_OUT_BF16, 100 + (uint64_t)s, 0);
}

static void test_shapes_fp16(void **state)
{
    (void)state;
    for (int s = 0; s < 4; s++)
        check_case(k_shapes[s][0], k_shapes[s][1], k_shapes[s][2], k_shapes[s][3], PG_OUT_FP16, 200 + (uint64_t)s, 0);
}

static void test_large_magnitudes(void **state)
{
    (void)state;
    check_case(1, 256, 384, 512, PG_OUT_BF16, 300, 1);
    check_case(2, 256, 256, 256, PG_OUT_FP16, 301, 1);
}

/* More tiles than SMs, so CTAs run several tiles: the ring's phases carry
 * across tiles, the producer runs ahead into the next tile, the staging
 * buffer is reused after its store.  Both tile orders: MB > NB (n
 * fastest) and MB < NB (m fastest). */
static void test_multi_tile(void **state)
{
    (void)state;
    check_case(1, 2048, 1280, 256, PG_OUT_BF16, 500, 0);
    check_case(1, 1280, 2048, 256, PG_OUT_FP16, 501, 0);
}

/* The small cases the sanitizers run (PG_DUAL_TEST=quick). */
static void test_quick(void **state)
{
    (void)state;
    check_case(1, 128, 128, 128, PG_OUT_BF16, 100, 0);
    check_case(3, 128, 256, 384, PG_OUT_FP16, 203, 0);
}

/* (No GPU needed.)  The large case reaches the paths it is for: in the
 * reference's output, zeros (silu of d1 < -110 is -0), infinities and
 * subnormals all occur. */
static void test_large_coverage(void **state)
{
    (void)state;
    problem p;
    problem_make(&p, 1, 256, 384, 512, PG_OUT_FP16, 300, 1);
    uint16_t *want = reference(&p);
    int64_t zeros = 0, neg_zeros = 0, inf = 0, sub = 0;
    for (int64_t i = 0; i < 256 * 384; i++) {
        zeros += (want[i] & 0x7FFF) == 0;
        neg_zeros += want[i] == 0x8000;
        inf += (want[i] & 0x7FFF) == 0x7C00;
        sub += (want[i] & 0x7C00) == 0 && (want[i] & 0x3FF) != 0;
    }
    print_message("large fp16: %lld zeros (%lld -0), %lld infinities, %lld subnormals of %d\n", (long long)zeros,
                  (long long)neg_zeros, (long long)inf, (long long)sub, 256 * 384);
    assert_true(zeros > 0 && neg_zeros > 0 && inf > 0 && sub > 0);
    free(want);
    problem_free(&p);
}

/* The trace build: the same bits as production; every tile once per phase. */
static void test_traced(void **state)
{
    (void)state;
    problem p;
    problem_make(&p, 2, 256, 384, 512, PG_OUT_BF16, 400, 0);
    uint16_t *want = reference(&p);
    const int64_t n = 2 * 256 * 384;
    uint16_t *got = malloc((size_t)n * sizeof *got);
    assert_non_null(got);
    for (int d = 0; d < PG_DUAL_DESIGN_COUNT; d++) {
        pg_dual_gpu *g = NULL;
        pgtrace_buffer buf;
        pgtrace_trace t;
        memset(&buf, 0, sizeof buf);
        const pg_dual_probe probe = {0, 0};
        if (pg_dual_gpu_create(&g, &p.dp) != 0 || pg_dual_gpu_trace_buffer(g, &buf) != 0 ||
            pg_dual_gpu_launch_traced(g, (pg_dual_design)d, &probe, &buf, 0) != 0 || pg_dual_gpu_download(g, got) != 0)
            fail_msg("traced %s: %s", pg_dual_design_name((pg_dual_design)d), pg_last_error());
        assert_int_equal(compare(&p, got, want, pg_dual_design_name((pg_dual_design)d)), 0);
        if (pg_dual_gpu_trace_collect(g, &buf, &t) != 0)
            fail_msg("trace collect %s: %s", pg_dual_design_name((pg_dual_design)d), pg_last_error());
        assert_int_equal(t.n_events, pg_dual_gpu_tiles(g) * 6);
        for (int64_t k = 0; k < t.n_events; k++)
            assert_true(t.events[k].end >= t.events[k].begin);
        print_message("traced %s: %lld tiles on %d CTAs, %lld events, clock %.0f MHz\n",
                      pg_dual_design_name((pg_dual_design)d), (long long)pg_dual_gpu_tiles(g), pg_dual_gpu_grid(g),
                      (long long)t.n_events, t.clock_hz / 1e6);
        pgtrace_trace_free(&t);
        pgtrace_buffer_destroy(&buf);
        pg_dual_gpu_free(g);
    }
    free(got);
    free(want);
    problem_free(&p);
}

/* ---------------------------------------------------------------- no GPU needed */
static void test_supports(void **state)
{
    (void)state;
    problem p;
    problem_make(&p, 1, 128, 128, 128, PG_OUT_BF16, 1, 0);
    assert_int_equal(pg_dual_gpu_supports(&p.dp, sm90()), 0);
    pg_dual_problem d = p.dp;
    d.M = 100;
    assert_int_equal(pg_dual_gpu_supports(&d, sm90()), -1);
    assert_non_null(strstr(pg_last_error(), "multiples of 128"));
    d = p.dp;
    d.fmt_b = PG_FMT_E5M2;
    assert_int_equal(pg_dual_gpu_supports(&d, sm90()), -1);
    assert_non_null(strstr(pg_last_error(), "e4m3"));
    d = p.dp;
    d.scale = PG_SCALE_TENSOR;
    assert_int_equal(pg_dual_gpu_supports(&d, sm90()), -1);
    assert_non_null(strstr(pg_last_error(), "block"));
    assert_int_equal(pg_dual_gpu_supports(&p.dp, pg_accum_preset(PG_ACC_SM90_PROMOTE)), -1);
    assert_non_null(strstr(pg_last_error(), "sm90"));
    pg_dual_design des;
    assert_int_equal(pg_dual_design_parse("seq", &des), 0);
    assert_int_equal(des, PG_DUAL_SEQ);
    assert_int_equal(pg_dual_design_parse("inter", &des), 0);
    assert_int_equal(des, PG_DUAL_INTER);
    assert_int_equal(pg_dual_design_parse("pp", &des), -1);
    assert_string_equal(pg_dual_design_name(PG_DUAL_SEQ), "seq");
    const pgtrace_vocab *v = pg_dual_trace_vocab();
    assert_int_equal(v->n_phases, 6);
    assert_string_equal(v->phase_names[2], "load_wait");
    assert_string_equal(v->role_names[1], "consumer");
    problem_free(&p);
}

/* PG_DUAL_TEST=quick | multi: only the sanitizers' small cases / the
 * multi-tile case (the sanitizer runs); unset: everything but quick. */
int main(void)
{
    const struct CMUnitTest cpu_tests[] = {
        cmocka_unit_test(test_supports),
        cmocka_unit_test(test_large_coverage),
    };
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shapes_bf16), cmocka_unit_test(test_shapes_fp16), cmocka_unit_test(test_large_magnitudes),
        cmocka_unit_test(test_multi_tile),  cmocka_unit_test(test_traced),
    };
    const struct CMUnitTest quick[] = {cmocka_unit_test(test_quick), cmocka_unit_test(test_traced)};
    const struct CMUnitTest multi[] = {cmocka_unit_test(test_multi_tile)};
    const char *only = getenv("PG_DUAL_TEST");
    const int failed = cmocka_run_group_tests(cpu_tests, NULL, NULL);
    const char *why = gpu_missing();
    if (why) {
        print_message("skipping the GPU cases: %s\n", why);
        return failed ? 1 : 77;
    }
    int gpu_failed;
    if (only && strcmp(only, "quick") == 0)
        gpu_failed = cmocka_run_group_tests(quick, NULL, NULL);
    else if (only && strcmp(only, "multi") == 0)
        gpu_failed = cmocka_run_group_tests(multi, NULL, NULL);
    else
        gpu_failed = cmocka_run_group_tests(tests, NULL, NULL);
    return gpu_failed || failed ? 1 : 0;
}
