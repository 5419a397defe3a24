#include "dist.h"

#include <math.h>

#include "pg_error.h"

#define Z95 1.6448536269514722 /* the standard normal's 95th percentile */

int dist_fit(sch_dist *d)
{
    if (d->kind == DKIND_MEMORY) {
        if (!(d->bytes_per_cycle > 0) || !(d->bytes >= 0))
            return pg_fail("memory '%s': needs bytes >= 0 and bytes_per_cycle > 0", d->name);
        if (!(d->dram_latency >= 0))
            return pg_fail("memory '%s': dram_latency would be %.6g: its mean cannot go below the transfer time "
                           "bytes/bytes_per_cycle = %.6g cycles",
                           d->name, d->dram_latency, d->bytes / d->bytes_per_cycle);
        d->mean = d->dram_latency + d->bytes / d->bytes_per_cycle;
        /* a term replayed from a trace stays replayed (a what-if on its
         * mean shifts it, sched.c) */
        if (d->family != DIST_EMPIRICAL && (d->family != DIST_LOGNORMAL || !isfinite(d->min) || !isfinite(d->p95)))
            d->family = isfinite(d->sd) && d->sd > 0 ? DIST_NORMAL : DIST_CONST;
    }
    if (!isfinite(d->mean))
        return pg_fail("'%s': no mean", d->name);
    switch (d->family) {
    case DIST_CONST:
    case DIST_EMPIRICAL:
        return 0;
    case DIST_NORMAL:
        if (!(d->sd >= 0))
            return pg_fail("'%s': a normal distribution needs sd >= 0", d->name);
        return 0;
    case DIST_LOGNORMAL: {
        if (!isfinite(d->min) || !isfinite(d->p95))
            return pg_fail("'%s': a log-normal needs min and p95 beside the mean", d->name);
        double a = d->mean - d->min, b = d->p95 - d->min;
        if (!(a > 0) || !(b > a))
            return pg_fail("'%s': needs min < mean < p95 (min %.6g, mean %.6g, p95 %.6g)", d->name, d->min,
                           d->mean, d->p95);
        /* E = min + e^(mu + s^2/2), p95 = min + e^(mu + z s): ln(b/a) = z s - s^2/2 */
        double r = log(b / a), disc = Z95 * Z95 - 2.0 * r;
        if (disc < 0)
            return pg_fail("'%s': p95 %.6g is too far above the mean %.6g for a log-normal with min %.6g "
                           "(ln((p95-min)/(mean-min)) must be below %.3f)",
                           d->name, d->p95, d->mean, d->min, Z95 * Z95 / 2);
        d->s = Z95 - sqrt(disc);
        d->mu = log(a) - d->s * d->s / 2;
        if (isfinite(d->max) && !(d->max > d->p95))
            return pg_fail("'%s': max %.6g must be above p95 %.6g", d->name, d->max, d->p95);
        return 0;
    }
    }
    return pg_fail("'%s': unknown family", d->name);
}

double dist_mean(const sch_dist *d)
{
    if (d->family == DIST_EMPIRICAL)
        return d->emp_mean + d->shift;
    return d->mean;
}

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void rng_seed(rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
    r->has_spare = 0;
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

double rng_uniform(rng *r) { return ((double)(rng_next(r) >> 11) + 0.5) * 0x1.0p-53; }

uint64_t rng_below(rng *r, uint64_t n) { return (uint64_t)(rng_uniform(r) * (double)n) % n; }

double rng_normal(rng *r)
{
    if (r->has_spare) {
        r->has_spare = 0;
        return r->spare;
    }
    double u, v, q;
    do {
        u = 2 * rng_uniform(r) - 1;
        v = 2 * rng_uniform(r) - 1;
        q = u * u + v * v;
    } while (q >= 1 || q == 0);
    double f = sqrt(-2 * log(q) / q);
    r->spare = v * f;
    r->has_spare = 1;
    return u * f;
}

double dist_sample(const sch_dist *d, rng *r)
{
    switch (d->family) {
    case DIST_NORMAL: {
        double lo = isfinite(d->min) ? d->min : 0, hi = isfinite(d->max) ? d->max : INFINITY;
        for (int i = 0; i < 16; i++) {
            double x = d->mean + d->sd * rng_normal(r);
            if (x >= lo && x <= hi)
                return x;
        }
        return d->mean; /* a truncation that rejects 16 draws in a row: the mean is the safe answer */
    }
    case DIST_LOGNORMAL: {
        for (int i = 0; i < 16; i++) {
            double x = d->min + exp(d->mu + d->s * rng_normal(r));
            if (!isfinite(d->max) || x <= d->max)
                return x;
        }
        return d->max;
    }
    default:
        return dist_mean(d);
    }
}

double norm_pdf(double x) { return 0.3989422804014327 * exp(-0.5 * x * x); }

double norm_cdf(double x) { return 0.5 * erfc(-x / 1.4142135623730951); }

double norm_quantile(double p)
{
    static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                               1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                               6.680131188771972e+01, -1.328068155288572e+01};
    static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                               -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00};
    static const double dd[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                                3.754408661907416e+00};
    if (!(p > 0) || !(p < 1))
        return p <= 0 ? -INFINITY : INFINITY;
    double x, q, t;
    if (p < 0.02425) {
        q = sqrt(-2 * log(p));
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((dd[0] * q + dd[1]) * q + dd[2]) * q + dd[3]) * q + 1);
    } else if (p <= 1 - 0.02425) {
        q = p - 0.5;
        t = q * q;
        x = (((((a[0] * t + a[1]) * t + a[2]) * t + a[3]) * t + a[4]) * t + a[5]) * q /
            (((((b[0] * t + b[1]) * t + b[2]) * t + b[3]) * t + b[4]) * t + 1);
    } else {
        q = sqrt(-2 * log(1 - p));
        x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((dd[0] * q + dd[1]) * q + dd[2]) * q + dd[3]) * q + 1);
    }
    /* one Halley step on cdf(x) - p */
    double e = norm_cdf(x) - p, u = e * 2.5066282746310002 * exp(x * x / 2);
    return x - u / (1 + x * u / 2);
}
