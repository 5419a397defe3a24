/* Accumulation as data: the parameters of an accumulation model, one set
 * per GPU and mode.  The five named modes of accum.h are presets of it
 * (pg_accum_preset), so a new GPU or instruction is a new parameter set,
 * not new code.  The rule each parameter enters is stated at the top of
 * accum_params.c; docs/numerics.md lists the presets and their sources. */
#ifndef PG_ACCUM_PARAMS_H
#define PG_ACCUM_PARAMS_H

#include <stdint.h>

#include "accum.h"
#include "formats.h"

typedef enum {
    PG_SUM_EXACT = 0, /* the exact dot product, one RNE rounding to fp32 */
    PG_SUM_FP32 = 1,  /* IEEE fp32, k ascending, one RNE rounding per add */
    PG_SUM_BLOCK = 2, /* tensor-core blocks: aligned, rounded terms summed exactly */
} pg_sum_kind;

typedef enum { PG_RND_TRUNC = 0, PG_RND_RNE = 1 } pg_rounding;

typedef enum {
    PG_C_INSIDE = 0, /* the incoming accumulator is one more term of the block's alignment (wgmma, tcgen05) */
    PG_C_AFTER = 1,  /* the block is summed from 0, then added to the accumulator with one fp32 RNE add */
} pg_c_entry;

typedef struct {
    const char *name;
    pg_sum_kind kind;
    int block_k;             /* products per block (the instruction's k) */
    int align_frac_bits;     /* F: fraction bits kept relative to 2^emax */
    pg_rounding align_round; /* how a term loses the bits below 2^(emax - F) */
    int out_frac_bits;       /* O: fraction bits of the block result (23 = fp32) */
    pg_rounding out_round;
    int promote_k;           /* 0: one chain over K; else a new chain from 0 every promote_k k, added into fp32 (RNE) */
    pg_c_entry c_entry;
    unsigned formats;        /* operand formats the set is stated for: bit (1u << pg_fp8_format) */
    int hw_checked;          /* 1: matched bit for bit on the hardware `source` names */
    const char *source;      /* where the parameters come from */
} pg_accum_params;

#define PG_FMT_BIT(f) (1u << (f))
#define PG_FMT_BOTH (PG_FMT_BIT(PG_FMT_E4M3) | PG_FMT_BIT(PG_FMT_E5M2))

/* The preset of a named mode (never NULL for a valid mode). */
const pg_accum_params *pg_accum_preset(pg_accum_mode m);
/* 0 and *out on success; -1 with a pg_fail() message if p is not valid
 * (block_k 1..64, F 0..40, O 0..23, promote_k a multiple of block_k). */
int pg_accum_params_check(const pg_accum_params *p);
/* The named mode whose preset equals p field by field (name, formats and
 * provenance aside), or -1 for a set of its own. */
int pg_accum_params_mode(const pg_accum_params *p);
/* Parse "BASE[,field=value...]": a preset name, then fields changed from
 * it: kind=exact|fp32|block, block_k=, align_frac_bits= (F=), align_round=
 * trunc|rne, out_frac_bits= (O=), out_round=, promote_k=, c_entry=inside|after.
 * The name becomes "custom" when a field changes.  0, or -1 with a message. */
int pg_accum_params_parse(const char *spec, pg_accum_params *out);
const char *pg_sum_kind_name(pg_sum_kind k);       /* "exact", "fp32", "block" */
const char *pg_rounding_name(pg_rounding r);       /* "trunc", "rne" */
const char *pg_c_entry_name(pg_c_entry c);         /* "inside", "after" */
int pg_sum_kind_parse(const char *s, pg_sum_kind *out);
int pg_rounding_parse(const char *s, pg_rounding *out);
int pg_c_entry_parse(const char *s, pg_c_entry *out);

/* The dot product of a[0..K) (format fa) and b[0..K) (format fb) under p:
 * the literal scalar definition.  Specials first: a NaN code, inf * 0, or
 * infinite products of both signs give the NaN PG_F32_QNAN_BITS; other
 * infinite products give an infinity of their sign (E5M2 only; not checked
 * on hardware). */
float pg_dot_params(const pg_accum_params *p, pg_fp8_format fa, pg_fp8_format fb, const uint8_t *a,
                    const uint8_t *b, int64_t K);

/* The finite part of the definition, for callers that scale partial sums
 * (block-wise / MX scaling): the chain of p's blocks over a[0..n), b[0..n)
 * starting from the accumulator c (promotion ignored; kind PG_SUM_BLOCK),
 * each block's product exponents raised by scale_exp (an MX E8M0 pair, 0
 * otherwise).  No specials in the input. */
float pg_tc_chain_params(const pg_accum_params *p, pg_fp8_format fa, pg_fp8_format fb, const uint8_t *a,
                         const uint8_t *b, int64_t n, float c, int scale_exp);

/* 1 if a[0..K) x b[0..K) holds a NaN or infinite code (then pg_dot_params
 * decides the result from the specials alone, in *out). */
int pg_dot_specials(pg_fp8_format fa, pg_fp8_format fb, const uint8_t *a, const uint8_t *b, int64_t K, float *out);

#endif
