/* `pegemm inputs` and `pegemm ref`: write input files, run the reference. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "commands.h"
#include "gemm.h"
#include "inputs.h"
#include "pg_error.h"
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
        {"problem", required_argument, NULL, 'p'}, {"family", required_argument, NULL, 'f'},
        {"seed", required_argument, NULL, 's'},    {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},          {NULL, 0, NULL, 0},
    };
    const char *shape = NULL, *family = "normal", *output = NULL;
    uint64_t seed = 1;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'p':
            shape = optarg;
            break;
        case 'f':
            family = optarg;
            break;
        case 's':
            if (pg_cli_parse_u64(optarg, "--seed", &seed) != 0) {
                fprintf(stderr, "pegemm inputs: %s\n", pg_last_error());
                return 2;
            }
            break;
        case 'o':
            output = optarg;
            break;
        case 'h':
            inputs_usage(stdout);
            return 0;
        default:
            fprintf(stderr, "pegemm inputs: unknown or incomplete option '%s'\n\n", argv[optind - 1]);
            inputs_usage(stderr);
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "pegemm inputs: unexpected argument '%s'\n\n", argv[optind]);
        inputs_usage(stderr);
        return 2;
    }
    if (shape == NULL || output == NULL) {
        fprintf(stderr, "pegemm inputs: %s is required\n\n", shape == NULL ? "--problem" : "--output");
        inputs_usage(stderr);
        return 2;
    }
    pg_run run;
    memset(&run, 0, sizeof run);
    int stored = 0;
    if (pg_cli_load_problem(NULL, shape, family, seed, &run.problem, &stored) != 0) {
        fprintf(stderr, "pegemm inputs: %s\n", pg_last_error());
        return 2;
    }
    int rc = 0;
    if (pg_run_write(output, &run, 1) != 0) {
        fprintf(stderr, "pegemm inputs: %s\n", pg_last_error());
        rc = 2;
    }
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
        {"input", required_argument, NULL, 'i'},    {"problem", required_argument, NULL, 'p'},
        {"family", required_argument, NULL, 'f'},   {"seed", required_argument, NULL, 's'},
        {"mode", required_argument, NULL, 'm'},     {"epilogue", required_argument, NULL, 'e'},
        {"rows", required_argument, NULL, 'r'},     {"accumulator", no_argument, NULL, 'a'},
        {"threads", required_argument, NULL, 't'},  {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},           {NULL, 0, NULL, 0},
    };
    const char *input = NULL, *shape = NULL, *family = "normal", *output = NULL, *rows_spec = "all";
    const char *mode_s = NULL, *epi_s = "double";
    uint64_t seed = 1;
    int want_acc = 0, threads = 0;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'i':
            input = optarg;
            break;
        case 'p':
            shape = optarg;
            break;
        case 'f':
            family = optarg;
            break;
        case 's':
            if (pg_cli_parse_u64(optarg, "--seed", &seed) != 0)
                goto bad_value;
            break;
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
        case 't':
            if (pg_cli_parse_int(optarg, "--threads", 1, 4096, &threads) != 0)
                goto bad_value;
            break;
        case 'o':
            output = optarg;
            break;
        case 'h':
            ref_usage(stdout);
            return 0;
        default:
            fprintf(stderr, "pegemm ref: unknown or incomplete option '%s'\n\n", argv[optind - 1]);
            ref_usage(stderr);
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "pegemm ref: unexpected argument '%s'\n\n", argv[optind]);
        ref_usage(stderr);
        return 2;
    }
    if (mode_s == NULL || output == NULL) {
        fprintf(stderr, "pegemm ref: %s is required\n\n", mode_s == NULL ? "--mode" : "--output");
        ref_usage(stderr);
        return 2;
    }
    pg_accum_mode mode;
    pg_epilogue epi;
    if (pg_accum_parse(mode_s, &mode) != 0 || pg_epilogue_parse(epi_s, &epi) != 0)
        goto bad_value;
    pg_run run;
    memset(&run, 0, sizeof run);
    int rc = 2, stored = 0;
    if (pg_cli_load_problem(input, shape, family, seed, &run.problem, &stored) != 0) {
        fprintf(stderr, "pegemm ref: %s\n", pg_last_error());
        goto done;
    }
    const pg_shape *sh = &run.problem.shape;
    if (pg_rows_parse(rows_spec, sh->M, run.problem.seed, &run.rows, &run.nrows) != 0) {
        fprintf(stderr, "pegemm ref: %s\n", pg_last_error());
        goto done;
    }
    size_t nout = (size_t)run.nrows * (size_t)sh->N;
    run.D = malloc(nout * sizeof *run.D);
    run.acc = want_acc ? malloc(nout * sizeof *run.acc) : NULL;
    if (run.D == NULL || (want_acc && run.acc == NULL)) {
        fprintf(stderr, "pegemm ref: out of memory for %lld x %lld outputs\n", (long long)run.nrows,
                (long long)sh->N);
        rc = 1;
        goto done;
    }
    run.mode = mode;
    run.epilogue = epi;
    pg_cli_set_threads(threads);
    char label[64];
    snprintf(label, sizeof label, "ref %s", pg_accum_name(mode));
    if (pg_gemm_ref(&run.problem, mode, epi, run.rows, run.nrows, run.D, run.acc, label) != 0) {
        fprintf(stderr, "pegemm ref: %s\n", pg_last_error());
        rc = 1;
        goto done;
    }
    /* Inputs that came stored in a file stay stored; generated ones are
     * regenerated from family + seed by readers. */
    if (pg_run_write(output, &run, stored) != 0) {
        fprintf(stderr, "pegemm ref: %s\n", pg_last_error());
        rc = 2;
        goto done;
    }
    rc = 0;
done:
    pg_run_free(&run);
    return rc;

bad_value:
    fprintf(stderr, "pegemm ref: %s\n", pg_last_error());
    return 2;
}
