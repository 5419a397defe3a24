/* One GPU, one problem: device checks, device buffers, TMA descriptors,
 * launches, timing, the poison check, downloads and the trace.  Every
 * function returns 0 or -1 with a pg_fail() message (CUDA's text included). */
#ifndef PG_GPU_SESSION_H
#define PG_GPU_SESSION_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#include "gemm_kernel.h"
#include "pgtrace_host.h"
#include "problem.h"
#include "runfile.h"

/* A value the kernel never writes: a negative NaN (the kernel's NaN is
 * PG_BF16_QNAN, 0x7FFF). */
#define PG_D_POISON ((uint16_t)0xFFFF)

/* What the runner and the run file need to know about a variant. */
typedef struct {
    const char *cli;    /* --variant NAME */
    const char *kernel; /* the run file's kernel name */
    int tile_m, tile_n, tile_k, stages, cluster;
    int a_prefetch; /* default --a-prefetch (tiles ahead; 0: pingpong none, bres* its own tile) */
} pg_variant_info;

#define PG_VARIANT_AUTO ((pg_variant)-1) /* the default where it can run the shape, else pingpong */

const pg_variant_info *pg_variant_get(pg_variant v);
/* a variant's cli name (k_variants in gpu_session.c) or "default"; -1 with a message otherwise. */
int pg_variant_parse(const char *s, pg_variant *v);
/* The variant PG_VARIANT_AUTO resolves to for shape s. */
pg_variant pg_variant_for_shape(const pg_shape *s);

typedef struct {
    int device;
    char name[128];
    int sm_count;
    size_t l2_bytes;
    size_t smem_optin; /* shared memory a block may opt into */
    pg_shape shape;
    uint8_t *dA, *dB;
    uint16_t *d_combined;     /* [P, N] as given (for the baselines) */
    uint16_t *d_combined_rep; /* [comb_rows, N]: combined repeated for one-box tile loads */
    int64_t comb_rows;
    uint16_t *dD;             /* [M, N] */
    unsigned long long *d_count;
    pg_kernel_params params;
    pg_variant variant; /* PG_VARIANT_AUTO after pg_gpu_open; resolved by pg_gpu_load */
    int a_prefetch;     /* -1 (after pg_gpu_open): the variant's default */
    int grid;
    cudaStream_t stream;
    cudaEvent_t ev0, ev1;
    pgtrace_buffer trace_buf; /* the tracing kit's fixed-slot buffer, allocated on the first trace launch */
    int64_t tiles_m, tiles_n, num_tiles, num_pairs;
    double trace_clock_hz; /* SM clock during the last collected trace run (0 = unknown) */
    int64_t trace_dropped;  /* events the last collected trace dropped (0: the buffer held them all) */
} pg_gpu;

/* Pick device 0 and check it is an sm_90 GPU. */
int pg_gpu_open(pg_gpu *g);
/* Check the shape against the default kernel's constraints (no GPU needed). */
int pg_gpu_shape_supported(const pg_shape *s);
/* ... against variant v's (PG_VARIANT_AUTO: the variant it resolves to). */
int pg_gpu_shape_supported_v(const pg_shape *s, pg_variant v);
/* Allocate device buffers, upload the problem, build the descriptors for
 * g->variant (set it between pg_gpu_open and here; AUTO is resolved). */
int pg_gpu_load(pg_gpu *g, const pg_problem *p);
/* Point a loaded g at variant v (AUTO: resolved): descriptors, grid, tiles;
 * the buffers stay.  Not after a trace launch (its buffers fit one variant). */
int pg_gpu_configure(pg_gpu *g, pg_variant v);
/* One launch of the fused kernel (asynchronous; errors of the launch itself). */
int pg_gpu_launch(pg_gpu *g, int trace, int64_t epi_delay, int64_t mainloop_delay);
/* Poison D, run once, synchronize, and count elements still poisoned. */
int pg_gpu_checked_run(pg_gpu *g, int trace, int64_t epi_delay, int64_t mainloop_delay, int64_t *unwritten);
/* warmup + reps launches; ms[reps] gets each launch's CUDA-event time. */
int pg_gpu_time(pg_gpu *g, int trace, int64_t epi_delay, int64_t mainloop_delay, int warmup, int reps, double *ms);
/* The SM clock in Hz: clock64 against %globaltimer over a long spin. */
int pg_gpu_measure_clock(pg_gpu *g, double *hz);
/* Copy rows (NULL = all M) of D to host D[nrows, N]. */
int pg_gpu_download_rows(pg_gpu *g, const int64_t *rows, int64_t nrows, uint16_t *D);
/* The trace build (gpu_trace.c).  Allocate the buffer for the configured
 * variant and point the kernel parameters at it (once). */
int pg_gpu_trace_prepare(pg_gpu *g);
/* Mark every slot empty (on g's stream, before a traced launch). */
int pg_gpu_trace_reset(pg_gpu *g);
/* The trace of the last trace launch, as pg_trace rows (allocated here):
 * every tile once per phase, or an error naming what is missing; also sets
 * trace_clock_hz and trace_dropped. */
int pg_gpu_collect_trace(pg_gpu *g, pg_trace *t);
void pg_gpu_trace_destroy(pg_gpu *g);
void pg_gpu_close(pg_gpu *g);

/* cudaError_t -> -1 with "what: cuda message". */
int pg_cuda_fail(const char *what, cudaError_t e);

#endif
