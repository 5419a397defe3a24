/* The C side of the h5py round trip (h5py_roundtrip.sh):
 *   example_helper make-output FILE   write a run (row subset, trace) for the
 *                                     h5py example to read
 *   example_helper summarize FILE     read FILE with pg_run_read and print the
 *                                     summary the example prints, so the two
 *                                     can be compared line for line. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pg_error.h"
#include "runfile.h"

static int make_output(const char *path)
{
    enum { M = 500, N = 64, NROWS = 12, NTRACE = 40, NSM = 3 };
    int rc = 1;
    pg_run run;
    memset(&run, 0, sizeof run);
    run.problem.shape = (pg_shape){M, N, 128, 196};
    snprintf(run.problem.family, sizeof run.problem.family, "normal");
    run.problem.seed = 2024;
    run.mode = PG_ACC_SM90;
    run.epilogue = PG_EPI_DOUBLE;
    run.nrows = NROWS;
    run.rows = malloc(NROWS * sizeof *run.rows);
    run.D = malloc((size_t)NROWS * N * sizeof *run.D);
    if (!run.rows || !run.D) {
        fprintf(stderr, "out of memory\n");
        goto done;
    }
    for (int i = 0; i < NROWS; i++)
        run.rows[i] = (int64_t)i * 41 + 3;
    for (int i = 0; i < NROWS * N; i++)
        run.D[i] = (uint16_t)(0x3F80 + (i * 7919) % 4096); /* BF16 bits around 1.0 */
    if (pg_trace_alloc(&run.trace, NTRACE, NSM) < 0)
        goto fail;
    pg_vocab_pegemm(&run.trace.vocab);
    for (int i = 0; i < NTRACE; i++) {
        run.trace.sm[i] = i % NSM;
        run.trace.role[i] = (uint8_t)(i % 2 ? PG_ROLE_CONSUMER : PG_ROLE_PRODUCER);
        run.trace.warp[i] = (i / 2) % 2;
        run.trace.tile[i] = i / 4;
        run.trace.phase[i] = (uint8_t)(i % 2 ? PG_PH_MAINLOOP + (i / 2) % 3 : PG_PH_PRODUCER_WAIT + (i / 2) % 2);
        run.trace.begin[i] = 1000000 + (int64_t)i * 2500;
        run.trace.end[i] = run.trace.begin[i] + 1000 + (i * 37) % 900;
    }
    for (int s = 0; s < NSM; s++) {
        run.trace.anchor_clock[s] = 999000 + s;
        run.trace.anchor_globaltimer_ns[s] = 1700000000000000000 + s * 10;
    }
    /* kernel info, and timing sets added out of name order */
    run.kernel.present = 1;
    snprintf(run.kernel.name, sizeof run.kernel.name, "h100-pingpong");
    snprintf(run.kernel.device, sizeof run.kernel.device, "NVIDIA H100 80GB HBM3");
    run.kernel.sm_count = 132;
    run.kernel.sm_clock_hz = 1755123456.5;
    run.kernel.tile_m = 128, run.kernel.tile_n = 256, run.kernel.tile_k = 128;
    run.kernel.stages = 4, run.kernel.consumers = 2;
    static const char *const names[3] = {"fused", "cublaslt_gemm", "copy"};
    for (int k = 0; k < 3; k++) {
        double ms[21];
        for (int i = 0; i < 21; i++)
            ms[i] = 0.9 + 0.1 * k + i / 3.0e3;
        if (pg_run_add_timing(&run, names[k], ms, 21 - k, k == 2 ? 0.0 : 1.0952e12, 2.14e9 + k) < 0)
            goto fail;
    }
    if (pg_run_write(path, &run, 0) < 0)
        goto fail;
    rc = 0;
    goto done;
fail:
    fprintf(stderr, "example_helper: %s\n", pg_last_error());
done:
    pg_run_free(&run);
    return rc;
}

static uint64_t sum_u8(const uint8_t *a, int64_t n)
{
    uint64_t s = 0;
    for (int64_t i = 0; i < n; i++)
        s += a[i];
    return s;
}

static uint64_t sum_u16(const uint16_t *a, int64_t n)
{
    uint64_t s = 0;
    for (int64_t i = 0; i < n; i++)
        s += a[i];
    return s;
}

/* Same lines, same order, as print_summary() in h5py_example.py. */
static int summarize(const char *path)
{
    pg_run run;
    if (pg_run_read(path, &run, PG_READ_ALL) < 0) {
        fprintf(stderr, "example_helper: %s\n", pg_last_error());
        return 1;
    }
    const pg_problem *p = &run.problem;
    const pg_shape *s = &p->shape;
    printf("problem M=%" PRId64 " N=%" PRId64 " K=%" PRId64 " P=%" PRId64 " family=%s seed=%" PRIu64 "\n", s->M,
           s->N, s->K, s->P, p->family, p->seed);
    if (run.problem_stored)
        printf("inputs A=%" PRIu64 " B=%" PRIu64 " combined=%" PRIu64 "\n", sum_u8(p->A, s->M * s->K),
               sum_u8(p->B, s->N * s->K), sum_u16(p->combined, s->P * s->N));
    if (run.nrows > 0) {
        int64_t first = run.rows ? run.rows[0] : 0, last = run.rows ? run.rows[run.nrows - 1] : s->M - 1;
        printf("output mode=%s epilogue=%s rows=%" PRId64 " first=%" PRId64 " last=%" PRId64 " D=%" PRIu64 "\n",
               pg_accum_name(run.mode), pg_epilogue_name(run.epilogue), run.nrows, first, last,
               sum_u16(run.D, run.nrows * s->N));
    }
    const pg_kernel_info *k = &run.kernel;
    if (k->present)
        printf("kernel %s on %s: %d SMs at %.17g Hz, tile %dx%dx%d\n", k->name, k->device, k->sm_count,
               k->sm_clock_hz, k->tile_m, k->tile_n, k->tile_k);
    for (int i = 0; i < run.ntimings; i++) {
        const pg_timing *tm = &run.timings[i];
        printf("timing %s n=%" PRId64 " first=%.17g last=%.17g flops=%.17g bytes=%.17g\n", tm->name, tm->n,
               tm->ms[0], tm->ms[tm->n - 1], tm->flops, tm->bytes);
    }
    const pg_trace *t = &run.trace;
    if (t->n > 0) {
        int64_t cycles = 0, count[PG_VOCAB_MAX_PHASES] = {0};
        for (int64_t i = 0; i < t->n; i++) {
            cycles += t->end[i] - t->begin[i];
            count[t->phase[i]]++;
        }
        printf("trace intervals=%" PRId64 " sms=%" PRId64 " cycles=%" PRId64 "\n", t->n, t->n_sm, cycles);
        printf("phases");
        for (int i = 0; i < t->vocab.n_phases; i++)
            if (count[i])
                printf(" %s=%" PRId64, t->vocab.phase[i], count[i]);
        printf("\nroles");
        for (int i = 0; i < t->vocab.n_roles; i++)
            printf(" %s", t->vocab.role[i]);
        printf("; waits");
        for (int i = 0; i < t->vocab.n_phases; i++)
            if (t->vocab.phase_is_wait[i])
                printf(" %s", t->vocab.phase[i]);
        printf("\n");
    }
    pg_run_free(&run);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "make-output") == 0)
        return make_output(argv[2]);
    if (argc == 3 && strcmp(argv[1], "summarize") == 0)
        return summarize(argv[2]);
    fprintf(stderr, "usage: %s make-output FILE | summarize FILE\n", argv[0]);
    return 2;
}
