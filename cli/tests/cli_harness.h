/* What the end-to-end CLI tests share: the built `pegemm` (g_exe, from
 * argv[1]) run in a scratch folder (g_dir) with stdout and stderr sent to
 * files (never a terminal), their text in g_out / g_err. */
#ifndef PG_CLI_TESTS_HARNESS_H
#define PG_CLI_TESTS_HARNESS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cmocka.h>

static const char *g_exe;
static char g_dir[128];
static char g_out[1 << 20], g_err[1 << 16];

static inline void path_in(char *out, size_t n, const char *name) { snprintf(out, n, "%s/%s", g_dir, name); }

static inline void slurp(const char *path, char *buf, size_t n)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    size_t got = fread(buf, 1, n - 1, f);
    buf[got] = '\0';
    const int more = fgetc(f) != EOF; /* a test must not read a cut output as the whole */
    fclose(f);
    if (more)
        fail_msg("%s is longer than the harness's %zu-byte buffer", path, n - 1);
}

/* `ENV pegemm ARGS` (ARGS a shell word list, env NULL for none) in g_dir;
 * returns the exit status. */
static inline int pegemm_v(const char *env, const char *fmt, va_list ap)
{
    char args[2048], cmd[4096], o[256], e[256];
    vsnprintf(args, sizeof args, fmt, ap);
    path_in(o, sizeof o, "stdout.txt");
    path_in(e, sizeof e, "stderr.txt");
    snprintf(cmd, sizeof cmd, "cd '%s' && %s '%s' %s > '%s' 2> '%s' < /dev/null", g_dir, env ? env : "", g_exe, args,
             o, e);
    int st = system(cmd);
    assert_true(WIFEXITED(st));
    slurp(o, g_out, sizeof g_out);
    slurp(e, g_err, sizeof g_err);
    return WEXITSTATUS(st);
}

/* name exists in g_dir (a symlink counts, whatever it points at) */
static inline int exists(const char *name)
{
    char p[256];
    struct stat st;
    path_in(p, sizeof p, name);
    return lstat(p, &st) == 0;
}

static inline void assert_contains(const char *text, const char *what)
{
    if (!strstr(text, what))
        fail_msg("expected '%s' in:\n%s", what, text ? text : "(null)");
}

/* main's start: g_exe from argv[1] and a fresh g_dir (/tmp/PREFIX_XXXXXX);
 * 0, or 2 after a usage message naming `test`. */
static inline int cli_harness_begin(int argc, char **argv, const char *test, const char *prefix)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s PATH/TO/pegemm\n", test);
        return 2;
    }
    g_exe = argv[1];
    snprintf(g_dir, sizeof g_dir, "/tmp/%s_XXXXXX", prefix);
    return mkdtemp(g_dir) ? 0 : 2;
}

/* main's end: remove g_dir; returns `failed` (cmocka's count). */
static inline int cli_harness_end(int failed)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", g_dir);
    return failed;
}

#endif
