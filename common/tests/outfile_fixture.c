#include "outfile_fixture.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "pg_error.h"
#include "pg_outfile.h"

void ofx_make_tempdir(char *out, size_t n)
{
    const char *base = getenv("TMPDIR");
    snprintf(out, n, "%s/pegemm-outfile-test.XXXXXX", base && *base ? base : "/tmp");
    assert_non_null(mkdtemp(out));
}

void ofx_rmtree(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char p[PATH_MAX];
        ofx_path(p, dir, e->d_name);
        struct stat st;
        assert_int_equal(lstat(p, &st), 0);
        if (S_ISDIR(st.st_mode))
            ofx_rmtree(p);
        else
            assert_int_equal(unlink(p), 0);
    }
    closedir(d);
    assert_int_equal(rmdir(dir), 0);
}

void ofx_path(char *out, const char *dir, const char *name)
{
    int n = snprintf(out, PATH_MAX, "%s/%s", dir, name);
    assert_true(n > 0 && n < PATH_MAX);
}

void ofx_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(fputs(text, f) >= 0, 1);
    assert_int_equal(fclose(f), 0);
}

void ofx_assert_contents(const char *path, const char *text)
{
    char buf[4096];
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s: %s", path, strerror(errno));
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    assert_string_equal(buf, text);
}

int ofx_is_link(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

int ofx_save(const char *path, const char *text)
{
    pg_outfile o;
    if (pg_outfile_open(&o, path) != 0)
        return -1;
    fputs(text, o.f);
    return pg_outfile_commit(&o);
}

static int count_entries(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0)
            n++;
    closedir(d);
    return n;
}

int ofx_count_temps(const char *dir) { return count_entries(dir, ".pg.tmp."); }

int ofx_count_fds(void) { return count_entries("/proc/self/fd", ""); }

void ofx_make_socket(const char *path)
{
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    assert_true(strlen(path) < sizeof addr.sun_path);
    strcpy(addr.sun_path, path);
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    assert_true(s >= 0);
    assert_int_equal(bind(s, (struct sockaddr *)&addr, sizeof addr), 0);
    close(s); /* the socket file stays */
}

pid_t ofx_fifo_reader(const char *fifo, const char *expected)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid > 0)
        return pid;
    char buf[4096];
    size_t got = 0;
    alarm(10); /* a writer that replaced the FIFO would leave us waiting */
    int fd = open(fifo, O_RDONLY);
    if (fd < 0)
        _exit(3);
    for (;;) {
        ssize_t r = read(fd, buf + got, sizeof buf - 1 - got);
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    buf[got] = '\0';
    _exit(strcmp(buf, expected) == 0 ? 0 : 1);
}

int ofx_wait_exit(pid_t pid)
{
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int ofx_redirect_stdout(const char *path)
{
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(saved >= 0 && fd >= 0);
    assert_int_equal(dup2(fd, STDOUT_FILENO), STDOUT_FILENO);
    close(fd);
    return saved;
}

void ofx_restore_stdout(int saved)
{
    fflush(stdout);
    assert_int_equal(dup2(saved, STDOUT_FILENO), STDOUT_FILENO);
    close(saved);
}

/* The child's side of ofx_kill_writer; never returns. */
static void writer_child(const char *path, int sig, int how, int ready_fd, int go_fd)
{
    pg_outfile o;
    char c = 'r';
    if (how == 2)
        signal(sig, SIG_IGN);
    if (pg_outfile_open(&o, path) != 0)
        _exit(3);
    fputs(how == 2 ? "survived\n" : "partial", o.f);
    fflush(o.f);
    if (how == 1)
        raise(sig);
    if (write(ready_fd, &c, 1) != 1 || read(go_fd, &c, 1) != 1)
        _exit(4);
    _exit(pg_outfile_commit(&o) == 0 ? 0 : 5);
}

int ofx_kill_writer(const char *path, int sig, int how)
{
    int ready[2], go[2], status;
    char c = 'g';
    assert_int_equal(pipe(ready), 0);
    assert_int_equal(pipe(go), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(ready[0]);
        close(go[1]);
        writer_child(path, sig, how, ready[1], go[0]);
    }
    close(ready[1]);
    close(go[0]);
    if (how != 1) {
        assert_int_equal(read(ready[0], &c, 1), 1);
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%s", path);
        *strrchr(dir, '/') = '\0';
        assert_int_equal(ofx_count_temps(dir), 1); /* the temporary exists now */
        assert_int_equal(kill(pid, sig), 0);
        if (how == 2)
            assert_int_equal(write(go[1], &c, 1), 1);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    close(ready[0]);
    close(go[1]);
    return status;
}
