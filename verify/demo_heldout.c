/* `pegemm demo`: issue 12's target on bres's held-out sweep (demo_heldout.h). */
#include "demo_heldout.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "pg_error.h"
#include "validate.h"

/* the committed sweep, calibration first */
static const int sweep_delays[] = {0, 400, 800, 1200, 1600, 2000, 2400, 3200, 4800, 8000};
#define SWEEP_N (int)(sizeof sweep_delays / sizeof sweep_delays[0])

static void print_rows(FILE *f, const pg_validate_report *r)
{
    fprintf(f, "    %-24s %10s %10s %8s  %-6s %s\n", "run", "measured", "predicted", "period", "", "waits");
    for (int i = 0; i < r->n; i++) {
        const pg_validate_row *w = &r->rows[i];
        const char *name = strrchr(w->path, '/') ? strrchr(w->path, '/') + 1 : w->path;
        if (w->whatif.why_not[0]) {
            fprintf(f, "    %-24s not predicted: %s\n", name, w->whatif.why_not);
            continue;
        }
        fprintf(f, "    %-24s %10.1f %10.1f %+7.1f%%  %-6s %s%s\n", name, w->period_measured, w->period_predicted,
                100 * (w->period_predicted / w->period_measured - 1),
                w->self_fit ? "self" : w->period_ok ? "ok" : "MISS", w->self_fit ? "(self-fit) " : "",
                w->waits_ok ? "ok" : "MISS");
    }
}

static void write_json(pg_json *j, const pg_validate_report *r)
{
    pg_json_key(j, "held_out");
    pg_json_object_begin(j);
    pg_json_kv_string(j, "schedule", r->schedule);
    pg_json_kv_string(j, "fitted_on", r->rows[0].path);
    pg_json_key(j, "runs");
    pg_json_array_begin(j);
    for (int i = 1; i < r->n; i++) {
        const pg_validate_row *w = &r->rows[i];
        pg_json_object_begin(j);
        pg_json_kv_string(j, "path", w->path);
        pg_json_kv_number(j, "tile_period_measured", w->period_measured);
        pg_json_kv_number(j, "tile_period_predicted", w->period_predicted);
        pg_json_kv_bool(j, "tile_period_ok", w->period_ok);
        pg_json_kv_bool(j, "waits_ok", w->waits_ok);
        pg_json_object_end(j);
    }
    pg_json_array_end(j);
    pg_json_kv_int(j, "out_of_sample_runs", r->oos);
    pg_json_kv_int(j, "out_of_sample_period_ok", r->oos_period_ok);
    pg_json_kv_int(j, "out_of_sample_both_ok", r->oos_both_ok);
    pg_json_object_end(j);
}

int pg_demo_heldout(const char *source_dir, const pg_model_opts *o, FILE *out, FILE *txt, pg_json *j, pg_report *rep,
                    int *periods, int *within, int *total)
{
    static char paths[SWEEP_N][4200];
    const char *runs[SWEEP_N];
    struct stat st;
    *periods = *within = *total = 0;
    for (int i = 0; i < SWEEP_N; i++) {
        snprintf(paths[i], sizeof paths[i], "%s/traces/held_out/bres_epi_%05d.h5", source_dir, sweep_delays[i]);
        if (stat(paths[i], &st) != 0)
            return 0; /* not this checkout's: nothing to report */
        runs[i] = paths[i];
    }
    pg_validate_report r;
    const pg_validate_opts v = {0};
    if (pg_model_validate_runs(runs[0], runs + 1, SWEEP_N - 1, &v, o, &r))
        return pg_fail_context("the held-out bres sweep");
    char note[1280];
    snprintf(note, sizeof note,
             "issue 12's target (tile period within %.0f%%, every mean wait within %.0f%% or %.0f cycles), fitted on "
             "the zero-delay run only: %d of %d periods, %d of %d runs with both. Reported, not a check; its known "
             "misses: load_wait 250-300 cycles over at 1,600-2,400 (the turn comes early: the epilogue's growth "
             "with a delay, which follows the other warpgroup's store, is not in, M69; and the first load stays "
             "slow once the store leaves after its issue, M67, M68); periods -2.7%% at 400-1,200. The store "
             "drain's contention (the `stretch` line, on since M79) takes the periods past the turn from "
             "+2.7..+3.8%% to +1.1..+2.1%% and order_wait from ~+190 to within 111 cycles. Probe sets on both "
             "GPUs: docs/experiments.md M67, M68, M77; on the H200: M78, M79.",
             100 * PG_VALIDATE_PERIOD_REL, 100 * PG_VALIDATE_WAIT_REL, PG_VALIDATE_WAIT_ABS, r.oos_period_ok, r.oos,
             r.oos_both_ok, r.oos);
    for (int k = 0; k < 2; k++) {
        FILE *f = k ? txt : out;
        fprintf(f, "\n== held out: the default kernel (bres, H100) --epi-delay sweep, predicted from its zero-delay run\n");
        print_rows(f, &r);
        fprintf(f, "  %s\n", note);
    }
    write_json(j, &r);
    pg_report_section(rep, 1, "The cycle model: sweeps and what-ifs");
    pg_report_add(rep, "Held out: bres's --epi-delay sweep against issue 12's target", NULL, PG_ITEM_INFO, note);
    *periods = r.oos_period_ok;
    *within = r.oos_both_ok;
    *total = r.oos;
    pg_validate_report_free(&r);
    return 0;
}
