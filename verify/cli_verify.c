/* pegemm verify outputs | modes | trace */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "cli_args.h"
#include "commands.h"
#include "inputs.h"
#include "modes.h"
#include "outputs_report.h"
#include "pg_cli.h"
#include "pg_error.h"
#include "pg_outfile.h"
#include "run_select.h"
#include "timeline.h"
#include "trace_check.h"
#include "trace_model.h"


/* Can the report files be written (pg_outfile_check: not a directory, not
 * an input of this command)?  Checked before the verification runs. */
static int check_outputs(const char *a, const char *b)
{
    if (a && pg_outfile_check(a) != 0)
        return -1;
    if (b && pg_outfile_check(b) != 0)
        return -1;
    return 0;
}
static void usage(FILE *f)
{
    fprintf(f,
            "usage:\n"
            "  pegemm verify outputs RUN.h5 [--mode MODE] [--library NAME] [--epilogue double|single]\n"
            "                        [--tolerance ulp:N | rel:X[,abs:Y]] [--sample N] [--threads N]\n"
            "                        [--max-report N] [--json FILE] [--svg FILE]\n"
            "      Recompute the reference for the rows RUN.h5 stores (in the run's accumulation set and\n"
            "      library preset, or MODE: a preset or PRESET,field=value,...) and compare bit for bit:\n"
            "      counts, x/. mismatch map, first mismatches with their inputs, ULP distance of run and\n"
            "      reference to the exact-accumulation result with absolute and relative errors per bin.\n"
            "      Any problem: E4M3/E5M2 operands, scales, bias, bf16/fp16/fp32 outputs.\n"
            "      --tolerance passes elements within N ulps, or within rel X (or abs Y) of the reference,\n"
            "      for kernels not meant to be bit-exact.\n"
            "      --sample N verifies N of the stored rows (evenly spaced, first and last included).\n"
            "  pegemm verify modes (--problem M,N,K,P --family F --seed S | --input FILE)\n"
            "                      [--rows SPEC] [--threads N] [--json FILE] [--svg FILE]\n"
            "      The reference in every accumulation mode and both epilogues against the correctly\n"
            "      rounded result (exact accumulation, single rounding): counts, max ULP, histogram.\n"
            "  pegemm verify trace RUN.h5 [--schedule NAME|FILE.sched] [--tolerance REL[,ABS]]\n"
            "                      [--tiles N] [--seed S] [--json FILE] [--timeline FILE]\n"
            "      Reject impossible traces and traces of another kernel config, then fit the cycle\n"
            "      model to the trace and compare per phase and wait (mean, p50, p95), tile period and\n"
            "      wall clock. Default tolerance 15%% or 150 cycles, whichever is larger.  The schedule:\n"
            "      --schedule, else the one the run names; its roles and phases must be the trace's.\n"
            "  -q, --quiet (every subcommand): no progress and no summary lines on stderr\n"
            "  --json FILE: '-' writes the JSON to stdout\n"
            "exit status: 0 all checks pass, 1 a check failed, 2 bad usage or input\n");
}

#define SEE_HELP " (see pegemm verify --help)"

static int fail2(const char *cmd)
{
    fprintf(stderr, "pegemm verify %s: %s\n", cmd, pg_last_error());
    return 2;
}

static int set_threads(const char *s)
{
    long long t;
    if (pg_cli_int("--threads", s, 1, 4096, &t) != 0)
        return -1;
    omp_set_num_threads((int)t);
    return 0;
}

/* ---- outputs ---- */

typedef struct {
    const char *path;
    const pg_run *run;
    const pg_verify_result *res;
} outputs_json;

static void emit_outputs_json(pg_json *j, const void *ctx)
{
    const outputs_json *o = ctx;
    pg_verify_outputs_json(j, o->path, o->run, o->res);
}

static int cmd_outputs(int argc, char **argv)
{
    const char *path = NULL, *mode_s = NULL, *epi_s = NULL, *json = NULL, *svg = NULL, *lib_s = NULL, *v;
    pg_out_tolerance tol = {PG_TOL_EXACT, 0, 0.0, 0.0};
    long long max_report = 10, sample = 0;
    int rc = 2, r;
    pg_run run;
    pg_verify_result res;
    int have_run = 0, have_res = 0;
    memset(&run, 0, sizeof run);
    enum { O_MODE, O_EPILOGUE, O_JSON, O_SVG, O_THREADS, O_MAX_REPORT, O_SAMPLE, O_TOLERANCE, O_LIBRARY, O_COUNT };
    static const pg_cli_opt opts[O_COUNT] = {
        [O_MODE] = {"mode", 0, "MODE", NULL},       [O_EPILOGUE] = {"epilogue", 0, "E", NULL},
        [O_JSON] = {"json", 0, "FILE", NULL},       [O_SVG] = {"svg", 0, "FILE", NULL},
        [O_THREADS] = {"threads", 0, "N", NULL},    [O_MAX_REPORT] = {"max-report", 0, "N", NULL},
        [O_SAMPLE] = {"sample", 0, "N", NULL},      [O_TOLERANCE] = {"tolerance", 0, "T", NULL},
        [O_LIBRARY] = {"library", 0, "NAME", NULL},
    };
    pg_cli c;
    pg_cli_begin(&c, "verify outputs", opts, O_COUNT, argc, argv); /* --help: pg_cmd_verify */
    while ((r = pg_cli_next(&c)) != PG_CLI_END) {
        v = c.value;
        if (r == PG_CLI_ERROR)
            return 2;
        if ((r == PG_CLI_OPERAND && pg_arg_run_file(v, &path, SEE_HELP) != 0) ||
            (r == O_THREADS && set_threads(v) != 0) ||
            (r == O_MAX_REPORT && pg_cli_int("--max-report", v, 0, PG_VERIFY_MAX_FIRST, &max_report) != 0) ||
            (r == O_SAMPLE && pg_cli_int("--sample", v, 1, LLONG_MAX, &sample) != 0) ||
            (r == O_TOLERANCE && pg_out_tolerance_parse(v, &tol) != 0))
            goto bad;
        mode_s = r == O_MODE ? v : mode_s;
        lib_s = r == O_LIBRARY ? v : lib_s;
        epi_s = r == O_EPILOGUE ? v : epi_s;
        json = r == O_JSON ? v : json;
        svg = r == O_SVG ? v : svg;
    }
    if (pg_arg_need_run_file(path) != 0)
        goto bad;
    if (pg_run_read(path, &run, PG_READ_OUTPUT) != 0)
        goto bad;
    have_run = 1;
    if (check_outputs(json, svg) != 0) /* after the read: an output naming the input is refused before any work */
        goto bad;
    pg_accum_params ap;
    pg_epilogue epi = run.epilogue;
    const pg_lib_epilogue *lib = NULL;
    if ((mode_s && pg_accum_params_parse(mode_s, &ap) != 0) || (epi_s && pg_epilogue_parse(epi_s, &epi) != 0) ||
        (lib_s && (lib = pg_lib_epilogue_find(lib_s)) == NULL))
        goto bad;
    if (run.nrows == 0) {
        pg_fail("%s stores no outputs (/output/D is absent)", path);
        goto bad;
    }
    /* sample first, then regenerate only the A rows that are left */
    if ((sample > 0 && pg_run_sample_rows(&run, sample) != 0) || pg_run_load_inputs_for_rows(&run, path) != 0)
        goto bad;
    const pg_verify_opts vo = {.accum = mode_s ? &ap : NULL, .lib = lib, .epi = epi, .tol = tol,
                               .max_first = (int)max_report};
    if (pg_verify_outputs_opts(&run, &vo, &res) != 0) {
        pg_fail_context("%s", path);
        goto bad;
    }
    have_res = 1;
    pg_verify_outputs_print(stdout, path, &run, &res);
    const outputs_json oj = {path, &run, &res};
    if (json && pg_cli_json_save(json, emit_outputs_json, &oj) != 0)
        goto bad;
    char title[512];
    /* the plot says the verdict and names the file, like the text */
    snprintf(title, sizeof title, "%s: %s: ULP distance to the exact-accumulation result",
             pg_verify_result_pass(&res) ? "PASS" : "FAIL", path);
    if (svg && pg_verify_ulp_svg(svg, title, &res) != 0)
        goto bad;
    pg_verify_outputs_verdict(stdout, path, &res);
    rc = pg_verify_result_pass(&res) ? 0 : 1;
    goto done;
bad:
    rc = fail2("outputs");
done:
    if (have_res)
        pg_verify_result_free(&res);
    if (have_run)
        pg_run_free(&run);
    return rc;
}

/* ---- modes ---- */

static void emit_modes_json(pg_json *j, const void *rep) { pg_modes_json(j, rep); }

static int cmd_modes(int argc, char **argv)
{
    const char *problem_s = NULL, *family_s = "normal", *seed_s = "1", *input = NULL, *rows_s = NULL;
    const char *json = NULL, *svg = NULL, *v;
    int rc = 2, r;
    pg_run run;
    int64_t *rows = NULL, nrows = 0;
    memset(&run, 0, sizeof run);
    enum { O_PROBLEM, O_SHAPE, O_FAMILY, O_SEED, O_INPUT, O_ROWS, O_JSON, O_SVG, O_THREADS, O_COUNT };
    static const pg_cli_opt opts[O_COUNT] = {
        [O_PROBLEM] = {"problem", 0, "M,N,K,P", NULL}, [O_SHAPE] = {"shape", 0, "M,N,K,P", NULL},
        [O_FAMILY] = {"family", 0, "F", NULL},         [O_SEED] = {"seed", 0, "S", NULL},
        [O_INPUT] = {"input", 0, "FILE", NULL},        [O_ROWS] = {"rows", 0, "SPEC", NULL},
        [O_JSON] = {"json", 0, "FILE", NULL},          [O_SVG] = {"svg", 0, "FILE", NULL},
        [O_THREADS] = {"threads", 0, "N", NULL},
    };
    pg_cli c;
    pg_cli_begin(&c, "verify modes", opts, O_COUNT, argc, argv); /* --help: pg_cmd_verify */
    while ((r = pg_cli_next(&c)) != PG_CLI_END) {
        v = c.value;
        if (r == PG_CLI_ERROR)
            return 2;
        if (r == PG_CLI_OPERAND) {
            pg_fail("unexpected argument '%s'%s", v, SEE_HELP);
            goto bad;
        }
        if (r == O_THREADS && set_threads(v) != 0)
            goto bad;
        problem_s = r == O_PROBLEM || r == O_SHAPE ? v : problem_s;
        family_s = r == O_FAMILY ? v : family_s;
        seed_s = r == O_SEED ? v : seed_s;
        input = r == O_INPUT ? v : input;
        rows_s = r == O_ROWS ? v : rows_s;
        json = r == O_JSON ? v : json;
        svg = r == O_SVG ? v : svg;
    }
    if (!!problem_s == !!input) {
        pg_fail("give exactly one of --problem M,N,K,P or --input FILE");
        goto bad;
    }
    if (input) {
        if (pg_run_read(input, &run, PG_READ_PROBLEM) != 0)
            goto bad;
    } else {
        pg_shape shape;
        pg_family fam;
        unsigned long long seed;
        if (pg_shape_parse(problem_s, &shape) != 0 || pg_shape_check(&shape) != 0 ||
            pg_family_parse(family_s, &fam) != 0 || pg_cli_u64("--seed", seed_s, &seed) != 0 ||
            pg_problem_generate(&run.problem, shape, fam, seed) != 0)
            goto bad;
    }
    if (rows_s && pg_rows_parse(rows_s, run.problem.shape.M, run.problem.seed, &rows, &nrows) != 0)
        goto bad;
    pg_modes_report rep;
    if (pg_modes_compare(&run.problem, rows, nrows, &rep) != 0)
        goto bad;
    pg_modes_print(stdout, &rep);
    if (json && pg_cli_json_save(json, emit_modes_json, &rep) != 0)
        goto bad;
    if (svg && pg_modes_svg(svg, &rep) != 0)
        goto bad;
    rc = 0;
    goto done;
bad:
    rc = fail2("modes");
done:
    free(rows);
    if (input)
        pg_run_free(&run);
    else
        pg_problem_free(&run.problem);
    return rc;
}

/* ---- trace ---- */

typedef struct {
    const char *path;
    const pg_trace_issues *issues;
    const pg_trace_cmp *cmp; /* NULL when the trace was not fitted */
} trace_json;

static void emit_trace_json(pg_json *j, const void *ctx)
{
    const trace_json *t = ctx;
    pg_json_object_begin(j);
    pg_json_kv_string(j, "run", t->path);
    pg_json_kv_int(j, "records", t->issues->records);
    pg_json_kv_int(j, "impossible", t->issues->impossible);
    pg_json_kv_int(j, "config_mismatch", t->issues->config_mismatch);
    pg_json_key(j, "notes");
    pg_json_array_begin(j);
    for (int k = 0; k < t->issues->nnotes; k++)
        pg_json_string(j, t->issues->notes[k]);
    pg_json_array_end(j);
    pg_json_key(j, "model");
    if (t->cmp)
        pg_trace_cmp_json(j, t->cmp);
    else
        pg_json_null(j);
    pg_json_object_end(j);
}

static int cmd_trace(int argc, char **argv)
{
    const char *path = NULL, *json = NULL, *timeline = NULL, *schedule = NULL, *v;
    pg_schedule *sch = NULL;
    pg_tolerance tol = pg_tolerance_default();
    pg_model_opts opts = {.tiles = 20000, .seed = 1, .deterministic = 0};
    int rc = 2, r, have_run = 0;
    pg_run run, sim;
    pg_schedule *fitted = NULL;
    pg_trace_issues issues;
    pg_trace_cmp cmp;
    int compared = 0;
    memset(&run, 0, sizeof run);
    memset(&sim, 0, sizeof sim);
    enum { O_JSON, O_TIMELINE, O_TOLERANCE, O_TILES, O_SEED, O_SCHEDULE, O_COUNT };
    static const pg_cli_opt table[O_COUNT] = {
        [O_JSON] = {"json", 0, "FILE", NULL},       [O_TIMELINE] = {"timeline", 0, "FILE", NULL},
        [O_TOLERANCE] = {"tolerance", 0, "REL[,ABS]", NULL}, [O_TILES] = {"tiles", 0, "N", NULL},
        [O_SEED] = {"seed", 0, "S", NULL},          [O_SCHEDULE] = {"schedule", 0, "NAME|FILE", NULL},
    };
    pg_cli c;
    pg_cli_begin(&c, "verify trace", table, O_COUNT, argc, argv); /* --help: pg_cmd_verify */
    while ((r = pg_cli_next(&c)) != PG_CLI_END) {
        long long n;
        unsigned long long u;
        v = c.value;
        if (r == PG_CLI_ERROR)
            return 2;
        if ((r == PG_CLI_OPERAND && pg_arg_run_file(v, &path, SEE_HELP) != 0) ||
            (r == O_TOLERANCE && pg_tolerance_parse(v, &tol) != 0))
            goto bad;
        if (r == O_TILES) {
            if (pg_cli_int("--tiles", v, 10, 100000000, &n) != 0)
                goto bad;
            opts.tiles = n;
        } else if (r == O_SEED) {
            if (pg_cli_u64("--seed", v, &u) != 0)
                goto bad;
            opts.seed = u;
        }
        json = r == O_JSON ? v : json;
        timeline = r == O_TIMELINE ? v : timeline;
        schedule = r == O_SCHEDULE ? v : schedule;
    }
    if (pg_arg_need_run_file(path) != 0)
        goto bad;
    if (pg_run_read(path, &run, PG_READ_TRACE) != 0)
        goto bad;
    have_run = 1;
    if (check_outputs(json, timeline) != 0)
        goto bad;
    if (run.trace.n == 0) {
        pg_fail("%s: the run has no trace (/trace is absent or empty)", path);
        goto bad;
    }
    /* the schedule that describes the kernel: the trace must name its roles and phases */
    const char *sname = schedule ? schedule : pg_run_schedule_name(&run);
    if (!sname || pg_schedule_load(sname, &sch) != 0 || pg_schedule_match_trace(sch, &run.trace) != 0) {
        pg_fail_context("%s", path);
        goto bad;
    }
    if (pg_trace_check(&run, sch, &issues) != 0) {
        pg_fail_context("%s", path);
        goto bad;
    }
    if (run.kernel.present)
        printf("== trace of %s (%s on %s)\n", path, run.kernel.name, run.kernel.device);
    else
        printf("== trace of %s (kernel %s, schedule %s)\n", path, run.trace.kernel, pg_schedule_name(sch));
    pg_trace_issues_print(stdout, &issues);
    int impossible = issues.impossible + issues.config_mismatch > 0;
    /* only a possible trace of this kernel is worth fitting */
    if (!impossible) {
        if (pg_trace_compare_as(&run, sname, &opts, tol, &cmp, &fitted) != 0) {
            pg_fail_context("%s", path);
            goto bad;
        }
        compared = 1;
        pg_trace_cmp_print(stdout, &cmp);
        if (timeline) {
            if (pg_model_simulate_trace(fitted, &opts, 1, &sim.trace) != 0 ||
                pg_timeline_svg_period(timeline, "measured (top) and model (bottom)", &run.trace, &sim.trace, 2, 6,
                                       pg_schedule_period_phase(fitted)) != 0)
                goto bad;
        }
    }
    const trace_json tj = {path, &issues, compared ? &cmp : NULL};
    if (json && pg_cli_json_save(json, emit_trace_json, &tj) != 0)
        goto bad;
    if (impossible) {
        printf("FAIL: %s: the trace is impossible or from another kernel config; not fitted\n", path);
        rc = 1;
    } else if (cmp.flagged) {
        printf("FAIL: %s: %d of %d figures outside tolerance\n", path, cmp.flagged, cmp.nrows);
        rc = 1;
    } else {
        printf("PASS: %s: model within tolerance on all %d figures\n", path, cmp.nrows);
        rc = 0;
    }
    goto done;
bad:
    rc = fail2("trace");
done:
    pg_schedule_free(fitted);
    pg_schedule_free(sch);
    pg_run_free(&sim);
    if (have_run)
        pg_run_free(&run);
    return rc;
}

int pg_cmd_verify(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *sub = argv[1];
    if (pg_arg_wants_help(argc, argv, 1)) {
        usage(stdout);
        return 0;
    }
    if (strcmp(sub, "outputs") == 0)
        return cmd_outputs(argc - 1, argv + 1);
    if (strcmp(sub, "modes") == 0)
        return cmd_modes(argc - 1, argv + 1);
    if (strcmp(sub, "trace") == 0)
        return cmd_trace(argc - 1, argv + 1);
    fprintf(stderr, "pegemm verify: unknown subcommand '%s' (outputs, modes, trace)\n\n", sub);
    usage(stderr);
    return 2;
}
