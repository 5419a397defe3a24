/* The options that say which problem a reference command works on, shared
 * by `pegemm inputs`, `ref` and `bench-ref`: --problem, --family and --seed,
 * and where the command takes them --input and --threads.  A command puts
 * the entries it takes into its pg_cli table (the PG_CLI_OPT_* macros) and
 * hands each option it reads to pg_cli_problem_take() first. */
#ifndef PG_REF_CLI_PROBLEM_H
#define PG_REF_CLI_PROBLEM_H

#include <stdint.h>
#include <stdio.h>

#include "pg_cli.h"
#include "problem.h"

typedef struct {
    const char *input;  /* --input FILE, or NULL */
    const char *shape;  /* --problem M,N,K[,P], or NULL */
    const char *family; /* --family F (default "normal") */
    uint64_t seed;      /* --seed S (default 1) */
    int threads;        /* --threads N (0: OpenMP's default) */
    /* the general problem's terms (generated problems only) */
    const char *fmt_a, *fmt_b, *scale, *bias, *out_dtype; /* NULL: not given */
} pg_cli_problem;

/* pg_cli table entries (pg_cli.h) of the problem options; --shape is the
 * same as --problem (the name `run` used first). */
#define PG_CLI_OPT_PROBLEM {"problem", 0, "M,N,K[,P]", "shape (P defaults to 196; 0: no combined term; --shape too)"}
#define PG_CLI_OPT_SHAPE {"shape", 0, "M,N,K[,P]", NULL}
#define PG_CLI_OPT_FAMILY {"family", 0, "F", "input family: normal (default), codes, band, subnormal, special"}
#define PG_CLI_OPT_SEED {"seed", 0, "S", "generator seed (default 1)"}
#define PG_CLI_OPT_INPUT {"input", 0, "FILE", "inputs from a run file instead (e.g. made by `pegemm inputs`)"}
#define PG_CLI_OPT_THREADS {"threads", 0, "N", "OpenMP threads (default: all)"}
#define PG_CLI_OPT_FMT_A {"fmt-a", 0, "F", "A's format: e4m3 (default) or e5m2"}
#define PG_CLI_OPT_FMT_B {"fmt-b", 0, "F", "B's format: e4m3 (default) or e5m2"}
#define PG_CLI_OPT_SCALE {"scale", 0, "KIND", "scales from the seed: none (default), tensor, rowcol, block, mx"}
#define PG_CLI_OPT_BIAS {"bias", 0, "DTYPE", "a bias [N] from the seed, exact in bf16, fp16 or fp32 (default: none)"}
#define PG_CLI_OPT_OUT_DTYPE {"out-dtype", 0, "T", "D's type: bf16 (default), fp16, fp32 (not bf16: use P = 0)"}
#define PG_CLI_OPT_TERMS PG_CLI_OPT_FMT_A, PG_CLI_OPT_FMT_B, PG_CLI_OPT_SCALE, PG_CLI_OPT_BIAS, PG_CLI_OPT_OUT_DTYPE
#define PG_CLI_OPT_OUTPUT {"output", 'o', "FILE", "the run file to write (atomically)"}

/* The defaults (no input, no shape, family "normal", seed 1, threads 0). */
void pg_cli_problem_begin(pg_cli_problem *o);

/* If `opt` is one of the problem options, store its value: 1; not one: 0;
 * a bad value: -1 with a pg_fail() message. */
int pg_cli_problem_take(pg_cli_problem *o, const pg_cli_opt *opt, const char *value);

/* The problem from --input FILE, or generated from --problem/--family/--seed
 * and the terms (--fmt-a, --fmt-b, --scale, --bias, --out-dtype; refused
 * with --input, whose file says them).
 * Exactly one source must be given.  *from_file_stored is 1 when the inputs
 * came stored in a file.  (--threads is the caller's: pg_cli_set_threads.) */
int pg_cli_problem_load(const pg_cli_problem *o, pg_problem *p, int *from_file_stored);

/* "pegemm CMD: <last error>" on stderr; returns `status`. */
int pg_cli_report(const char *cmd, int status);

#endif
