/* The verify, trace and demo commands end to end: exit status 0 / 1 / 2,
 * well-formed JSON and SVG outputs, and no output file after bad input.
 * pg_have_kernel and pg_cmd_run are test doubles here (kernel/ builds after
 * verify/): the demo's GPU path runs against a fake kernel run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli_call.h"

#include "commands.h"
#include "gemm.h"
#include "inputs.h"
#include "pg_error.h"
#include "runfile.h"
#include "wellformed.h"

static char g_dir[128];
static char g_good[256], g_flipped[256], g_traced[256], g_impossible[256], g_probe[256];

/* ---- test doubles for kernel/ ---- */
static int g_fake_gpu;
static int g_fake_runs;

int pg_have_kernel(void) { return g_fake_gpu; }

/* "runs the kernel": copies the good run to the --out path */
int pg_cmd_run(int argc, char **argv)
{
    g_fake_runs++;
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--output") == 0) {
            char cmd[1024];
            snprintf(cmd, sizeof cmd, "cp '%s' '%s'", g_good, argv[i + 1]);
            return system(cmd) == 0 ? 0 : 2;
        }
    return 2;
}

/* ---- fixtures ---- */

static void path_in(char *out, size_t n, const char *name) { snprintf(out, n, "%s/%s", g_dir, name); }

static void make_outputs(pg_run *run, const char *rows_spec)
{
    memset(run, 0, sizeof *run);
    pg_shape s = {.M = 1280, .N = 64, .K = 128, .P = 196};
    assert_int_equal(pg_problem_generate(&run->problem, s, PG_FAM_BAND, 5), 0);
    run->mode = PG_ACC_SM90;
    run->epilogue = PG_EPI_DOUBLE;
    assert_int_equal(pg_rows_parse(rows_spec, s.M, 5, &run->rows, &run->nrows), 0);
    run->D = malloc((size_t)(run->nrows * s.N) * sizeof *run->D);
    assert_non_null(run->D);
    assert_int_equal(pg_gemm_ref(&run->problem, run->mode, run->epilogue, run->rows, run->nrows, run->D, NULL, NULL), 0);
}

/* a small possible ping-pong trace: 2 SMs x 10 tiles (at K = 128 the ring
 * of 4 stages reuses a slot 4 tiles back, so a fit has 6 tiles per SM
 * whose every event the trace holds; docs/experiments.md M75) */
static void add_trace(pg_run *run, int impossible)
{
    pg_kernel_info *k = &run->kernel;
    k->present = 1;
    snprintf(k->name, sizeof k->name, "h100-pingpong");
    snprintf(k->device, sizeof k->device, "test");
    k->sm_count = 2, k->sm_clock_hz = 1.7e9, k->tile_m = 64, k->tile_n = 64, k->tile_k = 128, k->stages = 4;
    k->consumers = 2, k->trace_build = 1;
    const int sms = 2, per = 10, phases = 7;
    assert_int_equal(pg_trace_alloc(&run->trace, sms * per * phases, sms), 0);
    pg_vocab_pegemm(&run->trace.vocab);
    pg_trace *t = &run->trace;
    int64_t n = 0;
    for (int s = 0; s < sms; s++) {
        t->anchor_clock[s] = 5000 * (s + 1);
        t->anchor_globaltimer_ns[s] = 1000000 + 10 * s;
        int64_t wg[2] = {t->anchor_clock[s], t->anchor_clock[s]}, prod = t->anchor_clock[s], tc = t->anchor_clock[s];
        for (int j = 0; j < per; j++) {
            int tile = s + sms * j, w = j % 2;
            static const pg_phase cph[5] = {PG_PH_ORDER_WAIT, PG_PH_LOAD_WAIT, PG_PH_MAINLOOP, PG_PH_EPILOGUE_REGS,
                                            PG_PH_EPILOGUE_STORE};
            int64_t start = wg[w] > tc ? wg[w] : tc;
            int64_t b[6] = {wg[w], start, start + 20, start + 20 + 3400, start + 20 + 3400 + 900, start + 20 + 3400 + 940};
            for (int p = 0; p < 5; p++) {
                t->sm[n] = s, t->role[n] = PG_ROLE_CONSUMER, t->warp[n] = w, t->tile[n] = tile;
                t->phase[n] = (uint8_t)cph[p], t->begin[n] = b[p], t->end[n] = b[p + 1];
                n++;
            }
            tc = b[3];
            wg[w] = b[5];
            t->sm[n] = s, t->role[n] = PG_ROLE_PRODUCER, t->warp[n] = 0, t->tile[n] = tile;
            t->phase[n] = PG_PH_PRODUCER_WAIT, t->begin[n] = prod, t->end[n] = prod + 10;
            n++;
            t->sm[n] = s, t->role[n] = PG_ROLE_PRODUCER, t->warp[n] = 0, t->tile[n] = tile;
            t->phase[n] = PG_PH_PRODUCER_ISSUE, t->begin[n] = prod + 10, t->end[n] = prod + 1500;
            n++;
            prod += 1500 > b[3] - prod ? 1500 : b[3] - prod;
        }
    }
    assert_int_equal(n, t->n);
    if (impossible) /* the first mainloop begins before its load wait ends (a file whose
                       interval ends before it begins is refused by the reader) */
        for (int64_t i = 0; i < t->n; i++)
            if (t->phase[i] == PG_PH_MAINLOOP) {
                t->begin[i] -= 5;
                break;
            }
}

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/pg_test_cli_XXXXXX");
    if (!mkdtemp(g_dir))
        return -1;
    pg_run run;
    path_in(g_good, sizeof g_good, "good.h5");
    path_in(g_flipped, sizeof g_flipped, "flipped.h5");
    path_in(g_traced, sizeof g_traced, "traced.h5");
    path_in(g_impossible, sizeof g_impossible, "impossible.h5");
    path_in(g_probe, sizeof g_probe, "probe.h5");
    make_outputs(&run, "sample:50");
    if (pg_run_write(g_good, &run, 0) != 0)
        return -1;
    run.D[3 * 64 + 9] ^= 0x0040;
    if (pg_run_write(g_flipped, &run, 0) != 0)
        return -1;
    pg_run_free(&run);
    make_outputs(&run, "sample:20");
    add_trace(&run, 0);
    if (pg_run_write(g_traced, &run, 0) != 0)
        return -1;
    pg_run_free(&run);
    make_outputs(&run, "sample:20");
    add_trace(&run, 0);
    run.kernel.epi_delay = 400; /* a model probe run (the trace itself is the same) */
    if (pg_run_write(g_probe, &run, 0) != 0)
        return -1;
    pg_run_free(&run);
    make_outputs(&run, "sample:20");
    add_trace(&run, 1);
    if (pg_run_write(g_impossible, &run, 0) != 0)
        return -1;
    pg_run_free(&run);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

static int exists(const char *p) { return access(p, F_OK) == 0; }

static void assert_json_file(const char *path, const char *key, const char *value, long min_hits)
{
    size_t len;
    char *text = read_whole_file(path, &len);
    assert_non_null(text);
    json_stats st = {.count_key = key, .count_value = value};
    char err[200];
    int rc = json_validate(text, len, &st, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "%s: %s\n", path, err);
    assert_int_equal(rc, 0);
    if (key)
        assert_true(st.key_value_hits >= min_hits);
    free(text);
}

static void assert_svg_file(const char *path)
{
    char err[400];
    if (svg_file_validate(path, 0, err, sizeof err) != 0)
        fail_msg("%s", err);
}

/* ---- verify outputs ---- */

static void test_verify_outputs_status(void **state)
{
    (void)state;
    char json[256], svg[256], nodir[256];
    path_in(json, sizeof json, "out.json");
    path_in(svg, sizeof svg, "ulp.svg");
    assert_int_equal(call(pg_cmd_verify, "verify", "outputs", g_good, "--json", json, "--svg", svg, NULL), 0);
    assert_json_file(json, "mode", "sm90", 1);
    assert_svg_file(svg);
    unlink(json);
    assert_int_equal(call(pg_cmd_verify, "verify", "outputs", g_flipped, "--json", json, NULL), 1);
    assert_json_file(json, NULL, NULL, 0);
    unlink(json);
    /* the wrong epilogue is a mismatch, not bad input */
    assert_int_equal(call(pg_cmd_verify, "verify", "outputs", g_good, "--epilogue", "single", NULL), 1);
    assert_int_equal(call(pg_cmd_verify, "verify", "outputs", g_good, "--sample", "7", NULL), 0);
    /* bad input: exit 2 and no output file */
    assert_int_equal(call(pg_cmd_verify, "verify", "outputs", g_good, "--mode", "fp33", "--json", json, NULL), 2);
    assert_false(exists(json));
    assert_int_equal(call(pg_cmd_verify, "verify", "outputs", "/nonexistent/run.h5", "--json", json, NULL), 2);
    assert_false(exists(json));
    path_in(nodir, sizeof nodir, "no/such/dir/out.json");
    assert_int_equal(call(pg_cmd_verify, "verify", "outputs", g_good, "--json", nodir, NULL), 2);
    assert_int_equal(call(pg_cmd_verify, "verify", "outputs", NULL), 2);
    assert_int_equal(call(pg_cmd_verify, "verify", "outputs", g_good, "--bogus", NULL), 2);
    assert_int_equal(call(pg_cmd_verify, "verify", "nonsense", NULL), 2);
    assert_int_equal(call(pg_cmd_verify, "verify", "--help", NULL), 0);
}

static void test_verify_modes(void **state)
{
    (void)state;
    char json[256], svg[256];
    path_in(json, sizeof json, "modes.json");
    path_in(svg, sizeof svg, "modes.svg");
    assert_int_equal(call(pg_cmd_verify, "verify", "modes", "--problem", "196,64,96,196", "--family", "codes", "--seed",
                          "3", "--json", json, "--svg", svg, NULL),
                     0);
    /* 5 modes x 2 epilogues */
    assert_json_file(json, "epilogue", "single", 5);
    assert_svg_file(svg);
    unlink(json);
    assert_int_equal(call(pg_cmd_verify, "verify", "modes", "--problem", "0,64,96,196", "--json", json, NULL), 2);
    assert_false(exists(json));
    assert_int_equal(call(pg_cmd_verify, "verify", "modes", "--problem", "196,64,96", "--family", "nope", NULL), 2);
    assert_int_equal(call(pg_cmd_verify, "verify", "modes", "--input", g_good, "--rows", "0:10", NULL), 0);
}

/* ---- verify trace ---- */

static void test_verify_trace_impossible(void **state)
{
    (void)state;
    char json[256];
    path_in(json, sizeof json, "trace.json");
    assert_int_equal(call(pg_cmd_verify, "verify", "trace", g_impossible, "--json", json, NULL), 1);
    assert_json_file(json, NULL, NULL, 0);
    size_t len;
    char *text = read_whole_file(json, &len);
    assert_non_null(strstr(text, "\"impossible\": 2")); /* the shifted mainloop breaks two order checks */
    assert_non_null(strstr(text, "\"model\": null"));
    free(text);
    unlink(json);
    /* a run without a trace is bad input */
    assert_int_equal(call(pg_cmd_verify, "verify", "trace", g_good, "--json", json, NULL), 2);
    assert_false(exists(json));
    assert_int_equal(call(pg_cmd_verify, "verify", "trace", g_traced, "--tolerance", "abc", NULL), 2);
}

static void test_verify_trace_fitted(void **state)
{
    (void)state;
    char json[256], svg[256];
    path_in(json, sizeof json, "trace2.json");
    path_in(svg, sizeof svg, "timeline.svg");
    /* the verdict depends on the model; the outputs must be well formed either way */
    int rc = call(pg_cmd_verify, "verify", "trace", g_traced, "--json", json, "--timeline", svg, "--tiles", "500", NULL);
    assert_true(rc == 0 || rc == 1);
    assert_json_file(json, "name", "tile_period", 1);
    assert_svg_file(svg);
}

/* ---- trace export ---- */

static void test_trace_export(void **state)
{
    (void)state;
    char out[256];
    path_in(out, sizeof out, "t.chrome.json");
    assert_int_equal(call(pg_cmd_trace, "trace", "export", "--chrome", g_traced, "--output", out, NULL), 0);
    assert_json_file(out, "ph", "X", 2 * 6 * 7);
    unlink(out);
    assert_int_equal(call(pg_cmd_trace, "trace", "export", "--chrome", g_good, "--output", out, NULL), 2);
    assert_false(exists(out));
    assert_int_equal(call(pg_cmd_trace, "trace", "export", g_traced, "--output", out, NULL), 2);
    assert_false(exists(out));
}

/* ---- error messages: one line naming the problem once ---- */

static int count_in(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

/* pg_run_read already names the file; `pegemm ref --input X` said
 * "reading X: X: ..." before. */
static void test_ref_input_errors(void **state)
{
    (void)state;
    char out[256], trunc[256], cmd[600];
    path_in(out, sizeof out, "ref_out.h5");
    assert_int_equal(call(pg_cmd_ref, "ref", "--input", "/nonexistent/in.h5", "--mode", "sm90", "--output", out, NULL), 2);
    assert_int_equal(count_in(pg_last_error(), "/nonexistent/in.h5"), 1);
    assert_null(strstr(pg_last_error(), "reading"));
    assert_false(exists(out));
    path_in(trunc, sizeof trunc, "truncated.h5");
    snprintf(cmd, sizeof cmd, "head -c 3000 '%s' > '%s'", g_good, trunc);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(call(pg_cmd_ref, "ref", "--input", trunc, "--mode", "sm90", "--output", out, NULL), 2);
    assert_int_equal(count_in(pg_last_error(), trunc), 1);
    assert_non_null(strstr(pg_last_error(), "not an HDF5 file or truncated"));
    assert_false(exists(out));
    assert_int_equal(call(pg_cmd_ref, "ref", "--input", g_good, "--mode", "bogus", "--output", out, NULL), 2);
    assert_non_null(strstr(pg_last_error(), "'bogus'"));
    assert_false(exists(out));
    assert_int_equal(call(pg_cmd_ref, "ref", "--problem", "0,768,768,196", "--mode", "sm90", "--output", out, NULL), 2);
    assert_string_equal(pg_last_error(), "bad shape '0,768,768,196': M = 0 (must be >= 1)");
    assert_false(exists(out));
    assert_int_equal(call(pg_cmd_ref, "ref", "--input", g_good, "--mode", "sm90", "--rows", "0:4", "--output",
                          "/nonexistent/dir/o.h5", NULL),
                     2);
    assert_int_equal(count_in(pg_last_error(), "/nonexistent/dir/o.h5"), 1);
    /* refused before the (long) computation, not after it */
    assert_non_null(strstr(pg_last_error(), "checked before computing"));
    assert_int_equal(call(pg_cmd_inputs, "inputs", "--problem", "8,8,8", "--output", "/nonexistent/dir/i.h5", NULL), 2);
    assert_non_null(strstr(pg_last_error(), "checked before computing"));
    assert_int_equal(call(pg_cmd_ref, "ref", "--input", g_good, "--mode", "sm90", "--output", "/tmp", NULL), 2);
    assert_non_null(strstr(pg_last_error(), "is a directory"));
    assert_int_equal(call(pg_cmd_inputs, "inputs", "--problem", "0,8,8", "--output", out, NULL), 2);
    assert_int_equal(count_in(pg_last_error(), "shape"), 1);
    assert_false(exists(out));
}

/* `trace export` said "RUN: cannot create OUT" for an output it could not
 * make, and "RUN: OUT: the run has no trace" for a run without one. */
static void test_trace_export_errors(void **state)
{
    (void)state;
    char out[256];
    path_in(out, sizeof out, "e.chrome.json");
    assert_int_equal(call(pg_cmd_trace, "trace", "export", "--chrome", g_good, "--output", out, NULL), 2);
    assert_int_equal(count_in(pg_last_error(), g_good), 1);
    assert_int_equal(count_in(pg_last_error(), out), 0);
    assert_non_null(strstr(pg_last_error(), "no trace"));
    assert_false(exists(out));
    assert_int_equal(
        call(pg_cmd_trace, "trace", "export", "--chrome", g_traced, "--output", "/nonexistent/dir/t.json", NULL), 2);
    assert_int_equal(count_in(pg_last_error(), "/nonexistent/dir/t.json"), 1);
    assert_int_equal(count_in(pg_last_error(), g_traced), 0);
    assert_int_equal(call(pg_cmd_trace, "trace", "export", "--chrome", "/nonexistent/run.h5", NULL), 2);
    assert_int_equal(count_in(pg_last_error(), "/nonexistent/run.h5"), 1);
    assert_false(exists("/nonexistent/run.chrome.json"));
    /* a file that is not HDF5, through verify as well */
    char text[256];
    path_in(text, sizeof text, "not_hdf5.txt");
    FILE *f = fopen(text, "w");
    assert_non_null(f);
    fputs("hello\n", f);
    fclose(f);
    assert_int_equal(call(pg_cmd_verify, "verify", "outputs", text, NULL), 2);
    assert_int_equal(count_in(pg_last_error(), text), 1);
    assert_non_null(strstr(pg_last_error(), "not an HDF5 file"));
}

/* ---- demo ---- */

static void test_demo(void **state)
{
    (void)state;
    char runs[256], report[256], f[2048];
    path_in(runs, sizeof runs, "runs");
    path_in(report, sizeof report, "report");
    assert_int_equal(mkdir(runs, 0755), 0);
    snprintf(f, sizeof f, "cp '%s' '%s' '%s/' && mkdir '%s/sweep' && cp '%s' '%s/sweep/'", g_good, g_traced, runs, runs,
             g_probe, runs);
    assert_int_equal(system(f), 0);
    g_fake_gpu = 1; /* the GPU path: a "fresh" run first */
    int rc = call(pg_cmd_demo, "demo", "--quick", "--runs", runs, "--report", report, NULL);
    g_fake_gpu = 0;
    assert_true(rc == 0 || rc == 1); /* the model's verdict on a synthetic trace may be either */
    assert_int_equal(g_fake_runs, 1);
    static const char *const files[] = {"index.html", "summary.txt", "demo.json", "modes.svg", "f38-b200.svg",
                                        "ulp-good.svg", "ulp-fresh-run.svg", "chrome-traced.json", "fresh-run.h5",
                                        "sweep-epi-delay.svg", "timeline-sweep-probe.svg", "f38-timeline.svg"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(f, sizeof f, "%s/%s", report, files[i]);
        if (!exists(f))
            fail_msg("the demo did not write %s", f);
    }
    snprintf(f, sizeof f, "%s/demo.json", report);
    assert_json_file(f, "run", NULL, 0);
    static const char *const svgs[] = {"modes.svg", "f38-b200.svg", "ulp-good.svg", "ulp-traced.svg",
                                       "sweep-epi-delay.svg", "timeline-traced.svg", "f38-timeline.svg"};
    for (size_t i = 0; i < sizeof svgs / sizeof svgs[0]; i++) {
        snprintf(f, sizeof f, "%s/%s", report, svgs[i]);
        assert_svg_file(f);
    }
    snprintf(f, sizeof f, "%s/chrome-traced.json", report);
    assert_json_file(f, "ph", "X", 2 * 6 * 7);
    /* probe runs get no Chrome trace of their own */
    snprintf(f, sizeof f, "%s/chrome-sweep-probe.json", report);
    assert_false(exists(f));
    snprintf(f, sizeof f, "%s/index.html", report);
    size_t len;
    char *html = read_whole_file(f, &len);
    assert_non_null(strstr(html, "modes.svg"));
    assert_non_null(strstr(html, "f38-b200.svg"));
    /* issue 12's target on bres's held-out sweep, reported beside the checks */
    assert_non_null(strstr(html, "Held out: bres"));
    free(html);
    snprintf(f, sizeof f, "%s/demo.json", report);
    char *json = read_whole_file(f, &len);
    const char *held = strstr(json, "\"held_out\":");
    assert_non_null(held);
    assert_non_null(strstr(held, "\"out_of_sample_runs\": 9"));
    free(json);

    /* a corrupted run fails the demo (exit 1) but the report is still written */
    snprintf(f, sizeof f, "%s/flipped.h5", runs);
    snprintf(f, sizeof f, "cp '%s' '%s/flipped.h5'", g_flipped, runs);
    assert_int_equal(system(f), 0);
    assert_int_equal(call(pg_cmd_demo, "demo", "--quick", "--runs", runs, "--report", report, NULL), 1);
    /* no runs at all: bad input */
    assert_int_equal(call(pg_cmd_demo, "demo", "--quick", "--runs", "/nonexistent", "--report", report, NULL), 2);
    assert_int_equal(call(pg_cmd_demo, "demo", "--bogus", NULL), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_verify_outputs_status),
        cmocka_unit_test(test_verify_modes),
        cmocka_unit_test(test_verify_trace_impossible),
        cmocka_unit_test(test_verify_trace_fitted),
        cmocka_unit_test(test_trace_export),
        cmocka_unit_test(test_demo),
        cmocka_unit_test(test_ref_input_errors),
        cmocka_unit_test(test_trace_export_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
