/* The command line of `pegemm run` and `pegemm bench`, shared by the CUDA
 * build (cli_run.c) and the reference-only build (cli_nocuda.c), so both
 * take, check and reject the same arguments before any GPU is looked for. */
#ifndef PG_KERNEL_CLI_RUN_OPTS_H
#define PG_KERNEL_CLI_RUN_OPTS_H

#include <stdint.h>
#include <stdio.h>

#include "inputs.h"
#include "problem.h"

typedef struct {
    const char *out, *input, *rows;
    const char *variant; /* the --variant name, checked by the CUDA build (NULL: default) */
    pg_shape shape;
    pg_family family;
    uint64_t seed;
    int trace, check, baselines, ablate, energy;
    int64_t epi_delay, mainloop_delay;
    int reps, warmup;
    int64_t a_prefetch; /* -1: the variant's default */
} run_opts;

/* The usage of `cmd` ("run" or "bench"); `constraints`: the kernel's shape
 * rules (the CUDA build knows them), or NULL. */
void pg_run_usage(FILE *f, const char *cmd, const char *constraints);

/* Parse and check everything that needs no GPU (shape, family, numbers,
 * that the output can be written).  0 ok; 1 --help was printed (exit 0);
 * 2 a usage or input error, message printed. */
int pg_run_parse(int argc, char **argv, int bench, run_opts *o);

#endif
