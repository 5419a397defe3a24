/* Accumulation modes: how a length-K dot product of E4M3 rows becomes an
 * fp32 accumulator.  Definitions: ../shared/DESIGN.md "Numerics". */
#ifndef PG_ACCUM_H
#define PG_ACCUM_H

#include <stdint.h>

typedef enum {
    PG_ACC_EXACT = 0,        /* exact sum (int64 fixed point), one RNE rounding to fp32 */
    PG_ACC_FP32 = 1,         /* IEEE fp32, k ascending, one rounding per add */
    PG_ACC_SM90 = 2,         /* Hopper wgmma e4m3 chain, 32 k per block, 13 fraction bits, truncation */
    PG_ACC_SM90_PROMOTE = 3, /* sm90 restarted every 128 k, groups added in fp32 RNE */
    PG_ACC_SM100 = 4,        /* Blackwell tcgen05 kind::f8f6f4: 25 fraction bits, final truncation to fp32 */
    PG_ACC_COUNT
} pg_accum_mode;

const char *pg_accum_name(pg_accum_mode m); /* "exact", "fp32", "sm90", "sm90-promote", "sm100" */
/* 0 on success; -1 with a pg_fail() message listing valid names. */
int pg_accum_parse(const char *s, pg_accum_mode *out);

/* Dot product of a[0..K) and b[0..K) (E4M3 codes) in mode m.  Any NaN code
 * in either row gives the NaN with bits PG_F32_QNAN_BITS. */
float pg_dot(pg_accum_mode m, const uint8_t *a, const uint8_t *b, int64_t K);

/* Tensor-core block parameters (accum.c states the rule and its sources). */
#define PG_TC_BLOCK_K 32          /* k per wgmma / tcgen05.mma instruction */
#define PG_SM90_FRAC_BITS 13      /* term alignment, Hopper e4m3 */
#define PG_SM90_OUT_FRAC_BITS 13  /* result: 14 significant bits, truncated */
#define PG_SM90_PROMOTE_K 128     /* sm90-promote: k per fp32 promotion */
#define PG_SM100_FRAC_BITS 25
#define PG_SM100_OUT_FRAC_BITS 23

/* One tensor-core block: the n (<= 32 on hardware) products a[i]*b[i] plus
 * the incoming accumulator c, terms truncated to frac_bits fraction bits
 * relative to the largest exponent, the exact sum normalised and truncated
 * to out_frac_bits.  The literal scalar definition (for tests and pg_dot). */
float pg_tc_block(const uint8_t *a, const uint8_t *b, int64_t n, float c, int frac_bits, int out_frac_bits);

#endif
