/* The terms of the general problem beyond the classic one: operand formats,
 * scales, bias and output type (docs/numerics.md, docs/format.md): their
 * sizes, checks, deterministic generation from the seed, and one line
 * that names them. */
#ifndef PG_PROBLEM_TERMS_H
#define PG_PROBLEM_TERMS_H

#include <stddef.h>
#include <stdint.h>

#include "problem.h"
#include "scaled.h"

/* Elements of scale_a and scale_b (or mx_a, mx_b) for scale kind `s`:
 * none 0/0, tensor 1/1, rowcol M/N, block M*KB / NB*KB, mx M*K/32 / N*K/32. */
void pg_scale_counts(pg_scale_kind s, const pg_shape *sh, int64_t *na, int64_t *nb);
/* Their HDF5 shapes: rank 1 or 2 and dims (tensor [1], rowcol [M], block
 * [M, KB] / [NB, KB], mx [M, K/32] / [N, K/32]). */
int pg_scale_dims(pg_scale_kind s, const pg_shape *sh, int64_t da[2], int64_t db[2]);

/* The terms are consistent: known formats, scale kind and types; arrays
 * present for the scale kind and the bias; MX needs K a multiple of 32;
 * every bias value exact in bias_dtype; scales finite.  -1 with a message
 * naming the term otherwise. */
int pg_problem_terms_check(const pg_problem *p);
/* Only the kinds and their combinations (no arrays): for problems whose
 * inputs are not loaded. */
int pg_problem_terms_check_kinds(const pg_problem *p);

/* Make the generated problem `p` (A and B as E4M3 codes from its family
 * and seed, fmt_*, scale, has_bias, bias_dtype, out set) general: A or B
 * re-encoded to E5M2 where asked (the same values rounded to E5M2), the
 * scales (2^u with u uniform in [-2, 2), so not powers of two; MX codes
 * 127 +- 4) and the bias (N(0, 1/2) rounded to bias_dtype) from the seed.
 * Deterministic: the same bytes on every machine and thread count. */
int pg_problem_terms_generate(pg_problem *p);

/* "e4m3 x e5m2, rowcol scales, bf16 bias, bf16 out, no combined" */
void pg_problem_terms_text(const pg_problem *p, char *buf, size_t n);

#endif
