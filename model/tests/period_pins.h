/* For the model tests that pin `pegemm model validate`'s period errors on
 * committed probe runs (test_ring_depth.c, test_store_loads.c,
 * test_fit_written.c). */
#ifndef PG_PERIOD_PINS_H
#define PG_PERIOD_PINS_H

#include <stdint.h>

/* Fit on cal, predict the n runs (20,000 tiles, seed) with the variants, and
 * set err[1..n] to each run's predicted period over its measured, less 1
 * (err[0], the self-fit, is not set).  Fails the cmocka test if validate
 * fails or a run is not predicted. */
void pg_test_period_errors(const char *cal, const char *const *runs, int n, const char *const *variant,
                           int nvariant, uint64_t seed, double *err);
/* ... with `schedule` (a built-in name or a .sched file; NULL: the run's own) */
void pg_test_period_errors_of(const char *schedule, const char *cal, const char *const *runs, int n,
                              const char *const *variant, int nvariant, uint64_t seed, double *err);

/* The test's command line: exactly n run files into path[0..n); 0, or
 * "NAME: give the N runs" on stderr and 2 (the exit code) */
int pg_test_take_runs(int argc, char **argv, const char *name, const char **path, int n);

/* Fails the cmocka test unless lo <= err <= hi, naming what and the run. */
void pg_test_period_within(const char *what, int run, double err, double lo, double hi);

#endif
