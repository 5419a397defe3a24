/* pgtrace: the record layout and the buffer's slot logic, shared by the
 * device header (pgtrace.cuh), the host C API (pgtrace_host.h) and the host
 * tests.  Plain C17 and CUDA C++: in nvcc the functions are __host__
 * __device__, so the tests exercise the very code the kernel runs.
 *
 * One record is one interval of one phase, exactly a row of a run file's
 * trace (docs/format.md): sm, role, warp, tile, phase, begin, end.  Role
 * and phase are indices into a vocabulary the user declares on the host
 * (pgtrace_vocab); the kit knows no phase names of its own. */
#ifndef PGTRACE_COMMON_H
#define PGTRACE_COMMON_H

#include <stdint.h>

#if defined(__CUDACC__)
#define PGTRACE_HD __host__ __device__
#else
#define PGTRACE_HD
#endif

#define PGTRACE_FORMAT_VERSION 1
/* Codes are uint8 in a run file. */
#define PGTRACE_MAX_NAMES 255

/* 32 bytes, 16-byte aligned: two vector stores on the device. */
#if defined(__cplusplus)
#define PGTRACE_ALIGN16 alignas(16)
#else
#define PGTRACE_ALIGN16 _Alignas(16)
#endif
typedef struct {
    PGTRACE_ALIGN16 int64_t begin; /* clock64 of the SM at the phase's start */
    int64_t end;   /* ... and at its end */
    int32_t sm;    /* %smid */
    int32_t warp;  /* warp (or warpgroup) index within the role */
    int32_t tile;  /* the user's tile index */
    uint8_t role;  /* index into the vocabulary's role names */
    uint8_t phase; /* index into the vocabulary's phase names */
    uint8_t reserved[2];
} pgtrace_event;

/* Per CTA: clock64 and %globaltimer read together when the CTA starts and
 * when it ends.  The host fills every field with -1 before a launch, so a
 * CTA that never wrote its anchor shows as sm_begin == -1. */
typedef struct {
    int64_t clock_begin;
    int64_t globaltimer_begin_ns;
    int64_t clock_end;
    int64_t globaltimer_end_ns;
    int32_t sm_begin; /* %smid at the start ... */
    int32_t sm_end;   /* ... and at the end (a CTA does not migrate: equal) */
} pgtrace_anchor;

/* What the kernel receives, by value: plain pointers into device memory. */
typedef struct {
    pgtrace_event *events;       /* [capacity] */
    unsigned long long *count;   /* events claimed (recorded or dropped) */
    int64_t capacity;
    pgtrace_anchor *anchors;     /* [n_anchors], indexed by linear CTA id */
    int32_t n_anchors;
    int32_t reserved;
    struct pgtrace_span_s *spans; /* compact fixed-slot mode: [capacity] intervals (else NULL) */
} pgtrace_dev;

/* Compact fixed-slot mode (pgtrace_buffer_create_compact, pgtrace_put_span):
 * a slot holds only its interval, 16 bytes, one vector store on the device.
 * Which CTA wrote it follows from its index (slot / slots_per_cta), the SM
 * from that CTA's anchor, and role, warp, tile and phase from the slot
 * layout the user gives the host (pgtrace_slots.h).  The host fills every
 * slot with 0xFF bytes before a launch: begin == end == -1 is an empty slot
 * (no clock64 reads -1). */
typedef struct pgtrace_span_s {
    PGTRACE_ALIGN16 int64_t begin;
    int64_t end;
} pgtrace_span;

static PGTRACE_HD inline int pgtrace_span_written(const pgtrace_span *s)
{
    return !(s->begin == -1 && s->end == -1);
}

#if defined(__cplusplus)
static_assert(sizeof(pgtrace_event) == 32, "pgtrace_event is 32 bytes");
static_assert(sizeof(pgtrace_anchor) == 40, "pgtrace_anchor is 40 bytes");
static_assert(sizeof(pgtrace_span) == 16, "pgtrace_span is 16 bytes");
#else
_Static_assert(sizeof(pgtrace_event) == 32, "pgtrace_event is 32 bytes");
_Static_assert(sizeof(pgtrace_anchor) == 40, "pgtrace_anchor is 40 bytes");
_Static_assert(sizeof(pgtrace_span) == 16, "pgtrace_span is 16 bytes");
#endif

/* A writer claimed slots [base, base + n) with one atomic add of n to the
 * counter: how many of them lie inside the buffer (the first ones).  The
 * counter keeps counting past the capacity, so nothing is ever written out
 * of bounds and the host knows exactly how many events were dropped. */
static PGTRACE_HD inline uint32_t pgtrace_slots_fit(unsigned long long base, uint32_t n, int64_t capacity)
{
    if (capacity <= 0 || base >= (unsigned long long)capacity)
        return 0;
    const unsigned long long room = (unsigned long long)capacity - base;
    return room < n ? (uint32_t)room : n;
}

/* Fixed-slot mode (pgtrace_buffer_create_fixed, pgtrace_put_at_n): the
 * kernel computes each event's slot itself (for a fixed layout such as
 * (CTA, local tile, phase)), so no counter is claimed on the hot path.  The
 * host fills every slot with 0xFF bytes before a launch: a slot whose role
 * is PGTRACE_SLOT_EMPTY was not written (no vocabulary has 256 roles).  The
 * counter then counts only the events dropped: a put whose slots do not all
 * lie inside the buffer stores none of them and counts them all. */
#define PGTRACE_SLOT_EMPTY 0xFF

/* Events the buffer holds after `count` were claimed. */
static PGTRACE_HD inline int64_t pgtrace_recorded(unsigned long long count, int64_t capacity)
{
    if (capacity <= 0)
        return 0;
    return count < (unsigned long long)capacity ? (int64_t)count : capacity;
}

/* Events claimed but not stored. */
static PGTRACE_HD inline int64_t pgtrace_dropped(unsigned long long count, int64_t capacity)
{
    return (int64_t)(count - (unsigned long long)pgtrace_recorded(count, capacity));
}

static PGTRACE_HD inline pgtrace_event pgtrace_event_make(int32_t sm, uint32_t role, int32_t warp, int32_t tile,
                                                         uint32_t phase, int64_t begin, int64_t end)
{
    pgtrace_event e;
    e.begin = begin;
    e.end = end;
    e.sm = sm;
    e.warp = warp;
    e.tile = tile;
    e.role = (uint8_t)role;
    e.phase = (uint8_t)phase;
    e.reserved[0] = e.reserved[1] = 0;
    return e;
}

#endif
