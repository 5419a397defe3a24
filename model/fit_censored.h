/* A latency's distribution from per-tile observations of which some are
 * exact and the rest only upper bounds (docs/model.md "Fitting a trace":
 * a wait that did not wait says only that its dependency had arrived). */
#ifndef PG_FIT_CENSORED_H
#define PG_FIT_CENSORED_H

#include <stdint.h>

/* y[i], i < n: an observation of the latency, exact where exact[i] != 0,
 * else an upper bound (left-censored).  The Kaplan-Meier estimate of the
 * latency's distribution (on -y, where the bounds are right-censored), as
 * nout equally spaced quantiles, out[j] at probability (j + 0.5) / nout,
 * ascending.  Mass the estimate cannot place (bounds below every exact
 * value) goes to the smallest exact value.  Non-finite y are skipped.
 * Returns 0, 1 with fewer than min_exact exact observations (out
 * untouched), -1 out of memory (reported). */
int fit_censored_quantiles(const double *y, const unsigned char *exact, int64_t n, int64_t min_exact, double *out,
                           int64_t nout);

#endif
