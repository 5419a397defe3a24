/* pgtrace: phase tracing for any CUDA C/C++ kernel (device side).
 *
 *   #include "pgtrace.cuh"                 // -DPGTRACE_ENABLED=0: every call compiles to nothing
 *   __global__ void k(..., pgtrace_dev tr) // the handle, by value (pgtrace_host.h makes it)
 *   {
 *       pgtrace_cta_begin(tr);             // anchor: %smid, clock64 and %globaltimer together
 *       ...
 *       int64_t t0 = pgtrace_clock();
 *       wait_for_data();
 *       int64_t t1 = pgtrace_clock();
 *       compute();
 *       int64_t t2 = pgtrace_clock();
 *       if (lane == 0) {
 *           pgtrace_event ev[2] = {pgtrace_ev(ROLE_C, warp, tile, PH_WAIT, t0, t1),
 *                                  pgtrace_ev(ROLE_C, warp, tile, PH_MATH, t1, t2)};
 *           pgtrace_put_n(tr, ev, 2);      // one atomic for both
 *       }
 *       ...
 *       pgtrace_cta_end(tr);               // second anchor (clock rate, alignment)
 *   }
 *
 * Role and phase are the caller's indices into the vocabulary it declares
 * on the host (pgtrace_vocab in pgtrace_host.h): the kit has none of its own.
 * The buffer holds `capacity` fixed-size records; one 64-bit counter counts
 * every event claimed, so an overflowing run writes nothing out of bounds
 * and the host reports dropped = count - capacity.
 *
 * Cost per pgtrace_put_n: one %smid read, one global atomicAdd (returning:
 * the issuing lane waits for it) and two 16-byte stores per event.  Batch a
 * tile's phases into one call, after the work they time, so the atomic's
 * latency falls between traced intervals rather than inside one. */
#ifndef PGTRACE_CUH
#define PGTRACE_CUH

#include "pgtrace_common.h"

#ifndef PGTRACE_ENABLED
#define PGTRACE_ENABLED 1
#endif

/* The linear index of this CTA in its grid (the anchor slot). */
static __device__ __forceinline__ int64_t pgtrace_cta_index(void)
{
    return (int64_t)blockIdx.x + (int64_t)gridDim.x * ((int64_t)blockIdx.y + (int64_t)gridDim.y * blockIdx.z);
}

#if PGTRACE_ENABLED

static __device__ __forceinline__ int64_t pgtrace_clock(void) { return clock64(); }

static __device__ __forceinline__ int64_t pgtrace_globaltimer(void)
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return (int64_t)t;
}

static __device__ __forceinline__ int32_t pgtrace_smid(void)
{
    uint32_t s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return (int32_t)s;
}

/* An event of this SM (the %smid is read here). */
static __device__ __forceinline__ pgtrace_event pgtrace_ev(uint32_t role, int32_t warp, int32_t tile, uint32_t phase,
                                                           int64_t begin, int64_t end)
{
    return pgtrace_event_make(pgtrace_smid(), role, warp, tile, phase, begin, end);
}

/* Store n events with one claim on the counter.  Call from one thread. */
static __device__ __forceinline__ void pgtrace_put_n(const pgtrace_dev &t, const pgtrace_event *ev, uint32_t n)
{
    const unsigned long long base = atomicAdd(t.count, (unsigned long long)n);
    const uint32_t fit = pgtrace_slots_fit(base, n, t.capacity);
    /* Loop to n, not fit: with n a constant at the call site the loop
     * unrolls and `ev` stays in registers (no local-memory copy). */
#pragma unroll
    for (uint32_t j = 0; j < n; j++) {
        if (j >= fit)
            break;
        /* 32-byte record as two 16-byte stores */
        const int4 *src = reinterpret_cast<const int4 *>(&ev[j]);
        int4 *dst = reinterpret_cast<int4 *>(t.events + base + j);
        dst[0] = src[0];
        dst[1] = src[1];
    }
}

/* Fixed-slot mode: store n events at slots [slot, slot + n) that the
 * caller computed (each slot written by one event of one launch).  No
 * atomic unless the slots do not all lie inside the buffer: then none of
 * the n is stored and all n are counted as dropped.  Call from one thread. */
static __device__ __forceinline__ void pgtrace_store_event(pgtrace_event *dst, const pgtrace_event &ev)
{
    /* 32-byte record as two 16-byte stores */
    const int4 *src = reinterpret_cast<const int4 *>(&ev);
    reinterpret_cast<int4 *>(dst)[0] = src[0];
    reinterpret_cast<int4 *>(dst)[1] = src[1];
}

static __device__ __forceinline__ void pgtrace_put_at_n(const pgtrace_dev &t, int64_t slot, const pgtrace_event *ev,
                                                        uint32_t n)
{
    if (slot < 0 || slot + (int64_t)n > t.capacity) { /* off the normal path: count, write nothing */
        atomicAdd(t.count, (unsigned long long)n);
        return;
    }
#pragma unroll
    for (uint32_t j = 0; j < n; j++)
        pgtrace_store_event(t.events + slot + j, ev[j]);
}

/* Compact fixed-slot mode: slot `slot` holds [begin, end] (one 16-byte
 * store); the host's slot layout says whose interval it is.  A slot outside
 * the buffer is counted as dropped, not written.  Call from one thread. */
static __device__ __forceinline__ void pgtrace_store_span(pgtrace_span *dst, int64_t begin, int64_t end)
{
    *reinterpret_cast<longlong2 *>(dst) = make_longlong2(begin, end);
}

static __device__ __forceinline__ void pgtrace_put_span(const pgtrace_dev &t, int64_t slot, int64_t begin, int64_t end)
{
    if (slot < 0 || slot >= t.capacity) {
        atomicAdd(t.count, 1ull);
        return;
    }
    pgtrace_store_span(t.spans + slot, begin, end);
}

/* n back-to-back phases from their n + 1 boundaries: slot + k holds
 * [bounds[k], bounds[k + 1]].  All n stored, or (some slot outside the
 * buffer) none stored and n counted as dropped. */
static __device__ __forceinline__ void pgtrace_put_spans(const pgtrace_dev &t, int64_t slot, const int64_t *bounds,
                                                         uint32_t n)
{
    if (slot < 0 || slot + (int64_t)n > t.capacity) {
        atomicAdd(t.count, (unsigned long long)n);
        return;
    }
#pragma unroll
    for (uint32_t k = 0; k < n; k++)
        pgtrace_store_span(t.spans + slot + k, bounds[k], bounds[k + 1]);
}

/* One phase interval [begin, end]. */
static __device__ __forceinline__ void pgtrace_put(const pgtrace_dev &t, uint32_t role, int32_t warp, int32_t tile,
                                                   uint32_t phase, int64_t begin, int64_t end)
{
    const pgtrace_event ev = pgtrace_ev(role, warp, tile, phase, begin, end);
    pgtrace_put_n(t, &ev, 1);
}

/* Begin/end of a named phase: `pgtrace_mark m = pgtrace_begin(); ...;
 * pgtrace_end(tr, m, role, warp, tile, phase);` */
typedef struct {
    int64_t begin;
} pgtrace_mark;

static __device__ __forceinline__ pgtrace_mark pgtrace_begin(void)
{
    pgtrace_mark m;
    m.begin = clock64();
    return m;
}

static __device__ __forceinline__ void pgtrace_end(const pgtrace_dev &t, pgtrace_mark m, uint32_t role, int32_t warp,
                                                   int32_t tile, uint32_t phase)
{
    pgtrace_put(t, role, warp, tile, phase, m.begin, clock64());
}

/* The anchors: call from one thread of the CTA, at its start and its end.
 * clock64 and %globaltimer are read back to back, so each pair maps this
 * SM's cycles to the GPU-wide nanosecond timer. */
static __device__ __forceinline__ void pgtrace_cta_begin(const pgtrace_dev &t)
{
    const int64_t c = pgtrace_cta_index();
    if (c >= t.n_anchors)
        return;
    pgtrace_anchor *a = t.anchors + c;
    a->sm_begin = pgtrace_smid();
    a->clock_begin = clock64();
    a->globaltimer_begin_ns = pgtrace_globaltimer();
}

static __device__ __forceinline__ void pgtrace_cta_end(const pgtrace_dev &t)
{
    const int64_t c = pgtrace_cta_index();
    if (c >= t.n_anchors)
        return;
    pgtrace_anchor *a = t.anchors + c;
    a->clock_end = clock64();
    a->globaltimer_end_ns = pgtrace_globaltimer();
    a->sm_end = pgtrace_smid();
}

#else /* PGTRACE_ENABLED == 0: the same calls, empty; no clock or special register is read */

static __device__ __forceinline__ int64_t pgtrace_clock(void) { return 0; }
static __device__ __forceinline__ int64_t pgtrace_globaltimer(void) { return 0; }
static __device__ __forceinline__ int32_t pgtrace_smid(void) { return 0; }
static __device__ __forceinline__ pgtrace_event pgtrace_ev(uint32_t role, int32_t warp, int32_t tile, uint32_t phase,
                                                           int64_t begin, int64_t end)
{
    return pgtrace_event_make(0, role, warp, tile, phase, begin, end);
}
static __device__ __forceinline__ void pgtrace_put_n(const pgtrace_dev &, const pgtrace_event *, uint32_t) {}
static __device__ __forceinline__ void pgtrace_put_at_n(const pgtrace_dev &, int64_t, const pgtrace_event *, uint32_t) {}
static __device__ __forceinline__ void pgtrace_put_span(const pgtrace_dev &, int64_t, int64_t, int64_t) {}
static __device__ __forceinline__ void pgtrace_put_spans(const pgtrace_dev &, int64_t, const int64_t *, uint32_t) {}
static __device__ __forceinline__ void pgtrace_put(const pgtrace_dev &, uint32_t, int32_t, int32_t, uint32_t, int64_t,
                                                   int64_t)
{
}
typedef struct {
    int64_t begin;
} pgtrace_mark;
static __device__ __forceinline__ pgtrace_mark pgtrace_begin(void)
{
    pgtrace_mark m;
    m.begin = 0;
    return m;
}
static __device__ __forceinline__ void pgtrace_end(const pgtrace_dev &, pgtrace_mark, uint32_t, int32_t, int32_t,
                                                   uint32_t)
{
}
static __device__ __forceinline__ void pgtrace_cta_begin(const pgtrace_dev &) {}
static __device__ __forceinline__ void pgtrace_cta_end(const pgtrace_dev &) {}

#endif
#endif
