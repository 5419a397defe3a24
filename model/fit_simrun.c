/* The model's simulated timeline as a run (pg_model_simulate_run): the
 * trace of every SM of the schedule's machine through its share of the
 * tiles (pg_model_simulate_trace, fit.c), with the measured run's kernel
 * and GPU record and the what-if's delays and the model's clock, so that
 * what reads a measured run (a fit, `pegemm trace export`, the file
 * writer) reads the prediction the same way.  `pegemm model fit
 * --trace-out` writes it (cli_model_trace.c); `pegemm model validate
 * --held` fits it to say what held the model's waits (validate_held.c). */
#include <stdlib.h>
#include <string.h>

#include "model_ext.h"
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

int pg_model_simulate_run(const pg_schedule *s, const pg_model_opts *o, const pg_run *measured, pg_run *out)
{
    memset(out, 0, sizeof *out);
    const int n_sm = (int)s->machine.units;
    if (n_sm < 1)
        return pg_fail("schedule %s has no SMs (machine units=%d)", s->name, n_sm);
    /* the whole run per SM: a tile count below it would cut each SM short */
    pg_model_opts whole = *o;
    whole.tiles = 0;
    if (pg_model_simulate_trace(s, &whole, n_sm, &out->trace)) {
        pg_run_free(out);
        return -1;
    }
    /* without a measured run (`model predict`), or one without a kernel
     * record (a trace of another kernel), there is none to carry: the
     * trace names the kernel, else the schedule */
    const int has_kernel = measured && measured->kernel.present;
    if (has_kernel)
        simulated_kernel(s, measured, n_sm, &out->kernel);
    snprintf(out->trace.kernel, sizeof out->trace.kernel, "%s",
             has_kernel ? out->kernel.name : measured && measured->trace.kernel[0] ? measured->trace.kernel : s->name);
    out->trace.clock_hz = s->machine.clock_hz;
    return 0;
}
