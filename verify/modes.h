/* The numerics report between reference modes: the reference in every
 * accumulation mode and both epilogues, each measured against the correctly
 * rounded result (exact accumulation, single rounding), plus how often the
 * modes disagree with each other and what double rounding costs. */
#ifndef PG_VERIFY_MODES_H
#define PG_VERIFY_MODES_H

#include <stdint.h>
#include <stdio.h>

#include "accum.h"
#include "formats.h"
#include "pg_json.h"
#include "problem.h"
#include "ulp_hist.h"

typedef struct {
    pg_shape shape;
    char family[32];
    uint64_t seed;
    int64_t rows; /* rows computed (all M, or a selection) */
    pg_ulp_hist hist[PG_ACC_COUNT][PG_EPI_COUNT];  /* vs correctly rounded */
    int64_t epi_differ[PG_ACC_COUNT];             /* double vs single epilogue, same mode */
    int64_t mode_differ[PG_ACC_COUNT][PG_ACC_COUNT]; /* double epilogue D, mode vs mode */
    double seconds[PG_ACC_COUNT];                 /* reference time per mode (informative) */
} pg_modes_report;

/* Run the reference in every mode over `rows` (NULL: all M). */
int pg_modes_compare(const pg_problem *p, const int64_t *rows, int64_t nrows, pg_modes_report *out);
void pg_modes_print(FILE *f, const pg_modes_report *r);
void pg_modes_json(pg_json *j, const pg_modes_report *r);
/* Grouped ULP histogram, one bar set per mode (double epilogue) plus the
 * single-rounding epilogue of the kernel's mode (sm90). */
int pg_modes_svg(const char *path, const pg_modes_report *r);

#endif
