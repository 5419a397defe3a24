/* pg_problem_ref: dispatch to the classic vector GEMM or the scaled GEMM,
 * on a selection of rows, and the combined term after a scaled epilogue. */
#include "problem_ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm.h"
#include "pg_error.h"
#include "problem_terms.h"

size_t pg_out_dtype_size(pg_out_dtype t) { return t == PG_OUT_FP32 ? 4 : 2; }

/* The scaled problem of the selected rows: A's rows and the row-indexed
 * scales copied into *own (freed by the caller), the rest shared. */
static int select_rows(const pg_problem *p, const int64_t *rows, int64_t nrows, pg_scaled_problem *sp, void **own)
{
    const pg_shape *s = &p->shape;
    *sp = (pg_scaled_problem){.M = nrows, .N = s->N, .K = s->K, .fmt_a = p->fmt_a, .fmt_b = p->fmt_b,
                              .A = p->A, .B = p->B, .scale = p->scale, .scale_a = p->scale_a,
                              .scale_b = p->scale_b, .mx_a = p->mx_a, .mx_b = p->mx_b,
                              .bias = p->has_bias ? p->bias : NULL, .out = p->shape.P > 0 ? PG_OUT_FP32 : p->out};
    *own = NULL;
    if (rows == NULL)
        return 0;
    int64_t da[2] = {0, 1}, db[2];
    int rank = pg_scale_dims(p->scale, s, da, db);
    /* per row of A: K codes and, for rowcol/block/mx, that row's scales */
    int64_t per_row = p->scale == PG_SCALE_ROWCOL ? 1 : rank == 2 ? da[1] : 0;
    size_t es = p->scale == PG_SCALE_MX ? 1 : sizeof(float);
    size_t a_bytes = (size_t)(nrows * s->K), sc_bytes = (size_t)(nrows * per_row) * es;
    unsigned char *buf = malloc(a_bytes + sc_bytes + 8);
    if (buf == NULL)
        return pg_fail("out of memory for %lld selected rows", (long long)nrows);
    unsigned char *sc = buf + ((a_bytes + 7) / 8) * 8;
    const unsigned char *src_sc = p->scale == PG_SCALE_MX ? (const void *)p->mx_a : (const void *)p->scale_a;
    for (int64_t i = 0; i < nrows; i++) {
        memcpy(buf + i * s->K, p->A + rows[i] * s->K, (size_t)s->K);
        if (per_row > 0)
            memcpy(sc + (size_t)(i * per_row) * es, src_sc + (size_t)(rows[i] * per_row) * es, (size_t)per_row * es);
    }
    sp->A = buf;
    if (per_row > 0) {
        if (p->scale == PG_SCALE_MX)
            sp->mx_a = sc;
        else
            sp->scale_a = (const float *)sc;
    }
    *own = buf;
    return 0;
}

static int scaled_ref(const pg_problem *p, const pg_accum_params *ap, const pg_lib_epilogue *lib, pg_epilogue epi,
                      const int64_t *rows, int64_t nrows, void *D, float *acc)
{
    pg_scaled_problem sp;
    void *own = NULL, *t = NULL;
    int rc = -1;
    if (select_rows(p, rows, nrows, &sp, &own) != 0)
        return -1;
    const int64_t N = p->shape.N, P = p->shape.P;
    /* with combined, the library's fp32 result t meets it after */
    if (P > 0 && (t = malloc((size_t)(nrows * N) * sizeof(uint32_t))) == NULL) {
        pg_fail("out of memory for %lld x %lld results", (long long)nrows, (long long)N);
        goto done;
    }
    if (pg_scaled_gemm(&sp, ap, lib ? lib : pg_lib_epilogue_default(p->scale), P > 0 ? t : D, acc) != 0)
        goto done;
    if (P > 0) {
        uint16_t *d = D;
        const uint32_t *tb = t;
#pragma omp parallel for schedule(static)
        for (int64_t i = 0; i < nrows; i++) {
            int64_t m = rows ? rows[i] : i;
            for (int64_t n = 0; n < N; n++)
                d[i * N + n] = pg_epilogue_apply(epi, pg_f32_from_bits(tb[i * N + n]), p->combined[(m % P) * N + n]);
        }
    }
    rc = 0;
done:
    free(t);
    free(own);
    return rc;
}

int pg_problem_ref(const pg_problem *p, const pg_accum_params *ap, const pg_lib_epilogue *lib, pg_epilogue epi,
                   const int64_t *rows, int64_t nrows, void *D, float *acc, const char *progress_label)
{
    if (p == NULL || ap == NULL || D == NULL || p->A == NULL || p->B == NULL)
        return pg_fail("reference: missing problem, inputs, accumulation or output");
    if (pg_problem_terms_check(p) != 0 || pg_accum_params_check(ap) != 0)
        return -1;
    if (rows == NULL && nrows != p->shape.M)
        return pg_fail("reference: all rows requested but nrows = %lld != M = %lld", (long long)nrows,
                       (long long)p->shape.M);
    for (int64_t i = 0; rows != NULL && i < nrows; i++)
        if (rows[i] < 0 || rows[i] >= p->shape.M)
            return pg_fail("reference: row %lld is outside [0, M = %lld)", (long long)rows[i], (long long)p->shape.M);
    if (nrows == 0)
        return 0;
    int mode = pg_accum_params_mode(ap);
    if (pg_problem_is_classic(p) && mode >= 0)
        return pg_gemm_ref(p, (pg_accum_mode)mode, epi, rows, nrows, D, acc, progress_label);
    return scaled_ref(p, ap, lib, epi, rows, nrows, D, acc);
}

int pg_problem_ref_correctly_rounded(const pg_problem *p, const pg_accum_params *ap, pg_epilogue epi)
{
    return ap->kind == PG_SUM_EXACT && p->scale == PG_SCALE_NONE && !p->has_bias &&
           (p->shape.P == 0 || epi == PG_EPI_SINGLE);
}

void pg_problem_ref_describe(const pg_problem *p, const pg_accum_params *ap, const pg_lib_epilogue *lib,
                             pg_epilogue epi, char *buf, size_t n)
{
    const char *out = pg_out_dtype_name((pg_out_dtype)p->out);
    char lib_part[96] = "";
    if (p->scale != PG_SCALE_NONE || p->has_bias)
        snprintf(lib_part, sizeof lib_part, "%s epilogue (%s scales%s), ",
                 (lib ? lib : pg_lib_epilogue_default(p->scale))->name, pg_scale_kind_name(p->scale),
                 p->has_bias ? ", bias" : "");
    const char *last;
    if (p->shape.P == 0)
        last = p->out == PG_OUT_FP32 ? "fp32 output" : "one rounding to the output";
    else if (epi == PG_EPI_DOUBLE)
        last = "double-rounded bf16 epilogue bf16(bf16(acc) + combined)";
    else
        last = "single-rounding bf16 epilogue bf16(acc + combined)";
    char tail[16] = "";
    if (p->shape.P > 0 || p->out != PG_OUT_FP32)
        snprintf(tail, sizeof tail, " (%s)", out);
    snprintf(buf, n, "%s accumulation, %s%s%s%s", ap->name, lib_part, last, tail,
             pg_problem_ref_correctly_rounded(p, ap, epi) ? ", correctly rounded"
             : ap->kind == PG_SUM_EXACT                   ? ", not correctly rounded"
                                                          : "");
}
