/* `pegemm bench-ref`: throughput of the reference in each accumulation mode
 * beside OpenBLAS sgemm on the same decoded matrices, and of each scaled /
 * operand-format variant beside its unscaled mode, in the same run and
 * with the same thread count.  A benchmark, not a test: timings are noisy;
 * it says PASS or FAIL against the rule "every variant at least half its
 * unscaled mode's GMAC/s" (issue 13) and exits 1 on FAIL. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_problem.h"
#include "cli_util.h"
#include "commands.h"
#include "gemm.h"
#include "gemm_kernels.h"
#include "inputs.h"
#include "pg_alloc.h"
#include "pg_cli.h"
#include "pg_error.h"
#include "pg_progress.h"
#include "rng.h"
#include "scaled.h"

#if defined(PG_HAVE_OPENBLAS)
#include <cblas.h>
#endif

static const pg_cli_opt k_bench_opts[] = {
    PG_CLI_OPT_PROBLEM,
    PG_CLI_OPT_SHAPE,
    PG_CLI_OPT_FAMILY,
    PG_CLI_OPT_SEED,
    {"threads", 0, "N", "OpenMP and OpenBLAS threads (default: all)"},
    {"repeat", 0, "R", "rounds per mode (unscaled and variants interleaved), best kept (default 3)"},
    {"modes", 0, "LIST", "comma-separated modes (default: all five)"},
    {"no-variants", 0, NULL, "time only the unscaled modes"},
};

/* The scaled / format variants timed beside each unscaled mode. */
typedef struct {
    const char *name;
    pg_fp8_format fa, fb;
    pg_scale_kind scale;
} bench_variant;

static const bench_variant k_variants[] = {
    {"e4m3xe4m3 tensor", PG_FMT_E4M3, PG_FMT_E4M3, PG_SCALE_TENSOR},
    {"e4m3xe4m3 rowcol", PG_FMT_E4M3, PG_FMT_E4M3, PG_SCALE_ROWCOL},
    {"e4m3xe5m2 tensor", PG_FMT_E4M3, PG_FMT_E5M2, PG_SCALE_TENSOR},
    {"e5m2xe4m3 rowcol", PG_FMT_E5M2, PG_FMT_E4M3, PG_SCALE_ROWCOL},
    {"e5m2xe5m2 none", PG_FMT_E5M2, PG_FMT_E5M2, PG_SCALE_NONE},
    {"e4m3xe4m3 block", PG_FMT_E4M3, PG_FMT_E4M3, PG_SCALE_BLOCK},
    {"e4m3xe5m2 block", PG_FMT_E4M3, PG_FMT_E5M2, PG_SCALE_BLOCK},
    {"e4m3xe4m3 mx", PG_FMT_E4M3, PG_FMT_E4M3, PG_SCALE_MX},
    {"e5m2xe4m3 mx", PG_FMT_E5M2, PG_FMT_E4M3, PG_SCALE_MX},
};
#define NVARIANTS (sizeof k_variants / sizeof k_variants[0])

static void bench_usage(FILE *f)
{
    fprintf(f, "usage: pegemm bench-ref [--problem M,N,K[,P]] [--family F] [--seed S]\n"
               "                        [--threads N] [--repeat R] [--modes LIST]\n"
               "\n"
               "Time the CPU reference (all rows, D only, double-rounding epilogue) in each\n"
               "accumulation mode and OpenBLAS sgemm on the same matrices decoded to fp32;\n"
               "print GMAC/s (M*N*K / best time over R repeats) and the ratio to sgemm.\n"
               "Then each scaled / operand-format variant (E5M2 operands: the E4M3 values\n"
               "rounded to E5M2; scales 2^u, u in [-2, 2); MX codes 127 +- 4; bf16 out) with\n"
               "its ratio to the unscaled mode, and PASS or FAIL against the rule that every\n"
               "variant runs at least half its unscaled mode's GMAC/s (exit 1 on FAIL;\n"
               "timings on a shared machine are noisy: repeat). MX runs only in the\n"
               "tensor-core modes with K a multiple of 32.\n"
               "Default shape 4096,768,768,196.\n"
               "\n");
    pg_cli_print_options(f, k_bench_opts, PG_CLI_COUNT(k_bench_opts));
}

/* Best wall time of `repeat` sgemm calls on the decoded matrices; -1 when
 * OpenBLAS is not in this build. */
static double time_sgemm(const pg_problem *p, int threads, int repeat)
{
#if defined(PG_HAVE_OPENBLAS)
    int64_t M = p->shape.M, N = p->shape.N, K = p->shape.K;
    float *A = malloc((size_t)(M * K) * sizeof *A);
    float *B = malloc((size_t)(N * K) * sizeof *B);
    float *C = malloc((size_t)(M * N) * sizeof *C);
    double best = -1.0;
    if (A == NULL || B == NULL || C == NULL) {
        pg_fail("out of memory for the decoded fp32 matrices");
        goto done;
    }
    for (int64_t i = 0; i < M * K; i++)
        A[i] = pg_fp8_to_f32(p->A[i]);
    for (int64_t i = 0; i < N * K; i++)
        B[i] = pg_fp8_to_f32(p->B[i]);
    openblas_set_num_threads(threads);
    for (int r = 0; r < repeat; r++) {
        double t = pg_now_seconds();
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)M, (int)N, (int)K, 1.0f, A, (int)K, B, (int)K,
                    0.0f, C, (int)N);
        t = pg_now_seconds() - t;
        if (best < 0 || t < best)
            best = t;
    }
done:
    free(A);
    free(B);
    free(C);
    return best;
#else
    (void)p;
    (void)threads;
    (void)repeat;
    return -1.0;
#endif
}

/* The inputs of the variants: A and B as E5M2, every kind of scale. */
typedef struct {
    uint8_t *A5, *B5, *mx_a, *mx_b;
    float *sa, *sb;
    void *D;
} variant_inputs;

static void variant_inputs_free(variant_inputs *v)
{
    free(v->A5), free(v->B5), free(v->mx_a), free(v->mx_b), free(v->sa), free(v->sb), free(v->D);
}

static float bench_scale(uint64_t tensor, int64_t i)
{
    return (float)exp2((double)(pg_rng_u64(1, tensor, (uint64_t)i) % 4000) / 1000.0 - 2.0);
}

static int variant_inputs_make(const pg_problem *p, variant_inputs *v)
{
    int64_t M = p->shape.M, N = p->shape.N, K = p->shape.K, KB = (K + 127) / 128, NB = (N + 127) / 128;
    int64_t na = M * (KB > 1 ? KB : 1), nb = (N > NB * KB ? N : NB * KB);
    memset(v, 0, sizeof *v);
    v->A5 = malloc((size_t)(M * K));
    v->B5 = malloc((size_t)(N * K));
    v->mx_a = malloc((size_t)(M * (K / 32) + 1));
    v->mx_b = malloc((size_t)(N * (K / 32) + 1));
    v->sa = malloc((size_t)na * sizeof *v->sa);
    v->sb = malloc((size_t)nb * sizeof *v->sb);
    v->D = malloc((size_t)(M * N) * sizeof(uint16_t));
    if (!v->A5 || !v->B5 || !v->mx_a || !v->mx_b || !v->sa || !v->sb || !v->D) {
        variant_inputs_free(v);
        return pg_fail("out of memory for the scaled variants' inputs");
    }
    for (int64_t i = 0; i < M * K; i++)
        v->A5[i] = pg_e5m2_from_f32(pg_fp8_to_f32(p->A[i]));
    for (int64_t i = 0; i < N * K; i++)
        v->B5[i] = pg_e5m2_from_f32(pg_fp8_to_f32(p->B[i]));
    for (int64_t i = 0; i < M * (K / 32); i++)
        v->mx_a[i] = (uint8_t)(123 + pg_rng_u64(1, PG_RNG_TENSOR_SCALE_A, (uint64_t)i) % 9);
    for (int64_t i = 0; i < N * (K / 32); i++)
        v->mx_b[i] = (uint8_t)(123 + pg_rng_u64(1, PG_RNG_TENSOR_SCALE_B, (uint64_t)i) % 9);
    for (int64_t i = 0; i < na; i++)
        v->sa[i] = bench_scale(PG_RNG_TENSOR_SCALE_A, i);
    for (int64_t i = 0; i < nb; i++)
        v->sb[i] = bench_scale(PG_RNG_TENSOR_SCALE_B, i);
    return 0;
}

/* Best time of `repeat` runs of variant `vr` under mode m; 0 when the
 * variant does not apply to the mode or shape, -1 on failure. */
static double time_variant(const pg_problem *p, const variant_inputs *in, const bench_variant *vr, pg_accum_mode m,
                           int repeat)
{
    const pg_accum_params *ap = pg_accum_preset(m);
    if (vr->scale == PG_SCALE_MX && (ap->kind != PG_SUM_BLOCK || p->shape.K % PG_MX_BLOCK_K != 0))
        return 0.0;
    pg_scaled_problem sp = {.M = p->shape.M, .N = p->shape.N, .K = p->shape.K, .fmt_a = vr->fa, .fmt_b = vr->fb,
                            .A = vr->fa == PG_FMT_E5M2 ? in->A5 : p->A, .B = vr->fb == PG_FMT_E5M2 ? in->B5 : p->B,
                            .scale = vr->scale, .scale_a = in->sa, .scale_b = in->sb, .mx_a = in->mx_a,
                            .mx_b = in->mx_b, .out = PG_OUT_BF16};
    double best = -1.0;
    for (int r = 0; r < repeat; r++) {
        double t = pg_now_seconds();
        if (pg_scaled_gemm(&sp, ap, pg_lib_epilogue_default(vr->scale), in->D, NULL) != 0)
            return -1.0;
        t = pg_now_seconds() - t;
        if (best < 0 || t < best)
            best = t;
    }
    return best;
}

/* Best time of `repeat` runs of the unscaled mode m; -1 on failure. */
static double time_mode(const pg_problem *p, pg_accum_mode m, uint16_t *D, int repeat)
{
    double best = -1.0;
    for (int r = 0; r < repeat; r++) {
        double t = pg_now_seconds();
        if (pg_gemm_ref(p, m, PG_EPI_DOUBLE, NULL, p->shape.M, D, NULL, NULL) != 0)
            return -1.0;
        t = pg_now_seconds() - t;
        if (best < 0 || t < best)
            best = t;
    }
    return best;
}

/* Mode m and its variants, timed interleaved (unscaled, then each variant,
 * `repeat` rounds; best of each kept) so that a slow spell of a shared
 * machine hits both sides of a ratio; prints both and counts the variants
 * below half in *slow.  0, or -1 on failure. */
static int bench_mode(const pg_problem *p, const variant_inputs *in, pg_accum_mode m, uint16_t *D, int repeat,
                      int variants, double g_sgemm, int *slow, int *timed)
{
    double macs = (double)p->shape.M * (double)p->shape.N * (double)p->shape.K;
    double best = -1.0, vbest[NVARIANTS];
    for (size_t i = 0; i < NVARIANTS; i++)
        vbest[i] = -1.0;
    for (int r = 0; r < repeat; r++) {
        double t = time_mode(p, m, D, 1);
        if (t < 0)
            return -1;
        best = best < 0 || t < best ? t : best;
        for (size_t i = 0; variants && i < NVARIANTS; i++) {
            if ((t = time_variant(p, in, &k_variants[i], m, 1)) < 0)
                return -1;
            vbest[i] = vbest[i] < 0 || t < vbest[i] ? t : vbest[i];
        }
    }
    double g = macs / best * 1e-9;
    if (g_sgemm > 0)
        printf("  %-14s %9.4f s  %8.2f GMAC/s  %6.3fx sgemm\n", pg_accum_name(m), best, g, g / g_sgemm);
    else
        printf("  %-14s %9.4f s  %8.2f GMAC/s\n", pg_accum_name(m), best, g);
    for (size_t i = 0; variants && i < NVARIANTS; i++) {
        if (vbest[i] == 0)
            continue; /* does not apply to this mode or shape */
        double gv = macs / vbest[i] * 1e-9, ratio = gv / g;
        printf("    %-12s %-17s %9.4f s  %8.2f GMAC/s  %5.2fx %-12s %s\n", pg_accum_name(m), k_variants[i].name,
               vbest[i], gv, ratio, pg_accum_name(m), ratio >= 0.5 ? "ok" : "BELOW HALF");
        *slow += ratio < 0.5;
        ++*timed;
    }
    fflush(stdout);
    return 0;
}

int pg_cmd_bench_ref(int argc, char **argv)
{
    pg_cli_problem po;
    pg_cli_problem_begin(&po);
    po.shape = "4096,768,768,196";
    const char *modes_s = NULL;
    int repeat = 3, variants = 1, k, r;
    pg_cli c;
    if (pg_cli_begin(&c, "bench-ref", k_bench_opts, PG_CLI_COUNT(k_bench_opts), argc, argv)) {
        bench_usage(stdout);
        return 0;
    }
    while ((k = pg_cli_next(&c)) != PG_CLI_END) {
        if (k == PG_CLI_ERROR)
            return 2;
        if (k == PG_CLI_OPERAND) {
            pg_fail("unexpected argument '%s'", c.value);
            return pg_cli_usage_error(&c);
        }
        if ((r = pg_cli_problem_take(&po, &k_bench_opts[k], c.value)) < 0)
            return pg_cli_usage_error(&c);
        if (r == 1)
            continue;
        if (!strcmp(k_bench_opts[k].name, "repeat") && pg_cli_parse_int(c.value, "--repeat", 1, 1000, &repeat) != 0)
            return pg_cli_usage_error(&c);
        if (!strcmp(k_bench_opts[k].name, "modes"))
            modes_s = c.value;
        if (!strcmp(k_bench_opts[k].name, "no-variants"))
            variants = 0;
    }
    int threads = po.threads;

    int use[PG_ACC_COUNT];
    for (int m = 0; m < PG_ACC_COUNT; m++)
        use[m] = modes_s == NULL;
    if (modes_s != NULL) {
        char buf[256];
        snprintf(buf, sizeof buf, "%s", modes_s);
        for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            pg_accum_mode m;
            if (pg_accum_parse(tok, &m) != 0)
                goto bad_value;
            use[m] = 1;
        }
    }

    pg_problem p;
    int stored;
    if (pg_cli_problem_load(&po, &p, &stored) != 0)
        goto bad_value;
    pg_cli_set_threads(threads);
    int nthreads = threads > 0 ? threads : omp_get_max_threads();
    int64_t M = p.shape.M, N = p.shape.N, K = p.shape.K;
    double macs = (double)M * (double)N * (double)K;
    uint16_t *D = pg_alloc("D", M * N, sizeof *D);
    if (D == NULL) {
        pg_problem_free(&p);
        return pg_cli_report("bench-ref", 1);
    }

    printf("bench-ref: M=%lld N=%lld K=%lld family=%s threads=%d repeat=%d kernels=%s\n", (long long)M,
           (long long)N, (long long)K, p.family, nthreads, repeat, pg_kernel_isa_name());
    double t_sgemm = time_sgemm(&p, nthreads, repeat);
    double g_sgemm = t_sgemm > 0 ? macs / t_sgemm * 1e-9 : 0.0;
    if (t_sgemm > 0)
        printf("  %-14s %9.4f s  %8.2f GMAC/s\n", "openblas-sgemm", t_sgemm, g_sgemm);
    else
        printf("  %-14s (not in this build: OpenBLAS not found)\n", "openblas-sgemm");
    variant_inputs in = {0};
    if (variants && variant_inputs_make(&p, &in) != 0) {
        free(D);
        pg_problem_free(&p);
        return pg_cli_report("bench-ref", 1);
    }
    int rc = 0, slow = 0, timed = 0;
    for (int m = 0; m < PG_ACC_COUNT && rc == 0; m++)
        if (use[m] && bench_mode(&p, &in, (pg_accum_mode)m, D, repeat, variants, g_sgemm, &slow, &timed) != 0)
            rc = pg_cli_report("bench-ref", 1);
    if (variants)
        variant_inputs_free(&in);
    if (rc == 0 && variants) {
        printf("bench-ref: %d variants, %d below half their unscaled mode's GMAC/s: %s\n", timed, slow,
               slow == 0 ? "PASS" : "FAIL");
        rc = slow == 0 ? 0 : 1;
    }
    free(D);
    pg_problem_free(&p);
    return rc;

bad_value:
    return pg_cli_report("bench-ref", 2);
}
