/* `pegemm model validate --held` (docs/experiments.md M152): what held
 * each wait, measured and predicted.  A wait ends at the latest of its
 * dependencies (an event plus a latency); the fit reads off a trace which
 * dependency held each tile's wait (fit_latencies.c: a latency's
 * fit_bound of the fit_seen tiles whose wait it could hold).  The run's
 * own trace and the model's simulated run of its prediction are fitted
 * the same way (validate_fit), so one rule reads both.  On the fixed
 * pingpong the period error follows the difference in the turn's share
 * (M152, M153: r = -0.95 to -0.96 over the plain delayed runs of sets
 * 66-68), and it shows where a phase transition -- the turn against the
 * store's drain -- falls in the kernel and in the model.
 * Each row costs two fits and a simulation, so the check asks for it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model_ext.h"
#include "pg_error.h"
#include "sched.h"
#include "validate.h"

/* latency d of fit x could hold a wait there */
static int could_hold(const pg_schedule *x, int d)
{
    return x->dists[d].kind != DKIND_PHASE && x->dists[d].fit_seen > 0;
}

/* the row's slot for latency `name`, added (both shares NAN) where new;
 * -1 when the row is full */
static int slot(pg_validate_row *row, const char *name)
{
    for (int i = 0; i < row->nheld; i++)
        if (strcmp(row->held_name[i], name) == 0)
            return i;
    if (row->nheld == PG_VALIDATE_MAX_HELD)
        return -1;
    const int i = row->nheld++;
    snprintf(row->held_name[i], sizeof row->held_name[i], "%s", name);
    row->held_measured[i] = row->held_predicted[i] = NAN;
    return i;
}

/* each latency the fit saw able to hold a wait: its share held */
static void record(pg_validate_row *row, const pg_schedule *fit, int predicted)
{
    for (int d = 0; d < fit->ndists; d++) {
        const sch_dist *x = &fit->dists[d];
        if (!could_hold(fit, d))
            continue;
        const int i = slot(row, x->name);
        if (i < 0)
            continue;
        const double share = (double)x->fit_bound / (double)x->fit_seen;
        *(predicted ? &row->held_predicted[i] : &row->held_measured[i]) = share;
    }
}

/* how many latencies, by name, either fit saw able to hold a wait */
static int seen_in_either(const pg_schedule *a, const pg_schedule *b)
{
    int n = 0;
    for (int d = 0; d < a->ndists; d++)
        n += could_hold(a, d);
    for (int d = 0; d < b->ndists; d++) {
        int in_a = 0;
        for (int e = 0; e < a->ndists && !in_a; e++)
            in_a = could_hold(a, e) && strcmp(a->dists[e].name, b->dists[d].name) == 0;
        n += could_hold(b, d) && !in_a;
    }
    return n;
}

void validate_held(const pg_run *run, const pg_schedule *run_fit, const pg_schedule *predicted,
                   const pg_validate_opts *v, const char *refit, const pg_model_opts *o, pg_validate_row *row)
{
    pg_schedule *own_fit = NULL, *of_model = NULL;
    pg_run sim;
    memset(&sim, 0, sizeof sim);
    int rc = run_fit ? 0 : validate_fit(run, v, refit, &own_fit);
    const pg_schedule *of_run = run_fit ? run_fit : own_fit;
    if (rc == 0)
        rc = pg_model_simulate_run(predicted, o, run, &sim);
    if (rc == 0)
        rc = validate_fit(&sim, v, refit, &of_model);
    if (rc == 0) {
        record(row, of_run, 0);
        record(row, of_model, 1);
        row->held_more = seen_in_either(of_run, of_model) - row->nheld;
    } else { /* said in the row; the prediction stands */
        snprintf(row->held_why_not, sizeof row->held_why_not, "%s", pg_last_error());
        row->nheld = row->held_more = 0;
    }
    pg_schedule_free(own_fit);
    pg_schedule_free(of_model);
    pg_run_free(&sim);
}
