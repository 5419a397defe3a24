/* `pegemm model ...`: predict, sweep, fit, import-seed, list, show.
 * Exit status: 0 ok, 1 a validation check failed, 2 bad usage or input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_model_out.h"
#include "commands.h"
#include "model_ext.h"
#include "pg_error.h"
#include "runfile.h"
#include "sched.h"

#define MAX_ASSIGN 32

typedef struct {
    const char *schedule, *format, *svg, *output, *vary, *row;
    const char *sets[MAX_ASSIGN], *deltas[MAX_ASSIGN];
    int nsets, ndeltas;
    double from, to;
    int points, deterministic, help;
    int64_t tiles;
    uint64_t seed;
    const char *positional[32];
    int npos;
} cli_args;

/* --name VALUE or --name=VALUE */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
    size_t L = strlen(name);
    if (strncmp(argv[*i], name, L) != 0)
        return NULL;
    if (argv[*i][L] == '=')
        return argv[*i] + L + 1;
    if (argv[*i][L] == '\0' && *i + 1 < argc)
        return argv[++*i];
    return NULL;
}

static int parse_args(int argc, char **argv, cli_args *a)
{
    memset(a, 0, sizeof *a);
    a->format = "text";
    a->seed = 1;
    a->from = a->to = NAN;
    for (int i = 1; i < argc; i++) {
        const char *v;
        char *end;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            a->help = 1;
        else if (strcmp(argv[i], "--deterministic") == 0)
            a->deterministic = 1;
        else if ((v = opt_value(argc, argv, &i, "--schedule")))
            a->schedule = v;
        else if ((v = opt_value(argc, argv, &i, "--format"))) {
            if (strcmp(v, "text") && strcmp(v, "json"))
                return pg_fail("--format must be text or json (got '%s')", v);
            a->format = v;
        } else if ((v = opt_value(argc, argv, &i, "--svg")))
            a->svg = v;
        else if ((v = opt_value(argc, argv, &i, "--output")))
            a->output = v;
        else if ((v = opt_value(argc, argv, &i, "--vary")))
            a->vary = v;
        else if ((v = opt_value(argc, argv, &i, "--row")))
            a->row = v;
        else if ((v = opt_value(argc, argv, &i, "--set"))) {
            if (a->nsets == MAX_ASSIGN)
                return pg_fail("too many --set");
            a->sets[a->nsets++] = v;
        } else if ((v = opt_value(argc, argv, &i, "--delta"))) {
            if (a->ndeltas == MAX_ASSIGN)
                return pg_fail("too many --delta");
            a->deltas[a->ndeltas++] = v;
        } else if ((v = opt_value(argc, argv, &i, "--from"))) {
            a->from = strtod(v, &end);
            if (*end || end == v)
                return pg_fail("--from: '%s' is not a number", v);
        } else if ((v = opt_value(argc, argv, &i, "--to"))) {
            a->to = strtod(v, &end);
            if (*end || end == v)
                return pg_fail("--to: '%s' is not a number", v);
        } else if ((v = opt_value(argc, argv, &i, "--points"))) {
            a->points = (int)strtol(v, &end, 10);
            if (*end || end == v)
                return pg_fail("--points: '%s' is not an integer", v);
        } else if ((v = opt_value(argc, argv, &i, "--tiles"))) {
            a->tiles = strtoll(v, &end, 10);
            if (*end || end == v || a->tiles < 100)
                return pg_fail("--tiles: '%s' is not an integer >= 100", v);
        } else if ((v = opt_value(argc, argv, &i, "--seed"))) {
            a->seed = strtoull(v, &end, 10);
            if (*end || end == v)
                return pg_fail("--seed: '%s' is not an integer", v);
        } else if (argv[i][0] == '-' && argv[i][1] != '\0')
            return pg_fail("unknown or incomplete option '%s'", argv[i]);
        else if (a->npos < 32)
            a->positional[a->npos++] = argv[i];
        else
            return pg_fail("too many arguments ('%s')", argv[i]);
    }
    return 0;
}

static int load_with_overrides(const cli_args *a, pg_schedule **s)
{
    if (!a->schedule)
        return pg_fail("--schedule NAME is required (built-in: %s, or a .sched file)", sch_builtin_names());
    if (pg_schedule_load(a->schedule, s))
        return -1;
    for (int i = 0; i < a->nsets; i++)
        if (pg_schedule_set(*s, a->sets[i], 0))
            goto fail;
    for (int i = 0; i < a->ndeltas; i++)
        if (pg_schedule_set(*s, a->deltas[i], 1))
            goto fail;
    return 0;
fail:
    pg_schedule_free(*s);
    *s = NULL;
    return -1;
}

static int fail_usage(const char *cmd)
{
    fprintf(stderr, "pegemm model %s: %s\n", cmd, pg_last_error());
    return 2;
}

/* ----------------------------------------------------------------- predict */
static const char k_predict_help[] =
    "usage: pegemm model predict --schedule NAME [--set PARAM=VALUE]... [--delta PARAM=VALUE]...\n"
    "                            [--format text|json] [--tiles N] [--seed S] [--deterministic]\n"
    "Predict the equilibrium of a schedule: the max-plus cycle time and its critical cycle, and\n"
    "from a Monte Carlo over the recurrence the tile period (95%% CI), every wait and phase\n"
    "(mean, p50, p95), wall clock and TFLOPS, and Clark's closed form.\n"
    "  --schedule NAME   built-in (b200-seed, h100-pingpong) or a .sched file\n"
    "  --set P=V         absolute: a phase statistic (phase1.mean, kloop.p95, first_load.mean),\n"
    "                    a structural option (release_after=phase2, epilogue_warps=5, stagger=0,\n"
    "                    accumulators=2, stages=3, epi_delay=200) or machine value (clock_hz=...)\n"
    "  --delta P=V       relative: add V (e.g. --delta phase1.mean=-170); a new mean keeps the\n"
    "                    phase's calibrated spread\n"
    "  --tiles N         Monte Carlo tiles (default 100000); --seed S (default 1)\n"
    "  --deterministic   every phase at its mean\n";

static int cmd_predict(int argc, char **argv)
{
    cli_args a;
    pg_schedule *s = NULL;
    pg_prediction p;
    if (parse_args(argc, argv, &a))
        return fail_usage("predict");
    if (a.help) {
        printf(k_predict_help);
        return 0;
    }
    if (a.npos)
        return pg_fail("unexpected argument '%s'", a.positional[0]), fail_usage("predict");
    if (load_with_overrides(&a, &s))
        return fail_usage("predict");
    pg_model_opts o = {a.tiles ? a.tiles : 100000, a.seed, a.deterministic};
    int rc = 0;
    if (pg_model_predict(s, &o, &p))
        rc = fail_usage("predict");
    else if (strcmp(a.format, "json") == 0 ? model_print_json(stdout, s, &o, &p) : model_print_text(stdout, s, &o, &p))
        rc = fail_usage("predict");
    pg_schedule_free(s);
    return rc;
}

/* ------------------------------------------------------------------- sweep */
static const char k_sweep_help[] =
    "usage: pegemm model sweep --schedule NAME --vary PARAM --from A --to B --points N\n"
    "                          [--set P=V]... [--delta P=V]... [--format text|json] [--svg FILE]\n"
    "                          [--tiles N] [--seed S]\n"
    "Vary one parameter (any --set PARAM) and predict at N points; report where the bottleneck\n"
    "(the max-plus critical cycle) moves from one role or resource to another and where each\n"
    "wait turns on or off (mean above 25 cycles and 1%% of the period).  --svg writes the curve\n"
    "(tile period and waits against PARAM) with the transitions marked.\n"
    "  --tiles N   Monte Carlo tiles per point (default 20000)\n";

static int cmd_sweep(int argc, char **argv)
{
    cli_args a;
    pg_schedule *s = NULL;
    pg_sweep sw = {0};
    if (parse_args(argc, argv, &a))
        return fail_usage("sweep");
    if (a.help) {
        printf(k_sweep_help);
        return 0;
    }
    if (!a.vary || !isfinite(a.from) || !isfinite(a.to) || a.points == 0) {
        pg_fail("--vary PARAM, --from A, --to B and --points N are required");
        return fail_usage("sweep");
    }
    if (load_with_overrides(&a, &s))
        return fail_usage("sweep");
    pg_model_opts o = {a.tiles ? a.tiles : 20000, a.seed, a.deterministic};
    int rc = 0;
    if (pg_model_sweep(s, a.vary, a.from, a.to, a.points, &o, &sw))
        rc = fail_usage("sweep");
    else if (a.svg && sweep_write_svg(a.svg, s, &sw))
        rc = fail_usage("sweep");
    else if (strcmp(a.format, "json") == 0 ? sweep_print_json(stdout, s, &sw) : sweep_print_text(stdout, s, &sw))
        rc = fail_usage("sweep");
    pg_sweep_free(&sw);
    pg_schedule_free(s);
    return rc;
}

/* --------------------------------------------------------------------- fit */
static const char k_fit_help[] =
    "usage: pegemm model fit RUN.h5 [--output FILE.sched] [--set P=V]... [--format text|json]\n"
    "                        [--tiles N] [--seed S]\n"
    "Fit the run's kernel schedule (h100-pingpong) to the run's trace: per-tile phase samples\n"
    "(a tile's phases kept together), the first-load latency from the binding load waits, the\n"
    "run's SM count, clock and probes.  Prints the model's prediction beside the trace's\n"
    "measured figures.  --output writes the fit as a schedule file (fitted summaries);\n"
    "--set applies what-ifs to the fitted schedule (e.g. --set epi_delay=400).\n";

static int cmd_fit(int argc, char **argv)
{
    cli_args a;
    pg_run run;
    pg_schedule *s = NULL;
    pg_prediction p, m;
    int rc = 2;
    memset(&run, 0, sizeof run);
    if (parse_args(argc, argv, &a))
        return fail_usage("fit");
    if (a.help) {
        printf(k_fit_help);
        return 0;
    }
    if (a.npos != 1) {
        pg_fail("give exactly one RUN.h5");
        return fail_usage("fit");
    }
    if (pg_run_read(a.positional[0], &run, PG_READ_TRACE)) {
        fail_usage("fit");
        goto done;
    }
    if (pg_schedule_fit(&run, &s)) {
        pg_fail_context("%s", a.positional[0]);
        fail_usage("fit");
        goto done;
    }
    for (int i = 0; i < a.nsets; i++)
        if (pg_schedule_set(s, a.sets[i], 0)) {
            fail_usage("fit");
            goto done;
        }
    pg_model_opts o = {a.tiles ? a.tiles : 100000, a.seed, 0};
    if (pg_model_predict(s, &o, &p) || pg_trace_summarize(&run.trace, run.kernel.sm_clock_hz, &m)) {
        fail_usage("fit");
        goto done;
    }
    if (a.output) {
        char comment[512];
        snprintf(comment, sizeof comment, "fitted by `pegemm model fit` from %s (%lld trace rows)", a.positional[0],
                 (long long)run.trace.n);
        if (pg_schedule_save(s, a.output, comment)) {
            fail_usage("fit");
            goto done;
        }
    }
    if (strcmp(a.format, "json") == 0 ? fit_print_json(stdout, s, &p, &m, &run) : fit_print_text(stdout, s, &p, &m, &run)) {
        fail_usage("fit");
        goto done;
    }
    rc = 0;
done:
    pg_schedule_free(s);
    pg_run_free(&run);
    return rc;
}

/* ------------------------------------------------------------- import-seed */
static const char k_seed_help[] =
    "usage: pegemm model import-seed CSV [--format text|json] [--tiles N] [--seed S]\n"
    "       pegemm model import-seed CSV --row EXPERIMENT --output FILE.sched\n"
    "Read the seed's calibration rows (b200-calibration.csv): each row becomes a b200-seed\n"
    "schedule from its own busy phases (kloop, phase1, phase2), structure (release point,\n"
    "epilogue warps, stagger) and the log's spreads; the model then predicts the row's tile\n"
    "time, epi_wait, tma0_wait, ml_wait and wall clock, compared with what was measured.\n"
    "Exit 1 if a row misses the tolerances (tile 5%%; waits 20%% or 150 cycles).\n";

static int cmd_import_seed(int argc, char **argv)
{
    cli_args a;
    static pg_seed_row rows[PG_SEED_MAX_ROWS];
    int n;
    if (parse_args(argc, argv, &a))
        return fail_usage("import-seed");
    if (a.help) {
        printf(k_seed_help);
        return 0;
    }
    if (a.npos != 1) {
        pg_fail("give the calibration CSV");
        return fail_usage("import-seed");
    }
    if (pg_seed_read_csv(a.positional[0], rows, PG_SEED_MAX_ROWS, &n))
        return fail_usage("import-seed");
    if (a.row || a.output) {
        if (!a.row || !a.output) {
            pg_fail("--row and --output go together");
            return fail_usage("import-seed");
        }
        for (int i = 0; i < n; i++)
            if (strcmp(rows[i].experiment, a.row) == 0) {
                pg_schedule *s;
                char note[128], comment[256];
                if (pg_seed_row_schedule(rows, n, i, &s, note, sizeof note))
                    return fail_usage("import-seed");
                snprintf(comment, sizeof comment, "b200-seed imported from %s row %s%s%s", a.positional[0], a.row,
                         note[0] ? ": " : "", note);
                int rc = pg_schedule_save(s, a.output, comment);
                pg_schedule_free(s);
                return rc ? fail_usage("import-seed") : 0;
            }
        pg_fail("no row '%s' in %s", a.row, a.positional[0]);
        return fail_usage("import-seed");
    }
    pg_model_opts o = {a.tiles ? a.tiles : 100000, a.seed, 0};
    int ok = 1;
    if (seed_validate(stdout, rows, n, &o, strcmp(a.format, "json") == 0, &ok))
        return fail_usage("import-seed");
    return ok ? 0 : 1;
}

/* --------------------------------------------------------- validate-delays */
static const char k_delays_help[] =
    "usage: pegemm model validate-delays RUN.h5... [--format text|json] [--tiles N] [--seed S]\n"
    "The H100 check of the model against the kernel's --epi-delay sweep: fit the schedule on\n"
    "the zero-delay run's trace only, predict every run's tile period at its delay, and find\n"
    "where the tensor cores start to idle (tensor_idle grows by 10%% of the zero-delay period\n"
    "over its zero-delay value) on the measured and on the predicted curve.\n"
    "Exit 1 if a period is off by more than 5%% or the onset by more than 10%%.\n";

static int cmd_validate_delays(int argc, char **argv)
{
    cli_args a;
    if (parse_args(argc, argv, &a))
        return fail_usage("validate-delays");
    if (a.help) {
        printf(k_delays_help);
        return 0;
    }
    if (a.npos < 2) {
        pg_fail("give at least two runs of the --epi-delay sweep (one at delay 0)");
        return fail_usage("validate-delays");
    }
    pg_model_opts o = {a.tiles ? a.tiles : 40000, a.seed, 0};
    int ok = 1;
    if (delays_validate(stdout, a.positional, a.npos, &o, strcmp(a.format, "json") == 0, &ok))
        return fail_usage("validate-delays");
    return ok ? 0 : 1;
}

/* ------------------------------------------------------------- list, show */
static int cmd_list(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    char names[256];
    snprintf(names, sizeof names, "%s", sch_builtin_names());
    for (char *nm = strtok(names, ", "); nm; nm = strtok(NULL, ", ")) {
        pg_schedule *s;
        if (pg_schedule_load(nm, &s))
            return fail_usage("list");
        printf("%-14s options:", nm);
        for (int i = 0; i < s->noptions; i++)
            printf(" %s=%s%s%s%s", s->options[i].name, s->options[i].value, s->options[i].choices[0] ? " (" : "",
                   s->options[i].choices, s->options[i].choices[0] ? ")" : "");
        printf("\n%-14s phases:", "");
        for (int i = 0; i < s->ndists; i++)
            printf(" %s", s->dists[i].name);
        printf("\n");
        pg_schedule_free(s);
    }
    return 0;
}

static int cmd_show(int argc, char **argv)
{
    cli_args a;
    pg_schedule *s;
    if (parse_args(argc, argv, &a))
        return fail_usage("show");
    if (a.help) {
        printf("usage: pegemm model show --schedule NAME [--set P=V]... [--delta P=V]...\n"
               "Print the schedule file (with the overrides applied) in the .sched format.\n");
        return 0;
    }
    if (load_with_overrides(&a, &s))
        return fail_usage("show");
    int rc = pg_schedule_write(s, stdout, NULL) ? fail_usage("show") : 0;
    pg_schedule_free(s);
    return rc;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: pegemm model COMMAND [ARGS]   (pegemm model COMMAND --help for each)\n\n"
               "  predict      predict waits, tile period, wall clock, TFLOPS of a schedule (what-ifs: --set/--delta)\n"
               "  sweep        vary one parameter; find where the bottleneck moves and waits turn on/off\n"
               "  fit          fit a schedule to a run's trace and compare prediction with measurement\n"
               "  import-seed  the seed's calibration CSV: predict each row, compare with the log\n"
               "  validate-delays  fit on a zero-delay trace, predict an --epi-delay sweep, compare\n"
               "  list         built-in schedules, their options and phases\n"
               "  show         print a schedule (with overrides) as a .sched file\n");
}

int pg_cmd_model(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *c = argv[1];
    if (strcmp(c, "--help") == 0 || strcmp(c, "-h") == 0 || strcmp(c, "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(c, "predict") == 0)
        return cmd_predict(argc - 1, argv + 1);
    if (strcmp(c, "sweep") == 0)
        return cmd_sweep(argc - 1, argv + 1);
    if (strcmp(c, "fit") == 0)
        return cmd_fit(argc - 1, argv + 1);
    if (strcmp(c, "import-seed") == 0)
        return cmd_import_seed(argc - 1, argv + 1);
    if (strcmp(c, "validate-delays") == 0)
        return cmd_validate_delays(argc - 1, argv + 1);
    if (strcmp(c, "list") == 0)
        return cmd_list(argc - 1, argv + 1);
    if (strcmp(c, "show") == 0)
        return cmd_show(argc - 1, argv + 1);
    fprintf(stderr, "pegemm model: unknown command '%s'\n\n", c);
    usage(stderr);
    return 2;
}
