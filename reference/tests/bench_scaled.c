/* Throughput of the scaled GEMM beside the unscaled reference GEMM (the
 * rule: each new mode at least half the unscaled mode's GMAC/s).
 * Usage: bench_ref_scaled [M]  (N = K = 768) */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "gemm.h"
#include "rng.h"
#include "scaled.h"

static double now(void)
{
    return omp_get_wtime();
}

int main(int argc, char **argv)
{
    int64_t M = argc > 1 ? atoll(argv[1]) : 2048, N = 768, K = 768;
    uint8_t *A = malloc((size_t)(M * K)), *B = malloc((size_t)(N * K));
    uint16_t *D = malloc((size_t)(M * N) * 2), *comb = calloc((size_t)N, 2);
    uint32_t *D32 = malloc((size_t)(M * N) * 4);
    float *acc = malloc((size_t)(M * N) * 4), *sa = malloc((size_t)M * 4), *sb = malloc((size_t)N * 4);
    if (!A || !B || !D || !comb || !D32 || !acc || !sa || !sb)
        return 2;
    for (int64_t i = 0; i < M * K; i++)
        A[i] = (uint8_t)(0x20 + pg_rng_u64(1, 1, (uint64_t)i) % 0x38);
    for (int64_t i = 0; i < N * K; i++)
        B[i] = (uint8_t)(0x20 + pg_rng_u64(1, 2, (uint64_t)i) % 0x38);
    for (int64_t i = 0; i < M; i++)
        sa[i] = 1.25f;
    for (int64_t i = 0; i < N; i++)
        sb[i] = 0.75f;
    double macs = (double)M * N * K;
    printf("M=%lld N=%lld K=%lld threads=%d\n", (long long)M, (long long)N, (long long)K, omp_get_max_threads());
    for (int mode = 0; mode < PG_ACC_COUNT; mode++) {
        pg_problem p = {.shape = {M, N, K, 1}, .A = A, .B = B, .combined = comb};
        double t0 = now();
        pg_gemm_ref(&p, (pg_accum_mode)mode, PG_EPI_DOUBLE, NULL, M, D, NULL, NULL);
        double t_plain = now() - t0;
        const struct { pg_fp8_format fa, fb; pg_scale_kind sk; const char *lib; } v[] = {
            {PG_FMT_E4M3, PG_FMT_E4M3, PG_SCALE_TENSOR, "torch-cublaslt"},
            {PG_FMT_E4M3, PG_FMT_E4M3, PG_SCALE_ROWCOL, "torch-cutlass-rowwise"},
            {PG_FMT_E5M2, PG_FMT_E4M3, PG_SCALE_TENSOR, "torch-cublaslt"},
        };
        for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
            pg_scaled_problem sp = {.M = M, .N = N, .K = K, .fmt_a = v[i].fa, .fmt_b = v[i].fb, .A = A, .B = B,
                                    .scale = v[i].sk, .scale_a = sa, .scale_b = sb, .out = PG_OUT_BF16};
            t0 = now();
            if (pg_scaled_gemm(&sp, pg_accum_preset((pg_accum_mode)mode), pg_lib_epilogue_find(v[i].lib), D, acc))
                return 1;
            double t = now() - t0;
            printf("%-13s unscaled %8.2f GMAC/s | %s x %s %-7s %-22s %8.2f GMAC/s (%.2fx)\n",
                   pg_accum_name((pg_accum_mode)mode), macs / t_plain * 1e-9, pg_fp8_format_name(v[i].fa),
                   pg_fp8_format_name(v[i].fb), pg_scale_kind_name(v[i].sk), v[i].lib, macs / t * 1e-9,
                   t_plain / t);
        }
    }
    return 0;
}
