/* `pegemm inputs` and `pegemm ref`: write input files, run the reference. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_problem.h"
#include "cli_util.h"
#include "commands.h"
#include "gemm.h"
#include "inputs.h"
#include "pg_alloc.h"
#include "pg_cli.h"
#include "pg_error.h"
#include "pg_outfile.h"
#include "pg_progress.h"
#include "runfile.h"

static const pg_cli_opt k_inputs_opts[] = {
    PG_CLI_OPT_PROBLEM, PG_CLI_OPT_SHAPE, PG_CLI_OPT_FAMILY, PG_CLI_OPT_SEED, PG_CLI_OPT_OUTPUT,
};

static void inputs_usage(FILE *f)
{
    fprintf(f,
            "usage: pegemm inputs --problem M,N,K[,P] [--family F] [--seed S] --output FILE\n"
            "\n"
            "Write a run file holding the inputs A [M,K] and B [N,K] (E4M3 codes) and\n"
            "combined [P,N] (BF16 bits), generated deterministically from the family\n"
            "and the seed (the same bytes on every machine and thread count).\n"
            "\n");
    pg_cli_print_options(f, k_inputs_opts, PG_CLI_COUNT(k_inputs_opts));
}

/* Read a reference command's options: the problem ones into *po, the
 * command's own through take(opt, value, ctx) (-1 with a message on a bad
 * value).  0 parsed; 1 --help printed; 2 usage error printed. */
static int read_options(const char *cmd, const pg_cli_opt *opts, int nopts, int argc, char **argv,
                        void (*usage)(FILE *), pg_cli_problem *po,
                        int (*take)(const pg_cli_opt *opt, const char *value, void *ctx), void *ctx)
{
    pg_cli c;
    pg_cli_problem_begin(po);
    if (pg_cli_begin(&c, cmd, opts, nopts, argc, argv)) {
        usage(stdout);
        return 1;
    }
    int k, r;
    while ((k = pg_cli_next(&c)) != PG_CLI_END) {
        if (k == PG_CLI_ERROR)
            return 2;
        if (k == PG_CLI_OPERAND) {
            pg_fail("unexpected argument '%s'", c.value);
            return pg_cli_usage_error(&c);
        }
        if ((r = pg_cli_problem_take(po, &opts[k], c.value)) < 0 || (r == 0 && take(&opts[k], c.value, ctx) != 0))
            return pg_cli_usage_error(&c);
    }
    return 0;
}

static int take_output(const pg_cli_opt *opt, const char *value, void *ctx)
{
    if (strcmp(opt->name, "output") != 0)
        return pg_fail("internal: option --%s not handled", opt->name);
    *(const char **)ctx = value;
    return 0;
}

/* "M,N,K,P 12544,768,768,196" */
static void shape_text(const pg_shape *s, char *buf, size_t n)
{
    snprintf(buf, n, "M,N,K,P %lld,%lld,%lld,%lld", (long long)s->M, (long long)s->N, (long long)s->K,
             (long long)s->P);
}

int pg_cmd_inputs(int argc, char **argv)
{
    pg_cli_problem po;
    const char *output = NULL;
    int pr = read_options("inputs", k_inputs_opts, PG_CLI_COUNT(k_inputs_opts), argc, argv, inputs_usage, &po,
                          take_output, &output);
    if (pr)
        return pr == 1 ? 0 : 2;
    if (po.shape == NULL || output == NULL) {
        fprintf(stderr, "pegemm inputs: %s is required (see pegemm inputs --help)\n",
                po.shape == NULL ? "--problem" : "--output");
        return 2;
    }
    if (pg_outfile_check(output) != 0)
        return pg_cli_report("inputs", 2);
    const double t0 = pg_now_seconds();
    pg_run run;
    memset(&run, 0, sizeof run);
    int stored = 0;
    if (pg_cli_problem_load(&po, &run.problem, &stored) != 0)
        return pg_cli_report("inputs", 2);
    int rc = 0;
    if (pg_run_write(output, &run, 1) != 0) {
        rc = pg_cli_report("inputs", 2);
    } else {
        char sh[96];
        shape_text(&run.problem.shape, sh, sizeof sh);
        pg_note("wrote %s (inputs %s, family %s, seed %llu, %.1f s)", output, sh, run.problem.family,
                (unsigned long long)run.problem.seed, pg_now_seconds() - t0);
    }
    pg_run_free(&run);
    return rc;
}

static const pg_cli_opt k_ref_opts[] = {
    PG_CLI_OPT_INPUT,
    PG_CLI_OPT_PROBLEM,
    PG_CLI_OPT_SHAPE,
    PG_CLI_OPT_FAMILY,
    PG_CLI_OPT_SEED,
    {"mode", 0, "MODE", "exact, fp32, sm90, sm90-promote, sm100"},
    {"epilogue", 0, "E", "double (default: bf16(bf16(acc) + c)) or single (bf16(acc + c))"},
    {"rows", 0, "SPEC", "all (default), A:B, sample:N, or i,j,k"},
    {"accumulator", 0, NULL, "also store the fp32 accumulators"},
    PG_CLI_OPT_THREADS,
    PG_CLI_OPT_OUTPUT,
};

static void ref_usage(FILE *f)
{
    fprintf(f, "usage: pegemm ref (--input FILE | --problem M,N,K[,P] [--family F] [--seed S])\n"
               "                  --mode MODE [--epilogue double|single] [--rows SPEC]\n"
               "                  [--accumulator] [--threads N] --output FILE\n"
               "\n"
               "Run the bit-accurate CPU reference and write a run file with D (BF16 bits)\n"
               "for the selected rows, and the fp32 accumulators with --accumulator.\n"
               "\n");
    pg_cli_print_options(f, k_ref_opts, PG_CLI_COUNT(k_ref_opts));
}

typedef struct {
    const char *output, *rows_spec, *mode_s, *epi_s;
    int want_acc;
} ref_args;

static int take_ref(const pg_cli_opt *opt, const char *value, void *ctx)
{
    ref_args *a = ctx;
    const char *n = opt->name;
    if (!strcmp(n, "mode"))
        a->mode_s = value;
    else if (!strcmp(n, "epilogue"))
        a->epi_s = value;
    else if (!strcmp(n, "rows"))
        a->rows_spec = value;
    else if (!strcmp(n, "accumulator"))
        a->want_acc = 1;
    else if (!strcmp(n, "output"))
        a->output = value;
    else
        return pg_fail("internal: option --%s not handled", n);
    return 0;
}

int pg_cmd_ref(int argc, char **argv)
{
    pg_cli_problem po;
    ref_args a = {NULL, "all", NULL, "double", 0};
    int pr = read_options("ref", k_ref_opts, PG_CLI_COUNT(k_ref_opts), argc, argv, ref_usage, &po, take_ref, &a);
    if (pr)
        return pr == 1 ? 0 : 2;
    if (a.mode_s == NULL || a.output == NULL) {
        fprintf(stderr, "pegemm ref: %s is required (see pegemm ref --help)\n", a.mode_s == NULL ? "--mode" : "--output");
        return 2;
    }
    pg_accum_mode mode;
    pg_epilogue epi;
    if (pg_accum_parse(a.mode_s, &mode) != 0 || pg_epilogue_parse(a.epi_s, &epi) != 0)
        return pg_cli_report("ref", 2);
    const double t0 = pg_now_seconds();
    pg_run run;
    memset(&run, 0, sizeof run);
    int rc = 2, stored = 0;
    /* the output is checked after the input is read (and registered as an
     * input), so `--output` naming the input is refused before any work */
    if (pg_cli_problem_load(&po, &run.problem, &stored) != 0 || pg_outfile_check(a.output) != 0) {
        rc = pg_cli_report("ref", 2);
        goto done;
    }
    const pg_shape *sh = &run.problem.shape;
    if (pg_rows_parse(a.rows_spec, sh->M, run.problem.seed, &run.rows, &run.nrows) != 0) {
        rc = pg_cli_report("ref", 2);
        goto done;
    }
    int64_t nout = run.nrows * sh->N;
    if (!(run.D = pg_alloc("the outputs D", nout, sizeof *run.D)) ||
        (a.want_acc && !(run.acc = pg_alloc("the accumulators", nout, sizeof *run.acc)))) {
        rc = pg_cli_report("ref", 1);
        goto done;
    }
    run.mode = mode;
    run.epilogue = epi;
    pg_cli_set_threads(po.threads);
    char label[64];
    snprintf(label, sizeof label, "ref %s", pg_accum_name(mode));
    if (pg_gemm_ref(&run.problem, mode, epi, run.rows, run.nrows, run.D, run.acc, label) != 0) {
        rc = pg_cli_report("ref", 1);
        goto done;
    }
    /* Inputs that came stored in a file stay stored; generated ones are
     * regenerated from family + seed by readers. */
    if (pg_run_write(a.output, &run, stored) != 0) {
        rc = pg_cli_report("ref", 2);
        goto done;
    }
    pg_note("wrote %s (%lldx%lld bf16%s, %s, %s epilogue, %.1f s)", a.output, (long long)run.nrows, (long long)sh->N,
            run.acc ? " + fp32 accumulators" : "", pg_accum_name(mode), pg_epilogue_name(epi), pg_now_seconds() - t0);
    rc = 0;
done:
    pg_run_free(&run);
    return rc;
}
