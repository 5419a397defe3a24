/* Scaled FP8 GEMMs as users call them (torch._scaled_mm, DeepGEMM, MX):
 * operand formats per operand, scales (per tensor, per row/column,
 * block-wise 1x128 / 128x128, MX E8M0 per 32 k), bias, bf16/fp16/fp32
 * output, and the library's order of operations as a named preset.
 * docs/numerics.md states each preset and its evidence. */
#ifndef PG_SCALED_H
#define PG_SCALED_H

#include <stdint.h>

#include "accum_params.h"
#include "formats.h"

typedef enum { PG_OUT_BF16 = 0, PG_OUT_FP16 = 1, PG_OUT_FP32 = 2, PG_OUT_COUNT } pg_out_dtype;
const char *pg_out_dtype_name(pg_out_dtype t); /* "bf16", "fp16", "fp32" */
/* 0, or -1 with a pg_fail() message listing the valid names. */
int pg_out_dtype_parse(const char *s, pg_out_dtype *out);

typedef enum {
    PG_SCALE_NONE = 0,
    PG_SCALE_TENSOR = 1, /* scale_a[0], scale_b[0] */
    PG_SCALE_ROWCOL = 2, /* scale_a[M] (per row of A), scale_b[N] (per row of B = column of D) */
    PG_SCALE_BLOCK = 3,  /* DeepGEMM: scale_a[M][KB] per 1x128, scale_b[NB][KB] per 128x128; KB = ceil(K/128), NB = ceil(N/128) */
    PG_SCALE_MX = 4,     /* MX: E8M0 mx_a[M][K/32], mx_b[N][K/32] (K a multiple of 32) */
    PG_SCALE_COUNT
} pg_scale_kind;
const char *pg_scale_kind_name(pg_scale_kind s); /* "none", "tensor", "rowcol", "block", "mx" */
int pg_scale_kind_parse(const char *s, pg_scale_kind *out);

#define PG_BLOCK_SCALE_K 128 /* DeepGEMM scale granularity in k (and in n for B) */
#define PG_MX_BLOCK_K 32     /* MX scale granularity in k */

/* How the fp32 accumulator meets the scales and the bias (per-tensor and
 * row/column scales; block and MX scales act inside the accumulation). */
typedef enum {
    PG_SCALE_AB_THEN_ACC = 0, /* t = fl(fl(sa * sb) * acc) */
    PG_SCALE_ACC_A_B = 1,     /* t = fl(fl(acc * sa) * sb) */
    PG_SCALE_ACC_B_A = 2,     /* t = fl(fl(acc * sb) * sa) */
    PG_SCALE_ONCE = 3,        /* t = fl(acc * sa * sb), one rounding */
    PG_SCALE_ORDER_COUNT
} pg_scale_order;

typedef enum {
    PG_BIAS_F32_ADD = 0, /* out = cvt(fl(t + bias)): the sum in fp32, then one conversion */
    PG_BIAS_ONCE = 1,    /* out = cvt(exact t + bias): one rounding to fp32 of the exact sum (an fma) */
    PG_BIAS_OUT_ADD = 2, /* out = cvt(cvt(t) + bias) in the output format, each step RNE */
    PG_BIAS_ORDER_COUNT
} pg_bias_order;

typedef struct {
    const char *name;
    pg_scale_order scale_order;
    pg_bias_order bias_order;
    const char *evidence; /* what fixed the order (docs/numerics.md) */
} pg_lib_epilogue;

/* Library presets: "torch-cublaslt" (per-tensor scales), "torch-cutlass-rowwise"
 * (row/column scales).  NULL with a pg_fail() message for an unknown name. */
const pg_lib_epilogue *pg_lib_epilogue_find(const char *name);
/* The preset a scale kind is called through by default: torch-cutlass-rowwise
 * for rowcol, torch-cublaslt otherwise (none: scales of 1; block / mx: only
 * the bias and the conversion). */
const pg_lib_epilogue *pg_lib_epilogue_default(pg_scale_kind s);

/* The output bits (in the low 16 bits for bf16/fp16) of one element: the
 * fp32 accumulator acc, scales sa, sb (1 when none), bias value (has_bias
 * 0: none).  NaN: the format's one NaN; the conversions are RNE. */
uint32_t pg_scaled_epilogue(const pg_lib_epilogue *e, float acc, float sa, float sb, int has_bias, float bias,
                            pg_out_dtype out);

typedef struct {
    int64_t M, N, K;
    pg_fp8_format fmt_a, fmt_b;
    const uint8_t *A; /* [M][K] codes */
    const uint8_t *B; /* [N][K] codes (D = A * B^T) */
    pg_scale_kind scale;
    const float *scale_a, *scale_b;  /* see pg_scale_kind */
    const uint8_t *mx_a, *mx_b;      /* E8M0 codes (PG_SCALE_MX) */
    const float *bias;               /* [N] or NULL; values exact in the output format */
    pg_out_dtype out;
} pg_scaled_problem;

/* The fp32 accumulator of D[m][n] before the epilogue: pg_dot_params for
 * none / tensor / rowcol; block: per 128-k group the chain from 0 under p
 * (p->promote_k ignored), promoted on CUDA cores as
 * acc = fma(partial, fl(sa * sb), acc) (DeepGEMM, not checked on hardware);
 * MX: the chain with each 32-k block's products scaled by 2^(xa + xb - 254)
 * inside the tensor core (tcgen05 block-scaled, not checked on hardware). */
float pg_scaled_acc(const pg_scaled_problem *sp, const pg_accum_params *p, int64_t m, int64_t n);

/* D[m][n] for all m, n (OpenMP over rows; uint16_t for bf16/fp16, uint32_t
 * for fp32 bits), acc[M][N] too if not NULL.  Block and MX problems apply
 * their scales inside the accumulation and use e only for the bias and the
 * conversion.  0, or -1 with a message for bad arguments. */
int pg_scaled_gemm(const pg_scaled_problem *sp, const pg_accum_params *p, const pg_lib_epilogue *e, void *D,
                   float *acc);

#endif
