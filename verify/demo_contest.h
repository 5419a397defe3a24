/* `pegemm demo`'s design-contest section: issue 14's dual-GEMM contest
 * (model/contests/dual-gemm.contest) predicted, and measured beside it
 * where traces/dual/measured.txt exists. */
#ifndef PG_DEMO_CONTEST_H
#define PG_DEMO_CONTEST_H

#include <stdio.h>

#include "model.h"
#include "pg_json.h"
#include "report_index.h"

/* Writes the table to out and txt, a "contest" key into j and an item into
 * rep.  0, or -1 with a message (a missing contest file is an error; a
 * missing measured file is not). */
int pg_demo_contest(const char *source_dir, const pg_model_opts *o, FILE *out, FILE *txt, pg_json *j, pg_report *rep);

#endif
