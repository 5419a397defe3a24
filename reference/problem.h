/* The problem: D[m,n] = epilogue(acc(A[m,:], B[n,:]), combined[m mod P, n]).
 * A is [M,K] FP8 row-major, B is [N,K] FP8 (A*B^T), combined is [P,N] BF16.
 * The classic problem (all fields below zero) is E4M3 x E4M3, no scales,
 * no bias, BF16 out, with combined; the general one (docs/numerics.md)
 * adds per-operand formats, scales, a bias and the output type, and
 * P = 0 is a plain GEMM with no combined term. */
#ifndef PG_PROBLEM_H
#define PG_PROBLEM_H

#include <stdint.h>

typedef struct {
    int64_t M, N, K, P;
} pg_shape;

/* The headline problem (SigLIP2 patch embedding, 4736 images x 196 patches). */
#define PG_DEFAULT_M 928256
#define PG_DEFAULT_N 768
#define PG_DEFAULT_K 768
#define PG_DEFAULT_P 196

typedef struct {
    pg_shape shape;  /* P = 0: no combined term (a plain GEMM) */
    char family[32]; /* generator family name, or "file" for user-made inputs */
    uint64_t seed;
    uint8_t *A;         /* [M*K] */
    uint8_t *B;         /* [N*K] */
    uint16_t *combined; /* [P*N] BF16 bits; NULL when P = 0 */
    /* the general problem (zero: the classic one) */
    int fmt_a, fmt_b;   /* pg_fp8_format of A and B */
    int scale;          /* pg_scale_kind; the arrays' sizes: pg_scale_counts() */
    float *scale_a, *scale_b;  /* tensor, rowcol, block */
    uint8_t *mx_a, *mx_b;      /* mx: E8M0 codes */
    int has_bias;
    int bias_dtype;     /* pg_out_dtype the bias values are exact in */
    float *bias;        /* [N] when has_bias */
    int out;            /* pg_out_dtype of D */
} pg_problem;

/* 1 for the classic problem (E4M3 operands, no scales, no bias, bf16 out;
 * with or without combined): what the GPU kernel and pg_gemm_ref run. */
int pg_problem_is_classic(const pg_problem *p);

/* Every dimension >= 1 and small enough for the index types; -1 with a
 * message naming the bad dimension otherwise. */
int pg_shape_check(const pg_shape *s);
/* The inputs of `s` (A, B and combined: M*K + N*K + 2*P*N bytes) fit in
 * memory (pg_mem_limit); -1 with the computed size otherwise.  Checked
 * before generating or loading inputs. */
int pg_shape_check_inputs_fit(const pg_shape *s);
/* Parse "M,N,K,P" (P optional, default 196; 0: no combined term). */
int pg_shape_parse(const char *s, pg_shape *out);
void pg_problem_free(pg_problem *p); /* frees arrays, leaves a zeroed struct */

/* Row selections ("--rows SPEC"):
 *   all            every row (rows = NULL, n = M)
 *   A:B            rows A..B-1
 *   sample:N       N rows drawn deterministically (seeded by the problem
 *                  seed), sorted, always including rows 0 and M-1
 *   i,j,k          an explicit list
 * On success *rows is malloc'd (NULL for "all") and *n its length. */
int pg_rows_parse(const char *spec, int64_t M, uint64_t seed, int64_t **rows, int64_t *n);

#endif
