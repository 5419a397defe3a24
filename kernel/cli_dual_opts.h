/* The command line of `pegemm dual run`, `dual bench`, `dual ref` and `dual
 * check` (the fused SwiGLU dual GEMM, issue 14), shared by the CUDA build
 * (cli_dual.c, cli_dual_bench.c) and the reference-only build
 * (cli_nocuda.c), so both take, check and reject the same arguments before
 * any GPU is looked for.  `ref` and `check` need no GPU (cli_dual_ref.c) and
 * work the same in both builds.
 * No CUDA header here: the design names are this file's own copy of
 * kernel/dual_gpu.h's (PG_DUAL_INTER = 0, PG_DUAL_SEQ = 1); the CUDA build
 * checks at run time that the two agree. */
#ifndef PG_KERNEL_CLI_DUAL_OPTS_H
#define PG_KERNEL_CLI_DUAL_OPTS_H

#include <stdint.h>
#include <stdio.h>

#include "accum_params.h"
#include "scaled.h"

#define PG_DUAL_CLI_DESIGNS 2 /* inter, seq: the indices of pg_dual_design */
#define PG_DUAL_CLI_BLOCK 128 /* M, N, K: multiples of the kernel's tile and k-block */

/* The subcommands, in the order of pg_dual_parse's `sub`. */
enum { PG_DUAL_SUB_RUN = 0, PG_DUAL_SUB_BENCH = 1, PG_DUAL_SUB_REF = 2, PG_DUAL_SUB_CHECK = 3, PG_DUAL_SUBS };

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
    /* ref, check */
    const char *dir;        /* --dir DIR: the .npy files */
    const char *got;        /* check: --got FILE.npy, the user's C */
    const char *mode;       /* --mode SPEC as given (default "sm90") */
    pg_accum_params accum;  /* what --mode names */
} dual_opts;

/* The usage of `pegemm dual` or one subcommand (sub = NULL, "run", "bench",
 * "ref" or "check"). */
void pg_dual_usage(FILE *f, const char *sub);

/* Parse and check everything that needs no GPU (the problem and the
 * kernel's shape rules, numbers, the row selection, that the outputs can be
 * written).  argv[0] is the subcommand, `sub` its PG_DUAL_SUB_*.  0 ok; 1
 * --help was printed (exit 0); 2 a usage or input error, message printed.
 * On 0, free with pg_dual_opts_free. */
int pg_dual_parse(int argc, char **argv, int sub, dual_opts *o);
void pg_dual_opts_free(dual_opts *o);

/* `pegemm dual SUB ...`: the "run" / "bench" / "ref" / "check" dispatch,
 * --help and an unknown subcommand (2), shared by both builds; run_fn /
 * bench_fn do the GPU work with the parsed options, ref and check are
 * cli_dual_ref.c's in both builds. */
int pg_dual_dispatch(int argc, char **argv, int (*run_fn)(const dual_opts *), int (*bench_fn)(const dual_opts *));

#endif
