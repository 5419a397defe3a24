/* Fitting a `rowfirst` line (model/rowfirst.c) to a run: its column blocks
 * (the run's N over its tile's, as `colshare` has them) as both B and B0;
 * each table row's traced tile in the column "@rf:LATENCY" (next=1: the
 * tile its SM runs next, the one a gap after the row's tile precedes); and,
 * fit=1, the extra E as the mean of the first listed latency on the rows
 * whose tile is a row block's first less its mean on the others (kept as
 * written where either holds fewer than 20 rows: at B0 = 1 every tile is a
 * first one, and nothing tells the extra apart). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fit.h"
#include "pg_error.h"
#include "sched.h"

#define RF_MIN_ROWS 20

/* row -> traced tile, and tile -> SM (INT32_MAX: none) */
static void rows_and_sms(const pg_trace *t, const int64_t *row_of, int64_t ntiles, int64_t *tile_of, int32_t *sm_of,
                         int64_t rows)
{
    for (int64_t r = 0; r < rows; r++)
        tile_of[r] = -1;
    for (int64_t k = 0; k < ntiles; k++) {
        sm_of[k] = INT32_MAX;
        if (row_of[k] >= 0 && row_of[k] < rows)
            tile_of[row_of[k]] = k;
    }
    for (int64_t i = 0; i < t->n; i++)
        if (t->tile[i] >= 0 && t->tile[i] < ntiles)
            sm_of[t->tile[i]] = t->sm[i];
}

/* the column: each row's tile, or (next=1) the next row's where the same SM
 * ran it (rows are in SM order) */
static void fill_tiles(pg_schedule *s, int col, const int64_t *tile_of, const int32_t *sm_of)
{
    sch_table *T = s->table;
    for (int64_t r = 0; r < T->rows; r++) {
        int64_t q = tile_of[r];
        if (s->rf_next)
            q = r + 1 < T->rows && q >= 0 && tile_of[r + 1] >= 0 && sm_of[tile_of[r + 1]] == sm_of[q] ? tile_of[r + 1]
                                                                                                    : -1;
        T->v[r * T->cols + col] = q >= 0 ? (double)q : NAN;
    }
}

/* E: the listed latency's mean on first tiles less on the others */
static int fit_extra(pg_schedule *s, int col)
{
    const sch_table *T = s->table;
    const int lc = sch_table_column(s, s->rf_dist[0], 0);
    if (lc < 0)
        return 0; /* not replayed per tile: the written extra stays */
    double sum[2] = {0, 0};
    int64_t n[2] = {0, 0};
    for (int64_t r = 0; r < T->rows; r++) {
        const double q = T->v[r * T->cols + col], v = T->v[r * T->cols + lc];
        if (isnan(q) || !isfinite(v))
            continue;
        const int first = fmod(q, s->rf_cal_blocks) == 0;
        sum[first] += v;
        n[first]++;
    }
    if (n[0] < RF_MIN_ROWS || n[1] < RF_MIN_ROWS)
        return 0;
    char set[64];
    snprintf(set, sizeof set, "rowfirst.extra=%.9g", sum[1] / (double)n[1] - sum[0] / (double)n[0]);
    if (pg_schedule_set(s, set, 0))
        return -1;
    s->rf_extra_fitted = 1;
    return 0;
}

int rowfirst_fit(pg_schedule *s, const pg_run *run, const int64_t *row_of, int64_t ntiles)
{
    const double blocks = colshare_run_blocks(run);
    if (!s->rf_line || !(blocks >= 1)) /* no line, or no tile width recorded: the schedule's stay */
        return 0;
    char set[64];
    snprintf(set, sizeof set, "rowfirst.blocks=%.17g", blocks);
    int rc = pg_schedule_set(s, set, 0);
    snprintf(set, sizeof set, "rowfirst.cal_blocks=%.17g", blocks);
    if (rc == 0)
        rc = pg_schedule_set(s, set, 0);
    if (rc || !s->table || !row_of)
        return rc; /* no per-tile replay: the mean move (rowfirst.c) */
    int64_t *tile_of = malloc(sizeof(int64_t) * (size_t)(s->table->rows > 0 ? s->table->rows : 1));
    int32_t *sm_of = malloc(sizeof(int32_t) * (size_t)(ntiles > 0 ? ntiles : 1));
    char name[SCH_NAME + 8];
    sch_table_rowfirst_name(s, name, sizeof name);
    const int col = tile_of && sm_of ? sch_table_fresh_column(s, name) : -1;
    if (!tile_of || !sm_of)
        rc = pg_fail("out of memory for rowfirst's tiles");
    else if (col < 0)
        rc = -1;
    else {
        rows_and_sms(&run->trace, row_of, ntiles, tile_of, sm_of, s->table->rows);
        fill_tiles(s, col, tile_of, sm_of);
        rc = s->rf_fit ? fit_extra(s, col) : 0;
    }
    free(tile_of);
    free(sm_of);
    return rc;
}
