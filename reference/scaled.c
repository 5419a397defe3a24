/* Scaled FP8 GEMMs: the accumulator (accum_params.c) then the library's
 * epilogue.  Compiled as ISO C17, so a*b + c is two roundings unless
 * written as fmaf (GCC contracts only in GNU modes). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm.h"
#include "pg_error.h"
#include "scaled.h"

static const char *const k_out_names[PG_OUT_COUNT] = {"bf16", "fp16", "fp32"};
static const char *const k_scale_names[PG_SCALE_COUNT] = {"none", "tensor", "rowcol", "block", "mx"};

const char *pg_out_dtype_name(pg_out_dtype t)
{
    return (t >= 0 && t < PG_OUT_COUNT) ? k_out_names[t] : "?";
}

const char *pg_scale_kind_name(pg_scale_kind s)
{
    return (s >= 0 && s < PG_SCALE_COUNT) ? k_scale_names[s] : "?";
}

static int parse_name(const char *s, const char *const *names, int n, const char *what, int *out)
{
    for (int i = 0; i < n; i++) {
        if (s != NULL && strcmp(s, names[i]) == 0) {
            *out = i;
            return 0;
        }
    }
    char list[96] = "";
    for (int i = 0; i < n; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", names[i]);
    return pg_fail("unknown %s '%s' (valid: %s)", what, s ? s : "(null)", list);
}

int pg_out_dtype_parse(const char *s, pg_out_dtype *out)
{
    int v = 0;
    if (parse_name(s, k_out_names, PG_OUT_COUNT, "output type", &v) != 0)
        return -1;
    *out = (pg_out_dtype)v;
    return 0;
}

int pg_scale_kind_parse(const char *s, pg_scale_kind *out)
{
    int v = 0;
    if (parse_name(s, k_scale_names, PG_SCALE_COUNT, "scale kind", &v) != 0)
        return -1;
    *out = (pg_scale_kind)v;
    return 0;
}

/* The orders below were chosen by the ground truth (tests/test_groundtruth.c
 * tries every order and prints the mismatch counts; docs/numerics.md). */
static const pg_lib_epilogue k_lib[] = {
    {"torch-cublaslt", PG_SCALE_AB_THEN_ACC, PG_BIAS_F32_ADD,
     "H100, torch 2.11.0+cu130, cuBLASLt 130100: all 294912 + 294912 elements (fast accum off / on) of "
     "reference/groundtruth/data/scaled_mm_gt.h5; the next best order (fma bias) misses 1 and 3"},
    {"torch-cutlass-rowwise", PG_SCALE_ACC_B_A, PG_BIAS_F32_ADD,
     "H100, torch 2.11.0+cu130: all 184320 + 184320 elements (fast accum off / on) of "
     "reference/groundtruth/data/scaled_mm_gt.h5; the next best order (fma bias) misses 1 and 2"},
};

const pg_lib_epilogue *pg_lib_epilogue_find(const char *name)
{
    for (size_t i = 0; i < sizeof k_lib / sizeof k_lib[0]; i++)
        if (name != NULL && strcmp(name, k_lib[i].name) == 0)
            return &k_lib[i];
    pg_fail("unknown library preset '%s' (valid: torch-cublaslt, torch-cutlass-rowwise)", name ? name : "(null)");
    return NULL;
}

const pg_lib_epilogue *pg_lib_epilogue_default(pg_scale_kind s)
{
    return &k_lib[s == PG_SCALE_ROWCOL ? 1 : 0];
}

static uint32_t convert(float x, pg_out_dtype out)
{
    switch (out) {
    case PG_OUT_BF16: return pg_bf16_from_f32(x);
    case PG_OUT_FP16: return pg_fp16_from_f32(x);
    default: return isnan(x) ? PG_F32_QNAN_BITS : pg_f32_bits(x);
    }
}

/* The scaled accumulator with its last multiply left open: t = x * y. */
static void scale_factors(pg_scale_order o, float acc, float sa, float sb, float *x, float *y)
{
    switch (o) {
    case PG_SCALE_AB_THEN_ACC: *x = sa * sb, *y = acc; break;
    case PG_SCALE_ACC_A_B: *x = acc * sa, *y = sb; break;
    case PG_SCALE_ACC_B_A: *x = acc * sb, *y = sa; break;
    default: /* PG_SCALE_ONCE: acc * sa is exact in double; one more rounding to double, then to float */
        *x = (float)((double)acc * sa * sb), *y = 1.0f;
        break;
    }
}

/* value (fp32) + bias in the output format, one RNE rounding of the exact sum. */
static uint32_t add_in_out_format(float value, float bias, pg_out_dtype out)
{
    if (out == PG_OUT_BF16)
        return pg_bf16_add(pg_bf16_from_f32(value), pg_bf16_from_f32(bias));
    if (out == PG_OUT_FP16) {
        /* two fp16 values: the exact sum is a multiple of 2^-24 below 2^17,
         * an integer count of 2^-24 units in int64; round that count to the
         * fp16 quantum (RNE), and the result converts to fp16 exactly */
        double s = (double)pg_fp16_to_f32((uint16_t)pg_fp16_from_f32(value)) + (double)bias;
        if (isnan(s) || isinf(s))
            return pg_fp16_from_f32((float)s);
        int64_t units = (int64_t)ldexp(s, 24);
        uint64_t mag = (uint64_t)(units < 0 ? -units : units);
        if (mag == 0)
            return (s < 0 || signbit(s)) ? 0x8000 : 0x0000;
        int top = 63 - __builtin_clzll(mag);
        int drop = top - 10 > 0 ? top - 10 : 0; /* 11 significant bits, or the 2^-24 grid */
        if (drop > 0) {
            uint64_t kept = mag >> drop, rem = mag & ((UINT64_C(1) << drop) - 1), half = UINT64_C(1) << (drop - 1);
            mag = (kept + (rem > half || (rem == half && (kept & 1)))) << drop;
        }
        float f = (float)ldexp((double)mag, -24);
        return pg_fp16_from_f32(units < 0 ? -f : f);
    }
    return convert(value + bias, out);
}

uint32_t pg_scaled_epilogue(const pg_lib_epilogue *e, float acc, float sa, float sb, int has_bias, float bias,
                            pg_out_dtype out)
{
    float x, y;
    scale_factors(e->scale_order, acc, sa, sb, &x, &y);
    if (!has_bias)
        return convert(x * y, out);
    switch (e->bias_order) {
    case PG_BIAS_F32_ADD: return convert(x * y + bias, out); /* two roundings: ISO C, no contraction */
    case PG_BIAS_ONCE: return convert(fmaf(x, y, bias), out);
    default: return add_in_out_format(x * y, bias, out);
    }
}

/* E8M0 scale code -> exponent (value 2^(x - 127)); 255 is NaN. */
static int e8m0_exp(uint8_t x)
{
    return (int)x - 127;
}

static float mx_acc(const pg_scaled_problem *sp, const pg_accum_params *p, int64_t m, int64_t n)
{
    const uint8_t *a = sp->A + m * sp->K, *b = sp->B + n * sp->K;
    float special;
    if (pg_dot_specials(sp->fmt_a, sp->fmt_b, a, b, sp->K, &special))
        return special;
    int64_t nb = sp->K / PG_MX_BLOCK_K;
    float acc = 0.0f, c = 0.0f;
    for (int64_t j = 0; j < nb; j++) {
        uint8_t xa = sp->mx_a[m * nb + j], xb = sp->mx_b[n * nb + j];
        if (xa == 0xFF || xb == 0xFF)
            return pg_f32_from_bits(PG_F32_QNAN_BITS);
        if (p->promote_k > 0 && j > 0 && (j * PG_MX_BLOCK_K) % p->promote_k == 0) {
            acc = acc + c;
            c = 0.0f;
        }
        c = pg_tc_chain_params(p, sp->fmt_a, sp->fmt_b, a + j * PG_MX_BLOCK_K, b + j * PG_MX_BLOCK_K,
                               PG_MX_BLOCK_K, c, e8m0_exp(xa) + e8m0_exp(xb));
    }
    return p->promote_k > 0 ? acc + c : c;
}

static float block_acc(const pg_scaled_problem *sp, const pg_accum_params *p, int64_t m, int64_t n)
{
    pg_accum_params group = *p;
    group.promote_k = 0;
    int64_t kb = (sp->K + PG_BLOCK_SCALE_K - 1) / PG_BLOCK_SCALE_K;
    const uint8_t *a = sp->A + m * sp->K, *b = sp->B + n * sp->K;
    float acc = 0.0f;
    for (int64_t g = 0; g < kb; g++) {
        int64_t k0 = g * PG_BLOCK_SCALE_K, len = sp->K - k0 < PG_BLOCK_SCALE_K ? sp->K - k0 : PG_BLOCK_SCALE_K;
        float partial = pg_dot_params(&group, sp->fmt_a, sp->fmt_b, a + k0, b + k0, len);
        float scale = sp->scale_a[m * kb + g] * sp->scale_b[(n / PG_BLOCK_SCALE_K) * kb + g];
        acc = fmaf(partial, scale, acc);
    }
    return acc;
}

float pg_scaled_acc(const pg_scaled_problem *sp, const pg_accum_params *p, int64_t m, int64_t n)
{
    if (sp->scale == PG_SCALE_BLOCK)
        return block_acc(sp, p, m, n);
    if (sp->scale == PG_SCALE_MX)
        return mx_acc(sp, p, m, n);
    return pg_dot_params(p, sp->fmt_a, sp->fmt_b, sp->A + m * sp->K, sp->B + n * sp->K, sp->K);
}

static int check_problem(const pg_scaled_problem *sp, const pg_accum_params *p, const pg_lib_epilogue *e,
                         const void *D)
{
    if (sp == NULL || e == NULL || D == NULL || sp->A == NULL || sp->B == NULL)
        return pg_fail("scaled GEMM: missing problem, epilogue, inputs or output");
    if (pg_accum_params_check(p) != 0)
        return -1;
    if (sp->M < 1 || sp->N < 1 || sp->K < 1)
        return pg_fail("scaled GEMM: shape %lld x %lld x %lld", (long long)sp->M, (long long)sp->N, (long long)sp->K);
    if (sp->fmt_a < 0 || sp->fmt_a >= PG_FMT_COUNT || sp->fmt_b < 0 || sp->fmt_b >= PG_FMT_COUNT ||
        sp->out < 0 || sp->out >= PG_OUT_COUNT || sp->scale < 0 || sp->scale >= PG_SCALE_COUNT)
        return pg_fail("scaled GEMM: unknown operand format, output type or scale kind");
    if (sp->scale != PG_SCALE_NONE && sp->scale != PG_SCALE_MX && (sp->scale_a == NULL || sp->scale_b == NULL))
        return pg_fail("scaled GEMM: scale kind '%s' needs scale_a and scale_b", pg_scale_kind_name(sp->scale));
    if (sp->scale == PG_SCALE_MX) {
        if (sp->mx_a == NULL || sp->mx_b == NULL)
            return pg_fail("scaled GEMM: MX scaling needs mx_a and mx_b");
        if (sp->K % PG_MX_BLOCK_K != 0)
            return pg_fail("scaled GEMM: MX scaling needs K a multiple of %d (K = %lld)", PG_MX_BLOCK_K,
                           (long long)sp->K);
        if (p->kind != PG_SUM_BLOCK || p->block_k != PG_MX_BLOCK_K)
            return pg_fail("scaled GEMM: MX scaling needs a tensor-core preset with block_k = %d ('%s')",
                           PG_MX_BLOCK_K, p->name);
    }
    return 0;
}

/* The fast path: under a named preset, the vector kernels of gemm.c give
 * every element's pg_scaled_acc (any formats, block and MX scales; tested
 * against it).  0, 1 when the path does not apply, -1 on failure. */
static int fast_acc(const pg_scaled_problem *sp, const pg_accum_params *p, float *acc)
{
    int mode = pg_accum_params_mode(p);
    if (mode < 0)
        return 1;
    return pg_gemm_scaled_acc(sp, (pg_accum_mode)mode, acc);
}

static void store(const pg_scaled_problem *sp, void *D, int64_t at, uint32_t bits)
{
    if (sp->out == PG_OUT_FP32)
        ((uint32_t *)D)[at] = bits;
    else
        ((uint16_t *)D)[at] = (uint16_t)bits;
}

int pg_scaled_gemm(const pg_scaled_problem *sp, const pg_accum_params *p, const pg_lib_epilogue *e, void *D,
                   float *acc)
{
    if (check_problem(sp, p, e, D) != 0)
        return -1;
    int64_t M = sp->M, N = sp->N;
    float *own = NULL;
    if (acc == NULL) {
        own = acc = malloc((size_t)(M * N) * sizeof *acc);
        if (own == NULL)
            return pg_fail("scaled GEMM: out of memory for %lld x %lld accumulators", (long long)M, (long long)N);
    }
    int fast = fast_acc(sp, p, acc);
    if (fast < 0) {
        free(own);
        return -1;
    }
#pragma omp parallel for schedule(dynamic, 1)
    for (int64_t m = 0; m < M; m++) {
        for (int64_t n = 0; n < N; n++) {
            float v = fast == 0 ? acc[m * N + n] : pg_scaled_acc(sp, p, m, n);
            float sa = 1.0f, sb = 1.0f;
            if (sp->scale == PG_SCALE_TENSOR)
                sa = sp->scale_a[0], sb = sp->scale_b[0];
            else if (sp->scale == PG_SCALE_ROWCOL)
                sa = sp->scale_a[m], sb = sp->scale_b[n];
            store(sp, D, m * N + n,
                  pg_scaled_epilogue(e, v, sa, sb, sp->bias != NULL, sp->bias ? sp->bias[n] : 0.0f, sp->out));
            acc[m * N + n] = v;
        }
    }
    free(own);
    return 0;
}
