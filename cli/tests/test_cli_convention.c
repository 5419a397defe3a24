/* The command-line convention, end to end on the built `pegemm` binary
 * (argv[1]): unknown and inapplicable options exit 2, --help exits 0 and
 * does no work on every subcommand, model fit uses --schedule, model list
 * shows every schedule, run/bench without a GPU exit 2 after checking the
 * shape (so do dual run/bench), -o/--shape work everywhere, progress and summaries reach stderr
 * when it is a file, and --quiet silences them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli_harness.h"

/* `ENV pegemm ARGS` in g_dir; the exit status. */
static int pegemm(const char *env, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = pegemm_v(env, fmt, ap);
    va_end(ap);
    return rc;
}

/* Every subcommand, as it is called. */
static const char *const k_commands[] = {
    "inputs", "ref", "bench-ref", "run", "bench", "model predict", "model sweep", "model fit", "model list",
    "model show", "model import-seed", "model validate", "model validate-delays", "verify outputs", "verify modes",
    "verify trace", "trace export", "demo", "dual run", "dual bench", "dual ref", "dual check",
};
#define NCOMMANDS (sizeof k_commands / sizeof k_commands[0])

static void test_unknown_option(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCOMMANDS; i++) {
        int rc = pegemm(NULL, "%s --no-such-option", k_commands[i]);
        if (rc != 2)
            fail_msg("pegemm %s --no-such-option: exit %d, want 2\n%s", k_commands[i], rc, g_err);
        assert_contains(g_err, "--no-such-option");
    }
}

static void test_inapplicable_option(void **state)
{
    (void)state;
    /* sweep's options elsewhere (they were silently ignored by fit) */
    static const char *const cases[] = {
        "model fit run.h5 --vary phase1.mean", "model fit run.h5 --points 5", "model fit run.h5 --svg x.svg",
        "model predict --schedule h100-pingpong --vary x", "model list --schedule h100-pingpong",
        "inputs --shape 64,64,64 -o a.h5 --mode exact", "run --ablate", "ref --shape 64,64,64 --mode exact -o a.h5 --svg s",
        "model fit run.h5 --deterministic",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = pegemm(NULL, "%s", cases[i]);
        if (rc != 2)
            fail_msg("pegemm %s: exit %d, want 2\n%s", cases[i], rc, g_err);
        assert_contains(g_err, "pegemm ");
        assert_contains(g_err, "--help");
    }
    assert_false(exists("a.h5"));
    /* a missing value names the option */
    assert_int_equal(pegemm(NULL, "ref --mode"), 2);
    assert_contains(g_err, "'--mode' needs a value");
}

static void test_help_does_no_work(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCOMMANDS; i++) {
        /* --help after real work options (and a bad one): usage, exit 0, nothing written */
        int rc = pegemm(NULL, "%s --output help.out --help --no-such-option", k_commands[i]);
        if (rc != 0)
            fail_msg("pegemm %s --help: exit %d, want 0\n%s", k_commands[i], rc, g_err);
        assert_contains(g_out, "usage");
        assert_false(exists("help.out"));
        assert_int_equal(pegemm(NULL, "%s -h", k_commands[i]), 0);
        assert_contains(g_out, "usage");
    }
    assert_int_equal(pegemm(NULL, "ref --shape 64,64,64 --mode exact -o h.h5 --help"), 0);
    assert_false(exists("h.h5"));
    /* model list --help printed the list before */
    assert_int_equal(pegemm(NULL, "model list --help"), 0);
    assert_contains(g_out, "usage: pegemm model list");
    assert_null(strstr(g_out, "h100-pingpong"));
}

static void test_model_list_all(void **state)
{
    (void)state;
    assert_int_equal(pegemm(NULL, "model list"), 0);
    assert_contains(g_out, "b200-seed ");
    assert_contains(g_out, "h100-pingpong ");
}

static void test_model_fit_schedule(void **state)
{
    (void)state;
    const char *run = PG_SOURCE_DIR "/traces/runs/epi_sweep/h100_epi_00000.h5";
    assert_int_equal(pegemm(NULL, "model fit %s --tiles 2000", run), 0);
    /* the calibration's start-up transient, as the `warmup` line measured it */
    assert_contains(g_out, "start-up transient (warmup): the first 8 / 16 / 32 tile gaps per unit take");
    static char plain[sizeof g_out];
    memcpy(plain, g_out, sizeof plain);
    /* a schedule file with another store drain: the fit uses it (its prior
     * steers which of order_wait's two dependencies is taken as binding; an
     * order handover's prior no longer shows: the censored estimate of
     * docs/model.md does not depend on where it starts) */
    assert_int_equal(pegemm(NULL, "model show --schedule h100-pingpong --set store_drain.mean=5000"), 0);
    char sched[256];
    path_in(sched, sizeof sched, "changed.sched");
    FILE *f = fopen(sched, "w");
    assert_non_null(f);
    fputs(g_out, f);
    fclose(f);
    assert_int_equal(pegemm(NULL, "model fit %s --tiles 2000 --schedule changed.sched", run), 0);
    assert_string_not_equal(plain, g_out);
    /* the same schedule by name: the same result as the default */
    assert_int_equal(pegemm(NULL, "model fit %s --tiles 2000 --schedule h100-pingpong", run), 0);
    assert_string_equal(plain, g_out);
    /* a schedule that does not fit this trace, or none by that name: refused */
    assert_int_equal(pegemm(NULL, "model fit %s --tiles 2000 --schedule b200-seed", run), 2);
    assert_contains(g_err, "b200-seed");
    assert_int_equal(pegemm(NULL, "model fit %s --schedule no-such-schedule", run), 2);
    assert_contains(g_err, "no-such-schedule");
    /* --json FILE; --format json is --json - */
    assert_int_equal(pegemm(NULL, "model fit %s --tiles 2000 --json fit.json", run), 0);
    assert_true(exists("fit.json"));
    assert_contains(g_err, "wrote fit.json");
    assert_int_equal(pegemm(NULL, "model predict --schedule h100-pingpong --tiles 1000 --format json"), 0);
    assert_int_equal(g_out[0], '{');
    /* --trace-out: the prediction as a trace, which the same commands read;
     * never over the run it came from */
    assert_int_equal(pegemm(NULL, "model predict --schedule h100-pingpong --tiles 1000 --trace-out pred.h5"), 0);
    assert_contains(g_err, "wrote pred.h5");
    assert_int_equal(pegemm(NULL, "model fit pred.h5 --tiles 2000"), 0);
    assert_int_equal(pegemm(NULL, "trace export --chrome pred.h5 -o pred.json"), 0);
    assert_true(exists("pred.json"));
    assert_int_equal(pegemm(NULL, "model fit %s --tiles 2000 --set epi_delay=800 --trace-out fitpred.h5", run), 0);
    assert_int_equal(pegemm(NULL, "model fit fitpred.h5 --tiles 2000"), 0);
    assert_contains(g_out, "epi_delay 800");
    assert_int_equal(pegemm(NULL, "model fit pred.h5 --tiles 2000 --trace-out pred.h5"), 2);
    assert_contains(g_err, "input file");
}

static int have_gpu(void) { return access("/dev/nvidia0", F_OK) == 0; }

static void test_run_without_gpu(void **state)
{
    (void)state;
    if (have_gpu())
        skip();
    for (int b = 0; b < 2; b++) {
        const char *cmd = b ? "bench" : "run";
        /* a bad shape is reported as such, before any GPU is looked for */
        assert_int_equal(pegemm(NULL, "%s --shape 0,768,768", cmd), 2);
        assert_null(strstr(g_err, "no CUDA GPU"));
        assert_contains(g_err, "M");
        /* a good one (-o and --shape accepted): no GPU, exit 2, nothing written */
        assert_int_equal(pegemm(NULL, "%s --shape 128,768,768 -o gpu.h5", cmd), 2);
        assert_contains(g_err, "no CUDA GPU");
        assert_false(exists("gpu.h5"));
        assert_int_equal(pegemm(NULL, "%s --problem 128,768,768 --output gpu.h5", cmd), 2);
        assert_contains(g_err, "no CUDA GPU");
    }
}

/* `pegemm dual run|bench`: arguments checked first (exit 2 naming the
 * problem, no GPU looked for), then without a GPU exit 2, nothing written;
 * the same in the CUDA build on a machine without a GPU and in the
 * reference-only build. */
static void test_dual_without_gpu(void **state)
{
    (void)state;
    static const char *const bad[][2] = {
        {"dual run --problem 1,250,256,256", "multiples of 128"},
        {"dual run --problem 1,256,256", "G,M,N,K"},
        {"dual run --design nope --problem 1,128,128,128", "nope"},
        {"dual run --out fp32 --problem 1,128,128,128", "fp32"},
        {"dual run --check --rows 0:999 --problem 1,128,128,128", "0:999"},
        {"dual run --rows all --problem 1,128,128,128", "--check"},
        {"dual run --energy --problem 1,128,128,128", "--energy"},
        {"dual bench --trace t.h5 --problem 1,128,128,128", "--trace"},
        {"dual bench --designs inter,inter --problem 1,128,128,128", "twice"},
        {"dual bench --reps 10 --rounds 20 --problem 1,128,128,128", "--rounds"},
        {"dual run", "--problem"},
        {"dual run --problem 1,128,128,128 --json no-such-dir/x.json", "no-such-dir"},
        {"dual frobnicate", "frobnicate"},
        {"dual", "usage"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = pegemm(NULL, "%s", bad[i][0]);
        if (rc != 2)
            fail_msg("pegemm %s: exit %d, want 2\n%s", bad[i][0], rc, g_err);
        assert_contains(g_err, bad[i][1]);
        assert_null(strstr(g_err, "no CUDA GPU"));
    }
    assert_int_equal(pegemm(NULL, "dual --help"), 0);
    assert_contains(g_out, "run");
    assert_contains(g_out, "bench");
    assert_int_equal(pegemm(NULL, "--help"), 0);
    assert_contains(g_out, "dual");
    if (have_gpu())
        skip();
    assert_int_equal(pegemm(NULL, "dual run --problem 1,128,128,128 --check --trace t.h5 --json r.json"), 2);
    assert_contains(g_err, "no CUDA GPU");
    assert_false(exists("t.h5"));
    assert_false(exists("r.json"));
    assert_int_equal(pegemm(NULL, "dual bench --problem 2,256,256,256 --designs seq --energy --json b.json"), 2);
    assert_contains(g_err, "no CUDA GPU");
    assert_false(exists("b.json"));
}

static void test_output_and_shape_everywhere(void **state)
{
    (void)state;
    assert_int_equal(pegemm(NULL, "inputs --shape 196,64,128 -o in.h5"), 0);
    assert_true(exists("in.h5"));
    assert_contains(g_err, "wrote in.h5");
    assert_int_equal(pegemm(NULL, "ref --shape 196,64,128 --mode sm90 -o ref.h5"), 0);
    assert_true(exists("ref.h5"));
    assert_contains(g_err, "wrote ref.h5 (196x64 bf16, sm90");
    assert_int_equal(pegemm(NULL, "ref --input in.h5 --mode exact --output ref2.h5"), 0);
    assert_true(exists("ref2.h5"));
    assert_int_equal(pegemm(NULL, "verify outputs ref.h5"), 0);
}

static void test_progress_redirected_and_quiet(void **state)
{
    (void)state;
    /* stderr is a file here; with a 0 s interval every update prints a line */
    assert_int_equal(pegemm("PEGEMM_PROGRESS_SECONDS=0", "ref --shape 2048,768,768 --mode sm90 -o big.h5"), 0);
    assert_contains(g_err, "generating inputs:");
    assert_contains(g_err, "ref sm90:");
    assert_contains(g_err, "compressing /output/D:");
    assert_contains(g_err, "writing big.h5:");
    assert_contains(g_err, "wrote big.h5 (2048x768 bf16, sm90");
    assert_null(strchr(g_err, '\r')); /* not a terminal: plain lines */
    assert_string_equal(g_out, "");
    /* --quiet (and -q): nothing on stderr, the file still written */
    assert_int_equal(pegemm("PEGEMM_PROGRESS_SECONDS=0", "ref --shape 2048,768,768 --mode sm90 -o big2.h5 --quiet"), 0);
    assert_string_equal(g_err, "");
    assert_true(exists("big2.h5"));
    assert_int_equal(pegemm("PEGEMM_PROGRESS_SECONDS=0", "inputs -q --shape 196,64,128 -o q.h5"), 0);
    assert_string_equal(g_err, "");
    /* errors are never quiet */
    assert_int_equal(pegemm(NULL, "ref -q --shape 2048,768,768 --mode nope -o big3.h5"), 2);
    assert_contains(g_err, "nope");
}

int main(int argc, char **argv)
{
    if (cli_harness_begin(argc, argv, "test_cli_convention", "pegemm_cli") != 0)
        return 2;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unknown_option),
        cmocka_unit_test(test_inapplicable_option),
        cmocka_unit_test(test_help_does_no_work),
        cmocka_unit_test(test_model_list_all),
        cmocka_unit_test(test_model_fit_schedule),
        cmocka_unit_test(test_run_without_gpu),
        cmocka_unit_test(test_dual_without_gpu),
        cmocka_unit_test(test_output_and_shape_everywhere),
        cmocka_unit_test(test_progress_redirected_and_quiet),
    };
    return cli_harness_end(cmocka_run_group_tests(tests, NULL, NULL));
}
