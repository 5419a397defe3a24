/* Counter-based random numbers: a value depends only on (seed, tensor,
 * index), never on the order of calls or the thread that asks, so inputs
 * are the same bytes on every machine and thread count. */
#ifndef PG_RNG_H
#define PG_RNG_H

#include <stdint.h>

/* Tensor ids (stable: changing one changes every generated input). */
enum {
    PG_RNG_TENSOR_A = 1,
    PG_RNG_TENSOR_B = 2,
    PG_RNG_TENSOR_COMBINED = 3,
    PG_RNG_TENSOR_ROWS = 4,
    PG_RNG_TENSOR_BIAS = 5,
    PG_RNG_TENSOR_NAN_ROWS = 6,
    PG_RNG_TENSOR_SCALE_A = 7, /* the general problem's scales and bias (problem_terms.c) */
    PG_RNG_TENSOR_SCALE_B = 8,
    PG_RNG_TENSOR_BIAS_TERM = 9,
    PG_RNG_TENSOR_DUAL_A = 10, /* the dual GEMM's inputs (dual_inputs.c) */
    PG_RNG_TENSOR_DUAL_B1 = 11,
    PG_RNG_TENSOR_DUAL_B2 = 12,
    PG_RNG_TENSOR_DUAL_ROWS = 13,
};

/* The splitmix64 finaliser (Steele, Lea, Flood 2014): a bijection on 64 bits
 * with good avalanche. */
static inline uint64_t pg_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline uint64_t pg_rng_u64(uint64_t seed, uint64_t tensor, uint64_t index)
{
    uint64_t stream = pg_mix64(seed ^ (0x9E3779B97F4A7C15ull * tensor));
    return pg_mix64(stream + 0x9E3779B97F4A7C15ull * (index + 1));
}

#endif
