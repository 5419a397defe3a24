/* Thinning a run's stored outputs to a deterministic sample of its rows,
 * so big runs verify in seconds (the demo on a 2-core CI machine). */
#ifndef PG_VERIFY_RUN_SELECT_H
#define PG_VERIFY_RUN_SELECT_H

#include <stdint.h>

#include "runfile.h"

/* Keep at most `keep` stored rows, evenly spaced over the stored ones and
 * always including the first and the last; D, acc and rows are compacted
 * in place (rows becomes an explicit list).  No-op when keep >= nrows. */
int pg_run_sample_rows(pg_run *run, int64_t keep);

/* Load the inputs that verifying the stored rows needs, after a read
 * without PG_READ_PROBLEM: B and combined in full, and only the A rows the
 * run stores outputs for (regenerated from family + seed; A is allocated
 * at full size but untouched rows are never written, so the memory and the
 * time follow the number of stored rows, not M).  Inputs stored in the
 * file (family "file") are read in full from `path`. */
int pg_run_load_inputs_for_rows(pg_run *run, const char *path);

#endif
