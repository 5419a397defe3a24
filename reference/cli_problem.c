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
}

int pg_cli_problem_take(pg_cli_problem *o, const pg_cli_opt *opt, const char *value)
{
    const char *n = opt->name;
    if (!strcmp(n, "input"))
        o->input = value;
    else if (!strcmp(n, "problem") || !strcmp(n, "shape"))
        o->shape = value;
    else if (!strcmp(n, "family"))
        o->family = value;
    else if (!strcmp(n, "seed"))
        return pg_cli_parse_u64(value, "--seed", &o->seed) != 0 ? -1 : 1;
    else if (!strcmp(n, "threads"))
        return pg_cli_parse_int(value, "--threads", 1, 4096, &o->threads) != 0 ? -1 : 1;
    else
        return 0;
    return 1;
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

int pg_cli_report(const char *cmd, int status)
{
    fprintf(stderr, "pegemm %s: %s\n", cmd, pg_last_error());
    return status;
}
