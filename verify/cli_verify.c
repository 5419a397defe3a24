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

typedef struct {
    const char *path, *mode_s, *epi_s, *json, *svg, *lib_s;
    pg_out_tolerance tol;
    long long max_report, sample;
} outputs_args;

/* outputs' options and operand.  0: parsed; 2: the parser has said why
 * (exit 2 as is); -1: pg_last_error says why. */
static int parse_outputs_args(int argc, char **argv, outputs_args *a)
{
    const char *v;
    int r;
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
        if ((r == PG_CLI_OPERAND && pg_arg_run_file(v, &a->path, SEE_HELP) != 0) ||
            (r == O_THREADS && set_threads(v) != 0) ||
            (r == O_MAX_REPORT && pg_cli_int("--max-report", v, 0, PG_VERIFY_MAX_FIRST, &a->max_report) != 0) ||
            (r == O_SAMPLE && pg_cli_int("--sample", v, 1, LLONG_MAX, &a->sample) != 0) ||
            (r == O_TOLERANCE && pg_out_tolerance_parse(v, &a->tol) != 0))
            return -1;
        a->mode_s = r == O_MODE ? v : a->mode_s;
        a->lib_s = r == O_LIBRARY ? v : a->lib_s;
        a->epi_s = r == O_EPILOGUE ? v : a->epi_s;
        a->json = r == O_JSON ? v : a->json;
        a->svg = r == O_SVG ? v : a->svg;
    }
    return pg_arg_need_run_file(a->path);
}

/* The reference for the stored rows (or a sample of them), compared with
 * the run; *res is set only on success. */
static int compare_outputs(const outputs_args *a, pg_run *run, pg_verify_result *res)
{
    pg_accum_params ap;
    pg_epilogue epi = run->epilogue;
    const pg_lib_epilogue *lib = NULL;
    if ((a->mode_s && pg_accum_params_parse(a->mode_s, &ap) != 0) ||
        (a->epi_s && pg_epilogue_parse(a->epi_s, &epi) != 0) ||
        (a->lib_s && (lib = pg_lib_epilogue_find(a->lib_s)) == NULL))
        return -1;
    if (run->nrows == 0)
        return pg_fail("%s stores no outputs (/output/D is absent)", a->path);
    /* sample first, then regenerate only the A rows that are left */
    if ((a->sample > 0 && pg_run_sample_rows(run, a->sample) != 0) || pg_run_load_inputs_for_rows(run, a->path) != 0)
        return -1;
    const pg_verify_opts vo = {.accum = a->mode_s ? &ap : NULL, .lib = lib, .epi = epi, .tol = a->tol,
                               .max_first = (int)a->max_report};
    if (pg_verify_outputs_opts(run, &vo, res) != 0)
        return pg_fail_context("%s", a->path);
    return 0;
}

/* Text, JSON, plot and verdict: 0 pass, 1 fail, -1 a report not written. */
static int report_outputs(const outputs_args *a, const pg_run *run, const pg_verify_result *res)
{
    pg_verify_outputs_print(stdout, a->path, run, res);
    const outputs_json oj = {a->path, run, res};
    if (a->json && pg_cli_json_save(a->json, emit_outputs_json, &oj) != 0)
        return -1;
    char title[512];
    /* the plot says the verdict and names the file, like the text */
    snprintf(title, sizeof title, "%s: %s: ULP distance to the exact-accumulation result",
             pg_verify_result_pass(res) ? "PASS" : "FAIL", a->path);
    if (a->svg && pg_verify_ulp_svg(a->svg, title, res) != 0)
        return -1;
    pg_verify_outputs_verdict(stdout, a->path, res);
    return pg_verify_result_pass(res) ? 0 : 1;
}

static int cmd_outputs(int argc, char **argv)
{
    outputs_args a = {.tol = {PG_TOL_EXACT, 0, 0.0, 0.0}, .max_report = 10, .sample = 0};
    int rc, have_run = 0, have_res = 0;
    pg_run run;
    pg_verify_result res;
    memset(&run, 0, sizeof run);
    rc = parse_outputs_args(argc, argv, &a);
    if (rc == 2)
        return 2;
    if (rc != 0 || pg_run_read(a.path, &run, PG_READ_OUTPUT) != 0)
        goto bad;
    have_run = 1;
    if (check_outputs(a.json, a.svg) != 0) /* after the read: an output naming the input is refused before any work */
        goto bad;
    if (compare_outputs(&a, &run, &res) != 0)
        goto bad;
    have_res = 1;
    if ((rc = report_outputs(&a, &run, &res)) < 0)
        goto bad;
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

typedef struct {
    const char *problem_s, *family_s, *seed_s, *input, *rows_s, *json, *svg;
} modes_args;

/* modes' options.  0: parsed; 2: the parser has said why (exit 2 as is);
 * -1: pg_last_error says why. */
static int parse_modes_args(int argc, char **argv, modes_args *a)
{
    const char *v;
    int r;
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
        if (r == PG_CLI_OPERAND)
            return pg_fail("unexpected argument '%s'%s", v, SEE_HELP);
        if (r == O_THREADS && set_threads(v) != 0)
            return -1;
        a->problem_s = r == O_PROBLEM || r == O_SHAPE ? v : a->problem_s;
        a->family_s = r == O_FAMILY ? v : a->family_s;
        a->seed_s = r == O_SEED ? v : a->seed_s;
        a->input = r == O_INPUT ? v : a->input;
        a->rows_s = r == O_ROWS ? v : a->rows_s;
        a->json = r == O_JSON ? v : a->json;
        a->svg = r == O_SVG ? v : a->svg;
    }
    if (!!a->problem_s == !!a->input)
        return pg_fail("give exactly one of --problem M,N,K,P or --input FILE");
    return 0;
}

/* The problem: read from --input, or generated from --problem, --family, --seed. */
static int load_modes_problem(const modes_args *a, pg_run *run)
{
    if (a->input)
        return pg_run_read(a->input, run, PG_READ_PROBLEM);
    pg_shape shape;
    pg_family fam;
    unsigned long long seed;
    if (pg_shape_parse(a->problem_s, &shape) != 0 || pg_shape_check(&shape) != 0 ||
        pg_family_parse(a->family_s, &fam) != 0 || pg_cli_u64("--seed", a->seed_s, &seed) != 0 ||
        pg_problem_generate(&run->problem, shape, fam, seed) != 0)
        return -1;
    return 0;
}

static int cmd_modes(int argc, char **argv)
{
    modes_args a = {.family_s = "normal", .seed_s = "1"};
    int rc;
    pg_run run;
    int64_t *rows = NULL, nrows = 0;
    memset(&run, 0, sizeof run);
    rc = parse_modes_args(argc, argv, &a);
    if (rc == 2)
        return 2;
    if (rc != 0 || load_modes_problem(&a, &run) != 0)
        goto bad;
    if (a.rows_s && pg_rows_parse(a.rows_s, run.problem.shape.M, run.problem.seed, &rows, &nrows) != 0)
        goto bad;
    pg_modes_report rep;
    if (pg_modes_compare(&run.problem, rows, nrows, &rep) != 0)
        goto bad;
    pg_modes_print(stdout, &rep);
    if (a.json && pg_cli_json_save(a.json, emit_modes_json, &rep) != 0)
        goto bad;
    if (a.svg && pg_modes_svg(a.svg, &rep) != 0)
        goto bad;
    rc = 0;
    goto done;
bad:
    rc = fail2("modes");
done:
    free(rows);
    if (a.input)
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

typedef struct {
    const char *path, *json, *timeline, *schedule;
    pg_tolerance tol;
    pg_model_opts opts;
} trace_args;

/* trace's options and operand.  0: parsed; 2: the parser has said why
 * (exit 2 as is); -1: pg_last_error says why. */
static int parse_trace_args(int argc, char **argv, trace_args *a)
{
    const char *v;
    int r;
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
        if ((r == PG_CLI_OPERAND && pg_arg_run_file(v, &a->path, SEE_HELP) != 0) ||
            (r == O_TOLERANCE && pg_tolerance_parse(v, &a->tol) != 0))
            return -1;
        if (r == O_TILES) {
            if (pg_cli_int("--tiles", v, 10, 100000000, &n) != 0)
                return -1;
            a->opts.tiles = n;
        } else if (r == O_SEED) {
            if (pg_cli_u64("--seed", v, &u) != 0)
                return -1;
            a->opts.seed = u;
        }
        a->json = r == O_JSON ? v : a->json;
        a->timeline = r == O_TIMELINE ? v : a->timeline;
        a->schedule = r == O_SCHEDULE ? v : a->schedule;
    }
    return pg_arg_need_run_file(a->path);
}

/* The schedule that describes the kernel (the trace must name its roles
 * and phases), then the trace checked against it; *sch is the caller's. */
static int check_trace(const trace_args *a, const pg_run *run, pg_schedule **sch, const char **sname,
                       pg_trace_issues *issues)
{
    if (run->trace.n == 0)
        return pg_fail("%s: the run has no trace (/trace is absent or empty)", a->path);
    *sname = a->schedule ? a->schedule : pg_run_schedule_name(run);
    if (!*sname || pg_schedule_load(*sname, sch) != 0 || pg_schedule_match_trace(*sch, &run->trace) != 0)
        return pg_fail_context("%s", a->path);
    if (pg_trace_check(run, *sch, issues) != 0)
        return pg_fail_context("%s", a->path);
    if (run->kernel.present)
        printf("== trace of %s (%s on %s)\n", a->path, run->kernel.name, run->kernel.device);
    else
        printf("== trace of %s (kernel %s, schedule %s)\n", a->path, run->trace.kernel, pg_schedule_name(*sch));
    pg_trace_issues_print(stdout, issues);
    return 0;
}

/* The measured trace above the fitted model's simulated SM. */
static int write_trace_timeline(const char *timeline, const pg_run *run, const pg_schedule *fitted,
                                const pg_model_opts *opts)
{
    pg_run sim;
    int rc = -1;
    memset(&sim, 0, sizeof sim);
    if (pg_model_simulate_trace(fitted, opts, 1, &sim.trace) != 0 ||
        pg_timeline_svg_period(timeline, "measured (top) and model (bottom)", &run->trace, &sim.trace, 2, 6,
                               pg_schedule_period_phase(fitted)) != 0)
        goto done;
    rc = 0;
done:
    pg_run_free(&sim);
    return rc;
}

/* The verdict line; the exit status: 0 pass, 1 fail. */
static int trace_verdict(const char *path, int impossible, const pg_trace_cmp *cmp)
{
    if (impossible) {
        printf("FAIL: %s: the trace is impossible or from another kernel config; not fitted\n", path);
        return 1;
    }
    if (cmp->flagged) {
        printf("FAIL: %s: %d of %d figures outside tolerance\n", path, cmp->flagged, cmp->nrows);
        return 1;
    }
    printf("PASS: %s: model within tolerance on all %d figures\n", path, cmp->nrows);
    return 0;
}

static int cmd_trace(int argc, char **argv)
{
    trace_args a = {.tol = pg_tolerance_default(), .opts = {.tiles = 20000, .seed = 1, .deterministic = 0}};
    pg_schedule *sch = NULL, *fitted = NULL;
    const char *sname = NULL;
    int rc, have_run = 0, compared = 0;
    pg_run run;
    pg_trace_issues issues;
    pg_trace_cmp cmp;
    memset(&run, 0, sizeof run);
    rc = parse_trace_args(argc, argv, &a);
    if (rc == 2)
        return 2;
    if (rc != 0 || pg_run_read(a.path, &run, PG_READ_TRACE) != 0)
        goto bad;
    have_run = 1;
    if (check_outputs(a.json, a.timeline) != 0 || check_trace(&a, &run, &sch, &sname, &issues) != 0)
        goto bad;
    int impossible = issues.impossible + issues.config_mismatch > 0;
    /* only a possible trace of this kernel is worth fitting */
    if (!impossible) {
        if (pg_trace_compare_as(&run, sname, &a.opts, a.tol, &cmp, &fitted) != 0) {
            pg_fail_context("%s", a.path);
            goto bad;
        }
        compared = 1;
        pg_trace_cmp_print(stdout, &cmp);
        if (a.timeline && write_trace_timeline(a.timeline, &run, fitted, &a.opts) != 0)
            goto bad;
    }
    const trace_json tj = {a.path, &issues, compared ? &cmp : NULL};
    if (a.json && pg_cli_json_save(a.json, emit_trace_json, &tj) != 0)
        goto bad;
    rc = trace_verdict(a.path, impossible, &cmp);
    goto done;
bad:
    rc = fail2("trace");
done:
    pg_schedule_free(fitted);
    pg_schedule_free(sch);
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
