/* `pegemm model contest FILE [--measured FILE]`: a design contest
 * (model/contest.h) predicted and ranked, measured results beside it. */
#include <stdio.h>
#include <string.h>

#include "cli_model_out.h"
#include "contest.h"
#include "pg_cli.h"
#include "pg_error.h"
#include "pg_progress.h"

static const char k_help[] =
    "usage: pegemm model contest FILE.contest [--measured FILE] [--json FILE] [--tiles N] [--seed S]\n"
    "Predict every design of a contest (each a schedule with overrides, on named machines and shapes),\n"
    "rank them per machine and shape (the larger of the model's wall clock and the DRAM floor), and,\n"
    "with --measured, set the measured wall clocks, periods and waits beside the predictions and say\n"
    "whether each ranking held.  docs/model.md \"Design contests\" gives both file formats;\n"
    "model/contests/dual-gemm.contest is issue 14's.\n";

static const pg_cli_opt k_opts[] = {
    {"measured", 0, "FILE", "measured results: lines 'measured MACHINE DESIGN SHAPE wall_us=W [period=P] [WAIT=M]...'"},
    {"json", 0, "FILE", "also write the report as JSON to FILE ('-': stdout, instead of text)"},
    {"tiles", 0, "N", "Monte Carlo tiles per entry (default 100000)"},
    {"seed", 0, "S", "Monte Carlo seed (default 1)"},
};

typedef struct {
    const char *file, *measured, *json;
    pg_model_opts o;
} contest_args;

static int set_opt(contest_args *a, int k, const char *v)
{
    long long n;
    unsigned long long u;
    switch (k) {
    case 0: a->measured = v; return 0;
    case 1: a->json = v; return 0;
    case 2:
        if (pg_cli_int("--tiles", v, 100, INT64_MAX, &n))
            return -1;
        a->o.tiles = n;
        return 0;
    default:
        if (pg_cli_u64("--seed", v, &u))
            return -1;
        a->o.seed = u;
        return 0;
    }
}

/* 0 parsed, 1 --help, 2 usage error (printed) */
static int parse(int argc, char **argv, contest_args *a)
{
    pg_cli c;
    memset(a, 0, sizeof *a);
    a->o.tiles = 100000;
    a->o.seed = 1;
    if (pg_cli_begin(&c, "model contest", k_opts, PG_CLI_COUNT(k_opts), argc, argv)) {
        fputs(k_help, stdout);
        printf("options:\n");
        pg_cli_print_options(stdout, k_opts, PG_CLI_COUNT(k_opts));
        return 1;
    }
    int k;
    while ((k = pg_cli_next(&c)) != PG_CLI_END) {
        if (k == PG_CLI_ERROR)
            return 2;
        if (k == PG_CLI_OPERAND) {
            if (a->file)
                return pg_fail("one contest file (got '%s' and '%s')", a->file, c.value), pg_cli_usage_error(&c);
            a->file = c.value;
        } else if (set_opt(a, k, c.value)) {
            return pg_cli_usage_error(&c);
        }
    }
    if (!a->file)
        return pg_fail("a contest file is required (e.g. model/contests/dual-gemm.contest)"), pg_cli_usage_error(&c);
    return 0;
}

static int write_text(FILE *f, const void *ctx) { return pg_contest_print(ctx, f); }

static int write_json(FILE *f, const void *ctx)
{
    pg_json j;
    pg_json_init(&j, f, 1);
    pg_contest_json(ctx, &j);
    return pg_json_finish(&j);
}

int pg_model_cmd_contest(int argc, char **argv)
{
    contest_args a;
    pg_contest c;
    int pr = parse(argc, argv, &a), rc = 2;
    if (pr)
        return pr == 1 ? 0 : 2;
    if (pg_contest_load(a.file, &c))
        goto fail;
    if (a.measured && pg_contest_load_measured(a.measured, &c))
        goto fail_free;
    pg_note("predicting the %d entries of contest %s", c.n, c.name);
    if (pg_contest_predict(&c, &a.o))
        goto fail_free;
    if (!(a.json && !strcmp(a.json, "-")) && write_text(stdout, &c))
        goto fail_free;
    if (a.json && pg_cli_write_report(a.json, write_json, &c))
        goto fail_free;
    rc = 0;
    pg_contest_free(&c);
    return rc;
fail_free:
    pg_contest_free(&c);
fail:
    fprintf(stderr, "pegemm model contest: %s\n", pg_last_error());
    return 2;
}
