/* The recurrence engine: runs a compiled schedule tile by tile, drawing each
 * tile's phase durations (from fitted distributions, or one whole row of a
 * fitted trace so a tile's phases stay together). */
#ifndef PG_ENGINE_H
#define PG_ENGINE_H

#include <stdint.h>

#include "dist.h"
#include "sched.h"

/* a `contend` line's record of one tile (contend.c): [0, 1] the contended
 * step's work, [2, 3] the `by` step's, [4] and [5] their ends with the
 * constants after the work (a probe's spin) */
#define CT_REC 6

typedef struct {
    const pg_schedule *s;
    int R;          /* ring depth: tiles of history kept */
    double *x;      /* [R][nnodes] event times (end of each step) */
    double *smp;    /* [R][nslots] samples */
    double *kb;     /* [R][kb_count + 1]: a `kblocks` loop's k-block starts and its end, NULL without one */
    double *kb_land; /* [R][kb_count]: when each k-block's stage landed (k-block 0: unused), with kb */
    double kb_n_sum; /* the loads in flight at each k-block load's issue, summed (kblocks `queue=`) ... */
    int64_t kb_n_count; /* ... over this many loads */
    double kb_shift_sum[SCH_KB_SHIFTS]; /* the fit's replay: each loop event's fraction point less its k-block start ... */
    int64_t kb_shift_tiles;             /* ... over this many tiles (kblocks `boundaries=1`, M46) */
    double kb_run_sum;  /* the same over the tiles run so far (kblocks `queue_mean=1`) ... */
    int64_t kb_run_count; /* ... over this many loads */
    int col[SCH_MAX_NODES]; /* slot -> trace table column, -1 = parametric */
    double scale[SCH_MAX_NODES]; /* slot -> factor on its samples (memory terms at another clock) */
    double dq[SCH_MAX_NODES];    /* slot -> `dramq` x `l2reuse` factor on its samples, replayed ones included */
    /* what a `kblocks` loop divides its load's queued part by
     * (colshare_queued_divisor: whole=0, M110, or whole=2 at more column
     * blocks, M130; else 1) */
    double kb_qdiv;
    int means_only; /* deterministic: every sample at its mean */
    /* engine_reset on a fitted run: 0 replays a traced SM from its first
     * tile (its start-up swing with it); 1 draws rows as the steady chain
     * does, from an empty pipeline (predict_run.c) */
    int no_replay;
    /* kblocks_fit's replay (non-NULL): each tile's loop solves for the load
     * latency that gives its sampled phase, stored here by table row */
    double *kb_fit_load;
    unsigned char *kb_fit_hit; /* ... and whether a load fell in the `tmaqueue` window (NULL: not recorded) */
    int64_t kb_fit_first, kb_fit_end; /* ... for table rows in [first, end) only (a unit's replay) */
    /* `contend` lines: each line's overlap averaged over the last tiles (and,
     * for keep=busy, the overlap of the contended work with the other
     * instance's spins), and per tile and line the intervals of the two
     * steps' work and their ends with constants, [R][nct][CT_REC] */
    double ct_mean[SCH_CT_MAX];
    double ct_idle[SCH_CT_MAX];
    double *ct_iv;
    unsigned char ct_at[SCH_MAX_NODES]; /* node -> a line's contended or `by` step */
    unsigned char ct_solve_by[SCH_MAX_NODES]; /* node -> the `by` step of a solve=tile line */
    unsigned char st_solve_by[SCH_MAX_NODES]; /* node -> the `by` step of a stretch tile=next line */
    int ct_ov_col[SCH_CT_MAX]; /* solve=tile: the table column of each line's per-row overlaps, -1: none */
    double *ct_row_ov;         /* [R][nct]: the overlap traced with tile k's drawn row (NAN: not known) */
    rng r;
    int64_t k;      /* next tile */
    int64_t row;    /* trace row of the current run of consecutive rows */
    int block_left; /* rows left in that run */
    /* `l2reuse` on a replayed unit (l2reuse.c): its first l2_start_rows
     * rows (the calibration's start-up swing, a DRAM queue) keep only
     * l2_swing of their listed latencies' excess over l2_steady, the
     * column's mean past them */
    int64_t unit_row0; /* the replayed unit's first table row; -1: not replaying one */
    int l2_start_rows;
    double l2_swing;
    double l2_steady[SCH_MAX_NODES]; /* slot -> mean past the start-up; NAN: not moved */
    /* `stretch` and `storenear` (stretch.c, storenear.c): the overlaps and
     * store positions seen (their fits read the means), the positions'
     * running mean, and a calibration pass's switch (record, move nothing) */
    double st_sum[SCH_ST_MAX], sn_sum, sn_mean;
    int64_t st_n[SCH_ST_MAX], sn_n;
    double if_sum; /* `inflight`: the loads counted at LATENCY's issues, and how many issues */
    int64_t if_n;
    double *st_iv;      /* [R][SCH_ST_MAX][2]: a tile=next line's interval of tile k before its stretch (NAN: none) */
    double *st_rec[SCH_ST_MAX]; /* the fit's replay: each line's (sample, overlap) pairs where set, st_rec_cap at most */
    int64_t st_rec_n[SCH_ST_MAX], st_rec_cap;
    int sn_col;         /* storenear own=1: the table column of the rows' traced positions, -1: none */
    double *sn_row_o;   /* [R]: ... the position traced with tile k's drawn row (NAN: not known) */
    int rf_col;         /* rowfirst: the table column of the rows' traced tiles, -1: none */
    int lines_record_only;
} engine;

int engine_init(engine *E, const pg_schedule *s, uint64_t seed, int means_only);
void engine_reset(engine *E, uint64_t seed);
void engine_free(engine *E);
/* Run one tile (E->k), then E->k++. */
void engine_step(engine *E);
/* Event time of node v at tile k (k within the last R tiles; k < 0 is 0).
 * Tile k is settled once tile k + 1 has run: a `contend ... solve=tile`
 * line or a `stretch ... tile=next` line solves tile k's step when tile
 * k + 1's `by` step runs, and re-runs what follows it in tile k.  Readers
 * of a tile's steps (the predictions' statistics, a simulated trace) take
 * tile k after stepping tile k + 1 (M111: they had read it before, and
 * reported the contended step's unsolved work). */
static inline double engine_x(const engine *E, int v, int64_t k)
{
    return k < 0 ? 0.0 : E->x[(k % E->R) * E->s->nnodes + v];
}
/* Start of node v's step at tile k. */
static inline double engine_start(const engine *E, int v, int64_t k)
{
    const sch_node *n = &E->s->nodes[v];
    if (k - n->prev_off < 0 && E->s->machine.whole_run)
        return E->s->role_setup[n->role]; /* a role's first step: after its set-up */
    return engine_x(E, n->prev, k - n->prev_off);
}
/* Run tile k's k-block loop from `start` (kblocks.c): b[j] = k-block j's
 * start, b[count] = the loop's end (+ extra). */
void kblocks_run(engine *E, int64_t k, double start, double extra, double *b);
/* How many of this SM's k-block loads are in flight at time t, one more
 * included (the load being issued): `land`'s k-blocks 1 .. j - 1 and
 * `prev_land`'s 1 .. n - 1 (NULL: none) that land after t (k-block 0's
 * stage is the `first_load` term, not counted either time); kblocks.c's
 * queue and the `inflight` line count with it. */
int kblocks_in_flight(const double *land, int j, const double *prev_land, int n, double t);
/* EVENT = the loop's step @frac of tile k: that fraction of the loop the
 * model ran (its start + frac x its duration). */
double kblocks_at(const engine *E, int64_t k, double frac, int event);
/* k-block j when frac x count is a whole number j in [1, count), else -1 */
int kblocks_boundary(const pg_schedule *s, double frac);
/* The fit's replay: add this tile's loop b[] to E's boundary offsets. */
void kblocks_record_shifts(engine *E, const double *b);
/* The loop with every stage landed and no contention: its k-blocks' compute
 * paced by the round trip, without the line's fixed cycles (kblocks_fit.c
 * measures those against it). */
double kblocks_chain(const pg_schedule *s);

/* `tmaqueue` (tmaqueue.c): the extra latency of a k-block load of tile k's
 * loop (started at `start`) that would land at `landed`: the penalty when
 * tile k - 1's store starts within the window after `start` and before the
 * load lands (sets *hit), 0 otherwise or without the line. */
double tmaqueue_extra(const engine *E, int64_t k, double start, double landed, int *hit);
/* The `storewin` line (storewin.c): the cycles tile k's k-block loop
 * [start, end] runs longer for the previous tile's store window inside it;
 * 0 without the line, with it off or with its load_gain= on (the window
 * then acts on each load: storewin_load_extra). */
double storewin_extra(const engine *E, int64_t k, double start, double end);
/* load_gain= (M174): the cycles a load issued at `issue` gains in the window */
double storewin_load_extra(const engine *E, int64_t k, double issue, double latency);
/* `warmup` (warmup.c): how much the period of a run with tiles_per_unit
 * tiles per unit moves against the calibration's (0 without the line or at
 * the calibration's count), and that move applied to a prediction (its
 * period, wall and TFLOPS). */
double warmup_period_delta(const pg_schedule *s, double tiles_per_unit);
void warmup_apply(const pg_schedule *s, pg_prediction *p);
/* `dramq` (dramq.c): the DRAM share of `units` SMs at a period (capped at
 * 0.95); the factor on a distribution's samples (1 unless it is listed,
 * the line is on and a prediction set dq_rho); 1 when the line is on and
 * lists the `kblocks` loop's load latency (the `bandwidth` line's stall
 * shift then stays off: the loads move once). */
double dramq_rho(double bytes_per_tile, double units, double period, double bytes_per_s, double clock_hz);
double dramq_factor(const pg_schedule *s, int dist);
/* The queue's wait at the prediction's DRAM share over the calibration's,
 * g(rho) / g(rho_cal) with g(r) = r / (1 - r) (1 where the line is off or
 * its share is not set). */
double dramq_queue_ratio(const pg_schedule *s);
int dramq_moves_loop(const pg_schedule *s);
/* `l2reuse` (l2reuse.c): the share of a working set of `working_set` bytes
 * the L2 keeps between launches; the run's working set (tiles x the
 * `bandwidth` line's bytes per tile); the factor on a distribution's
 * samples (1 unless it is listed, the line on and its cal_bytes set); and
 * the factor on the `warmup` line's move. */
double l2reuse_kept(const pg_schedule *s, double working_set);
double l2reuse_working_set(const pg_schedule *s);
double l2reuse_factor(const pg_schedule *s, int dist);
double l2reuse_swing_scale(const pg_schedule *s);
/* The run's working set, the share kept and the calibration's, for a
 * report: 1 where the line is on and its calibration's working set known,
 * 0 otherwise. */
int l2reuse_report(const pg_schedule *s, double *working_set, double *kept, double *kept_cal);
/* Set E's l2_* fields (engine_init, after E->col); -1 out of memory. */
int l2reuse_engine_init(engine *E);
/* A replayed sample v of slot i at table row `row`, its start-up excess
 * scaled (v unchanged outside a replayed unit's start-up rows). */
double l2reuse_replayed(const engine *E, int i, int64_t row, double v);
/* `stretch` (stretch.c) and `storenear` (storenear.c): the cycles a term
 * of latency `dist` ending at `end` (sampled `sample`) in tile k's wait
 * lasts longer (0 unless it is the line's latency, the line on, and not the
 * k-block replay of a fit); storenear_reset: its running mean at the
 * calibration's position. */
double stretch_extra(engine *E, int64_t k, int dist, double end, double sample);
/* stretch tile=next: tile k - 1's stretched delays against tile k's `by`
 * work v, which has just run */
void stretch_solve_previous(engine *E, int64_t k, int v);
/* no tile=next interval pending (engine_init, engine_reset) */
void stretch_reset(engine *E);
double storenear_extra(engine *E, int64_t k, int dist, double end, double sample);
void storenear_reset(engine *E);
/* The `inflight` line (inflight.c): what LATENCY's sample of tile k, ending
 * at `end`, gains from the loop's loads in flight at its issue; counts them
 * into if_sum / if_n (the fit's calibration point) either way. */
double inflight_extra(engine *E, int64_t k, int dist, double end, double sample);
/* `colshare` (colshare.c): the factor on a distribution's samples (1
 * unless it is listed, the line on and its blocks differ from the
 * calibration's). */
double colshare_factor(const pg_schedule *s, int dist);
/* ... and what a k-block loop takes back off its load's queued part (the
 * factor with whole=0, M110; else 1) */
double colshare_queued_divisor(const pg_schedule *s, int dist);
/* `rowfirst` (rowfirst.c): what a sample of distribution dist moves by
 * for the replayed row's traced tile row_tile (NAN: a parametric draw, the
 * mean move); 0 where the line is off, lists no dist, or B = B0. */
double rowfirst_shift(const pg_schedule *s, int dist, double row_tile);
/* `streamwall` (streamwall.c): the wall, the period the GPU's stream floor
 * allows (cycles; 0: no line, or off), and the factor on latency `dist`
 * (the line's sw_scale where it lists `dist`, else 1). */
double streamwall_period(const pg_schedule *s);
double streamwall_factor(const pg_schedule *s, int dist);
/* `contend` (contend.c).  contend_step_end: the end of tile k's step v
 * (a contended or `by` step; not the `kblocks` loop) that starts at `start`
 * and would end at `best` as sampled: a contended step's work moved by its
 * line's contention; records the step's work and updates the lines'
 * running means.  contend_record: the same record for a step whose work
 * ran [start, work_end] and ended, its constants after, at `end` (the
 * `kblocks` loop).  contend_extra: line i's
 * cycles of work added now; contend_loop_extra: the `kblocks` loop's (0 if
 * no line slows it). */
double contend_step_end(engine *E, int v, int64_t k, double start, double best);
void contend_record(engine *E, int v, int64_t k, double start, double work_end, double end);
double contend_extra(const engine *E, int line);
double contend_loop_extra(const engine *E);
/* solve=tile (M86): tile k's step of line i solved against tile k + 1's
 * `by` step (run); returns the step's new end. */
double contend_solve_tile(engine *E, int i, int64_t k);
/* The lines' running means at their `overlap` (no tile measured yet). */
void contend_reset(engine *E);
/* The cycles [start, end] overlaps [by_start, by_end]. */
double contend_overlap(double start, double end, double by_start, double by_end);
/* what one cycle of overlap with a `by` step of by_work cycles counts (contend.c) */
double contend_weight(const sch_contend *c, double by_work);
/* Latest event time among the kept tiles (the finish time after the last tile). */
double engine_latest(const engine *E);

#endif
