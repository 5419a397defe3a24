/* The cycle model's public API (used by the CLI, verify/ and the tests).
 * A schedule is data (model/schedules/NAME.sched); the model turns a schedule
 * plus phase-duration distributions into waits, tile period, wall clock. */
#ifndef PG_MODEL_H
#define PG_MODEL_H

#include <stdint.h>

#include "phases.h"
#include "runfile.h"

typedef struct pg_schedule pg_schedule; /* opaque: roles, phases, buffers, distributions */

/* Load a built-in schedule by name ("b200-seed", "h100-pingpong") or a
 * schedule file by path.  -1 with a message (file, line, problem). */
int pg_schedule_load(const char *name_or_path, pg_schedule **out);
void pg_schedule_free(pg_schedule *s);
const char *pg_schedule_name(const pg_schedule *s);
/* Apply "PARAM=VALUE" (absolute, --set) or relative (--delta) overrides:
 * phase statistics ("phase1.mean", "kloop.p95") or structural options
 * ("release_after=phase1", "epilogue_warps=4", "stages=4", "accumulators=2",
 * "epi_delay=200" ...).  -1 with a message for unknown names/values. */
int pg_schedule_set(pg_schedule *s, const char *assignment, int relative);
/* Every --set (absolute) and then every --delta (relative) of a command;
 * -1 with the first one's message. */
int pg_schedule_set_all(pg_schedule *s, const char *const *sets, int nsets, const char *const *deltas, int ndeltas);

/* Fit an h100-pingpong (or the run's kernel's) schedule's phase
 * distributions from a run's trace (per-tile samples kept together). */
int pg_schedule_fit(const pg_run *run, pg_schedule **out);
/* The same with a given schedule (a built-in name or a .sched file) in place
 * of the one chosen from the run's kernel name; NULL: that choice. */
int pg_schedule_fit_as(const pg_run *run, const char *schedule, pg_schedule **out);
/* 0 if the trace and the schedule name the same roles and phases: every
 * role and phase with intervals in the trace is the schedule's, every one
 * of the schedule's has intervals in the trace, and they agree on which
 * phases are waits.  -1 with the first difference otherwise. */
int pg_schedule_match_trace(const pg_schedule *s, const pg_trace *t);
/* The phase of the schedule's `period` step (its serialized resource). */
const char *pg_schedule_period_phase(const pg_schedule *s);
/* The phases role `role` runs in a tile, in order (up to max): their count,
 * -1 if the schedule has no such role. */
int pg_schedule_role_phases(const pg_schedule *s, const char *role, const char **phases, int max);
/* The schedule a run names (its trace's `schedule`), else, for a trace in
 * pegemm's kernels' vocabulary (v1 files, our kernels' runs), the built-in
 * schedule chosen by the kernel's name; NULL with a message if none. */
const char *pg_run_schedule_name(const pg_run *run);
/* Is the trace's vocabulary (a prefix of) pegemm's kernels'? */
int pg_trace_in_pegemm_vocab(const pg_trace *t);

typedef struct {
    char name[32]; /* phase or wait name (phases.h names) */
    double mean, p50, p95, ci95; /* ci95: half-width of the mean's 95% CI */
} pg_stat;

#define PG_MODEL_MAX_STATS 24

typedef struct {
    int64_t tiles;        /* Monte Carlo tiles per SM simulated */
    uint64_t seed;
    int deterministic;    /* 1: phases at their means, max-plus cycle time only */
} pg_model_opts;

typedef struct {
    double tile_period, tile_period_ci95;  /* cycles per tile per SM (per CTA pair for b200) */
    /* a fitted run's steady chain, where the run's own period (every unit
     * from an empty pipeline, predict_run.c) replaced it; NAN otherwise.
     * The ci95 above is the chain's. */
    double tile_period_chain;
    double cycle_time_deterministic;      /* max cycle mean of the max-plus recurrence */
    char critical_cycle[128];             /* e.g. "epilogue.phase1 -> mma.epi_wait (acc buffers)" */
    char bottleneck[64];                  /* role or resource that bounds the period */
    double clark_tile_period;             /* closed form (Clark), NAN where none applies */
    double wall_ms, tflops;
    int nwaits, nphases;
    pg_stat waits[PG_MODEL_MAX_STATS];
    pg_stat phases[PG_MODEL_MAX_STATS];
    /* added: share of DRAM bandwidth used at the predicted period (schedules
     * with a `bandwidth` line; NAN otherwise), and the phase mean it implies */
    double dram_utilization;
    double bandwidth_phase_mean;
    /* cycles a schedule's `warmup` line moved the period by: the run's
     * start-up transient against the calibration's (0: none) */
    double startup_shift;
    /* a schedule's `l2reuse` line: the run's working set (bytes), the share
     * of it the L2 keeps between launches and the calibration's share (the
     * loads move by the difference; NAN: no line, or off) */
    double l2_working_set, l2_kept, l2_kept_cal;
    /* a schedule's `clock` line: the SM clock (Hz) its law gives at the
     * predicted period (0: no line, or off) */
    double clock_hz;
} pg_prediction;

int pg_model_predict(const pg_schedule *s, const pg_model_opts *o, pg_prediction *out);
/* The same for s made from base by a what-if: where s's `clock` line is on
 * and one of the options it lists (by=, the kernel's delays) differs from
 * base's, the clock those options move is held in ns (predict_clock.c,
 * docs/experiments.md M179); otherwise pg_model_predict with the law's clock
 * reported. */
int pg_model_predict_clocked(const pg_schedule *base, const pg_schedule *s, const pg_model_opts *o,
                             pg_prediction *out);
/* A simulated trace in the run-file format (one SM or `n_sm`), so verify/
 * can draw and compare model and measurement with the same code. */
int pg_model_simulate_trace(const pg_schedule *s, const pg_model_opts *o, int n_sm, pg_trace *out);

/* Statistics of a measured trace, in the prediction's form (waits, phases,
 * tile period from consumer/mma tile starts), for trace-vs-model checks. */
int pg_trace_summarize(const pg_trace *t, double sm_clock_hz, pg_prediction *out);
/* The same with the schedule's period phase named (the serialized step
 * whose tile-to-tile gap is the period; NULL: no period).  The plain call
 * takes `mainloop` or `kloop` (pegemm's kernels). */
int pg_trace_summarize_period(const pg_trace *t, double sm_clock_hz, const char *period_phase, pg_prediction *out);

/* Additions (model/ owner): */
/* The current value of a structural option ("release_after", "stages", ...);
 * -1 (no message) if the schedule has no such option.  value may be NULL. */
int pg_schedule_option(const pg_schedule *s, const char *name, char *value, int n);
/* A wait or phase statistic of a prediction by name ("epi_wait",
 * "tensor_idle", "phase1"), NULL if absent. */
const pg_stat *pg_prediction_find(const pg_prediction *p, const char *name);

#endif
