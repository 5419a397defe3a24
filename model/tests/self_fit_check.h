/* The check `pegemm verify trace` makes, for the model tests: each run
 * fitted on its own trace reproduces its measured waits (mean, p50, p95 of
 * every wait) and tile period within 15% or 150 cycles.  Fails the cmocka
 * test with the run, figure and both values otherwise. */
#ifndef PG_SELF_FIT_CHECK_H
#define PG_SELF_FIT_CHECK_H

/* `min_waits`: the fewest waits each trace must report. */
void pg_check_self_fits(const char *const *paths, int n, int min_waits);

#endif
