/* FP8 E4M3FN (OCP "E4M3FN", the e4m3 of NVIDIA's PTX): decode, encode.
 *
 * Code layout: s eeee mmm.  E = eeee, m = mmm.
 *   E == 0:          (-1)^s * m * 2^-9            (zero and subnormals)
 *   E in 1..15:      (-1)^s * (8 + m) * 2^(E-10)  (normals: 1.mmm * 2^(E-7))
 *   E == 15, m == 7: NaN (codes 0x7F and 0xFF); there are no infinities.
 * So every finite value is an integer multiple of 2^-9 (pg_fp8_to_fixed). */
#include <math.h>

#include "formats.h"

int pg_fp8_is_nan(uint8_t code)
{
    return (code & 0x7F) == 0x7F;
}

int32_t pg_fp8_to_fixed(uint8_t code)
{
    if (pg_fp8_is_nan(code))
        return 0;
    int e = (code >> 3) & 0xF;
    int m = code & 0x7;
    /* magnitude in units of 2^-9: subnormal m; normal (8+m) << (E-1) */
    int32_t mag = (e == 0) ? m : (int32_t)(8 + m) << (e - 1);
    return (code & 0x80) ? -mag : mag;
}

float pg_fp8_to_f32(uint8_t code)
{
    if (pg_fp8_is_nan(code))
        return pg_f32_from_bits(PG_F32_QNAN_BITS | ((uint32_t)(code & 0x80) << 24));
    /* |fixed| <= 229376 < 2^24: the int -> float conversion and the scaling
     * by a power of two are exact. */
    float v = (float)pg_fp8_to_fixed(code) * 0x1p-9f;
    if (v == 0.0f && (code & 0x80))
        v = -0.0f;
    return v;
}

/* m >> sh with round-to-nearest-even (sh in 1..31). */
static uint32_t shift_rne(uint32_t m, int sh)
{
    uint32_t kept = m >> sh, rem = m & ((1u << sh) - 1), half = 1u << (sh - 1);
    return kept + (rem > half || (rem == half && (kept & 1)));
}

/* Round-to-nearest-even onto the E4M3 grid, saturating to +-448, on the
 * bits of the float (no libm, so the bytes are the same everywhere):
 * a normal E4M3 keeps 3 of the 23 fraction bits (a carry out of the
 * mantissa moves into the exponent field, which is the right code); below
 * 2^-6 the grid is 2^-9 and the code is the count of 2^-9 units (8 units
 * is code 0x08, the smallest normal). */
uint8_t pg_fp8_from_f32(float x)
{
    uint32_t u = pg_f32_bits(x);
    uint8_t sign = (uint8_t)((u >> 24) & 0x80);
    uint32_t a = u & 0x7FFFFFFFu;
    if (a > 0x7F800000u)
        return (uint8_t)(PG_FP8_NAN | sign);
    /* satfinite: everything whose rounded magnitude would exceed 448 (the
     * next grid point 480 does not exist) is 448, and +-inf too */
    if (a >= 0x43E00000u) /* 448.0f */
        return (uint8_t)(0x7E | sign);
    int e = (int)(a >> 23) - 127;
    if (e < -11) /* below 2^-11: under half the smallest subnormal 2^-9... */
        return sign; /* ...(the halfway point 2^-10 itself rounds to even 0) */
    uint32_t m = (a & 0x7FFFFFu) | 0x800000u; /* value = m * 2^(e-23) */
    if (e < -6)
        return (uint8_t)(sign | shift_rne(m, 14 - e)); /* units of 2^-9: 0..8 */
    return (uint8_t)(sign | (((uint32_t)(e + 7) << 3) + (shift_rne(m, 20) - 8)));
}
