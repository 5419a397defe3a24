/* Model sweeps: vary one schedule parameter, predict each point, and find
 * where the bottleneck changes role (the phase transition).  Drawn as the
 * prediction line with measured points on it. */
#ifndef PG_VERIFY_SWEEP_H
#define PG_VERIFY_SWEEP_H

#include "model.h"
#include "pg_json.h"

#define PG_SWEEP_MAX 64

typedef struct {
    char param[48];     /* e.g. "phase1.mean" or "epi_delay" */
    char wait_name[32]; /* the wait followed along the sweep */
    int n;
    double x[PG_SWEEP_MAX];
    double tile_period[PG_SWEEP_MAX], wait_mean[PG_SWEEP_MAX], wall_ms[PG_SWEEP_MAX], tflops[PG_SWEEP_MAX];
    char bottleneck[PG_SWEEP_MAX][64];
    double transition_x; /* midpoint where the bottleneck first changes; NAN if it never does */
    double wait_off_x;   /* midpoint where the followed wait turns off (falls to ~0) or on; NAN if never */
} pg_sweep;

/* Set `param`=x (absolute) on s for each x and predict.  The schedule keeps
 * the last value; absolute settings make the order irrelevant. */
int pg_sweep_run(pg_schedule *s, const char *param, const double *xs, int n, const pg_model_opts *o,
                 const char *wait_name, pg_sweep *out);
/* Mean of a named phase/wait in a prediction (NAN if absent). */
double pg_prediction_stat_mean(const pg_prediction *p, const char *name);

/* The transition curve: model tile period and followed wait (lines) and,
 * if given, points (mx, my; nm of them; usually measured runs) named
 * `points_label`, and the measured wait at the same x (mwait, may be NULL). */
int pg_sweep_svg(const char *path, const char *title, const pg_sweep *s, const double *mx, const double *my, int nm,
                 const char *points_label, const double *mwait);
void pg_sweep_json(pg_json *j, const pg_sweep *s);

#endif
