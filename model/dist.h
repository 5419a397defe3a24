/* Phase-duration distributions and the random numbers that sample them.
 * A distribution is given the way the seed's log gives phases: a mean, and
 * where known a min, a p95 and a max; it is fitted to a family that matches
 * those summaries (docs/model.md, "Distributions"). */
#ifndef PG_DIST_H
#define PG_DIST_H

#include <stdint.h>

typedef enum {
    DIST_CONST = 0,  /* always the mean */
    DIST_NORMAL,     /* mean, sd; truncated to [min, max] (min defaults to 0) */
    DIST_LOGNORMAL,  /* min + exp(N(mu, s^2)): matched to mean, min, p95; capped at max */
    DIST_EMPIRICAL,  /* per-tile rows of a fitted trace (sch_table), shifted by `shift` */
} sch_family;

typedef enum { DKIND_PHASE = 0, DKIND_MEMORY, DKIND_LATENCY } sch_dist_kind;

typedef struct {
    char name[48];
    sch_dist_kind kind;
    sch_family family;
    double mean, min, p95, max, sd; /* summaries (NAN where not given) */
    double mu, s;                   /* lognormal parameters */
    /* memory: mean = dram_latency + bytes / bytes_per_cycle */
    double dram_latency, bytes, bytes_per_cycle;
    double shift;                   /* empirical: added to every trace sample */
    double emp_mean;                /* empirical: mean of the trace column(s) before shift */
    /* a latency `pegemm model fit` read off the waits it held: the traced
     * tiles that observed it (a bound where another dependency held the
     * wait) and those where it held the wait (0, 0: not fitted; not written
     * to a schedule file) */
    int64_t fit_seen, fit_bound;
    int line;
} sch_dist;

/* (Re)derive the family parameters from the summaries; -1 with a message
 * naming the distribution when they are inconsistent (p95 below the mean,
 * a spread no log-normal with that minimum can have, ...). */
int dist_fit(sch_dist *d);
/* The mean of the distribution as sampled (the cap at max included only
 * approximately: the deterministic recurrence uses this). */
double dist_mean(const sch_dist *d);

/* xoshiro256** seeded by splitmix64: fast, and the same stream on every
 * machine for a given seed (tests use fixed seeds). */
typedef struct {
    uint64_t s[4];
    int has_spare;
    double spare;
} rng;

void rng_seed(rng *r, uint64_t seed);
double rng_uniform(rng *r); /* (0, 1) */
double rng_normal(rng *r);  /* N(0, 1), polar Box-Muller */
uint64_t rng_below(rng *r, uint64_t n);

/* One sample of a parametric distribution (not empirical). */
double dist_sample(const sch_dist *d, rng *r);

/* The standard normal pdf, cdf and quantile (Acklam's rational approximation
 * refined by one Halley step: |error| < 1e-12). */
double norm_pdf(double x);
double norm_cdf(double x);
double norm_quantile(double p);

#endif
