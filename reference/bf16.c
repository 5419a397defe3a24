/* BF16 rounding and arithmetic, the epilogue, and ULP distance.
 *
 * Rounding an exact real r to BF16 (round-to-nearest-even, IEEE rules):
 * BF16 has fp32's exponent range (normals from 2^-126, subnormals down to
 * 2^-133) and 8 significant bits.  Sums of two operands are formed in
 * double with Knuth's two-sum, so s + err == r exactly; s alone decides the
 * rounding except when s lies exactly on a BF16 tie, where the sign of err
 * breaks the tie (s on a tie is a multiple of 2^(q-1) for the BF16 quantum
 * 2^q, so any r != s on the other side of that tie would need
 * |err| > ulp_double(s), impossible). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "formats.h"
#include "pg_error.h"

float pg_bf16_to_f32(uint16_t h)
{
    return pg_f32_from_bits((uint32_t)h << 16);
}

uint16_t pg_bf16_from_f32(float x)
{
    uint32_t u = pg_f32_bits(x);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u)
        return PG_BF16_QNAN;
    /* Add just under half a BF16 ulp, plus one more when the kept part is odd
     * (ties to even); a carry moves into the exponent, and max-finite values
     * at or above the halfway point carry into the infinity encoding. */
    uint32_t rounding = 0x7FFFu + ((u >> 16) & 1u);
    return (uint16_t)((u + rounding) >> 16);
}

/* Round the real s + err (|err| <= ulp(s)/2, err the exact remainder of a
 * double two-sum; err == 0 when s is exact) to BF16 with RNE. */
static uint16_t bf16_round_double(double s, double err)
{
    if (isnan(s))
        return PG_BF16_QNAN;
    if (s == 0.0)
        return signbit(s) ? 0x8000 : 0x0000; /* err is 0 too: exact zero */
    uint16_t sign = signbit(s) ? 0x8000 : 0x0000;
    double a = fabs(s);
    double e_rel = signbit(s) ? -err : err; /* remainder in the direction of |s| */
    if (isinf(a))
        return (uint16_t)(sign | 0x7F80);
    int e;
    (void)frexp(a, &e);
    int binade = e - 1;
    if (binade < -126)
        binade = -126; /* subnormal BF16 share the quantum 2^-133 */
    double quantum = ldexp(1.0, binade - 7);
    double units = a / quantum; /* exact: division by a power of two */
    double fl = floor(units);
    double frac = units - fl; /* exact */
    double r;
    if (frac > 0.5 || (frac == 0.5 && e_rel > 0.0))
        r = fl + 1.0;
    else if (frac < 0.5 || (frac == 0.5 && e_rel < 0.0))
        r = fl;
    else /* exact tie: to even */
        r = (fmod(fl, 2.0) == 0.0) ? fl : fl + 1.0;
    double v = r * quantum; /* exact; may reach 2^128 -> overflow to inf */
    if (v >= 0x1p128)
        return (uint16_t)(sign | 0x7F80);
    float f = (float)v; /* exact: v is a BF16 value */
    return (uint16_t)(sign | (pg_f32_bits(f) >> 16));
}

/* a + b of two finite doubles as s + err exactly (Knuth's two-sum). */
static void two_sum(double a, double b, double *s, double *err)
{
    double sum = a + b;
    double bb = sum - a;
    double e = (a - (sum - bb)) + (b - bb);
    *s = sum;
    *err = e;
}

static uint16_t bf16_sum_round(double a, double b)
{
    if (isnan(a) || isnan(b))
        return PG_BF16_QNAN;
    if (isinf(a) || isinf(b)) {
        if (isinf(a) && isinf(b) && signbit(a) != signbit(b))
            return PG_BF16_QNAN;
        double inf = isinf(a) ? a : b;
        return signbit(inf) ? 0xFF80 : 0x7F80;
    }
    double s, err;
    two_sum(a, b, &s, &err);
    if (s == 0.0) /* exact zero: a + b in double already gives +0 unless both -0 */
        return signbit(s) ? 0x8000 : 0x0000;
    return bf16_round_double(s, err);
}

uint16_t pg_bf16_add(uint16_t a, uint16_t b)
{
    return bf16_sum_round((double)pg_bf16_to_f32(a), (double)pg_bf16_to_f32(b));
}

uint16_t pg_bf16_add_f32(float acc, uint16_t c)
{
    return bf16_sum_round((double)acc, (double)pg_bf16_to_f32(c));
}

static const char *const k_epilogue_names[PG_EPI_COUNT] = {"double", "single"};

const char *pg_epilogue_name(pg_epilogue e)
{
    return (e >= 0 && e < PG_EPI_COUNT) ? k_epilogue_names[e] : "?";
}

int pg_epilogue_parse(const char *s, pg_epilogue *out)
{
    for (int i = 0; i < PG_EPI_COUNT; i++) {
        if (s != NULL && strcmp(s, k_epilogue_names[i]) == 0) {
            *out = (pg_epilogue)i;
            return 0;
        }
    }
    return pg_fail("unknown epilogue '%s' (valid: double, single)", s ? s : "(null)");
}

uint16_t pg_epilogue_apply(pg_epilogue e, float acc, uint16_t c)
{
    if (e == PG_EPI_SINGLE)
        return pg_bf16_add_f32(acc, c);
    return pg_bf16_add(pg_bf16_from_f32(acc), c);
}

/* Map BF16 bits onto a monotone integer line: -0 and +0 both map to 0. */
static int32_t bf16_ordinal(uint16_t h)
{
    int32_t mag = h & 0x7FFF;
    return (h & 0x8000) ? -mag : mag;
}

static int bf16_is_nan(uint16_t h)
{
    return (h & 0x7FFF) > 0x7F80;
}

int32_t pg_bf16_ulp_distance(uint16_t a, uint16_t b)
{
    int na = bf16_is_nan(a), nb = bf16_is_nan(b);
    if (na || nb)
        return (na && nb) ? 0 : INT32_MAX;
    int32_t d = bf16_ordinal(a) - bf16_ordinal(b);
    return d < 0 ? -d : d;
}
