/* `pegemm dual run`: the fused SwiGLU dual GEMM on generated inputs, one
 * kernel design; --check against the CPU reference on every selected
 * element, --trace the trace build's run file in the kit's vocabulary (the
 * schedules model/schedules/h100-dual-{inter,seq}.sched fit it). */
#include <stdlib.h>
#include <string.h>

#include "cli_dual_check.h"
#include "cli_dual_common.h"
#include "commands.h"
#include "pg_alloc.h"
#include "pg_cli.h"
#include "pg_error.h"
#include "pg_json.h"
#include "pg_progress.h"
#include "pgtrace_runfile.h"

int pg_dual_cli_bench(const dual_opts *o); /* cli_dual_bench.c */

/* What a run found, for the text and the JSON. */
typedef struct {
    const dual_opts *o;
    const pg_dual_device *dev;
    int grid;
    int64_t tiles;
    double ms, tflops;
    int checked;
    pg_dual_check_result check;
    int traced;
    int64_t trace_events, trace_dropped, trace_differ;
    double trace_clock_hz;
} run_result;

static double dual_flops(const dual_opts *o) { return 4.0 * (double)o->G * (double)o->M * (double)o->N * (double)o->K; }

static void emit_json(pg_json *j, const void *ctx)
{
    const run_result *r = ctx;
    const dual_opts *o = r->o;
    pg_dual_cli_json_begin(j, "dual run", r->dev, o);
    pg_json_kv_string(j, "design", pg_dual_cli_design_name(o->design));
    pg_json_kv_int(j, "epi_delay", o->epi_delay);
    pg_json_kv_int(j, "mainloop_delay", o->mainloop_delay);
    pg_json_kv_int(j, "grid", r->grid);
    pg_json_kv_int(j, "tiles", r->tiles);
    pg_json_kv_number(j, "first_launch_ms", r->ms);
    pg_json_kv_number(j, "first_launch_tflops", r->tflops);
    pg_json_key(j, "check");
    if (r->checked) {
        pg_json_object_begin(j);
        pg_json_kv_string(j, "rows_spec", o->rows ? o->rows : "all");
        pg_json_kv_int(j, "rows", r->check.rows);
        pg_json_kv_int(j, "compared", r->check.compared);
        pg_json_kv_int(j, "mismatched", r->check.mismatched);
        pg_json_kv_string(j, "accumulation", "sm90");
        pg_json_object_end(j);
    } else {
        pg_json_null(j);
    }
    pg_json_key(j, "trace");
    if (r->traced) {
        pg_json_object_begin(j);
        pg_json_kv_string(j, "file", o->trace);
        pg_json_kv_int(j, "events", r->trace_events);
        pg_json_kv_int(j, "dropped", r->trace_dropped);
        pg_json_kv_number(j, "clock_hz", r->trace_clock_hz);
        pg_json_kv_int(j, "outputs_differing_from_production", r->trace_differ);
        pg_json_object_end(j);
    } else {
        pg_json_null(j);
    }
    pg_json_object_end(j);
}

/* One production launch, timed with a pair of events (a first, cold launch:
 * `dual bench` is the timing). */
static int launch_once(pg_dual_kernel_launch *k, run_result *r)
{
    double ms = 0;
    if (pg_dual_time_burst(pg_dual_kernel_launch_fn, k, k->stream, 1, &ms) != 0)
        return -1;
    r->ms = ms;
    r->tflops = dual_flops(r->o) / (ms * 1e-3) / 1e12;
    return 0;
}

/* The trace build: a traced launch, its output against the production
 * launch's (C_prod), the trace written through the kit's run-file writer
 * with the kernel name "dual-DESIGN" and the schedule h100-dual-DESIGN. */
static int run_traced(pg_dual_kernel_launch *k, const uint16_t *C_prod, uint16_t *C_trace, int64_t nC, run_result *r)
{
    int rc = -1, have_buf = 0, have_trace = 0;
    pgtrace_buffer buf;
    pgtrace_trace t;
    cudaError_t e;
    memset(&t, 0, sizeof t);
    if (pg_dual_gpu_trace_buffer(k->g, &buf) != 0)
        goto done;
    have_buf = 1;
    if (pg_dual_gpu_launch_traced(k->g, k->design, &k->probe, &buf, k->stream) != 0)
        goto done;
    if ((e = cudaStreamSynchronize(k->stream)) != cudaSuccess) {
        pg_fail("the traced launch: %s", cudaGetErrorString(e));
        goto done;
    }
    if (pg_dual_gpu_trace_collect(k->g, &buf, &t) != 0)
        goto done;
    have_trace = 1;
    if (pg_dual_gpu_download(k->g, C_trace) != 0)
        goto done;
    for (int64_t i = 0; i < nC; i++)
        r->trace_differ += C_trace[i] != C_prod[i];
    char kernel[32], schedule[32];
    snprintf(kernel, sizeof kernel, "dual-%s", pg_dual_design_name(k->design));
    snprintf(schedule, sizeof schedule, "h100-dual-%s", pg_dual_design_name(k->design));
    pgtrace_runfile dst = {r->o->trace, schedule};
    if (pgtrace_emit(&t, pg_dual_trace_vocab(), kernel, pgtrace_write_runfile, &dst) != 0) {
        pg_fail("writing the trace: %s", pgtrace_last_error());
        goto done;
    }
    r->traced = 1;
    r->trace_events = t.n_events;
    r->trace_dropped = t.dropped;
    r->trace_clock_hz = t.clock_hz;
    rc = 0;
done:
    if (have_trace)
        pgtrace_trace_free(&t);
    if (have_buf)
        pgtrace_buffer_destroy(&buf);
    return rc;
}

static void print_run(const run_result *r)
{
    const dual_opts *o = r->o;
    printf("pegemm dual run: %s, %d SMs; G=%lld M=%lld N=%lld K=%lld, %s out, seed %llu; design %s, grid %d CTAs, "
           "%lld tiles\n",
           r->dev->name, r->dev->sm_count, (long long)o->G, (long long)o->M, (long long)o->N, (long long)o->K,
           pg_out_dtype_name(o->out), (unsigned long long)o->seed, pg_dual_cli_design_name(o->design), r->grid,
           (long long)r->tiles);
    printf("first launch: %.4f ms (%.1f TFLOPS; one cold launch, see pegemm dual bench)%s\n", r->ms, r->tflops,
           o->epi_delay || o->mainloop_delay ? " with probe delays" : "");
    if (r->traced)
        printf("trace: %lld phase intervals, %lld dropped, clock %.0f MHz; trace build output %s (%lld of %lld "
               "differ from the production launch)\n",
               (long long)r->trace_events, (long long)r->trace_dropped, r->trace_clock_hz / 1e6,
               r->trace_differ ? "DIFFERS" : "identical", (long long)r->trace_differ,
               (long long)(o->G * o->M * o->N));
}

static int dual_run(const dual_opts *o)
{
    int rc = 2;
    pg_dual_device dev;
    pg_dual_inputs in;
    pg_dual_gpu *g = NULL;
    cudaStream_t stream = NULL;
    uint16_t *C = NULL, *C_trace = NULL;
    run_result r;
    cudaError_t e;
    memset(&in, 0, sizeof in);
    memset(&r, 0, sizeof r);
    r.o = o;
    r.dev = &dev;
    /* no GPU should not cost an input generation: exit 2, as without CUDA */
    if (pg_dual_cli_device(&dev) != 0 || pg_dual_cli_inputs(o, &in) != 0 ||
        pg_dual_gpu_supports(&in.p, pg_dual_cli_accum()) != 0 || pg_dual_gpu_create(&g, &in.p) != 0)
        goto fail;
    rc = 1;
    const int64_t nC = o->G * o->M * o->N;
    C = pg_alloc("the GPU's C", nC, sizeof *C);
    C_trace = o->trace ? pg_alloc("the trace build's C", nC, sizeof *C_trace) : NULL;
    if (!C || (o->trace && !C_trace))
        goto fail;
    if ((e = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)) != cudaSuccess) {
        pg_fail("cudaStreamCreate: %s", cudaGetErrorString(e));
        goto fail;
    }
    pg_dual_kernel_launch k = {g, (pg_dual_design)o->design, {o->epi_delay, o->mainloop_delay}, stream};
    r.grid = pg_dual_gpu_grid(g);
    r.tiles = pg_dual_gpu_tiles(g);
    if (launch_once(&k, &r) != 0 || pg_dual_gpu_download(g, C) != 0)
        goto fail;
    if (o->trace && run_traced(&k, C, C_trace, nC, &r) != 0)
        goto fail;
    print_run(&r);
    if (o->trace)
        pg_note("wrote %s (trace, kernel dual-%s, schedule h100-dual-%s)", o->trace, pg_dual_cli_design_name(o->design),
                pg_dual_cli_design_name(o->design));
    pg_dual_gpu_free(g); /* before the CPU reference: nothing more on the GPU */
    g = NULL;
    if (o->check) {
        if (pg_dual_check_rows(&in.p, pg_dual_cli_accum(), o->row_list, o->nrows, C, 5, stderr, &r.check) != 0)
            goto fail;
        r.checked = 1;
        printf("check: %lld of %lld outputs (%lld rows, --rows %s) differ from the reference (sm90)%s\n",
               (long long)r.check.mismatched, (long long)r.check.compared, (long long)r.check.rows,
               o->rows ? o->rows : "all", r.check.mismatched ? "" : ": bit-exact");
    }
    if (o->json && pg_cli_json_save(o->json, emit_json, &r) != 0)
        goto fail;
    if (o->json && strcmp(o->json, "-") != 0)
        pg_note("wrote %s", o->json);
    rc = (r.checked && r.check.mismatched) || r.trace_differ ? 1 : 0;
    goto done;
fail:
    fprintf(stderr, "pegemm dual run: %s\n", pg_last_error());
done:
    if (stream)
        cudaStreamDestroy(stream);
    if (g)
        pg_dual_gpu_free(g);
    pg_dual_cli_inputs_free(&in);
    free(C);
    free(C_trace);
    return rc;
}

int pg_cmd_dual(int argc, char **argv) { return pg_dual_dispatch(argc, argv, dual_run, pg_dual_cli_bench); }
