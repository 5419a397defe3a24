/* `pegemm run` and `pegemm bench`: the GPU kernel on generated or stored
 * inputs, the poison check, timing, optional cuBLASLt baselines, an optional
 * bit-exact check against the CPU reference, and the run file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baselines.h"
#include "tma_floor_host.h"
#include "energy.h"
#include "commands.h"
#include "gemm.h"
#include "gpu_session.h"
#include "inputs.h"
#include "pg_error.h"
#include "pg_outfile.h"
#include "runfile.h"
#include "runner.h"

#include "cli_run_opts.h"

/* The kernel's shape rules, for --help. */
static void constraints(char *buf, size_t n)
{
    snprintf(buf, n,
             "Any M >= 1, any P >= 1; pingpong needs N %% %d == 0, K %% %d == 0; bres* N %% %d == 0,\n"
             "K %% %d == 0, K <= %d.  --variant default = %s where it can run the shape, else pingpong.\n",
             PG_TILE_N, PG_TILE_K, PG_BRES_TILE_N, PG_TILE_K, PG_BRES_MAX_K, pg_variant_get(PG_DEFAULT_VARIANT)->cli);
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const double *v, int64_t n)
{
    double *t = malloc((size_t)n * sizeof *t);
    if (!t || n == 0) {
        free(t);
        return 0.0;
    }
    memcpy(t, v, (size_t)n * sizeof *t);
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    const double m = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
    free(t);
    return m;
}

/* Bit-exact comparison of the kept rows with the reference; prints a summary. */
static int check_rows(const pg_problem *p, const int64_t *rows, int64_t nrows, const uint16_t *D, int64_t *bad)
{
    int rc = -1;
    const int64_t N = p->shape.N;
    uint16_t *ref = malloc((size_t)(nrows * N) * sizeof *ref);
    if (!ref)
        return pg_fail("out of host memory for the reference outputs (%lld rows)", (long long)nrows);
    if (pg_gemm_ref(p, PG_KERNEL_MODE, PG_KERNEL_EPILOGUE, rows, nrows, ref, NULL, "reference") != 0)
        goto done;
    int64_t n_bad = 0;
    int32_t max_ulp = 0;
    for (int64_t i = 0; i < nrows * N; i++) {
        if (D[i] == ref[i])
            continue;
        const int32_t u = pg_bf16_ulp_distance(D[i], ref[i]);
        if (u > max_ulp)
            max_ulp = u;
        if (n_bad < 5)
            fprintf(stderr, "  mismatch at row %lld col %lld: gpu 0x%04x ref 0x%04x (%d ulp)\n",
                    (long long)(rows ? rows[i / N] : i / N), (long long)(i % N), D[i], ref[i], u);
        n_bad++;
    }
    printf("check: %lld of %lld outputs (%lld rows) differ from the reference (%s, %s)%s", (long long)n_bad,
           (long long)(nrows * N), (long long)nrows, pg_accum_name(PG_KERNEL_MODE),
           pg_epilogue_name(PG_KERNEL_EPILOGUE), n_bad ? "" : ": bit-exact\n");
    if (n_bad)
        printf("; max distance %d ulp\n", max_ulp);
    *bad = n_bad;
    rc = 0;
done:
    free(ref);
    return rc;
}

static void print_line(const char *label, double ms, double flops, double bytes, double fused_ms)
{
    printf("  %-32s %9.4f ms %9.1f TFLOPS %8.1f GB/s  fused/this %.3f\n", label, ms,
           flops > 0 ? flops / (ms * 1e-3) / 1e12 : 0.0, bytes / (ms * 1e-3) / 1e9, fused_ms / ms);
}

/* `bench --ablate`: the parts dropped, alone and in pairs */
#define PG_N_ABLATIONS 6
static const int k_ablations[PG_N_ABLATIONS] = {
    PG_ABLATE_MMA,  PG_ABLATE_LOAD, PG_ABLATE_STORE, PG_ABLATE_LOAD | PG_ABLATE_STORE, PG_ABLATE_MMA | PG_ABLATE_STORE,
    PG_ABLATE_MMA | PG_ABLATE_LOAD,
};

static void alt_label(const pg_gpu *a, char *buf, size_t n)
{
    const int m = a->params.ablate;
    if (m == 0) {
        snprintf(buf, n, "variant %s pf%d (interleaved)", pg_variant_get(a->variant)->cli, (int)a->params.a_prefetch);
        return;
    }
    snprintf(buf, n, "%s without%s%s%s (ablation)", pg_variant_get(a->variant)->cli, m & PG_ABLATE_MMA ? " wgmma" : "",
             m & PG_ABLATE_LOAD ? " A-loads" : "", m & PG_ABLATE_STORE ? " D-stores" : "");
}

typedef struct {
    pg_gpu *g;
    int64_t epi_delay, mainloop_delay;
} fused_ctx;

static int fused_launch(void *ctx)
{
    const fused_ctx *c = ctx;
    return pg_gpu_launch(c->g, 0, c->epi_delay, c->mainloop_delay);
}

/* `bench --energy`: the fused kernel, cuBLASLt FP8 alone and the stream
 * floor, then the fused kernel again (the drift between the two fused
 * figures says how far to trust the comparison). */
static int report_energy(pg_gpu *g, int64_t epi_delay, int64_t mainloop_delay)
{
    int rc = -1;
    pg_energy *en = NULL;
    pg_energy_sample f0, f1, lt, st;
    fused_ctx c = {g, epi_delay, mainloop_delay};
    const double warm_ms = 300, min_ms = 1000;
    if (pg_energy_open(g->device, &en) != 0)
        goto done;
    if (pg_energy_measure(en, g->stream, fused_launch, &c, warm_ms, min_ms, &f0) != 0 ||
        pg_baselines_energy(g, en, warm_ms, min_ms, &lt, &st) != 0 ||
        pg_energy_measure(en, g->stream, fused_launch, &c, warm_ms, min_ms, &f1) != 0)
        goto done;
    printf("energy per launch (NVML board counter; %.0f ms of back-to-back launches each, after %.0f ms warm):\n", min_ms,
           warm_ms);
    const struct {
        const char *label;
        const pg_energy_sample *e;
    } rows[4] = {{"fused kernel (first)", &f0},
                 {"cuBLASLt FP8 GEMM alone", &lt},
                 {"stream A in, D out (no math)", &st},
                 {"fused kernel (again)", &f1}};
    for (int i = 0; i < 4; i++)
        if (rows[i].e->launches > 0)
            printf("  %-32s %8.1f mJ  %6.0f W  %.4f ms/launch  (%lld launches)\n", rows[i].label, rows[i].e->mj_per_launch,
                   rows[i].e->watts, rows[i].e->ms_per_launch, (long long)rows[i].e->launches);
    const double fz = 0.5 * (f0.mj_per_launch + f1.mj_per_launch);
    printf("fused / cuBLASLt FP8 alone: energy %.3f, time %.3f (fused: mean of the two; they differ by %.1f%%)\n",
           fz / lt.mj_per_launch, 0.5 * (f0.ms_per_launch + f1.ms_per_launch) / lt.ms_per_launch,
           100.0 * fabs(f1.mj_per_launch - f0.mj_per_launch) / fz);
    rc = 0;
done:
    pg_energy_close(en);
    return rc;
}

/* One more launch configuration timed beside g: a copy of g (its buffers,
 * never closed; no trace buffers) and room for its samples. */
static pg_gpu *alt_add(pg_gpu *alt, double **alt_ms, int *nalt, const pg_gpu *g, int reps)
{
    alt_ms[*nalt] = malloc((size_t)reps * sizeof *alt_ms[*nalt]);
    if (!alt_ms[*nalt]) {
        pg_fail("out of host memory");
        return NULL;
    }
    pg_gpu *a = &alt[(*nalt)++];
    *a = *g;
    memset(&a->trace_buf, 0, sizeof a->trace_buf);
    return a;
}

static int run_main(int argc, char **argv, int bench)
{
    run_opts o;
    pg_run run;
    pg_gpu g;
    pg_baseline *base = NULL;
    double *samples = NULL, *prod = NULL;
    /* bench: the other variants and the ablations, on g's buffers (never closed) */
    pg_gpu alt[PG_VARIANT_COUNT + PG_N_ABLATIONS];
    double *alt_ms[PG_VARIANT_COUNT + PG_N_ABLATIONS] = {0};
    int nalt = 0;
    int rc = 2, pr;
    memset(&run, 0, sizeof run);
    memset(&g, 0, sizeof g);
    pr = pg_run_parse(argc, argv, bench, &o);
    if (pr == 1) {
        char rules[512];
        constraints(rules, sizeof rules);
        pg_run_usage(stdout, argv[0], rules);
        return 0;
    }
    if (pr != 0)
        return 2;
    /* everything that needs no GPU first: the variant and whether it runs the shape */
    pg_variant variant = PG_VARIANT_AUTO;
    if ((o.variant && pg_variant_parse(o.variant, &variant) != 0) ||
        (!o.input && pg_gpu_shape_supported_v(&o.shape, variant) != 0)) {
        fprintf(stderr, "pegemm %s: %s (see pegemm %s --help)\n", argv[0], pg_last_error(), argv[0]);
        return 2;
    }
    /* the device next: no GPU should not cost an input generation.  No GPU
     * (or not an sm_90 one) is an input error, exit 2, as in a build without CUDA. */
    rc = 2;
    if (pg_gpu_open(&g) != 0)
        goto fail;
    g.variant = variant;
    g.a_prefetch = (int)o.a_prefetch;
    rc = 2;
    /* inputs */
    if (o.input) {
        /* take only the inputs from that file; everything else is this run's */
        pg_run in;
        memset(&in, 0, sizeof in);
        if (pg_run_read(o.input, &in, PG_READ_PROBLEM) != 0)
            goto fail;
        run.problem = in.problem;
        memset(&in.problem, 0, sizeof in.problem);
        pg_run_free(&in);
    } else {
        if (pg_problem_generate(&run.problem, o.shape, o.family, o.seed) != 0)
            goto fail;
    }
    /* the kernel computes the classic problem only (issue 13: refuse others) */
    if (!pg_problem_is_classic(&run.problem) || run.problem.shape.P == 0) {
        pg_fail("the GPU kernel runs only E4M3 x E4M3 with the combined term (P >= 1), no scales or bias, bf16 "
                "output; this problem is not (check another kernel's outputs with pegemm verify outputs)");
        goto fail;
    }
    const pg_shape s = run.problem.shape;
    if (pg_gpu_shape_supported_v(&s, variant) != 0)
        goto fail;
    if (pg_rows_parse(o.rows ? o.rows : (s.M <= 65536 ? "all" : "sample:4096"), s.M, run.problem.seed, &run.rows,
                      &run.nrows) != 0)
        goto fail;

    /* device, upload (out of GPU memory: the problem is too big for this
     * GPU, an input error, exit 2), checked run */
    if (pg_gpu_load(&g, &run.problem) != 0)
        goto fail;
    rc = 1;
    const pg_variant_info *vi = pg_variant_get(g.variant);
    char kname[64];
    if (g.params.a_prefetch != vi->a_prefetch)
        snprintf(kname, sizeof kname, "%s-pf%d", vi->kernel, (int)g.params.a_prefetch);
    else
        snprintf(kname, sizeof kname, "%s", vi->kernel);
    int64_t unwritten = 0;
    if (pg_gpu_checked_run(&g, o.trace, o.epi_delay, o.mainloop_delay, &unwritten) != 0)
        goto fail;
    printf("pegemm %s: %s, %d SMs; M=%lld N=%lld K=%lld P=%lld, family %s, seed %llu; kernel %s%s\n", argv[0],
           g.name, g.sm_count, (long long)s.M, (long long)s.N, (long long)s.K, (long long)s.P, run.problem.family,
           (unsigned long long)run.problem.seed, kname, o.trace ? " (trace build)" : "");
#ifdef PG_DIAG_NO_STORE
    /* the diagnostic build without D stores (docs/experiments.md M57) writes nothing by design */
    unwritten = 0;
#endif
    if (unwritten != 0) {
        pg_fail("the kernel left %lld of %lld outputs unwritten (poison 0x%04x still there)", (long long)unwritten,
                (long long)(s.M * s.N), PG_D_POISON);
        goto fail;
    }
    printf("poison check: all %lld outputs written; grid %d CTAs (clusters of %d)\n", (long long)(s.M * s.N), g.grid, vi->cluster);
    run.D = malloc((size_t)(run.nrows * s.N) * sizeof *run.D);
    if (!run.D) {
        pg_fail("out of host memory for %lld output rows", (long long)run.nrows);
        goto fail;
    }
    if (pg_gpu_download_rows(&g, run.rows, run.nrows, run.D) != 0)
        goto fail;
    if (o.trace && pg_gpu_collect_trace(&g, &run.trace) != 0)
        goto fail;

    /* timing (the trace of the checked run is already collected) */
    samples = malloc((size_t)o.reps * sizeof *samples);
    if (!samples) {
        pg_fail("out of host memory");
        goto fail;
    }
    const double flops = 2.0 * (double)s.M * (double)s.N * (double)s.K;
    const double bytes = (double)s.M * s.K + 2.0 * (double)s.M * s.N;
    double fused_ms = 0;
    if (!o.trace) {
        /* bench: every other variant that can run the shape is timed too,
         * interleaved launch by launch with this one (same buffers; its own
         * poison check first; D of the chosen variant is already downloaded). */
        if (o.ablate && g.variant != PG_VARIANT_BRES) {
            pg_fail("--ablate needs the bres variant (this run uses %s)", vi->cli);
            goto fail;
        }
        for (int v = 0; v < PG_VARIANT_COUNT && o.baselines; v++) {
            if (v == (int)g.variant)
                continue;
            if (pg_gpu_shape_supported_v(&s, (pg_variant)v) != 0) {
                pg_clear_error();
                continue;
            }
            pg_gpu *a = alt_add(alt, alt_ms, &nalt, &g, o.reps);
            if (!a)
                goto fail;
            a->a_prefetch = -1; /* the others run their defaults: --a-prefetch is this variant's */
            int64_t alt_unwritten = 0;
            if (pg_gpu_configure(a, (pg_variant)v) != 0 ||
                pg_gpu_checked_run(a, 0, o.epi_delay, o.mainloop_delay, &alt_unwritten) != 0)
                goto fail;
            if (alt_unwritten != 0) {
                pg_fail("variant %s left %lld outputs unwritten", pg_variant_get((pg_variant)v)->cli,
                        (long long)alt_unwritten);
                goto fail;
            }
        }
        for (int k = 0; k < PG_N_ABLATIONS && o.ablate; k++) {
            pg_gpu *a = alt_add(alt, alt_ms, &nalt, &g, o.reps);
            if (!a)
                goto fail;
            a->params.ablate = k_ablations[k];
        }
        if (nalt == 0) {
            if (pg_gpu_time(&g, 0, o.epi_delay, o.mainloop_delay, o.warmup, o.reps, samples) != 0)
                goto fail;
        } else {
            if (pg_gpu_time(&g, 0, o.epi_delay, o.mainloop_delay, o.warmup, 0, samples) != 0)
                goto fail;
            for (int a = 0; a < nalt; a++)
                if (pg_gpu_time(&alt[a], 0, o.epi_delay, o.mainloop_delay, o.warmup, 0, alt_ms[a]) != 0)
                    goto fail;
            /* the order alternates (even reps: this variant first; odd: last),
             * so what the previous launch leaves behind (dirty D lines in L2,
             * clocks) hits every variant alike */
            for (int i = 0; i < o.reps; i++) {
                if (i % 2 == 0 && pg_gpu_time(&g, 0, o.epi_delay, o.mainloop_delay, 0, 1, samples + i) != 0)
                    goto fail;
                for (int a = 0; a < nalt; a++)
                    if (pg_gpu_time(&alt[a], 0, o.epi_delay, o.mainloop_delay, 0, 1, alt_ms[a] + i) != 0)
                        goto fail;
                if (i % 2 == 1 && pg_gpu_time(&g, 0, o.epi_delay, o.mainloop_delay, 0, 1, samples + i) != 0)
                    goto fail;
            }
        }
        fused_ms = median(samples, o.reps);
        if (pg_run_add_timing(&run, "fused", samples, o.reps, flops, bytes) != 0)
            goto fail;
        for (int a = 0; a < nalt; a++) {
            char name[64];
            if (alt[a].params.ablate) /* bits: PG_ABLATE_* */
                snprintf(name, sizeof name, "fused_ablate%d_%s", (int)alt[a].params.ablate,
                         pg_variant_get(alt[a].variant)->cli);
            else
                snprintf(name, sizeof name, "fused_variant_%s", pg_variant_get(alt[a].variant)->cli);
            if (pg_run_add_timing(&run, name, alt_ms[a], o.reps, flops, bytes) != 0)
                goto fail;
        }
    } else {
        /* The trace build's overhead: trace and production launches
         * alternate, so clock and temperature drift hit both alike. */
        prod = malloc((size_t)o.reps * sizeof *prod);
        if (!prod) {
            pg_fail("out of host memory");
            goto fail;
        }
        if (pg_gpu_time(&g, 1, o.epi_delay, o.mainloop_delay, o.warmup, 0, samples) != 0 ||
            pg_gpu_time(&g, 0, o.epi_delay, o.mainloop_delay, o.warmup, 0, samples) != 0)
            goto fail;
        for (int i = 0; i < o.reps; i++)
            if (pg_gpu_time(&g, 1, o.epi_delay, o.mainloop_delay, 0, 1, samples + i) != 0 ||
                pg_gpu_time(&g, 0, o.epi_delay, o.mainloop_delay, 0, 1, prod + i) != 0)
                goto fail;
        fused_ms = median(samples, o.reps);
        const double prod_ms = median(prod, o.reps);
        if (pg_run_add_timing(&run, "fused_trace", samples, o.reps, flops, bytes) != 0 ||
            pg_run_add_timing(&run, "fused", prod, o.reps, flops, bytes) != 0)
            goto fail;
        printf("trace build overhead: %.4f ms traced vs %.4f ms production (interleaved, %d each) = %+.2f%%\n",
               fused_ms, prod_ms, o.reps, (fused_ms / prod_ms - 1.0) * 100.0);
    }
    double hz = 0;
    if (pg_gpu_measure_clock(&g, &hz) != 0)
        goto fail;
    printf("fused kernel: median %.4f ms of %d (%.1f TFLOPS, %.1f GB/s compulsory); SM clock %.0f MHz (idle probe)",
           fused_ms, o.reps, flops / (fused_ms * 1e-3) / 1e12, bytes / (fused_ms * 1e-3) / 1e9, hz / 1e6);
    if (o.trace && g.trace_clock_hz > 0) {
        /* the clock the trace's cycles ran at is the one the model needs */
        printf(", %.0f MHz while the traced kernel ran", g.trace_clock_hz / 1e6);
        hz = g.trace_clock_hz;
    }
    printf("\n");

    if (o.baselines) {
        base = calloc(PG_BASE_COUNT, sizeof *base);
        if (!base) {
            pg_fail("out of host memory");
            goto fail;
        }
        if (pg_baselines_run(&g, o.warmup, o.reps, base) != 0)
            goto fail;
        printf("timings (median of %d, CUDA events, same process):\n", o.reps);
        print_line(o.trace ? "fused kernel (trace build)" : "fused kernel (this project)", fused_ms, flops, bytes,
                   fused_ms);
        for (int i = 0; i < PG_BASE_COUNT; i++) {
            if (!base[i].ok) {
                printf("  %-32s not run: %s\n", base[i].label, base[i].why);
                continue;
            }
            print_line(base[i].label, median(base[i].ms, base[i].n), base[i].flops, base[i].bytes, fused_ms);
            if (pg_run_add_timing(&run, base[i].name, base[i].ms, base[i].n, base[i].flops, base[i].bytes) != 0)
                goto fail;
        }
        for (int a = 0; a < nalt; a++) {
            char label[96];
            alt_label(&alt[a], label, sizeof label);
            print_line(label, median(alt_ms[a], o.reps), flops, bytes, fused_ms);
        }
        if (base[PG_BASE_COPY].ok)
            printf("fused / copy floor = %.3f\n", fused_ms / median(base[PG_BASE_COPY].ms, base[PG_BASE_COPY].n));
        const double copy_ms = base[PG_BASE_COPY].ok ? median(base[PG_BASE_COPY].ms, base[PG_BASE_COPY].n) : 0;
        const double copy_gbs = copy_ms > 0 ? base[PG_BASE_COPY].bytes / (copy_ms * 1e-3) / 1e9 : 0;
        if (pg_tma_latency_report(&g, copy_gbs, stdout) != 0)
            goto fail;
        if (base[PG_BASE_STREAM].ok) {
            const double st = median(base[PG_BASE_STREAM].ms, base[PG_BASE_STREAM].n);
            printf("fused / stream floor (A in, D out, no math) = %.3f", fused_ms / st);
            if (base[PG_BASE_GEMM].ok)
                printf("; cuBLASLt FP8 alone / stream floor = %.3f", median(base[PG_BASE_GEMM].ms, base[PG_BASE_GEMM].n) / st);
            printf("\n");
        }
        if (base[PG_BASE_GEMM].ok) {
            const double lt = median(base[PG_BASE_GEMM].ms, base[PG_BASE_GEMM].n);
            printf("variant %s pf%d / cuBLASLt FP8 alone = %.3f (%.4f / %.4f ms)\n", vi->cli, (int)g.params.a_prefetch,
                   fused_ms / lt, fused_ms, lt);
            for (int a = 0; a < nalt; a++) {
                char label[96];
                alt_label(&alt[a], label, sizeof label);
                printf("%s / cuBLASLt FP8 alone = %.3f (%.4f / %.4f ms)\n", label, median(alt_ms[a], o.reps) / lt,
                       median(alt_ms[a], o.reps), lt);
            }
        }
    }

    if (o.energy && report_energy(&g, o.epi_delay, o.mainloop_delay) != 0)
        goto fail;

#ifdef PG_KB_TRACE
    if (getenv("PG_KBT_OUT") && pg_kbt_dump(g.variant, getenv("PG_KBT_OUT")) != 0)
        fprintf(stderr, "pegemm: warning: could not write the k-block clocks to %s\n", getenv("PG_KBT_OUT"));
#endif
    /* run-file metadata */
    run.mode = PG_KERNEL_MODE;
    run.epilogue = PG_KERNEL_EPILOGUE;
    run.kernel.present = 1;
    snprintf(run.kernel.name, sizeof run.kernel.name, "%s", kname);
    snprintf(run.kernel.device, sizeof run.kernel.device, "%s", g.name);
    run.kernel.sm_count = g.sm_count;
    run.kernel.sm_clock_hz = hz;
    run.kernel.tile_m = vi->tile_m;
    run.kernel.tile_n = vi->tile_n;
    run.kernel.tile_k = vi->tile_k;
    run.kernel.stages = vi->stages;
    run.kernel.consumers = PG_CONSUMERS;
    run.kernel.trace_build = o.trace;
    run.kernel.epi_delay = o.epi_delay;
    run.kernel.mainloop_delay = o.mainloop_delay;
    run.kernel.l2_bytes = (int64_t)g.l2_bytes;
    run.kernel.cluster = vi->cluster; /* every variant has one: 1 without a cluster */
    if (o.trace)
        printf("trace: %lld phase intervals on %d SMs, %lld events dropped (tracing kit, fixed slots)\n",
               (long long)run.trace.n, g.sm_count, (long long)g.trace_dropped);
    pg_gpu_close(&g);

    if (o.check) {
        int64_t bad = 0;
        if (check_rows(&run.problem, run.rows, run.nrows, run.D, &bad) != 0)
            goto fail;
        if (bad) {
            rc = 1;
            goto write;
        }
    }
    rc = 0;
write:
    if (o.out) {
        const int store = strcmp(run.problem.family, "file") == 0;
        if (pg_run_write(o.out, &run, store) != 0) {
            rc = 1;
            goto fail;
        }
        printf("wrote %s (%lld output rows%s)\n", o.out, (long long)run.nrows, o.trace ? ", trace" : "");
    }
    goto done;
fail:
    if (rc == 0)
        rc = 1;
    fprintf(stderr, "pegemm %s: %s\n", argv[0], pg_last_error());
done:
    pg_gpu_close(&g);
    free(base);
    free(samples);
    free(prod);
    for (int a = 0; a < PG_VARIANT_COUNT; a++)
        free(alt_ms[a]);
    pg_run_free(&run);
    return rc;
}

int pg_cmd_run(int argc, char **argv) { return run_main(argc, argv, 0); }
int pg_cmd_bench(int argc, char **argv) { return run_main(argc, argv, 1); }
int pg_have_kernel(void) { return 1; }
