/* The comparison points `pegemm bench` times in the same process as the
 * fused kernel: cuBLASLt FP8 GEMM (bf16 out) alone, with the BIAS epilogue,
 * batched over images with a zero-stride C = combined (beta = 1), GEMM +
 * a separate add kernel, a device-to-device copy of the compulsory
 * bytes (half read, half written), and the kernel's own traffic without the
 * math: A read once and D written once (one third read, two thirds
 * written), and D written alone; and the TMA read floors (tma_floor.h):
 * operand boxes from L2 and A's boxes from DRAM.  cuBLASLt runs FP8 in "TN" form: row-major A[M,K] and B[N,K] are
 * column-major K x M and K x N, so D^T[N, M] = op_T(B) * op_N(A). */
#ifndef PG_BASELINES_H
#define PG_BASELINES_H

#include "energy.h"
#include "gpu_session.h"

typedef struct {
    const char *name;   /* timing name in the run file */
    const char *label;  /* what the table prints */
    int ok;             /* 0: not run (cuBLASLt refused; `why` says why) */
    char why[160];
    double flops, bytes;
    int64_t n;
    double ms[256];
} pg_baseline;

enum {
    PG_BASE_GEMM = 0,
    PG_BASE_BIAS,
    PG_BASE_BATCHED_C,
    PG_BASE_GEMM_ADD,
    PG_BASE_COPY,
    PG_BASE_STREAM, /* read A, write D: the fused kernel's DRAM traffic with no math */
    PG_BASE_WRITE,  /* write D only */
    PG_BASE_TMA_L2,   /* TMA loads of 32 KB boxes from an L2-resident buffer */
    PG_BASE_TMA_DRAM, /* TMA loads of A's 64 x 128 boxes, each once */
    PG_BASE_COUNT
};

/* Time every baseline (warmup, then reps <= 256 samples each) on g's
 * inputs.  A baseline cuBLASLt cannot run is marked !ok with the reason;
 * -1 only for errors that stop everything (CUDA failures, OOM). */
int pg_baselines_run(pg_gpu *g, int warmup, int reps, pg_baseline out[PG_BASE_COUNT]);

/* Board energy per launch of cuBLASLt FP8 GEMM alone and of the stream
 * floor (pg_energy_measure with warm_ms / min_ms); stream is zeroed where
 * the shape cannot run it. */
int pg_baselines_energy(pg_gpu *g, pg_energy *en, double warm_ms, double min_ms, pg_energy_sample *gemm,
                        pg_energy_sample *stream);

#endif
