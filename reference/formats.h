/* The one definition of pegemm's numeric formats: FP8 E4M3 (OCP E4M3FN),
 * BF16, and the fused epilogue.  The kernel, the reference, verify and the
 * tests all use these functions; nothing else decodes or rounds. */
#ifndef PG_FORMATS_H
#define PG_FORMATS_H

#include <stdint.h>

/* ---- FP8 E4M3FN: 1 sign, 4 exponent (bias 7), 3 mantissa; subnormals
 * (min 2^-9); max +-448; no infinities; NaN is 0x7F and 0xFF only. */
#define PG_FP8_MAX 448.0f
#define PG_FP8_NAN ((uint8_t)0x7F)
/* Every finite E4M3 value is an integer multiple of 2^-9. */
#define PG_FP8_FIXED_SHIFT 9

float pg_fp8_to_f32(uint8_t code);
int pg_fp8_is_nan(uint8_t code);
/* value * 2^9 as an exact integer (|.| <= 229376); 0 for NaN codes (callers
 * test pg_fp8_is_nan first). */
int32_t pg_fp8_to_fixed(uint8_t code);
/* float -> E4M3 with round-to-nearest-even.  Saturation rule: a finite value
 * whose rounded magnitude exceeds 448 (including +-inf) becomes +-448 (the
 * "satfinite" behaviour of cvt.rn.satfinite.e4m3x2.f32); NaN becomes 0x7F
 * (0xFF if its sign bit is set).  -0.0 encodes as 0x80. */
uint8_t pg_fp8_from_f32(float x);

/* ---- FP8 E5M2 (OCP E5M2, IEEE-like): 1 sign, 5 exponent (bias 15), 2
 * mantissa; subnormals (min 2^-16); max +-57344; infinities 0x7C / 0xFC;
 * NaN 0x7D-0x7F and 0xFD-0xFF.  Every finite value is an integer multiple
 * of 2^-16. */
#define PG_E5M2_MAX 57344.0f
#define PG_E5M2_FIXED_SHIFT 16
float pg_e5m2_to_f32(uint8_t code); /* NaN codes -> fp32 NaN (sign kept), inf -> inf */
int pg_e5m2_is_nan(uint8_t code);
int pg_e5m2_is_inf(uint8_t code);
/* fp32 -> E5M2, round-to-nearest-even of the fp16 value (exact for
 * values that fp16 holds, every E4M3 value among them); overflow to inf,
 * NaN -> 0x7F (0xFF with the sign). */
uint8_t pg_e5m2_from_f32(float x);

/* ---- The operand format of an FP8 matrix, for code that takes either. */
typedef enum { PG_FMT_E4M3 = 0, PG_FMT_E5M2 = 1, PG_FMT_COUNT } pg_fp8_format;
const char *pg_fp8_format_name(pg_fp8_format f); /* "e4m3", "e5m2" */
/* 0 on success; -1 with a pg_fail() message listing valid names. */
int pg_fp8_format_parse(const char *s, pg_fp8_format *out);
float pg_fp8f_to_f32(pg_fp8_format f, uint8_t code);
int pg_fp8f_is_nan(pg_fp8_format f, uint8_t code);
int pg_fp8f_is_inf(pg_fp8_format f, uint8_t code); /* always 0 for E4M3 */
/* A finite non-zero code as integer significand * 2^(exp - frac_bits) in
 * the tensor-core rule (not renormalised): a normal has significand
 * 1.m (frac_bits = mantissa bits), a subnormal 0.m with the smallest
 * normal exponent; zero gives significand 0 and exponent -126.  Callers
 * test NaN / inf first.  Returns frac_bits (3 for E4M3, 2 for E5M2). */
int pg_fp8f_sig_exp(pg_fp8_format f, uint8_t code, int32_t *sig, int *exp);

/* ---- IEEE binary16 (bits in a uint16_t). */
/* The one fp16 NaN pegemm produces (cvt.rn.f16.f32 returns 0x7FFF). */
#define PG_FP16_QNAN ((uint16_t)0x7FFF)
float pg_fp16_to_f32(uint16_t h);
/* fp32 -> fp16, round-to-nearest-even (cvt.rn.f16.f32): subnormals kept
 * (down to 2^-24), overflow to +-inf, any NaN -> PG_FP16_QNAN. */
uint16_t pg_fp16_from_f32(float x);

/* ---- BF16 (bits in a uint16_t). */
/* The one NaN pegemm produces in BF16: the canonical NaN that the sm_90
 * cvt.rn.bf16x2.f32 and add.bf16x2 instructions return. */
#define PG_BF16_QNAN ((uint16_t)0x7FFF)
/* The one NaN pegemm produces in fp32 accumulators (bits). */
#define PG_F32_QNAN_BITS 0x7FFFFFFFu

float pg_bf16_to_f32(uint16_t h);
/* fp32 -> bf16, round-to-nearest-even; +-0 and subnormals kept, overflow
 * to +-inf, any NaN -> PG_BF16_QNAN. */
uint16_t pg_bf16_from_f32(float x);
/* a + b as one RNE rounding of the exact sum (add.bf16 on sm_90).
 * Exact zero sum: +0 unless both are -0.  NaN or inf-inf -> PG_BF16_QNAN. */
uint16_t pg_bf16_add(uint16_t a, uint16_t b);
/* bf16_rn(acc + c) with one rounding of the exact sum. */
uint16_t pg_bf16_add_f32(float acc, uint16_t c);

/* ---- The epilogue: D = epilogue(acc, combined[m mod P, n]). */
typedef enum {
    PG_EPI_DOUBLE = 0, /* bf16_rn(bf16_rn(acc) + c): the kernel's choice */
    PG_EPI_SINGLE = 1, /* bf16_rn(acc + c): one rounding, for comparison */
    PG_EPI_COUNT
} pg_epilogue;

const char *pg_epilogue_name(pg_epilogue e);
/* 0 on success; -1 with a pg_fail() message listing valid names. */
int pg_epilogue_parse(const char *s, pg_epilogue *out);
uint16_t pg_epilogue_apply(pg_epilogue e, float acc, uint16_t c);
/* d[j] = pg_epilogue_apply(e, acc[j], c[j]) for j < n, faster. */
void pg_epilogue_row(pg_epilogue e, const float *acc, const uint16_t *c, uint16_t *d, int64_t n);

/* Bits of a float, and back, without aliasing trouble. */
static inline uint32_t pg_f32_bits(float x)
{
    union { float f; uint32_t u; } v = {.f = x};
    return v.u;
}
static inline float pg_f32_from_bits(uint32_t u)
{
    union { uint32_t u; float f; } v = {.u = u};
    return v.f;
}

/* Distance in units in the last place between two BF16 values on the
 * ordered integer line (+0 and -0 are 0 apart); INT32_MAX if exactly one is
 * NaN, 0 if both are NaN. */
int32_t pg_bf16_ulp_distance(uint16_t a, uint16_t b);

#endif
