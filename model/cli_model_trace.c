/* `pegemm model fit RUN.h5 --trace-out PRED.h5`: the fitted (and what-if'd)
 * model's own timeline, written as a run file in the trace schema
 * (docs/format.md), so that what reads a measured trace -- `pegemm trace
 * export --chrome`, `pegemm model fit`, `verify trace`, a user's own
 * scripts -- reads the prediction the same way: where each wait falls,
 * which tile's loop overlaps which epilogue, not only the means.
 *
 * The simulation (pg_model_simulate_run, fit_simrun.c) runs every SM of the fitted
 * machine from an empty pipeline through its share of the tiles, at the
 * bandwidth equilibrium, as a traced run holds them.  From `model fit` the
 * file records the measured run's kernel and GPU with the what-if's delays
 * and the model's clock; from `model predict` (no run) the trace names the
 * schedule and has no kernel record.  Neither has a problem or outputs (a
 * trace-only v2 file). */
#include "cli_model_trace.h"
#include "model_ext.h"
#include "pg_error.h"

int model_trace_write(const char *path, const pg_schedule *s, const pg_model_opts *o, const pg_run *measured)
{
    pg_run sim;
    int rc = pg_model_simulate_run(s, o, measured, &sim);
    if (rc == 0) {
        rc = pg_run_write(path, &sim, 0);
        pg_run_free(&sim);
    }
    if (rc)
        pg_fail_context("--trace-out %s", path);
    return rc;
}
