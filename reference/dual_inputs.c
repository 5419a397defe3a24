/* Deterministic, block-quantized inputs for the dual GEMM (dual_inputs.h). */
#include "dual_inputs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"
#include "pg_alloc.h"
#include "pg_error.h"
#include "rng.h"

#define BLK PG_BLOCK_SCALE_K /* 128: the scale block in k, and in n for B */
#define E4M3_MAX 448.0f

static double unit(uint64_t seed, uint64_t tensor, uint64_t i)
{
    return (double)(pg_rng_u64(seed, tensor, i) >> 11) * 0x1p-53;
}

/* element i of a tensor before quantization: a normal value (Box-Muller)
 * times its row's magnitude */
static float value(uint64_t seed, uint64_t tensor, uint64_t i, float row_mag)
{
    const double u1 = 1.0 - unit(seed, tensor, 2 * i), u2 = unit(seed, tensor, 2 * i + 1);
    return (float)(sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2)) * row_mag;
}

static float row_magnitude(uint64_t seed, uint64_t tensor, int64_t row)
{
    return (float)exp2(4.0 * unit(seed, PG_RNG_TENSOR_DUAL_ROWS, (uint64_t)row * 4 + tensor) - 2.0);
}

/* One tensor of `rows` x K (rows = groups x their rows), quantized in blocks
 * of brows x 128: codes[rows][K], scales[rows / brows][KB]. */
static void quantize(uint64_t seed, uint64_t tensor, int64_t rows, int64_t K, int64_t brows, uint8_t *codes,
                     float *scales)
{
    const int64_t KB = (K + BLK - 1) / BLK, RB = rows / brows;
#pragma omp parallel for schedule(dynamic, 1)
    for (int64_t rb = 0; rb < RB; rb++) {
        float mag[BLK];
        for (int64_t r = 0; r < brows; r++)
            mag[r] = row_magnitude(seed, tensor, rb * brows + r);
        for (int64_t kb = 0; kb < KB; kb++) {
            const int64_t k0 = kb * BLK, k1 = k0 + BLK < K ? k0 + BLK : K;
            float amax = 0;
            for (int64_t r = 0; r < brows; r++)
                for (int64_t k = k0; k < k1; k++) {
                    const int64_t i = (rb * brows + r) * K + k;
                    amax = fmaxf(amax, fabsf(value(seed, tensor, (uint64_t)i, mag[r])));
                }
            const float s = amax > 0 ? amax / E4M3_MAX : 1.0f;
            scales[rb * KB + kb] = s;
            for (int64_t r = 0; r < brows; r++)
                for (int64_t k = k0; k < k1; k++) {
                    const int64_t i = (rb * brows + r) * K + k;
                    codes[i] = pg_fp8_from_f32(value(seed, tensor, (uint64_t)i, mag[r]) / s);
                }
        }
    }
}

void pg_dual_inputs_free(pg_dual_inputs *in)
{
    free(in->A);
    free(in->B1);
    free(in->B2);
    free(in->scale_a);
    free(in->scale_b1);
    free(in->scale_b2);
    memset(in, 0, sizeof *in);
}

int pg_dual_generate(pg_dual_inputs *in, int64_t G, int64_t M, int64_t N, int64_t K, pg_out_dtype out, uint64_t seed)
{
    memset(in, 0, sizeof *in);
    if (G < 1 || M < 1 || N < 1 || K < 1 || G > (1 << 20) || M > (1LL << 31) || N > (1LL << 31) || K > (1LL << 31))
        return pg_fail("dual inputs: G, M, N, K must be >= 1 (and at most 2^20, 2^31) (got %lld, %lld, %lld, %lld)",
                       (long long)G, (long long)M, (long long)N, (long long)K);
    if (N % BLK)
        return pg_fail("dual inputs: N must be a multiple of %d (B's 128 x 128 scale blocks) (got %lld)", BLK,
                       (long long)N);
    const int64_t KB = (K + BLK - 1) / BLK;
    const double bytes = (double)G * (double)K * (double)(M + 2 * N) + 4.0 * (double)G * (double)KB * (M + 2 * N / BLK);
    if (pg_mem_fits("the dual GEMM's inputs", bytes > 1.8e19 ? UINT64_MAX : (uint64_t)bytes))
        return -1;
    if (!(in->A = pg_alloc("A", G * M, (size_t)K)) || !(in->B1 = pg_alloc("B1", G * N, (size_t)K)) ||
        !(in->B2 = pg_alloc("B2", G * N, (size_t)K)) ||
        !(in->scale_a = pg_alloc("scale_a", G * M * KB, sizeof(float))) ||
        !(in->scale_b1 = pg_alloc("scale_b1", G * (N / BLK) * KB, sizeof(float))) ||
        !(in->scale_b2 = pg_alloc("scale_b2", G * (N / BLK) * KB, sizeof(float)))) {
        pg_dual_inputs_free(in);
        return -1;
    }
    quantize(seed, PG_RNG_TENSOR_DUAL_A, G * M, K, 1, in->A, in->scale_a);
    quantize(seed, PG_RNG_TENSOR_DUAL_B1, G * N, K, BLK, in->B1, in->scale_b1);
    quantize(seed, PG_RNG_TENSOR_DUAL_B2, G * N, K, BLK, in->B2, in->scale_b2);
    in->p = (pg_dual_problem){.G = G, .M = M, .N = N, .K = K, .fmt_a = PG_FMT_E4M3, .fmt_b = PG_FMT_E4M3,
                              .A = in->A, .B1 = in->B1, .B2 = in->B2, .scale = PG_SCALE_BLOCK,
                              .scale_a = in->scale_a, .scale_b1 = in->scale_b1, .scale_b2 = in->scale_b2,
                              .out = out};
    return 0;
}
