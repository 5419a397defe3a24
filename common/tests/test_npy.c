/* pg_npy: round trips of the three dtypes, the header NumPy expects
 * (64-byte aligned data, version 1.0), and refusals of bad files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pg_error.h"
#include "pg_npy.h"
#include "pg_outpath.h"

static char g_dir[64];

static void path_in(char *out, size_t n, const char *name) { snprintf(out, n, "%s/%s", g_dir, name); }

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/pg_npy_XXXXXX");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* A raw file: header text `dict` behind magic and version, then `data_bytes` zero bytes. */
static void write_raw(const char *name, const char *magic6, int major, const char *dict, size_t data_bytes)
{
    char p[128];
    path_in(p, sizeof p, name);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    const size_t len = strlen(dict);
    unsigned char pre[10];
    memcpy(pre, magic6, 6);
    pre[6] = (unsigned char)major, pre[7] = 0, pre[8] = (unsigned char)(len & 0xff), pre[9] = (unsigned char)(len >> 8);
    assert_int_equal(fwrite(pre, 1, 10, f), 10);
    assert_int_equal(fwrite(dict, 1, len, f), len);
    for (size_t i = 0; i < data_bytes; i++)
        fputc(0, f);
    assert_int_equal(fclose(f), 0);
}

static void test_round_trip(void **state)
{
    (void)state;
    char p[128];
    uint16_t c[2 * 3 * 5];
    for (int i = 0; i < 30; i++)
        c[i] = (uint16_t)(i * 2654435761u);
    pg_npy_info h = {PG_NPY_U16, 3, {2, 3, 5}};
    path_in(p, sizeof p, "c.npy");
    assert_int_equal(pg_npy_write(p, &h, c), 0);
    pg_npy_info r;
    void *got = NULL;
    assert_int_equal(pg_npy_read(p, PG_NPY_U16, 3, &r, &got), 0);
    assert_int_equal(r.shape[0], 2);
    assert_int_equal(r.shape[1], 3);
    assert_int_equal(r.shape[2], 5);
    assert_memory_equal(got, c, sizeof c);
    free(got);
    /* the file as NumPy lays it out: version 1.0, data 64-byte aligned, header ends in '\n' */
    FILE *f = fopen(p, "rb");
    unsigned char head[129]; /* + a NUL, so the header can be searched as text */
    assert_int_equal(fread(head, 1, 128, f), 128);
    head[128] = 0;
    fclose(f);
    assert_memory_equal(head, "\x93NUMPY\x01\x00", 8);
    const size_t hlen = head[8] | (size_t)head[9] << 8;
    assert_int_equal((10 + hlen) % 64, 0);
    assert_int_equal(head[10 + hlen - 1], '\n');
    assert_non_null(strstr((const char *)head + 10, "'shape': (2, 3, 5)"));

    float s[4] = {1.0f, -0.5f, 3e-8f, 448.0f};
    pg_npy_info hf = {PG_NPY_F32, 1, {4}};
    path_in(p, sizeof p, "s.npy");
    assert_int_equal(pg_npy_write(p, &hf, s), 0);
    assert_int_equal(pg_npy_read(p, PG_NPY_F32, 1, &r, &got), 0);
    assert_memory_equal(got, s, sizeof s);
    free(got);
    /* a dtype other than the one wanted is refused, naming both */
    assert_int_equal(pg_npy_read(p, PG_NPY_U16, 1, &r, &got), -1);
    assert_non_null(strstr(pg_last_error(), "float32"));
    assert_null(got);

    uint8_t a[6] = {0, 1, 0x7f, 0x80, 0xfe, 0xff};
    pg_npy_info hu = {PG_NPY_U8, 2, {2, 3}};
    path_in(p, sizeof p, "a.npy");
    assert_int_equal(pg_npy_write(p, &hu, a), 0);
    assert_int_equal(pg_npy_read(p, PG_NPY_U8, 2, &r, &got), 0);
    assert_memory_equal(got, a, sizeof a);
    free(got);
    pg_input_clear();
}

/* NumPy's own headers (uint8 as '|u1', version 2.0, keys in another order) are read. */
static void test_numpy_variants(void **state)
{
    (void)state;
    char p[128];
    pg_npy_info r;
    void *got = NULL;
    write_raw("v1.npy", "\x93NUMPY", 1, "{'shape': (4,), 'fortran_order': False, 'descr': '|u1'}   \n", 4);
    path_in(p, sizeof p, "v1.npy");
    assert_int_equal(pg_npy_read(p, PG_NPY_U8, 1, &r, &got), 0);
    assert_int_equal(r.shape[0], 4);
    free(got);
    pg_input_clear();
}

static void expect_refused(const char *name, const char *magic, int major, const char *dict, size_t data,
                           pg_npy_dtype want, int ndim, const char *why)
{
    char p[128];
    pg_npy_info r;
    void *got = (void *)1;
    write_raw(name, magic, major, dict, data);
    path_in(p, sizeof p, name);
    assert_int_equal(pg_npy_read(p, want, ndim, &r, &got), -1);
    assert_null(got);
    if (!strstr(pg_last_error(), why) || !strstr(pg_last_error(), name))
        fail_msg("%s: expected '%s' and the file name in: %s", name, why, pg_last_error());
}

static void test_refusals(void **state)
{
    (void)state;
    const char *ok = "{'descr': '<u2', 'fortran_order': False, 'shape': (2, 3), }\n";
    expect_refused("magic.npy", "\x93NUMPX", 1, ok, 12, PG_NPY_U16, 2, "magic");
    expect_refused("version.npy", "\x93NUMPY", 3, ok, 12, PG_NPY_U16, 2, "version 3.0");
    expect_refused("descr.npy", "\x93NUMPY", 1, "{'descr': '>u2', 'fortran_order': False, 'shape': (2, 3), }\n", 12,
                   PG_NPY_U16, 2, "'>u2'");
    expect_refused("f8.npy", "\x93NUMPY", 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }\n", 48,
                   PG_NPY_U16, 2, "'<f8'");
    expect_refused("fortran.npy", "\x93NUMPY", 1, "{'descr': '<u2', 'fortran_order': True, 'shape': (2, 3), }\n", 12,
                   PG_NPY_U16, 2, "fortran_order");
    expect_refused("short.npy", "\x93NUMPY", 1, ok, 11, PG_NPY_U16, 2, "truncated");
    expect_refused("long.npy", "\x93NUMPY", 1, ok, 13, PG_NPY_U16, 2, "trailing");
    expect_refused("overflow.npy", "\x93NUMPY", 1,
                   "{'descr': '<u2', 'fortran_order': False, 'shape': (4294967296, 4294967296), }\n", 0, PG_NPY_U16, 2,
                   "larger than");
    expect_refused("huge.npy", "\x93NUMPY", 1,
                   "{'descr': '<u2', 'fortran_order': False, 'shape': (99999999999999999999, 1), }\n", 0, PG_NPY_U16, 2,
                   "too large");
    expect_refused("neg.npy", "\x93NUMPY", 1, "{'descr': '<u2', 'fortran_order': False, 'shape': (-2, 3), }\n", 0,
                   PG_NPY_U16, 2, "non-negative");
    expect_refused("ndim.npy", "\x93NUMPY", 1, ok, 12, PG_NPY_U16, 3, "2 dimensions");
    expect_refused("nokey.npy", "\x93NUMPY", 1, "{'descr': '<u2', 'shape': (2, 3), }\n", 12, PG_NPY_U16, 2,
                   "fortran_order");
    expect_refused("extra.npy", "\x93NUMPY", 1,
                   "{'descr': '<u2', 'fortran_order': False, 'shape': (2, 3), 'x': 1}\n", 12, PG_NPY_U16, 2, "'x'");
    /* a header that claims more bytes than the file has */
    char p[128];
    path_in(p, sizeof p, "cut.npy");
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite("\x93NUMPY\x01\x00\x40\x00{'descr'", 1, 18, f), 18);
    fclose(f);
    pg_npy_info r;
    void *got = NULL;
    assert_int_equal(pg_npy_read(p, PG_NPY_U16, 2, &r, &got), -1);
    assert_non_null(strstr(pg_last_error(), "truncated"));
    pg_input_clear();
}

/* The writer refuses a directory and leaves nothing behind on refusal. */
static void test_write_refusals(void **state)
{
    (void)state;
    uint8_t a[2] = {1, 2};
    pg_npy_info h = {PG_NPY_U8, 1, {2}};
    assert_int_equal(pg_npy_write(g_dir, &h, a), -1);
    pg_npy_info bad = {PG_NPY_U8, 2, {(int64_t)1 << 40, (int64_t)1 << 40}};
    char p[128];
    path_in(p, sizeof p, "never.npy");
    assert_int_equal(pg_npy_write(p, &bad, a), -1);
    assert_int_equal(access(p, F_OK), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_numpy_variants),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_write_refusals),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
