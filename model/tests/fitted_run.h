/* For the model tests: a run fitted on itself with its built-in schedule,
 * its prediction and its trace's own figures (the self-fit `pegemm model
 * fit` prints).  Fails the cmocka test with the library's message. */
#ifndef PG_TEST_FITTED_RUN_H
#define PG_TEST_FITTED_RUN_H

#include "model.h"
#include "runfile.h"

typedef struct {
    pg_run run;
    pg_schedule *s;
    pg_prediction model, measured;
} pg_fitted_run;

/* fit `path` on itself and predict it over `tiles` Monte Carlo tiles (seed 1) */
void pg_fitted_run_load(const char *path, int64_t tiles, pg_fitted_run *f);
void pg_fitted_run_free(pg_fitted_run *f);

#endif
