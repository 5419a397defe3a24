/* Clark (1961): the first two moments of max(X, Y) for jointly Gaussian X, Y,
 * and its iteration over several variables.  The closed form the Monte Carlo
 * is checked against: exact for two Gaussians, an approximation beyond. */
#ifndef PG_CLARK_H
#define PG_CLARK_H

#include "sched.h"

/* Moments of max(X, Y), X ~ N(m1, v1), Y ~ N(m2, v2), correlation rho. */
void clark_max2(double m1, double v1, double m2, double v2, double rho, double *m, double *v);
/* E and Var of the max of n independent Gaussians (means m[i], variances v[i]),
 * folding one at a time (Clark's recursion). */
void clark_max_n(const double *m, const double *v, int n, double *mean, double *var);
/* Variance of one sample of a distribution (lognormal/normal/const/empirical). */
double sch_dist_var(const pg_schedule *s, int dist);
/* The Clark tile period: the max-plus cycle mean with each barrier (a step
 * waiting for several warps) charged its expected maximum from Clark's
 * moments.  NAN when the schedule has no barrier over random phases. */
double sch_clark_period(const pg_schedule *s);

#endif
