/* ULP-distance histograms: how far BF16 outputs are from the correctly
 * rounded result, in log2-wide bins (0, 1, 2-3, 4-7, ...) plus one bin for
 * NaN disagreements (exactly one side NaN). */
#ifndef PG_ULP_HIST_H
#define PG_ULP_HIST_H

#include <stdint.h>

#define PG_ULP_BINS 18 /* 0, 1, 2-3, ..., 2^15+ (16 bins), NaN */
#define PG_ULP_BIN_NAN (PG_ULP_BINS - 1)

typedef struct {
    int64_t count[PG_ULP_BINS];
    int64_t total;
    int64_t nonzero;  /* elements at distance > 0 (NaN disagreements included) */
    int32_t max_ulp;  /* largest finite distance seen */
    double sum_ulp;   /* over finite distances, for the mean */
    /* per bin, the largest absolute and relative error of its elements
     * (pg_ulp_hist_add_err): a large-ULP bin with tiny absolute errors is
     * cancellation near zero, not a wrong result */
    double max_abs[PG_ULP_BINS], max_rel[PG_ULP_BINS];
} pg_ulp_hist;

int pg_ulp_bin(int32_t ulp);
/* "0", "1", "2-3", ..., "32768+", "NaN" */
const char *pg_ulp_bin_label(int bin);
void pg_ulp_hist_add(pg_ulp_hist *h, int32_t ulp);
/* The same, with the element's absolute error |x - ref| and relative error
 * |x - ref| / |ref| (inf when ref is 0 and x is not; NaN: not recorded). */
void pg_ulp_hist_add_err(pg_ulp_hist *h, int32_t ulp, double abs_err, double rel_err);
void pg_ulp_hist_merge(pg_ulp_hist *into, const pg_ulp_hist *from);

#endif
