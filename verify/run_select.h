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

#endif
