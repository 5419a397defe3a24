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

/* Round-to-nearest-even onto the E4M3 grid, saturating to +-448.
 * The grid spacing is 2^-9 below 2^-6 (subnormals) and 2^(e-3) in the
 * binade [2^e, 2^(e+1)).  Work in double: |x| < 448 and the quotient by a
 * power of two is exact, and rint() rounds half to even in the default
 * rounding mode. */
uint8_t pg_fp8_from_f32(float x)
{
    uint8_t sign = signbit(x) ? 0x80 : 0x00;
    if (isnan(x))
        return (uint8_t)(PG_FP8_NAN | sign);
    double a = fabs((double)x);
    /* satfinite: everything whose rounded magnitude would exceed 448
     * (the next grid point 480 does not exist) is 448, and +-inf too. */
    if (a >= 448.0)
        return (uint8_t)(0x7E | sign);
    int e;
    (void)frexp(a, &e); /* a = f * 2^e, f in [0.5, 1) -> binade exponent e-1 */
    int binade = e - 1;
    if (a == 0.0 || binade < -6)
        binade = -6; /* subnormal range shares the quantum of [2^-6, 2^-5) */
    double quantum = ldexp(1.0, binade - 3);
    double units = rint(a / quantum); /* integer count of quanta, RNE */
    /* Rounding may carry into the next binade (units == 16): renormalise. */
    if (units >= 16.0) {
        units /= 2.0;
        binade += 1;
    }
    int m_units = (int)units; /* 0..15 */
    if (m_units < 8) /* zero or subnormal: only possible when binade == -6 */
        return (uint8_t)(sign | m_units);
    int efield = binade + 7;
    if (efield > 15 || (efield == 15 && m_units - 8 == 7))
        return (uint8_t)(0x7E | sign); /* 480 would be NaN: saturate */
    return (uint8_t)(sign | (efield << 3) | (m_units - 8));
}
