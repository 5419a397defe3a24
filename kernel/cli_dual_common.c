/* The CUDA build's shared part of `pegemm dual run|bench` (cli_dual_common.h). */
#include "cli_dual_common.h"

#include <stdlib.h>
#include <string.h>

#include "pg_alloc.h"
#include "pg_error.h"

int pg_dual_cli_device(pg_dual_device *d)
{
    memset(d, 0, sizeof *d);
    for (int i = 0; i < PG_DUAL_CLI_DESIGNS; i++)
        if (strcmp(pg_dual_design_name((pg_dual_design)i), pg_dual_cli_design_name(i)) != 0)
            return pg_fail("internal: design %d is '%s' in dual_gpu.c but '%s' in cli_dual_opts.c", i,
                           pg_dual_design_name((pg_dual_design)i), pg_dual_cli_design_name(i));
    int n = 0;
    struct cudaDeviceProp prop;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0)
        return pg_fail("no CUDA GPU available (%s)", e != cudaSuccess ? cudaGetErrorString(e) : "device count is 0");
    if ((e = cudaGetDeviceProperties(&prop, 0)) != cudaSuccess)
        return pg_fail("cudaGetDeviceProperties: %s", cudaGetErrorString(e));
    if (prop.major != 9 || prop.minor != 0)
        return pg_fail("the dual-GEMM kernel needs an sm_90 (Hopper) GPU; GPU 0 is %s with compute capability %d.%d",
                       prop.name, prop.major, prop.minor);
    if ((e = cudaSetDevice(0)) != cudaSuccess)
        return pg_fail("cudaSetDevice(0): %s", cudaGetErrorString(e));
    d->device = 0;
    snprintf(d->name, sizeof d->name, "%s", prop.name);
    d->sm_count = prop.multiProcessorCount;
    return 0;
}

void pg_dual_cli_json_begin(pg_json *j, const char *command, const pg_dual_device *dev, const dual_opts *o)
{
    pg_json_object_begin(j);
    pg_json_kv_string(j, "command", command);
    pg_json_kv_string(j, "device", dev->name);
    pg_json_kv_int(j, "sm_count", dev->sm_count);
    pg_json_key(j, "problem");
    pg_json_object_begin(j);
    pg_json_kv_int(j, "G", o->G);
    pg_json_kv_int(j, "M", o->M);
    pg_json_kv_int(j, "N", o->N);
    pg_json_kv_int(j, "K", o->K);
    pg_json_kv_string(j, "out", pg_out_dtype_name(o->out));
    pg_json_kv_int(j, "seed", (int64_t)o->seed);
    pg_json_object_end(j);
}

const pg_accum_params *pg_dual_cli_accum(void) { return pg_accum_preset(PG_ACC_SM90); }

int pg_dual_kernel_launch_fn(void *ctx)
{
    pg_dual_kernel_launch *k = ctx;
    return pg_dual_gpu_launch(k->g, k->design, &k->probe, k->stream);
}

int pg_dual_time_burst(pg_dual_launch_fn fn, void *ctx, cudaStream_t stream, int n, double *ms)
{
    int rc = -1, made = 0;
    cudaError_t e = cudaSuccess;
    cudaEvent_t *ev = pg_alloc("CUDA events", 2 * (int64_t)n, sizeof *ev);
    if (!ev)
        return -1;
    for (; made < 2 * n; made++)
        if ((e = cudaEventCreate(&ev[made])) != cudaSuccess) {
            pg_fail("cudaEventCreate: %s", cudaGetErrorString(e));
            goto done;
        }
    for (int i = 0; i < n; i++) {
        if ((e = cudaEventRecord(ev[2 * i], stream)) != cudaSuccess) {
            pg_fail("cudaEventRecord: %s", cudaGetErrorString(e));
            goto done;
        }
        if (fn(ctx) != 0)
            goto done;
        if ((e = cudaEventRecord(ev[2 * i + 1], stream)) != cudaSuccess) {
            pg_fail("cudaEventRecord: %s", cudaGetErrorString(e));
            goto done;
        }
    }
    if ((e = cudaStreamSynchronize(stream)) != cudaSuccess) {
        pg_fail("cudaStreamSynchronize after the timed launches: %s", cudaGetErrorString(e));
        goto done;
    }
    for (int i = 0; i < n; i++) {
        float t = 0;
        if ((e = cudaEventElapsedTime(&t, ev[2 * i], ev[2 * i + 1])) != cudaSuccess) {
            pg_fail("cudaEventElapsedTime: %s", cudaGetErrorString(e));
            goto done;
        }
        ms[i] = t;
    }
    rc = 0;
done:
    for (int i = 0; i < made; i++)
        cudaEventDestroy(ev[i]);
    free(ev);
    return rc;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double pg_dual_quantile(const double *v, int64_t n, double q)
{
    if (n <= 0)
        return 0.0;
    double *t = malloc((size_t)n * sizeof *t);
    if (!t)
        return 0.0 / 0.0; /* NaN: shown as such, never as a time */
    memcpy(t, v, (size_t)n * sizeof *t);
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    const double pos = q * (double)(n - 1);
    const int64_t lo = (int64_t)pos;
    const double frac = pos - (double)lo, x = lo + 1 < n ? t[lo] + frac * (t[lo + 1] - t[lo]) : t[lo];
    free(t);
    return x;
}
