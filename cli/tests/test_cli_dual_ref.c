/* `pegemm dual ref` and `pegemm dual check` end to end on the built binary
 * (argv[1]), with or without CUDA (no GPU needed): ref writes the .npy files
 * and problem.json, check passes on ref's own C, fails (exit 1) on one
 * flipped bit naming that element, recomputes from inputs the user edited,
 * and bad usage exits 2 writing nothing. */
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

static const char *const k_files[] = {"A.npy",        "B1.npy", "B2.npy",      "scale_a.npy", "scale_b1.npy",
                                      "scale_b2.npy", "C.npy",  "problem.json"};
#define NFILES (sizeof k_files / sizeof k_files[0])

/* `pegemm ARGS` in g_dir; the exit status. */
static int pegemm(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = pegemm_v(NULL, fmt, ap);
    va_end(ap);
    return rc;
}

/* The file `name` (in g_dir) into a malloc'd buffer, NUL-terminated (one
 * byte past *n) so that text searches stay inside it. */
static unsigned char *load(const char *name, size_t *n)
{
    char p[256];
    path_in(p, sizeof p, name);
    FILE *f = fopen(p, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    *n = (size_t)ftell(f);
    rewind(f);
    unsigned char *b = malloc(*n + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, *n, f), *n);
    b[*n] = 0;
    fclose(f);
    return b;
}

static void store(const char *name, const unsigned char *b, size_t n)
{
    char p[256];
    path_in(p, sizeof p, name);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

/* Where a version 1.0 .npy file's data starts. */
static size_t data_offset(const unsigned char *b) { return 10 + (b[8] | (size_t)b[9] << 8); }

static void test_ref_then_check(void **state)
{
    (void)state;
    assert_int_equal(pegemm("dual ref --problem 2,128,256,256 --seed 7 --dir d"), 0);
    for (size_t i = 0; i < NFILES; i++) {
        char name[64];
        snprintf(name, sizeof name, "d/%s", k_files[i]);
        if (!exists(name))
            fail_msg("dual ref did not write %s", name);
    }
    assert_contains(g_err, "wrote");
    size_t n;
    unsigned char *j = load("d/problem.json", &n);
    assert_contains((char *)j, "\"mode\": \"sm90\"");
    assert_contains((char *)j, "Dual GEMM (SwiGLU)");
    free(j);
    unsigned char *c = load("d/C.npy", &n);
    assert_int_equal(n, data_offset(c) + 2 * 128 * 256 * 2);
    assert_int_equal(data_offset(c) % 64, 0);
    assert_contains((char *)c + 10, "'descr': '<u2'");
    assert_contains((char *)c + 10, "'shape': (2, 128, 256)");
    free(c);

    assert_int_equal(pegemm("dual check --dir d --got d/C.npy --json ok.json"), 0);
    assert_contains(g_err, "0 of 65536 outputs differ");
    assert_true(exists("ok.json"));
    /* the same directory again: refused, naming the first file, nothing replaced */
    assert_int_equal(pegemm("dual ref --problem 2,128,256,256 --dir d"), 2);
    assert_contains(g_err, "d/A.npy exists");
}

static void test_flipped_bit(void **state)
{
    (void)state;
    size_t n;
    unsigned char *c = load("d/C.npy", &n);
    const size_t elem = (size_t)1 * 128 * 256 + 5 * 256 + 7; /* g=1 m=5 n=7 */
    c[data_offset(c) + 2 * elem] ^= 1;
    store("flip.npy", c, n);
    free(c);
    assert_int_equal(pegemm("dual check --dir d --got flip.npy --json r.json"), 1);
    assert_contains(g_err, "1 of 65536 outputs differ");
    assert_contains(g_err, "g=1 m=5 n=7");
    assert_contains(g_err, "(1 ULP)");
    size_t jn;
    unsigned char *j = load("r.json", &jn);
    assert_contains((char *)j, "\"differ\": 1");
    assert_contains((char *)j, "\"pass\": false");
    free(j);
    /* fp16 bits are not bf16 bits: every output is compared under --out */
    assert_int_equal(pegemm("dual check --dir d --got d/C.npy --out fp16"), 1);
}

/* The user's own inputs: A edited in the directory; the reference follows
 * them, so ref's C now differs exactly in the edited row. */
static void test_own_inputs(void **state)
{
    (void)state;
    size_t n;
    unsigned char *a = load("d/A.npy", &n);
    const size_t row = (size_t)1 * 128 * 256 + 3 * 256; /* g=1 m=3 */
    for (size_t k = 0; k < 256; k++)
        a[data_offset(a) + row + k] = 0x38; /* 1.0: every product of the row changes */
    store("d/A.npy", a, n);
    free(a);
    assert_int_equal(pegemm("dual check --dir d --got d/C.npy"), 1);
    assert_contains(g_err, "g=1 m=3 n=0:");
    assert_null(strstr(g_err, "g=0 "));
    assert_null(strstr(g_err, "m=2 "));
    assert_null(strstr(g_err, "m=4 "));
}

static void test_bad_usage_writes_nothing(void **state)
{
    (void)state;
    static const struct {
        const char *args, *message;
    } cases[] = {
        {"dual ref --problem 2,128,256,256", "--dir"},
        {"dual ref --dir new", "--problem"},
        {"dual ref --problem 2,100,256,256 --dir new", "multiples of 128"},
        {"dual ref --problem 2,128,256,256 --dir new --mode nope", "nope"},
        {"dual ref --problem 2,128,256,256 --dir new --got x.npy", "--got"},
        {"dual ref --problem 2,128,256,256 --dir no/such/new", "parent"},
        {"dual ref --problem 2,128,256,256 --dir stdout.txt", "not a directory"},
        {"dual ref --problem 2,128,256,256 --dir new --out fp32", "fp32"},
        {"dual check --dir d", "--got"},
        {"dual check --got d/C.npy", "--dir"},
        {"dual check --dir d --got d/B1.npy", "uint8"},
        {"dual check --dir d --got missing.npy", "missing.npy"},
        {"dual check --dir d --got d/C.npy --problem 2,128,256,256", "--problem"},
        {"dual check --dir d --got d/C.npy --json d/A.npy", "d/A.npy"},
        {"dual check --dir nowhere --got d/C.npy", "nowhere/A.npy"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = pegemm("%s", cases[i].args);
        if (rc != 2)
            fail_msg("pegemm %s: exit %d, want 2\n%s", cases[i].args, rc, g_err);
        assert_contains(g_err, cases[i].message);
        assert_false(exists("new"));
    }
    /* check refuses a C of the wrong shape */
    size_t n;
    unsigned char *c = load("d/C.npy", &n);
    char *shape = strstr((char *)c + 10, "(2, 128, 256)");
    assert_non_null(shape);
    shape[1] = '1'; /* (1, 128, 256): the data is now too long for the shape */
    store("short.npy", c, n);
    free(c);
    assert_int_equal(pegemm("dual check --dir d --got short.npy"), 2);
    assert_contains(g_err, "trailing");
    /* --help: usage on stdout, exit 0, nothing written */
    assert_int_equal(pegemm("dual ref --problem 2,128,256,256 --dir new --help"), 0);
    assert_contains(g_out, "usage: pegemm dual ref");
    assert_false(exists("new"));
    assert_int_equal(pegemm("dual check --help"), 0);
    assert_contains(g_out, "usage: pegemm dual check");
    assert_int_equal(pegemm("dual --help"), 0);
    assert_contains(g_out, "check");
}

int main(int argc, char **argv)
{
    if (cli_harness_begin(argc, argv, "test_cli_dual_ref", "pegemm_dualref") != 0)
        return 2;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ref_then_check),
        cmocka_unit_test(test_flipped_bit),
        cmocka_unit_test(test_bad_usage_writes_nothing),
        cmocka_unit_test(test_own_inputs),
    };
    return cli_harness_end(cmocka_run_group_tests(tests, NULL, NULL));
}
