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
#include "problem_ref.h"
#include "problem_terms.h"
#include "runfile.h"

static const pg_cli_opt k_inputs_opts[] = {
    PG_CLI_OPT_PROBLEM, PG_CLI_OPT_SHAPE, PG_CLI_OPT_FAMILY, PG_CLI_OPT_SEED, PG_CLI_OPT_TERMS, PG_CLI_OPT_OUTPUT,
};

static void inputs_usage(FILE *f)
{
    fprintf(f,
            "usage: pegemm inputs --problem M,N,K[,P] [--family F] [--seed S]\n"
            "                     [--fmt-a F] [--fmt-b F] [--scale KIND] [--bias DTYPE] [--out-dtype T]\n"
            "                     --output FILE\n"
            "\n"
            "Write a run file holding the inputs A [M,K] and B [N,K] (FP8 codes),\n"
            "combined [P,N] (BF16 bits; none when P = 0), and the scales and bias the\n"
            "problem has, generated deterministically from the family and the seed\n"
            "(the same bytes on every machine and thread count).  E5M2 operands are\n"
            "the family's E4M3 values rounded to E5M2.  docs/numerics.md, docs/format.md.\n"
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
    while ((k = pg_cli_next_option(&c)) != PG_CLI_END) {
        if (k == PG_CLI_ERROR)
            return 2;
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
        char sh[96], terms[128];
        shape_text(&run.problem.shape, sh, sizeof sh);
        pg_problem_terms_text(&run.problem, terms, sizeof terms);
        pg_note("wrote %s (inputs %s, %s, family %s, seed %llu, %.1f s)", output, sh, terms, run.problem.family,
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
    PG_CLI_OPT_TERMS,
    {"mode", 0, "MODE", "exact, fp32, sm90, sm90-promote, sm100, or PRESET,field=value,... (docs/numerics.md)"},
    {"library", 0, "NAME", "epilogue order: torch-cublaslt, torch-cutlass-rowwise (default: by scale kind)"},
    {"epilogue", 0, "E", "with combined: double (default: bf16(bf16(acc) + c)) or single (bf16(acc + c))"},
    {"rows", 0, "SPEC", "all (default), A:B, sample:N, or i,j,k"},
    {"accumulator", 0, NULL, "also store the fp32 accumulators"},
    PG_CLI_OPT_THREADS,
    PG_CLI_OPT_OUTPUT,
};

static void ref_usage(FILE *f)
{
    fprintf(f, "usage: pegemm ref (--input FILE | --problem M,N,K[,P] [--family F] [--seed S] [TERMS])\n"
               "                  --mode MODE [--library NAME] [--epilogue double|single] [--rows SPEC]\n"
               "                  [--accumulator] [--threads N] --output FILE\n"
               "\n"
               "Run the bit-accurate CPU reference and write a run file with D (the problem's\n"
               "output type) for the selected rows, and the fp32 accumulators with --accumulator.\n"
               "TERMS: --fmt-a, --fmt-b, --scale, --bias, --out-dtype (as for pegemm inputs).\n"
               "The summary names the epilogue: `exact` with the double-rounding epilogue is\n"
               "not correctly rounded.\n"
               "\n");
    pg_cli_print_options(f, k_ref_opts, PG_CLI_COUNT(k_ref_opts));
}

typedef struct {
    const char *output, *rows_spec, *mode_s, *epi_s, *library;
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
    else if (!strcmp(n, "library"))
        a->library = value;
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
    ref_args a = {NULL, "all", NULL, "double", NULL, 0};
    int pr = read_options("ref", k_ref_opts, PG_CLI_COUNT(k_ref_opts), argc, argv, ref_usage, &po, take_ref, &a);
    if (pr)
        return pr == 1 ? 0 : 2;
    if (a.mode_s == NULL || a.output == NULL) {
        fprintf(stderr, "pegemm ref: %s is required (see pegemm ref --help)\n", a.mode_s == NULL ? "--mode" : "--output");
        return 2;
    }
    pg_accum_params ap;
    pg_epilogue epi;
    const pg_lib_epilogue *lib = NULL;
    if (pg_accum_params_parse(a.mode_s, &ap) != 0 || pg_epilogue_parse(a.epi_s, &epi) != 0 ||
        (a.library && (lib = pg_lib_epilogue_find(a.library)) == NULL))
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
    const pg_problem *pb = &run.problem;
    if (lib == NULL && !pg_problem_is_classic(pb))
        lib = pg_lib_epilogue_default((pg_scale_kind)pb->scale);
    int64_t nout = run.nrows * sh->N;
    void *D = pg_alloc("the outputs D", nout, pg_out_dtype_size((pg_out_dtype)pb->out));
    if (pb->out == PG_OUT_FP32)
        run.D32 = D;
    else
        run.D = D;
    if (!D || (a.want_acc && !(run.acc = pg_alloc("the accumulators", nout, sizeof *run.acc)))) {
        rc = pg_cli_report("ref", 1);
        goto done;
    }
    int mode = pg_accum_params_mode(&ap);
    run.mode = mode >= 0 ? (pg_accum_mode)mode : PG_ACC_EXACT;
    run.mode_custom = mode < 0;
    run.accum = ap;
    run.epilogue = epi;
    if (lib)
        snprintf(run.library, sizeof run.library, "%s", lib->name);
    pg_cli_set_threads(po.threads);
    char label[64];
    snprintf(label, sizeof label, "ref %s", ap.name);
    if (pg_problem_ref(pb, &ap, lib, epi, run.rows, run.nrows, D, run.acc, label) != 0) {
        rc = pg_cli_report("ref", 1);
        goto done;
    }
    /* Inputs that came stored in a file stay stored; generated ones are
     * regenerated from family + seed by readers. */
    if (pg_run_write(a.output, &run, stored) != 0) {
        rc = pg_cli_report("ref", 2);
        goto done;
    }
    char what[200];
    pg_problem_ref_describe(pb, &ap, lib, epi, what, sizeof what);
    pg_note("wrote %s (%lldx%lld %s%s, %s, %.1f s)", a.output, (long long)run.nrows, (long long)sh->N,
            pg_out_dtype_name((pg_out_dtype)pb->out), run.acc ? " + fp32 accumulators" : "", what,
            pg_now_seconds() - t0);
    rc = 0;
done:
    pg_run_free(&run);
    return rc;
}
