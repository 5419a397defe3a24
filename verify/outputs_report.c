#include "outputs_report.h"

#include <inttypes.h>
#include <math.h>

#include "out_values.h"

#include "pg_svg.h"
#include "problem_terms.h"

/* The histogram, and per non-empty bin the largest absolute and relative
 * error: a large-ULP bin whose absolute error is tiny is cancellation near
 * zero (an output near 0 has small ulps), not a wrong value. */
static void print_hist(FILE *f, const char *name, const pg_ulp_hist *h)
{
    fprintf(f, "  %-10s max %" PRId32 " ulp, mean %.4f ulp, %" PRId64 " of %" PRId64 " differ from the baseline\n",
            name, h->max_ulp, h->total ? h->sum_ulp / (double)h->total : 0.0, h->nonzero, h->total);
    for (int b = 0; b < PG_ULP_BINS; b++)
        if (h->count[b])
            fprintf(f, "    %-12s %12" PRId64 "   max abs err %-11.4g max rel err %.4g\n", pg_ulp_bin_label(b),
                    h->count[b], h->max_abs[b], h->max_rel[b]);
}

static int large_ulp_near_zero(const pg_ulp_hist *h)
{
    /* bins from 16 ulp up whose absolute errors stay small */
    for (int b = 5; b < PG_ULP_BIN_NAN; b++)
        if (h->count[b] && h->max_abs[b] < 1e-2)
            return 1;
    return 0;
}

void pg_verify_outputs_verdict(FILE *f, const char *run_path, const pg_verify_result *r)
{
    char tol[64];
    pg_out_tolerance_text(&r->tol, tol, sizeof tol);
    if (pg_verify_result_pass(r) && r->mismatched == 0)
        fprintf(f, "PASS: %s: %" PRId64 " of %" PRId64 " elements bit-exact (%s)\n", run_path, r->compared,
                r->compared, r->description);
    else if (pg_verify_result_pass(r))
        fprintf(f, "PASS: %s: %" PRId64 " of %" PRId64 " elements %s (%" PRId64 " not bit-exact, max %" PRId32
                   " ulp, max rel err %.3g; %s)\n",
                run_path, r->compared, r->compared, tol, r->mismatched, r->max_ulp_ref, r->max_rel_err,
                r->description);
    else
        fprintf(f, "FAIL: %s: %" PRId64 " of %" PRId64 " elements differ, %" PRId64 " outside the tolerance (%s; %"
                   PRId64 " unwritten, %" PRId64 " missing rows), %" PRId64 " accumulators differ (%s)\n",
                run_path, r->mismatched, r->compared, r->outside_tol, tol, r->poison, r->missing_rows,
                r->acc_mismatched, r->description);
}

void pg_verify_outputs_print(FILE *f, const char *run_path, const pg_run *run, const pg_verify_result *r)
{
    const pg_shape *s = &run->problem.shape;
    fprintf(f, "== outputs of %s\n", run_path);
    fprintf(f, "  problem M=%" PRId64 " N=%" PRId64 " K=%" PRId64 " P=%" PRId64 ", family %s, seed %" PRIu64 "\n", s->M,
            s->N, s->K, s->P, run->problem.family, run->problem.seed);
    if (run->kernel.present)
        fprintf(f, "  kernel %s on %s\n", run->kernel.name, run->kernel.device);
    char terms[128], tol[64];
    pg_problem_terms_text(&run->problem, terms, sizeof terms);
    pg_out_tolerance_text(&r->tol, tol, sizeof tol);
    fprintf(f, "  terms: %s\n", terms);
    fprintf(f, "  stored rows %" PRId64 "%s; reference: %s (run says %s, %s epilogue)\n", r->rows,
            run->rows ? " (a selection)" : " (all)", r->description, run->accum.name ? run->accum.name : "?",
            pg_epilogue_name(run->epilogue));
    fprintf(f, "  elements compared %" PRId64 ", mismatched %" PRId64 " (unwritten/poison %" PRId64 "); %s: %" PRId64
               " outside\n", r->compared, r->mismatched, r->poison, tol, r->outside_tol);
    if (r->mismatched)
        fprintf(f, "  run vs reference: max %" PRId32 " ulp, max abs err %.4g, max rel err %.4g\n", r->max_ulp_ref,
                r->max_abs_err, r->max_rel_err);
    if (r->missing_rows)
        fprintf(f, "  missing rows: %" PRId64 " stored rows hold no written value (first: m=%" PRId64 ")\n",
                r->missing_rows, r->first_missing_row);
    if (r->acc_compared)
        fprintf(f, "  fp32 accumulators compared %" PRId64 ", mismatched %" PRId64 "\n", r->acc_compared,
                r->acc_mismatched);

    if (r->mismatched) {
        fprintf(f, "  mismatch map (cell = %" PRId64 " stored rows x %" PRId64 " columns; x = mismatch, . = exact):\n",
                r->tile_rows, r->tile_cols);
        for (int64_t i = 0; i < r->map_rows; i++) {
            fprintf(f, "    m=%-8" PRId64 " ", r->map_row_first_m[i]);
            for (int64_t j = 0; j < r->map_cols; j++)
                fputc(r->map[i * r->map_cols + j] ? 'x' : '.', f);
            fputc('\n', f);
        }
        fprintf(f, "  first %d %s (ulp = distance to the baseline value):\n", r->nfirst,
                r->tol.kind == PG_TOL_EXACT ? "mismatches" : "elements outside the tolerance");
        fprintf(f, "    %9s %5s %7s  %-22s %-22s %-22s %9s %9s\n", "m", "n", "m mod P", "run", "reference",
                "baseline", "ulp(run)", "ulp(ref)");
        const int w8 = r->out == PG_OUT_FP32 ? 8 : 4;
        for (int i = 0; i < r->nfirst; i++) {
            const pg_mismatch *x = &r->first[i];
            char g[40], w[40], e[40], ug[16], uw[16];
            snprintf(g, sizeof g, "%0*x %-12.6g", w8, x->got, pg_out_value(r->out, x->got));
            snprintf(w, sizeof w, "%0*x %-12.6g", w8, x->want, pg_out_value(r->out, x->want));
            snprintf(e, sizeof e, "%0*x %-12.6g", w8, x->exact, pg_out_value(r->out, x->exact));
            snprintf(ug, sizeof ug, x->ulp_got == INT32_MAX ? "NaN" : "%" PRId32, x->ulp_got);
            snprintf(uw, sizeof uw, x->ulp_want == INT32_MAX ? "NaN" : "%" PRId32, x->ulp_want);
            fprintf(f, "    %9" PRId64 " %5" PRId64 " %7" PRId64 "  %-22s %-22s %-22s %9s %9s%s\n", x->m, x->n,
                    x->combined_row, g, w, e, ug, uw, x->poison ? "  (unwritten)" : "");
        }
        fprintf(f, "  (inputs: A row m, B row n, combined row m mod P)\n");
    }
    fprintf(f, "  distance to %s, with the largest absolute and relative error per bin:\n", r->baseline);
    print_hist(f, "run", &r->ulp_got);
    print_hist(f, "reference", &r->ulp_want);
    if (large_ulp_near_zero(&r->ulp_got) || large_ulp_near_zero(&r->ulp_want))
        fprintf(f, "  the large-ulp bins have small absolute errors: outputs near zero after cancellation, where\n"
                   "  one rounding of a large accumulator is many ulps of a tiny result (not a wrong value)\n");
}

static void json_hist(pg_json *j, const char *key, const pg_ulp_hist *h)
{
    pg_json_key(j, key);
    pg_json_object_begin(j);
    pg_json_kv_int(j, "total", h->total);
    pg_json_kv_int(j, "not_correctly_rounded", h->nonzero);
    pg_json_kv_int(j, "max_ulp", h->max_ulp);
    pg_json_kv_number(j, "mean_ulp", h->total ? h->sum_ulp / (double)h->total : 0.0);
    pg_json_key(j, "max_abs_err");
    pg_json_array_begin(j);
    for (int b = 0; b < PG_ULP_BINS; b++)
        pg_json_number(j, h->max_abs[b]);
    pg_json_array_end(j);
    pg_json_key(j, "max_rel_err");
    pg_json_array_begin(j);
    for (int b = 0; b < PG_ULP_BINS; b++)
        pg_json_number(j, h->max_rel[b]); /* null: an error where the baseline is 0 */
    pg_json_array_end(j);
    pg_json_key(j, "bins");
    pg_json_array_begin(j);
    for (int b = 0; b < PG_ULP_BINS; b++)
        pg_json_string(j, pg_ulp_bin_label(b));
    pg_json_array_end(j);
    pg_json_key(j, "counts");
    pg_json_int_array(j, h->count, PG_ULP_BINS);
    pg_json_object_end(j);
}

void pg_verify_outputs_json(pg_json *j, const char *run_path, const pg_run *run, const pg_verify_result *r)
{
    pg_json_object_begin(j);
    pg_json_kv_string(j, "run", run_path);
    char tol[64];
    pg_out_tolerance_text(&r->tol, tol, sizeof tol);
    pg_json_kv_bool(j, "pass", pg_verify_result_pass(r));
    pg_json_kv_string(j, "mode", r->accum.name);
    pg_json_kv_string(j, "epilogue", pg_epilogue_name(r->epilogue));
    pg_json_kv_string(j, "description", r->description);
    pg_json_kv_bool(j, "correctly_rounded",
                    pg_problem_ref_correctly_rounded(&run->problem, &r->accum, r->epilogue));
    pg_json_kv_string(j, "library", r->library[0] ? r->library : NULL);
    pg_json_kv_string(j, "out_dtype", pg_out_dtype_name(r->out));
    pg_json_kv_string(j, "tolerance", tol);
    pg_json_kv_int(j, "outside_tolerance", r->outside_tol);
    pg_json_kv_int(j, "max_ulp_vs_reference", r->max_ulp_ref);
    pg_json_kv_number(j, "max_abs_err", r->max_abs_err);
    pg_json_kv_number(j, "max_rel_err", r->max_rel_err);
    pg_json_kv_string(j, "baseline", r->baseline);
    pg_json_kv_string(j, "run_mode", run->accum.name ? run->accum.name : pg_accum_name(run->mode));
    pg_json_kv_string(j, "kernel", run->kernel.present ? run->kernel.name : NULL);
    pg_json_key(j, "shape");
    const int64_t sh[4] = {run->problem.shape.M, run->problem.shape.N, run->problem.shape.K, run->problem.shape.P};
    pg_json_int_array(j, sh, 4);
    pg_json_kv_int(j, "rows", r->rows);
    pg_json_kv_int(j, "compared", r->compared);
    pg_json_kv_int(j, "mismatched", r->mismatched);
    pg_json_kv_int(j, "unwritten", r->poison);
    pg_json_kv_int(j, "missing_rows", r->missing_rows);
    pg_json_kv_int(j, "acc_compared", r->acc_compared);
    pg_json_kv_int(j, "acc_mismatched", r->acc_mismatched);
    pg_json_key(j, "mismatch_map");
    pg_json_object_begin(j);
    pg_json_kv_int(j, "cell_rows", r->tile_rows);
    pg_json_kv_int(j, "cell_cols", r->tile_cols);
    pg_json_key(j, "row_first_m");
    pg_json_int_array(j, r->map_row_first_m, r->map_rows);
    pg_json_key(j, "counts");
    pg_json_array_begin(j);
    for (int64_t i = 0; i < r->map_rows; i++)
        pg_json_int_array(j, r->map + i * r->map_cols, r->map_cols);
    pg_json_array_end(j);
    pg_json_object_end(j);
    pg_json_key(j, "first_mismatches");
    pg_json_array_begin(j);
    for (int i = 0; i < r->nfirst; i++) {
        const pg_mismatch *x = &r->first[i];
        pg_json_object_begin(j);
        pg_json_kv_int(j, "m", x->m);
        pg_json_kv_int(j, "n", x->n);
        pg_json_kv_int(j, "combined_row", x->combined_row);
        pg_json_kv_int(j, "run_bits", x->got);
        pg_json_kv_number(j, "run", pg_out_value(r->out, x->got));
        pg_json_kv_int(j, "reference_bits", x->want);
        pg_json_kv_number(j, "reference", pg_out_value(r->out, x->want));
        pg_json_kv_int(j, "correctly_rounded_bits", x->exact);
        pg_json_kv_int(j, "ulp_run_vs_reference", x->ulp_ref);
        pg_json_kv_bool(j, "outside_tolerance", x->outside);
        pg_json_kv_int(j, "ulp_run", x->ulp_got);
        pg_json_kv_int(j, "ulp_reference", x->ulp_want);
        pg_json_kv_bool(j, "unwritten", x->poison);
        pg_json_object_end(j);
    }
    pg_json_array_end(j);
    json_hist(j, "ulp_run", &r->ulp_got);
    json_hist(j, "ulp_reference", &r->ulp_want);
    pg_json_object_end(j);
}

int pg_verify_ulp_svg(const char *path, const char *title, const pg_verify_result *r)
{
    const char *labels[PG_ULP_BINS];
    double got[PG_ULP_BINS], want[PG_ULP_BINS];
    for (int b = 0; b < PG_ULP_BINS; b++) {
        labels[b] = pg_ulp_bin_label(b);
        got[b] = (double)r->ulp_got.count[b];
        want[b] = (double)r->ulp_want.count[b];
    }
    pg_svg_bars bars = {
        .title = title,
        .xlabel = r->out == PG_OUT_FP16   ? "fp16 ulp distance to the exact-accumulation result"
                  : r->out == PG_OUT_FP32 ? "fp32 ulp distance to the exact-accumulation result"
                                          : "BF16 ulp distance to the exact-accumulation result",
        .ylabel = "elements (log scale)",
        .nbins = PG_ULP_BINS,
        .bin_labels = labels,
        .nsets = 2,
        .set_labels = {"run (kernel)", "reference"},
        .values = {got, want},
        .log_y = 1,
    };
    return pg_svg_bars_save(path, &bars);
}
