/* The report of `pegemm model validate` (validate.h): one line per run,
 * self-fit and out-of-sample labelled, the target's pass/fail, as text or
 * JSON. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli_model_out.h"
#include "pg_error.h"
#include "pg_json.h"
#include "validate.h"

static const char *row_kind(const pg_validate_row *row)
{
    return row->self_fit ? "self-fit" : row->whatif.why_not[0] ? "not-predicted" : "out-of-sample";
}

static void whatif_text(const pg_whatif *w, char *buf, size_t cap)
{
    buf[0] = '\0';
    for (int i = 0; i < w->n; i++) {
        const size_t len = strlen(buf);
        snprintf(buf + len, cap - len, "%s%s", i ? " " : "", w->set[i]);
    }
    if (!buf[0])
        snprintf(buf, cap, "(none)");
}

/* --held: per latency, the share of the waits it could hold that it held */
static void held_text(FILE *f, const pg_validate_row *row)
{
    if (row->held_why_not[0])
        fprintf(f, "    held: not read (%s)\n", row->held_why_not);
    if (row->nheld == 0)
        return;
    fprintf(f, "    held (of the waits each could hold):");
    for (int i = 0; i < row->nheld; i++) {
        char m[16], p[16];
        snprintf(m, sizeof m, isfinite(row->held_measured[i]) ? "%.0f%%" : "-", 100 * row->held_measured[i]);
        snprintf(p, sizeof p, isfinite(row->held_predicted[i]) ? "%.0f%%" : "-", 100 * row->held_predicted[i]);
        fprintf(f, "%s %s measured %s predicted %s", i ? ";" : "", row->held_name[i], m, p);
    }
    if (row->held_more)
        fprintf(f, "; %d more latencies not listed", row->held_more);
    fputc('\n', f);
}

static void row_text(FILE *f, const pg_validate_row *row)
{
    char what[PG_WHATIF_MAX * PG_WHATIF_LEN];
    whatif_text(&row->whatif, what, sizeof what);
    fprintf(f, "%s  [%s]\n", row->path, row_kind(row));
    if (row->whatif.why_not[0]) {
        fprintf(f, "    not predicted: %s\n", row->whatif.why_not);
        return;
    }
    fprintf(f, "    what-if (%s): %s\n", row->whatif.kind, what);
    if (row->whatif.unmodelled[0])
        fprintf(f, "    also differs, not modelled (predicted as the calibration's): %s\n", row->whatif.unmodelled);
    fprintf(f, "    %-14s measured %9.1f  predicted %9.1f  %+6.1f%%  %s\n", "tile_period", row->period_measured,
            row->period_predicted, 100 * (row->period_predicted / row->period_measured - 1),
            row->period_ok ? "ok" : "MISS");
    if (row->startup_shift != 0)
        fprintf(f, "    (of the predicted period, %+.0f cycles: the calibration's start-up transient at this run's tiles "
                   "per SM)\n",
                row->startup_shift);
    if (isfinite(row->period_chain) && fabs(row->period_predicted / row->period_chain - 1) > 0.005)
        fprintf(f, "    (the steady chain alone: %.1f, %+.1f%%: the run keeps a state its start set, which the chain's "
                   "long average loses)\n",
                row->period_chain, 100 * (row->period_chain / row->period_measured - 1));
    if (row->clock_predicted > 0 && row->clock_measured > 0)
        fprintf(f, "    %-14s measured %9.4f  predicted %9.4f  %+6.1f%%  (GHz; the clock line's law at the power cap)\n",
                "sm_clock", row->clock_measured / 1e9, row->clock_predicted / 1e9,
                100 * (row->clock_predicted / row->clock_measured - 1));
    if (isfinite(row->l2_kept) && row->l2_kept != row->l2_kept_cal)
        fprintf(f, "    (%.0f%% of its %.1f MB working set kept in the L2 between launches, the calibration's %.0f%%: "
                   "the l2reuse line's loads moved)\n",
                100 * row->l2_kept, row->l2_working_set / 1e6, 100 * row->l2_kept_cal);
    for (int w = 0; w < row->nwaits; w++)
        fprintf(f, "    %-14s measured %9.1f  predicted %9.1f  %+6.0f     %s\n", row->wait_name[w], row->wait_measured[w],
                row->wait_predicted[w], row->wait_predicted[w] - row->wait_measured[w], row->wait_ok[w] ? "ok" : "MISS");
    held_text(f, row);
}

/* Out-of-sample counts per kind of change (the rows' whatif.kind), in the
 * order the kinds first appear. */
#define MAX_KINDS 128
typedef struct {
    int n;
    const char *kind[MAX_KINDS];
    int runs[MAX_KINDS], period_ok[MAX_KINDS], waits_ok[MAX_KINDS], both_ok[MAX_KINDS];
    /* the period's relative error (predicted / measured - 1): its sum, least
     * and greatest, so that a bias that repeats across a change shows beside
     * the counts (docs/experiments.md M117) */
    double err_sum[MAX_KINDS], err_min[MAX_KINDS], err_max[MAX_KINDS];
} kind_counts;

static void count_kinds(const pg_validate_report *r, kind_counts *c)
{
    memset(c, 0, sizeof *c);
    for (int i = 0; i < r->n; i++) {
        const pg_validate_row *row = &r->rows[i];
        if (row->self_fit || row->whatif.why_not[0])
            continue;
        int k = 0;
        while (k < c->n && strcmp(c->kind[k], row->whatif.kind) != 0)
            k++;
        if (k == c->n) {
            if (c->n == MAX_KINDS)
                continue; /* more kinds than combinations of seven: cannot happen */
            c->kind[c->n++] = row->whatif.kind;
        }
        const double err = row->period_predicted / row->period_measured - 1;
        if (c->runs[k] == 0 || err < c->err_min[k])
            c->err_min[k] = err;
        if (c->runs[k] == 0 || err > c->err_max[k])
            c->err_max[k] = err;
        c->err_sum[k] += err;
        c->runs[k]++;
        c->period_ok[k] += row->period_ok;
        c->waits_ok[k] += row->waits_ok;
        c->both_ok[k] += row->period_ok && row->waits_ok;
    }
}

static int report_text(FILE *f, const pg_validate_report *r)
{
    fprintf(f, "schedule %s fitted on %s; every other run predicted from what it differs in\n", r->schedule,
            r->rows[0].path);
    fprintf(f, "target: tile period within %.0f%%, each mean wait within %.0f%% or %.0f cycles (cycles per tile)\n",
            100 * PG_VALIDATE_PERIOD_REL, 100 * PG_VALIDATE_WAIT_REL, PG_VALIDATE_WAIT_ABS);
    fprintf(f, "(self-fit: the calibration reproduced by construction; out-of-sample: a run the fit never saw)\n");
    if (r->model_changes[0])
        fprintf(f, "model changed for every run (variant: before the fit; set, delta: after it): %s\n",
                r->model_changes);
    if (r->thin_latencies[0])
        fprintf(f, "held few of the calibration's waits, so known from their longest values only (runs where they "
                   "bind more test them): %s\n",
                r->thin_latencies);
    if (r->loop_unmeasured[0])
        fprintf(f, "note: %s\n", r->loop_unmeasured);
    if (r->cluster_unmodelled[0])
        fprintf(f, "note: %s\n", r->cluster_unmodelled);
    for (int i = 0; i < r->n; i++)
        row_text(f, &r->rows[i]);
    kind_counts c;
    count_kinds(r, &c);
    for (int k = 0; k < c.n; k++)
        fprintf(f, "by change %s: %d runs; period within target %d, waits %d, both %d; period error mean %+.1f%% "
                   "(%+.1f..%+.1f%%)\n",
                c.kind[k], c.runs[k], c.period_ok[k], c.waits_ok[k], c.both_ok[k], 100 * c.err_sum[k] / c.runs[k],
                100 * c.err_min[k], 100 * c.err_max[k]);
    fprintf(f, "out-of-sample: %d runs; period within target %d, waits %d, both %d", r->oos, r->oos_period_ok,
            r->oos_waits_ok, r->oos_both_ok);
    if (r->not_predicted)
        fprintf(f, "; %d not predicted", r->not_predicted);
    fprintf(f, ": %s\n", pg_validate_pass(r) ? "PASS" : "FAIL");
    return ferror(f) ? pg_fail("write error") : 0;
}

static void row_json(pg_json *j, const pg_validate_row *row)
{
    pg_json_object_begin(j);
    pg_json_kv_string(j, "path", row->path);
    pg_json_kv_string(j, "kind", row_kind(row));
    if (row->whatif.why_not[0]) {
        pg_json_kv_string(j, "not_predicted", row->whatif.why_not);
        pg_json_object_end(j);
        return;
    }
    pg_json_key(j, "what_if");
    pg_json_array_begin(j);
    for (int i = 0; i < row->whatif.n; i++)
        pg_json_string(j, row->whatif.set[i]);
    pg_json_array_end(j);
    pg_json_kv_string(j, "change", row->whatif.kind);
    pg_json_kv_string(j, "unmodelled", row->whatif.unmodelled);
    pg_json_kv_number(j, "tile_period_measured", row->period_measured);
    pg_json_kv_number(j, "tile_period_predicted", row->period_predicted);
    pg_json_kv_bool(j, "tile_period_ok", row->period_ok);
    pg_json_kv_number(j, "startup_shift_cycles", row->startup_shift);
    pg_json_kv_number(j, "tile_period_chain", row->period_chain);
    pg_json_kv_number(j, "sm_clock_hz_measured", row->clock_measured);
    pg_json_kv_number(j, "sm_clock_hz_predicted", row->clock_predicted);
    pg_json_kv_number(j, "l2_working_set_bytes", row->l2_working_set);
    pg_json_kv_number(j, "l2_kept", row->l2_kept);
    pg_json_kv_number(j, "l2_kept_calibration", row->l2_kept_cal);
    pg_json_key(j, "waits");
    pg_json_object_begin(j);
    for (int w = 0; w < row->nwaits; w++) {
        pg_json_key(j, row->wait_name[w]);
        pg_json_object_begin(j);
        pg_json_kv_number(j, "measured", row->wait_measured[w]);
        pg_json_kv_number(j, "predicted", row->wait_predicted[w]);
        pg_json_kv_bool(j, "ok", row->wait_ok[w]);
        pg_json_object_end(j);
    }
    pg_json_object_end(j);
    pg_json_kv_bool(j, "waits_ok", row->waits_ok);
    if (row->held_why_not[0])
        pg_json_kv_string(j, "held_not_read", row->held_why_not);
    if (row->held_more)
        pg_json_kv_int(j, "held_more", row->held_more);
    if (row->nheld) {
        pg_json_key(j, "held");
        pg_json_object_begin(j);
        for (int i = 0; i < row->nheld; i++) {
            pg_json_key(j, row->held_name[i]);
            pg_json_object_begin(j);
            pg_json_kv_number(j, "measured", row->held_measured[i]);
            pg_json_kv_number(j, "predicted", row->held_predicted[i]);
            pg_json_object_end(j);
        }
        pg_json_object_end(j);
    }
    pg_json_kv_string(j, "bottleneck", row->bottleneck);
    pg_json_object_end(j);
}

static int report_json(FILE *f, const pg_validate_report *r)
{
    pg_json j;
    pg_json_init(&j, f, 1);
    pg_json_object_begin(&j);
    pg_json_kv_string(&j, "schedule", r->schedule);
    pg_json_kv_string(&j, "fitted_on", r->rows[0].path);
    pg_json_kv_string(&j, "thin_latencies", r->thin_latencies);
    pg_json_kv_string(&j, "loop_unmeasured", r->loop_unmeasured);
    pg_json_kv_string(&j, "cluster_unmodelled", r->cluster_unmodelled);
    pg_json_kv_string(&j, "model_changes", r->model_changes);
    pg_json_kv_number(&j, "target_period_rel", PG_VALIDATE_PERIOD_REL);
    pg_json_kv_number(&j, "target_wait_rel", PG_VALIDATE_WAIT_REL);
    pg_json_kv_number(&j, "target_wait_cycles", PG_VALIDATE_WAIT_ABS);
    pg_json_key(&j, "runs");
    pg_json_array_begin(&j);
    for (int i = 0; i < r->n; i++)
        row_json(&j, &r->rows[i]);
    pg_json_array_end(&j);
    pg_json_kv_int(&j, "out_of_sample_runs", r->oos);
    pg_json_kv_int(&j, "out_of_sample_period_ok", r->oos_period_ok);
    pg_json_kv_int(&j, "out_of_sample_waits_ok", r->oos_waits_ok);
    pg_json_kv_int(&j, "out_of_sample_both_ok", r->oos_both_ok);
    pg_json_kv_int(&j, "not_predicted", r->not_predicted);
    kind_counts c;
    count_kinds(r, &c);
    pg_json_key(&j, "by_change");
    pg_json_array_begin(&j);
    for (int k = 0; k < c.n; k++) {
        pg_json_object_begin(&j);
        pg_json_kv_string(&j, "change", c.kind[k]);
        pg_json_kv_int(&j, "runs", c.runs[k]);
        pg_json_kv_int(&j, "period_ok", c.period_ok[k]);
        pg_json_kv_int(&j, "waits_ok", c.waits_ok[k]);
        pg_json_kv_int(&j, "both_ok", c.both_ok[k]);
        pg_json_kv_number(&j, "period_error_mean", c.err_sum[k] / c.runs[k]);
        pg_json_kv_number(&j, "period_error_min", c.err_min[k]);
        pg_json_kv_number(&j, "period_error_max", c.err_max[k]);
        pg_json_object_end(&j);
    }
    pg_json_array_end(&j);
    pg_json_kv_bool(&j, "pass", pg_validate_pass(r));
    pg_json_object_end(&j);
    return pg_json_finish(&j);
}

int validate_print(FILE *f, const pg_validate_report *r, int json)
{
    return json ? report_json(f, r) : report_text(f, r);
}
