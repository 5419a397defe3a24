/* `kblocks PHASE count= stages= compute= issue=ROLE.STEP load=LATENCY
 * release=LATENCY calibrated_mean=`: a work step that is a k-block loop fed
 * by a stage ring.  Without it the mainloop is one sampled duration, its
 * stalls for stages not yet landed fixed as traced; with it each k-block waits
 * for its own stage, which the producer issues once the ring frees its slot,
 * so a mainloop that starts with the ring already full (a long epilogue
 * before it) stalls less.  docs/model.md "k-block loops"; M13 in
 * docs/experiments.md. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "pg_error.h"
#include "sched.h"

/* Tile k's loop.  k-block 0 starts with the step (the wait before it waited
 * for its stage); k-block j > 0 starts when j - 1's compute ends and its own
 * stage has landed: issued `release` after the ring freed the slot of k-block
 * j - stages (tile k - 1's if negative), `load` later.  A consumer frees a
 * slot when it starts the next k-block (wgmma_wait<1> after issuing it); the
 * last one at the loop's end.  k-block compute: `compute` plus the tile's
 * spread (its sampled phase less the phase's mean, shared evenly); the
 * latency: `load` plus the bandwidth term's shift of the phase mean
 * (kblocks_run). */
/* The constant added after the loop (a --mainloop-delay spin): the kernel
 * runs it after the loop released its last stage, so neither the next
 * tile's ring nor the producer's `@F` events wait for it. */
static double loop_extra(const pg_schedule *s) { return s->edges[s->in_edge[s->in_begin[s->kb_node]]].w; }

int kblocks_in_flight(const double *land, int j, const double *prev_land, int n, double t)
{
    int count = 1;
    for (int i = 1; i < j; i++)
        count += land[i] > t;
    for (int i = 1; prev_land && i < n; i++)
        count += prev_land[i] > t;
    return count;
}

/* ring= (M165): the share of a load's latency that follows the ring's depth,
 * at another depth than the one the fit measured the latency at: half the
 * loads in flight, that share of the wait halved (Little's law at a fixed
 * bandwidth share).  The fixed kernel's loads keep most of theirs (set 74:
 * a 2-stage ring ran +80% over 4 stages; a share of 0.6 put it at -14%). */
static double ring_factor(const pg_schedule *s)
{
    if (!(s->kb_ring > 0) || !(s->kb_ring_stages > 0))
        return 1;
    return 1 - s->kb_ring + s->kb_ring * s->kb_stages / s->kb_ring_stages;
}

/* wake= (M165): on a shallower ring than the calibration's, a slot is freed
 * `wake` after its next k-block's landing when that k-block waited for it
 * (landed at its start): on a shallow ring every k-block waits, and the
 * landing-to-release round trip is on the ring's critical path.  At the
 * calibration's depth the fit's latencies already hold it, and on a deeper
 * ring (fewer waits than the calibration's) they hold more than the run
 * has, which this does not take out.  The cycles that apply to this loop's
 * shape (0 where none do); wake_after gives them to a k-block that waited. */
static double wake_cycles(const pg_schedule *s)
{
    return s->kb_wake > 0 && s->kb_ring_stages > 0 && s->kb_stages < s->kb_ring_stages ? s->kb_wake : 0;
}

static double wake_after(double wake, double landed, double kblock_start)
{
    return wake > 0 && landed >= kblock_start - 1e-9 ? wake : 0;
}

/* fifo= (M119): the landing of the load this SM issued before k-block j's:
 * the loop's j - 1 for j >= 2; for j = 1 (the tile's first k-block is the
 * `first_load` term, not run here) the previous tile's last; -INFINITY
 * when there is none. */
static double fifo_previous(const double *land, int j, const double *prev_land, int n)
{
    if (j >= 2)
        return land[j - 1];
    return prev_land && n >= 2 ? prev_land[n - 1] : -INFINITY;
}

/* The loads in flight that set a load's queueing: its own count at issue
 * (M25), or with `queue_mean=1` the mean over the loads run so far (M46:
 * the SMs share one memory path, so a load waits behind every SM's loads,
 * whose number follows this SM's mean, not the count at its own issue;
 * on the H100 pingpong's k-block 3, issued behind 2.8 of its SM's loads,
 * took 2,414 cycles and k-block 5, behind 1.2, 2,204).  The calibration's
 * mean until the first loads are counted. */
static double queue_depth(const engine *E, int nf, double ncal)
{
    if (!(E->s->kb_queue_mean > 0))
        return nf;
    return E->kb_run_count > 0 ? E->kb_run_sum / (double)E->kb_run_count : ncal;
}

/* When k-block j's compute starts: once its stage landed, j - 1's compute
 * ended, and (roundtrip=, docs/experiments.md M29) j - 2's wgmmas retired
 * and the consumer went round its loop: ws_mainloop issues j's group after
 * wait_group 1 returned for j - 2's, so j starts no earlier than `roundtrip`
 * after j - 2's compute ended.  With compute >= roundtrip (bres: 384 cycles)
 * that never binds; with short k-blocks (bres64: 192) it sets their pace,
 * (compute + roundtrip) / 2 each.  A k-block whose stage landed late is
 * held only by what is left of the round trip (j - 2 retired meanwhile). */
static double kblock_start(const pg_schedule *s, const double *b, int j, double c, double landed, double prev_end)
{
    double t = landed > prev_end ? landed : prev_end;
    if (j >= 2 && s->kb_roundtrip > 0 && b[j - 2] + c + s->kb_roundtrip > t)
        t = b[j - 2] + c + s->kb_roundtrip;
    return t;
}

/* the loop from `start` with load latency `load`: b[j] = k-block j's start,
 * land[j] its stage's landing; returns the loop's end.  With `queue=` a
 * load's latency grows with the loads in flight at its issue (Little's law
 * in a saturated memory system), counted into E's sums when `count`. */
static double run_loop(engine *E, int64_t k, double start, double c, double load, double handover, double *b,
                       int *hit, int count)
{
    const pg_schedule *s = E->s;
    const int n = s->kb_count, st = s->kb_stages, R = E->R;
    const double *prev = k >= 1 ? E->kb + ((k - 1) % R) * (n + 1) : NULL;
    const double prev_extra = loop_extra(s); /* prev[n] is the previous loop's end plus its spin */
    const double *prev_land = k >= 1 ? E->kb_land + ((k - 1) % R) * n : NULL;
    double *land = E->kb_land + (k % R) * n;
    const double F = s->kb_queue, ncal = s->kb_inflight > 0 ? s->kb_inflight : st;
    const double ring = ring_factor(s), wake = wake_cycles(s); /* the shape's, the same for every k-block */
    double issue = engine_start(E, s->kb_issue_node, k), end = start + c;
    b[0] = start;
    land[0] = start;
    for (int j = 1; j < n; j++) {
        const int g = j - st; /* the k-block whose slot this one reuses */
        double rel = -INFINITY;
        if (g >= 0)
            rel = b[g + 1] + wake_after(wake, land[g + 1], b[g + 1]);
        else if (prev && n + g >= 0) /* the previous tile's last slot is freed at its loop's end */
            rel = prev[n + g + 1] - (g == -1 ? prev_extra : 0) +
                  (g < -1 ? wake_after(wake, prev_land[n + g + 1], prev[n + g + 1]) : 0);
        if (rel + handover > issue)
            issue = rel + handover;
        double lat = load;
        if (F > 0 || (count && E->kb_fit_load)) {
            const int nf = kblocks_in_flight(land, j, prev_land, n, issue);
            if (F > 0)
                /* `load` carries colshare's factor; with whole=0 the queued part does not (M110) */
                lat = load * (1 - F + F * queue_depth(E, nf, ncal) / ncal / E->kb_qdiv);
            if (count && E->kb_fit_load) {
                E->kb_n_sum += nf;
                E->kb_n_count++;
            }
            if (count) {
                E->kb_run_sum += nf;
                E->kb_run_count++;
            }
        }
        lat *= ring; /* beside queue=, which follows the count in flight, not the ring's depth */
        lat += storewin_load_extra(E, k, issue, lat); /* the other warpgroup's store window (storewin.c) */
        double landed = issue + lat + tmaqueue_extra(E, k, start, issue + lat, hit);
        if (s->kb_fifo > 0) /* no sooner than fifo= after the load the SM issued before it */
            landed = fmax(landed, fifo_previous(land, j, prev_land, n) + s->kb_fifo);
        land[j] = landed;
        b[j] = kblock_start(s, b, j, c, landed, end);
        end = b[j] + c;
    }
    /* the other warpgroup's store window beside the loop (storewin.c) */
    return end + storewin_extra(E, k, start, end) + s->kb_fixed; /* ... and the last retire to its release (fixed=) */
}

double kblocks_chain(const pg_schedule *s)
{
    double b[1024]; /* kb_count <= 1024 (kblocks_parse.c) */
    const double c = s->kb_compute;
    double end = c;
    b[0] = 0;
    for (int j = 1; j < s->kb_count; j++) {
        b[j] = kblock_start(s, b, j, c, -INFINITY, end);
        end = b[j] + c;
    }
    return end;
}

void kblocks_run(engine *E, int64_t k, double start, double extra, double *b)
{
    const pg_schedule *s = E->s;
    const int n = s->kb_count, R = E->R;
    double *smp = E->smp + (k % R) * s->nslots;
    const sch_node *nd = &s->nodes[s->kb_node];
    const sch_dist *pd = &s->dists[s->roles[nd->role].steps[nd->step].dist];
    const int per_tile = E->col[s->kb_load_slot] >= 0;
    /* The phase's mean moves with the `bandwidth` term (the stall at the
     * DRAM share of this period); that shift is the loads landing sooner or
     * later, so it goes on each k-block's load latency (M18: on the compute
     * a load-bound loop absorbed it).  What stays on the compute is the
     * tile's own spread (its sample less the mean), unless the latency
     * carries that too (the per-tile replay, M14). */
    const double shift = dist_mean(pd) - s->kb_calibrated_mean;
    double c = s->kb_compute + (per_tile ? 0 : (smp[s->kb_phase_slot] - dist_mean(pd)) / n);
    /* A `contend` line on the loop (contend.c) moves its compute, spread
     * over the k-blocks, so that the ring's stalls and the contention add
     * up as they do in the kernel (a k-block whose next stage lands late
     * hides its extra compute in that wait).  kblocks_fit's replay solves for the loops the trace ran,
     * which are the work at the line's fitted overlap: no contention there. */
    if (!E->kb_fit_load)
        c += contend_loop_extra(E) / n;
    if (c < 0)
        c = 0;
    const double handover = smp[s->kb_release_slot];
    int hit = 0;
    if (E->kb_fit_load && per_tile && !E->means_only) {
        /* the latency that makes this loop last the tile's sampled phase:
         * the loop's length is continuous and non-decreasing in it */
        const double want = start + smp[s->kb_phase_slot];
        double lo = 0, hi = 1024;
        if (run_loop(E, k, start, c, lo, handover, b, &hit, 0) >= want) {
            hi = 0;
        } else {
            while (run_loop(E, k, start, c, hi, handover, b, &hit, 0) < want && hi < 1e9)
                hi *= 2;
            for (int it = 0; it < 60 && hi - lo > 1e-3; it++) {
                const double mid = 0.5 * (lo + hi);
                if (run_loop(E, k, start, c, mid, handover, b, &hit, 0) < want)
                    lo = mid;
                else
                    hi = mid;
            }
        }
        smp[s->kb_load_slot] = hi;
        if (E->row >= E->kb_fit_first && E->row < E->kb_fit_end)
            E->kb_fit_load[E->row] = hi;
    }
    double L = smp[s->kb_load_slot] + shift;
    if (L < 0)
        L = 0;
    hit = 0;
    b[n] = run_loop(E, k, start, c, L, handover, b, &hit, 1) + extra;
    if (E->kb_fit_load && E->row >= E->kb_fit_first && E->row < E->kb_fit_end)
        kblocks_record_shifts(E, b);
    if (E->kb_fit_hit && E->row >= E->kb_fit_first && E->row < E->kb_fit_end)
        E->kb_fit_hit[E->row] = (unsigned char)hit;
}

/* k-block j = frac x count when that is a whole number in [1, count), else -1 */
int kblocks_boundary(const pg_schedule *s, double frac)
{
    const double jf = frac * s->kb_count;
    const long j = lround(jf);
    return fabs(jf - (double)j) < 1e-9 && j >= 1 && j < s->kb_count ? (int)j : -1;
}

double kblocks_at(const engine *E, int64_t k, double frac, int event)
{
    /* The fit measures the events outside the loop (the producer's wait for
     * a tile's first slot, its issue end) against the traced loop at
     * fractions of its duration (no k-block is traced).  They stay such
     * fractions of the loop the model ran, unless the line says
     * boundaries=1 (M46): the kernel frees a slot when the next k-block
     * starts, wherever in the loop the stalls fell, so the event is that
     * start, shifted by the fit's mean offset of the fraction from it (the
     * fit's replay measures those offsets, so it runs on the fractions).
     * An offset holds for the k-block it was measured at: a loop of another
     * count or ring depth puts the event at another k-block, whose offset
     * no calibration measured, so there the fraction stays (M46). */
    const pg_schedule *s = E->s;
    const double *b = E->kb + (k % E->R) * (s->kb_count + 1);
    const int shape = s->kb_count == s->kb_shift_count && s->kb_stages == s->kb_shift_stages;
    const int j = s->kb_boundaries > 0 && shape && !E->kb_fit_load && event >= 0 ? kblocks_boundary(s, frac) : -1;
    if (j > 0 && isfinite(s->kb_shift[event]))
        return b[j] + s->kb_shift[event];
    return b[0] + frac * (b[s->kb_count] - loop_extra(s) - b[0]);
}

void kblocks_record_shifts(engine *E, const double *b)
{
    const pg_schedule *s = E->s;
    const double len = b[s->kb_count] - loop_extra(s) - b[0];
    for (int i = 0; i < s->nedges; i++) {
        const sch_edge *e = &s->edges[i];
        const int j = e->kb_event >= 0 ? kblocks_boundary(s, e->at_frac) : -1;
        if (j > 0)
            E->kb_shift_sum[e->kb_event] += e->at_frac * len - (b[j] - b[0]);
    }
    E->kb_shift_tiles++;
}
