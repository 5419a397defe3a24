/* The command line of `pegemm dual run` and `pegemm dual bench` (the fused
 * SwiGLU dual GEMM, issue 14), shared by the CUDA build (cli_dual.c,
 * cli_dual_bench.c) and the reference-only build (cli_nocuda.c), so both
 * take, check and reject the same arguments before any GPU is looked for.
 * No CUDA header here: the design names are this file's own copy of
 * kernel/dual_gpu.h's (PG_DUAL_INTER = 0, PG_DUAL_SEQ = 1); the CUDA build
 * checks at run time that the two agree. */
#ifndef PG_KERNEL_CLI_DUAL_OPTS_H
#define PG_KERNEL_CLI_DUAL_OPTS_H

#include <stdint.h>
#include <stdio.h>

#include "scaled.h"

#define PG_DUAL_CLI_DESIGNS 2 /* inter, seq: the indices of pg_dual_design */
#define PG_DUAL_CLI_BLOCK 128 /* M, N, K: multiples of the kernel's tile and k-block */

/* "inter" / "seq" for design index d (< PG_DUAL_CLI_DESIGNS). */
const char *pg_dual_cli_design_name(int d);

typedef struct {
    int64_t G, M, N, K;
    pg_out_dtype out; /* PG_OUT_BF16 or PG_OUT_FP16 */
    uint64_t seed;
    const char *json;  /* --json FILE, or NULL */
    /* run */
    int design;        /* index: 0 inter, 1 seq */
    int check;
    const char *rows;  /* --rows SPEC (with --check), or NULL: all */
    int64_t *row_list; /* the selected rows of C viewed as [G*M][N]; NULL: all */
    int64_t nrows;
    const char *trace; /* --trace FILE.h5, or NULL */
    int64_t epi_delay, mainloop_delay;
    /* bench */
    int designs[PG_DUAL_CLI_DESIGNS]; /* which designs are timed, in --designs order */
    int ndesigns;
    int energy;
    int reps, warmup, rounds;
} dual_opts;

/* The usage of `pegemm dual`, `dual run` or `dual bench` (sub = NULL, "run"
 * or "bench"). */
void pg_dual_usage(FILE *f, const char *sub);

/* Parse and check everything that needs no GPU (the problem and the
 * kernel's shape rules, numbers, the row selection, that the outputs can be
 * written).  argv[0] is "run" or "bench".  0 ok; 1 --help was printed (exit
 * 0); 2 a usage or input error, message printed.  On 0, free with
 * pg_dual_opts_free. */
int pg_dual_parse(int argc, char **argv, int bench, dual_opts *o);
void pg_dual_opts_free(dual_opts *o);

/* `pegemm dual SUB ...`: the "run" / "bench" dispatch, --help and an unknown
 * subcommand (2), shared by both builds; run_fn / bench_fn do the work with
 * the parsed options (argv[0] "run" or "bench"). */
int pg_dual_dispatch(int argc, char **argv, int (*run_fn)(const dual_opts *), int (*bench_fn)(const dual_opts *));

#endif
