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

static inline uint64_t d2u(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

/* Round the real s + err (s != 0 finite, |err| <= ulp(s)/2 the exact
 * remainder of a double two-sum; err == 0 when s is exact) to BF16 with RNE.
 * On the bits of |s|: BF16 keeps 7 of the double's 52 fraction bits in the
 * normal range, and 7 - (-126 - e) of them below 2^-126 (subnormal BF16). */
static uint16_t bf16_round_double(double s, double err)
{
    uint16_t sign = signbit(s) ? 0x8000 : 0x0000;
    double e_rel = signbit(s) ? -err : err; /* remainder in the direction of |s| */
    uint64_t u = d2u(fabs(s));
    int e = (int)(u >> 52) - 1023; /* |s| is a normal double: |s| >= 2^-133 */
    int drop = 45 + (e < -126 ? -126 - e : 0);
    if (drop > 53) /* |s| < 2^-134, under half the smallest subnormal: +-0 */
        return sign;
    /* work on the significand with its hidden bit so drops past it are exact */
    uint64_t sig = (u & ((UINT64_C(1) << 52) - 1)) | (UINT64_C(1) << 52);
    uint64_t rem = sig & ((UINT64_C(1) << drop) - 1);
    uint64_t half = UINT64_C(1) << (drop - 1);
    uint64_t kept = sig >> drop;
    int up;
    if (rem != half)
        up = rem > half;
    else if (e_rel != 0.0)
        up = e_rel > 0.0;
    else
        up = (int)(kept & 1); /* exact tie: to even */
    kept += (uint64_t)up;
    /* value = kept * 2^(e - 52 + drop); exact in double, and a BF16 value */
    double v = ldexp((double)kept, e - 52 + drop);
    if (v >= 0x1p128)
        return (uint16_t)(sign | 0x7F80);
    float f = (float)v;
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

/* Fast path: when the float sum of two floats is exact (its two-sum error is
 * zero) and finite, rounding it to BF16 is the one rounding of the exact sum.
 * Two BF16 operands nearly always qualify (8-bit significands). */
static inline int f32_sum_exact(float a, float b, float *sum)
{
    float s = a + b;
    float bb = s - a;
    float err = (a - (s - bb)) + (b - bb);
    *sum = s;
    return err == 0.0f && isfinite(s);
}

uint16_t pg_bf16_add(uint16_t a, uint16_t b)
{
    float fa = pg_bf16_to_f32(a), fb = pg_bf16_to_f32(b), s;
    if (f32_sum_exact(fa, fb, &s))
        return pg_bf16_from_f32(s);
    return bf16_sum_round((double)fa, (double)fb);
}

uint16_t pg_bf16_add_f32(float acc, uint16_t c)
{
    float fc = pg_bf16_to_f32(c), s;
    if (f32_sum_exact(acc, fc, &s))
        return pg_bf16_from_f32(s);
    return bf16_sum_round((double)acc, (double)fc);
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

/* The epilogue over a row.  First pass: the exact-float fast path for every
 * element, in a loop the compiler vectorizes (integer and float operations
 * only), marking the elements it cannot settle (inexact float sum, inf or
 * NaN); second pass: those through pg_epilogue_apply. */
#define PG_EPI_CHUNK 256

void pg_epilogue_row(pg_epilogue e, const float *acc, const uint16_t *c, uint16_t *d, int64_t n)
{
    for (int64_t j0 = 0; j0 < n; j0 += PG_EPI_CHUNK) {
        int64_t len = n - j0 < PG_EPI_CHUNK ? n - j0 : PG_EPI_CHUNK;
        uint8_t slow[PG_EPI_CHUNK];
        for (int64_t j = 0; j < len; j++) {
            float x = acc[j0 + j];
            int nan_acc = (pg_f32_bits(x) & 0x7FFFFFFFu) > 0x7F800000u; /* the bit trick below loses NaN */
            if (e == PG_EPI_DOUBLE) {
                uint32_t u = pg_f32_bits(x);
                uint32_t r = (u + 0x7FFFu + ((u >> 16) & 1u)) & 0xFFFF0000u; /* bf16_rn, as fp32 bits */
                x = pg_f32_from_bits(r);
            }
            float fc = pg_f32_from_bits((uint32_t)c[j0 + j] << 16);
            float s = x + fc;
            float bb = s - x;
            float err = (x - (s - bb)) + (fc - bb);
            uint32_t su = pg_f32_bits(s);
            uint32_t rounded = (su + 0x7FFFu + ((su >> 16) & 1u)) >> 16;
            /* the exponent field of s (and so of an inf/NaN acc or c, which
             * make s inf or NaN) is all ones: not settled here */
            int bad = nan_acc | (err != 0.0f) | ((su & 0x7F800000u) == 0x7F800000u);
            d[j0 + j] = (uint16_t)rounded;
            slow[j] = (uint8_t)bad;
        }
        for (int64_t j = 0; j < len; j++)
            if (slow[j])
                d[j0 + j] = pg_epilogue_apply(e, acc[j0 + j], c[j0 + j]);
    }
}
