/* The scaled GEMM's vector fast paths (gemm.c: pg_gemm_scaled_acc) against
 * the scalar definition (pg_scaled_acc + pg_scaled_epilogue), every element
 * of every case: operand formats E4M3/E5M2 (all four pairs), scales none /
 * tensor / rowcol / block (DeepGEMM) / MX, all five presets, input families
 * from normal to the full exponent range, subnormals, zeros, NaN and inf
 * codes; shapes with K not a multiple of 128 (and of 32 where the mode
 * allows); OpenMP thread counts 1 and 3; row subsets through
 * pg_problem_ref.  Also in child processes with the lower kernel
 * instruction sets (see main).  Prints the element counts. */
#include <math.h>
#include <omp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gemm.h"
#include "gemm_kernels.h"
#include "problem_ref.h"
#include "rng.h"
#include "scaled.h"

typedef enum { FAM_NORMAL, FAM_WIDE, FAM_SUBNORMAL, FAM_ZEROS, FAM_SPECIAL, FAM_COUNT } family;

static int is_special(pg_fp8_format f, uint8_t c)
{
    return pg_fp8f_is_nan(f, c) || pg_fp8f_is_inf(f, c);
}

/* One code of family fam in format f from the random word r. */
static uint8_t make_code(family fam, pg_fp8_format f, uint64_t r)
{
    uint8_t sign = (uint8_t)(r & 0x80), c;
    int mbits = f == PG_FMT_E5M2 ? 2 : 3;
    switch (fam) {
    case FAM_NORMAL: { /* about N(0, 1): a sum of four uniforms */
        double u = 0;
        for (int i = 0; i < 4; i++)
            u += (double)((r >> (8 + 12 * i)) & 0xFFF) / 4096.0 - 0.5;
        float x = (float)(u * 1.7);
        return f == PG_FMT_E5M2 ? pg_e5m2_from_f32(x) : pg_fp8_from_f32(x);
    }
    case FAM_SUBNORMAL: /* exponent field 0 or 1 */
        c = (uint8_t)((r >> 8) % (2u << mbits));
        return (uint8_t)(sign | c);
    case FAM_ZEROS: /* half zeros (either sign), the rest the full range */
        if ((r >> 40) & 1)
            return sign;
        /* fall through */
    case FAM_WIDE:
    case FAM_SPECIAL:
    default:
        if (fam == FAM_SPECIAL && (r >> 20) % 97 == 0) /* ~1%: NaN or inf codes */
            return (uint8_t)(sign | (f == PG_FMT_E5M2 ? 0x7C + (r >> 30) % 4 : 0x7F));
        do {
            c = (uint8_t)(sign | ((r >> 8) & 0x7F));
            r = pg_mix64(r);
        } while (is_special(f, c));
        return c;
    }
}

typedef struct {
    int64_t M, N, K;
} shape3;

/* K = 200 (not a multiple of 32), 256, 96 (a multiple of 32, not of 128). */
static const shape3 k_shapes[] = {{13, 70, 200}, {9, 130, 256}, {17, 64, 96}};

typedef struct {
    long elements, cases, fast_cases, specials;
} counts;

/* The scaled problem of one case (arrays malloc'd in *own). */
typedef struct {
    uint8_t *A, *B, *mx_a, *mx_b;
    float *sa, *sb, *bias;
} case_arrays;

static void arrays_free(case_arrays *a)
{
    free(a->A), free(a->B), free(a->mx_a), free(a->mx_b), free(a->sa), free(a->sb), free(a->bias);
}

static pg_scaled_problem make_case(family fam, pg_fp8_format fa, pg_fp8_format fb, pg_scale_kind sk, shape3 s,
                                   int mx_far, uint64_t seed, case_arrays *a)
{
    int64_t kb = (s.K + 127) / 128, nb = s.K / 32, M = s.M, N = s.N, K = s.K;
    a->A = malloc((size_t)(M * K));
    a->B = malloc((size_t)(N * K));
    a->sa = malloc((size_t)(M * kb) * sizeof(float));
    a->sb = malloc((size_t)(((N + 127) / 128 + N) * kb) * sizeof(float));
    a->mx_a = malloc((size_t)(M * nb + 1));
    a->mx_b = malloc((size_t)(N * nb + 1));
    a->bias = malloc((size_t)N * sizeof(float));
    assert_true(a->A && a->B && a->sa && a->sb && a->mx_a && a->mx_b && a->bias);
    for (int64_t i = 0; i < M * K; i++)
        a->A[i] = make_code(fam, fa, pg_rng_u64(seed, 1, (uint64_t)i));
    for (int64_t i = 0; i < N * K; i++)
        a->B[i] = make_code(fam, fb, pg_rng_u64(seed, 2, (uint64_t)i));
    for (int64_t i = 0; i < M * kb; i++) /* 2^u, u in [-2, 2): not powers of two */
        a->sa[i] = (float)exp2((double)(pg_rng_u64(seed, 3, (uint64_t)i) % 4000) / 1000.0 - 2.0);
    for (int64_t i = 0; i < ((N + 127) / 128 + N) * kb; i++)
        a->sb[i] = (float)exp2((double)(pg_rng_u64(seed, 4, (uint64_t)i) % 4000) / 1000.0 - 2.0);
    int spread = mx_far ? 100 : 8; /* 127 +- 100 leaves the fast range: the scalar path */
    for (int64_t i = 0; i < M * nb; i++)
        a->mx_a[i] = (uint8_t)(127 - spread + (int)(pg_rng_u64(seed, 5, (uint64_t)i) % (uint64_t)(2 * spread + 1)));
    for (int64_t i = 0; i < N * nb; i++)
        a->mx_b[i] = (uint8_t)(127 - spread + (int)(pg_rng_u64(seed, 6, (uint64_t)i) % (uint64_t)(2 * spread + 1)));
    if (fam == FAM_SPECIAL && nb > 0) /* an MX NaN scale */
        a->mx_a[nb + 1] = 0xFF;
    for (int64_t i = 0; i < N; i++)
        a->bias[i] = pg_bf16_to_f32(pg_bf16_from_f32((float)(pg_rng_u64(seed, 7, (uint64_t)i) % 200) / 50.0f - 2.0f));
    return (pg_scaled_problem){.M = M, .N = N, .K = K, .fmt_a = fa, .fmt_b = fb, .A = a->A, .B = a->B, .scale = sk,
                               .scale_a = a->sa, .scale_b = a->sb, .mx_a = a->mx_a, .mx_b = a->mx_b,
                               .bias = a->bias, .out = PG_OUT_BF16};
}

static int same_f32(float x, float y)
{
    return pg_f32_bits(x) == pg_f32_bits(y);
}

/* pg_scaled_gemm (fast path where it applies) with 1 and 3 threads against
 * pg_scaled_acc and pg_scaled_epilogue, every element. */
static void check_case(const pg_scaled_problem *sp, pg_accum_mode mode, counts *c)
{
    int64_t M = sp->M, N = sp->N;
    const pg_accum_params *ap = pg_accum_preset(mode);
    const pg_lib_epilogue *e = pg_lib_epilogue_default(sp->scale);
    float *want = malloc((size_t)(M * N) * sizeof *want), *acc = malloc((size_t)(M * N) * sizeof *acc);
    uint16_t *D = malloc((size_t)(M * N) * sizeof *D);
    assert_true(want && acc && D);
    for (int64_t m = 0; m < M; m++)
        for (int64_t n = 0; n < N; n++)
            want[m * N + n] = pg_scaled_acc(sp, ap, m, n);
    float *probe = malloc((size_t)(M * N) * sizeof *probe);
    assert_non_null(probe);
    int fast = pg_gemm_scaled_acc(sp, mode, probe);
    assert_true(fast == 0 || fast == 1);
    c->fast_cases += fast == 0;
    free(probe);
    for (int threads = 1; threads <= 3; threads += 2) {
        omp_set_num_threads(threads);
        assert_int_equal(pg_scaled_gemm(sp, ap, e, D, acc), 0);
        for (int64_t m = 0; m < M; m++)
            for (int64_t n = 0; n < N; n++) {
                float w = want[m * N + n];
                float sa = sp->scale == PG_SCALE_TENSOR ? sp->scale_a[0] : sp->scale == PG_SCALE_ROWCOL ? sp->scale_a[m] : 1.0f;
                float sb = sp->scale == PG_SCALE_TENSOR ? sp->scale_b[0] : sp->scale == PG_SCALE_ROWCOL ? sp->scale_b[n] : 1.0f;
                uint32_t dw = pg_scaled_epilogue(e, w, sa, sb, 1, sp->bias[n], sp->out);
                if (!same_f32(acc[m * N + n], w) || D[m * N + n] != dw) {
                    fprintf(stderr, "mismatch %s x %s %s %s K=%lld threads=%d at (%lld, %lld): acc %08x want %08x\n",
                            pg_fp8_format_name(sp->fmt_a), pg_fp8_format_name(sp->fmt_b),
                            pg_scale_kind_name(sp->scale), pg_accum_name(mode), (long long)sp->K, threads,
                            (long long)m, (long long)n, pg_f32_bits(acc[m * N + n]), pg_f32_bits(w));
                    fail();
                }
                c->specials += isnan(w) || isinf(w);
                c->elements++;
            }
    }
    omp_set_num_threads(2);
    c->cases++;
    free(want), free(acc), free(D);
}

static void run_matrix(int reduced)
{
    counts c = {0};
    for (int fam = 0; fam < FAM_COUNT; fam++)
        for (int fp = 0; fp < 4; fp++)
            for (int sk = PG_SCALE_NONE; sk < PG_SCALE_COUNT; sk++)
                for (int mode = 0; mode < PG_ACC_COUNT; mode++) {
                    if (reduced && (fam + fp + sk + mode) % 4 != 0)
                        continue;
                    int idx = ((fam * 4 + fp) * PG_SCALE_COUNT + sk) * PG_ACC_COUNT + mode;
                    shape3 s = k_shapes[idx % 3];
                    int mx_far = 0;
                    if (sk == PG_SCALE_MX) {
                        const pg_accum_params *ap = pg_accum_preset((pg_accum_mode)mode);
                        if (ap->kind != PG_SUM_BLOCK)
                            continue; /* MX needs a tensor-core preset */
                        if (s.K % 32 != 0)
                            s = k_shapes[2 - (idx % 2)];
                        mx_far = fam == FAM_NORMAL && fp == 1;
                    }
                    case_arrays a = {0};
                    pg_scaled_problem sp =
                        make_case((family)fam, (pg_fp8_format)(fp >> 1), (pg_fp8_format)(fp & 1), (pg_scale_kind)sk,
                                  s, mx_far, (uint64_t)(100 + idx), &a);
                    check_case(&sp, (pg_accum_mode)mode, &c);
                    arrays_free(&a);
                }
    printf("fast paths vs the scalar definition (kernels %s): %ld cases (%ld on the vector path), "
           "%ld elements compared (accumulator and output, threads 1 and 3), %ld NaN/inf, 0 mismatches\n",
           pg_kernel_isa_name(), c.cases, c.fast_cases, c.elements, c.specials);
    assert_true(c.fast_cases > c.cases * 9 / 10);
    if (!reduced)
        assert_true(c.specials > 0);
}

static void test_every_fast_path(void **state)
{
    (void)state;
    run_matrix(0);
}

/* Row subsets through pg_problem_ref (the rows' A and A-side scales are
 * copied, B's are shared) against the definition on the original rows. */
static void test_row_subsets(void **state)
{
    (void)state;
    long elements = 0;
    const pg_scale_kind kinds[] = {PG_SCALE_ROWCOL, PG_SCALE_BLOCK, PG_SCALE_MX};
    for (int ki = 0; ki < 3; ki++)
        for (int mode = 0; mode < PG_ACC_COUNT; mode++) {
            if (kinds[ki] == PG_SCALE_MX && pg_accum_preset((pg_accum_mode)mode)->kind != PG_SUM_BLOCK)
                continue;
            case_arrays a = {0};
            shape3 s = {40, 70, 160};
            pg_scaled_problem sp = make_case(FAM_WIDE, PG_FMT_E5M2, PG_FMT_E4M3, kinds[ki], s, 0,
                                             (uint64_t)(7 + ki * 10 + mode), &a);
            pg_problem p = {.shape = {s.M, s.N, s.K, 0}, .A = a.A, .B = a.B, .fmt_a = PG_FMT_E5M2,
                            .fmt_b = PG_FMT_E4M3, .scale = kinds[ki], .scale_a = a.sa, .scale_b = a.sb,
                            .mx_a = a.mx_a, .mx_b = a.mx_b, .out = PG_OUT_FP32};
            int64_t rows[] = {39, 0, 17, 17, 5, 38, 1, 2, 3, 20, 31};
            int64_t nrows = (int64_t)(sizeof rows / sizeof rows[0]);
            uint32_t D[11 * 70];
            float acc[11 * 70];
            const pg_accum_params *ap = pg_accum_preset((pg_accum_mode)mode);
            assert_int_equal(pg_problem_ref(&p, ap, NULL, PG_EPI_DOUBLE, rows, nrows, D, acc, NULL), 0);
            const pg_lib_epilogue *e = pg_lib_epilogue_default(kinds[ki]);
            for (int64_t i = 0; i < nrows; i++)
                for (int64_t n = 0; n < s.N; n++) {
                    int64_t m = rows[i];
                    float w = pg_scaled_acc(&sp, ap, m, n);
                    float sa = kinds[ki] == PG_SCALE_ROWCOL ? a.sa[m] : 1.0f;
                    float sb = kinds[ki] == PG_SCALE_ROWCOL ? a.sb[n] : 1.0f;
                    assert_true(same_f32(acc[i * s.N + n], w));
                    assert_int_equal(D[i * s.N + n], pg_scaled_epilogue(e, w, sa, sb, 0, 0.0f, PG_OUT_FP32));
                    elements++;
                }
            arrays_free(&a);
        }
    printf("row subsets (pg_problem_ref, 11 rows incl. repeats): %ld elements, 0 mismatches\n", elements);
}

/* MX: a block of only zero products (A zeros against B = 448) scaled by
 * 2^40 after a block scaled by 2^-40 must leave emax to C = 3.515625 *
 * 2^-40.  Zero operands' stand-in exponent would say 2^-12 and truncate C
 * to 0; the kernels see that no product is non-zero (gemm_kernels.c). */
static void test_mx_zero_block_keeps_c(void **state)
{
    (void)state;
    enum { K = 64 };
    for (int mode = PG_ACC_SM90; mode < PG_ACC_COUNT; mode++) {
        uint8_t A[K] = {0x3F}, B[K] = {0x3F}; /* 1.875 * 1.875 in block 0 */
        for (int k = 32; k < K; k++)
            B[k] = 0x7E; /* 448 against zeros in block 1 */
        uint8_t mx_a[2] = {107, 147}, mx_b[2] = {107, 147}; /* 2^-40, then 2^40 */
        float bias = 0.0f, acc = 0.0f;
        uint32_t D = 0;
        pg_scaled_problem sp = {.M = 1, .N = 1, .K = K, .fmt_a = PG_FMT_E4M3, .fmt_b = PG_FMT_E4M3, .A = A, .B = B,
                                .scale = PG_SCALE_MX, .mx_a = mx_a, .mx_b = mx_b, .bias = &bias, .out = PG_OUT_FP32};
        const pg_accum_params *ap = pg_accum_preset((pg_accum_mode)mode);
        float want = pg_scaled_acc(&sp, ap, 0, 0);
        assert_true(want == 3.515625f * 0x1p-40f);
        assert_int_equal(pg_gemm_scaled_acc(&sp, (pg_accum_mode)mode, &acc), 0);
        assert_true(same_f32(acc, want));
        assert_int_equal(pg_scaled_gemm(&sp, ap, pg_lib_epilogue_default(PG_SCALE_MX), &D, &acc), 0);
        assert_true(same_f32(acc, want));
    }
}

/* The kernel instruction set is chosen once per process: the lower ones
 * run (a reduced matrix) in child processes of the test binary. */
static void test_lower_isa(void **state)
{
    (void)state;
    if (getenv("PG_TEST_ISA") == NULL)
        skip();
    run_matrix(1);
}

int main(int argc, char **argv)
{
    (void)argc;
    if (getenv("PG_TEST_ISA") == NULL) {
        for (int isa = 1; isa <= 2; isa++) {
            char cmd[4096];
            snprintf(cmd, sizeof cmd, "PG_TEST_ISA=%d PG_KERNEL_ISA=%d '%s'", isa, isa, argv[0]);
            if (system(cmd) != 0) {
                fprintf(stderr, "kernel instruction set %d: a fast path does not match the definition\n", isa);
                return 1;
            }
        }
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_every_fast_path),
            cmocka_unit_test(test_row_subsets),
            cmocka_unit_test(test_mx_zero_block_keeps_c),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_lower_isa)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
