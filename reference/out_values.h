/* Output elements of any output type: values, NaNs and ULP distances. */
#ifndef PG_OUT_VALUES_H
#define PG_OUT_VALUES_H

#include <stdint.h>

#include "formats.h"
#include "scaled.h"

int pg_fp16_is_nan(uint16_t h);
/* Distance in ulps between two fp16 (binary16) values on the ordered
 * integer line (+0 and -0 are 0 apart); INT32_MAX if exactly one is NaN,
 * 0 if both are.  Infinities are the ends of the line. */
int32_t pg_fp16_ulp_distance(uint16_t a, uint16_t b);
/* The same for fp32 bits; distances of 2^31 - 1 or more are 2^31 - 2. */
int32_t pg_f32_ulp_distance(uint32_t a, uint32_t b);
/* The distance of the output type t (bf16: pg_bf16_ulp_distance). */
int32_t pg_out_ulp_distance(pg_out_dtype t, uint32_t a, uint32_t b);
/* The value of output bits (exact as a double). */
double pg_out_value(pg_out_dtype t, uint32_t bits);
/* The one NaN pegemm produces in type t, and whether bits are another NaN
 * (an element that was never written). */
uint32_t pg_out_qnan(pg_out_dtype t);
int pg_out_is_foreign_nan(pg_out_dtype t, uint32_t bits);
/* Element i of an output array of type t (uint16_t or uint32_t). */
uint32_t pg_out_get(pg_out_dtype t, const void *D, int64_t i);

#endif
