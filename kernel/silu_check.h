/* The exhaustive GPU check of silu_fp32.h's device silu (kernel/silu_check.cu,
 * driven by kernel/tests/test_silu_gpu.c): pg_silu_f32 on the device for a
 * range of fp32 bit patterns, with the device-side comparisons counted. */
#ifndef PG_SILU_CHECK_H
#define PG_SILU_CHECK_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the device compared, per launch (added to by each launch). */
typedef struct {
    unsigned long long old_differ; /* pg_silu_f32 != the two-division formula (silu_fp32_old.h) */
    unsigned long long div_differ; /* pg_silu_div(num, d) != __fdiv_rn(num, d), every (num, d) reached */
    unsigned long long first_old;  /* smallest x bits of a difference, or UINT64_MAX */
    unsigned long long first_div;
} pg_silu_check_counts;

/* out[i] = pg_silu_f32(x) for the bit patterns x = first + i, i < count,
 * on the device (out and counts device pointers), and the two comparisons
 * added to *counts.  Asynchronous on stream 0; returns the launch's error. */
cudaError_t pg_silu_check_launch(uint32_t first, uint32_t count, float *out, pg_silu_check_counts *counts);

#ifdef __cplusplus
}
#endif

#endif
