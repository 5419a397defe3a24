/* pgtrace, host side with CUDA: the device buffer a kernel records into.
 *
 *   pgtrace_buffer buf;
 *   pgtrace_buffer_create(&buf, capacity_events, n_ctas);   // cudaMalloc
 *   pgtrace_buffer_reset(&buf, stream);                      // before each traced launch
 *   my_kernel<<<n_ctas, threads, smem, stream>>>(..., buf.dev);
 *   pgtrace_trace t;
 *   pgtrace_buffer_collect(&buf, &t);                        // events, anchors, dropped, clock
 *   pgtrace_emit(&t, &vocab, "my_kernel", pgtrace_write_csv, "trace.csv");
 *   pgtrace_trace_free(&t);
 *   pgtrace_buffer_destroy(&buf);
 *
 * C17 with the CUDA runtime API; every call is checked and a failure
 * returns -1 with the CUDA error in pgtrace_last_error(). */
#ifndef PGTRACE_HOST_H
#define PGTRACE_HOST_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#include "pgtrace_common.h"
#include "pgtrace_slots.h"
#include "pgtrace_trace.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    pgtrace_dev dev; /* pass to the kernel by value */
    int64_t capacity;
    int32_t n_ctas;
    int device;      /* the CUDA device the buffer lives on */
    int fixed_slots; /* 1: made by pgtrace_buffer_create_fixed (the kernel uses pgtrace_put_at_n) */
    int64_t slots_per_cta; /* > 0: made by pgtrace_buffer_create_compact (pgtrace_put_span) */
} pgtrace_buffer;

/* Room for `capacity` events and `n_ctas` anchors on the current device;
 * the buffer starts reset.  On failure nothing stays allocated. */
int pgtrace_buffer_create(pgtrace_buffer *b, int64_t capacity, int32_t n_ctas);
/* The same for fixed-slot mode: `capacity` slots the kernel addresses
 * itself with pgtrace_put_at_n (pgtrace_common.h).  Reset also marks every
 * slot empty, and collect returns the written slots in slot order, with
 * `dropped` the events whose slot fell outside the buffer. */
int pgtrace_buffer_create_fixed(pgtrace_buffer *b, int64_t capacity, int32_t n_ctas);
/* Compact fixed-slot mode: `slots_per_cta` 16-byte slots for each of
 * `n_ctas` CTAs (capacity = their product), written with pgtrace_put_span /
 * pgtrace_put_spans; no event records on the device.  Reset marks every
 * slot empty; collect with pgtrace_buffer_collect_compact and the layout
 * that names each slot (pgtrace_slots.h).  The counter counts only the
 * spans dropped (their slot outside the buffer). */
int pgtrace_buffer_create_compact(pgtrace_buffer *b, int64_t slots_per_cta, int32_t n_ctas);
/* Zero the counter and set every anchor to -1 (asynchronous on `stream`). */
int pgtrace_buffer_reset(const pgtrace_buffer *b, cudaStream_t stream);
/* Wait for the device, then download the recorded events (min(count,
 * capacity)), the anchors, the count and dropped events, the SM count, the
 * clock measured from the anchors and the device's nominal clock. */
int pgtrace_buffer_collect(const pgtrace_buffer *b, pgtrace_trace *out);
/* The same for a compact buffer: download the slots and anchors and expand
 * the written slots through `layout` (pgtrace_expand_slots), in slot order.
 * layout->slots_per_cta must be the buffer's. */
int pgtrace_buffer_collect_compact(const pgtrace_buffer *b, const pgtrace_slot_layout *layout, pgtrace_trace *out);
void pgtrace_buffer_destroy(pgtrace_buffer *b);

#ifdef __cplusplus
}
#endif

#endif
