/* The fused SwiGLU dual GEMM on the H100 (issue 14): C = silu(A B1^T) *
 * (A B2^T), FP8 E4M3, DeepGEMM block scales, bf16/fp16 out, G groups; the
 * same numbers as the CPU reference, reference/dual.h, under the `sm90`
 * accumulation preset, bit for bit.  Two designs of one kernel template
 * (kernel/dual.cuh), as docs/experiments.md D1 and the schedules
 * model/schedules/h100-dual-{inter,seq}.sched describe them:
 *   inter: each k-block loads A, B1 and B2 once (4 x 48 KB stages);
 *   seq:   the pitch's sequential design, every k-block with B1, then every
 *          one again with B2 (A loaded twice; 6 x 32 KB stages).
 * Host C17 with the CUDA runtime; every call checked, a failure returns -1
 * with a pg_fail() message naming it. */
#ifndef PG_DUAL_GPU_H
#define PG_DUAL_GPU_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#include "accum_params.h"
#include "dual.h"
#include "pgtrace_host.h"

typedef enum { PG_DUAL_INTER = 0, PG_DUAL_SEQ = 1, PG_DUAL_DESIGN_COUNT } pg_dual_design;
const char *pg_dual_design_name(pg_dual_design d);          /* "inter", "seq" */
int pg_dual_design_parse(const char *s, pg_dual_design *d); /* 0, or -1 with a message listing the names */

/* 0 if the kernel runs dp under p (block scales, E4M3 x E4M3, M, N, K
 * multiples of 128, p the sm90 preset, bf16/fp16 out), else -1 with a
 * message naming what it does not support. */
int pg_dual_gpu_supports(const pg_dual_problem *dp, const pg_accum_params *p);

/* The problem resident on the GPU, for repeated launches. */
typedef struct pg_dual_gpu pg_dual_gpu;
int pg_dual_gpu_create(pg_dual_gpu **out, const pg_dual_problem *dp);
/* A handle on CALLER-OWNED device buffers (a framework's tensors), nothing
 * allocated or uploaded; pg_dual_gpu_free leaves the buffers alone.  The
 * kernel's layouts, all row-major and contiguous: A [G][M][K] e4m3 codes,
 * B1, B2 [G][N][K], scale_a [G][M][K/128] fp32, scale_b1, scale_b2
 * [G][N/128][K/128] fp32, C [G][M][N] bf16/fp16 bits (out_dtype).  -1 with
 * a message for a shape the kernel does not run, a NULL or misaligned
 * pointer (A, B1, B2, C 16 bytes: TMA; scales 4), memory not of the current
 * device, or an allocation smaller than the shape needs. */
int pg_dual_gpu_wrap(pg_dual_gpu **out, int64_t G, int64_t M, int64_t N, int64_t K, pg_out_dtype out_dtype,
                     const void *A, const void *B1, const void *B2, const float *scale_a, const float *scale_b1,
                     const float *scale_b2, void *C);
/* The model's probes: cycles spun after the mainloop / the epilogue math. */
typedef struct {
    int64_t epi_delay, mainloop_delay;
} pg_dual_probe; /* zeros: production */
int pg_dual_gpu_launch(pg_dual_gpu *g, pg_dual_design d, const pg_dual_probe *probe, cudaStream_t s);
/* The trace build, into a tracing-kit buffer made for this problem. */
int pg_dual_gpu_trace_buffer(const pg_dual_gpu *g, pgtrace_buffer *buf);
int pg_dual_gpu_launch_traced(pg_dual_gpu *g, pg_dual_design d, const pg_dual_probe *probe, const pgtrace_buffer *buf,
                              cudaStream_t s);
/* Collect a traced launch's buffer into a kit trace (events, anchors). */
int pg_dual_gpu_trace_collect(const pg_dual_gpu *g, const pgtrace_buffer *buf, pgtrace_trace *out);
/* The trace's vocabulary: roles producer, consumer; phases producer_wait,
 * producer_issue, load_wait, mainloop, epilogue_math, epilogue_store. */
const pgtrace_vocab *pg_dual_trace_vocab(void);
int pg_dual_gpu_download(const pg_dual_gpu *g, void *C); /* C[G][M][N], uint16_t bits */
int64_t pg_dual_gpu_tiles(const pg_dual_gpu *g);         /* 128 x 128 output tiles */
int pg_dual_gpu_grid(const pg_dual_gpu *g);              /* persistent CTAs launched */
/* The device copies (for baselines timed on the same inputs). */
typedef struct {
    const void *A, *B1, *B2;
    const float *scale_a, *scale_b1, *scale_b2;
    void *C;
} pg_dual_gpu_buffers;
void pg_dual_gpu_buffers_get(const pg_dual_gpu *g, pg_dual_gpu_buffers *b);
void pg_dual_gpu_free(pg_dual_gpu *g);

/* The reference's signature (reference/dual.h pg_dual_gemm_ref), one per
 * design: create, launch, download, free. */
int pg_dual_gemm_gpu_inter(const pg_dual_problem *dp, const pg_accum_params *p, void *C);
int pg_dual_gemm_gpu_seq(const pg_dual_problem *dp, const pg_accum_params *p, void *C);

#endif
