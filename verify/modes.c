#include "modes.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gemm.h"
#include "pg_error.h"
#include "pg_progress.h"
#include "pg_svg.h"

int pg_modes_compare(const pg_problem *p, const int64_t *rows, int64_t nrows, pg_modes_report *out)
{
    int rc = -1;
    const int64_t N = p->shape.N;
    uint16_t *exact = NULL;
    uint16_t *D[PG_ACC_COUNT] = {0};
    float *acc = NULL;

    memset(out, 0, sizeof *out);
    out->shape = p->shape;
    snprintf(out->family, sizeof out->family, "%s", p->family);
    out->seed = p->seed;
    if (!rows)
        nrows = p->shape.M;
    out->rows = nrows;
    const size_t cells = (size_t)(nrows * N);
    exact = malloc(cells * sizeof *exact);
    acc = malloc(cells * sizeof *acc);
    int have_all = exact && acc;
    for (int m = 0; m < PG_ACC_COUNT; m++) {
        D[m] = malloc(cells * sizeof *D[m]);
        have_all = have_all && D[m];
    }
    if (!have_all) {
        pg_fail("out of memory for %lld x %lld outputs per mode", (long long)nrows, (long long)N);
        goto done;
    }
    if (pg_gemm_ref(p, PG_ACC_EXACT, PG_EPI_SINGLE, rows, nrows, exact, NULL, "correctly rounded") != 0)
        goto done;
    for (int m = 0; m < PG_ACC_COUNT; m++) {
        char label[48];
        snprintf(label, sizeof label, "mode %s", pg_accum_name((pg_accum_mode)m));
        double t0 = pg_now_seconds();
        /* one accumulation per mode; both epilogues are applied to it here */
        if (pg_gemm_ref(p, (pg_accum_mode)m, PG_EPI_DOUBLE, rows, nrows, D[m], acc, label) != 0) {
            pg_fail_context("reference in mode %s", pg_accum_name((pg_accum_mode)m));
            goto done;
        }
        out->seconds[m] = pg_now_seconds() - t0;
        for (int64_t i = 0; i < nrows; i++) {
            int64_t row = rows ? rows[i] : i;
            const uint16_t *c = p->combined + (row % p->shape.P) * N;
            for (int64_t n = 0; n < N; n++) {
                size_t k = (size_t)(i * N + n);
                uint16_t single = pg_epilogue_apply(PG_EPI_SINGLE, acc[k], c[n]);
                pg_ulp_hist_add(&out->hist[m][PG_EPI_DOUBLE], pg_bf16_ulp_distance(D[m][k], exact[k]));
                pg_ulp_hist_add(&out->hist[m][PG_EPI_SINGLE], pg_bf16_ulp_distance(single, exact[k]));
                out->epi_differ[m] += single != D[m][k];
            }
        }
    }
    for (int a = 0; a < PG_ACC_COUNT; a++)
        for (int b = 0; b < PG_ACC_COUNT; b++) {
            int64_t d = 0;
            for (size_t k = 0; k < cells; k++)
                d += D[a][k] != D[b][k];
            out->mode_differ[a][b] = d;
        }
    rc = 0;
done:
    free(exact);
    free(acc);
    for (int m = 0; m < PG_ACC_COUNT; m++)
        free(D[m]);
    return rc;
}

void pg_modes_print(FILE *f, const pg_modes_report *r)
{
    fprintf(f, "== numerics between reference modes\n");
    fprintf(f, "  problem M=%" PRId64 " N=%" PRId64 " K=%" PRId64 " P=%" PRId64 ", family %s, seed %" PRIu64
               ", %" PRId64 " rows\n",
            r->shape.M, r->shape.N, r->shape.K, r->shape.P, r->family, r->seed, r->rows);
    fprintf(f, "  BF16 output vs the correctly rounded result (exact accumulation, one rounding):\n");
    fprintf(f, "    %-13s %-8s %12s %10s %8s %10s   histogram [ulp]=count\n", "mode", "epilogue", "differ",
            "fraction", "max ulp", "mean ulp");
    for (int m = 0; m < PG_ACC_COUNT; m++)
        for (int e = 0; e < PG_EPI_COUNT; e++) {
            const pg_ulp_hist *h = &r->hist[m][e];
            fprintf(f, "    %-13s %-8s %12" PRId64 " %10.3g %8" PRId32 " %10.4f  ", pg_accum_name((pg_accum_mode)m),
                    pg_epilogue_name((pg_epilogue)e), h->nonzero, h->total ? (double)h->nonzero / h->total : 0.0,
                    h->max_ulp, h->total ? h->sum_ulp / h->total : 0.0);
            for (int b = 0; b < PG_ULP_BINS; b++)
                if (h->count[b])
                    fprintf(f, " [%s]=%" PRId64, pg_ulp_bin_label(b), h->count[b]);
            fputc('\n', f);
        }
    fprintf(f, "  double vs single rounding epilogue (same accumulator), elements that differ:\n   ");
    for (int m = 0; m < PG_ACC_COUNT; m++)
        fprintf(f, " %s %" PRId64, pg_accum_name((pg_accum_mode)m), r->epi_differ[m]);
    fprintf(f, "\n  modes against each other (double epilogue), elements that differ:\n    %-13s", "");
    for (int b = 0; b < PG_ACC_COUNT; b++)
        fprintf(f, " %12s", pg_accum_name((pg_accum_mode)b));
    fputc('\n', f);
    for (int a = 0; a < PG_ACC_COUNT; a++) {
        fprintf(f, "    %-13s", pg_accum_name((pg_accum_mode)a));
        for (int b = 0; b < PG_ACC_COUNT; b++)
            fprintf(f, " %12" PRId64, r->mode_differ[a][b]);
        fputc('\n', f);
    }
    fprintf(f, "  reference time per mode (s, this machine):");
    for (int m = 0; m < PG_ACC_COUNT; m++)
        fprintf(f, " %s %.2f", pg_accum_name((pg_accum_mode)m), r->seconds[m]);
    fputc('\n', f);
}

void pg_modes_json(pg_json *j, const pg_modes_report *r)
{
    pg_json_object_begin(j);
    pg_json_key(j, "shape");
    const int64_t sh[4] = {r->shape.M, r->shape.N, r->shape.K, r->shape.P};
    pg_json_int_array(j, sh, 4);
    pg_json_kv_string(j, "family", r->family);
    pg_json_kv_int(j, "seed", (int64_t)r->seed);
    pg_json_kv_int(j, "rows", r->rows);
    pg_json_key(j, "bins");
    pg_json_array_begin(j);
    for (int b = 0; b < PG_ULP_BINS; b++)
        pg_json_string(j, pg_ulp_bin_label(b));
    pg_json_array_end(j);
    pg_json_key(j, "modes");
    pg_json_array_begin(j);
    for (int m = 0; m < PG_ACC_COUNT; m++)
        for (int e = 0; e < PG_EPI_COUNT; e++) {
            const pg_ulp_hist *h = &r->hist[m][e];
            pg_json_object_begin(j);
            pg_json_kv_string(j, "mode", pg_accum_name((pg_accum_mode)m));
            pg_json_kv_string(j, "epilogue", pg_epilogue_name((pg_epilogue)e));
            pg_json_kv_int(j, "elements", h->total);
            pg_json_kv_int(j, "not_correctly_rounded", h->nonzero);
            pg_json_kv_int(j, "max_ulp", h->max_ulp);
            pg_json_kv_number(j, "mean_ulp", h->total ? h->sum_ulp / h->total : 0.0);
            pg_json_key(j, "counts");
            pg_json_int_array(j, h->count, PG_ULP_BINS);
            pg_json_object_end(j);
        }
    pg_json_array_end(j);
    pg_json_key(j, "epilogue_double_vs_single_differ");
    pg_json_object_begin(j);
    for (int m = 0; m < PG_ACC_COUNT; m++)
        pg_json_kv_int(j, pg_accum_name((pg_accum_mode)m), r->epi_differ[m]);
    pg_json_object_end(j);
    pg_json_key(j, "mode_vs_mode_differ");
    pg_json_object_begin(j);
    for (int a = 0; a < PG_ACC_COUNT; a++) {
        pg_json_key(j, pg_accum_name((pg_accum_mode)a));
        pg_json_int_array(j, r->mode_differ[a], PG_ACC_COUNT);
    }
    pg_json_object_end(j);
    pg_json_key(j, "seconds");
    pg_json_number_array(j, r->seconds, PG_ACC_COUNT);
    pg_json_object_end(j);
}

int pg_modes_svg(const char *path, const pg_modes_report *r)
{
    const char *labels[PG_ULP_BINS];
    double v[PG_ACC_COUNT + 1][PG_ULP_BINS];
    char names[PG_ACC_COUNT + 1][48];
    pg_svg_bars bars = {
        .title = "BF16 output vs correctly rounded, per accumulation mode",
        .xlabel = "ulp distance to the correctly rounded result",
        .ylabel = "elements (log scale)",
        .nbins = PG_ULP_BINS,
        .bin_labels = labels,
        .nsets = PG_ACC_COUNT + 1,
        .log_y = 1,
    };
    for (int b = 0; b < PG_ULP_BINS; b++)
        labels[b] = pg_ulp_bin_label(b);
    for (int s = 0; s <= PG_ACC_COUNT; s++) {
        int m = s < PG_ACC_COUNT ? s : PG_ACC_SM90;
        int e = s < PG_ACC_COUNT ? PG_EPI_DOUBLE : PG_EPI_SINGLE;
        snprintf(names[s], sizeof names[s], "%s, %s epilogue", pg_accum_name((pg_accum_mode)m),
                 pg_epilogue_name((pg_epilogue)e));
        for (int b = 0; b < PG_ULP_BINS; b++)
            v[s][b] = (double)r->hist[m][e].count[b];
        bars.set_labels[s] = names[s];
        bars.values[s] = v[s];
    }
    return pg_svg_bars_save(path, &bars);
}
