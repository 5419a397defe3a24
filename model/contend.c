/* The `contend` lines: `contend PHASE by=PHASE [tile=next|previous]
 * slowdown=C overlap=OV window=W`.  A work step of a role whose instances
 * take tiles in turn (the ping-pong warpgroups) runs slower the more of it
 * the other instance spends in its `by` step: they share the SM's shared
 * memory (the epilogue's ld/st.shared against wgmma's operand reads and the
 * stage ring's TMA writes).  tile=next (the default): the next tile's `by`
 * step (the other warpgroup's mainloop beside this epilogue); tile=previous:
 * the previous tile's (the other warpgroup's epilogue, which began before
 * this mainloop).  Each cycle of overlap costs C cycles of work (with
 * compute=K, K / the `by` step's work of it: only its compute contends).  The step's
 * sampled work (a traced tile's, which had the trace's overlap, OV on
 * average) moves by C x (the model's overlap, averaged over the last W
 * tiles, - OV): at the fitted point the traced tiles replay as they ran,
 * tails included, and a probe that changes the overlap moves the step's
 * mean.  Only work contends: constants added to either step (a probe's
 * spin, which the kernel runs after the work) do not.  keep=1: less overlap
 * than OV moves nothing (the other instance's other work contends in its
 * place).  solve=tile (M86): the step is solved against this tile's own
 * overlap, once the next tile's `by` step has run (contend_solve_tile),
 * not the running mean.  A `kblocks` loop's
 * contention goes on its k-blocks' compute (kblocks.c).
 * docs/model.md "Contention"; docs/experiments.md M17.
 *
 * Tile k's work uses the overlaps of earlier tiles only, so the engine runs
 * the steps in tile order: each step records the interval of its work, and
 * a tile's overlap joins the running mean once both intervals are known
 * (tile=next: when tile k + 1's `by` step has run; tile=previous: when tile
 * k's contended step has). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "pg_error.h"
#include "sched.h"

double contend_overlap(double start, double end, double by_start, double by_end)
{
    const double lo = by_start > start ? by_start : start, hi = by_end < end ? by_end : end;
    return hi > lo ? hi - lo : 0;
}

/* compute=K: a `by` step that ran by_work > K cycles computed K of them and
 * stalled the rest (a k-block loop waiting for its loads), and only its
 * compute contends (wgmma's operand reads of shared memory), so a cycle of
 * overlap counts K / by_work: the compute spread evenly over the step, as
 * the trace, which has the step's start and end only, can measure it.
 * docs/experiments.md M30. */
double contend_weight(const sch_contend *c, double by_work)
{
    return c->compute > 0 && by_work > c->compute ? c->compute / by_work : 1;
}

/* The extra work at overlap ov against the sample's own overlap (a
 * solve=tile row's traced one, else NAN: the line's OV), keep=1's floor
 * applied */
static double extra_at(const sch_contend *c, double ov, double traced)
{
    const double x = c->slowdown * (ov - (isfinite(traced) ? traced : c->overlap));
    return c->keep == SCH_KEEP_ALL && x < 0 ? 0 : x;
}

/* keep=1 (docs/experiments.md M77): the calibration's contention is a
 * floor.  Where the `by` step overlaps less than there, the other instance
 * is not idle: at short tiles (small K) its store drain and loads take the
 * mainloop's place beside this step (M69: the epilogue's growth follows the
 * other warpgroup's store), and the step ran no faster on sets 25-27.
 * keep=busy (M78): the floor less what the other instance spent spinning
 * beside this step's work (ct_idle): a probe's spin is idle, and past the
 * store's turn the other warpgroup spins in its delay where at the
 * calibration it ran its mainloop. */
double contend_extra(const engine *E, int line)
{
    const sch_contend *c = &E->s->ct[line];
    const double x = extra_at(c, E->ct_mean[line], NAN);
    if (c->keep == SCH_KEEP_BUSY) {
        const double floor = -c->slowdown * E->ct_idle[line];
        return x < floor ? floor : x;
    }
    return x;
}

/* tile k's record of line i (CT_REC doubles, engine.h) */
static double *record(engine *E, int i, int64_t k)
{
    return E->ct_iv + ((k % E->R) * E->s->nct + i) * CT_REC;
}

/* the overlap of the contended work [step[0], step[1]] with the spins of
 * the other instance's tiles beside it: tile k - 1's two steps and, for
 * tile=next, tile k + 1's `by` step (its contended step has not run yet) */
static double spin_overlap(engine *E, int i, int64_t k, const double *step)
{
    double idle = 0;
    if (k >= 1) {
        const double *before = record(E, i, k - 1);
        idle += contend_overlap(step[0], step[1], before[1], before[4]) +
                contend_overlap(step[0], step[1], before[3], before[5]);
    }
    if (!E->s->ct[i].previous) {
        const double *after = record(E, i, k + 1);
        idle += contend_overlap(step[0], step[1], after[3], after[5]);
    }
    return idle;
}

/* tile k's contended step (record `step`) against its `by` step: the line's
 * running means move by this tile's overlaps */
static void add_overlap(engine *E, int i, int64_t k, const double *step, const double *by)
{
    const double ov = contend_overlap(step[0], step[1], by[2], by[3]) * contend_weight(&E->s->ct[i], by[3] - by[2]);
    E->ct_mean[i] += (ov - E->ct_mean[i]) / E->s->ct[i].window;
    if (E->s->ct[i].keep == SCH_KEEP_BUSY)
        E->ct_idle[i] += (spin_overlap(E, i, k, step) - E->ct_idle[i]) / E->s->ct[i].window;
}

void contend_record(engine *E, int v, int64_t k, double start, double work_end, double end)
{
    const pg_schedule *s = E->s;
    for (int i = 0; i < s->nct; i++) {
        const sch_contend *c = &s->ct[i];
        double *r = record(E, i, k);
        if (v == c->node) {
            r[0] = start;
            r[1] = work_end;
            r[4] = end;
            if (c->previous && k >= 1)
                add_overlap(E, i, k, r, record(E, i, k - 1));
        }
        if (v == c->by_node) {
            r[2] = start;
            r[3] = work_end;
            r[5] = end;
            if (!c->previous && !c->solve_tile && k >= 1)
                add_overlap(E, i, k - 1, record(E, i, k - 1), r);
        }
    }
}

double contend_step_end(engine *E, int v, int64_t k, double start, double best)
{
    const pg_schedule *s = E->s;
    for (int i = 0; i < s->nct; i++) {
        const sch_contend *c = &s->ct[i];
        if (c->node == v) {
            const double work = E->smp[(k % E->R) * s->nslots + c->slot];
            const double rest = best - start - work; /* constants after the work (a probe's spin) */
            double w = work + contend_extra(E, i);
            if (w < 0)
                w = 0;
            contend_record(E, v, k, start, start + w, start + w + rest);
            return start + w + rest;
        }
    }
    /* a `by` step only: its work is its sample, the rest constants */
    for (int i = 0; i < s->nct; i++)
        if (s->ct[i].by_node == v) {
            contend_record(E, v, k, start, start + E->smp[(k % E->R) * s->nslots + s->ct[i].by_slot], best);
            break;
        }
    return best;
}

/* A tile=previous line j whose `by` step is line i's contended step read
 * tile k's interval of it, before the solve, when tile k + 1's step ran:
 * its running mean takes the solved interval's overlap instead. */
static void correct_previous(engine *E, int i, int64_t k, const double *step)
{
    const pg_schedule *s = E->s;
    for (int j = 0; j < s->nct; j++) {
        const sch_contend *p = &s->ct[j];
        if (!p->previous || p->by_node != s->ct[i].node)
            continue;
        double *was = record(E, j, k), *next = record(E, j, k + 1);
        const double wt = contend_weight(p, step[1] - step[0]);
        const double d = contend_overlap(next[0], next[1], step[0], step[1]) * wt -
                         contend_overlap(next[0], next[1], was[2], was[3]) * contend_weight(p, was[3] - was[2]);
        E->ct_mean[j] += d / p->window;
        was[2] = step[0];
        was[3] = step[1];
        was[5] = step[2];
    }
}

/* solve=tile (M86): tile k's contended step against tile k + 1's `by` step,
 * which has run.  Its work w' = w + C x (ov(w') - OV), ov the overlap of
 * [start, start + w'] with that step: a contraction (C x weight < 1), so a
 * few rounds settle it.  Returns the step's new end; its record, the line's
 * running mean (for a report) and tile=previous lines that read it move. */
double contend_solve_tile(engine *E, int i, int64_t k)
{
    const pg_schedule *s = E->s;
    const sch_contend *c = &s->ct[i];
    double *r = record(E, i, k);
    const double *by = record(E, i, k + 1);
    const double work = E->smp[(k % E->R) * s->nslots + c->slot], rest = r[4] - r[1];
    const double wt = contend_weight(c, by[3] - by[2]);
    const double traced = E->ct_row_ov[(k % E->R) * s->nct + i];
    double w = r[1] - r[0], ov = 0;
    for (int it = 0; it < 64; it++) {
        ov = contend_overlap(r[0], r[0] + w, by[2], by[3]) * wt;
        double next = work + extra_at(c, ov, traced);
        if (next < 0)
            next = 0;
        const int settled = fabs(next - w) < 1e-3;
        w = next;
        if (settled)
            break;
    }
    E->ct_mean[i] += (ov - E->ct_mean[i]) / c->window;
    const double step[3] = {r[0], r[0] + w, r[0] + w + rest};
    correct_previous(E, i, k, step);
    r[1] = step[1];
    r[4] = step[2];
    return step[2];
}

double contend_loop_extra(const engine *E)
{
    const pg_schedule *s = E->s;
    for (int i = 0; i < s->nct; i++)
        if (s->ct[i].node == s->kb_node)
            return contend_extra(E, i);
    return 0;
}

void contend_reset(engine *E)
{
    const pg_schedule *s = E->s;
    for (int i = 0; i < s->nct; i++) {
        E->ct_mean[i] = s->ct[i].overlap; /* no overlap measured yet: the sampled work as traced */
        E->ct_idle[i] = 0;
    }
    if (E->ct_iv)
        memset(E->ct_iv, 0, sizeof(double) * (size_t)E->R * (size_t)s->nct * CT_REC);
}
