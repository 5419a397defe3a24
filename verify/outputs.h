/* Bit-exact output verification: recompute the reference for the rows a
 * run stores, compare every element bit for bit, and measure both kernel
 * and reference against the correctly rounded result. */
#ifndef PG_VERIFY_OUTPUTS_H
#define PG_VERIFY_OUTPUTS_H

#include <stdint.h>

#include "runfile.h"
#include "ulp_hist.h"

#define PG_VERIFY_MAX_FIRST 64

/* One mismatching element and everything needed to reproduce it. */
typedef struct {
    int64_t m, n;          /* output coordinates: A row m, B row n */
    int64_t stored_row;    /* index into the run's stored rows */
    int64_t combined_row;  /* m mod P */
    uint16_t got, want;    /* kernel (run) and reference bits */
    uint16_t exact;        /* correctly rounded bits */
    int32_t ulp_got, ulp_want; /* distances to `exact` */
    int poison;            /* `got` is a NaN the epilogue never produces */
} pg_mismatch;

typedef struct {
    /* what was compared */
    pg_accum_mode mode;
    pg_epilogue epilogue;
    int64_t rows, N, compared, mismatched;
    int64_t poison;          /* mismatches whose value is a foreign NaN (unwritten) */
    int64_t missing_rows;    /* stored rows in which every element is poison */
    int64_t first_missing_row; /* m of the first such row, -1 if none */
    int64_t acc_compared, acc_mismatched; /* fp32 accumulators, when the run stores them */
    /* per-tile mismatch map: map_rows x map_cols cells over stored rows x N */
    int64_t tile_rows, tile_cols;  /* stored rows / columns per cell */
    int64_t map_rows, map_cols;
    int64_t *map_row_first_m;      /* m of each cell row's first stored row */
    int64_t *map;                  /* mismatches per cell */
    /* the first mismatches in (stored row, n) order */
    int nfirst;
    pg_mismatch first[PG_VERIFY_MAX_FIRST];
    /* distance to the correctly rounded result (exact accumulation, single
     * rounding epilogue) for the run's values and for the reference's */
    pg_ulp_hist ulp_got, ulp_want;
} pg_verify_result;

/* Compare the run's stored outputs (run->D for run->rows) with the reference
 * in `mode`/`epi`.  Needs a run read with PG_READ_PROBLEM | PG_READ_OUTPUT.
 * `max_first` (<= PG_VERIFY_MAX_FIRST) mismatches are kept.  0 on success
 * (mismatches are results, not errors); -1 with a message on bad input
 * (no outputs, rows out of range or not increasing). */
int pg_verify_outputs(const pg_run *run, pg_accum_mode mode, pg_epilogue epi, int max_first,
                      pg_verify_result *out);
void pg_verify_result_free(pg_verify_result *r);

/* Is this BF16 value a NaN other than the one the epilogue produces?
 * Such a value in an output means the element was never written. */
int pg_bf16_is_foreign_nan(uint16_t h);

#endif
