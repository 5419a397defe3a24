/* `pegemm model validate`: fit a schedule on one run (the calibration: in
 * issue 12's terms the same machine's zero-delay run) and predict every
 * other run from what it differs in, read from the run files' own
 * attributes; then hold each prediction to the target (tile period within
 * 3%, each mean wait within 15% or 150 cycles).  The what-if of each run is
 * derived here, once, so that a user's probe runs are predicted the way our
 * reckonings were (scripts/probe_reckoning.sh spelled them by hand). */
#ifndef PG_MODEL_VALIDATE_H
#define PG_MODEL_VALIDATE_H
#include "model.h"

#define PG_WHATIF_MAX 16
#define PG_WHATIF_LEN 96

/* The DRAM floors (bytes/s; the copy floor `pegemm bench` measures) of the
 * calibration's machine, the `bandwidth` line's floor, and of another GPU,
 * for its runs.  0: not given. */
typedef struct {
    double cal_bytes_per_s, other_bytes_per_s;
} pg_floors;

typedef struct {
    int n;                                  /* assignments to apply to the fitted schedule */
    char set[PG_WHATIF_MAX][PG_WHATIF_LEN]; /* "epi_delay=800", "tiles=4704", ... */
    char why_not[512];                      /* non-empty: the run cannot be predicted, and why */
    char unmodelled[256];                   /* differences predicted as if equal ("" none) */
    int other_device;                       /* 1: the run is from another GPU (floors applied) */
    char kind[64];                          /* the kinds of change, "+"-joined: "delay", "M", "N", "K",
                                               "SMs", "structure", "GPU"; "none" (inputs only or the same run) */
    char refit[PG_WHATIF_LEN];              /* "OPTION=V": the calibration fitted again with it before the
                                               sets ("" none): a build the option describes (M148) */
} pg_whatif;

/* What `run` differs in from `cal`, as assignments to `fit` (the schedule
 * fitted on cal): delays, M and N (tiles, flops, the units that ran them),
 * K (k-blocks per tile and each tile's work), the DRAM bytes per tile at
 * another N or K, SM count, stage count, k-block count (the same K in
 * k-blocks of another tile_k), a build that prefetches A where the
 * calibration's does not, or the reverse (kernel name token "pfD": the
 * `rowfirst` line's option refitted and its prefetch= added, M148),
 * another GPU (the `dramq` line's loads
 * queued at each floor, or without one the bandwidth term rescaled by the
 * floors' ratio).  A difference the model has no term for (another kernel,
 * a K that is not whole k-blocks) sets why_not, as does an assignment the
 * schedule refuses (a ring deeper than the k-blocks of a tile); one of the
 * inputs (family, seed, P) goes to unmodelled.  -1 only on an internal
 * error (message set). */
int pg_whatif_derive(const pg_run *cal, const pg_run *run, const pg_schedule *fit, const pg_floors *floors,
                     pg_whatif *w);

/* One run's check. */
#define PG_VALIDATE_MAX_WAITS 8
#define PG_VALIDATE_MAX_HELD 8
typedef struct {
    const char *path;
    int self_fit;        /* 1: the calibration run itself */
    pg_whatif whatif;    /* whatif.why_not set: nothing below is filled */
    double period_measured, period_predicted;
    double startup_shift; /* cycles of period_predicted from the `warmup` line (0: none) */
    double period_chain;  /* the steady chain's period where the run's own replaced it (NAN: none) */
    double l2_working_set, l2_kept, l2_kept_cal; /* the `l2reuse` line's working set (bytes), share kept, and
                                                    the calibration's share (NAN: none) */
    double clock_measured, clock_predicted; /* SM clock (Hz): the run's, and the `clock` line's law (0: none) */
    int period_ok;
    int nwaits;
    char wait_name[PG_VALIDATE_MAX_WAITS][32];
    double wait_measured[PG_VALIDATE_MAX_WAITS], wait_predicted[PG_VALIDATE_MAX_WAITS];
    int wait_ok[PG_VALIDATE_MAX_WAITS];
    int waits_ok;
    char bottleneck[64];
    /* --held (M152): per latency that can hold a wait, the share of the
     * waits it could hold that it held, in a fit of the run's trace
     * (measured) and of the model's simulated run of this prediction
     * (predicted); NAN where that fit saw no wait it could hold.  More
     * latencies than the row holds: held_more of them not listed.  A fit
     * that failed: held_why_not says why (the prediction stands). */
    int nheld, held_more;
    char held_why_not[256];
    char held_name[PG_VALIDATE_MAX_HELD][32];
    double held_measured[PG_VALIDATE_MAX_HELD], held_predicted[PG_VALIDATE_MAX_HELD];
} pg_validate_row;

typedef struct {
    char schedule[64];
    /* the calibration's latencies read off waits that held under
     * FIT_FEW_BOUND_SHARE of them ("NAME (B of S tiles), ..."; "" none):
     * known from their longest values only (model/fit_evidence.c) */
    char thin_latencies[256];
    /* the calibration's loop never waited on a load it issued (its ring holds
     * the whole tile: fit_loop_unmeasured, M123; "" otherwise) */
    char loop_unmeasured[256];
    /* the calibration's kernel runs in clusters of CTAs that share loads
     * (/kernel cluster >= 2), which the model's one CTA does not describe
     * (M162; "" otherwise) */
    char cluster_unmodelled[512];
    /* the model changes made for every run, as given ("" none): "variant
     * P=V ...; set P=V ...; delta P=+V ..." -- a report read later says
     * what it was predicted with */
    char model_changes[512];
    int n;
    pg_validate_row *rows; /* n rows: the calibration first, then the runs as given */
    int oos, oos_period_ok, oos_waits_ok, oos_both_ok, not_predicted;
} pg_validate_report;

/* Target of issue 12. */
#define PG_VALIDATE_PERIOD_REL 0.03
#define PG_VALIDATE_WAIT_REL 0.15
#define PG_VALIDATE_WAIT_ABS 150.0

/* How the check is made: the schedule fitted (NULL: the calibration run's
 * own), the floors for another GPU, a model variant ("PARAM=VALUE" made
 * before the fit, so that what the fit calibrates is calibrated with it,
 * e.g. "kblocks.queue=1"), and what-ifs made after the fit, before each
 * run's own (sets; deltas add). */
typedef struct {
    const char *schedule;
    pg_floors floors;
    const char *const *variant;
    int nvariant;
    const char *const *sets;
    int nsets;
    const char *const *deltas;
    int ndeltas;
    int held; /* 1: also say what held each wait, measured and predicted (validate_held.c) */
} pg_validate_opts;

/* Fit on cal_path and predict each of paths (the calibration itself may be
 * among them: it is the self-fit row).  -1 with a message when the
 * calibration cannot be read or fitted, a what-if of v does not apply, or a
 * run cannot be read; a run the model cannot predict is a row with why_not. */
int pg_model_validate_runs(const char *cal_path, const char *const *paths, int n, const pg_validate_opts *v,
                           const pg_model_opts *o, pg_validate_report *out);
void pg_validate_report_free(pg_validate_report *r);

/* The schedule fitted on run's trace as the check fits its calibration:
 * refit ("OPTION=V", "" none) and v's variants before the fit, the
 * calibration's floor and v's sets after it (validate_fit.c). */
int validate_fit(const pg_run *run, const pg_validate_opts *v, const char *refit, pg_schedule **fit);
/* row's held shares: run's trace fitted by validate_fit (run_fit: that
 * fit where the caller has it -- the self-fit row's is the calibration's
 * own --, NULL: made here), and the model's simulated run of `predicted`
 * (the fit with the run's what-ifs) fitted the same way, so that one rule
 * reads both (validate_held.c).  A fit or
 * simulation that fails sets row->held_why_not, not an error. */
void validate_held(const pg_run *run, const pg_schedule *run_fit, const pg_schedule *predicted,
                   const pg_validate_opts *v, const char *refit, const pg_model_opts *o, pg_validate_row *row);
/* The check passes when every run was predicted and every out-of-sample
 * one is within the target on its period and on each mean wait. */
int pg_validate_pass(const pg_validate_report *r);

#endif
