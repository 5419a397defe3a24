/* The fused SwiGLU dual-GEMM kernel behind a C ABI for foreign callers
 * (Python's ctypes: scripts/dual_torch_bench.py), built as
 * build/kernel/libpegemm_dual.so.  It runs on the caller's device buffers
 * (pg_dual_gpu_wrap, kernel/dual_gpu.h: layouts, alignment); nothing is
 * allocated or copied.  Plain C types only, so ctypes needs no structs. */
#ifndef PG_DUAL_CAPI_H
#define PG_DUAL_CAPI_H

#include <stdint.h>

/* A handle for C = silu(A B1^T) * (A B2^T) on these buffers, out_dtype
 * "bf16" or "fp16"; NULL on failure (pegemm_dual_last_error says why). */
void *pegemm_dual_create(int64_t G, int64_t M, int64_t N, int64_t K, const char *out_dtype, const void *A,
                         const void *B1, const void *B2, const void *scale_a, const void *scale_b1,
                         const void *scale_b2, void *C);
/* One launch of design 0 (inter) or 1 (seq) on stream (a cudaStream_t as an
 * integer; 0: the default stream), asynchronous; 0, or -1 with a message. */
int pegemm_dual_launch(void *handle, int design, uintptr_t stream);
/* Persistent CTAs a launch runs (for reports); -1 for a NULL handle. */
int pegemm_dual_grid(const void *handle);
/* Frees the handle, never the caller's buffers; NULL is a no-op. */
void pegemm_dual_destroy(void *handle);
/* The calling thread's last failure message ("" if none). */
const char *pegemm_dual_last_error(void);

#endif
