/* The schema-v2 parts of /problem and /output: the general problem's terms
 * (operand formats, scales, bias, output type; absent in v1 files, which
 * are the classic problem) and the accumulation parameter set written
 * field by field. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "h5io.h"
#include "pg_alloc.h"
#include "pg_error.h"
#include "problem_terms.h"
#include "runfile_internal.h"

/* An optional string attribute into buf; 0 absent (buf untouched), 1 read. */
static int optional_str(hid_t g, const char *o, const char *name, char *buf, size_t n)
{
    int e = pg_h5_attr_exists(g, o, name);
    if (e <= 0)
        return e;
    return pg_h5_attr_read_str(g, o, name, buf, n) < 0 ? -1 : 1;
}

int pg_runfile_read_terms_attrs(hid_t g, pg_problem *p)
{
    const char *o = "/problem";
    char fa[16] = "e4m3", fb[16] = "e4m3", sc[16] = "none", bias[16] = "none", out[16] = "bf16";
    if (optional_str(g, o, "fmt_a", fa, sizeof fa) < 0 || optional_str(g, o, "fmt_b", fb, sizeof fb) < 0 ||
        optional_str(g, o, "scale", sc, sizeof sc) < 0 || optional_str(g, o, "bias_dtype", bias, sizeof bias) < 0 ||
        optional_str(g, o, "out_dtype", out, sizeof out) < 0)
        return -1;
    pg_fp8_format a, b;
    pg_scale_kind s;
    pg_out_dtype od, bd = PG_OUT_BF16;
    if (pg_fp8_format_parse(fa, &a) < 0)
        return pg_fail_context("attribute fmt_a of /problem");
    if (pg_fp8_format_parse(fb, &b) < 0)
        return pg_fail_context("attribute fmt_b of /problem");
    if (pg_scale_kind_parse(sc, &s) < 0)
        return pg_fail_context("attribute scale of /problem");
    if (pg_out_dtype_parse(out, &od) < 0)
        return pg_fail_context("attribute out_dtype of /problem");
    if (strcmp(bias, "none") != 0 && pg_out_dtype_parse(bias, &bd) < 0)
        return pg_fail_context("attribute bias_dtype of /problem (or 'none')");
    p->fmt_a = a, p->fmt_b = b, p->scale = s, p->out = od;
    p->has_bias = strcmp(bias, "none") != 0;
    p->bias_dtype = bd;
    if (pg_problem_terms_check_kinds(p) < 0)
        return pg_fail_context("/problem attributes");
    return 0;
}

/* The scale and bias datasets: present exactly when the inputs are stored
 * and the terms call for them, of the right type and shape. */
int pg_runfile_check_terms_data(hid_t file, const pg_problem *p, int stored)
{
    static const char *const paths[3] = {"/problem/scale_a", "/problem/scale_b", "/problem/bias"};
    int64_t da[2] = {0, 0}, db[2] = {0, 0};
    int rank = pg_scale_dims((pg_scale_kind)p->scale, &p->shape, da, db);
    int want[3] = {stored && rank > 0, stored && rank > 0, stored && p->has_bias};
    for (int i = 0; i < 3; i++) {
        int e = pg_h5_exists(file, paths[i]);
        if (e < 0)
            return -1;
        if (e && !want[i])
            return pg_fail("%s is stored but the problem has %s", paths[i],
                           !stored ? "no stored inputs (A, B)" : i < 2 ? "no scales (scale = none)" : "no bias");
        if (!e && want[i])
            return pg_fail("%s is missing (the problem has %s and stores its inputs)", paths[i],
                           i < 2 ? pg_scale_kind_name((pg_scale_kind)p->scale) : "a bias");
    }
    if (want[0]) {
        const pg_h5_kind *k = p->scale == PG_SCALE_MX ? &PG_H5_U8 : &PG_H5_F32;
        const pg_h5_extent ea[2] = {{da[0], p->scale == PG_SCALE_TENSOR ? "1 (per tensor)" : "M"},
                                    {da[1], p->scale == PG_SCALE_BLOCK ? "ceil(K/128)" : "K/32"}};
        const pg_h5_extent eb[2] = {{db[0], p->scale == PG_SCALE_TENSOR ? "1 (per tensor)"
                                           : p->scale == PG_SCALE_BLOCK ? "ceil(N/128)" : "N"},
                                    {db[1], p->scale == PG_SCALE_BLOCK ? "ceil(K/128)" : "K/32"}};
        if (pg_h5_dataset_check(file, paths[0], k, rank, ea, NULL) < 0 ||
            pg_h5_dataset_check(file, paths[1], k, rank, eb, NULL) < 0)
            return -1;
    }
    if (want[2]) {
        const pg_h5_extent en[1] = {{p->shape.N, "N"}};
        if (pg_h5_dataset_check(file, paths[2], p->bias_dtype == PG_OUT_FP32 ? &PG_H5_F32 : &PG_H5_U16, 1, en,
                                NULL) < 0)
            return -1;
    }
    return 0;
}

static int load_bias(hid_t file, pg_problem *p)
{
    int64_t N = p->shape.N;
    if (!(p->bias = pg_alloc("/problem/bias", N, sizeof *p->bias)))
        return -1;
    if (p->bias_dtype == PG_OUT_FP32)
        return pg_h5_dataset_read(file, "/problem/bias", &PG_H5_F32, p->bias);
    uint16_t *bits = pg_alloc("/problem/bias", N, sizeof *bits);
    if (bits == NULL || pg_h5_dataset_read(file, "/problem/bias", &PG_H5_U16, bits) < 0) {
        free(bits);
        return -1;
    }
    for (int64_t n = 0; n < N; n++)
        p->bias[n] = p->bias_dtype == PG_OUT_BF16 ? pg_bf16_to_f32(bits[n]) : pg_fp16_to_f32(bits[n]);
    free(bits);
    return 0;
}

int pg_runfile_load_terms(hid_t file, pg_problem *p)
{
    int64_t na, nb;
    pg_scale_counts((pg_scale_kind)p->scale, &p->shape, &na, &nb);
    if (p->scale == PG_SCALE_MX) {
        if (!(p->mx_a = pg_alloc("/problem/scale_a", na, 1)) || !(p->mx_b = pg_alloc("/problem/scale_b", nb, 1)) ||
            pg_h5_dataset_read(file, "/problem/scale_a", &PG_H5_U8, p->mx_a) < 0 ||
            pg_h5_dataset_read(file, "/problem/scale_b", &PG_H5_U8, p->mx_b) < 0)
            return -1;
    } else if (na > 0) {
        if (!(p->scale_a = pg_alloc("/problem/scale_a", na, sizeof(float))) ||
            !(p->scale_b = pg_alloc("/problem/scale_b", nb, sizeof(float))) ||
            pg_h5_dataset_read(file, "/problem/scale_a", &PG_H5_F32, p->scale_a) < 0 ||
            pg_h5_dataset_read(file, "/problem/scale_b", &PG_H5_F32, p->scale_b) < 0)
            return -1;
    }
    if (p->has_bias && load_bias(file, p) < 0)
        return -1;
    if (pg_problem_terms_check(p) < 0)
        return pg_fail_context("/problem");
    return 0;
}

/* An optional integer attribute into *v (int); 0 absent, 1 read. */
static int optional_int(hid_t g, const char *name, int *v)
{
    int e = pg_h5_attr_exists(g, "/output", name);
    if (e <= 0)
        return e;
    int64_t x;
    if (pg_h5_attr_read_i64(g, "/output", name, &x) < 0)
        return -1;
    if (x < 0 || x > 4096)
        return pg_fail("attribute %s of /output is %" PRId64 " (valid: 0..4096)", name, x);
    *v = (int)x;
    return 1;
}

/* Every accum_* field (v2), or none (v1: the set is the named mode's). */
static int read_accum_fields(hid_t g, pg_accum_params *a)
{
    char kind[16], ar[16], orr[16], ce[16];
    int got = 0, r;
    const char *o = "/output";
    if ((r = optional_str(g, o, "accum_kind", kind, sizeof kind)) < 0)
        return -1;
    if (r == 0)
        return 0;
    if (optional_str(g, o, "accum_align_round", ar, sizeof ar) != 1 ||
        optional_str(g, o, "accum_out_round", orr, sizeof orr) != 1 ||
        optional_str(g, o, "accum_c_entry", ce, sizeof ce) != 1 || optional_int(g, "accum_block_k", &a->block_k) != 1 ||
        optional_int(g, "accum_align_frac_bits", &a->align_frac_bits) != 1 ||
        optional_int(g, "accum_out_frac_bits", &a->out_frac_bits) != 1 ||
        optional_int(g, "accum_promote_k", &a->promote_k) != 1)
        return pg_fail_context("/output has accum_kind, so every accum_* attribute (kind, block_k, align_frac_bits, "
                               "align_round, out_frac_bits, out_round, promote_k, c_entry)");
    if (pg_sum_kind_parse(kind, &a->kind) < 0 || pg_rounding_parse(ar, &a->align_round) < 0 ||
        pg_rounding_parse(orr, &a->out_round) < 0 || pg_c_entry_parse(ce, &a->c_entry) < 0)
        return pg_fail_context("the accum_* attributes of /output");
    got = 1;
    return got;
}

int pg_runfile_read_accum(hid_t g, pg_run *run)
{
    char name[32];
    if (pg_h5_attr_read_str(g, "/output", "mode", name, sizeof name) < 0)
        return -1;
    int custom = strcmp(name, "custom") == 0;
    if (!custom && pg_accum_parse(name, &run->mode) < 0)
        return pg_fail_context("attribute mode of /output");
    pg_accum_params a = custom ? *pg_accum_preset(PG_ACC_EXACT) : *pg_accum_preset(run->mode);
    int got = read_accum_fields(g, &a);
    if (got < 0)
        return -1;
    if (custom && !got)
        return pg_fail("attribute mode of /output is 'custom' but the accum_* attributes are missing");
    if (pg_accum_params_check(&a) < 0)
        return pg_fail_context("the accum_* attributes of /output");
    int m = pg_accum_params_mode(&a);
    if (!custom && m != (int)run->mode)
        return pg_fail("attribute mode of /output is '%s' but the accum_* attributes describe %s%s", name,
                       m >= 0 ? "the preset " : "a set of their own", m >= 0 ? pg_accum_name((pg_accum_mode)m) : "");
    if (m >= 0) {
        a = *pg_accum_preset((pg_accum_mode)m);
        run->mode = (pg_accum_mode)m;
    } else {
        a.name = "custom";
        a.hw_checked = 0;
        a.source = "read from a run file";
    }
    run->mode_custom = m < 0;
    run->accum = a;
    int e = optional_str(g, "/output", "library", run->library, sizeof run->library);
    if (e < 0)
        return -1;
    if (e == 1 && pg_lib_epilogue_find(run->library) == NULL)
        return pg_fail_context("attribute library of /output");
    return 0;
}
