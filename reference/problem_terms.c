/* The general problem's terms: sizes, checks, generation, description. */
#include "problem_terms.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pg_error.h"
#include "rng.h"

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

int pg_scale_dims(pg_scale_kind s, const pg_shape *sh, int64_t da[2], int64_t db[2])
{
    int64_t KB = ceil_div(sh->K, PG_BLOCK_SCALE_K), NB = ceil_div(sh->N, PG_BLOCK_SCALE_K);
    switch (s) {
    case PG_SCALE_TENSOR: da[0] = db[0] = 1; return 1;
    case PG_SCALE_ROWCOL: da[0] = sh->M, db[0] = sh->N; return 1;
    case PG_SCALE_BLOCK: da[0] = sh->M, da[1] = KB, db[0] = NB, db[1] = KB; return 2;
    case PG_SCALE_MX:
        da[0] = sh->M, db[0] = sh->N, da[1] = db[1] = sh->K / PG_MX_BLOCK_K;
        return 2;
    default: return 0;
    }
}

void pg_scale_counts(pg_scale_kind s, const pg_shape *sh, int64_t *na, int64_t *nb)
{
    int64_t da[2] = {0, 1}, db[2] = {0, 1};
    int rank = pg_scale_dims(s, sh, da, db);
    *na = rank == 0 ? 0 : rank == 1 ? da[0] : da[0] * da[1];
    *nb = rank == 0 ? 0 : rank == 1 ? db[0] : db[0] * db[1];
}

/* x rounded to the output type t and back (exact when x is a value of t). */
static float round_to(float x, pg_out_dtype t)
{
    switch (t) {
    case PG_OUT_BF16: return pg_bf16_to_f32(pg_bf16_from_f32(x));
    case PG_OUT_FP16: return pg_fp16_to_f32(pg_fp16_from_f32(x));
    default: return x;
    }
}

int pg_problem_terms_check_kinds(const pg_problem *p)
{
    if (p->fmt_a < 0 || p->fmt_a >= PG_FMT_COUNT || p->fmt_b < 0 || p->fmt_b >= PG_FMT_COUNT)
        return pg_fail("unknown operand format code %d / %d", p->fmt_a, p->fmt_b);
    if (p->scale < 0 || p->scale >= PG_SCALE_COUNT)
        return pg_fail("unknown scale kind code %d", p->scale);
    if (p->out < 0 || p->out >= PG_OUT_COUNT || p->bias_dtype < 0 || p->bias_dtype >= PG_OUT_COUNT)
        return pg_fail("unknown output or bias type code %d / %d", p->out, p->bias_dtype);
    if (p->shape.P > 0 && p->out != PG_OUT_BF16)
        return pg_fail("the combined term is a BF16 add: it needs bf16 output (output is %s; use P = 0 for none)",
                       pg_out_dtype_name(p->out));
    if (p->scale == PG_SCALE_MX && p->shape.K % PG_MX_BLOCK_K != 0)
        return pg_fail("MX scaling needs K a multiple of %d (K = %lld)", PG_MX_BLOCK_K, (long long)p->shape.K);
    return 0;
}

int pg_problem_terms_check(const pg_problem *p)
{
    if (pg_problem_terms_check_kinds(p) != 0)
        return -1;
    int64_t na, nb;
    pg_scale_counts(p->scale, &p->shape, &na, &nb);
    if (p->scale == PG_SCALE_MX && (p->mx_a == NULL || p->mx_b == NULL))
        return pg_fail("MX scaling needs the E8M0 scales mx_a and mx_b");
    if (p->scale != PG_SCALE_MX && p->scale != PG_SCALE_NONE) {
        if (p->scale_a == NULL || p->scale_b == NULL)
            return pg_fail("scale kind '%s' needs scale_a and scale_b", pg_scale_kind_name(p->scale));
        for (int64_t i = 0; i < na + nb; i++) {
            float v = i < na ? p->scale_a[i] : p->scale_b[i - na];
            if (!isfinite(v))
                return pg_fail("scale_%c[%lld] is not finite", i < na ? 'a' : 'b', (long long)(i < na ? i : i - na));
        }
    }
    if (p->has_bias) {
        if (p->bias == NULL)
            return pg_fail("the problem has a bias but no bias values");
        for (int64_t n = 0; n < p->shape.N; n++) {
            float v = p->bias[n];
            if (!isnan(v) && pg_f32_bits(round_to(v, p->bias_dtype)) != pg_f32_bits(v))
                return pg_fail("bias[%lld] = %.9g is not a %s value", (long long)n, v,
                               pg_out_dtype_name(p->bias_dtype));
        }
    }
    return 0;
}

/* Uniform in [0, 1) from 53 bits. */
static double uniform(uint64_t seed, uint64_t tensor, uint64_t index)
{
    return (double)(pg_rng_u64(seed, tensor, index) >> 11) * 0x1p-53;
}

static void to_e5m2(uint8_t *codes, int64_t n)
{
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++)
        codes[i] = pg_e5m2_from_f32(pg_fp8_to_f32(codes[i]));
}

static void fill_scales(const pg_problem *p, float *sa, float *sb, uint8_t *xa, uint8_t *xb, int64_t na, int64_t nb)
{
    for (int64_t i = 0; i < na + nb; i++) {
        uint64_t t = i < na ? PG_RNG_TENSOR_SCALE_A : PG_RNG_TENSOR_SCALE_B, j = (uint64_t)(i < na ? i : i - na);
        if (xa != NULL) {
            uint8_t code = (uint8_t)(127 - 4 + (int)(pg_rng_u64(p->seed, t, j) % 9));
            (i < na ? xa : xb)[j] = code;
        } else {
            (i < na ? sa : sb)[j] = (float)exp2(4.0 * uniform(p->seed, t, j) - 2.0);
        }
    }
}

int pg_problem_terms_generate(pg_problem *p)
{
    if (pg_problem_terms_check_kinds(p) != 0)
        return -1;
    const pg_shape *s = &p->shape;
    if (p->fmt_a == PG_FMT_E5M2)
        to_e5m2(p->A, s->M * s->K);
    if (p->fmt_b == PG_FMT_E5M2)
        to_e5m2(p->B, s->N * s->K);
    int64_t na, nb;
    pg_scale_counts(p->scale, s, &na, &nb);
    int mx = p->scale == PG_SCALE_MX;
    if (na > 0) {
        size_t es = mx ? 1 : sizeof(float);
        void *a = calloc((size_t)na, es), *b = calloc((size_t)nb, es);
        if (a == NULL || b == NULL) {
            free(a);
            free(b);
            return pg_fail("out of memory for %lld + %lld scales", (long long)na, (long long)nb);
        }
        if (mx)
            p->mx_a = a, p->mx_b = b;
        else
            p->scale_a = a, p->scale_b = b;
        fill_scales(p, p->scale_a, p->scale_b, p->mx_a, p->mx_b, na, nb);
    }
    if (p->has_bias) {
        if ((p->bias = malloc((size_t)s->N * sizeof *p->bias)) == NULL)
            return pg_fail("out of memory for the bias");
        for (int64_t n = 0; n < s->N; n++) {
            /* approximately N(0, 1/2): a sum of four uniforms, centred */
            double u = 0;
            for (int w = 0; w < 4; w++)
                u += uniform(p->seed, PG_RNG_TENSOR_BIAS_TERM, (uint64_t)(4 * n + w));
            p->bias[n] = round_to((float)((u - 2.0) * 1.2247), (pg_out_dtype)p->bias_dtype);
        }
    }
    return 0;
}

void pg_problem_terms_text(const pg_problem *p, char *buf, size_t n)
{
    char bias[24] = "no bias";
    if (p->has_bias)
        snprintf(bias, sizeof bias, "%s bias", pg_out_dtype_name((pg_out_dtype)p->bias_dtype));
    snprintf(buf, n, "%s x %s, %s scales, %s, %s out, %s", pg_fp8_format_name((pg_fp8_format)p->fmt_a),
             pg_fp8_format_name((pg_fp8_format)p->fmt_b), pg_scale_kind_name((pg_scale_kind)p->scale), bias,
             pg_out_dtype_name((pg_out_dtype)p->out), p->shape.P > 0 ? "combined" : "no combined");
}
