/* pgtrace host side: the device buffer (CUDA runtime API). */
#include "pgtrace_host.h"

#include <stdlib.h>
#include <string.h>

#define CK(call, what)                                                                                             \
    do {                                                                                                           \
        const cudaError_t e_ = (call);                                                                             \
        if (e_ != cudaSuccess) {                                                                                   \
            rc = pgtrace_fail("pgtrace: %s: %s (%s)", what, cudaGetErrorString(e_), cudaGetErrorName(e_));        \
            goto done;                                                                                             \
        }                                                                                                          \
    } while (0)

int pgtrace_buffer_create(pgtrace_buffer *b, int64_t capacity, int32_t n_ctas)
{
    int rc = -1;
    memset(b, 0, sizeof *b);
    if (capacity < 1 || n_ctas < 1)
        return pgtrace_fail("pgtrace: capacity %lld and CTAs %d must both be >= 1", (long long)capacity, n_ctas);
    if ((uint64_t)capacity > SIZE_MAX / sizeof(pgtrace_event))
        return pgtrace_fail("pgtrace: capacity %lld events is too large", (long long)capacity);
    CK(cudaGetDevice(&b->device), "finding the current device");
    CK(cudaMalloc((void **)&b->dev.events, (size_t)capacity * sizeof(pgtrace_event)), "allocating the event buffer");
    CK(cudaMalloc((void **)&b->dev.count, sizeof(unsigned long long)), "allocating the event counter");
    CK(cudaMalloc((void **)&b->dev.anchors, (size_t)n_ctas * sizeof(pgtrace_anchor)), "allocating the anchors");
    b->dev.capacity = b->capacity = capacity;
    b->dev.n_anchors = b->n_ctas = n_ctas;
    if (pgtrace_buffer_reset(b, 0) != 0)
        goto done;
    CK(cudaDeviceSynchronize(), "clearing the trace buffer");
    rc = 0;
done:
    if (rc)
        pgtrace_buffer_destroy(b);
    return rc;
}

int pgtrace_buffer_create_fixed(pgtrace_buffer *b, int64_t capacity, int32_t n_ctas)
{
    if (pgtrace_buffer_create(b, capacity, n_ctas) != 0)
        return -1;
    b->fixed_slots = 1;
    if (pgtrace_buffer_reset(b, 0) != 0 || cudaDeviceSynchronize() != cudaSuccess) {
        pgtrace_buffer_destroy(b);
        return pgtrace_fail("pgtrace: clearing the fixed-slot buffer failed");
    }
    return 0;
}

int pgtrace_buffer_create_compact(pgtrace_buffer *b, int64_t slots_per_cta, int32_t n_ctas)
{
    int rc = -1;
    memset(b, 0, sizeof *b);
    if (slots_per_cta < 1 || n_ctas < 1)
        return pgtrace_fail("pgtrace: slots per CTA %lld and CTAs %d must both be >= 1", (long long)slots_per_cta, n_ctas);
    if ((uint64_t)slots_per_cta > SIZE_MAX / sizeof(pgtrace_span) / (uint64_t)n_ctas)
        return pgtrace_fail("pgtrace: %lld slots for each of %d CTAs is too large", (long long)slots_per_cta, n_ctas);
    const int64_t capacity = slots_per_cta * n_ctas;
    CK(cudaGetDevice(&b->device), "finding the current device");
    CK(cudaMalloc((void **)&b->dev.spans, (size_t)capacity * sizeof(pgtrace_span)), "allocating the trace slots");
    CK(cudaMalloc((void **)&b->dev.count, sizeof(unsigned long long)), "allocating the drop counter");
    CK(cudaMalloc((void **)&b->dev.anchors, (size_t)n_ctas * sizeof(pgtrace_anchor)), "allocating the anchors");
    b->dev.capacity = b->capacity = capacity;
    b->dev.n_anchors = b->n_ctas = n_ctas;
    b->slots_per_cta = slots_per_cta;
    if (pgtrace_buffer_reset(b, 0) != 0)
        goto done;
    CK(cudaDeviceSynchronize(), "clearing the trace slots");
    rc = 0;
done:
    if (rc)
        pgtrace_buffer_destroy(b);
    return rc;
}

int pgtrace_buffer_reset(const pgtrace_buffer *b, cudaStream_t stream)
{
    int rc = -1;
    CK(cudaMemsetAsync(b->dev.count, 0, sizeof(unsigned long long), stream), "zeroing the event counter");
    /* all bytes 0xFF: every anchor field -1 (a CTA that never wrote shows as absent) */
    CK(cudaMemsetAsync(b->dev.anchors, 0xFF, (size_t)b->n_ctas * sizeof(pgtrace_anchor), stream),
       "clearing the anchors");
    if (b->fixed_slots) /* all bytes 0xFF: every slot's role is PGTRACE_SLOT_EMPTY */
        CK(cudaMemsetAsync(b->dev.events, 0xFF, (size_t)b->capacity * sizeof(pgtrace_event), stream),
           "marking the trace slots empty");
    if (b->slots_per_cta > 0) /* all bytes 0xFF: begin == end == -1, an empty slot */
        CK(cudaMemsetAsync(b->dev.spans, 0xFF, (size_t)b->capacity * sizeof(pgtrace_span), stream),
           "marking the trace slots empty");
    rc = 0;
done:
    return rc;
}

static int device_facts(int device, pgtrace_trace *t)
{
    int rc = -1, sms = 0, khz = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "reading the SM count");
    CK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device), "reading the clock rate");
    t->sm_count = sms;
    t->clock_hz_nominal = khz * 1e3;
    rc = 0;
done:
    return rc;
}

int pgtrace_buffer_collect(const pgtrace_buffer *b, pgtrace_trace *t)
{
    int rc = -1;
    memset(t, 0, sizeof *t);
    if (b->slots_per_cta > 0)
        return pgtrace_fail("pgtrace: a compact buffer is collected with pgtrace_buffer_collect_compact");
    CK(cudaDeviceSynchronize(), "waiting for the traced kernel");
    CK(cudaMemcpy(&t->count, b->dev.count, sizeof t->count, cudaMemcpyDeviceToHost), "reading the event counter");
    t->capacity = b->capacity;
    /* fixed slots: every slot comes down, the empty ones are compacted away below */
    t->n_events = b->fixed_slots ? b->capacity : pgtrace_recorded(t->count, b->capacity);
    t->dropped = b->fixed_slots ? (int64_t)t->count : pgtrace_dropped(t->count, b->capacity);
    t->n_anchors = b->n_ctas;
    t->events = malloc((size_t)(t->n_events ? t->n_events : 1) * sizeof *t->events);
    t->anchors = malloc((size_t)b->n_ctas * sizeof *t->anchors);
    if (!t->events || !t->anchors) {
        rc = pgtrace_fail("pgtrace: out of host memory for %lld events", (long long)t->n_events);
        goto done;
    }
    CK(cudaMemcpy(t->events, b->dev.events, (size_t)t->n_events * sizeof *t->events, cudaMemcpyDeviceToHost),
       "downloading the events");
    CK(cudaMemcpy(t->anchors, b->dev.anchors, (size_t)b->n_ctas * sizeof *t->anchors, cudaMemcpyDeviceToHost),
       "downloading the anchors");
    if (b->fixed_slots) {
        t->n_events = pgtrace_compact_fixed(t->events, t->n_events);
        t->count = (unsigned long long)t->n_events + (unsigned long long)t->dropped;
    }
    if (device_facts(b->device, t) != 0)
        goto done;
    t->clock_hz = pgtrace_clock_from_anchors(t->anchors, t->n_anchors);
    rc = 0;
done:
    if (rc)
        pgtrace_trace_free(t);
    return rc;
}

int pgtrace_buffer_collect_compact(const pgtrace_buffer *b, const pgtrace_slot_layout *layout, pgtrace_trace *t)
{
    int rc = -1;
    pgtrace_span *spans = NULL;
    memset(t, 0, sizeof *t);
    if (b->slots_per_cta < 1)
        return pgtrace_fail("pgtrace: pgtrace_buffer_collect_compact needs a buffer from pgtrace_buffer_create_compact");
    if (!layout || layout->slots_per_cta != b->slots_per_cta)
        return pgtrace_fail("pgtrace: the slot layout has %lld slots per CTA, the buffer %lld",
                            layout ? (long long)layout->slots_per_cta : 0LL, (long long)b->slots_per_cta);
    unsigned long long dropped = 0;
    CK(cudaDeviceSynchronize(), "waiting for the traced kernel");
    CK(cudaMemcpy(&dropped, b->dev.count, sizeof dropped, cudaMemcpyDeviceToHost), "reading the drop counter");
    spans = malloc((size_t)b->capacity * sizeof *spans);
    t->anchors = malloc((size_t)b->n_ctas * sizeof *t->anchors);
    if (!spans || !t->anchors) {
        rc = pgtrace_fail("pgtrace: out of host memory for %lld slots", (long long)b->capacity);
        goto done;
    }
    CK(cudaMemcpy(spans, b->dev.spans, (size_t)b->capacity * sizeof *spans, cudaMemcpyDeviceToHost),
       "downloading the trace slots");
    CK(cudaMemcpy(t->anchors, b->dev.anchors, (size_t)b->n_ctas * sizeof *t->anchors, cudaMemcpyDeviceToHost),
       "downloading the anchors");
    t->n_anchors = b->n_ctas;
    t->dropped = (int64_t)dropped;
    if (pgtrace_expand_slots(t, spans, layout) != 0)
        goto done;
    if (device_facts(b->device, t) != 0)
        goto done;
    t->clock_hz = pgtrace_clock_from_anchors(t->anchors, t->n_anchors);
    rc = 0;
done:
    free(spans);
    if (rc)
        pgtrace_trace_free(t);
    return rc;
}

void pgtrace_buffer_destroy(pgtrace_buffer *b)
{
    cudaFree(b->dev.spans);
    /* errors ignored: freeing on a path that is already failing */
    cudaFree(b->dev.events);
    cudaFree(b->dev.count);
    cudaFree(b->dev.anchors);
    memset(b, 0, sizeof *b);
}
