/* Kaplan-Meier for left-censored latencies (fit_censored.h). */
#include "fit_censored.h"

#include <math.h>
#include <stdlib.h>

#include "pg_error.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* How many of the n ascending values v are <= x. */
static int64_t count_le(const double *v, int64_t n, double x)
{
    int64_t a = 0, b = n;
    while (a < b) {
        int64_t m = a + (b - a) / 2;
        if (v[m] <= x)
            a = m + 1;
        else
            b = m;
    }
    return a;
}

/* mass[j]: the estimate's probability at ex[j] (ne ascending exact values);
 * all: the n ascending observations, exact and bounds.  In -y time a bound
 * b leaves the risk set at -b, so at the exact value x the risk set is
 * every observation <= x, less the exact ties at x already counted. */
static void km_mass(const double *ex, int64_t ne, const double *all, int64_t n, double *mass)
{
    double surv = 1;
    int64_t ties = 0;
    for (int64_t j = ne - 1; j >= 0; j--) {
        ties = j + 1 < ne && ex[j + 1] == ex[j] ? ties + 1 : 0;
        double at_risk = (double)(count_le(all, n, ex[j]) - ties);
        double p = surv / (at_risk >= 1 ? at_risk : 1);
        mass[j] = p;
        surv -= p;
    }
    mass[0] += surv > 0 ? surv : 0;
}

int fit_censored_quantiles(const double *y, const unsigned char *exact, int64_t n, int64_t min_exact, double *out,
                           int64_t nout)
{
    int rc = -1;
    double *all = malloc(sizeof(double) * (size_t)(n + 1)), *ex = malloc(sizeof(double) * (size_t)(n + 1));
    double *mass = malloc(sizeof(double) * (size_t)(n + 1));
    if (!all || !ex || !mass) {
        pg_fail("out of memory for %lld latency observations", (long long)n);
        goto done;
    }
    int64_t na = 0, ne = 0;
    for (int64_t i = 0; i < n; i++) {
        if (!isfinite(y[i]))
            continue;
        all[na++] = y[i];
        if (exact[i])
            ex[ne++] = y[i];
    }
    if (ne < min_exact || ne == 0) {
        rc = 1;
        goto done;
    }
    qsort(all, (size_t)na, sizeof(double), cmp_double);
    qsort(ex, (size_t)ne, sizeof(double), cmp_double);
    km_mass(ex, ne, all, na, mass);
    double cum = 0;
    int64_t j = 0;
    for (int64_t q = 0; q < nout; q++) {
        const double p = ((double)q + 0.5) / (double)nout;
        while (j < ne - 1 && cum + mass[j] < p)
            cum += mass[j++];
        out[q] = ex[j];
    }
    rc = 0;
done:
    free(all);
    free(ex);
    free(mass);
    return rc;
}
