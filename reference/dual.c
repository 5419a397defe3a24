/* The SwiGLU dual GEMM (dual.h).  Compiled with -ffp-contract=off
 * (meson.build): fl(silu(d1) * d2) is one rounded product, and silu_fp32.h
 * itself does not depend on the flag. */
#include "dual.h"

#include <stdlib.h>

#include "pg_alloc.h"
#include "pg_error.h"
#include "silu_fp32.h"

void pg_dual_scale_counts(pg_scale_kind s, int64_t M, int64_t N, int64_t K, int64_t *na, int64_t *nb)
{
    int64_t kb = (K + PG_BLOCK_SCALE_K - 1) / PG_BLOCK_SCALE_K, nbk = (N + PG_BLOCK_SCALE_K - 1) / PG_BLOCK_SCALE_K;
    switch (s) {
    case PG_SCALE_TENSOR: *na = 1, *nb = 1; break;
    case PG_SCALE_ROWCOL: *na = M, *nb = N; break;
    case PG_SCALE_BLOCK: *na = M * kb, *nb = nbk * kb; break;
    case PG_SCALE_MX: *na = M * (K / PG_MX_BLOCK_K), *nb = N * (K / PG_MX_BLOCK_K); break;
    default: *na = 0, *nb = 0; break;
    }
}

int pg_dual_check(const pg_dual_problem *dp, const pg_accum_params *p)
{
    if (dp == NULL || dp->A == NULL || dp->B1 == NULL || dp->B2 == NULL)
        return pg_fail("dual GEMM: missing problem or operand A, B1 or B2");
    if (pg_accum_params_check(p) != 0)
        return -1;
    if (dp->G < 1 || dp->M < 1 || dp->N < 1 || dp->K < 1)
        return pg_fail("dual GEMM: shape G=%lld M=%lld N=%lld K=%lld (each must be >= 1)", (long long)dp->G,
                       (long long)dp->M, (long long)dp->N, (long long)dp->K);
    size_t bytes;
    if (pg_bytes("dual GEMM A", dp->G, (size_t)dp->M * (size_t)dp->K, &bytes) != 0 ||
        pg_bytes("dual GEMM B", dp->G, (size_t)dp->N * (size_t)dp->K, &bytes) != 0 ||
        pg_bytes("dual GEMM C", dp->G, (size_t)dp->M * (size_t)dp->N * sizeof(uint16_t), &bytes) != 0)
        return -1;
    if (dp->fmt_a < 0 || dp->fmt_a >= PG_FMT_COUNT || dp->fmt_b < 0 || dp->fmt_b >= PG_FMT_COUNT)
        return pg_fail("dual GEMM: unknown operand format code %d / %d", dp->fmt_a, dp->fmt_b);
    if (dp->out != PG_OUT_BF16 && dp->out != PG_OUT_FP16)
        return pg_fail("dual GEMM: output must be bf16 or fp16 (code %d)", dp->out);
    if (dp->scale < 0 || dp->scale >= PG_SCALE_COUNT)
        return pg_fail("dual GEMM: unknown scale kind code %d", dp->scale);
    if (dp->scale == PG_SCALE_MX) {
        if (dp->mx_a == NULL || dp->mx_b1 == NULL || dp->mx_b2 == NULL)
            return pg_fail("dual GEMM: MX scaling needs mx_a, mx_b1 and mx_b2");
        if (dp->K % PG_MX_BLOCK_K != 0)
            return pg_fail("dual GEMM: MX scaling needs K a multiple of %d (K = %lld)", PG_MX_BLOCK_K,
                           (long long)dp->K);
        if (p->kind != PG_SUM_BLOCK || p->block_k != PG_MX_BLOCK_K)
            return pg_fail("dual GEMM: MX scaling needs a tensor-core preset with block_k = %d ('%s')",
                           PG_MX_BLOCK_K, p->name);
    } else if (dp->scale != PG_SCALE_NONE &&
               (dp->scale_a == NULL || dp->scale_b1 == NULL || dp->scale_b2 == NULL)) {
        return pg_fail("dual GEMM: scale kind '%s' needs scale_a, scale_b1 and scale_b2",
                       pg_scale_kind_name(dp->scale));
    }
    return 0;
}

void pg_dual_view(const pg_dual_problem *dp, int64_t g, int which, pg_scaled_problem *sp)
{
    int64_t na, nb;
    pg_dual_scale_counts(dp->scale, dp->M, dp->N, dp->K, &na, &nb);
    const float *scale_b = which == 1 ? dp->scale_b1 : dp->scale_b2;
    const uint8_t *mx_b = which == 1 ? dp->mx_b1 : dp->mx_b2;
    *sp = (pg_scaled_problem){
        .M = dp->M, .N = dp->N, .K = dp->K, .fmt_a = dp->fmt_a, .fmt_b = dp->fmt_b,
        .A = dp->A + g * dp->M * dp->K,
        .B = (which == 1 ? dp->B1 : dp->B2) + g * dp->N * dp->K,
        .scale = dp->scale,
        .scale_a = dp->scale_a ? dp->scale_a + g * na : NULL,
        .scale_b = scale_b ? scale_b + g * nb : NULL,
        .mx_a = dp->mx_a ? dp->mx_a + g * na : NULL,
        .mx_b = mx_b ? mx_b + g * nb : NULL,
        .bias = NULL, .out = PG_OUT_FP32,
    };
}

uint16_t pg_dual_combine(float d1, float d2, pg_out_dtype out)
{
    float h = pg_sf_mul(pg_silu_f32(d1), d2);
    return out == PG_OUT_FP16 ? pg_fp16_from_f32(h) : pg_bf16_from_f32(h);
}

/* d of one element: the scaled GEMM's fp32 output (bits) as a float. */
static float element_d(const pg_scaled_problem *sp, const pg_accum_params *p, int64_t m, int64_t n)
{
    float acc = pg_scaled_acc(sp, p, m, n), sa = 1.0f, sb = 1.0f;
    if (sp->scale == PG_SCALE_TENSOR)
        sa = sp->scale_a[0], sb = sp->scale_b[0];
    else if (sp->scale == PG_SCALE_ROWCOL)
        sa = sp->scale_a[m], sb = sp->scale_b[n];
    uint32_t bits = pg_scaled_epilogue(pg_lib_epilogue_default(sp->scale), acc, sa, sb, 0, 0.0f, PG_OUT_FP32);
    return pg_f32_from_bits(bits);
}

uint16_t pg_dual_element(const pg_dual_problem *dp, const pg_accum_params *p, int64_t g, int64_t m, int64_t n)
{
    pg_scaled_problem s1, s2;
    pg_dual_view(dp, g, 1, &s1);
    pg_dual_view(dp, g, 2, &s2);
    return pg_dual_combine(element_d(&s1, p, m, n), element_d(&s2, p, m, n), dp->out);
}

int pg_dual_gemm_ref(const pg_dual_problem *dp, const pg_accum_params *p, void *C)
{
    if (pg_dual_check(dp, p) != 0)
        return -1;
    if (C == NULL)
        return pg_fail("dual GEMM: missing output C");
    int rc = -1;
    int64_t MN = dp->M * dp->N;
    uint32_t *d1 = pg_alloc("dual GEMM d1", MN, sizeof *d1), *d2 = pg_alloc("dual GEMM d2", MN, sizeof *d2);
    if (d1 == NULL || d2 == NULL)
        goto done;
    const pg_lib_epilogue *e = pg_lib_epilogue_default(dp->scale);
    for (int64_t g = 0; g < dp->G; g++) {
        pg_scaled_problem s1, s2;
        pg_dual_view(dp, g, 1, &s1);
        pg_dual_view(dp, g, 2, &s2);
        if (pg_scaled_gemm(&s1, p, e, d1, NULL) != 0 || pg_scaled_gemm(&s2, p, e, d2, NULL) != 0)
            goto done;
        uint16_t *out = (uint16_t *)C + g * MN;
#pragma omp parallel for schedule(static)
        for (int64_t i = 0; i < MN; i++)
            out[i] = pg_dual_combine(pg_f32_from_bits(d1[i]), pg_f32_from_bits(d2[i]), dp->out);
    }
    rc = 0;
done:
    free(d1);
    free(d2);
    return rc;
}
