/* The `l2reuse` line: `l2reuse LATENCY... bytes=C ratio=R full=F
 * cal_bytes=W0 on=0|1`.
 *
 * A benchmark launches a kernel back to back; what one launch leaves in the
 * L2 the next one finds there.  A run whose working set W (A read, D
 * written: the `bandwidth` line's compulsory bytes per tile x the tiles)
 * fits the L2's C bytes reads its A from the L2 from its first tile, where
 * the calibration (a large run) streams it from DRAM (docs/experiments.md
 * M58, M60).  The share of W the L2 keeps between launches,
 *
 *     h(W) = clamp((C - W) / (C - F C), 0, 1),
 *
 * is 1 up to F x C and falls to 0 at C (F < 1: the L2 does not keep a
 * working set of its own size whole -- set hashing, and the D lines each
 * launch writes; F = 0.5 was chosen on probe set 16, M60).  Each
 * listed latency (per-tile replayed or parametric) is multiplied by
 *
 *     (1 - h + h R) / (1 - h0 + h0 R),    h0 = h(W0), W0 the calibration's,
 *
 * R the latency of an L2 hit over a DRAM read at the same load (the bench's
 * floors: L2-resident boxes against A's boxes from DRAM, one in flight per
 * SM: 494 / 698 ns on an H100, 500 / 698 on an H200, M48), and the `warmup`
 * line's start-up swing, a DRAM queue of every SM starting at once, by
 * (1 - h) / (1 - h0).  At W = W0 nothing moves; a run of W >= C against a
 * calibration of W0 >= C neither.  List only the latencies whose bytes come
 * from DRAM: pingpong's loads are bound by its B stages' L2 reads and are
 * not listed (M58: its small runs are not faster).
 *
 * A fitted schedule replays each unit's tiles from a traced SM's first,
 * and those first tiles carry the calibration's start-up swing in their
 * load latencies too (every SM's first loads queue for DRAM at once): in a
 * replayed unit the listed latencies of the first rows, up to the `warmup`
 * line's slowest point (where E(K) peaks), keep (1 - h) / (1 - h0) of their
 * excess over the column's mean past them, as the period's swing does
 * (docs/experiments.md M62).
 *
 * This file is the line's engine part; its parse is in l2reuse_parse.c, its
 * fit (cal_bytes) in l2reuse_fit.c. */
#include <math.h>
#include <stdlib.h>

#include "engine.h"
#include "pg_error.h"
#include "sched.h"

static int listed_dist(const pg_schedule *s, int dist)
{
    for (int i = 0; i < s->l2_n; i++)
        if (s->l2_dist[i] == dist)
            return 1;
    return 0;
}

double l2reuse_kept(const pg_schedule *s, double working_set)
{
    const double C = s->l2_bytes, lo = s->l2_full * s->l2_bytes;
    if (!(working_set > lo))
        return 1;
    if (!(working_set < C))
        return 0;
    return (C - working_set) / (C - lo);
}

double l2reuse_working_set(const pg_schedule *s)
{
    return s->machine.tiles * s->bw_bytes_per_tile;
}

/* h at the run and at the calibration; 0 where the line is off or the
 * calibration's working set is unknown (cal_bytes=0: nothing moves) */
static int kept_pair(const pg_schedule *s, double *h, double *h0)
{
    if (!s->l2_line || !s->l2_on || !(s->l2_cal_bytes > 0) || s->bw_dist < 0)
        return 0;
    *h = l2reuse_kept(s, l2reuse_working_set(s));
    *h0 = l2reuse_kept(s, s->l2_cal_bytes);
    return 1;
}

int l2reuse_report(const pg_schedule *s, double *working_set, double *kept, double *kept_cal)
{
    double h, h0;
    if (!kept_pair(s, &h, &h0))
        return 0;
    *working_set = l2reuse_working_set(s);
    *kept = h;
    *kept_cal = h0;
    return 1;
}

double l2reuse_factor(const pg_schedule *s, int dist)
{
    double h, h0;
    if (!kept_pair(s, &h, &h0) || !listed_dist(s, dist))
        return 1;
    const double R = s->l2_ratio;
    return (1 - h + h * R) / (1 - h0 + h0 * R);
}

double l2reuse_swing_scale(const pg_schedule *s)
{
    double h, h0;
    if (!kept_pair(s, &h, &h0) || h0 >= 1)
        return 1; /* a calibration kept whole measured no DRAM swing to scale */
    return (1 - h) / (1 - h0);
}

/* The `warmup` line's slowest point: the key K where E(K) is largest (0:
 * no line, or no key inside the calibration's gaps) */
static int swing_rows(const pg_schedule *s)
{
    int best = 0;
    double e_best = 0;
    for (int i = 0; s->wu_line && i < SCH_WU_NKEYS; i++)
        if (isfinite(s->wu_e[i]) && sch_wu_k[i] < s->wu_tiles - 1 && s->wu_e[i] > e_best) {
            e_best = s->wu_e[i];
            best = sch_wu_k[i];
        }
    return best;
}

/* each table row's index within its traced SM (rows run SM by SM from
 * each unit_first), malloc'd; NULL out of memory */
static int64_t *row_index(const sch_table *T)
{
    int64_t *idx = malloc(sizeof(int64_t) * (size_t)(T->rows > 0 ? T->rows : 1));
    if (!idx)
        return NULL;
    for (int64_t r = 0; r < T->rows; r++)
        idx[r] = -1;
    for (int u = 0; u < T->nunits; u++) {
        int64_t next = T->rows; /* the next unit's first row after this one's */
        for (int w = 0; w < T->nunits; w++)
            if (T->unit_first[w] > T->unit_first[u] && T->unit_first[w] < next)
                next = T->unit_first[w];
        for (int64_t r = T->unit_first[u]; r < next; r++)
            idx[r] = r - T->unit_first[u];
    }
    return idx;
}

int l2reuse_engine_init(engine *E)
{
    const pg_schedule *s = E->s;
    const sch_table *T = s->table;
    double h, h0;
    for (int i = 0; i < s->nslots; i++)
        E->l2_steady[i] = NAN;
    E->l2_start_rows = 0;
    E->l2_swing = 1;
    if (!kept_pair(s, &h, &h0) || h == h0 || !T || T->nunits <= 0 || !s->machine.whole_run)
        return 0;
    E->l2_start_rows = swing_rows(s);
    E->l2_swing = l2reuse_swing_scale(s);
    if (E->l2_start_rows <= 0)
        return 0;
    int64_t *idx = row_index(T);
    if (!idx)
        return pg_fail("out of memory for the l2reuse line's rows");
    for (int i = 0; i < s->nslots; i++) {
        if (E->col[i] < 0 || !listed_dist(s, s->slots[i].dist))
            continue;
        double sum = 0;
        int64_t n = 0;
        for (int64_t r = 0; r < T->rows; r++)
            if (idx[r] >= E->l2_start_rows) {
                sum += T->v[r * T->cols + E->col[i]];
                n++;
            }
        if (n > 0)
            E->l2_steady[i] = sum / (double)n;
    }
    free(idx);
    return 0;
}

double l2reuse_replayed(const engine *E, int i, int64_t row, double v)
{
    if (E->unit_row0 < 0 || !isfinite(E->l2_steady[i]) || row < E->unit_row0 ||
        row - E->unit_row0 >= E->l2_start_rows)
        return v;
    return E->l2_steady[i] + (v - E->l2_steady[i]) * E->l2_swing;
}
