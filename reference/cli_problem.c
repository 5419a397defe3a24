/* The problem options shared by `pegemm inputs`, `ref` and `bench-ref`. */
#include "cli_problem.h"

#include <string.h>

#include "cli_util.h"
#include "inputs.h"
#include "pg_error.h"
#include "runfile.h"

void pg_cli_problem_begin(pg_cli_problem *o)
{
    memset(o, 0, sizeof *o);
    o->family = "normal";
    o->seed = 1;
    optind = 1;
    opterr = 0;
}

/* 1 if `c` is one of the problem options (stored), 0 if not, -1 on a bad value. */
static int problem_option(pg_cli_problem *o, int c, const char *arg)
{
    switch (c) {
    case 'i':
        o->input = arg;
        return 1;
    case 'p':
        o->shape = arg;
        return 1;
    case 'f':
        o->family = arg;
        return 1;
    case 's':
        return pg_cli_parse_u64(arg, "--seed", &o->seed) != 0 ? -1 : 1;
    case 't':
        return pg_cli_parse_int(arg, "--threads", 1, 4096, &o->threads) != 0 ? -1 : 1;
    default:
        return 0;
    }
}

int pg_cli_next_option(pg_cli_problem *o, int argc, char **argv, const struct option *opts)
{
    int c, r;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if ((r = problem_option(o, c, optarg)) == 0)
            return c;
        if (r < 0)
            return PG_CLI_BAD_VALUE;
    }
    return -1;
}

int pg_cli_problem_load(const pg_cli_problem *o, pg_problem *p, int *from_file_stored)
{
    memset(p, 0, sizeof *p);
    *from_file_stored = 0;
    if (o->input != NULL && o->shape != NULL)
        return pg_fail("give either --input FILE or --problem M,N,K[,P], not both");
    if (o->input == NULL && o->shape == NULL)
        return pg_fail("no inputs: give --input FILE or --problem M,N,K[,P] (with --family and --seed)");
    if (o->input != NULL) {
        pg_run run;
        /* pg_run_read's messages already name the file */
        if (pg_run_read(o->input, &run, PG_READ_PROBLEM) != 0)
            return -1;
        *p = run.problem; /* take the inputs; free the rest */
        *from_file_stored = run.problem_stored;
        memset(&run.problem, 0, sizeof run.problem);
        pg_run_free(&run);
        return 0;
    }
    pg_shape sh;
    pg_family fam;
    if (pg_shape_parse(o->shape, &sh) != 0 || pg_family_parse(o->family, &fam) != 0)
        return -1;
    return pg_problem_generate_progress(p, sh, fam, o->seed, "generating inputs");
}

int pg_cli_bad_option(const char *cmd, char **argv, void (*usage)(FILE *))
{
    fprintf(stderr, "pegemm %s: unknown or incomplete option '%s'\n\n", cmd, argv[optind - 1]);
    usage(stderr);
    return 2;
}

int pg_cli_no_operands(const char *cmd, int argc, char **argv, void (*usage)(FILE *))
{
    if (optind >= argc)
        return 0;
    fprintf(stderr, "pegemm %s: unexpected argument '%s'\n\n", cmd, argv[optind]);
    usage(stderr);
    return 2;
}

int pg_cli_report(const char *cmd, int status)
{
    fprintf(stderr, "pegemm %s: %s\n", cmd, pg_last_error());
    return status;
}
