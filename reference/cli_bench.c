/* `pegemm bench-ref`: throughput of the reference in each accumulation mode
 * beside OpenBLAS sgemm on the same decoded matrices, in the same run and
 * with the same thread count.  A benchmark, not a test: it prints numbers. */
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

#if defined(PG_HAVE_OPENBLAS)
#include <cblas.h>
#endif

static const pg_cli_opt k_bench_opts[] = {
    PG_CLI_OPT_PROBLEM,
    PG_CLI_OPT_SHAPE,
    PG_CLI_OPT_FAMILY,
    PG_CLI_OPT_SEED,
    {"threads", 0, "N", "OpenMP and OpenBLAS threads (default: all)"},
    {"repeat", 0, "R", "repeats per mode, best kept (default 3)"},
    {"modes", 0, "LIST", "comma-separated modes (default: all five)"},
};

static void bench_usage(FILE *f)
{
    fprintf(f, "usage: pegemm bench-ref [--problem M,N,K[,P]] [--family F] [--seed S]\n"
               "                        [--threads N] [--repeat R] [--modes LIST]\n"
               "\n"
               "Time the CPU reference (all rows, D only, double-rounding epilogue) in each\n"
               "accumulation mode and OpenBLAS sgemm on the same matrices decoded to fp32;\n"
               "print GMAC/s (M*N*K / best time over R repeats) and the ratio to sgemm.\n"
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

int pg_cmd_bench_ref(int argc, char **argv)
{
    pg_cli_problem po;
    pg_cli_problem_begin(&po);
    po.shape = "4096,768,768,196";
    const char *modes_s = NULL;
    int repeat = 3, k, r;
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
    int rc = 0;
    for (int m = 0; m < PG_ACC_COUNT && rc == 0; m++) {
        if (!use[m])
            continue;
        double best = -1.0;
        for (int r = 0; r < repeat; r++) {
            double t = pg_now_seconds();
            if (pg_gemm_ref(&p, (pg_accum_mode)m, PG_EPI_DOUBLE, NULL, M, D, NULL, NULL) != 0) {
                rc = pg_cli_report("bench-ref", 1);
                break;
            }
            t = pg_now_seconds() - t;
            if (best < 0 || t < best)
                best = t;
        }
        if (rc != 0)
            break;
        double g = macs / best * 1e-9;
        if (t_sgemm > 0)
            printf("  %-14s %9.4f s  %8.2f GMAC/s  %6.3fx sgemm\n", pg_accum_name((pg_accum_mode)m), best, g,
                   g / g_sgemm);
        else
            printf("  %-14s %9.4f s  %8.2f GMAC/s\n", pg_accum_name((pg_accum_mode)m), best, g);
        fflush(stdout);
    }
    free(D);
    pg_problem_free(&p);
    return rc;

bad_value:
    return pg_cli_report("bench-ref", 2);
}
