/* Deterministic inputs.  Every element is a pure function of (family, seed,
 * tensor, index) through the counter-based generator in rng.h, and only
 * integer arithmetic and correctly rounded IEEE operations (+, *, one
 * conversion) turn random bits into values, so the bytes are the same on
 * every machine, compiler and thread count.  (Gaussians are Irwin-Hall sums
 * of 8 uniforms, not Box-Muller: libm's log/cos may differ between libcs.)
 *
 * Families (A and B are E4M3 codes; combined is BF16):
 *   normal     A ~ N(0, 1), B ~ N(0, 1/8), rounded to E4M3 (RNE, satfinite)
 *   codes      uniform over the 254 finite codes: the widest exponent spread
 *   band       magnitudes in [1, 4) (exponents 0 and 1), random signs:
 *              heavy cancellation in every dot product
 *   subnormal  half the codes subnormal (0x01..0x07 with a random sign),
 *              the other half normals with small exponents (2^-6 .. 2^-3)
 *   special    the normal family with zeros (+0 and -0, 6%) and +-448 (2%)
 *              sprinkled in, and NaN codes (0x7F / 0xFF) at one position in
 *              about one row in 64 of A and of B.  A NaN anywhere in a dot
 *              product makes that accumulator NaN on the GPU too (wgmma
 *              returns the canonical NaN, cvt/add.bf16 keep it canonical),
 *              so the kernel can honour every special value used here.
 *              combined also gets +-0 (1% each).
 * combined = bias[n] + pos[p, n] with bias ~ N(0, 1/2), pos ~ N(0, 1/20),
 * rounded to fp32 and then to BF16 (RNE). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"
#include "inputs.h"
#include "pg_error.h"
#include "pg_progress.h"
#include "rng.h"

static const char *const k_family_names[PG_FAM_COUNT] = {"normal", "codes", "band", "subnormal", "special"};

const char *pg_family_name(pg_family f)
{
    return (f >= 0 && f < PG_FAM_COUNT) ? k_family_names[f] : "?";
}

int pg_family_parse(const char *s, pg_family *out)
{
    for (int i = 0; i < PG_FAM_COUNT; i++) {
        if (s != NULL && strcmp(s, k_family_names[i]) == 0) {
            *out = (pg_family)i;
            return 0;
        }
    }
    return pg_fail("unknown input family '%s' (valid: normal, codes, band, subnormal, special)",
                   s ? s : "(null)");
}

/* Approximately standard normal: the sum of eight 16-bit uniforms, centred
 * and scaled to unit variance (range about +-4.9). */
static double gauss(uint64_t seed, uint64_t tensor, uint64_t index)
{
    uint64_t u[2] = {pg_rng_u64(seed, tensor, 2 * index), pg_rng_u64(seed, tensor, 2 * index + 1)};
    int64_t s = 0;
    for (int w = 0; w < 2; w++)
        for (int i = 0; i < 4; i++)
            s += (int64_t)((u[w] >> (16 * i)) & 0xFFFF);
    /* mean 8 * 65535/2, variance 8 * (65536^2 - 1)/12 */
    const double inv_two_sigma = 1.0 / (2.0 * 53510.5937);
    return (double)(2 * s - 8 * 65535) * inv_two_sigma;
}

/* One E4M3 code of tensor `tensor` (A or B) at (row, k). */
static uint8_t gen_code(pg_family f, uint64_t seed, uint64_t tensor, int64_t row, int64_t K, int64_t k)
{
    uint64_t index = (uint64_t)row * (uint64_t)K + (uint64_t)k;
    double sigma = tensor == PG_RNG_TENSOR_A ? 1.0 : 0.125;
    switch (f) {
    case PG_FAM_NORMAL:
        return pg_fp8_from_f32((float)(gauss(seed, tensor, index) * sigma));
    case PG_FAM_CODES: {
        uint64_t c = pg_rng_u64(seed, tensor, index) % 254; /* 127 positive, 127 negative */
        return (uint8_t)(c < 127 ? c : c - 127 + 0x80);
    }
    case PG_FAM_BAND: {
        uint64_t h = pg_rng_u64(seed, tensor, index);
        uint8_t e = (uint8_t)(7 + (h & 1));       /* exponent field 7 or 8: [1, 4) */
        uint8_t m = (uint8_t)((h >> 1) & 7);
        uint8_t s = (uint8_t)((h >> 4) & 1) << 7;
        return (uint8_t)(s | (e << 3) | m);
    }
    case PG_FAM_SUBNORMAL: {
        uint64_t h = pg_rng_u64(seed, tensor, index);
        uint8_t s = (uint8_t)((h >> 1) & 1) << 7;
        if (h & 1)
            return (uint8_t)(s | (1 + (h >> 2) % 7)); /* subnormal 0x01..0x07 */
        uint8_t e = (uint8_t)(1 + ((h >> 8) & 3));    /* exponent field 1..4 */
        return (uint8_t)(s | (e << 3) | ((h >> 12) & 7));
    }
    case PG_FAM_SPECIAL: {
        uint64_t nan_row = pg_rng_u64(seed, PG_RNG_TENSOR_NAN_ROWS * 16 + tensor, (uint64_t)row);
        if (nan_row % 64 == 0 && (int64_t)((nan_row >> 8) % (uint64_t)K) == k)
            return (uint8_t)(PG_FP8_NAN | ((nan_row >> 40) & 1) << 7);
        uint64_t h = pg_rng_u64(seed, tensor + 8, index) % 1000;
        if (h < 30)
            return 0x00;
        if (h < 60)
            return 0x80;
        if (h < 70)
            return 0x7E; /* +448 */
        if (h < 80)
            return 0xFE; /* -448 */
        return pg_fp8_from_f32((float)(gauss(seed, tensor, index) * sigma));
    }
    default:
        return 0;
    }
}

void pg_generate_A_rows(pg_family f, uint64_t seed, pg_shape shape, int64_t r0, int64_t r1, uint8_t *dst)
{
    int64_t K = shape.K;
#pragma omp parallel for schedule(static)
    for (int64_t r = r0; r < r1; r++)
        for (int64_t k = 0; k < K; k++)
            dst[(r - r0) * K + k] = gen_code(f, seed, PG_RNG_TENSOR_A, r, K, k);
}

static void generate_B(pg_family f, uint64_t seed, pg_shape shape, uint8_t *dst)
{
    int64_t K = shape.K;
#pragma omp parallel for schedule(static)
    for (int64_t n = 0; n < shape.N; n++)
        for (int64_t k = 0; k < K; k++)
            dst[n * K + k] = gen_code(f, seed, PG_RNG_TENSOR_B, n, K, k);
}

static void generate_combined(pg_family f, uint64_t seed, pg_shape shape, uint16_t *dst)
{
    int64_t N = shape.N;
#pragma omp parallel for schedule(static)
    for (int64_t p = 0; p < shape.P; p++) {
        for (int64_t n = 0; n < N; n++) {
            uint64_t index = (uint64_t)(p * N + n);
            double v = 0.5 * gauss(seed, PG_RNG_TENSOR_BIAS, (uint64_t)n) +
                       0.05 * gauss(seed, PG_RNG_TENSOR_COMBINED, index);
            uint16_t h = pg_bf16_from_f32((float)v);
            if (f == PG_FAM_SPECIAL) {
                uint64_t r = pg_rng_u64(seed, PG_RNG_TENSOR_COMBINED + 8, index) % 100;
                if (r == 0)
                    h = 0x0000;
                else if (r == 1)
                    h = 0x8000;
            }
            dst[p * N + n] = h;
        }
    }
}

int pg_problem_generate_progress(pg_problem *p, pg_shape shape, pg_family f, uint64_t seed, const char *label)
{
    memset(p, 0, sizeof *p);
    if (pg_shape_check_inputs_fit(&shape) != 0)
        return -1;
    if (f < 0 || f >= PG_FAM_COUNT)
        return pg_fail("unknown input family %d", (int)f);
    p->A = malloc((size_t)(shape.M * shape.K));
    p->B = malloc((size_t)(shape.N * shape.K));
    if (shape.P > 0) /* P = 0: a plain GEMM, no combined term */
        p->combined = malloc((size_t)(shape.P * shape.N) * sizeof *p->combined);
    if (p->A == NULL || p->B == NULL || (p->combined == NULL && shape.P > 0)) {
        pg_problem_free(p);
        return pg_fail("out of memory generating a %lld x %lld x %lld problem", (long long)shape.M,
                       (long long)shape.N, (long long)shape.K);
    }
    p->shape = shape;
    p->seed = seed;
    snprintf(p->family, sizeof p->family, "%s", pg_family_name(f));
    /* A in chunks of rows, so a terminal sees progress on large M (the
     * bytes do not depend on the chunking: every element is a pure
     * function of its index). */
    pg_progress prog;
    if (label)
        pg_progress_begin(&prog, label, shape.M);
    const int64_t chunk = 16384;
    for (int64_t r0 = 0; r0 < shape.M; r0 += chunk) {
        int64_t r1 = shape.M - r0 < chunk ? shape.M : r0 + chunk;
        pg_generate_A_rows(f, seed, shape, r0, r1, p->A + r0 * shape.K);
        if (label)
            pg_progress_update(&prog, r1);
    }
    if (label)
        pg_progress_end(&prog);
    generate_B(f, seed, shape, p->B);
    if (shape.P > 0)
        generate_combined(f, seed, shape, p->combined);
    return 0;
}

int pg_problem_generate(pg_problem *p, pg_shape shape, pg_family f, uint64_t seed)
{
    return pg_problem_generate_progress(p, shape, f, seed, NULL);
}
