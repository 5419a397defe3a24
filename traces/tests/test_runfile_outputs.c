/* pg_run_write follows the output policy every writer shares
 * (common/pg_outpath.h): a symlink stays a link and its target gets the run,
 * /dev/null and FIFOs are written in place (this runs as root: a rename would
 * really replace /dev/null), a run file just read is never overwritten, and
 * a 255-byte name works. */
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
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "pg_error.h"
#include "pg_outpath.h"
#include "run_fixture.h"
#include "runfile.h"

typedef struct {
    char *dir;
    pg_run run;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->dir = fx_tempdir();
    fx_spec s = {.M = 16, .N = 8, .K = 16, .P = 3, .trace = 1, .ntimings = 1};
    fx_make_run(&f->run, &s);
    pg_input_clear();
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    pg_input_clear();
    pg_run_free(&f->run);
    fx_rmtree(f->dir); /* frees it */
    free(f);
    return 0;
}

static void write_ok(const char *path, const pg_run *run)
{
    if (pg_run_write(path, run, 1) != 0)
        fail_msg("%s", pg_last_error());
}

static void assert_reads_back(const char *path, const pg_run *want)
{
    pg_run got;
    if (pg_run_read(path, &got, PG_READ_ALL) != 0)
        fail_msg("%s", pg_last_error());
    fx_assert_runs_equal(want, &got, PG_READ_ALL);
    pg_run_free(&got);
}

static int is_link(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

static void test_symlink_kept(void **state)
{
    fixture *f = *state;
    char *target = fx_path(f->dir, "real.h5"), *link = fx_path(f->dir, "link.h5");
    assert_int_equal(symlink("real.h5", link), 0);
    write_ok(link, &f->run); /* dangling: creates real.h5 */
    assert_true(is_link(link));
    write_ok(link, &f->run); /* existing: replaces real.h5 */
    assert_true(is_link(link));
    assert_reads_back(target, &f->run);
    assert_int_equal(fx_count_temp_files(f->dir), 0);
    free(target);
    free(link);
}

static void test_dev_null_kept(void **state)
{
    fixture *f = *state;
    struct stat before, after;
    assert_int_equal(stat("/dev/null", &before), 0);
    write_ok("/dev/null", &f->run);
    assert_int_equal(stat("/dev/null", &after), 0);
    assert_true(S_ISCHR(after.st_mode));
    assert_int_equal(after.st_ino, before.st_ino);
    assert_int_equal(after.st_rdev, before.st_rdev);
}

/* The bytes through a FIFO are the bytes of the file written normally. */
static void test_fifo_gets_the_run(void **state)
{
    fixture *f = *state;
    char *fifo = fx_path(f->dir, "pipe"), *copy = fx_path(f->dir, "copy.h5"), *plain = fx_path(f->dir, "plain.h5");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        alarm(20);
        execlp("cp", "cp", fifo, copy, (char *)NULL);
        _exit(127);
    }
    write_ok(fifo, &f->run);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    write_ok(plain, &f->run);
    size_t n1, n2;
    unsigned char *a = fx_slurp(copy, &n1), *b = fx_slurp(plain, &n2);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(n1, n2);
    assert_memory_equal(a, b, n1);
    struct stat st;
    assert_int_equal(lstat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    free(a);
    free(b);
    free(fifo);
    free(copy);
    free(plain);
}

/* A run file that was read is an input: not by its name, a hard link or a
 * symlink may the writer replace it.  Another name is fine. */
static void test_input_not_overwritten(void **state)
{
    fixture *f = *state;
    char *in = fx_path(f->dir, "in.h5"), *hard = fx_path(f->dir, "hard.h5"), *soft = fx_path(f->dir, "soft.h5");
    char *out = fx_path(f->dir, "out.h5");
    write_ok(in, &f->run);
    assert_int_equal(link(in, hard), 0);
    assert_int_equal(symlink("in.h5", soft), 0);
    size_t n_before;
    unsigned char *before = fx_slurp(in, &n_before);
    pg_run r;
    if (pg_run_read(in, &r, PG_READ_ALL) != 0)
        fail_msg("%s", pg_last_error());
    const char *paths[] = {in, hard, soft};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(pg_run_write(paths[i], &r, 1), -1);
        assert_non_null(strstr(pg_last_error(), "it is the input file"));
        assert_non_null(strstr(pg_last_error(), in));
    }
    size_t n_after;
    unsigned char *after = fx_slurp(in, &n_after);
    assert_int_equal(n_after, n_before);
    assert_memory_equal(after, before, n_before);
    write_ok(out, &r);
    assert_int_equal(fx_count_temp_files(f->dir), 0);
    pg_run_free(&r);
    free(before);
    free(after);
    free(in);
    free(hard);
    free(soft);
    free(out);
}

static void test_longest_name(void **state)
{
    fixture *f = *state;
    char name[NAME_MAX + 1];
    memset(name, 'r', NAME_MAX);
    name[NAME_MAX] = '\0';
    char *path = fx_path(f->dir, name);
    write_ok(path, &f->run);
    write_ok(path, &f->run);
    assert_reads_back(path, &f->run);
    assert_int_equal(fx_count_temp_files(f->dir), 0);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_symlink_kept, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dev_null_kept, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fifo_gets_the_run, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_not_overwritten, setup, teardown),
        cmocka_unit_test_setup_teardown(test_longest_name, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
