/* Accuracy of silu_fp32.h against silu and exp in double, for the silu
 * tests: the error of an fp32 result in units in the last place of the
 * fp32 grid at the double value (subnormal grid 2^-149 below 2^-126). */
#ifndef PG_TEST_SILU_ULP_H
#define PG_TEST_SILU_ULP_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "silu_fp32.h"

/* silu in double: relative error about 2^-52, far below an fp32 ulp.  For
 * x < 0 as x e^x / (1 + e^x), so that exp cannot overflow. */
static inline double silu_double(double x)
{
    if (x < 0) {
        double e = exp(x);
        return x * e / (1.0 + e);
    }
    return x / (1.0 + exp(-x));
}

static inline double f32_ulp_error(float got, double want)
{
    if (want == 0.0)
        return fabs((double)got) / 0x1p-149;
    int e;
    frexp(want, &e); /* |want| in [2^(e-1), 2^e) */
    int ulp_exp = (e - 1 < -126 ? -126 : e - 1) - 23;
    return fabs((double)got - want) / ldexp(1.0, ulp_exp);
}

static inline float f32_of(uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

typedef struct {
    double silu_max, exp_max; /* largest ulp errors */
    uint32_t silu_worst, exp_worst; /* the inputs (bits) where they occur */
    int64_t checked, nan_wrong;
} silu_accuracy;

/* The bit patterns lo, lo + stride, ... <= hi (OpenMP over threads). */
static inline silu_accuracy silu_measure(uint64_t lo, uint64_t hi, uint64_t stride)
{
    silu_accuracy acc = {0};
    int64_t count = (int64_t)((hi - lo) / stride) + 1;
#pragma omp parallel
    {
        silu_accuracy mine = {0};
#pragma omp for schedule(static)
        for (int64_t i = 0; i < count; i++) {
            uint32_t u = (uint32_t)(lo + (uint64_t)i * stride);
            float x = f32_of(u);
            float y = pg_silu_f32(x);
            mine.checked++;
            if (isnan(x)) {
                uint32_t yb;
                memcpy(&yb, &y, sizeof yb);
                mine.nan_wrong += yb != 0x7FFFFFFFu;
                continue;
            }
            double err = f32_ulp_error(y, silu_double(x));
            if (err > mine.silu_max)
                mine.silu_max = err, mine.silu_worst = u;
            if (x >= 0.0f && x <= PG_SILU_MAX_ABS) {
                double ee = f32_ulp_error(pg_silu_exp_neg(x), exp(-(double)x));
                if (ee > mine.exp_max)
                    mine.exp_max = ee, mine.exp_worst = u;
            }
        }
#pragma omp critical
        {
            acc.checked += mine.checked;
            acc.nan_wrong += mine.nan_wrong;
            if (mine.silu_max > acc.silu_max)
                acc.silu_max = mine.silu_max, acc.silu_worst = mine.silu_worst;
            if (mine.exp_max > acc.exp_max)
                acc.exp_max = mine.exp_max, acc.exp_worst = mine.exp_worst;
        }
    }
    return acc;
}

#endif
