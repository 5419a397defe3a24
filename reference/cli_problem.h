/* The options that say which problem a reference command works on, shared
 * by `pegemm inputs`, `ref` and `bench-ref`: --problem, --family and --seed,
 * and where the command takes them --input and --threads.  A command puts
 * the entries it takes into its getopt_long table (the PG_CLI_OPT_* macros,
 * which fix the option letters) and reads its options with
 * pg_cli_next_option(), which takes these on the way. */
#ifndef PG_REF_CLI_PROBLEM_H
#define PG_REF_CLI_PROBLEM_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

#include "problem.h"

typedef struct {
    const char *input;  /* --input FILE, or NULL */
    const char *shape;  /* --problem M,N,K[,P], or NULL */
    const char *family; /* --family F (default "normal") */
    uint64_t seed;      /* --seed S (default 1) */
    int threads;        /* --threads N (0: OpenMP's default) */
} pg_cli_problem;

#define PG_CLI_OPT_PROBLEM {"problem", required_argument, NULL, 'p'}
#define PG_CLI_OPT_FAMILY {"family", required_argument, NULL, 'f'}
#define PG_CLI_OPT_SEED {"seed", required_argument, NULL, 's'}
#define PG_CLI_OPT_INPUT {"input", required_argument, NULL, 'i'}
#define PG_CLI_OPT_THREADS {"threads", required_argument, NULL, 't'}

/* The defaults (no input, no shape, family "normal", seed 1, threads 0),
 * and getopt_long set to start over, quietly (opterr = 0). */
void pg_cli_problem_begin(pg_cli_problem *o);

/* getopt_long for a command: stores the problem options above in `o` and
 * returns the command's own ones: the option's letter, '?' for an unknown or
 * incomplete option, -1 at the end, or PG_CLI_BAD_VALUE when a problem
 * option's value is bad (with a pg_fail() message). */
#define PG_CLI_BAD_VALUE '!'
int pg_cli_next_option(pg_cli_problem *o, int argc, char **argv, const struct option *opts);

/* The problem from --input FILE, or generated from --problem/--family/--seed.
 * Exactly one source must be given.  *from_file_stored is 1 when the inputs
 * came stored in a file.  (--threads is the caller's: pg_cli_set_threads.) */
int pg_cli_problem_load(const pg_cli_problem *o, pg_problem *p, int *from_file_stored);

/* getopt_long returned an option that no case took: print "pegemm CMD:
 * unknown or incomplete option" and the usage to stderr; returns 2. */
int pg_cli_bad_option(const char *cmd, char **argv, void (*usage)(FILE *));
/* 0 if getopt_long used every argument; otherwise print "pegemm CMD:
 * unexpected argument" and the usage to stderr and return 2. */
int pg_cli_no_operands(const char *cmd, int argc, char **argv, void (*usage)(FILE *));

/* "pegemm CMD: <last error>" on stderr; returns `status`. */
int pg_cli_report(const char *cmd, int status);

#endif
