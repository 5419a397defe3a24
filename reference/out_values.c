/* Output elements of any output type (bf16, fp16, fp32) as values and as
 * points on the ordered line of their format: the ULP distance is one
 * definition per format, beside pg_bf16_ulp_distance (bf16.c). */
#include <math.h>
#include <stdint.h>

#include "out_values.h"

/* The position of a non-NaN value of a sign-magnitude format of `bits`
 * bits on the ordered integer line: +0 and -0 both 0, each step one ulp. */
static int64_t ordinal(uint32_t u, int bits)
{
    uint32_t sign = 1u << (bits - 1);
    int64_t mag = (int64_t)(u & (sign - 1));
    return (u & sign) ? -mag : mag;
}

static int32_t distance(int64_t a, int64_t b)
{
    int64_t d = a > b ? a - b : b - a;
    return d >= INT32_MAX ? INT32_MAX - 1 : (int32_t)d; /* INT32_MAX is kept for a NaN disagreement */
}

int pg_fp16_is_nan(uint16_t h) { return (h & 0x7C00) == 0x7C00 && (h & 0x03FF) != 0; }

int32_t pg_fp16_ulp_distance(uint16_t a, uint16_t b)
{
    int na = pg_fp16_is_nan(a), nb = pg_fp16_is_nan(b);
    if (na || nb)
        return (na && nb) ? 0 : INT32_MAX;
    return distance(ordinal(a, 16), ordinal(b, 16));
}

int32_t pg_f32_ulp_distance(uint32_t a, uint32_t b)
{
    int na = isnan(pg_f32_from_bits(a)), nb = isnan(pg_f32_from_bits(b));
    if (na || nb)
        return (na && nb) ? 0 : INT32_MAX;
    return distance(ordinal(a, 32), ordinal(b, 32));
}

int32_t pg_out_ulp_distance(pg_out_dtype t, uint32_t a, uint32_t b)
{
    switch (t) {
    case PG_OUT_BF16: return pg_bf16_ulp_distance((uint16_t)a, (uint16_t)b);
    case PG_OUT_FP16: return pg_fp16_ulp_distance((uint16_t)a, (uint16_t)b);
    default: return pg_f32_ulp_distance(a, b);
    }
}

double pg_out_value(pg_out_dtype t, uint32_t bits)
{
    switch (t) {
    case PG_OUT_BF16: return pg_bf16_to_f32((uint16_t)bits);
    case PG_OUT_FP16: return pg_fp16_to_f32((uint16_t)bits);
    default: return pg_f32_from_bits(bits);
    }
}

uint32_t pg_out_qnan(pg_out_dtype t)
{
    return t == PG_OUT_BF16 ? PG_BF16_QNAN : t == PG_OUT_FP16 ? PG_FP16_QNAN : PG_F32_QNAN_BITS;
}

int pg_out_is_foreign_nan(pg_out_dtype t, uint32_t bits)
{
    return isnan(pg_out_value(t, bits)) && bits != pg_out_qnan(t);
}

uint32_t pg_out_get(pg_out_dtype t, const void *D, int64_t i)
{
    return t == PG_OUT_FP32 ? ((const uint32_t *)D)[i] : ((const uint16_t *)D)[i];
}
