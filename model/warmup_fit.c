/* The `warmup` line's fit (warmup.c says what the line does): each unit's
 * tile starts on the period step (its earliest warp's, as the measured
 * period takes them), the gaps between consecutive starts by their index,
 * averaged over the units; the steady period is the mean of the second
 * half's gaps and E(k) the cumulative excess of the first k over it.
 * Recorded as overrides, so a recompile keeps them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"
#include "pg_error.h"

/* sum[j - 1] += gap j of every unit with at least `gaps` gaps; the units
 * counted.  With gaps = 0: the smallest gap count of a unit with one. */
static int64_t gap_sums(const fit_interval *v, int64_t n, int64_t gaps, double *sum)
{
    int64_t units = 0, fewest = -1;
    for (int64_t i = 0; i < n;) {
        int64_t j = i;
        while (j < n && v[j].sm == v[i].sm)
            j++;
        const int64_t g = j - i - 1;
        if (g >= 1 && (fewest < 0 || g < fewest))
            fewest = g;
        if (gaps > 0 && g >= gaps) {
            for (int64_t q = 1; q <= gaps; q++)
                sum[q - 1] += (double)(v[i + q].begin - v[i + q - 1].begin);
            units++;
        }
        i = j;
    }
    return gaps > 0 ? units : fewest;
}

static int set_key(pg_schedule *s, const char *key, double v)
{
    char opt[64];
    snprintf(opt, sizeof opt, "warmup.%s=%.9g", key, v);
    return pg_schedule_set(s, opt, 0);
}

/* E at the line's keys below the measured gaps, the total, the tile count */
static int record(pg_schedule *s, const double *mean_gap, int64_t gaps)
{
    double steady = 0;
    for (int64_t j = gaps / 2; j < gaps; j++)
        steady += mean_gap[j];
    steady /= (double)(gaps - gaps / 2);
    double e = 0;
    int key = 0;
    char name[16];
    for (int64_t j = 1; j <= gaps; j++) {
        e += mean_gap[j - 1] - steady;
        while (key < SCH_WU_NKEYS && sch_wu_k[key] < j)
            key++;
        if (key < SCH_WU_NKEYS && sch_wu_k[key] == j && j < gaps) {
            snprintf(name, sizeof name, "e%d", sch_wu_k[key]);
            if (set_key(s, name, e))
                return -1;
        }
    }
    return set_key(s, "total", e) || set_key(s, "tiles", s->machine.tiles / s->machine.units);
}

int warmup_fit(pg_schedule *s, const pg_trace *t)
{
    if (!s->wu_line)
        return 0;
    const int ph = pg_vocab_phase(&t->vocab, s->roles[s->period_role].steps[s->period_step].name);
    if (ph < 0 || !(s->machine.units > 0))
        return 0; /* no period step traced: the line stays as written */
    fit_interval *v = malloc(sizeof *v * (size_t)(t->n > 0 ? t->n : 1));
    if (!v)
        return pg_fail("out of memory");
    const int64_t n = fit_tile_starts(t, ph, v);
    const int64_t gaps = gap_sums(v, n, 0, NULL);
    int rc = 0;
    if (gaps < 8) { /* too few tiles per unit to tell a transient from noise */
        rc = set_key(s, "tiles", 0);
    } else {
        double *sum = calloc((size_t)gaps, sizeof *sum);
        const int64_t units = sum ? gap_sums(v, n, gaps, sum) : 0;
        if (!sum) {
            rc = pg_fail("out of memory");
        } else {
            for (int64_t j = 0; j < gaps; j++)
                sum[j] /= (double)units;
            rc = record(s, sum, gaps);
        }
        free(sum);
    }
    free(v);
    return rc;
}
