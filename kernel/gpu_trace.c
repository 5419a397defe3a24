/* The trace build on the host: the tracing kit's fixed-slot buffer for the
 * configured variant (traces/kit/pgtrace_host.h), and its records as the run
 * file's trace rows.  The kernel records each tile's seven phases as bare
 * {begin, end} into the compact slots of (CTA, local tile)
 * (kernel/gemm_trace.cuh); the slot layout below names each slot's role,
 * warp, phase and global tile from the variant's schedule, and the kit adds
 * the SM from the CTA's anchor.  The rows come out in (CTA, local tile,
 * phase) order, one per (tile, phase); this file checks that every tile of the problem is there exactly
 * once per phase and maps the kit's vocabulary (gemm_trace_vocab.h) onto
 * the run file's role and phase codes by name. */
#include <stdlib.h>
#include <string.h>

#include "gemm_trace_vocab.h"
#include "gpu_session.h"
#include "pg_error.h"
#include "pgtrace_host.h"

/* Local tiles per CTA: the most any CTA runs under the variant's schedule
 * (bres: row blocks per group; pingpong: pairs per cluster). */
static int64_t tiles_per_cta(const pg_gpu *g)
{
    if (PG_VARIANT_IS_BRES(g->variant)) {
        const int64_t groups = g->grid / g->tiles_n;
        return (g->tiles_m + groups - 1) / groups;
    }
    const int64_t clusters = g->grid / PG_CLUSTER;
    return (g->num_pairs + clusters - 1) / clusters;
}

/* The global tile of CTA `cta`'s local tile `i`, or -1 where the schedule
 * runs none or runs one it does not trace: the tile loops of bres.cuh and
 * pingpong.cuh (the producer's and the consumers' are the same) on the host. */
static int64_t schedule_tile(const pg_gpu *g, int32_t cta, int64_t i)
{
    if (PG_VARIANT_IS_BRES(g->variant)) {
        const int64_t groups = g->grid / g->tiles_n, group = cta / g->tiles_n, nb = cta % g->tiles_n;
        const int64_t mb = group + i * groups;
        return mb < g->tiles_m ? mb * g->tiles_n + nb : -1;
    }
    const int64_t clusters = g->grid / PG_CLUSTER, q = cta / PG_CLUSTER + i * clusters;
    if (q >= g->num_pairs)
        return -1;
    const int64_t mb = PG_CLUSTER * (q / g->tiles_n) + cta % PG_CLUSTER; /* cluster rank: 1-D clusters */
    return mb < g->tiles_m ? mb * g->tiles_n + q % g->tiles_n : -1;      /* the row block past M: not traced */
}

/* The kit's slot layout (pgtrace_slots.h): slot s of a CTA is local tile
 * s / PG_TR_PHASES, phase s % PG_TR_PHASES; consumer phases were recorded by
 * warpgroup i % 2 (local tile i = 2 j + w), producer phases by warp 0. */
static int describe_slot(void *ctx, int32_t cta, int64_t slot, pgtrace_slot_info *out)
{
    const pg_gpu *g = ctx;
    const int64_t i = slot / PG_TR_PHASES;
    const int phase = (int)(slot % PG_TR_PHASES);
    const int64_t tile = schedule_tile(g, cta, i);
    if (tile < 0)
        return 0;
    const int producer = phase >= PG_TR_PRODUCER_WAIT;
    out->role = producer ? PG_TR_PRODUCER : PG_TR_CONSUMER;
    out->warp = producer ? 0 : (int32_t)(i % 2);
    out->tile = (int32_t)tile;
    out->phase = (uint32_t)phase;
    return 1;
}

int pg_gpu_trace_prepare(pg_gpu *g)
{
    if (g->trace_buf.dev.spans)
        return 0;
    const int64_t per_cta = tiles_per_cta(g);
    if (per_cta > INT32_MAX || g->num_tiles > INT32_MAX)
        return pg_fail("trace: %lld tiles per CTA (%lld in all) do not fit the trace's 32-bit tile index",
                       (long long)per_cta, (long long)g->num_tiles);
    if (pgtrace_buffer_create_compact(&g->trace_buf, per_cta * PG_TR_PHASES, g->grid) != 0) {
        pg_fail("%s", pgtrace_last_error());
        return pg_fail_context("allocating the trace buffer (%lld events)", (long long)(g->grid * per_cta * PG_TR_PHASES));
    }
    g->params.trace = g->trace_buf.dev;
    g->params.trace_tiles_per_cta = (int32_t)per_cta;
    return 0;
}

int pg_gpu_trace_reset(pg_gpu *g)
{
    if (pgtrace_buffer_reset(&g->trace_buf, g->stream) != 0)
        return pg_fail("%s", pgtrace_last_error());
    return 0;
}

void pg_gpu_trace_destroy(pg_gpu *g) { pgtrace_buffer_destroy(&g->trace_buf); }

typedef struct {
    pg_trace *out;
    int64_t num_tiles;
    uint8_t role_code[PG_TR_ROLES]; /* the kit's role index -> pg_role */
    uint8_t phase_code[PG_TR_PHASES];
} fill_ctx;

/* The vocabulary's names as the run file's codes (phases.h). */
static int map_vocab(const pgtrace_vocab *v, fill_ctx *c)
{
    if (v->n_roles > PG_TR_ROLES || v->n_phases > PG_TR_PHASES)
        return pg_fail("trace: vocabulary of %d roles and %d phases; the kernel records %d and %d", v->n_roles,
                       v->n_phases, PG_TR_ROLES, PG_TR_PHASES);
    for (int r = 0; r < v->n_roles; r++) {
        pg_role code;
        if (pg_role_parse(v->role_names[r], &code) != 0)
            return pg_fail_context("trace: the run file has no role '%s'", v->role_names[r]);
        c->role_code[r] = (uint8_t)code;
    }
    for (int p = 0; p < v->n_phases; p++) {
        pg_phase code;
        if (pg_phase_parse(v->phase_names[p], &code) != 0)
            return pg_fail_context("trace: the run file has no phase '%s'", v->phase_names[p]);
        c->phase_code[p] = (uint8_t)code;
    }
    return 0;
}

/* Every tile once per phase, nothing else. */
static int check_complete(const pgtrace_view *v, int64_t num_tiles)
{
    int rc = -1;
    uint8_t *seen = calloc((size_t)(num_tiles * PG_TR_PHASES), 1);
    if (!seen)
        return pgtrace_fail("out of host memory for the trace check");
    for (int64_t k = 0; k < v->n_events; k++) {
        const pgtrace_event *e = &v->events[k];
        if (e->tile < 0 || e->tile >= num_tiles) {
            rc = pgtrace_fail("row %lld names tile %d outside 0..%lld", (long long)k, e->tile, (long long)num_tiles - 1);
            goto done;
        }
        uint8_t *s = &seen[(int64_t)e->tile * PG_TR_PHASES + e->phase];
        if (*s) {
            rc = pgtrace_fail("tile %d phase %s was recorded twice", e->tile, v->vocab->phase_names[e->phase]);
            goto done;
        }
        *s = 1;
    }
    for (int64_t i = 0; i < num_tiles * PG_TR_PHASES; i++)
        if (!seen[i]) {
            rc = pgtrace_fail("tile %lld phase %s was not recorded", (long long)(i / PG_TR_PHASES),
                              v->vocab->phase_names[i % PG_TR_PHASES]);
            goto done;
        }
    rc = 0;
done:
    free(seen);
    return rc;
}

/* The kit's writer callback: the validated view as pg_trace rows. */
static int fill_pg_trace(void *ctx, const pgtrace_view *v)
{
    fill_ctx *c = ctx;
    pg_trace *t = c->out;
    if (check_complete(v, c->num_tiles) != 0)
        return -1;
    if (pg_trace_alloc(t, v->n_events, v->n_sm) != 0)
        return pgtrace_fail("%s", pg_last_error());
    pg_vocab_pegemm(&t->vocab); /* the codes below are pegemm's (map_vocab): the file carries those names */
    for (int64_t k = 0; k < v->n_events; k++) {
        const pgtrace_event *e = &v->events[k];
        t->sm[k] = e->sm;
        t->role[k] = c->role_code[e->role];
        t->warp[k] = e->warp;
        t->tile[k] = e->tile;
        t->phase[k] = c->phase_code[e->phase];
        t->begin[k] = e->begin;
        t->end[k] = e->end;
    }
    memcpy(t->anchor_clock, v->anchor_clock, (size_t)v->n_sm * sizeof *t->anchor_clock);
    memcpy(t->anchor_globaltimer_ns, v->anchor_globaltimer_ns, (size_t)v->n_sm * sizeof *t->anchor_globaltimer_ns);
    return 0;
}

int pg_gpu_collect_trace(pg_gpu *g, pg_trace *t)
{
    int rc = -1;
    pgtrace_trace kt;
    fill_ctx c;
    memset(t, 0, sizeof *t);
    memset(&kt, 0, sizeof kt);
    memset(&c, 0, sizeof c);
    if (!g->trace_buf.dev.spans)
        return pg_fail("no trace: the trace build was not run");
    if (map_vocab(&pg_gemm_trace_vocab, &c) != 0)
        return -1;
    c.out = t;
    c.num_tiles = g->num_tiles;
    const pgtrace_slot_layout layout = {g->trace_buf.slots_per_cta, describe_slot, g};
    if (pgtrace_buffer_collect_compact(&g->trace_buf, &layout, &kt) != 0) {
        rc = pg_fail("%s", pgtrace_last_error());
        goto done;
    }
    g->trace_dropped = kt.dropped;
    if (kt.dropped != 0) { /* the slots are sized for the schedule: a drop is a bug, and rows would be missing */
        rc = pg_fail("trace: %lld events dropped (their slots lie outside the buffer of %lld)", (long long)kt.dropped,
                     (long long)kt.capacity);
        goto done;
    }
    if (pgtrace_emit(&kt, &pg_gemm_trace_vocab, pg_variant_get(g->variant)->kernel, fill_pg_trace, &c) != 0) {
        rc = pg_fail("trace: %s", pgtrace_last_error());
        goto done;
    }
    /* The SM clock while the kernel ran: clock64 against %globaltimer from
     * each CTA's start to consumer 0's end; the mean over CTAs. */
    g->trace_clock_hz = kt.clock_hz;
    rc = 0;
done:
    if (rc)
        pg_trace_free(t);
    pgtrace_trace_free(&kt);
    return rc;
}
