/* `pegemm inputs` and `pegemm ref`: write input files, run the reference. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_problem.h"
#include "cli_util.h"
#include "commands.h"
#include "gemm.h"
#include "inputs.h"
#include "pg_alloc.h"
#include "pg_error.h"
#include "pg_outfile.h"
#include "runfile.h"

static void inputs_usage(FILE *f)
{
    fprintf(f,
            "usage: pegemm inputs --problem M,N,K[,P] [--family F] [--seed S] --output FILE\n"
            "\n"
            "Write a run file holding the inputs A [M,K] and B [N,K] (E4M3 codes) and\n"
            "combined [P,N] (BF16 bits), generated deterministically from the family\n"
            "and the seed (the same bytes on every machine and thread count).\n"
            "\n"
            "  --problem M,N,K[,P]  shape (P defaults to %d)\n"
            "  --family F           normal (default), codes, band, subnormal, special\n"
            "  --seed S             generator seed (default 1)\n"
            "  --output FILE        the run file to write (atomically)\n"
            "  --help               this text\n",
            PG_DEFAULT_P);
}

int pg_cmd_inputs(int argc, char **argv)
{
    static const struct option opts[] = {
        PG_CLI_OPT_PROBLEM, PG_CLI_OPT_FAMILY, PG_CLI_OPT_SEED,
        {"output", required_argument, NULL, 'o'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0},
    };
    pg_cli_problem po;
    pg_cli_problem_begin(&po);
    const char *output = NULL;
    int c;
    while ((c = pg_cli_next_option(&po, argc, argv, opts)) != -1) {
        switch (c) {
        case 'o':
            output = optarg;
            break;
        case 'h':
            inputs_usage(stdout);
            return 0;
        case PG_CLI_BAD_VALUE:
            return pg_cli_report("inputs", 2);
        default:
            return pg_cli_bad_option("inputs", argv, inputs_usage);
        }
    }
    if (pg_cli_no_operands("inputs", argc, argv, inputs_usage) != 0)
        return 2;
    if (po.shape == NULL || output == NULL) {
        fprintf(stderr, "pegemm inputs: %s is required\n\n", po.shape == NULL ? "--problem" : "--output");
        inputs_usage(stderr);
        return 2;
    }
    if (pg_outfile_check(output) != 0)
        return pg_cli_report("inputs", 2);
    pg_run run;
    memset(&run, 0, sizeof run);
    int stored = 0;
    if (pg_cli_problem_load(&po, &run.problem, &stored) != 0)
        return pg_cli_report("inputs", 2);
    int rc = 0;
    if (pg_run_write(output, &run, 1) != 0)
        rc = pg_cli_report("inputs", 2);
    pg_run_free(&run);
    return rc;
}

static void ref_usage(FILE *f)
{
    fprintf(f,
            "usage: pegemm ref (--input FILE | --problem M,N,K[,P] [--family F] [--seed S])\n"
            "                  --mode MODE [--epilogue double|single] [--rows SPEC]\n"
            "                  [--accumulator] [--threads N] --output FILE\n"
            "\n"
            "Run the bit-accurate CPU reference and write a run file with D (BF16 bits)\n"
            "for the selected rows, and the fp32 accumulators with --accumulator.\n"
            "\n"
            "  --input FILE         inputs from a run file (e.g. made by `pegemm inputs`)\n"
            "  --problem M,N,K[,P]  or generate them: shape (P defaults to %d),\n"
            "  --family F           normal (default), codes, band, subnormal, special,\n"
            "  --seed S             and seed (default 1)\n"
            "  --mode MODE          exact, fp32, sm90, sm90-promote, sm100\n"
            "  --epilogue E         double (default: bf16(bf16(acc) + c)) or single (bf16(acc + c))\n"
            "  --rows SPEC          all (default), A:B, sample:N, or i,j,k\n"
            "  --accumulator        also store the fp32 accumulators\n"
            "  --threads N          OpenMP threads (default: all)\n"
            "  --output FILE        the run file to write (atomically)\n"
            "  --help               this text\n",
            PG_DEFAULT_P);
}

int pg_cmd_ref(int argc, char **argv)
{
    static const struct option opts[] = {
        PG_CLI_OPT_INPUT, PG_CLI_OPT_PROBLEM, PG_CLI_OPT_FAMILY, PG_CLI_OPT_SEED, PG_CLI_OPT_THREADS,
        {"mode", required_argument, NULL, 'm'},     {"epilogue", required_argument, NULL, 'e'},
        {"rows", required_argument, NULL, 'r'},     {"accumulator", no_argument, NULL, 'a'},
        {"output", required_argument, NULL, 'o'},   {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    pg_cli_problem po;
    pg_cli_problem_begin(&po);
    const char *output = NULL, *rows_spec = "all";
    const char *mode_s = NULL, *epi_s = "double";
    int want_acc = 0;
    int c;
    while ((c = pg_cli_next_option(&po, argc, argv, opts)) != -1) {
        switch (c) {
        case 'm':
            mode_s = optarg;
            break;
        case 'e':
            epi_s = optarg;
            break;
        case 'r':
            rows_spec = optarg;
            break;
        case 'a':
            want_acc = 1;
            break;
        case 'o':
            output = optarg;
            break;
        case 'h':
            ref_usage(stdout);
            return 0;
        case PG_CLI_BAD_VALUE:
            return pg_cli_report("ref", 2);
        default:
            return pg_cli_bad_option("ref", argv, ref_usage);
        }
    }
    if (pg_cli_no_operands("ref", argc, argv, ref_usage) != 0)
        return 2;
    if (mode_s == NULL || output == NULL) {
        fprintf(stderr, "pegemm ref: %s is required\n\n", mode_s == NULL ? "--mode" : "--output");
        ref_usage(stderr);
        return 2;
    }
    pg_accum_mode mode;
    pg_epilogue epi;
    if (pg_accum_parse(mode_s, &mode) != 0 || pg_epilogue_parse(epi_s, &epi) != 0 ||
        pg_outfile_check(output) != 0)
        return pg_cli_report("ref", 2);
    pg_run run;
    memset(&run, 0, sizeof run);
    int rc = 2, stored = 0;
    if (pg_cli_problem_load(&po, &run.problem, &stored) != 0) {
        rc = pg_cli_report("ref", 2);
        goto done;
    }
    const pg_shape *sh = &run.problem.shape;
    if (pg_rows_parse(rows_spec, sh->M, run.problem.seed, &run.rows, &run.nrows) != 0) {
        rc = pg_cli_report("ref", 2);
        goto done;
    }
    int64_t nout = run.nrows * sh->N;
    if (!(run.D = pg_alloc("the outputs D", nout, sizeof *run.D)) ||
        (want_acc && !(run.acc = pg_alloc("the accumulators", nout, sizeof *run.acc)))) {
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
    if (pg_run_write(output, &run, stored) != 0) {
        rc = pg_cli_report("ref", 2);
        goto done;
    }
    rc = 0;
done:
    pg_run_free(&run);
    return rc;
}
