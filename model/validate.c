/* Fit on one run, predict the others from their own attributes, hold each
 * prediction to issue 12's target (validate.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fit.h"
#include "model_ext.h"
#include "pg_error.h"
#include "sched.h"
#include "validate.h"

static int within(double predicted, double measured, double rel, double abs_cycles)
{
    const double d = fabs(predicted - measured);
    return d <= rel * fabs(measured) || d <= abs_cycles;
}

/* The fitted schedule with the run's what-ifs, or why_not when the
 * schedule cannot express one (an option it lacks). */
static int apply_whatif(const pg_schedule *fit, pg_validate_row *row, pg_schedule **out)
{
    *out = NULL;
    if (pg_schedule_clone(fit, out))
        return -1;
    for (int i = 0; i < row->whatif.n; i++)
        if (pg_schedule_set(*out, row->whatif.set[i], 0)) {
            snprintf(row->whatif.why_not, sizeof row->whatif.why_not, "the schedule cannot express %s: %s",
                     row->whatif.set[i], pg_last_error());
            pg_schedule_free(*out);
            *out = NULL;
            return 0;
        }
    return 0;
}

/* Measured and predicted period and waits of one run; the waits are the
 * ones its trace has (the schedule's, by pg_schedule_match_trace). */
static void compare(pg_validate_row *row, const pg_prediction *m, const pg_prediction *p)
{
    row->period_measured = m->tile_period;
    row->period_predicted = p->tile_period;
    row->startup_shift = p->startup_shift;
    row->period_chain = p->tile_period_chain;
    row->l2_working_set = p->l2_working_set;
    row->l2_kept = p->l2_kept;
    row->l2_kept_cal = p->l2_kept_cal;
    row->clock_measured = m->clock_hz;
    row->clock_predicted = p->clock_hz;
    row->period_ok = fabs(p->tile_period / m->tile_period - 1) <= PG_VALIDATE_PERIOD_REL;
    row->waits_ok = 1;
    for (int w = 0; w < m->nwaits && row->nwaits < PG_VALIDATE_MAX_WAITS; w++) {
        const pg_stat *ps = pg_prediction_find(p, m->waits[w].name);
        const int k = row->nwaits++;
        snprintf(row->wait_name[k], sizeof row->wait_name[k], "%s", m->waits[w].name);
        row->wait_measured[k] = m->waits[w].mean;
        row->wait_predicted[k] = ps ? ps->mean : NAN;
        row->wait_ok[k] = ps && within(ps->mean, m->waits[w].mean, PG_VALIDATE_WAIT_REL, PG_VALIDATE_WAIT_ABS);
        row->waits_ok &= row->wait_ok[k];
    }
    snprintf(row->bottleneck, sizeof row->bottleneck, "%s", p->bottleneck);
}

/* The calibration fitted again for a run's build (M148): kept for the
 * next run that asks for the same option, fitted once per check. */
typedef struct {
    char key[PG_WHATIF_LEN]; /* the refit ("" none yet) */
    pg_schedule *fit;
} refit_cache;

/* The fit for row's refit, from the cache or made into it; NULL with
 * row's why_not set where the fit fails. */
static const pg_schedule *refitted(const pg_run *cal, const pg_validate_opts *v, refit_cache *cache,
                                   pg_validate_row *row)
{
    if (cache->fit && strcmp(cache->key, row->whatif.refit) == 0)
        return cache->fit;
    pg_schedule_free(cache->fit);
    cache->fit = NULL;
    if (validate_fit(cal, v, row->whatif.refit, &cache->fit)) {
        snprintf(row->whatif.why_not, sizeof row->whatif.why_not, "the calibration fitted again with %s fails: %s",
                 row->whatif.refit, pg_last_error());
        return NULL;
    }
    snprintf(cache->key, sizeof cache->key, "%s", row->whatif.refit);
    return cache->fit;
}

/* The run's what-ifs on the fit (on the calibration fitted again where the
 * run's build needs an option refitted), predicted (and, with --held, what
 * held its waits): 1, or 0 with why_not. */
static int predict_from(const pg_run *cal, const pg_run *run, const pg_schedule *fit, const pg_validate_opts *v,
                        refit_cache *cache, const pg_model_opts *o, pg_validate_row *row, pg_prediction *p)
{
    pg_schedule *c = NULL;
    if (row->whatif.refit[0] && !(fit = refitted(cal, v, cache, row)))
        return 0;
    if (apply_whatif(fit, row, &c))
        return -1;
    if (!c)
        return 0;
    int rc = pg_model_predict_clocked(fit, c, o, p) ? pg_fail_context("predicting %s", row->path) : 0;
    if (rc == 0 && v->held)
        /* the self-fit's run is the calibration, fitted as validate_fit
         * fits it already: `fit` (a failure is said in the row) */
        validate_held(run, row->self_fit ? fit : NULL, c, v, row->whatif.refit, o, row);
    pg_schedule_free(c);
    return rc ? -1 : 1;
}

static int predict_row(const pg_run *cal, const pg_run *run, const pg_schedule *fit, const pg_validate_opts *v,
                       refit_cache *cache, const pg_model_opts *o, pg_validate_row *row)
{
    pg_prediction m, p;
    if (pg_whatif_derive(cal, run, fit, &v->floors, &row->whatif))
        return -1;
    if (row->whatif.why_not[0])
        return 0;
    if (pg_schedule_match_trace(fit, &run->trace))
        return pg_fail_context("%s", row->path);
    if (pg_trace_summarize_period(&run->trace, run->kernel.sm_clock_hz, pg_schedule_period_phase(fit), &m))
        return pg_fail_context("%s", row->path);
    m.clock_hz = run->kernel.sm_clock_hz;
    const int predicted = predict_from(cal, run, fit, v, cache, o, row, &p);
    if (predicted < 0)
        return -1;
    if (predicted)
        compare(row, &m, &p);
    return 0;
}

static void count(pg_validate_report *r)
{
    for (int i = 0; i < r->n; i++) {
        const pg_validate_row *row = &r->rows[i];
        if (row->self_fit)
            continue;
        if (row->whatif.why_not[0]) {
            r->not_predicted++;
            continue;
        }
        r->oos++;
        r->oos_period_ok += row->period_ok;
        r->oos_waits_ok += row->waits_ok;
        r->oos_both_ok += row->period_ok && row->waits_ok;
    }
}

/* The same file under another name (./a.h5 and a.h5, a link) too. */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (strcmp(a, b) == 0)
        return 1;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* One run at a time (a trace is tens of MB): read, predict, free. */
static int run_rows(const pg_run *cal, const pg_schedule *fit, const char *const *paths, int n,
                    const pg_validate_opts *v, refit_cache *cache, const pg_model_opts *o, pg_validate_report *r)
{
    for (int i = 0; i < n; i++) {
        pg_run run;
        pg_validate_row *row = &r->rows[r->n];
        if (same_file(paths[i], r->rows[0].path))
            continue; /* the calibration: its self-fit row is the first */
        row->path = paths[i];
        if (pg_run_read(paths[i], &run, PG_READ_TRACE))
            return -1;
        int rc = 0;
        if (run.trace.n == 0) /* a bench file among the runs: said, not fatal */
            snprintf(row->whatif.why_not, sizeof row->whatif.why_not,
                     "no trace (a bench or untraced run): nothing measured to compare with");
        else
            rc = predict_row(cal, &run, fit, v, cache, o, row);
        pg_run_free(&run);
        if (rc)
            return -1;
        r->n++;
    }
    return 0;
}

/* A calibration run in clusters of CTAs that share loads (/kernel cluster,
 * recorded since M162): a shared stage waits for every CTA of the cluster to
 * release it, and the engine runs one CTA, so its predictions carry the
 * calibration's coupling unchanged.  Said for every such calibration, our
 * pingpong's clusters of 2 (B multicast, a small coupling: M16) among them
 * ("" for one CTA or none recorded). */
static void cluster_unmodelled(const pg_kernel_info *k, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (k->cluster >= 2)
        snprintf(buf, cap,
                 "the calibration's kernel runs in clusters of %d CTAs that share loads (/kernel cluster): the model "
                 "runs one CTA and carries the calibration's coupling between them unchanged; where the coupling "
                 "moves with the setting it misses (bres's cluster builds: up to 5.8%% under a short delay or a "
                 "spin, docs/experiments.md M162)",
                 k->cluster);
}

/* "variant A=1; set B=2; delta C=3" for the report ("" when none) */
static void describe_changes(const pg_validate_opts *v, char *buf, size_t cap)
{
    const struct {
        const char *label;
        const char *const *items;
        int n;
    } groups[] = {{"variant", v->variant, v->nvariant}, {"set", v->sets, v->nsets}, {"delta", v->deltas, v->ndeltas}};
    buf[0] = '\0';
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
        for (int i = 0; i < groups[g].n; i++) {
            const size_t len = strlen(buf);
            if (i == 0)
                snprintf(buf + len, cap - len, "%s%s %s", len ? "; " : "", groups[g].label, groups[g].items[i]);
            else
                snprintf(buf + len, cap - len, " %s", groups[g].items[i]);
        }
}

int pg_model_validate_runs(const char *cal_path, const char *const *paths, int n, const pg_validate_opts *v,
                           const pg_model_opts *o, pg_validate_report *out)
{
    pg_run cal;
    pg_schedule *fit = NULL;
    refit_cache cache = {"", NULL};
    int rc = -1;
    memset(out, 0, sizeof *out);
    memset(&cal, 0, sizeof cal);
    out->rows = calloc((size_t)n + 1, sizeof *out->rows);
    if (!out->rows)
        return pg_fail("out of memory");
    if (pg_run_read(cal_path, &cal, PG_READ_TRACE))
        goto done;
    if (cal.trace.n == 0) {
        pg_fail("%s has no trace: the calibration is fitted on one", cal_path);
        goto done;
    }
    if (validate_fit(&cal, v, "", &fit)) {
        pg_fail_context("calibrating on %s (the fit, then its floor and sets)", cal_path);
        goto done;
    }
    snprintf(out->schedule, sizeof out->schedule, "%s", pg_schedule_name(fit));
    fit_thin_latencies(fit, out->thin_latencies, sizeof out->thin_latencies);
    fit_loop_unmeasured(fit, out->loop_unmeasured, sizeof out->loop_unmeasured);
    cluster_unmodelled(&cal.kernel, out->cluster_unmodelled, sizeof out->cluster_unmodelled);
    describe_changes(v, out->model_changes, sizeof out->model_changes);
    out->rows[0].path = cal_path;
    out->rows[0].self_fit = 1;
    if (predict_row(&cal, &cal, fit, v, &cache, o, &out->rows[0]))
        goto done;
    out->n = 1;
    if (run_rows(&cal, fit, paths, n, v, &cache, o, out))
        goto done;
    count(out);
    rc = 0;
done:
    pg_schedule_free(cache.fit);
    pg_schedule_free(fit);
    pg_run_free(&cal);
    if (rc)
        pg_validate_report_free(out);
    return rc;
}

void pg_validate_report_free(pg_validate_report *r)
{
    free(r->rows);
    memset(r, 0, sizeof *r);
}

int pg_validate_pass(const pg_validate_report *r)
{
    return r->oos > 0 && r->oos_both_ok == r->oos && r->not_predicted == 0;
}
