#include "ulp_hist.h"

#include <stdint.h>

static const char *const k_labels[PG_ULP_BINS] = {
    "0", "1", "2-3", "4-7", "8-15", "16-31", "32-63", "64-127", "128-255", "256-511",
    "512-1023", "1024-2047", "2048-4095", "4096-8191", "8192-16383", "16384-32767", "32768+", "NaN",
};

int pg_ulp_bin(int32_t ulp)
{
    if (ulp == INT32_MAX)
        return PG_ULP_BIN_NAN;
    if (ulp <= 0)
        return 0;
    int b = 1;
    while (b < PG_ULP_BIN_NAN - 1 && (ulp >> b) != 0)
        b++;
    return b;
}

const char *pg_ulp_bin_label(int bin) { return bin >= 0 && bin < PG_ULP_BINS ? k_labels[bin] : "?"; }

void pg_ulp_hist_add(pg_ulp_hist *h, int32_t ulp)
{
    h->count[pg_ulp_bin(ulp)]++;
    h->total++;
    if (ulp != 0)
        h->nonzero++;
    if (ulp != INT32_MAX) {
        if (ulp > h->max_ulp)
            h->max_ulp = ulp;
        h->sum_ulp += ulp;
    }
}

void pg_ulp_hist_add_err(pg_ulp_hist *h, int32_t ulp, double abs_err, double rel_err)
{
    pg_ulp_hist_add(h, ulp);
    int b = pg_ulp_bin(ulp);
    if (abs_err > h->max_abs[b]) /* false for NaN */
        h->max_abs[b] = abs_err;
    if (rel_err > h->max_rel[b])
        h->max_rel[b] = rel_err;
}

void pg_ulp_hist_merge(pg_ulp_hist *into, const pg_ulp_hist *from)
{
    for (int b = 0; b < PG_ULP_BINS; b++) {
        into->count[b] += from->count[b];
        into->max_abs[b] = from->max_abs[b] > into->max_abs[b] ? from->max_abs[b] : into->max_abs[b];
        into->max_rel[b] = from->max_rel[b] > into->max_rel[b] ? from->max_rel[b] : into->max_rel[b];
    }
    into->total += from->total;
    into->nonzero += from->nonzero;
    if (from->max_ulp > into->max_ulp)
        into->max_ulp = from->max_ulp;
    into->sum_ulp += from->sum_ulp;
}
