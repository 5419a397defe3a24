/* Deterministic inputs: the same bytes from (family, seed, shape) on every
 * machine and thread count (a counter-based generator: each element's value
 * depends only on seed, tensor and index). */
#ifndef PG_INPUTS_H
#define PG_INPUTS_H

#include "problem.h"

typedef enum {
    PG_FAM_NORMAL = 0, /* Gaussian, scaled, rounded to E4M3 */
    PG_FAM_CODES,      /* uniform over all finite codes (widest exponent spread) */
    PG_FAM_BAND,       /* narrow exponent band, random signs (heavy cancellation) */
    PG_FAM_SUBNORMAL,  /* half the codes subnormal */
    PG_FAM_SPECIAL,    /* zeros, +-448 and NaN codes sprinkled in */
    PG_FAM_COUNT
} pg_family;

const char *pg_family_name(pg_family f);
int pg_family_parse(const char *s, pg_family *out); /* -1 with message listing families */

/* Allocate and fill p (A, B, combined) for `shape`; -1 with a message on a
 * bad shape or out of memory (nothing left allocated). */
int pg_problem_generate(pg_problem *p, pg_shape shape, pg_family f, uint64_t seed);
/* The same, showing progress on a terminal under `label` (NULL: none). */
int pg_problem_generate_progress(pg_problem *p, pg_shape shape, pg_family f, uint64_t seed, const char *label);
/* Fill only A rows [r0, r1) into dst ([r1-r0, K]); used by the GPU runner
 * and by readers that regenerate inputs a run file does not store. */
void pg_generate_A_rows(pg_family f, uint64_t seed, pg_shape shape, int64_t r0, int64_t r1, uint8_t *dst);

#endif
