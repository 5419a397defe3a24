/* The commands' outputs follow the shared output policy (common/pg_outpath.h),
 * end to end: `--json /dev/stdout` and `--output /dev/null` write into the
 * device, never replace it (this runs as root); an output that is the
 * command's own input (by name, hard link or symlink) is refused with exit 2
 * and the input left byte for byte; a symlinked output stays a link. */
#include <fcntl.h>
#include <limits.h>
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
#include "pg_error.h"

static char g_dir[PATH_MAX], g_run[PATH_MAX], g_traced[PATH_MAX];

/* the demo (in the same library) names these; nothing here runs a kernel */
int pg_have_kernel(void) { return 0; }
int pg_cmd_run(int argc, char **argv)
{
    (void)argc, (void)argv;
    return 2;
}

static void path_in(char *out, const char *name)
{
    int n = snprintf(out, PATH_MAX, "%s/%s", g_dir, name);
    assert_true(n > 0 && n < PATH_MAX);
}

static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    long len = ftell(f);
    assert_true(len >= 0);
    rewind(f);
    unsigned char *buf = malloc((size_t)len + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    *n = (size_t)len;
    return buf;
}

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/pg_test_cli_outputs_XXXXXX");
    if (!mkdtemp(g_dir))
        return -1;
    path_in(g_run, "ref.h5");
    path_in(g_traced, "traced.h5");
    /* a run with outputs, from the reference */
    if (call(pg_cmd_ref, "ref", "--problem", "196,64,96,196", "--family", "codes", "--seed", "3", "--mode", "sm90",
             "--output", g_run, NULL) != 0)
        return -1;
    /* a run with a trace: a copy of a committed H100 run */
    char cmd[2 * PATH_MAX];
    snprintf(cmd, sizeof cmd, "cp '%s/traces/runs/epi_sweep/h100_epi_00400.h5' '%s'", PG_SOURCE_ROOT, g_traced);
    return system(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void assert_char_device(const char *path, const struct stat *before)
{
    struct stat after;
    assert_int_equal(stat(path, &after), 0);
    assert_true(S_ISCHR(after.st_mode));
    assert_int_equal(after.st_ino, before->st_ino);
    assert_int_equal(after.st_rdev, before->st_rdev);
}

/* /dev/null and /dev/stdout (here: a file on descriptor 1) are written into. */
static void test_devices_written_in_place(void **state)
{
    (void)state;
    struct stat null_before, out_link;
    assert_int_equal(stat("/dev/null", &null_before), 0);
    assert_int_equal(lstat("/dev/stdout", &out_link), 0);
    assert_int_equal(call(pg_cmd_trace, "trace", "export", "--chrome", g_traced, "--output", "/dev/null", NULL), 0);
    assert_int_equal(call(pg_cmd_verify, "verify", "outputs", g_run, "--json", "/dev/null", NULL), 0);
    assert_char_device("/dev/null", &null_before);

    char captured[PATH_MAX];
    path_in(captured, "stdout.txt");
    fflush(stdout);
    int saved = dup(STDOUT_FILENO), fd = open(captured, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(saved >= 0 && fd >= 0);
    assert_int_equal(dup2(fd, STDOUT_FILENO), STDOUT_FILENO);
    close(fd);
    int rc = call(pg_cmd_verify, "verify", "outputs", g_run, "--json", "/dev/stdout", NULL);
    fflush(stdout);
    assert_int_equal(dup2(saved, STDOUT_FILENO), STDOUT_FILENO);
    close(saved);
    assert_int_equal(rc, 0);
    struct stat link_after;
    assert_int_equal(lstat("/dev/stdout", &link_after), 0);
    assert_true(S_ISLNK(link_after.st_mode));
    assert_int_equal(link_after.st_ino, out_link.st_ino);
    size_t n;
    char *text = (char *)slurp(captured, &n);
    text[n] = '\0';
    assert_non_null(strstr(text, "\"mode\": \"sm90\"")); /* the JSON went to stdout */
    assert_non_null(strstr(text, "PASS"));               /* beside the report */
    free(text);
}

/* Every command that reads a run refuses to write its output over it. */
static void test_own_input_refused(void **state)
{
    (void)state;
    char hard[PATH_MAX], soft[PATH_MAX];
    path_in(hard, "hard.h5");
    path_in(soft, "soft.h5");
    assert_int_equal(link(g_traced, hard), 0);
    assert_int_equal(symlink("traced.h5", soft), 0);
    size_t n_run, n_traced;
    unsigned char *run_before = slurp(g_run, &n_run), *traced_before = slurp(g_traced, &n_traced);

    const char *names[] = {g_traced, hard, soft};
    for (int i = 0; i < 3; i++) {
        char *out = (char *)names[i];
        assert_int_equal(call(pg_cmd_trace, "trace", "export", "--chrome", g_traced, "--output", out, NULL), 2);
        assert_int_equal(call(pg_cmd_model, "model", "fit", g_traced, "--output", out, NULL), 2);
        assert_int_equal(call(pg_cmd_verify, "verify", "trace", g_traced, "--timeline", out, NULL), 2);
        assert_int_equal(call(pg_cmd_verify, "verify", "trace", g_traced, "--json", out, NULL), 2);
    }
    assert_int_equal(call(pg_cmd_verify, "verify", "outputs", g_run, "--json", g_run, NULL), 2);
    assert_int_equal(call(pg_cmd_verify, "verify", "outputs", g_run, "--svg", g_run, NULL), 2);
    assert_int_equal(call(pg_cmd_ref, "ref", "--input", g_run, "--mode", "fp32", "--output", g_run, NULL), 2);

    size_t n;
    unsigned char *now = slurp(g_run, &n);
    assert_int_equal(n, n_run);
    assert_memory_equal(now, run_before, n);
    free(now);
    now = slurp(g_traced, &n);
    assert_int_equal(n, n_traced);
    assert_memory_equal(now, traced_before, n);
    free(now);
    struct stat st;
    assert_int_equal(lstat(soft, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    free(run_before);
    free(traced_before);
}

/* A symlinked report stays a link; the file behind it is the report. */
static void test_symlinked_output(void **state)
{
    (void)state;
    char link[PATH_MAX], target[PATH_MAX];
    path_in(link, "report.json");
    path_in(target, "kept/report.json");
    char dir[PATH_MAX];
    path_in(dir, "kept");
    assert_int_equal(mkdir(dir, 0755), 0);
    assert_int_equal(symlink("kept/report.json", link), 0);
    assert_int_equal(call(pg_cmd_verify, "verify", "outputs", g_run, "--json", link, NULL), 0);
    assert_int_equal(call(pg_cmd_verify, "verify", "outputs", g_run, "--json", link, NULL), 0);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(stat(target, &st), 0);
    assert_true(S_ISREG(st.st_mode) && st.st_size > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_devices_written_in_place),
        cmocka_unit_test(test_own_input_refused),
        cmocka_unit_test(test_symlinked_output),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
