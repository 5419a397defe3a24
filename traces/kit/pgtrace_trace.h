/* pgtrace, host side without CUDA: a collected trace, the user's
 * vocabulary, and handing both to a writer.  C17; no CUDA header, so the
 * writers and their tests build on machines without a GPU toolkit.
 *
 * Errors: a failing function returns -1 and leaves a message for
 * pgtrace_last_error() (thread-local).  The kit is self-contained (copy
 * traces/kit/ into another project), so it keeps its own error channel. */
#ifndef PGTRACE_TRACE_H
#define PGTRACE_TRACE_H

#include <stdint.h>

#include "pgtrace_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kernel's own names: role r of an event is role_names[r], phase p is
 * phase_names[p]; phase_is_wait[p] != 0 marks time a role spends blocked
 * (waits) rather than working.  Names are identifiers ([A-Za-z0-9_.-]+),
 * unique within their list, at most PGTRACE_MAX_NAMES of each. */
typedef struct {
    int n_roles;
    const char *const *role_names;
    int n_phases;
    const char *const *phase_names;
    const unsigned char *phase_is_wait; /* [n_phases] */
} pgtrace_vocab;

/* What pgtrace_buffer_collect (pgtrace_host.h) downloads after a kernel. */
typedef struct {
    int64_t n_events;         /* recorded: min(count, capacity) */
    pgtrace_event *events;
    unsigned long long count; /* events the kernel claimed */
    int64_t capacity;
    int64_t dropped;          /* count - n_events */
    int32_t n_anchors;        /* one per CTA */
    pgtrace_anchor *anchors;
    int32_t sm_count;         /* SMs of the device (anchors are per SM in a run file) */
    double clock_hz;          /* measured: clock64 against %globaltimer over the CTAs; 0 if no CTA ended */
    double clock_hz_nominal;  /* the device's reported clock (cudaDevAttrClockRate) */
} pgtrace_trace;

void pgtrace_trace_free(pgtrace_trace *t);

/* The SM clock from the anchors: over every CTA with both anchors, the
 * mean of (clock_end - clock_begin) / (globaltimer_end - globaltimer_begin).
 * 0 when no CTA has a usable pair. */
double pgtrace_clock_from_anchors(const pgtrace_anchor *anchors, int32_t n_anchors);

/* Per-SM anchors, as a run file stores them (indexed by %smid): for each SM
 * the earliest-starting CTA's pair; -1 for an SM that ran no CTA.  Fails if
 * a CTA names an SM outside [0, n_sm) or changed SM. */
int pgtrace_sm_anchors(const pgtrace_anchor *anchors, int32_t n_anchors, int32_t n_sm, int64_t *clock,
                       int64_t *globaltimer_ns);

int pgtrace_vocab_check(const pgtrace_vocab *v);

/* Fixed-slot mode: move the written slots of events[0..n) (role !=
 * PGTRACE_SLOT_EMPTY) to the front, in slot order; returns how many. */
int64_t pgtrace_compact_fixed(pgtrace_event *events, int64_t n);

/* Everything a writer needs, validated: every event's role and phase are in
 * the vocabulary, its SM has an anchor, begin <= end. */
typedef struct {
    const pgtrace_vocab *vocab;
    const char *kernel;        /* the kernel's name (an identifier-like string, may be "") */
    int64_t n_events;
    const pgtrace_event *events;
    int32_t n_sm;
    const int64_t *anchor_clock;          /* [n_sm], -1 where no CTA ran */
    const int64_t *anchor_globaltimer_ns; /* [n_sm] */
    double clock_hz;
    double clock_hz_nominal;
    unsigned long long count;
    int64_t dropped;
} pgtrace_view;

/* A writer: 0 on success, -1 with pgtrace_fail() on error. */
typedef int (*pgtrace_write_fn)(void *ctx, const pgtrace_view *view);

/* Validate `t` against `v`, build the view (per-SM anchors) and call
 * `write(ctx, &view)`.  Nothing is written when validation fails. */
int pgtrace_emit(const pgtrace_trace *t, const pgtrace_vocab *v, const char *kernel, pgtrace_write_fn write,
                 void *ctx);

/* The error channel. */
int pgtrace_fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
const char *pgtrace_last_error(void);

#ifdef __cplusplus
}
#endif

#endif
