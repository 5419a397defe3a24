/* `pegemm model fit RUN.h5 --trace-out PRED.h5`: the fitted (and what-if'd)
 * model's own timeline, written as a run file in the trace schema
 * (docs/format.md), so that what reads a measured trace -- `pegemm trace
 * export --chrome`, `pegemm model fit`, `verify trace`, a user's own
 * scripts -- reads the prediction the same way: where each wait falls,
 * which tile's loop overlaps which epilogue, not only the means.
 *
 * The simulation (pg_model_simulate_trace) runs every SM of the fitted
 * machine from an empty pipeline through its share of the tiles, at the
 * bandwidth equilibrium, as a traced run holds them.  From `model fit` the
 * file records the measured run's kernel and GPU with the what-if's delays
 * and the model's clock; from `model predict` (no run) the trace names the
 * schedule and has no kernel record.  Neither has a problem or outputs (a
 * trace-only v2 file). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_model_trace.h"
#include "pg_error.h"
#include "sched.h"

/* A numeric option of the schedule (the what-if's value), else dflt. */
static long long option_ll(const pg_schedule *s, const char *name, long long dflt)
{
    char v[64], *end;
    if (pg_schedule_option(s, name, v, sizeof v))
        return dflt;
    const double x = strtod(v, &end);
    return end != v ? (long long)x : dflt;
}

/* The kernel record of the simulated run: the measured one's, with the
 * model's SM count, clock and probe delays. */
static void simulated_kernel(const pg_schedule *s, const pg_run *measured, int n_sm, pg_kernel_info *k)
{
    *k = measured->kernel;
    k->present = 1;
    if (!k->name[0])
        snprintf(k->name, sizeof k->name, "%s", measured->trace.kernel[0] ? measured->trace.kernel : s->name);
    k->sm_count = n_sm;
    k->sm_clock_hz = s->machine.clock_hz;
    k->trace_build = 1;
    k->epi_delay = option_ll(s, "epi_delay", 0);
    k->mainloop_delay = option_ll(s, "mainloop_delay", 0);
    k->stages = (int)option_ll(s, "stages", k->stages);
}

int model_trace_write(const char *path, const pg_schedule *s, const pg_model_opts *o, const pg_run *measured)
{
    const int n_sm = (int)s->machine.units;
    if (n_sm < 1)
        return pg_fail("schedule %s has no SMs (machine units=%d)", s->name, n_sm);
    pg_run sim;
    memset(&sim, 0, sizeof sim);
    /* the whole run per SM: a tile count below it would cut each SM short */
    pg_model_opts whole = *o;
    whole.tiles = 0;
    int rc = pg_model_simulate_trace(s, &whole, n_sm, &sim.trace);
    if (rc == 0) {
        /* without a measured run (`model predict`), or one without a kernel
         * record (a trace of another kernel), there is none to carry: the
         * trace names the kernel, else the schedule */
        const int has_kernel = measured && measured->kernel.present;
        if (has_kernel)
            simulated_kernel(s, measured, n_sm, &sim.kernel);
        snprintf(sim.trace.kernel, sizeof sim.trace.kernel, "%s",
                 has_kernel ? sim.kernel.name : measured && measured->trace.kernel[0] ? measured->trace.kernel : s->name);
        sim.trace.clock_hz = s->machine.clock_hz;
        rc = pg_run_write(path, &sim, 0);
    }
    if (rc)
        pg_fail_context("--trace-out %s", path);
    pg_run_free(&sim);
    return rc;
}
