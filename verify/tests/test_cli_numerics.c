/* The general problem end to end through the CLI (issue 13): pegemm inputs
 * with E4M3 x E5M2, row-wise scales and a bias -> pegemm ref with the
 * torch-cutlass-rowwise preset -> verify outputs PASS; a corrupted element
 * FAILs with exit 1 (and the SVG says FAIL and names the file); a 1-ulp
 * perturbation fails bit-exact and passes --tolerance ulp:2; fp16 and fp32
 * outputs of a plain GEMM; usage errors exit 2 and write nothing. */
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

#include "commands.h"
#include "pg_error.h"
#include "runfile.h"
#include "scaled.h"

/* test doubles for kernel/ (the demo in pg_verify refers to them) */
int pg_have_kernel(void) { return 0; }
int pg_cmd_run(int argc, char **argv)
{
    (void)argc, (void)argv;
    return 2;
}

static char g_dir[128];

static const char *path_in(const char *name)
{
    static char buf[4][256];
    static int next;
    char *p = buf[next++ % 4];
    snprintf(p, 256, "%s/%s", g_dir, name);
    return p;
}

/* argv from a NULL-terminated list; runs one subcommand in process */
static int run_cmd(int (*cmd)(int, char **), ...)
{
    char *argv[32];
    int argc = 0;
    va_list ap;
    va_start(ap, cmd);
    const char *a;
    while ((a = va_arg(ap, const char *)) != NULL && argc < 31)
        argv[argc++] = (char *)a;
    va_end(ap);
    argv[argc] = NULL;
    fflush(stdout);
    return cmd(argc, argv);
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static int file_contains(const char *path, const char *needle)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strstr(buf, needle) != NULL;
}

/* Copy `from` to `to` with D[k] changed by `delta` (bits of a 16-bit or
 * 32-bit output). */
static void perturb(const char *from, const char *to, int64_t k, int32_t delta)
{
    pg_run run;
    assert_int_equal(pg_run_read(from, &run, PG_READ_ALL), 0);
    if (run.D32)
        run.D32[k] = (uint32_t)((int64_t)run.D32[k] + delta);
    else
        run.D[k] = (uint16_t)(run.D[k] + delta);
    if (pg_run_write(to, &run, run.problem_stored) != 0)
        fail_msg("writing %s: %s", to, pg_last_error());
    pg_run_free(&run);
}

static void test_rowwise_e5m2_round_trip(void **state)
{
    (void)state;
    const char *in = path_in("in.h5"), *ref = path_in("ref.h5");
    assert_int_equal(run_cmd(pg_cmd_inputs, "inputs", "--problem", "192,96,400,0", "--fmt-a", "e4m3", "--fmt-b",
                             "e5m2", "--scale", "rowcol", "--bias", "bf16", "--seed", "4", "-o", in, NULL),
                     0);
    assert_int_equal(run_cmd(pg_cmd_ref, "ref", "--input", in, "--mode", "sm90-promote", "--library",
                             "torch-cutlass-rowwise", "-o", ref, NULL),
                     0);
    pg_run run;
    assert_int_equal(pg_run_read(ref, &run, PG_READ_ALL), 0);
    assert_int_equal(run.problem.fmt_b, PG_FMT_E5M2);
    assert_int_equal(run.problem.scale, PG_SCALE_ROWCOL);
    assert_true(run.problem.has_bias);
    assert_int_equal(run.problem.shape.P, 0);
    assert_null(run.problem.combined);
    assert_string_equal(run.library, "torch-cutlass-rowwise");
    assert_int_equal(run.mode, PG_ACC_SM90_PROMOTE);
    assert_int_equal(run.accum.promote_k, 128);
    pg_run_free(&run);
    assert_int_equal(run_cmd(pg_cmd_verify, "verify", "outputs", ref, NULL), 0);
    /* the other library order is not the same computation */
    assert_int_equal(run_cmd(pg_cmd_verify, "verify", "outputs", ref, "--library", "torch-cublaslt", NULL), 1);

    const char *bad = path_in("bad.h5"), *svg = path_in("bad.svg");
    perturb(ref, bad, 17, 0x100);
    assert_int_equal(run_cmd(pg_cmd_verify, "verify", "outputs", bad, "--svg", svg, NULL), 1);
    assert_true(file_contains(svg, "FAIL: "));
    assert_true(file_contains(svg, bad));

    const char *ulp = path_in("ulp.h5");
    perturb(ref, ulp, 40, 1);
    assert_int_equal(run_cmd(pg_cmd_verify, "verify", "outputs", ulp, NULL), 1);
    assert_int_equal(run_cmd(pg_cmd_verify, "verify", "outputs", ulp, "--tolerance", "ulp:2", NULL), 0);
    assert_int_equal(run_cmd(pg_cmd_verify, "verify", "outputs", ulp, "--tolerance", "ulp:0", NULL), 1);
    assert_int_equal(run_cmd(pg_cmd_verify, "verify", "outputs", ulp, "--tolerance", "rel:0.05", NULL), 0);
    assert_int_equal(run_cmd(pg_cmd_verify, "verify", "outputs", bad, "--tolerance", "ulp:2", NULL), 1);
}

/* fp16 and fp32 outputs of generated plain GEMMs (P = 0), block and MX
 * scales, a custom accumulation set; each verifies and fails when flipped. */
static void test_output_types(void **state)
{
    (void)state;
    struct {
        const char *name, *out, *scale, *bias, *mode;
    } cases[] = {
        {"f16.h5", "fp16", "tensor", "fp16", "sm90"},
        {"f32.h5", "fp32", "block", "none", "exact"},
        {"mx.h5", "bf16", "mx", "bf16", "sm100"},
        {"cu.h5", "fp32", "none", "none", "sm90,promote_k=64"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char flip_name[32];
        snprintf(flip_name, sizeof flip_name, "flip%zu.h5", i); /* a file once read is never an output again */
        const char *ref = path_in(cases[i].name), *flip = path_in(flip_name);
        assert_int_equal(run_cmd(pg_cmd_ref, "ref", "--problem", "130,72,256,0", "--family", "codes", "--out-dtype",
                                 cases[i].out, "--scale", cases[i].scale, "--bias", cases[i].bias, "--mode",
                                 cases[i].mode, "--rows", "sample:40", "-o", ref, NULL),
                         0);
        assert_int_equal(run_cmd(pg_cmd_verify, "verify", "outputs", ref, NULL), 0);
        perturb(ref, flip, 3, 0x40);
        assert_int_equal(run_cmd(pg_cmd_verify, "verify", "outputs", flip, NULL), 1);
    }
    pg_run run;
    assert_int_equal(pg_run_read(path_in("cu.h5"), &run, PG_READ_OUTPUT), 0);
    assert_int_equal(run.mode_custom, 1);
    assert_int_equal(run.accum.promote_k, 64);
    assert_non_null(run.D32);
    pg_run_free(&run);
}

static void test_usage_errors(void **state)
{
    (void)state;
    const char *x = path_in("x.h5");
    /* combined is a bf16 add */
    assert_int_equal(run_cmd(pg_cmd_inputs, "inputs", "--problem", "64,64,64", "--out-dtype", "fp16", "-o", x, NULL),
                     2);
    assert_int_equal(run_cmd(pg_cmd_inputs, "inputs", "--problem", "64,64,64,0", "--scale", "rows", "-o", x, NULL), 2);
    assert_int_equal(run_cmd(pg_cmd_inputs, "inputs", "--problem", "64,64,40,0", "--scale", "mx", "-o", x, NULL), 2);
    assert_false(exists(x));
    /* the input file says its own terms */
    assert_int_equal(run_cmd(pg_cmd_ref, "ref", "--input", path_in("in.h5"), "--scale", "tensor", "--mode", "sm90",
                             "-o", x, NULL),
                     2);
    assert_int_equal(run_cmd(pg_cmd_ref, "ref", "--problem", "64,64,64", "--mode", "sm90,F=x", "-o", x, NULL), 2);
    assert_int_equal(run_cmd(pg_cmd_ref, "ref", "--problem", "64,64,64", "--mode", "sm90", "--library", "cutlass",
                             "-o", x, NULL),
                     2);
    assert_false(exists(x));
    assert_int_equal(run_cmd(pg_cmd_verify, "verify", "outputs", path_in("ref.h5"), "--tolerance", "ulp:-1", NULL), 2);
    assert_int_equal(run_cmd(pg_cmd_verify, "verify", "outputs", path_in("ref.h5"), "--tolerance", "rel:x", NULL), 2);
}

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/pg_numerics_cli_%d", (int)getpid());
    return mkdir(g_dir, 0700);
}

static int teardown(void **state)
{
    (void)state;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    setenv("PEGEMM_PROGRESS_SECONDS", "1000", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rowwise_e5m2_round_trip),
        cmocka_unit_test(test_output_types),
        cmocka_unit_test(test_usage_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
