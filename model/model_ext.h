/* More of the cycle model's API: schedules as text, sweeps, and the seed's
 * calibration rows.  (model.h keeps the interface others code against;
 * these are used by the model CLI, its tests and verify/ if it wants them.) */
#ifndef PG_MODEL_EXT_H
#define PG_MODEL_EXT_H

#include <stdio.h>

#include "model.h"

int pg_schedule_load_text(const char *text, const char *origin, pg_schedule **out);
int pg_schedule_clone(const pg_schedule *s, pg_schedule **out);
/* pg_schedule_fit_as with "PARAM=VALUE" assignments made to the schedule
 * before it is fitted (a model variant: what the fit calibrates is then
 * calibrated with it; a fitted statistic it sets is replaced by the fit). */
int pg_schedule_fit_variant(const pg_run *run, const char *schedule, const char *const *sets, int nsets,
                            pg_schedule **out);
/* The model's simulated run of s: every SM of its machine through its
 * share of the tiles, from an empty pipeline, at the bandwidth equilibrium,
 * with measured's kernel and GPU record (NULL: none; the trace names the
 * schedule), the what-if's delays and the model's clock (fit_simrun.c).
 * out is the caller's to pg_run_free; nothing to free on failure. */
int pg_model_simulate_run(const pg_schedule *s, const pg_model_opts *o, const pg_run *measured, pg_run *out);
/* The schedule as .sched text with its current options, machine and
 * distributions (trace-fitted ones written as fitted summaries). */
int pg_schedule_write(const pg_schedule *s, FILE *f, const char *comment);
int pg_schedule_save(const pg_schedule *s, const char *path, const char *comment); /* atomic */
const char *pg_schedule_text(const pg_schedule *s);

/* ---- sweeps: vary one parameter, find where things change */
#define PG_SWEEP_MAX_POINTS 1000
#define PG_SWEEP_MAX_EVENTS 32

typedef struct {
    double x;        /* where (interpolated between the two points around it) */
    char what[160];  /* "epi_wait turns off", "bottleneck: buffer acc -> memory first_load" */
} pg_sweep_event;

typedef struct {
    char param[64];
    int npoints;
    double *x;                  /* [npoints] */
    pg_prediction *pred;        /* [npoints] */
    int nevents;
    pg_sweep_event events[PG_SWEEP_MAX_EVENTS];
} pg_sweep;

/* A wait counts as "on" above this many cycles or this share of the period. */
#define PG_WAIT_ON_CYCLES 25.0
#define PG_WAIT_ON_SHARE 0.01

/* param: any --set PARAM (a numeric option, PHASE.STAT, machine key); values
 * from..to in npoints steps (absolute).  Each point uses the same seed
 * (common random numbers), so differences between points are not noise. */
int pg_model_sweep(const pg_schedule *s, const char *param, double from, double to, int npoints,
                   const pg_model_opts *o, pg_sweep *out);
void pg_sweep_free(pg_sweep *sw);

/* ---- the seed's calibration rows (b200-calibration.csv) */
typedef struct {
    char experiment[32], state[128], release_after[16], notes[128];
    int epilogue_warps;
    /* NAN where the log reports nothing */
    double kloop, tma0_wait, epi_wait, phase1, phase2, ml_wait, tile, wall_ms, regs;
} pg_seed_row;

#define PG_SEED_MAX_ROWS 64
int pg_seed_read_csv(const char *path, pg_seed_row *rows, int max, int *n);
/* A b200-seed schedule for one row: the row's busy phases (kloop, phase1,
 * phase2; a missing one taken from the nearest row, said in *note), its
 * structure (release point, epilogue warps, stagger from F31 on), and the
 * log's spreads.  The caller frees *out. */
int pg_seed_row_schedule(const pg_seed_row *rows, int n, int i, pg_schedule **out, char *note, int note_n);

/* ---- the H100 --epi-delay sweep: fit on the zero-delay run, predict all */
#define PG_DELAYS_MAX 64
typedef struct {
    int n;     /* runs, sorted by delay */
    int base;  /* index (before sorting) of the zero-delay run the fit used */
    double delay[PG_DELAYS_MAX], meas_period[PG_DELAYS_MAX], pred_period[PG_DELAYS_MAX];
    double meas_idle[PG_DELAYS_MAX], pred_idle[PG_DELAYS_MAX];
    /* delay at which tensor_idle has grown by 10% of the zero-delay period */
    double onset_measured, onset_predicted;
    /* added: the SM clock each run measured (predictions use it: DRAM time is
     * fixed in ns, so the model's memory terms scale with it) */
    double clock_hz[PG_DELAYS_MAX];
    /* 1 when the runs sweep --mainloop-delay (delay[] holds it; the onset is
     * then where the tile period has grown by 10% of the zero-delay period:
     * the consumer's own chain taking over), 0 for --epi-delay */
    int mainloop;
} pg_delay_check;

/* Fit on the zero-delay run; predict each run at its delay (at the fitted
 * run's clock: the memory terms stay in cycles, docs/experiments.md M6). */
int pg_model_validate_delays(const char *const *paths, int n, const pg_model_opts *o, pg_delay_check *out);
/* The same; at_run_clock = 1 predicts each run at its own measured SM clock
 * with the memory terms (first_load, the bandwidth stall) held in ns:
 * mem_clock_hz = the fitted run's clock, clock_hz = the run's. */
/* ... fitting `schedule` (a built-in name or a .sched file; NULL: the one
 * the zero-delay run names, pg_run_schedule_name) */
int pg_model_validate_delays_as(const char *const *paths, int n, const pg_model_opts *o, int at_run_clock,
                                const char *schedule, pg_delay_check *out);
int pg_model_validate_delays_ex(const char *const *paths, int n, const pg_model_opts *o, int at_run_clock,
                                pg_delay_check *out);

#endif
