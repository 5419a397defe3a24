/* What `pegemm dual run` and `pegemm dual bench` share in the CUDA build:
 * the device check (before any input is generated), the inputs, the GPU
 * problem, the head of the JSON, burst timing with CUDA events and its
 * statistics. */
#ifndef PG_KERNEL_CLI_DUAL_COMMON_H
#define PG_KERNEL_CLI_DUAL_COMMON_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#include "cli_dual_opts.h"
#include "dual.h"
#include "dual_inputs.h"
#include "dual_gpu.h"
#include "pg_json.h"

typedef struct {
    int device;
    char name[256];
    int sm_count;
} pg_dual_device;

/* An sm_90 GPU, made current; -1 with a message ("no CUDA GPU ...", or which
 * GPU it is) otherwise: an input error, exit 2.  Also checks that this
 * file's design names are kernel/dual_gpu.h's. */
int pg_dual_cli_device(pg_dual_device *d);

/* The problem of o (--problem, --out, --seed) from the reference's
 * generator (reference/dual_inputs.h), block scales, in in->p; release with
 * pg_dual_cli_inputs_free (safe after a failure).  -1 with a message. */
int pg_dual_cli_inputs(const dual_opts *o, pg_dual_inputs *in);
void pg_dual_cli_inputs_free(pg_dual_inputs *in);

/* The head of a run's or a bench's JSON: opens the top object and writes
 * "command", "device", "sm_count" and the "problem" object (G, M, N, K,
 * out, seed); the caller adds its own keys and closes the object. */
void pg_dual_cli_json_begin(pg_json *j, const char *command, const pg_dual_device *dev, const dual_opts *o);

/* The accumulation the kernel is bit-exact to: the sm90 preset. */
const pg_accum_params *pg_dual_cli_accum(void);

/* One launch of something timed (asynchronous on its stream); 0 or -1 with
 * pg_fail.  The same type as energy.h's pg_launch_fn. */
typedef int (*pg_dual_launch_fn)(void *ctx);

/* A kernel design as a launch: pg_dual_gpu_launch(g, design, probe, stream). */
typedef struct {
    pg_dual_gpu *g;
    pg_dual_design design;
    pg_dual_probe probe;
    cudaStream_t stream;
} pg_dual_kernel_launch;
int pg_dual_kernel_launch_fn(void *ctx);

/* n launches on stream, each between its own pair of CUDA events; their
 * times (ms) into ms[0..n).  Waits for the stream. */
int pg_dual_time_burst(pg_dual_launch_fn fn, void *ctx, cudaStream_t stream, int n, double *ms);

/* The q-quantile (0..1, linear between order statistics) of v[0..n). */
double pg_dual_quantile(const double *v, int64_t n, double q);

#endif
