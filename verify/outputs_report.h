/* Presenting an output verification: text for the terminal (summary,
 * x/. mismatch map, first mismatches, ULP histogram), JSON, and the ULP
 * histogram as SVG. */
#ifndef PG_VERIFY_OUTPUTS_REPORT_H
#define PG_VERIFY_OUTPUTS_REPORT_H

#include <stdio.h>

#include "outputs.h"
#include "pg_json.h"

void pg_verify_outputs_print(FILE *f, const char *run_path, const pg_run *run, const pg_verify_result *r);
/* One JSON object (the caller places it: top level or as a value). */
void pg_verify_outputs_json(pg_json *j, const char *run_path, const pg_run *run, const pg_verify_result *r);
/* Histogram of both distances to the correctly rounded result. */
int pg_verify_ulp_svg(const char *path, const char *title, const pg_verify_result *r);
/* One-line verdict: "PASS: ..." or "FAIL: ...". */
void pg_verify_outputs_verdict(FILE *f, const char *run_path, const pg_verify_result *r);

#endif
