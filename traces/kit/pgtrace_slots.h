/* pgtrace, compact fixed-slot mode on the host (C17, no CUDA): the slot
 * layout the user declares, and the expansion of downloaded slots into full
 * event records.
 *
 * In compact mode the device writes only {begin, end} per slot
 * (pgtrace_put_span), because the slot's index already says everything
 * else: slot s belongs to CTA s / slots_per_cta (its SM is that CTA's
 * anchor), and the layout maps (CTA, s % slots_per_cta) to role, warp, tile
 * and phase.  The layout is the user's data, a callback over their own
 * schedule; the kit knows no kernel. */
#ifndef PGTRACE_SLOTS_H
#define PGTRACE_SLOTS_H

#include <stdint.h>

#include "pgtrace_common.h"
#include "pgtrace_trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What one slot records: indices into the user's vocabulary, and the
 * user's warp and tile numbers. */
typedef struct {
    uint32_t role;
    int32_t warp;
    int32_t tile;
    uint32_t phase;
} pgtrace_slot_info;

/* Describe slot `slot` (0 .. slots_per_cta - 1) of CTA `cta` (the linear
 * CTA index, as the anchors are): return 1 and fill *out when the schedule
 * records an event there, 0 when it never does (a padding slot: it must stay
 * empty), -1 with pgtrace_fail() on error. */
typedef int (*pgtrace_slot_fn)(void *ctx, int32_t cta, int64_t slot, pgtrace_slot_info *out);

typedef struct {
    int64_t slots_per_cta; /* CTA c owns slots [c * slots_per_cta, (c + 1) * slots_per_cta) */
    pgtrace_slot_fn describe;
    void *ctx;
} pgtrace_slot_layout;

/* Expand `spans` (n_anchors * layout->slots_per_cta of them, as downloaded)
 * into t->events, in slot order, skipping the empty slots.  On entry t holds
 * the anchors (n_anchors, anchors) and `dropped` (the device counter: spans
 * whose slot lay outside the buffer); on return also events, n_events,
 * capacity and count = n_events + dropped.  Fails, naming the slot, when a
 * written slot belongs to a CTA without a start anchor, the layout says the
 * slot is never recorded, or the layout fails or gives a role or phase above
 * PGTRACE_MAX_NAMES - 1; t->events is then left NULL. */
int pgtrace_expand_slots(pgtrace_trace *t, const pgtrace_span *spans, const pgtrace_slot_layout *layout);

#ifdef __cplusplus
}
#endif

#endif
