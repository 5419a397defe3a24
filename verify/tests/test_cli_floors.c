/* `pegemm model validate --floors` takes each machine's copy floor as a
 * number (GB/s) or as the `pegemm bench` run file that measured it (its D2D
 * copy timing): the two spellings predict the same; a run file without a
 * copy timing, a missing file and a dangling comma are refused (exit 2). */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli_call.h"

#include "commands.h"
#include "runfile.h"

/* the demo (in the same library) names these; nothing here runs a kernel */
int pg_have_kernel(void) { return 0; }
int pg_cmd_run(int argc, char **argv)
{
    (void)argc, (void)argv;
    return 2;
}

#define ROOT PG_SOURCE_ROOT "/traces/"
static const char k_cal[] = ROOT "probes/h200/pingpong_ml_00000.h5";
static const char k_run[] = ROOT "probes/h100/pingpong_ml_00000.h5";
static const char k_bench[] = ROOT "runs/h100_full_bench.h5";

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* the bench file's copy floor in GB/s, read here independently */
static double bench_floor_gbs(void)
{
    pg_run r;
    assert_int_equal(pg_run_read(k_bench, &r, 0), 0);
    double gbs = 0;
    for (int i = 0; i < r.ntimings; i++)
        if (strcmp(r.timings[i].name, "copy") == 0) {
            const int64_t n = r.timings[i].n;
            double *ms = malloc(sizeof(double) * (size_t)n);
            assert_non_null(ms);
            memcpy(ms, r.timings[i].ms, sizeof(double) * (size_t)n);
            qsort(ms, (size_t)n, sizeof *ms, cmp);
            const double med = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
            gbs = r.timings[i].bytes / (med * 1e-3) / 1e9;
            free(ms);
        }
    pg_run_free(&r);
    assert_true(gbs > 1000 && gbs < 10000);
    return gbs;
}

static char *validate_json(const char *floors, int *rc)
{
    char path[] = "/tmp/pg_test_floors_XXXXXX";
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char arg[4096];
    snprintf(arg, sizeof arg, "%s", floors);
    *rc = call(pg_cmd_model, "model", "validate", k_cal, k_run, "--floors", arg, "--json", path, "-q", NULL);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *buf = calloc(1, 1 << 20);
    assert_non_null(buf);
    const size_t n = fread(buf, 1, (1 << 20) - 1, f);
    fclose(f);
    unlink(path);
    buf[n] = '\0';
    return buf;
}

static void test_bench_file_as_floor(void **state)
{
    (void)state;
    char by_number[128], by_file[4096];
    snprintf(by_number, sizeof by_number, "4237.5,%.17g", bench_floor_gbs());
    snprintf(by_file, sizeof by_file, "4237.5,%s", k_bench);
    int rc_n, rc_f;
    char *a = validate_json(by_number, &rc_n), *b = validate_json(by_file, &rc_f);
    assert_true(rc_n == 0 || rc_n == 1); /* predicted (held to target), not refused */
    assert_int_equal(rc_n, rc_f);
    assert_non_null(strstr(a, "\"change\": \"GPU\""));
    assert_string_equal(a, b);
    free(a);
    free(b);
}

static void test_bad_floors(void **state)
{
    (void)state;
    char arg[4096];
    snprintf(arg, sizeof arg, "4237.5,%s", k_run); /* a trace run: no copy timing */
    assert_int_equal(call(pg_cmd_model, "model", "validate", k_cal, k_run, "--floors", arg, "-q", NULL), 2);
    assert_int_equal(call(pg_cmd_model, "model", "validate", k_cal, k_run, "--floors", "4237.5,/nonexistent/b.h5", "-q",
                          NULL),
                     2);
    assert_int_equal(call(pg_cmd_model, "model", "validate", k_cal, k_run, "--floors", "4237.5,", "-q", NULL), 2);
    assert_int_equal(call(pg_cmd_model, "model", "validate", k_cal, k_run, "--floors", "-3", "-q", NULL), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bench_file_as_floor),
        cmocka_unit_test(test_bad_floors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
