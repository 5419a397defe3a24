/* The `tmaqueue` line: `tmaqueue PHASE after=STEP window=LATENCY penalty=C`.
 * PHASE is the `kblocks` loop's phase.  In bres the other warpgroup's TMA
 * store of its tile (24 KB of D read out of shared memory) and, right after
 * it, its next tile's combined load (24 KB in) go through the SM's TMA unit
 * in the same queue as the A stages: a stage issued while that store is
 * being read out lands later.  A k-block load of tile k issued within
 * WINDOW cycles (a latency sampled with tile k - 1: in h100-bres the store's
 * drain, `store_drain`) of the start of tile k - 1's STEP (the other
 * warpgroup's `epilogue_store`) lands C cycles later.  `pegemm model fit`
 * chooses C on the trace's own tiles (tmaqueue_fit): the value at which the
 * per-tile load latency the k-block replay solves for no longer differs
 * between the tiles whose loads fell in the window and those that did not,
 * since the DRAM latency cannot depend on where the other store was.
 * docs/experiments.md M19. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "model_ext.h"
#include "pg_error.h"
#include "sched.h"

#define TQFAIL(...) (pg_fail(__VA_ARGS__), pg_fail_context("%s:%d", s->origin, s->tq_line))

int sch_tmaqueue_parse(pg_schedule *s, const char *const *tok, int ntok, int line)
{
    if (s->tq_line)
        return pg_fail("%s:%d: only one `tmaqueue` line (first at line %d)", s->origin, line, s->tq_line);
    s->tq_line = line;
    const char *after = NULL, *window = NULL, *penalty = NULL;
    for (int i = 2; i < ntok; i++) {
        if (strncmp(tok[i], "after=", 6) == 0)
            after = tok[i] + 6;
        else if (strncmp(tok[i], "window=", 7) == 0)
            window = tok[i] + 7;
        else if (strncmp(tok[i], "penalty=", 8) == 0)
            penalty = tok[i] + 8;
        else
            return TQFAIL("tmaqueue: '%s': expected after=, window= or penalty=", tok[i]);
    }
    if (ntok < 2 || strchr(tok[1], '=') || !after || !window || !penalty)
        return TQFAIL("usage: tmaqueue PHASE after=STEP window=LATENCY penalty=CYCLES");
    if (strlen(tok[1]) >= SCH_NAME || strlen(after) >= SCH_NAME || strlen(window) >= SCH_NAME)
        return TQFAIL("tmaqueue: name too long");
    char *end = NULL;
    s->tq_penalty = strtod(penalty, &end);
    if (end == penalty || *end || !(s->tq_penalty >= 0))
        return TQFAIL("tmaqueue: penalty=%s must be a number of cycles >= 0", penalty);
    snprintf(s->tq_spec[0], sizeof s->tq_spec[0], "%s", tok[1]);
    snprintf(s->tq_spec[1], sizeof s->tq_spec[1], "%s", after);
    snprintf(s->tq_spec[2], sizeof s->tq_spec[2], "%s", window);
    return 0;
}

int sch_tmaqueue_resolve(pg_schedule *s)
{
    int r, st, ra, sa;
    if (s->kb_node < 0)
        return TQFAIL("tmaqueue needs a `kblocks` line (it delays the loop's k-block loads)");
    if (sch_find_work(s, s->tq_spec[0], &r, &st) || sch_node_of(s, r, 0, st) != s->kb_node)
        return TQFAIL("tmaqueue: '%s' is not the kblocks loop's phase", s->tq_spec[0]);
    if (sch_find_work(s, s->tq_spec[1], &ra, &sa) || ra != r)
        return TQFAIL("tmaqueue: after=%s is not a work step of role %s", s->tq_spec[1], s->roles[r].name);
    if (s->ct_line)
        return TQFAIL("tmaqueue and contend cannot be combined: the engine evaluates the contended step a tile "
                      "late, after the next tile's loop that would read it");
    const int d = sch_find_dist(s, s->tq_spec[2]);
    if (d < 0 || s->dists[d].kind == DKIND_PHASE)
        return TQFAIL("tmaqueue window=%s: not a `latency` or `memory` line of this schedule", s->tq_spec[2]);
    s->tq_win_slot = sch_slot_of(s, d, 0);
    if (s->tq_win_slot < 0)
        return TQFAIL("too many sampled quantities");
    s->tq_after_node = sch_node_of(s, ra, 0, sa);
    s->tq_on = 1;
    return 0;
}

int sch_tmaqueue_override(pg_schedule *s, const char *stat, int relative, double value, const char *param)
{
    if (!s->tq_on)
        return pg_fail("'%s': this schedule has no tmaqueue line", param);
    if (strcmp(stat, "penalty") != 0)
        return pg_fail("'%s': tmaqueue takes penalty", param);
    const double v = relative ? s->tq_penalty + value : value;
    if (!(v >= 0))
        return pg_fail("'%s' must be >= 0", param);
    s->tq_penalty = v;
    return 0;
}

double tmaqueue_extra(const engine *E, int64_t k, double start, double landed, int *hit)
{
    const pg_schedule *s = E->s;
    if (!s->tq_on || k < 1)
        return 0;
    const double open = engine_start(E, s->tq_after_node, k - 1);
    const double width = E->smp[((k - 1) % E->R) * s->nslots + s->tq_win_slot];
    if (open >= start && open < start + width && landed > open) {
        *hit = 1;
        return s->tq_penalty;
    }
    return 0;
}

/* mean of the replayed latency column over the tiles in (hit) and out of the window */
static int hit_gap(const pg_schedule *s, const unsigned char *hit, double *gap, int64_t *nhit)
{
    const sch_table *T = s->table;
    const int col = sch_table_column(s, s->slots[s->kb_load_slot].dist, 0);
    if (col < 0)
        return pg_fail("tmaqueue: the fit has no per-tile load latency to calibrate on");
    double sum[2] = {0, 0};
    int64_t n[2] = {0, 0};
    for (int64_t r = 0; r < T->rows; r++) {
        const double v = T->v[r * T->cols + col];
        if (hit[r] <= 1 && isfinite(v)) {
            sum[hit[r]] += v;
            n[hit[r]]++;
        }
    }
    *nhit = n[1];
    *gap = n[0] > 0 && n[1] > 0 ? sum[1] / (double)n[1] - sum[0] / (double)n[0] : 0;
    return 0;
}

int tmaqueue_fit(pg_schedule *s, double traced_mean)
{
    if (!s->tq_on || !s->table)
        return 0;
    unsigned char *hit = malloc((size_t)s->table->rows);
    if (!hit)
        return pg_fail("out of memory");
    int rc = -1;
    char opt[64];
    /* fixed point: C += the latency's excess on the tiles in the window */
    double c = 0;
    for (int it = 0;; it++) {
        snprintf(opt, sizeof opt, "tmaqueue.penalty=%.9g", c);
        memset(hit, 2, (size_t)s->table->rows);
        if (pg_schedule_set(s, opt, 0) || kblocks_fit_hits(s, traced_mean, hit))
            goto done;
        double gap;
        int64_t nhit;
        if (hit_gap(s, hit, &gap, &nhit))
            goto done;
        if (nhit == 0 || fabs(gap) < 1 || it == 5)
            break;
        c = c + gap > 0 ? c + gap : 0;
    }
    rc = 0;
done:
    free(hit);
    return rc;
}
