/* The reference for any problem (classic or general) and any accumulation
 * parameter set, on a selection of rows: what `pegemm ref` and
 * `pegemm verify outputs` compute. */
#ifndef PG_PROBLEM_REF_H
#define PG_PROBLEM_REF_H

#include <stddef.h>
#include <stdint.h>

#include "accum_params.h"
#include "problem.h"
#include "scaled.h"

/* The bytes of one output element of type t (2 for bf16/fp16, 4 for fp32). */
size_t pg_out_dtype_size(pg_out_dtype t);

/* D for rows[0..nrows) (all M when rows == NULL), [nrows, N] elements of
 * p->out (uint16_t bf16/fp16 bits, uint32_t fp32 bits), acc [nrows, N] if
 * not NULL.  The classic problem under a named preset is pg_gemm_ref;
 * anything else is pg_scaled_gemm under `ap` and `lib` (NULL: the scale
 * kind's default preset), and then, when P > 0, `epi` with combined
 * (double: bf16(bf16(t) + c), single: bf16(t + c), t the fp32 result of
 * the library epilogue).  The bits do not depend on the thread count.
 * 0, or -1 with a message. */
int pg_problem_ref(const pg_problem *p, const pg_accum_params *ap, const pg_lib_epilogue *lib, pg_epilogue epi,
                   const int64_t *rows, int64_t nrows, void *D, float *acc, const char *progress_label);

/* One line naming what the outputs are, for summaries and reports, so that
 * nobody reads a double-rounded result as correctly rounded:
 * "exact accumulation, double-rounded bf16 epilogue bf16(bf16(acc) + combined)
 * (not correctly rounded)", "sm90 accumulation, one rounding to bf16",
 * "exact accumulation, torch-cutlass-rowwise epilogue (scales, bias) to fp16". */
void pg_problem_ref_describe(const pg_problem *p, const pg_accum_params *ap, const pg_lib_epilogue *lib,
                             pg_epilogue epi, char *buf, size_t n);
/* 1 when the outputs are the correctly rounded result: exact accumulation,
 * and one rounding after it (no combined or the single epilogue, no
 * scales or bias). */
int pg_problem_ref_correctly_rounded(const pg_problem *p, const pg_accum_params *ap, pg_epilogue epi);

#endif
