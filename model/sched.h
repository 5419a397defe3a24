/* The compiled form of a schedule: distributions, roles and steps, and the
 * timed event graph the recurrence runs on.  Internal to model/ (the public
 * API is model.h); the text format is documented in docs/model.md. */
#ifndef PG_SCHED_H
#define PG_SCHED_H

#define SCH_KB_SHIFTS 16 /* kblocks shiftN= for the loop's events N = 1..16 (M46) */

#include <stdint.h>
#include <stdio.h>

#include "dist.h"
#include "model.h"

/* tmaqueue_fit.c's outcome (pg_schedule.tq_fit_state, M120) */
enum { SCH_TQ_SETTLED = 0, SCH_TQ_UNSETTLED = 1 };

#define SCH_NAME 48
#define SCH_MAX_OPTIONS 24
#define SCH_MAX_DISTS 24
#define SCH_MAX_ROLES 6
#define SCH_MAX_STEPS 8
#define SCH_MAX_NODES 160
#define SCH_DQ_MAX 4 /* latencies one `dramq` line scales */
#define SCH_MAX_EDGES 640
#define SCH_MAX_TERMS 3
#define SCH_MAX_OVERRIDES 64
#define SCH_WU_NKEYS 10 /* the gap counts a `warmup` line keeps E at: sch_wu_k */
#define SCH_MAX_IDLE 4
#define SCH_CT_MAX 4 /* `contend` lines */

typedef struct {
    char name[SCH_NAME];
    char value[64];
    char choices[128]; /* "a|b|c" or "" for any number */
    int line;
} sch_option;

typedef enum { STEP_WORK, STEP_WAIT, STEP_DELAY } sch_step_kind;

typedef struct {
    sch_step_kind kind;
    char name[SCH_NAME]; /* a phases.h name for work/wait; "delay" for delays */
    int dist;            /* work: index into dists */
    char spec[256];      /* the rest of the line: "+ TERM" and "until EVENT + TERM" clauses */
    int line;
} sch_step;

typedef struct {
    char name[SCH_NAME];
    int instances;  /* warps (each) or warpgroups taking turns (rotate) */
    int rotate;     /* 1: instance k mod instances runs tile k (ping-pong) */
    int group;      /* warps per CTA: the warp index used by `warp` in delays */
    int nsteps;
    sch_step steps[SCH_MAX_STEPS];
    int node0;      /* first node: node0 + chain * nsteps + step */
    int nchains;    /* node chains: instances (each) or 1 (rotate) */
    int line;
} sch_role;

/* One slot of the per-tile sample vector. */
typedef struct {
    int dist;     /* distribution sampled */
    int instance; /* which warp (for empirical columns), 0 otherwise */
} sch_slot;

typedef enum { EDGE_SEQ, EDGE_DEP, EDGE_BUFFER, EDGE_MEMORY } sch_edge_kind;

/* x[to](k) >= x[from](k - off) + w + sum coef[i] * sample(slot[i], k - off) */
typedef struct {
    int from, to, off;
    double w;
    int nterms;
    int slot[SCH_MAX_TERMS];
    double coef[SCH_MAX_TERMS];
    int toff[SCH_MAX_TERMS]; /* the sample is tile (k - toff)'s */
    int at_node;             /* EVENT was ROLE.STEP@F: that step's node (its start + F x duration), else -1 */
    double at_frac;
    int kb_event;            /* an event on the `kblocks` loop (at_node its step, at_frac > 0): its index, else -1 */
    int at_off;              /* ... of tile k - at_off */
    sch_edge_kind kind;
    int label; /* buffer or memory dist index for naming, -1 */
    int line;
} sch_edge;

typedef struct {
    int role, chain, step;
    int prev, prev_off; /* the node whose time starts this step, and its tile offset */
} sch_node;

/* A `stretch` line (model/stretch.c, stretch_parse.c; the fields of the
 * schedule's comment below). */
#define SCH_ST_MAX 4
#define SCH_CK_MAX 4 /* options and latencies a `clock` line lists */
typedef struct {
    int on, line, dist, by_node, next, fit_slowdown, node;
    double slowdown, overlap;
    double base;            /* base=: LATENCY's mean where nothing overlaps it (NAN: the fit's overlap instead) */
    char spec[2][SCH_NAME]; /* LATENCY, by= */
} sch_stretch;

typedef struct {
    char name[SCH_NAME];
    int count;
    char acquire[2 * SCH_NAME + 2]; /* role.step that waits for a free buffer */
    char release[256];              /* EVENT [+ TERM]... that frees it */
    int line;
} sch_buffer;

/* One `contend` line (contend_parse.c). */
typedef struct {
    int node, by_node; /* the contended step and the `by` step (chain 0 of their rotate role) */
    int slot;          /* the contended step's sample slot (-1: the `kblocks` loop, moved through its compute) */
    int by_slot;       /* the `by` step's sample slot (-1: the `kblocks` loop) */
    int previous;      /* tile=previous: overlap with tile k - 1's `by` step, else tile k + 1's */
    double slowdown, overlap, window;
    double compute; /* compute=: the `by` step's work when it never stalls; 0: every cycle of overlap counts 1 */
    int fit_overlap_only; /* fit=overlap: `pegemm model fit` keeps slowdown (a constant of the SM) */
    /* keep=1: less overlap than `overlap` does not speed the step up (M77);
     * keep=busy: nor does it where the other instance was busy, but the
     * overlap its spins (a probe's constants) take off does (M78) */
    int keep;
    /* solve=tile (M86): tile k's step is solved with its own overlap of tile
     * k + 1's `by` step once that has run (tile=next only), not the running
     * mean; desc: the steps of tile k that follow from it (edges within the
     * tile), in evaluation order, which the engine re-runs after the solve */
    int solve_tile;
    int ndesc;
    int desc[SCH_MAX_NODES];
    int line;
    char spec[2][SCH_NAME]; /* PHASE, by= */
} sch_contend;

enum { SCH_KEEP_NONE = 0, SCH_KEEP_ALL = 1, SCH_KEEP_BUSY = 2 };
enum { SCH_TRAFFIC_DRAM = 0, SCH_TRAFFIC_DRAM_K = 1, SCH_TRAFFIC_KBLOCKS = 2 };

typedef struct {
    char name[SCH_NAME];
    int role, step; /* gap between consecutive tiles' step (start(k) - end(k-1)) */
} sch_idle;

typedef struct {
    char param[SCH_NAME + 16];
    double value;
    int relative;
    int has_dist;  /* a whole fitted distribution for `param` (a dist name) */
    sch_dist dist;
} sch_override;

typedef struct {
    double units;    /* SMs (or clusters) running tiles in parallel */
    double tiles;    /* tiles in the whole problem */
    double clock_hz; /* SM clock the cycles are counted in */
    double flops;    /* work of the whole problem */
    double prologue; /* launch cycles outside the recurrence */
    /* The SM clock the `memory` terms and the `bandwidth` stall were measured
     * at (0: clock_hz).  DRAM latency and bandwidth are fixed in nanoseconds,
     * so at another clock_hz their cycles scale by clock_hz / mem_clock_hz. */
    double mem_clock_hz;
    /* 1: report waits and phases over the whole problem as the kernel runs
     * it (every unit from an empty pipeline: its first and last tiles
     * included, as a trace measures them), not over the steady state only.
     * Fitted schedules set it; the tile period stays the steady state's.
     * It also empties the pipeline at the start: a dependency on a tile
     * before the first is absent (0: charged from time 0 with the current
     * tile's samples, as the seed schedule was calibrated). */
    double whole_run;
} sch_machine;

/* Per-tile rows of a fitted trace, kept together (columns: slots). */
typedef struct {
    int64_t rows;  /* in the order the tiles ran on each SM */
    int cols;
    int block;     /* the Monte Carlo draws runs of this many consecutive rows (serial correlation) */
    /* the first row of each traced SM: with machine whole_run, a unit run
     * from an empty pipeline replays one traced SM's tiles from its first
     * (its start-up tiles included), on through the rows that follow */
    int nunits;
    int64_t unit_first[1024];
    char colname[SCH_MAX_NODES][SCH_NAME + 8];
    double *v; /* [rows * cols] */
} sch_table;

struct pg_schedule {
    char name[SCH_NAME];
    char origin[256]; /* file path or "builtin:NAME" for messages */
    char *text;       /* the source, re-compiled when a structural option changes */
    int noptions;
    sch_option options[SCH_MAX_OPTIONS];
    int noverrides;
    sch_override overrides[SCH_MAX_OVERRIDES];
    sch_table *table; /* owned; NULL unless fitted from a trace */
    /* What the fit did with the `rowfirst` line's option (M146), for its
     * report; kept across recompiles (a what-if's --set of an option
     * recompiles, and the fit's own figures stay): the caller set the option
     * (its value not read off the trace), and the fit measured the extra
     * (else it stays as written). */
    int rf_option_by_caller, rf_extra_fitted;

    /* compiled */
    sch_machine machine;
    /* The schedule's roles and phases (and which are waits): its `roles`,
     * `phases` and `waits` lines, or, in a file without them (written before
     * schedules declared their names), the ones its role and step lines use.
     * Traces are matched to it by name (sched_vocab.c). */
    pg_vocab vocab;
    int vocab_declared;
    int ndists;
    sch_dist dists[SCH_MAX_DISTS];
    int nroles;
    sch_role roles[SCH_MAX_ROLES];
    int nbuffers;
    sch_buffer buffers[SCH_MAX_DISTS];
    int nidle;
    sch_idle idle[SCH_MAX_IDLE];
    int period_role, period_step;
    char period_spec[2 * SCH_NAME + 2];
    char idle_spec[SCH_MAX_IDLE][2 * SCH_NAME + 2];
    int period_line, idle_line[SCH_MAX_IDLE];
    /* `bandwidth PHASE compute= bytes_per_tile= bytes_per_s= calibrated_period=`:
     * PHASE's time above `compute` is memory stall that grows as 1/(1 - rho),
     * rho = the DRAM bandwidth share the kernel uses at its period. */
    int bw_dist;  /* -1: none */
    double bw_compute, bw_bytes_per_tile, bw_bytes_per_s, bw_calibrated_period;
    /* a what-if's tensor-core cycles per tile beyond the calibration's
     * (another K, `pegemm model validate`): added to the phase's mean, the
     * fitted split of that mean into compute and stall left as it is */
    double bw_work;
    /* the bytes per tile the calibrated period was measured at (the fit sets
     * it with bytes_per_tile; a what-if on bytes_per_tile leaves it): the
     * calibration's DRAM share, against which the stall and the `dramq`
     * queue move, is that traffic's, not the what-if's */
    double bw_cal_bytes_per_tile;
    /* cal_units= (docs/experiments.md M104): the SMs the calibrated period
     * was measured on (the fit sets it; 0: the machine's units).  Their
     * traffic, not a what-if's, sets the calibration's share: before M104 a
     * what-if on units moved both shares, so fewer SMs left the stall as it
     * was */
    double bw_cal_units;
    /* floor=device: `pegemm model fit` sets bytes_per_s to the copy floor
     * pegemm measured on the run's GPU, where it knows that GPU (M72) */
    int bw_floor_device;
    /* traffic= (docs/experiments.md M82): what `pegemm model validate` sets
     * bytes_per_tile to for a run of another N or K.  dram (the default):
     * the compulsory DRAM bytes of the run's shape; dram_k: those of the
     * run's K at the calibration's N (the stall does not follow N: pingpong,
     * whose B stages come from L2); kblocks: the fitted bytes x K'/K (the
     * stage ring's reads, which follow the tile's k extent alone) */
    int bw_traffic;
    int bw_line;
    char bw_spec[SCH_NAME]; /* PHASE as written, resolved once the dists are known */
    /* `kblocks PHASE count= stages= compute= issue=ROLE.STEP load=LATENCY
     * release=LATENCY calibrated_mean=` (model/kblocks.c): PHASE's work step
     * runs as COUNT k-block steps, each waiting for its own stage to land
     * (issued when the ring frees its slot), instead of one sampled duration. */
    int kb_node;      /* -1: none */
    int kb_count, kb_stages;
    double kb_compute, kb_calibrated_mean;
    /* 1 once a `kblocks.tile_compute` override set kb_compute as the tile's
     * compute split over count (as `pegemm model fit` sets it), so that a
     * later count (--set kblocks=) splits the same tile work, and the
     * written schedule keeps it that way */
    int kb_tile_form;
    /* queue= (0..1): the share of a k-block load's latency that is queueing
     * in a saturated memory system, which by Little's law grows with the
     * loads in flight: a load issued with n of this SM's loads in flight
     * (itself included) takes latency x (1 - queue + queue x n / inflight);
     * inflight: the mean n at the calibration (set by `pegemm model fit`).
     * queue=0 (default): the latency as replayed (docs/experiments.md M25) */
    double kb_queue, kb_inflight;
    double kb_queue_mean; /* 1: queue= scales by the run's mean loads in flight, not each load's own (M46) */
    /* ring= (0..1): the share of a k-block load's latency that follows the
     * ring's depth at another depth than the calibration's: latency x (1 -
     * ring + ring x stages / ring_stages), ring_stages the depth the fit
     * measured the latency at (set by `pegemm model fit`; 0: none, the
     * share does not act).  At the calibration's depth nothing moves
     * (docs/experiments.md M163-M165) */
    double kb_ring, kb_ring_stages;
    /* wake= (cycles, >= 0): at another depth than ring_stages, a k-block
     * that waited for its stage frees the slot before it `wake` cycles
     * after the landing, not at the landing: its warps wake, issue their
     * wgmmas and arrive, on both CTAs of a pair (M165's clocks: 366-425
     * cycles on a 2-stage ring).  At the calibration's depth the fitted
     * latencies carry it.  0: none */
    double kb_wake;
    /* boundaries=1 (M46): the N-th event ROLE.STEP@F on the loop (edges in
     * order, kb_event = N - 1) with F x count a whole number j is k-block
     * j's start plus kb_shift[N - 1] (shiftN=: the fit's mean offset of the
     * traced fraction, which its hand-over was measured against, from that
     * start), where the loop has the count and stages the fit measured the
     * shifts at (shift_count=, shift_stages=); elsewhere, or without a
     * shift, it stays F x the loop */
    double kb_boundaries;
    double kb_shift[SCH_KB_SHIFTS];
    double kb_shift_count, kb_shift_stages; /* the loop's shape the shifts were measured at (0: none) */
    /* roundtrip= (cycles, >= 0): the consumer's wgmma round trip.  The
     * kernel keeps one group queued behind the running one (wait_group 1),
     * so it issues k-block j's wgmmas only once k-block j - 2's retired:
     * j's compute starts no earlier than roundtrip after j - 2's compute
     * ended.  0 (default): no floor (docs/experiments.md M29) */
    double kb_roundtrip;
    /* fifo= (cycles, >= 0): the SM serves its ring's loads in the order it
     * issued them, one every `fifo` cycles at most: a load lands no sooner
     * than that after the load issued before it (the loop's own, and the
     * previous tile's for its first in-loop one).  M119's clocks: 450 on
     * every pingpong run, spins and delays alike.  0 (default): off */
    double kb_fifo;
    /* fixed= (cycles, >= 0): what a loop spends besides its k-blocks and
     * their stalls, once per tile (first issue to the tensor cores' start,
     * the last group's retire to the release of its stage).  A load-bound
     * loop's calibration books it as load stall; a loop whose loads land
     * sooner (a fuller ring, shorter k-blocks) would lose it.  `pegemm model
     * fit` measures it on a line that names it (kb_fixed_named): the low
     * tail of the traced loop less its stall-free chain (M36).  0 (default):
     * none */
    double kb_fixed;
    int kb_fixed_named;
    /* fixed_mode=1 (M95): the fit takes fixed= as the commonest value of
     * the low tail (tiles at or below its 25th percentile, 10-cycle windows),
     * the cycles a loop with nothing to wait for typically spends, not the
     * 0.1th percentile (its rare fastest tiles).  0 (default): the 0.1th
     * percentile */
    double kb_fixed_mode;
    int kb_issue_node; /* the issuing step: its start issues k-block 0 */
    int kb_phase_slot, kb_load_slot, kb_release_slot;
    int kb_line;
    char kb_spec[512]; /* the line after `kblocks`, resolved once the graph is built */
    /* `contend PHASE by=PHASE [tile=next|previous] slowdown=C overlap=OV
     * window=W` lines (model/contend.c), at most SCH_CT_MAX, one per PHASE:
     * PHASE's work moves by C x (its overlap with the next (previous)
     * tile's `by` step, averaged over the last W tiles, - OV). */
    int nct;
    sch_contend ct[SCH_CT_MAX];
    /* `tmaqueue PHASE after=STEP window=LATENCY penalty=C` (model/tmaqueue.c):
     * a k-block load of PHASE's loop issued while the previous tile's STEP
     * (the other warpgroup's TMA store) is in the SM's TMA queue -- from that
     * step's start for WINDOW cycles -- lands C cycles later. */
    int tq_on; /* 0: none */
    int tq_after_node, tq_win_slot;
    double tq_penalty;
    int tq_line;
    /* `pegemm model fit`'s penalty (tmaqueue_fit.c, M120): SCH_TQ_SETTLED
     * where its fixed point settled (or was not run), SCH_TQ_UNSETTLED where
     * the window's excess did not fall and the written penalty was kept;
     * then the excess left (cycles) at the penalty the steps reached */
    int tq_fit_state;
    double tq_fit_excess, tq_fit_reached;
    char tq_spec[3][SCH_NAME]; /* PHASE, after=, window= */
    /* `storewin PHASE after=STEP span=S gain=G [fit=0|1] [on=0|1]
     * [load_gain=G' [load_span=S']]` (model/storewin.c, docs/experiments.md
     * M99, M174): PHASE's k-block loop runs G cycles longer per cycle it
     * overlaps the S cycles from the start of the previous tile's STEP (the
     * other warpgroup's D store, the drain of its shared-memory staging and
     * the combined load after it); with load_gain > 0 instead each in-loop
     * load runs G' cycles longer per cycle of its flight inside S' (or S). */
    int wn_line, wn_on, wn_fit, wn_after_node;
    double wn_span, wn_gain; /* the loop-level window (M99) */
    double wn_load_gain, wn_load_span; /* load_gain > 0: the window on each load instead (M174); span 0: span */
    char wn_spec[2][SCH_NAME]; /* PHASE, after= */
    /* `dramq LATENCY... qscale= bytes_per_s= cal_bytes_per_s= clock_cal= on=`
     * (model/dramq.c): the listed load latencies held in ns (from clock_cal)
     * and scaled by a DRAM queue, (1 + q rho/(1 - rho)), against the
     * calibration's rho; replaces the `bandwidth` line's stall shift. */
    int dq_on, dq_line, dq_n, dq_rho_set;
    int dq_dist[SCH_DQ_MAX];
    char dq_spec[SCH_DQ_MAX][SCH_NAME];
    double dq_qscale, dq_bytes_per_s, dq_cal_bytes_per_s, dq_clock_cal;
    double dq_rho; /* the DRAM share the prediction runs at (dq_rho_set) */
    /* `colshare LATENCY... blocks=B cal_blocks=B0 ratio=R [whole=0|1] [on=0|1]`
     * (model/colshare.c, docs/experiments.md M83): the CTAs of one row
     * block (B column blocks) read its A block once from DRAM, the rest hit
     * the L2, so the listed A loads take (1/B + (1 - 1/B) R) of a DRAM
     * read, moved by that over the calibration's (B0): R an L2 hit's
     * latency over a DRAM read's.  `pegemm model fit` sets both B and B0 to
     * the run's N / tile_n; `validate` sets B to another run's.  whole=0
     * (M110): on a `kblocks` line's load the factor moves only the part
     * of its latency that line's queue= does not queue (1, the default:
     * the whole latency, M83). */
    int cs_line, cs_on, cs_n;
    int cs_dist[SCH_DQ_MAX];
    char cs_spec[SCH_DQ_MAX][SCH_NAME];
    double cs_blocks, cs_cal_blocks, cs_ratio, cs_whole;
    /* `rowfirst LATENCY... blocks=B cal_blocks=B0 extra=E [next=0|1] [fit=0|1] [on=0|1]`
     * (model/rowfirst.c, docs/experiments.md M96): the kernel does E more
     * cycles of the listed latency (pingpong's producer: its L2 prefetch of
     * the tile's A) on a row block's first column tile, the tiles whose
     * index is a multiple of B (B column blocks per row).  `pegemm model fit`
     * sets B and B0 to the run's N / tile_n, keeps each row's traced tile
     * (the table column "@rf:LATENCY"; next=1: the SM's next tile, for a
     * gap that precedes it) and, fit=1, measures E; `validate` sets B to
     * another run's. */
    int rf_line, rf_on, rf_n, rf_fit, rf_next;
    int rf_dist[SCH_DQ_MAX];
    char rf_spec[SCH_DQ_MAX][SCH_NAME];
    double rf_blocks, rf_cal_blocks, rf_extra;
    /* option=NAME (M146): the option the fit sets from the fitted extra, 1 over
     * `above` cycles ("": none) */
    char rf_option[SCH_NAME];
    double rf_above;
    /* prefetch=P (M148): the cycles a build that prefetches (kernel name
     * token "pfD", D >= 1) spends in the listed latency before a row-first
     * tile where one that does not spends none (0: the line knows no such
     * build); added=X: cycles added on each row-first tile beyond the
     * calibration's, at the run's B (validate sets it for a prefetch build
     * predicted from a calibration without, or the reverse);
     * prefetch_all=P0 (M156): the cycles such a build spends in the listed
     * latency before every tile, row-first or not (its producer's check
     * for a tile to prefetch), and added_all=X0 what validate adds there */
    double rf_prefetch, rf_added, rf_prefetch_all, rf_added_all;
    /* `l2reuse LATENCY... bytes=C ratio=R full=F cal_bytes=W0 on=0|1`
     * (model/l2reuse.c): a run whose working set W (the `bandwidth` line's
     * compulsory bytes per tile x tiles) the L2 of C bytes keeps between
     * back-to-back launches reads it there: the listed latencies move toward
     * R x theirs, and the start-up swing (`warmup`) shrinks, by the share h
     * of W kept, against the calibration's (W0). */
    int l2_on, l2_line, l2_n;
    int l2_dist[SCH_DQ_MAX];
    char l2_spec[SCH_DQ_MAX][SCH_NAME];
    double l2_bytes, l2_ratio, l2_full, l2_cal_bytes;
    /* `stretch LATENCY by=STEP slowdown=C overlap=OV [on=0|1]` (model/
     * stretch.c): the latency, where an edge adds it to an event of tile
     * k's wait, lasts C x (its overlap with the previous tile's STEP's work,
     * - OV) longer (bres's store drain, reading shared memory beside the
     * other warpgroup's wgmma; M55, M66).  OV: the calibration's mean.
     * tile=next (M92): against the next tile's STEP instead, the latency
     * being a delay step's (sch_stretch.node) that ends before that work is known;
     * fit=slowdown: the fit measures C too. */
    sch_stretch st[SCH_ST_MAX]; /* one per line, each on its own latency */
    int nst;
    /* `clock [LATENCY...] exponent=E rest=R rate=G fmax=HZ compute=C
     * by=OPT[,OPT...] cal_period=P cal_compute=C0 cal_clock=HZ0 [iter=N]
     * [on=0|1]` (model/clock_parse.c; the law in predict_clock.c, M179): the
     * SM clock at the power cap, f = min(HZ, HZ0 (x / x0)^-E), x = (C + G
     * C0) / period + R (x0 the same at the calibration's period P), and the
     * share of it the listed options (the kernel's delays) move held in ns:
     * the machine clock and the listed latencies scaled by f / f_base. */
    int ck_on, ck_line, ck_n, ck_nby;
    int ck_dist[SCH_CK_MAX];
    double ck_exponent, ck_rest, ck_rate, ck_fmax, ck_compute, ck_cal_period, ck_cal_compute, ck_cal_clock, ck_iter;
    char ck_spec[SCH_CK_MAX][SCH_NAME], ck_by[SCH_CK_MAX][SCH_NAME];
    /* `storenear LATENCY store=STEP back=B gain=G far=F near=N [after=A
     * fall=E] window=W [cal=P] [on=0|1]` (model/storenear.c): the latency (a
     * tile's first load, from its issue) is L0 (1 + G r(m)), m the running
     * mean over W tiles of where tile k - B's STEP (the same warpgroup's D
     * store) began relative to tile k's issue, r a ramp from 0 at F to 1 at
     * N cycles, then down to A at E (M64, M66, M68, M69).  P: the
     * calibration's mean, whose samples carry r(P).  own=1 (M88): the
     * tile's own position instead of the running mean, against its traced
     * row's own (the table column "@sn:LATENCY"), not P. */
    int sn_on, sn_line, sn_dist, sn_store_node, sn_back, sn_own;
    double sn_gain, sn_far, sn_near, sn_after, sn_fall, sn_window, sn_cal;
    char sn_spec[2][SCH_NAME]; /* LATENCY, store= */
    /* `inflight LATENCY share=F stages=S [cal=N] [on=0|1]` (model/inflight.c,
     * M115): LATENCY's sample moves by (1 - F + F n / N), n = 1 + the
     * `kblocks` loop's loads of the two tiles before still in flight at its
     * issue, N the calibration's mean n; nothing at a ring depth other than
     * S. */
    int if_on, if_line, if_dist, if_stages;
    double if_share, if_cal;
    char if_spec[SCH_NAME]; /* LATENCY */
    /* `streamwall LATENCY... bytes_per_s=B [copy_bytes_per_s=C
     * write_bytes=W] [floor=device|written] [on=0|1]` (model/streamwall.c):
     * the period is at least the `bandwidth` line's bytes per tile x units x
     * clock / the DRAM floor at the traffic's write share (B, the stream
     * floor, at 2/3 and more written; C, the copy floor, at 1/2 and less; W
     * of the bytes per tile written); below it the listed loads wait longer,
     * by the common factor sw_scale >= 1 (set on the equilibrium's copy by
     * predict.c; 1 elsewhere). */
    int sw_on, sw_line, sw_n, sw_floor_device;
    int sw_dist[SCH_DQ_MAX];
    char sw_spec[SCH_DQ_MAX][SCH_NAME];
    double sw_bytes_per_s, sw_copy_bytes_per_s, sw_write_bytes, sw_scale;
    /* `warmup tiles=T total=E eK=E(K)...` (model/warmup.c): the calibration's
     * start-up transient.  E(K) = the sum of a unit's first K tile gaps (the
     * period step's starts) less K steady periods (the mean gap of the
     * units' second halves), averaged over the units; T the calibration's
     * tiles per unit, E = E over all its gaps.  A run with T' tiles per unit
     * has its period moved by E(T'-1)/(T'-1) - E/(T-1).  tiles=0: none. */
    int wu_line;
    double wu_tiles, wu_total;
    double wu_e[SCH_WU_NKEYS]; /* E(sch_wu_k[i]); NAN: not measured */
    /* With machine whole_run: when each role's first tile may start, from
     * an option `ROLE_start` (cycles after the unit starts; 0 without one).
     * In the kernel the warps set up (barriers, descriptors) before their
     * first tile; `pegemm model fit` reads it off the trace. */
    double role_start[SCH_MAX_ROLES];
    /* ... and when its first traced step begins (option `ROLE_setup`: the
     * set-up before it is not traced; 0 without one) */
    double role_setup[SCH_MAX_ROLES];
    int nnodes;
    sch_node nodes[SCH_MAX_NODES];
    int nedges;
    sch_edge edges[SCH_MAX_EDGES];
    int nslots;
    sch_slot slots[SCH_MAX_NODES];
    int maxoff;
    int topo[SCH_MAX_NODES];  /* evaluation order within a tile (offset-0 edges acyclic) */
    int in_begin[SCH_MAX_NODES + 1]; /* edges sorted by `to`: in_edges of v = [in_begin[v], in_begin[v+1]) */
    int in_edge[SCH_MAX_EDGES];
};

/* Compile s->text with s->options into the fields above, then apply
 * s->overrides.  -1 with "origin:line: problem". */
int sch_compile(pg_schedule *s);
/* The node of (role, chain, step). */
static inline int sch_node_of(const pg_schedule *s, int role, int chain, int step)
{
    return s->roles[role].node0 + chain * s->roles[role].nsteps + step;
}
/* Is edge e a floor of the step it leads to: a dependency on the step's
 * own start (the end of the step before it, the previous tile's last step
 * for a role's first step), not an event at a fraction of a step?  A wait
 * with a floor cannot end sooner than that latency after it began
 * (load_floor; pingpong's producer_floor, M113). */
static inline int sch_edge_is_floor(const pg_schedule *s, const sch_edge *e)
{
    const sch_node *to = &s->nodes[e->to];
    return e->kind != EDGE_SEQ && e->from == to->prev && e->off == to->prev_off && e->at_node < 0;
}
/* "role.step" of a node, for messages and cycle names. */
void sch_node_name(const pg_schedule *s, int node, char *buf, int n);
/* Find a distribution by name, -1 if none. */
int sch_find_dist(const pg_schedule *s, const char *name);
/* Read the `option` lines of s->text into s->options (defaults). */
int sch_load_options(pg_schedule *s);
/* Make the distributions that have columns in s->table empirical (fit.c). */
int sch_attach_table(pg_schedule *s);
/* The table column of (phase distribution, instance), -1 if none. */
/* solve=tile: the name and column (-1: none) of contend line `line`'s
 * per-row overlaps in the fitted table (contend_table_fit.c sets them) */
void sch_table_contend_name(const sch_contend *c, char *out, size_t n);
int sch_table_contend_column(const pg_schedule *s, int line);
/* storenear own=1: the table column of the rows' traced store positions
 * ("@sn:LATENCY"), -1 if the table has none */
void sch_table_storenear_name(const pg_schedule *s, char *out, size_t n);
int sch_table_storenear_column(const pg_schedule *s);
/* rowfirst: the table column of the rows' traced tile indices
 * ("@rf:LATENCY"), -1 if the table has none */
void sch_table_rowfirst_name(const pg_schedule *s, char *out, size_t n);
int sch_table_rowfirst_column(const pg_schedule *s);
/* the table's column named `name` (added if absent), NAN in every row:
 * its index, -1 on error */
int sch_table_fresh_column(pg_schedule *s, const char *name);
int sch_table_column(const pg_schedule *s, int dist, int instance);
/* Replace distribution d->name by *d (fitted first), recorded as an
 * override so recompiles keep it; replaces an earlier one for that name. */
int sch_set_dist(pg_schedule *s, const sch_dist *d);
/* Apply one override to the compiled distributions/machine. */
int sch_apply_override(pg_schedule *s, const sch_override *o);
/* Has a --set / --delta / --variant (or the fit) set PARAM, e.g.
 * "storewin.load_gain"?  0: no; 1: to a number (an absolute override, with
 * any relative ones after it); 2: by relative overrides alone, *delta their
 * sum (delta may be NULL). */
int sch_overridden(const pg_schedule *s, const char *param, double *delta);
/* A line's KEY=TEXT token TOK written back, VALUE the key's value now:
 * an expression of the options ('$' in TEXT) as written where no override
 * set PARAM, as (TEXT)+SUM where only relative ones did, so that it follows
 * the options a later fit or run sets (h100-pingpong's $kblocks,
 * $rowfirst_prefetch: M175); otherwise, and for a plain number, VALUE. */
void sch_write_key(FILE *f, const pg_schedule *s, const char *param, const char *tok, double value);
/* ... where the caller knows how it was overridden (HOW, DELTA as
 * sch_overridden gives them) */
void sch_write_key_as(FILE *f, const char *tok, int how, double delta, double value);
/* A line's write-back keeps its trailing comment at the end, after any keys
 * it adds, and reads no key in it: sch_cut_comment ends TEXT at its '#'
 * and returns what followed (NULL: none); sch_end_line writes that back
 * and the newline. */
char *sch_cut_comment(char *text);
void sch_end_line(FILE *f, const char *comment);

/* For a schedule with a `bandwidth` line, a clone whose phase mean is at the
 * bandwidth equilibrium (predict.c); a plain clone otherwise. */
int sch_bandwidth_equilibrium(const pg_schedule *s, const pg_model_opts *o, pg_schedule **out, double *rho,
                              double *mean);

/* The schedule's optional lines (`bandwidth`, `kblocks`, ...), one row each
 * in sched_lines.c: sched_parse.c, sched.c and sched_write.c dispatch on the
 * directive name through it, so a new line is its own LINE_parse.c (and
 * LINE.c, LINE_fit.c) plus a row there and one in fit_lines.c.  Every hook
 * returns 0 (or, for write, 0: nothing written) when s has no such line. */
typedef struct {
    const char *name; /* the directive */
    /* the line's tokens (tok[0] is the directive) and its text, $options
     * substituted; -1 with "origin:line: problem" */
    int (*parse)(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line);
    /* once the graph is built, before its nodes are ordered (may add sample
     * slots); NULL: nothing to do.  Rows run in table order. */
    int (*resolve_graph)(pg_schedule *s);
    /* once the nodes are ordered; NULL: nothing to do.  Rows run in table order. */
    int (*resolve)(pg_schedule *s);
    /* a `NAME.stat=` setting (value, or + value when relative); NULL: none */
    int (*override)(pg_schedule *s, const char *stat, int relative, double value, const char *param);
    /* write the line back with its fitted numbers (1), 0 to keep it as
     * written; `text` is the line as written (may be modified) */
    int (*write)(FILE *f, const pg_schedule *s, char *text);
} sch_line;
extern const sch_line sch_lines[];
extern const int sch_nlines;
/* The row of directive `name`, NULL if it is not an optional line. */
const sch_line *sch_line_find(const char *name);

/* `KEY=VALUE` tokens of a line, from tok[from] on (sched_parse.c): the value
 * of `key` (NULL if absent); a check that each token's KEY is one of `keys`
 * (NULL-terminated); `key`'s value evaluated (1, 0 if absent, -1 on a bad
 * value).  Errors are "origin:line: problem". */
const char *sch_kv(const char *const *tok, int ntok, int from, const char *key);
int sch_kv_check(pg_schedule *s, const char *const *tok, int ntok, int from, const char *const *keys, int line);
int sch_kv_num(pg_schedule *s, const char *const *tok, int ntok, int from, const char *key, double *out, int line);

/* The `bandwidth` line (bandwidth_parse.c). */
int sch_bandwidth_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line);
int sch_bandwidth_resolve(pg_schedule *s);
int sch_bandwidth_override(pg_schedule *s, const char *stat, int relative, double value, const char *param);
int sch_bandwidth_write(FILE *f, const pg_schedule *s, char *text);
/* the SMs the calibration's DRAM share is taken over: cal_units=, else the machine's */
double sch_bandwidth_cal_units(const pg_schedule *s);
/* The `kblocks` line (kblocks_parse.c): keep its spec; resolve it against
 * the built graph; check, once the nodes are ordered, that the loop can read
 * its issuing step's start; `kblocks.KEY` overrides; write-back. */
int sch_kblocks_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line);
int sch_kblocks_resolve(pg_schedule *s);
int sch_kblocks_check_order(pg_schedule *s);
int sch_kblocks_override(pg_schedule *s, const char *stat, int relative, double value, const char *param);
int sch_kblocks_write(FILE *f, const pg_schedule *s, char *text);
/* The role and step of the first work step named `name` (0), -1 if no role
 * has one. */
int sch_find_work(const pg_schedule *s, const char *name, int *role, int *step);
/* The `contend` lines (contend_parse.c): parse, resolve against the built
 * graph, `contend.KEY` (the first line) and `contend.PHASE.KEY` overrides,
 * write-back of every line. */
int sch_contend_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line);
int sch_contend_resolve(pg_schedule *s);
int sch_contend_override(pg_schedule *s, const char *stat, int relative, double value, const char *param);
int sch_contend_write(FILE *f, const pg_schedule *s, char *text);
/* The `tmaqueue` line (tmaqueue.c): parse its tokens (after the directive),
 * resolve it once the k-block loop is, apply a `tmaqueue.penalty` override
 * (its fit: fit.h), write it back. */
int sch_tmaqueue_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line);
int sch_tmaqueue_resolve(pg_schedule *s);
int sch_tmaqueue_override(pg_schedule *s, const char *stat, int relative, double value, const char *param);
int sch_tmaqueue_write(FILE *f, const pg_schedule *s, char *text);
/* The `storewin` line (storewin_parse.c): parse its tokens, resolve it once
 * the k-block loop is, `storewin.KEY` overrides, write-back with the fitted
 * gain (its engine part: engine.h; its fit: fit.h). */
int sch_storewin_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line);
int sch_storewin_resolve(pg_schedule *s);
int sch_storewin_override(pg_schedule *s, const char *stat, int relative, double value, const char *param);
int sch_storewin_write(FILE *f, const pg_schedule *s, char *text);
/* The `dramq` line (dramq_parse.c): parse its tokens (after the directive),
 * resolve it once the `bandwidth` line is, apply a `dramq.KEY` override (its
 * engine part: engine.h; its fit: fit.h). */
int sch_dramq_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line);
int sch_dramq_resolve(pg_schedule *s);
int sch_dramq_override(pg_schedule *s, const char *stat, int relative, double value, const char *param);
/* A line that lists latencies by name and takes NAME=NUMBER keys
 * (sched_latline.c; `l2reuse`, `colshare`, `rowfirst`): its names go to
 * spec[*n] (at most max), each key must be one of keys (seen[its index]
 * set), its value a number key_ok accepts, which set_key stores and
 * get_key reads back (a `LINE.KEY=` override, relative or not).  Messages
 * name `what` and the schedule's line.  sch_latline_key: the index of
 * NAME=VALUE's key in keys, or -1. */
typedef struct {
    const char *what;        /* the directive */
    const char *const *keys; /* NULL-terminated */
    const char *expected;    /* the keys, for "expected ..." */
    const char *range;       /* the keys' ranges, for "out of range ..." */
    int (*key_ok)(const char *key, double v);
    void (*set_key)(pg_schedule *s, const char *key, double v);
    double (*get_key)(const pg_schedule *s, const char *key);
    char (*spec)[SCH_NAME];
    int *n;
    int max;
} sch_latline;
int sch_latline_parse(pg_schedule *s, const sch_latline *d, const char *const *tok, int ntok, int line, int *seen);
int sch_latline_key(const char *const *keys, const char *tok);
/* The line's text written back (tokens split on blanks in place): each
 * KEY=VALUE whose value_of(s, KEY) is a field as sch_write_key writes it
 * (its override WHAT.KEY: an expression of the options no override set
 * stays), a switch (value_of NULL) an override set as get_key's value,
 * every other token as written; returns the keys seen (bit k: keys[k]). */
unsigned sch_latline_write(FILE *f, char *text, const char *what, const char *const *keys,
                           const double *(*value_of)(const pg_schedule *s, const char *key),
                           double (*get_key)(const pg_schedule *s, const char *key), const pg_schedule *s);
/* The line's listed names (spec[0..n)) as distributions into dist[]: each
 * must be a `latency` or `memory` line, else "origin:line: WHAT: 'NAME' is
 * not ..." and -1. */
int sch_latline_resolve(pg_schedule *s, const char *what, int line, char (*spec)[SCH_NAME], int n, int *dist);
/* A `WHAT.STAT=value` override of the line (present: the schedule has
 * one): STAT one of its keys, the value (added to get_key's with
 * relative) within key_ok's range, stored by set_key; else -1 with
 * "'PARAM': WHAT takes KEY, KEY, ..." or "... is out of range RANGE". */
int sch_latline_override(pg_schedule *s, const sch_latline *d, int present, const char *stat, int relative,
                         double value, const char *param);
/* The `colshare` line (colshare_parse.c): parse, resolve the listed
 * latencies, `colshare.KEY` overrides, write-back. */
int sch_colshare_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line);
int sch_colshare_resolve(pg_schedule *s);
int sch_colshare_override(pg_schedule *s, const char *stat, int relative, double value, const char *param);
int sch_colshare_write(FILE *f, const pg_schedule *s, char *text);
/* The `rowfirst` line (rowfirst_parse.c): parse, resolve the listed
 * latencies, `rowfirst.KEY` overrides, write-back. */
int sch_rowfirst_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line);
int sch_rowfirst_resolve(pg_schedule *s);
int sch_rowfirst_override(pg_schedule *s, const char *stat, int relative, double value, const char *param);
int sch_rowfirst_write(FILE *f, const pg_schedule *s, char *text);
/* The `l2reuse` line (l2reuse_parse.c): parse, resolve against the
 * `bandwidth` line and the listed latencies, `l2reuse.KEY` overrides,
 * write-back (its engine part: engine.h; its fit: fit.h). */
int sch_l2reuse_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line);
int sch_l2reuse_resolve(pg_schedule *s);
int sch_l2reuse_override(pg_schedule *s, const char *stat, int relative, double value, const char *param);
int sch_l2reuse_write(FILE *f, const pg_schedule *s, char *text);
/* The `clock` line (clock_parse.c): parse, resolve its options and
 * latencies, `clock.KEY` overrides, write-back with the fitted cal_*. */
int sch_clock_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line);
int sch_clock_resolve(pg_schedule *s);
int sch_clock_override(pg_schedule *s, const char *stat, int relative, double value, const char *param);
int sch_clock_write(FILE *f, const pg_schedule *s, char *text);
/* The `stretch` and `storenear` lines (stretch.c, storenear.c): parse their
 * tokens, resolve them once the graph is built, apply `LINE.KEY`
 * overrides, write them back with their fitted calibration points. */
int sch_stretch_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line);
int sch_stretch_resolve(pg_schedule *s);
int sch_stretch_override(pg_schedule *s, const char *stat, int relative, double value, const char *param);
int sch_stretch_write(FILE *f, const pg_schedule *s, char *text);
int sch_storenear_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line);
int sch_storenear_resolve(pg_schedule *s);
int sch_storenear_override(pg_schedule *s, const char *stat, int relative, double value, const char *param);
int sch_storenear_write(FILE *f, const pg_schedule *s, char *text);
/* The `inflight` line (inflight_parse.c): parse, resolve (its latency, the
 * `kblocks` loop), `inflight.KEY` overrides, write-back (its engine part:
 * engine.h; its fit: store_lines_fit.c). */
int sch_inflight_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line);
int sch_inflight_resolve(pg_schedule *s);
int sch_inflight_override(pg_schedule *s, const char *stat, int relative, double value, const char *param);
int sch_inflight_write(FILE *f, const pg_schedule *s, char *text);
/* The `streamwall` line (streamwall_parse.c): parse, resolve against the
 * `bandwidth` line and the listed latencies, `streamwall.KEY` overrides,
 * write-back (its engine part: engine.h; its fit: fit_lines.c). */
int sch_streamwall_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line);
int sch_streamwall_resolve(pg_schedule *s);
int sch_streamwall_override(pg_schedule *s, const char *stat, int relative, double value, const char *param);
int sch_streamwall_write(FILE *f, const pg_schedule *s, char *text);
/* The `warmup` line (warmup_parse.c): parse, `warmup.KEY` overrides
 * (tiles, total, eK), write-back; the gap counts its eK keys name (its
 * engine part: engine.h; its fit: fit.h). */
extern const int sch_wu_k[SCH_WU_NKEYS];
int sch_warmup_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line);
int sch_warmup_override(pg_schedule *s, const char *stat, int relative, double value, const char *param);
int sch_warmup_write(FILE *f, const pg_schedule *s, char *text);
/* The sample slot of (dist, instance), made if new; -1 if the table is full. */
int sch_slot_of(pg_schedule *s, int dist, int instance);

/* The factor a sample of distribution d is multiplied by: clock_hz /
 * mem_clock_hz for `memory` terms (time fixed in ns), 1 for the rest. */
double sch_dist_scale(const pg_schedule *s, int d);
/* clock_hz / mem_clock_hz (1 when mem_clock_hz is not set). */
double sch_mem_clock_ratio(const pg_schedule *s);

/* The vocabulary lines (`roles`, `phases`, `waits`), read before the rest
 * of the text is compiled (sched_vocab.c). */
int sch_vocab_load(pg_schedule *s);
/* After the roles and steps are parsed: a declared vocabulary must be the
 * one the schedule uses; an undeclared one becomes it. */
int sch_vocab_finish(pg_schedule *s);
/* The directive is a vocabulary line (compiled by sch_vocab_load). */
int sch_vocab_line(const char *directive);
/* Does the schedule know role / phase `name`?  -1 with
 * "origin:line: unknown ... (this schedule declares: ...)" if not. */
int sch_vocab_need_role(const pg_schedule *s, const char *name, int line);
int sch_vocab_need_phase(const pg_schedule *s, const char *name, int line);
/* The trace code of schedule role r / of a step's phase name, -1 if the
 * trace's vocabulary has no such name. */
int sch_trace_role(const pg_schedule *s, const pg_trace *t, int r);
int sch_trace_phase(const pg_trace *t, const char *phase);

/* Built-in schedule texts (generated from model/schedules/ at build time). */
const char *sch_builtin_text(const char *name);
const char *sch_builtin_names(void); /* "b200-seed, h100-pingpong" */

#endif
