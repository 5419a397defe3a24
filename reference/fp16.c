/* IEEE binary16: 1 sign, 5 exponent (bias 15), 10 fraction bits; normals
 * from 2^-14, subnormals down to 2^-24, max 65504.  The conversion from
 * fp32 rounds to nearest even on the bits (no libm, the same everywhere),
 * as cvt.rn.f16.f32 does. */
#include "formats.h"

float pg_fp16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16;
    int e = (h >> 10) & 0x1F;
    uint32_t m = h & 0x3FF;
    if (e == 0x1F)
        return pg_f32_from_bits(sign | 0x7F800000u | (m << 13));
    if (e == 0) /* zero or subnormal: m * 2^-24, exact in fp32 */
        return pg_f32_from_bits(pg_f32_bits((float)m * 0x1p-24f) | sign);
    return pg_f32_from_bits(sign | ((uint32_t)(e - 15 + 127) << 23) | (m << 13));
}

/* m >> sh with round-to-nearest-even (sh in 1..31). */
static uint32_t shift_rne(uint32_t m, int sh)
{
    uint32_t kept = m >> sh, rem = m & ((1u << sh) - 1), half = 1u << (sh - 1);
    return kept + (rem > half || (rem == half && (kept & 1)));
}

uint16_t pg_fp16_from_f32(float x)
{
    uint32_t u = pg_f32_bits(x);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000);
    uint32_t a = u & 0x7FFFFFFFu;
    if (a > 0x7F800000u)
        return PG_FP16_QNAN;
    if (a >= 0x477FF000u) /* >= 65520 = 65504 + half an ulp: rounds to inf */
        return (uint16_t)(sign | 0x7C00);
    int e = (int)(a >> 23) - 127;
    if (e < -25) /* below 2^-25, under half the smallest subnormal (the tie 2^-25 itself goes to even 0) */
        return sign;
    uint32_t m = (a & 0x7FFFFFu) | 0x800000u; /* value = m * 2^(e-23) */
    if (e < -14) /* subnormal: units of 2^-24; a carry into 0x400 is the smallest normal */
        return (uint16_t)(sign | shift_rne(m, -1 - e));
    /* normal: 11 significant bits (1024..2048 after rounding); a carry to
     * 2048 moves into the exponent field, which is the right code */
    return (uint16_t)(sign | (((uint32_t)(e + 15) << 10) + (shift_rne(m, 13) - 1024)));
}
