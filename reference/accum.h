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

#endif
