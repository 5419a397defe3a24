/* The fit `pegemm model validate` makes of a run (validate.h): the
 * schedule fitted on the run's trace with the check's variants (a refit of
 * an option first, so the caller's own variant wins by order), then the
 * calibration machine's floor and the check's sets.  validate.c fits the
 * calibration with it; validate_held.c fits each run and the model's
 * simulated run the same way, so that what held their waits is read by
 * one rule. */
#include <stdio.h>
#include <stdlib.h>

#include "model_ext.h"
#include "pg_error.h"
#include "sched.h"
#include "validate.h"

/* The calibration machine's copy floor, where given, is the `bandwidth`
 * line's: its DRAM share is the share of what that machine can move, not
 * of the schedule's written figure (docs/experiments.md M42: the H200's
 * 4.2 TB/s taken as 3.0 put a run at another N at rho 0.95 that ran at
 * 0.68; on our delay probes on the H200 the written figure predicts
 * better, so the scoreboard does not pass it by default).  Before any
 * prediction, the self-fit's included. */
static int calibration_floor(pg_schedule *fit, const pg_floors *floors)
{
    char opt[96];
    if (floors->cal_bytes_per_s <= 0 || fit->bw_dist < 0)
        return 0;
    snprintf(opt, sizeof opt, "bandwidth.bytes_per_s=%.17g", floors->cal_bytes_per_s);
    return pg_schedule_set(fit, opt, 0);
}

int validate_fit(const pg_run *run, const pg_validate_opts *v, const char *refit, pg_schedule **fit)
{
    const char **variant = malloc(sizeof *variant * (size_t)(v->nvariant + 1));
    int nvariant = 0, rc = -1;
    *fit = NULL;
    if (!variant)
        return pg_fail("out of memory");
    if (refit[0])
        variant[nvariant++] = refit;
    for (int i = 0; i < v->nvariant; i++)
        variant[nvariant++] = v->variant[i];
    if (pg_schedule_fit_variant(run, v->schedule, variant, nvariant, fit) == 0 &&
        calibration_floor(*fit, &v->floors) == 0 &&
        pg_schedule_set_all(*fit, v->sets, v->nsets, v->deltas, v->ndeltas) == 0)
        rc = 0;
    free(variant);
    if (rc) {
        pg_schedule_free(*fit);
        *fit = NULL;
    }
    return rc;
}
