/* Output verification: recompute the reference for the rows a run stores,
 * compare every element bit for bit (or within a tolerance, for kernels
 * not meant to be bit-exact), and measure both kernel and reference
 * against the exact-accumulation result.  Any problem the reference takes
 * (classic or general: formats, scales, bias, bf16/fp16/fp32 outputs). */
#ifndef PG_VERIFY_OUTPUTS_H
#define PG_VERIFY_OUTPUTS_H

#include <stdint.h>

#include "problem_ref.h"
#include "runfile.h"
#include "ulp_hist.h"

#define PG_VERIFY_MAX_FIRST 64

/* What counts as a pass.  exact: every element bit-identical to the
 * reference.  ulp: within N ulps of the reference (NaN only where the
 * reference is NaN).  rel: |run - ref| <= abs or <= rel * |ref|. */
typedef enum { PG_TOL_EXACT = 0, PG_TOL_ULP = 1, PG_TOL_REL = 2 } pg_tol_kind;
typedef struct {
    pg_tol_kind kind;
    int32_t ulp;
    double rel, abs;
} pg_out_tolerance;
/* "exact", "ulp:N" (N >= 0), "rel:X" or "rel:X,abs:Y" (X, Y >= 0, finite).
 * 0, or -1 with a message. */
int pg_out_tolerance_parse(const char *s, pg_out_tolerance *t);
/* "bit-exact", "within 2 ulp", "within rel 1e-03, abs 1e-06" */
void pg_out_tolerance_text(const pg_out_tolerance *t, char *buf, size_t n);
/* 1 if run value g passes against reference w under t (type out). */
int pg_out_tolerance_pass(const pg_out_tolerance *t, pg_out_dtype out, uint32_t g, uint32_t w);

/* One mismatching element and everything needed to reproduce it. */
typedef struct {
    int64_t m, n;          /* output coordinates: A row m, B row n */
    int64_t stored_row;    /* index into the run's stored rows */
    int64_t combined_row;  /* m mod P (-1 without combined) */
    uint32_t got, want;    /* kernel (run) and reference bits (the output type's) */
    uint32_t exact;        /* exact-accumulation bits */
    int32_t ulp_got, ulp_want; /* distances to `exact` */
    int32_t ulp_ref;       /* distance of got to want */
    int poison;            /* `got` is a NaN the epilogue never produces */
    int outside;           /* outside the tolerance */
} pg_mismatch;

typedef struct {
    /* what was compared */
    pg_accum_mode mode;      /* when accum is a preset */
    pg_epilogue epilogue;
    pg_accum_params accum;   /* the reference's accumulation */
    char library[32];        /* the reference's library preset ("" classic) */
    pg_out_dtype out;
    pg_out_tolerance tol;
    char description[200];   /* pg_problem_ref_describe of the reference */
    char baseline[96];       /* what ulp_got/ulp_want measure against */
    int64_t rows, N, compared, mismatched;
    int64_t outside_tol;     /* mismatches outside the tolerance (all of them when bit-exact) */
    int32_t max_ulp_ref;     /* largest finite ulp distance run vs reference */
    double max_abs_err, max_rel_err; /* run vs reference, over finite pairs */
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
    /* distance to the baseline (correctly rounded for the classic problem:
     * exact accumulation, single rounding) for the run's values and for
     * the reference's, with absolute and relative errors per bin */
    pg_ulp_hist ulp_got, ulp_want;
} pg_verify_result;

typedef struct {
    const pg_accum_params *accum; /* NULL: the run's */
    const pg_lib_epilogue *lib;   /* NULL: the run's library, or the scale kind's default */
    pg_epilogue epi;
    pg_out_tolerance tol;         /* zero: bit-exact */
    int max_first;                /* <= PG_VERIFY_MAX_FIRST */
} pg_verify_opts;

/* Compare the run's stored outputs (D or D32 for rows) with the reference.
 * Needs a run read with PG_READ_PROBLEM | PG_READ_OUTPUT.  0 on success
 * (mismatches are results, not errors); -1 with a message on bad input. */
int pg_verify_outputs_opts(const pg_run *run, const pg_verify_opts *o, pg_verify_result *out);
/* The same in a named mode, bit-exact. */
int pg_verify_outputs(const pg_run *run, pg_accum_mode mode, pg_epilogue epi, int max_first,
                      pg_verify_result *out);
/* Pass: no element outside the tolerance, and (bit-exact only) no stored
 * accumulator differs. */
int pg_verify_result_pass(const pg_verify_result *r);
void pg_verify_result_free(pg_verify_result *r);

/* Is this BF16 value a NaN other than the one the epilogue produces?
 * Such a value in an output means the element was never written. */
int pg_bf16_is_foreign_nan(uint16_t h);

#endif
