/* `pegemm dual bench`: the dual-GEMM kernel's designs and what a user runs
 * instead (kernel/dual_baselines.h: two cuBLASLt block-scaled FP8 GEMMs and
 * a silu*mul kernel, per group in a loop and, for G > 1, batched), on the
 * same device inputs in one process.  Bursts of launches, each between its
 * own CUDA events, round-robin over several rounds with the order rotated
 * every round, so clock and temperature drift hit every entry alike; with
 * --energy, each entry's sustained time and board energy per launch over
 * ~1 s (kernel/energy.c, as `pegemm bench --energy`), the first entry
 * measured again at the end to show the drift. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_dual_common.h"
#include "dual_baselines.h"
#include "energy.h"
#include "pg_alloc.h"
#include "pg_cli.h"
#include "pg_error.h"
#include "pg_json.h"
#include "pg_progress.h"

int pg_dual_cli_bench(const dual_opts *o); /* called by cli_dual.c */

#define MAX_ENTRIES (PG_DUAL_CLI_DESIGNS + 2)

typedef struct {
    char name[32], label[64];
    pg_dual_launch_fn fn;
    void *ctx;
    int ran;            /* 0: a baseline cuBLASLt refused (why) */
    char why[200];
    double *ms;         /* [reps] burst samples */
    pg_energy_sample energy;
} entry;

typedef struct {
    const dual_opts *o;
    const pg_dual_device *dev;
    entry e[MAX_ENTRIES];
    int n;
    int base;           /* the entry the ratios are to: the per-group cuBLASLt loop */
    double flops;
    int agree_checked;
    int64_t agree_differ;
    pg_energy_sample energy_again; /* the first entry, measured last */
} bench;

static double median_ms(const bench *b, int i) { return pg_dual_quantile(b->e[i].ms, b->o->reps, 0.5); }

/* Every entry: warmup, then the round-robin bursts. */
static int time_all(bench *b, cudaStream_t stream)
{
    const dual_opts *o = b->o;
    for (int i = 0; i < b->n; i++) {
        double w[1];
        for (int k = 0; k < o->warmup && b->e[i].ran; k++)
            if (pg_dual_time_burst(b->e[i].fn, b->e[i].ctx, stream, 1, w) != 0)
                return -1;
    }
    int done = 0;
    for (int r = 0; r < o->rounds; r++) {
        const int burst = o->reps / o->rounds + (r < o->reps % o->rounds);
        for (int j = 0; j < b->n; j++) {
            entry *e = &b->e[(r + j) % b->n]; /* rotated: each entry leads a round in turn */
            if (e->ran && pg_dual_time_burst(e->fn, e->ctx, stream, burst, e->ms + done) != 0)
                return -1;
        }
        done += burst;
    }
    return 0;
}

static int measure_energy(bench *b, int device, cudaStream_t stream)
{
    int rc = -1;
    pg_energy *en = NULL;
    const double warm_ms = 300, min_ms = 1000;
    if (pg_energy_open(device, &en) != 0)
        goto done;
    for (int i = 0; i < b->n; i++)
        if (b->e[i].ran && pg_energy_measure(en, stream, b->e[i].fn, b->e[i].ctx, warm_ms, min_ms, &b->e[i].energy) != 0)
            goto done;
    if (pg_energy_measure(en, stream, b->e[0].fn, b->e[0].ctx, warm_ms, min_ms, &b->energy_again) != 0)
        goto done;
    rc = 0;
done:
    pg_energy_close(en);
    return rc;
}

/* The designs compute the same bits (both are bit-exact to the reference):
 * a cheap check that the timed kernels are the right ones. */
static int designs_agree(bench *b, pg_dual_kernel_launch *k, int nk, cudaStream_t stream)
{
    int rc = -1;
    const int64_t nC = b->o->G * b->o->M * b->o->N;
    uint16_t *c0 = pg_alloc("C of the first design", nC, sizeof *c0), *c1 = pg_alloc("C of another", nC, sizeof *c1);
    if (!c0 || !c1)
        goto done;
    for (int i = 0; i < nk; i++) {
        cudaError_t e;
        if (pg_dual_kernel_launch_fn(&k[i]) != 0)
            goto done;
        if ((e = cudaStreamSynchronize(stream)) != cudaSuccess) {
            pg_fail("design %s: %s", pg_dual_design_name(k[i].design), cudaGetErrorString(e));
            goto done;
        }
        if (pg_dual_gpu_download(k[i].g, i == 0 ? c0 : c1) != 0)
            goto done;
        for (int64_t x = 0; i > 0 && x < nC; x++)
            b->agree_differ += c0[x] != c1[x];
    }
    b->agree_checked = nk > 1;
    rc = 0;
done:
    free(c0);
    free(c1);
    return rc;
}

static void print_table(const bench *b)
{
    const dual_opts *o = b->o;
    const double base = b->e[b->base].ran ? median_ms(b, b->base) : 0;
    printf("pegemm dual bench: %s, %d SMs; G=%lld M=%lld N=%lld K=%lld, %s out; %d launches each in %d "
           "round-robin rounds (after %d warm-up), CUDA events per launch\n",
           b->dev->name, b->dev->sm_count, (long long)o->G, (long long)o->M, (long long)o->N, (long long)o->K,
           pg_out_dtype_name(o->out), o->reps, o->rounds, o->warmup);
    printf("  %-34s %10s %10s %10s %8s %9s\n", "", "median ms", "p10 ms", "p90 ms", "TFLOPS", "/baseline");
    for (int i = 0; i < b->n; i++) {
        const entry *e = &b->e[i];
        if (!e->ran) {
            printf("  %-34s not run: %s\n", e->label, e->why);
            continue;
        }
        const double med = median_ms(b, i);
        printf("  %-34s %10.4f %10.4f %10.4f %8.1f", e->label, med, pg_dual_quantile(e->ms, o->reps, 0.1),
               pg_dual_quantile(e->ms, o->reps, 0.9), b->flops / (med * 1e-3) / 1e12);
        if (base > 0)
            printf(" %9.3f", med / base);
        printf("\n");
    }
    if (base > 0)
        printf("(/baseline: median time over %s's)\n", b->e[b->base].label);
    if (b->agree_checked)
        printf("designs agree: %lld of %lld outputs differ between the designs\n", (long long)b->agree_differ,
               (long long)(o->G * o->M * o->N));
    if (!o->energy)
        return;
    printf("sustained, back to back (%.0f ms each after %.0f ms warm; NVML board energy):\n", 1000.0, 300.0);
    for (int i = 0; i <= b->n; i++) {
        const entry *e = &b->e[i < b->n ? i : 0];
        const pg_energy_sample *s = i < b->n ? &e->energy : &b->energy_again;
        if (e->ran && s->launches > 0)
            printf("  %-34s %.4f ms/launch %8.2f mJ/launch %6.0f W (%lld launches)%s\n", e->label, s->ms_per_launch,
                   s->mj_per_launch, s->watts, (long long)s->launches, i < b->n ? "" : "  (again: drift)");
    }
}

static void emit_sample(pg_json *j, const bench *b, int i)
{
    const entry *e = &b->e[i];
    pg_json_object_begin(j);
    pg_json_kv_string(j, "name", e->name);
    pg_json_kv_string(j, "label", e->label);
    pg_json_kv_bool(j, "ran", e->ran);
    if (!e->ran) {
        pg_json_kv_string(j, "why", e->why);
        pg_json_object_end(j);
        return;
    }
    const double med = median_ms(b, i), base = b->e[b->base].ran ? median_ms(b, b->base) : 0;
    pg_json_kv_number(j, "median_ms", med);
    pg_json_kv_number(j, "p10_ms", pg_dual_quantile(e->ms, b->o->reps, 0.1));
    pg_json_kv_number(j, "p90_ms", pg_dual_quantile(e->ms, b->o->reps, 0.9));
    pg_json_kv_number(j, "tflops", b->flops / (med * 1e-3) / 1e12);
    pg_json_kv_number(j, "time_over_baseline", base > 0 ? med / base : NAN);
    pg_json_key(j, "ms");
    pg_json_number_array(j, e->ms, b->o->reps);
    if (b->o->energy) {
        pg_json_kv_number(j, "sustained_ms", e->energy.ms_per_launch);
        pg_json_kv_number(j, "energy_mj", e->energy.mj_per_launch);
        pg_json_kv_number(j, "watts", e->energy.watts);
        pg_json_kv_int(j, "energy_launches", e->energy.launches);
    }
    pg_json_object_end(j);
}

static void emit_json(pg_json *j, const void *ctx)
{
    const bench *b = ctx;
    const dual_opts *o = b->o;
    pg_dual_cli_json_begin(j, "dual bench", b->dev, o);
    pg_json_kv_number(j, "flops", b->flops);
    pg_json_kv_int(j, "reps", o->reps);
    pg_json_kv_int(j, "rounds", o->rounds);
    pg_json_kv_int(j, "warmup", o->warmup);
    pg_json_kv_string(j, "baseline", b->e[b->base].name);
    if (b->agree_checked)
        pg_json_kv_int(j, "designs_outputs_differing", b->agree_differ);
    pg_json_key(j, "entries");
    pg_json_array_begin(j);
    for (int i = 0; i < b->n; i++)
        emit_sample(j, b, i);
    pg_json_array_end(j);
    if (o->energy) {
        pg_json_key(j, "energy_first_again");
        pg_json_object_begin(j);
        pg_json_kv_string(j, "name", b->e[0].name);
        pg_json_kv_number(j, "sustained_ms", b->energy_again.ms_per_launch);
        pg_json_kv_number(j, "energy_mj", b->energy_again.mj_per_launch);
        pg_json_kv_number(j, "watts", b->energy_again.watts);
        pg_json_object_end(j);
    }
    pg_json_object_end(j);
}

/* The baselines' entries (loop; batched when G > 1) on the kernel's device
 * inputs, writing into their own C.  A configuration cuBLASLt refuses is
 * reported, not fatal. */
static int add_baselines(bench *b, pg_dual_baseline *base, const pg_dual_gpu *g, void *C_base, cudaStream_t stream)
{
    const dual_opts *o = b->o;
    pg_dual_gpu_buffers kb;
    pg_dual_gpu_buffers_get(g, &kb);
    const pg_dual_buffers buf = {kb.A, kb.B1, kb.B2, kb.scale_a, kb.scale_b1, kb.scale_b2, C_base};
    for (int grp = 0; grp < (o->G > 1 ? 2 : 1); grp++) {
        const pg_dual_dims d = {o->G, o->M, o->N, o->K, o->out == PG_OUT_FP16 ? PG_DUAL_OUT_FP16 : PG_DUAL_OUT_BF16,
                                PG_DUAL_SCALE_BLOCK, grp ? PG_DUAL_GROUPS_BATCHED : PG_DUAL_GROUPS_LOOP};
        entry *e = &b->e[b->n];
        snprintf(e->name, sizeof e->name, "cublaslt_%s", grp ? "batched" : "loop");
        snprintf(e->label, sizeof e->label, "cuBLASLt 2 GEMMs + silu*mul (%s)", grp ? "batched" : "per group");
        if (!grp)
            b->base = b->n;
        b->n++;
        const int pr = pg_dual_baseline_prepare(&base[grp], &d, &buf, stream);
        if (pr < 0)
            return -1;
        if (pr == 1) {
            snprintf(e->why, sizeof e->why, "%s", base[grp].why);
            pg_clear_error();
            continue;
        }
        e->ran = 1;
        e->fn = pg_dual_baseline_launch_fn;
        e->ctx = &base[grp];
    }
    return 0;
}

int pg_dual_cli_bench(const dual_opts *o)
{
    int rc = 2, nbase = 0;
    pg_dual_device dev;
    pg_dual_inputs in;
    pg_dual_gpu *g = NULL;
    cudaStream_t stream = NULL;
    void *C_base = NULL;
    pg_dual_baseline base[2];
    pg_dual_kernel_launch k[PG_DUAL_CLI_DESIGNS];
    bench b;
    cudaError_t e;
    memset(&in, 0, sizeof in);
    memset(&b, 0, sizeof b);
    memset(base, 0, sizeof base);
    b.o = o;
    b.dev = &dev;
    b.flops = 4.0 * (double)o->G * (double)o->M * (double)o->N * (double)o->K;
    if (pg_dual_cli_device(&dev) != 0 || pg_dual_cli_inputs(o, &in) != 0 ||
        pg_dual_gpu_supports(&in.p, pg_dual_cli_accum()) != 0 || pg_dual_gpu_create(&g, &in.p) != 0)
        goto fail;
    rc = 1;
    if ((e = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)) != cudaSuccess) {
        pg_fail("cudaStreamCreate: %s", cudaGetErrorString(e));
        goto fail;
    }
    if ((e = cudaMalloc(&C_base, (size_t)(o->G * o->M * o->N) * 2)) != cudaSuccess) {
        C_base = NULL;
        pg_fail("cudaMalloc of the baseline's C: %s", cudaGetErrorString(e));
        goto fail;
    }
    for (int i = 0; i < o->ndesigns; i++) {
        k[i] = (pg_dual_kernel_launch){g, (pg_dual_design)o->designs[i], {0, 0}, stream};
        entry *en = &b.e[b.n++];
        snprintf(en->name, sizeof en->name, "dual_%s", pg_dual_cli_design_name(o->designs[i]));
        snprintf(en->label, sizeof en->label, "fused dual GEMM, design %s", pg_dual_cli_design_name(o->designs[i]));
        en->fn = pg_dual_kernel_launch_fn;
        en->ctx = &k[i];
        en->ran = 1;
    }
    nbase = o->G > 1 ? 2 : 1;
    if (add_baselines(&b, base, g, C_base, stream) != 0)
        goto fail;
    for (int i = 0; i < b.n; i++)
        if (!(b.e[i].ms = pg_alloc("timing samples", o->reps, sizeof(double))))
            goto fail;
    if (designs_agree(&b, k, o->ndesigns, stream) != 0 || time_all(&b, stream) != 0)
        goto fail;
    if (o->energy && measure_energy(&b, dev.device, stream) != 0)
        goto fail;
    print_table(&b);
    if (o->json && pg_cli_json_save(o->json, emit_json, &b) != 0)
        goto fail;
    if (o->json && strcmp(o->json, "-") != 0)
        pg_note("wrote %s", o->json);
    rc = b.agree_differ ? 1 : 0;
    goto done;
fail:
    fprintf(stderr, "pegemm dual bench: %s\n", pg_last_error());
done:
    for (int i = 0; i < nbase; i++)
        pg_dual_baseline_free(&base[i]);
    for (int i = 0; i < b.n; i++)
        free(b.e[i].ms);
    if (C_base)
        cudaFree(C_base);
    if (stream)
        cudaStreamDestroy(stream);
    if (g)
        pg_dual_gpu_free(g);
    pg_dual_cli_inputs_free(&in);
    return rc;
}
