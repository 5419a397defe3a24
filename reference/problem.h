/* The problem: D[m,n] = epilogue(acc(A[m,:], B[n,:]), combined[m mod P, n]).
 * A is [M,K] E4M3 row-major, B is [N,K] E4M3 (A*B^T), combined is [P,N] BF16. */
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
    pg_shape shape;
    char family[32]; /* generator family name, or "file" for user-made inputs */
    uint64_t seed;
    uint8_t *A;         /* [M*K] */
    uint8_t *B;         /* [N*K] */
    uint16_t *combined; /* [P*N] BF16 bits */
} pg_problem;

/* Every dimension >= 1 and small enough for the index types; -1 with a
 * message naming the bad dimension otherwise. */
int pg_shape_check(const pg_shape *s);
/* The inputs of `s` (A, B and combined: M*K + N*K + 2*P*N bytes) fit in
 * memory (pg_mem_limit); -1 with the computed size otherwise.  Checked
 * before generating or loading inputs. */
int pg_shape_check_inputs_fit(const pg_shape *s);
/* Parse "M,N,K,P" (P optional, default 196). */
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
