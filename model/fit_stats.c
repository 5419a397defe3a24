/* Order statistics of the fit's samples, shared by its steps (fit.c's
 * per-phase distributions, kblocks_fit.c's fixed part). */
#include <math.h>

#include "fit.h"

int fit_cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double fit_quantile_sorted(const double *v, int64_t n, double q)
{
    if (n == 0)
        return NAN;
    double pos = q * (double)(n - 1);
    int64_t i = (int64_t)pos;
    double f = pos - (double)i;
    return i + 1 < n ? v[i] * (1 - f) + v[i + 1] * f : v[i];
}
