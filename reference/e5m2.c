/* FP8 E5M2 (OCP E5M2, the e5m2 of NVIDIA's PTX), and the format-generic
 * FP8 helpers that take either E4M3 or E5M2.
 *
 * E5M2 code layout: s eeeee mm.
 *   E == 0:           (-1)^s * m * 2^-16             (zero, subnormals)
 *   E in 1..30:       (-1)^s * (4 + m) * 2^(E-17)    (1.mm * 2^(E-15))
 *   E == 31, m == 0:  +-infinity;  E == 31, m != 0: NaN. */
#include <math.h>
#include <string.h>

#include "formats.h"
#include "pg_error.h"

int pg_e5m2_is_nan(uint8_t code)
{
    return (code & 0x7F) > 0x7C;
}

int pg_e5m2_is_inf(uint8_t code)
{
    return (code & 0x7F) == 0x7C;
}

float pg_e5m2_to_f32(uint8_t code)
{
    uint32_t sign = (uint32_t)(code & 0x80) << 24;
    if (pg_e5m2_is_nan(code))
        return pg_f32_from_bits(PG_F32_QNAN_BITS | sign);
    if (pg_e5m2_is_inf(code))
        return pg_f32_from_bits(0x7F800000u | sign);
    int e = (code >> 2) & 0x1F, m = code & 3;
    /* <= 3 significant bits and exponents -16..15: exact in fp32 */
    float mag = e == 0 ? (float)m * 0x1p-16f : ldexpf((float)(4 + m), e - 17);
    return pg_f32_from_bits(pg_f32_bits(mag) | sign);
}

static const char *const k_fmt_names[PG_FMT_COUNT] = {"e4m3", "e5m2"};

const char *pg_fp8_format_name(pg_fp8_format f)
{
    return (f >= 0 && f < PG_FMT_COUNT) ? k_fmt_names[f] : "?";
}

int pg_fp8_format_parse(const char *s, pg_fp8_format *out)
{
    for (int i = 0; i < PG_FMT_COUNT; i++)
        if (s != NULL && strcmp(s, k_fmt_names[i]) == 0) {
            *out = (pg_fp8_format)i;
            return 0;
        }
    return pg_fail("unknown FP8 format '%s' (valid: e4m3, e5m2)", s ? s : "(null)");
}

float pg_fp8f_to_f32(pg_fp8_format f, uint8_t code)
{
    return f == PG_FMT_E5M2 ? pg_e5m2_to_f32(code) : pg_fp8_to_f32(code);
}

int pg_fp8f_is_nan(pg_fp8_format f, uint8_t code)
{
    return f == PG_FMT_E5M2 ? pg_e5m2_is_nan(code) : pg_fp8_is_nan(code);
}

int pg_fp8f_is_inf(pg_fp8_format f, uint8_t code)
{
    return f == PG_FMT_E5M2 && pg_e5m2_is_inf(code);
}

int pg_fp8f_sig_exp(pg_fp8_format f, uint8_t code, int32_t *sig, int *exp)
{
    int mbits = f == PG_FMT_E5M2 ? 2 : 3, bias = f == PG_FMT_E5M2 ? 15 : 7;
    int e = (code & 0x7F) >> mbits, m = code & ((1 << mbits) - 1);
    if (e == 0 && m == 0) {
        *sig = 0;
        *exp = -126;
    } else if (e == 0) {
        *sig = m;
        *exp = 1 - bias;
    } else {
        *sig = (1 << mbits) + m;
        *exp = e - bias;
    }
    return mbits;
}

uint8_t pg_e5m2_from_f32(float x)
{
    /* E5M2 is the top byte of binary16: round the fp16 value's low byte
     * away with RNE.  Exact for fp16 values (every E4M3 value is one);
     * otherwise two roundings (used only to make inputs). */
    uint16_t h = pg_fp16_from_f32(x);
    if ((h & 0x7C00) == 0x7C00 && (h & 0x03FF) != 0)
        return (uint8_t)(0x7F | ((h >> 8) & 0x80));
    uint16_t top = h >> 8, low = h & 0xFF;
    if (low > 0x80 || (low == 0x80 && (top & 1)))
        top++; /* carries into the exponent; 0x7B + 1 = 0x7C is inf */
    return (uint8_t)top;
}
