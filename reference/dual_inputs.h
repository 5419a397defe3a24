/* Deterministic inputs for the SwiGLU dual GEMM (dual.h), quantized as a
 * user's FP8 pipeline does it (DeepGEMM): an fp32 tensor of normal values,
 * each row with its own magnitude (2^u, u uniform in [-2, 2]: tokens and
 * output channels differ), cut into blocks -- 1 x 128 of A, 128 x 128 of B1
 * and B2 -- each scaled by amax / 448 and rounded to E4M3 (RNE, satfinite).
 * A value depends only on (seed, tensor, index): the same bytes on every
 * machine and thread count.  Used by the GPU kernel's tests and `pegemm
 * dual`, so both check the same problems. */
#ifndef PG_DUAL_INPUTS_H
#define PG_DUAL_INPUTS_H

#include <stdint.h>

#include "dual.h"

typedef struct {
    pg_dual_problem p; /* views of the arrays below */
    uint8_t *A, *B1, *B2;
    float *scale_a, *scale_b1, *scale_b2;
} pg_dual_inputs;

/* G groups of M x N x K, E4M3 x E4M3, block scales, output `out`.  0, or -1
 * with a message (a dimension < 1, more memory than pg_mem_limit allows,
 * out of memory); on failure nothing stays allocated. */
int pg_dual_generate(pg_dual_inputs *in, int64_t G, int64_t M, int64_t N, int64_t K, pg_out_dtype out,
                     uint64_t seed);
void pg_dual_inputs_free(pg_dual_inputs *in);

#endif
