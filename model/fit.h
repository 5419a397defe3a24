/* The fitting layer's internals (docs/model.md "Code layout"): each
 * schedule line's own fit, and the table that registers them (fit_lines.c).
 * The public entry is pg_schedule_fit_as (model.h). */
#ifndef PG_FIT_H
#define PG_FIT_H

#include <stdint.h>

#include "sched.h"

/* Order statistics (fit_stats.c): qsort's comparator for doubles, and the
 * q-quantile of n sorted values, interpolated (NAN for none). */
int fit_cmp_double(const void *a, const void *b);
double fit_quantile_sorted(const double *v, int64_t n, double q);

/* The latencies' fit (fit_latencies.c), once the per-phase table is
 * attached (row_of: traced tile -> table row, -1; NULL: means are used):
 * each wait's latencies from its binding and censored observations, then
 * the roles' ROLE_start, ROLE_setup and ROLE_gap options. */
int fit_latencies(pg_schedule *s, const pg_trace *t, const int *roleid, int64_t ntiles, const int64_t *row_of);
/* ... and the schedule's edges as the table's columns (fit.c) read them
 * too: a work step's own constant (e.g. "+ $epi_delay": the trace includes
 * it), whether a step has a dependency beside its sequence edge, and an
 * edge's one latency/memory term (its distribution; -1 if none or several). */
double fit_work_step_const(const pg_schedule *s, int node);
int fit_step_has_deps(const pg_schedule *s, int node);
int fit_edge_latency(const pg_schedule *s, const sch_edge *e);

/* Each line's step of a fit, after the per-phase table and the latencies
 * are fitted, in the table's order (fit_lines.c): bandwidth, contend,
 * kblocks, tmaqueue, dramq.  row_of: traced tile -> table row (-1: not in it). */
int fit_lines(pg_schedule *s, const pg_run *run, const int64_t *row_of, int64_t ntiles);
/* The run's tiles do work_ratio x the schedule's work: each line's
 * per-tile compute scaled to it (before the fit). */
int fit_lines_scale_work(pg_schedule *s, double work_ratio);
/* ... the same as assignments ("kblocks.tile_compute=...", at most cap of
 * FIT_SET_LEN bytes each), for a what-if on a fitted schedule (`pegemm
 * model validate`: a run at another K); returns how many. */
#define FIT_SET_LEN 96
int fit_lines_work_sets(const pg_schedule *s, double work_ratio, char sets[][FIT_SET_LEN], int cap);
/* What a run's shape and grid are to a schedule (fit_shape.c): its tiles
 * and work, the DRAM bytes of one tile the `bandwidth` line charges, and
 * the units that run tiles at once. */
double fit_run_tiles(const pg_shape *sh, const pg_kernel_info *k);
double fit_run_flops(const pg_shape *sh);
double fit_bandwidth_bytes_per_tile(const pg_shape *sh, double tiles);
int fit_run_units(const pg_run *run);

/* Fit each `contend` line's slowdown and overlap to a trace, line by line
 * (contend_fit.c); 0 without one. */
int contend_fit(pg_schedule *s, const pg_trace *t, const int64_t *row_of, int64_t ntiles);
/* The slowdown C in [0, 0.999] at which w - C x ov is uncorrelated with g
 * over n tiles (0 if w already does not fall as g grows, or ov never
 * changes). */
double contend_estimate(const double *w, const double *ov, const double *g, int64_t n);
/* The work of tile k's phase in table column col (the table's, a probe's
 * constant taken off) where the row is replayed, else the traced
 * end - begin (contend_fit.c; the `storewin` fit reads its loops so too). */
double contend_work_of(const pg_schedule *s, const int64_t *row_of, int64_t k, int col, double begin, double end);
/* solve=tile (contend_table_fit.c): the table's column of line's per-row
 * overlaps set to ov[i] at row[i] (NAN elsewhere), added if absent. */
int contend_table_set_overlaps(pg_schedule *s, int line, const int64_t *row, const double *ov, int64_t n);
/* storenear own=1: each table row's traced store position, a column of the
 * table (storenear_table_fit.c); 0 without the key or a per-tile table. */
int storenear_table_fit(pg_schedule *s, const pg_trace *t, const int64_t *row_of, int64_t ntiles);
/* Fit a `kblocks` loop's calibrated_mean and load latency to a trace whose
 * phase mean is traced_mean (kblocks_fit.c); 0 without a kblocks line. */
int kblocks_fit(pg_schedule *s, double traced_mean);
/* ... and with a per-tile latency replay, hit[row] = 1 where a k-block load
 * of that traced tile fell in the `tmaqueue` window, 0 where none did, 2 where
 * the row was not replayed (hit may be NULL). */
int kblocks_fit_hits(pg_schedule *s, double traced_mean, unsigned char *hit);
/* Fit the `tmaqueue` penalty on the trace the schedule was fitted to, whose
 * k-block phase mean is traced_mean (tmaqueue_fit.c); 0 without the line. */
int tmaqueue_fit(pg_schedule *s, double traced_mean);
/* Measure the `storewin` line's gain on the trace's own tiles (storewin_fit.c)
 * where it says fit=1; 0 without the line, with it off or fit=0. */
int storewin_fit(pg_schedule *s, const pg_trace *t, const int64_t *row_of, int64_t ntiles);
/* Record the calibration run's SM clock on a `dramq` line (dramq_fit.c); 0
 * without the line. */
int dramq_fit(pg_schedule *s);
/* The calibration's working set on an `l2reuse` line (l2reuse_fit.c): as a
 * setting for fit_lines' scale_work hook (1 written, 0 without the line),
 * and set on s with the run's L2 size where its file records it; 0 without
 * the line. */
int l2reuse_cal_set(const pg_schedule *s, double ratio, char *out, size_t cap);
int l2reuse_fit(pg_schedule *s, const pg_run *run);
/* The run's GPU's L2 in bytes: its file's `/kernel l2_bytes`, else that of
 * a GPU of the same name our runs recorded (H100 80GB HBM3, H200), else 0. */
int64_t l2reuse_run_l2(const pg_run *run);
/* A `colshare` line's column blocks (colshare_fit.c): the run's N over its
 * tile's, rounded up (0 where its file has no tile width); fitted as both
 * the line's blocks and cal_blocks; 0 without the line. */
double colshare_run_blocks(const pg_run *run);
int colshare_fit(pg_schedule *s, const pg_run *run);
/* A `rowfirst` line (rowfirst_fit.c): B = B0 = the run's column blocks,
 * the rows' traced tiles as a table column, and (fit=1) the extra; 0
 * without the line. */
int rowfirst_fit(pg_schedule *s, const pg_run *run, const int64_t *row_of, int64_t ntiles);
/* What pegemm measured on a GPU of this name (fit_gpus.c): its L2 in bytes
 * and its copy and stream floors in bytes/s; 0 for a GPU it has not run
 * on. */
int64_t fit_gpu_l2(const char *device);
double fit_gpu_copy_floor(const char *device);
double fit_gpu_stream_floor(const char *device);
/* One interval of a traced phase (the measured period's and the `warmup`
 * fit's tile starts). */
typedef struct {
    int32_t sm;
    int64_t begin, end;
    int32_t tile;
} fit_interval;
/* Phase `phase`'s intervals of t, one per (unit, tile) -- the earliest
 * warp's, as the measured period takes them -- in time order per unit, into
 * iv (room for t->n); their count. */
int64_t fit_tile_starts(const pg_trace *t, int phase, fit_interval *iv);
/* Measure a `warmup` line's start-up transient on the calibration's trace
 * (warmup_fit.c); 0 without the line. */
int warmup_fit(pg_schedule *s, const pg_trace *t);
/* The `stretch` overlap, the `storenear` position and the `inflight` count
 * at the calibration (store_lines_fit.c), from the fitted schedule's replay;
 * 0 without the lines. */
int store_lines_fit(pg_schedule *s);
/* A latency the fit read off waits that held under this share of the tiles
 * that saw it is known from its longest values only (fit_evidence.c). */
#define FIT_FEW_BOUND_SHARE 0.10
int fit_latency_is_thin(const sch_dist *d);
/* "NAME (B of S tiles), ..." of s's thin latencies into buf; their count. */
int fit_thin_latencies(const pg_schedule *s, char *buf, size_t cap);
/* A fitted `kblocks` loop whose ring holds the whole tile (count <= stages):
 * every stage was issued before the loop began, so the in-loop load latency
 * the fit solved for is bounded by the slack, not measured (M123).  The
 * sentence into buf and 1, else "" and 0. */
int fit_loop_unmeasured(const pg_schedule *s, char *buf, size_t cap);

#endif
