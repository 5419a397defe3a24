/* `pegemm demo`'s held-out section: issue 12's target (tile period within
 * 3%, every mean wait within 15% or 150 cycles) on the default kernel's
 * committed held-out sweep (traces/held_out/bres_epi_*.h5: bres on an H100,
 * --epi-delay 0 to 8,000), fitted on its zero-delay run only. */
#ifndef PG_DEMO_HELDOUT_H
#define PG_DEMO_HELDOUT_H

#include <stdio.h>

#include "model.h"
#include "pg_json.h"
#include "report_index.h"

/* Writes the rows and a count line to out and txt, a "held_out" key into j
 * and an item into rep; *periods / *within / *total: the out-of-sample runs
 * with the period target met / both targets met / predicted.  A reported figure, not one of the demo's
 * checks (its known misses are documented).  0 (also when the sweep is not
 * in source_dir: *total = 0), or -1 with a message. */
int pg_demo_heldout(const char *source_dir, const pg_model_opts *o, FILE *out, FILE *txt, pg_json *j, pg_report *rep,
                    int *periods, int *within, int *total);

#endif
