/* `pegemm model ...`: predict, sweep, fit, import-seed, list, show.
 * Exit status: 0 ok, 1 a validation check failed, 2 bad usage or input. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_model_out.h"
#include "cli_model_trace.h"
#include "fit.h"
#include "commands.h"
#include "model_ext.h"
#include "pg_cli.h"
#include "pg_error.h"
#include "pg_progress.h"
#include "runfile.h"
#include "sched.h"

#define MAX_ASSIGN 32

typedef struct {
    const char *schedule, *json, *svg, *output, *vary, *row, *trace_out;
    const char *sets[MAX_ASSIGN], *deltas[MAX_ASSIGN], *variant[MAX_ASSIGN];
    int nsets, ndeltas, nvariant;
    double from, to;
    int points, deterministic, held;
    int64_t tiles;
    uint64_t seed;
    double floors[2]; /* --floors CAL[,OTHER] in bytes/s (0: not given) */
    const char *positional[32];
    int npos;
} cli_args;

/* Every model option; each subcommand's table lists the ones it takes. */
#define O_SCHEDULE {"schedule", 0, "NAME|FILE", "built-in schedule (pegemm model list) or a .sched file"}
#define O_SET {"set", 0, "P=V", "absolute what-if (repeatable)"}
#define O_DELTA {"delta", 0, "P=V", "relative what-if: add V (repeatable)"}
#define O_JSON {"json", 0, "FILE", "also write the report as JSON to FILE ('-': stdout, instead of text)"}
#define O_FORMAT {"format", 0, "text|json", NULL} /* the old spelling: --format json = --json - */
#define O_TILES {"tiles", 0, "N", "Monte Carlo tiles"}
#define O_SEED {"seed", 0, "S", "Monte Carlo seed (default 1)"}
#define O_DETERMINISTIC {"deterministic", 0, NULL, "every phase at its mean"}
#define O_OUTPUT {"output", 'o', "FILE.sched", "write the schedule to FILE.sched (atomically)"}
#define O_TRACE_OUT {"trace-out", 0, "PRED.h5", "also write the model's simulated trace as a run file (atomically)"}

/* One floor of --floors, in bytes/s: a number (GB/s), or a `pegemm bench`
 * run file, whose D2D copy timing ("copy": its bytes over the median of its
 * samples) is the machine's copy floor. */
static int floor_of(const char *tok, double *bytes_per_s)
{
    char *end;
    const double gbs = strtod(tok, &end);
    if (end != tok && *end == '\0') {
        if (!(gbs > 0 && gbs < 1e6))
            return pg_fail("--floors: each floor must be in (0, 1e6) GB/s (got '%s')", tok);
        *bytes_per_s = gbs * 1e9;
        return 0;
    }
    pg_run run;
    if (pg_run_read(tok, &run, 0))
        return pg_fail_context("--floors '%s': neither a number (GB/s) nor a readable run file", tok);
    int rc = -1;
    const pg_timing *t = NULL;
    for (int i = 0; i < run.ntimings; i++)
        if (strcmp(run.timings[i].name, "copy") == 0)
            t = &run.timings[i];
    double *ms = t && t->n > 0 ? malloc(sizeof(double) * (size_t)t->n) : NULL;
    if (!t || t->n < 1 || !(t->bytes > 0)) {
        pg_fail("--floors '%s': the run file has no D2D copy timing (write it with `pegemm bench -o`)", tok);
    } else if (!ms) {
        pg_fail("out of memory");
    } else {
        memcpy(ms, t->ms, sizeof(double) * (size_t)t->n);
        qsort(ms, (size_t)t->n, sizeof *ms, fit_cmp_double);
        const double med = fit_quantile_sorted(ms, t->n, 0.5);
        *bytes_per_s = t->bytes / (med * 1e-3);
        rc = med > 0 ? 0 : pg_fail("--floors '%s': its copy timing's median is not positive", tok);
    }
    free(ms);
    pg_run_free(&run);
    return rc;
}

/* "CAL" or "CAL,OTHER": the copy floors of the calibration's GPU and of
 * another (numbers in GB/s or `pegemm bench` run files), kept in bytes/s
 * (OTHER 0: not given). */
static int parse_floors(const char *v, double *floors)
{
    char cal[4096];
    const char *comma = strchr(v, ',');
    const size_t len = comma ? (size_t)(comma - v) : strlen(v);
    if (len >= sizeof cal || len == 0 || (comma && !comma[1]))
        return pg_fail("--floors takes CAL or CAL,OTHER: copy floors in GB/s or bench run files (got '%s')", v);
    memcpy(cal, v, len);
    cal[len] = '\0';
    floors[1] = 0;
    return floor_of(cal, &floors[0]) || (comma && floor_of(comma + 1, &floors[1])) ? -1 : 0;
}

static int set_option(cli_args *a, const char *name, const char *v)
{
    long long n;
    unsigned long long u;
    if (!strcmp(name, "schedule"))
        a->schedule = v;
    else if (!strcmp(name, "json"))
        a->json = v;
    else if (!strcmp(name, "format")) {
        if (strcmp(v, "text") && strcmp(v, "json"))
            return pg_fail("--format must be text or json (got '%s')", v);
        a->json = strcmp(v, "json") == 0 ? "-" : NULL;
    } else if (!strcmp(name, "svg"))
        a->svg = v;
    else if (!strcmp(name, "output"))
        a->output = v;
    else if (!strcmp(name, "trace-out"))
        a->trace_out = v;
    else if (!strcmp(name, "vary"))
        a->vary = v;
    else if (!strcmp(name, "row"))
        a->row = v;
    else if (!strcmp(name, "deterministic"))
        a->deterministic = 1;
    else if (!strcmp(name, "held"))
        a->held = 1;
    else if (!strcmp(name, "variant")) {
        if (a->nvariant == MAX_ASSIGN)
            return pg_fail("more than %d --variant", MAX_ASSIGN);
        a->variant[a->nvariant++] = v;
    } else if (!strcmp(name, "set") || !strcmp(name, "delta")) {
        int *n_of = name[0] == 's' ? &a->nsets : &a->ndeltas;
        if (*n_of == MAX_ASSIGN)
            return pg_fail("more than %d --%s", MAX_ASSIGN, name);
        (name[0] == 's' ? a->sets : a->deltas)[(*n_of)++] = v;
    } else if (!strcmp(name, "floors"))
        return parse_floors(v, a->floors);
    else if (!strcmp(name, "from"))
        return pg_cli_double("--from", v, &a->from);
    else if (!strcmp(name, "to"))
        return pg_cli_double("--to", v, &a->to);
    else if (!strcmp(name, "points")) {
        if (pg_cli_int("--points", v, 2, 100000, &n))
            return -1;
        a->points = (int)n;
    } else if (!strcmp(name, "tiles")) {
        if (pg_cli_int("--tiles", v, 100, INT64_MAX, &n))
            return -1;
        a->tiles = n;
    } else if (!strcmp(name, "seed")) {
        if (pg_cli_u64("--seed", v, &u))
            return -1;
        a->seed = u;
    }
    return 0;
}

/* 0: parsed; 1: --help (usage printed); 2: usage error (message printed). */
static int parse_args(int argc, char **argv, const char *cmd, const pg_cli_opt *opts, int nopts, const char *help,
                      cli_args *a)
{
    memset(a, 0, sizeof *a);
    a->seed = 1;
    a->from = a->to = NAN;
    pg_cli c;
    if (pg_cli_begin(&c, cmd, opts, nopts, argc, argv)) {
        fputs(help, stdout);
        printf("options:\n");
        pg_cli_print_options(stdout, opts, nopts);
        return 1;
    }
    int k;
    while ((k = pg_cli_next(&c)) != PG_CLI_END) {
        if (k == PG_CLI_ERROR)
            return 2;
        if (k == PG_CLI_OPERAND) {
            if (a->npos == 32)
                return pg_fail("too many arguments ('%s')", c.value), pg_cli_usage_error(&c);
            a->positional[a->npos++] = c.value;
        } else if (set_option(a, opts[k].name, c.value)) {
            return pg_cli_usage_error(&c);
        }
    }
    return 0;
}

/* The schedule with --set/--delta applied into *s; with base, also the
 * schedule as loaded (the same read: the clock line's delays are the sets'
 * against it).  On failure both are NULL. */
static int load_with_overrides(const cli_args *a, pg_schedule **s, pg_schedule **base)
{
    if (base)
        *base = NULL;
    if (!a->schedule)
        return pg_fail("--schedule NAME is required (built-in: %s, or a .sched file)", sch_builtin_names());
    if (pg_schedule_load(a->schedule, s))
        return -1;
    if ((!base || pg_schedule_clone(*s, base) == 0) &&
        pg_schedule_set_all(*s, a->sets, a->nsets, a->deltas, a->ndeltas) == 0)
        return 0;
    pg_schedule_free(*s);
    *s = NULL;
    if (base) {
        pg_schedule_free(*base);
        *base = NULL;
    }
    return -1;
}

static int fail_usage(const char *cmd)
{
    fprintf(stderr, "pegemm model %s: %s\n", cmd, pg_last_error());
    return 2;
}

/* The report: text on stdout, unless --json - puts the JSON there instead;
 * --json FILE writes the JSON to FILE too. */
typedef struct {
    int (*text)(FILE *f, const void *ctx);
    int (*json)(FILE *f, const void *ctx);
    const void *ctx;
} report;

static int emit_report(const cli_args *a, const report *r)
{
    if (!(a->json && strcmp(a->json, "-") == 0) && r->text(stdout, r->ctx))
        return -1;
    if (a->json && pg_cli_write_report(a->json, r->json, r->ctx))
        return -1;
    if (a->json && strcmp(a->json, "-") != 0)
        pg_note("wrote %s (JSON report)", a->json);
    return 0;
}

/* ----------------------------------------------------------------- predict */
static const char k_predict_help[] =
    "usage: pegemm model predict --schedule NAME [--set PARAM=VALUE]... [--delta PARAM=VALUE]...\n"
    "                            [--json FILE] [--tiles N] [--seed S] [--deterministic] [--trace-out PRED.h5]\n"
    "Predict the equilibrium of a schedule: the max-plus cycle time and its critical cycle, and\n"
    "from a Monte Carlo over the recurrence the tile period (95% CI), every wait and phase\n"
    "(mean, p50, p95), wall clock and TFLOPS, and Clark's closed form.\n"
    "  --set P=V         absolute: a phase statistic (phase1.mean, kloop.p95, first_load.mean),\n"
    "                    a structural option (release_after=phase2, epilogue_warps=5, stagger=0,\n"
    "                    accumulators=2, stages=3, epi_delay=200) or machine value (clock_hz=...)\n"
    "  --delta P=V       relative: add V (e.g. --delta phase1.mean=-170); a new mean keeps the\n"
    "                    phase's calibrated spread\n"
    "  --tiles N         Monte Carlo tiles (default 100000)\n"
    "  --trace-out F     the simulated run (every SM of the machine line through its share of the\n"
    "                    tiles) as a trace run file, for `pegemm trace export --chrome F`\n"
    "  (--format json, the old spelling, is --json -)\n";

static const pg_cli_opt k_predict_opts[] = {O_SCHEDULE, O_SET,  O_DELTA, O_JSON,          O_FORMAT,
                                            O_TILES,    O_SEED, O_DETERMINISTIC, O_TRACE_OUT};

typedef struct {
    const pg_schedule *s;
    const pg_model_opts *o;
    const pg_prediction *p;
} predict_ctx;

static int predict_text(FILE *f, const void *ctx)
{
    const predict_ctx *c = ctx;
    return model_print_text(f, c->s, c->o, c->p);
}

static int predict_json(FILE *f, const void *ctx)
{
    const predict_ctx *c = ctx;
    return model_print_json(f, c->s, c->o, c->p);
}

static int cmd_predict(int argc, char **argv)
{
    cli_args a;
    pg_schedule *s = NULL;
    pg_prediction p;
    int pr = parse_args(argc, argv, "model predict", k_predict_opts, PG_CLI_COUNT(k_predict_opts), k_predict_help, &a);
    if (pr)
        return pr == 1 ? 0 : 2;
    if (a.npos)
        return pg_fail("unexpected argument '%s'", a.positional[0]), fail_usage("predict");
    pg_schedule *base = NULL;
    if (load_with_overrides(&a, &s, &base))
        return fail_usage("predict");
    pg_model_opts o = {a.tiles ? a.tiles : 100000, a.seed, a.deterministic};
    int rc = 0;
    const predict_ctx ctx = {s, &o, &p};
    const report r = {predict_text, predict_json, &ctx};
    if (pg_model_predict_clocked(base, s, &o, &p) || emit_report(&a, &r))
        rc = fail_usage("predict");
    else if (a.trace_out && model_trace_write(a.trace_out, s, &o, NULL))
        rc = fail_usage("predict");
    else if (a.trace_out)
        pg_note("wrote %s (the model's simulated trace)", a.trace_out);
    pg_schedule_free(s);
    pg_schedule_free(base);
    return rc;
}

/* ------------------------------------------------------------------- sweep */
static const char k_sweep_help[] =
    "usage: pegemm model sweep --schedule NAME --vary PARAM --from A --to B --points N\n"
    "                          [--set P=V]... [--delta P=V]... [--json FILE] [--svg FILE]\n"
    "                          [--tiles N] [--seed S]\n"
    "Vary one parameter (any --set PARAM) and predict at N points; report where the bottleneck\n"
    "(the max-plus critical cycle) moves from one role or resource to another and where each\n"
    "wait turns on or off (mean above 25 cycles and 1% of the period).  --svg writes the curve\n"
    "(tile period and waits against PARAM) with the transitions marked.\n"
    "  --tiles N   Monte Carlo tiles per point (default 20000)\n";

static const pg_cli_opt k_sweep_opts[] = {
    O_SCHEDULE,
    {"vary", 0, "PARAM", "the parameter to vary (any --set PARAM)"},
    {"from", 0, "A", "first value"},
    {"to", 0, "B", "last value"},
    {"points", 0, "N", "number of points (>= 2)"},
    {"svg", 0, "FILE", "write the curve with the transitions marked (SVG)"},
    O_SET, O_DELTA, O_JSON, O_FORMAT, O_TILES, O_SEED, O_DETERMINISTIC,
};

typedef struct {
    const pg_schedule *s;
    const pg_sweep *sw;
} sweep_ctx;

static int sweep_text(FILE *f, const void *ctx)
{
    const sweep_ctx *c = ctx;
    return sweep_print_text(f, c->s, c->sw);
}

static int sweep_json(FILE *f, const void *ctx)
{
    const sweep_ctx *c = ctx;
    return sweep_print_json(f, c->s, c->sw);
}

static int cmd_sweep(int argc, char **argv)
{
    cli_args a;
    pg_schedule *s = NULL;
    pg_sweep sw = {0};
    int pr = parse_args(argc, argv, "model sweep", k_sweep_opts, PG_CLI_COUNT(k_sweep_opts), k_sweep_help, &a);
    if (pr)
        return pr == 1 ? 0 : 2;
    if (a.npos)
        return pg_fail("unexpected argument '%s'", a.positional[0]), fail_usage("sweep");
    if (!a.vary || !isfinite(a.from) || !isfinite(a.to) || a.points == 0) {
        pg_fail("--vary PARAM, --from A, --to B and --points N are required");
        return fail_usage("sweep");
    }
    if (load_with_overrides(&a, &s, NULL))
        return fail_usage("sweep");
    pg_model_opts o = {a.tiles ? a.tiles : 20000, a.seed, a.deterministic};
    int rc = 0;
    const sweep_ctx ctx = {s, &sw};
    const report r = {sweep_text, sweep_json, &ctx};
    if (pg_model_sweep(s, a.vary, a.from, a.to, a.points, &o, &sw))
        rc = fail_usage("sweep");
    else if (a.svg && sweep_write_svg(a.svg, s, &sw))
        rc = fail_usage("sweep");
    else if (emit_report(&a, &r))
        rc = fail_usage("sweep");
    else if (a.svg)
        pg_note("wrote %s (%d points of %s)", a.svg, a.points, a.vary);
    pg_sweep_free(&sw);
    pg_schedule_free(s);
    return rc;
}

/* --------------------------------------------------------------------- fit */
static const char k_fit_help[] =
    "usage: pegemm model fit RUN.h5 [--schedule NAME|FILE.sched] [--output FILE.sched]\n"
    "                        [--set P=V]... [--delta P=V]... [--json FILE] [--tiles N] [--seed S]\n"
    "                        [--trace-out PRED.h5]\n"
    "Fit a schedule to the run's trace: per-tile phase samples (a tile's phases kept together),\n"
    "the first-load latency from the binding load waits, the run's SM count, clock and probes.\n"
    "The schedule: --schedule (a built-in name or a .sched file), else the one the run's trace\n"
    "names (/trace schedule), else, for traces in our kernels' vocabulary, the built-in one for\n"
    "the kernel's name.  The trace's roles and phases must be the schedule's, by name (exit 2\n"
    "with the difference otherwise).  Prints the model's prediction beside the trace's\n"
    "measured figures.  --output writes the fit as a schedule file (fitted summaries);\n"
    "--set/--delta apply what-ifs to the fitted schedule (e.g. --set epi_delay=400).\n"
    "--trace-out writes the model's own timeline (every SM of the run through its share of the\n"
    "tiles, what-ifs applied) as a trace run file, which `pegemm trace export --chrome`, `pegemm\n"
    "model fit` and scripts read as they read a measured one.\n";

static const pg_cli_opt k_fit_opts[] = {
    {"schedule", 0, "NAME|FILE", "the schedule to fit (default: the run's kernel's)"},
    O_OUTPUT, O_SET, O_DELTA, O_JSON, O_FORMAT, O_TILES, O_SEED, O_TRACE_OUT,
};

typedef struct {
    const pg_schedule *s;
    const pg_prediction *p, *m;
    const pg_run *run;
} fit_ctx;

static int fit_text(FILE *f, const void *ctx)
{
    const fit_ctx *c = ctx;
    return fit_print_text(f, c->s, c->p, c->m, c->run);
}

static int fit_json(FILE *f, const void *ctx)
{
    const fit_ctx *c = ctx;
    return fit_print_json(f, c->s, c->p, c->m, c->run);
}

static int apply_overrides(pg_schedule *s, const cli_args *a)
{
    return pg_schedule_set_all(s, a->sets, a->nsets, a->deltas, a->ndeltas);
}

static int cmd_fit(int argc, char **argv)
{
    cli_args a;
    pg_run run;
    pg_schedule *s = NULL;
    pg_prediction p, m;
    int rc = 2;
    memset(&run, 0, sizeof run);
    int pr = parse_args(argc, argv, "model fit", k_fit_opts, PG_CLI_COUNT(k_fit_opts), k_fit_help, &a);
    if (pr)
        return pr == 1 ? 0 : 2;
    if (a.npos != 1) {
        pg_fail("give exactly one RUN.h5");
        return fail_usage("fit");
    }
    if (pg_run_read(a.positional[0], &run, PG_READ_TRACE)) {
        fail_usage("fit");
        goto done;
    }
    if (pg_schedule_fit_as(&run, a.schedule, &s)) {
        pg_fail_context("%s", a.positional[0]);
        fail_usage("fit");
        goto done;
    }
    if (apply_overrides(s, &a)) {
        fail_usage("fit");
        goto done;
    }
    pg_model_opts o = {a.tiles ? a.tiles : 100000, a.seed, 0};
    const double clock_hz = run.kernel.sm_clock_hz > 0 ? run.kernel.sm_clock_hz : run.trace.clock_hz;
    if (pg_model_predict(s, &o, &p) ||
        pg_trace_summarize_period(&run.trace, clock_hz, pg_schedule_period_phase(s), &m)) {
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
        pg_note("wrote %s (schedule %s fitted to %lld trace rows)", a.output, pg_schedule_name(s),
                (long long)run.trace.n);
    }
    if (a.trace_out) {
        if (model_trace_write(a.trace_out, s, &o, &run)) {
            fail_usage("fit");
            goto done;
        }
        pg_note("wrote %s (the model's simulated trace)", a.trace_out);
    }
    const fit_ctx ctx = {s, &p, &m, &run};
    const report r = {fit_text, fit_json, &ctx};
    if (emit_report(&a, &r)) {
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
    "usage: pegemm model import-seed CSV [--json FILE] [--tiles N] [--seed S]\n"
    "       pegemm model import-seed CSV --row EXPERIMENT --output FILE.sched\n"
    "Read the seed's calibration rows (b200-calibration.csv): each row becomes a b200-seed\n"
    "schedule from its own busy phases (kloop, phase1, phase2), structure (release point,\n"
    "epilogue warps, stagger) and the log's spreads; the model then predicts the row's tile\n"
    "time, epi_wait, tma0_wait, ml_wait and wall clock, compared with what was measured.\n"
    "With --json FILE the report is JSON in FILE ('-': stdout) instead of text.\n"
    "Exit 1 if a row misses the tolerances (tile 5%; waits 20% or 150 cycles).\n";

static const pg_cli_opt k_seed_opts[] = {
    {"row", 0, "EXPERIMENT", "the calibration row to write as a schedule (with --output)"},
    O_OUTPUT, O_JSON, O_FORMAT, O_TILES, O_SEED,
};

typedef struct {
    const pg_seed_row *rows;
    int n;
    const pg_model_opts *o;
    int *ok;
    int (*check)(FILE *, const pg_seed_row *, int, const pg_model_opts *, int, int *);
    const char *const *paths;
    int (*delays)(FILE *, const char *const *, int, const pg_model_opts *, const char *, int, int *);
    const char *schedule; /* validate-delays: the schedule to fit (NULL: the run's) */
} validate_ctx;

static int validate_json(FILE *f, const void *ctx)
{
    const validate_ctx *c = ctx;
    return c->check ? c->check(f, c->rows, c->n, c->o, 1, c->ok)
                    : c->delays(f, c->paths, c->n, c->o, c->schedule, 1, c->ok);
}

/* Text on stdout, or the JSON report where --json says (validated once). */
static int run_validation(const cli_args *a, const validate_ctx *c)
{
    if (!a->json)
        return c->check ? c->check(stdout, c->rows, c->n, c->o, 0, c->ok)
                        : c->delays(stdout, c->paths, c->n, c->o, c->schedule, 0, c->ok);
    if (pg_cli_write_report(a->json, validate_json, c))
        return -1;
    if (strcmp(a->json, "-") != 0)
        pg_note("wrote %s (JSON report: %s)", a->json, *c->ok ? "all within tolerance" : "some outside tolerance");
    return 0;
}

static int cmd_import_seed(int argc, char **argv)
{
    cli_args a;
    static pg_seed_row rows[PG_SEED_MAX_ROWS];
    int n;
    int pr = parse_args(argc, argv, "model import-seed", k_seed_opts, PG_CLI_COUNT(k_seed_opts), k_seed_help, &a);
    if (pr)
        return pr == 1 ? 0 : 2;
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
                if (rc)
                    return fail_usage("import-seed");
                pg_note("wrote %s (b200-seed schedule of row %s)", a.output, a.row);
                return 0;
            }
        pg_fail("no row '%s' in %s", a.row, a.positional[0]);
        return fail_usage("import-seed");
    }
    pg_model_opts o = {a.tiles ? a.tiles : 100000, a.seed, 0};
    int ok = 1;
    const validate_ctx c = {rows, n, &o, &ok, seed_validate, NULL, NULL, NULL};
    if (run_validation(&a, &c))
        return fail_usage("import-seed");
    return ok ? 0 : 1;
}

/* --------------------------------------------------------- validate-delays */
static const char k_delays_help[] =
    "usage: pegemm model validate-delays RUN.h5... [--schedule NAME|FILE.sched] [--json FILE] [--tiles N] [--seed S]\n"
    "The H100 check of the model against the kernel's --epi-delay or --mainloop-delay sweep\n"
    "(the delay is read from each run's /kernel attributes): fit the schedule on the zero-delay\n"
    "run's trace only, predict every run's tile period at its delay, and find the onset on the\n"
    "measured and on the predicted curve: for --epi-delay where the tensor cores start to idle\n"
    "(tensor_idle grows by 10% of the zero-delay period over its zero-delay value), for\n"
    "--mainloop-delay where the tile period has grown by 10% of the zero-delay period.\n"
    "With --json FILE the report is JSON in FILE ('-': stdout) instead of text.\n"
    "Exit 1 if a period is off by more than 5% or the onset by more than 10%.\n";

static const pg_cli_opt k_delays_opts[] = {
    {"schedule", 0, "NAME|FILE", "the schedule to fit (default: the one the zero-delay run names)"},
    O_JSON, O_FORMAT, O_TILES, O_SEED};

static int cmd_validate_delays(int argc, char **argv)
{
    cli_args a;
    int pr = parse_args(argc, argv, "model validate-delays", k_delays_opts, PG_CLI_COUNT(k_delays_opts),
                        k_delays_help, &a);
    if (pr)
        return pr == 1 ? 0 : 2;
    if (a.npos < 2) {
        pg_fail("give at least two runs of one --epi-delay or --mainloop-delay sweep (one at delay 0)");
        return fail_usage("validate-delays");
    }
    pg_model_opts o = {a.tiles ? a.tiles : 40000, a.seed, 0};
    int ok = 1;
    const validate_ctx c = {NULL, a.npos, &o, &ok, NULL, a.positional, delays_validate, a.schedule};
    if (run_validation(&a, &c))
        return fail_usage("validate-delays");
    return ok ? 0 : 1;
}

/* ---------------------------------------------------------------- validate */
static const char k_validate_help[] =
    "usage: pegemm model validate CAL.h5 RUN.h5... [--schedule NAME|FILE.sched] [--floors CAL[,OTHER]]\n"
    "                             [--variant P=V]... [--set P=V]... [--delta P=V]... [--held] [--json FILE] [--tiles N]\n"
    "                             [--seed S]\n"
    "The out-of-sample check of the model on your own runs: fit the schedule on CAL.h5's trace\n"
    "only (e.g. the zero-delay run), then predict every RUN.h5 from what its /kernel and\n"
    "/problem attributes say differs from CAL.h5 (--epi-delay, --mainloop-delay, M, N, K, SM\n"
    "count, stage count, k-block size, another GPU) and compare with its trace; another M or N\n"
    "moves the period by CAL.h5's own start-up transient (a schedule's `warmup` line), and a\n"
    "working set small enough to stay in the L2 between launches moves the loads a schedule's\n"
    "`l2reuse` line lists (the L2's size from the run's /kernel l2_bytes, where recorded).  A build\n"
    "with the A prefetch (name \"-pfD\", --a-prefetch) against one without, or the reverse, is\n"
    "predicted where the schedule's `rowfirst` line has option= and prefetch= (the calibration\n"
    "fitted again with the option for that build).  A run of another kernel (another name once\n"
    "stage count, k extent and prefetch are set aside: a cluster build), a K the schedule\n"
    "cannot express, or another GPU without --floors is listed as not predicted, with why.\n"
    "Where the schedule has a `clock` line (h100-pingpong), the SM clock at the power cap is\n"
    "predicted from the tile's duty and shown beside the run's measured one, and the clock a\n"
    "delay moves holds the line's memory times in ns (docs/experiments.md M179).\n"
    "Target (issue 12): tile period within 3%, each mean wait within 15% or 150 cycles.\n"
    "--floors CAL[,OTHER]: the copy floors (GB/s, or `pegemm bench -o` run files) of CAL.h5's GPU and of the\n"
    "other GPU.  CAL alone: the bandwidth line's share taken against that floor instead of the\n"
    "schedule's figure (a line with floor=device, as h100-bres's, already takes the floor pegemm\n"
    "measured on a GPU it knows by name: H100 80GB HBM3, H200; docs/experiments.md M42, M72).\n"
    "OTHER, for runs on another GPU (the loads the schedule's dramq line lists queue at each\n"
    "floor; without one the bandwidth term moves by their ratio; core-clock cycles stay).\n"
    "--variant P=V: a model variant to try on the same runs (e.g. --variant kblocks.queue=1),\n"
    "made before the fit so that the fit calibrates with it; --set/--delta: a what-if made\n"
    "after the fit on every prediction (e.g. --set kblock_load.mean=900).  The self-fit row\n"
    "shows both.\n"
    "--held: also what held each wait, measured and predicted: per latency a wait can end on (on\n"
    "our kernels the turn's handover and the store's drain; the fit counts no floor or memory\n"
    "term, so the load waits are not listed), the share of the waits it could hold that it held,\n"
    "read by the same fit from the run's trace and from the model's simulated run of its\n"
    "prediction.  Where they differ the model is in another mode than the kernel (the turn against\n"
    "the drain: docs/experiments.md M152).  Two fits and a simulation more per run.\n"
    "Exit 0 when every run was predicted within the target, 1 otherwise, 2 on bad input.\n";

static const pg_cli_opt k_validate_opts[] = {
    {"schedule", 0, "NAME|FILE", "the schedule to fit (default: the one CAL.h5's kernel names)"},
    {"floors", 0, "CAL[,OTHER]", "copy floors of CAL.h5's GPU (and of the other GPU): GB/s or bench run files"},
    {"variant", 0, "P=V", "a model variant, made before the fit (e.g. kblocks.queue=1; repeatable)"},
    {"set", 0, "P=V", "a what-if on every prediction, made after the fit (repeatable)"},
    {"delta", 0, "P=V", "the same, relative: add V (repeatable)"},
    {"held", 0, NULL, "also what held each wait (share per latency), measured and predicted"},
    O_JSON, O_TILES, O_SEED};

typedef struct {
    const pg_validate_report *r;
} validate_runs_ctx;

static int validate_runs_json(FILE *f, const void *ctx)
{
    return validate_print(f, ((const validate_runs_ctx *)ctx)->r, 1);
}

static int cmd_validate(int argc, char **argv)
{
    cli_args a;
    pg_validate_report r;
    int pr = parse_args(argc, argv, "model validate", k_validate_opts, PG_CLI_COUNT(k_validate_opts),
                        k_validate_help, &a);
    if (pr)
        return pr == 1 ? 0 : 2;
    if (a.npos < 2) {
        pg_fail("give the calibration run and at least one run to predict");
        return fail_usage("validate");
    }
    const pg_model_opts o = {a.tiles ? a.tiles : 40000, a.seed, 0};
    const pg_validate_opts v = {a.schedule, {a.floors[0], a.floors[1]}, a.variant, a.nvariant, a.sets, a.nsets,
                                a.deltas, a.ndeltas, a.held};
    pg_note("fitting %s; predicting %d run%s", a.positional[0], a.npos - 1, a.npos == 2 ? "" : "s");
    if (pg_model_validate_runs(a.positional[0], a.positional + 1, a.npos - 1, &v, &o, &r))
        return fail_usage("validate");
    int rc = 0;
    const validate_runs_ctx c = {&r};
    if (a.json)
        rc = pg_cli_write_report(a.json, validate_runs_json, &c);
    else
        rc = validate_print(stdout, &r, 0);
    const int pass = pg_validate_pass(&r);
    if (!rc && a.json && strcmp(a.json, "-") != 0)
        pg_note("wrote %s (out-of-sample: %d of %d within the target: %s)", a.json, r.oos_both_ok, r.oos,
                pass ? "PASS" : "FAIL");
    pg_validate_report_free(&r);
    if (rc)
        return fail_usage("validate");
    return pass ? 0 : 1;
}

/* ------------------------------------------------------------- list, show */
static const char k_list_help[] = "usage: pegemm model list\n"
                                  "Every built-in schedule with its options (and their choices) and phases.\n";

static int print_schedule_summary(const char *name)
{
    pg_schedule *s;
    if (pg_schedule_load(name, &s))
        return -1;
    printf("%-14s options:", name);
    for (int i = 0; i < s->noptions; i++)
        printf(" %s=%s%s%s%s", s->options[i].name, s->options[i].value, s->options[i].choices[0] ? " (" : "",
               s->options[i].choices, s->options[i].choices[0] ? ")" : "");
    printf("\n%-14s phases:", "");
    for (int i = 0; i < s->ndists; i++)
        printf(" %s", s->dists[i].name);
    printf("\n");
    pg_schedule_free(s);
    return 0;
}

static int cmd_list(int argc, char **argv)
{
    cli_args a;
    int pr = parse_args(argc, argv, "model list", NULL, 0, k_list_help, &a);
    if (pr)
        return pr == 1 ? 0 : 2;
    if (a.npos)
        return pg_fail("unexpected argument '%s'", a.positional[0]), fail_usage("list");
    /* strtok_r: loading a schedule runs strtok itself (the parser), which
     * with a plain strtok here ended the list after its first name */
    char names[256], *save = NULL;
    snprintf(names, sizeof names, "%s", sch_builtin_names());
    for (char *nm = strtok_r(names, ", ", &save); nm; nm = strtok_r(NULL, ", ", &save))
        if (print_schedule_summary(nm))
            return fail_usage("list");
    return 0;
}

static const char k_show_help[] = "usage: pegemm model show --schedule NAME [--set P=V]... [--delta P=V]...\n"
                                  "Print the schedule file (with the overrides applied) in the .sched format.\n";

static const pg_cli_opt k_show_opts[] = {O_SCHEDULE, O_SET, O_DELTA};

static int cmd_show(int argc, char **argv)
{
    cli_args a;
    pg_schedule *s;
    int pr = parse_args(argc, argv, "model show", k_show_opts, PG_CLI_COUNT(k_show_opts), k_show_help, &a);
    if (pr)
        return pr == 1 ? 0 : 2;
    if (a.npos)
        return pg_fail("unexpected argument '%s'", a.positional[0]), fail_usage("show");
    if (load_with_overrides(&a, &s, NULL))
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
               "  validate     fit on one run, predict your other runs from what differs, hold them to the target\n"
               "  validate-delays  fit on a zero-delay trace, predict an --epi-delay sweep, compare\n"
               "  list         built-in schedules, their options and phases\n"
               "  show         print a schedule (with overrides) as a .sched file\n"
               "  contest      predict and rank a design contest (designs x machines x shapes), measured beside it\n");
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
    if (strcmp(c, "validate") == 0)
        return cmd_validate(argc - 1, argv + 1);
    if (strcmp(c, "validate-delays") == 0)
        return cmd_validate_delays(argc - 1, argv + 1);
    if (strcmp(c, "list") == 0)
        return cmd_list(argc - 1, argv + 1);
    if (strcmp(c, "show") == 0)
        return cmd_show(argc - 1, argv + 1);
    if (strcmp(c, "contest") == 0)
        return pg_model_cmd_contest(argc - 1, argv + 1);
    fprintf(stderr, "pegemm model: unknown command '%s'\n\n", c);
    usage(stderr);
    return 2;
}
