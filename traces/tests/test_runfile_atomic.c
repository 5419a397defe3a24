/* pg_run_write is atomic: a failed write leaves the previous file at the
 * path byte-identical and no temporary file behind. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "pg_error.h"
#include "run_fixture.h"
#include "runfile.h"

typedef struct {
    char *dir;
    char *path;
    unsigned char *before;
    size_t before_size;
} fixture;

/* A directory holding a valid run at run.h5, its bytes remembered. */
static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->dir = fx_tempdir();
    f->path = fx_path(f->dir, "run.h5");
    pg_run run;
    fx_spec s = {.M = 16, .N = 8, .K = 16, .P = 3, .trace = 1, .ntimings = 1};
    fx_make_run(&run, &s);
    if (pg_run_write(f->path, &run, 1) != 0)
        fail_msg("%s", pg_last_error());
    pg_run_free(&run);
    f->before = fx_slurp(f->path, &f->before_size);
    assert_non_null(f->before);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    fx_rmtree(f->dir);
    free(f->path);
    free(f->before);
    free(f);
    return 0;
}

static void assert_previous_file_intact(const fixture *f)
{
    size_t n;
    unsigned char *now = fx_slurp(f->path, &n);
    assert_non_null(now);
    assert_int_equal(n, f->before_size);
    assert_memory_equal(now, f->before, n);
    free(now);
    assert_int_equal(fx_count_temp_files(f->dir), 0);
    /* and it still reads */
    pg_run run;
    if (pg_run_read(f->path, &run, PG_READ_ALL) != 0)
        fail_msg("%s", pg_last_error());
    pg_run_free(&run);
}

/* The disk fills up half-way: RLIMIT_FSIZE makes every write past 64 KiB
 * fail with EFBIG (SIGXFSZ ignored), like a full file system. */
static void test_write_fails_midway(void **state)
{
    fixture *f = *state;
    pg_run big;
    fx_spec s = {.M = 1024, .N = 256, .K = 16, .P = 3, .accumulator = 1};
    fx_make_run(&big, &s); /* random D and acc: ~1.5 MB that will not compress */

    struct rlimit old, lim;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
    lim = old;
    lim.rlim_cur = 64 * 1024;
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    int rc = pg_run_write(f->path, &big, 1);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, old_handler);

    assert_int_equal(rc, -1);
    assert_non_null(strstr(pg_last_error(), f->path));
    assert_non_null(strstr(pg_last_error(), "File too large")); /* EFBIG, from our own write() */
    assert_previous_file_intact(f);
    pg_run_free(&big);
}

/* A directory at the destination is refused before anything is written
 * (the rename would fail on it only after the whole build). */
static void test_directory_refused(void **state)
{
    fixture *f = *state;
    char *target = fx_path(f->dir, "a_directory.h5");
    assert_int_equal(mkdir(target, 0755), 0);
    pg_run run;
    fx_spec s = {.M = 16, .N = 8, .K = 16, .P = 3};
    fx_make_run(&run, &s);
    assert_int_equal(pg_run_write(target, &run, 1), -1);
    assert_non_null(strstr(pg_last_error(), "it is a directory"));
    struct stat st;
    assert_int_equal(stat(target, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    assert_previous_file_intact(f);
    pg_run_free(&run);
    free(target);
}

/* An invalid run is refused before any file is created. */
static void test_invalid_run_creates_nothing(void **state)
{
    fixture *f = *state;
    pg_run run;
    fx_spec s = {.M = 16, .N = 8, .K = 16, .P = 3, .subset = 1};
    fx_make_run(&run, &s);
    int64_t keep = run.rows[1];
    run.rows[1] = run.rows[2]; /* not strictly increasing */
    assert_int_equal(pg_run_write(f->path, &run, 1), -1);
    assert_non_null(strstr(pg_last_error(), "strictly increasing"));
    run.rows[1] = keep;
    run.trace.n = 0;
    assert_int_equal(pg_trace_alloc(&run.trace, 2, 1), 0);
    pg_vocab_pegemm(&run.trace.vocab);
    run.trace.phase[1] = PG_PH_COUNT; /* unknown phase code */
    assert_int_equal(pg_run_write(f->path, &run, 1), -1);
    assert_non_null(strstr(pg_last_error(), "not a known phase"));
    run.trace.phase[1] = 0;
    run.problem.shape.M = 0;
    assert_int_equal(pg_run_write(f->path, &run, 1), -1);
    assert_non_null(strstr(pg_last_error(), "problem shape"));
    run.problem.shape.M = 16;
    free(run.problem.A);
    run.problem.A = NULL; /* store_problem without inputs */
    assert_int_equal(pg_run_write(f->path, &run, 1), -1);
    assert_non_null(strstr(pg_last_error(), "NULL"));
    assert_previous_file_intact(f);
    pg_run_free(&run);
}

/* Unwritable destinations: a parent that is a file, a parent that does not
 * exist, a path ending in '/', and (when not root, which may write
 * anywhere) a read-only directory. */
static void test_unwritable_destinations(void **state)
{
    fixture *f = *state;
    pg_run run;
    fx_spec s = {.M = 4, .N = 8, .K = 16, .P = 1};
    fx_make_run(&run, &s);

    char *under_file = fx_path(f->path, "x.h5"); /* run.h5/x.h5 */
    assert_int_equal(pg_run_write(under_file, &run, 0), -1);
    assert_non_null(strstr(pg_last_error(), "Not a directory"));
    assert_non_null(strstr(pg_last_error(), under_file));

    char *missing = fx_path(f->dir, "no/such/dir/x.h5");
    assert_int_equal(pg_run_write(missing, &run, 0), -1);
    assert_non_null(strstr(pg_last_error(), "No such file or directory"));

    char *slash = fx_path(f->dir, "");
    assert_int_equal(pg_run_write(slash, &run, 0), -1);
    assert_non_null(strstr(pg_last_error(), "names a directory"));

    if (geteuid() != 0) {
        char *ro = fx_path(f->dir, "readonly");
        assert_int_equal(mkdir(ro, 0555), 0);
        char *inside = fx_path(ro, "x.h5");
        assert_int_equal(pg_run_write(inside, &run, 0), -1);
        assert_non_null(strstr(pg_last_error(), "Permission denied"));
        free(inside);
        free(ro);
    }
    assert_previous_file_intact(f);
    pg_run_free(&run);
    free(under_file);
    free(missing);
    free(slash);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_write_fails_midway, setup, teardown),
        cmocka_unit_test_setup_teardown(test_directory_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_invalid_run_creates_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unwritable_destinations, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
