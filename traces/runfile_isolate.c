/* pg_run_read: the isolated pre-read, then the in-process read.
 *
 * libhdf5 1.10 trusts a file's internal structure: a corrupt global heap
 * makes H5Aread of a variable-length string segfault (H5HG_read), a cycle
 * in the metadata makes H5C_protect loop for ever, and ASan finds a
 * use-after-free in H5Aexists.  None of that can be checked from outside
 * the library before the call.  So a child process first walks everything
 * risky -- every attribute (variable-length strings included), every
 * object header, every dataset's type, shape, layout and chunk index
 * (pg_run_read_direct with nothing loaded) -- under an alarm.  If it dies by
 * a signal or runs out of time, the file is refused with a clear message
 * and the caller's process never touches it; otherwise the same read runs
 * in process, now over metadata known to be readable.  The bulk data is
 * then decoded in process only (zlib reports corrupt streams as errors).
 *
 * The child also runs under a memory limit (RLIMIT_DATA: what it has plus
 * PG_LIMIT_READ_MEMORY_BYTES): a corrupt size field can make libhdf5
 * allocate tens of GB before it fails (fuzzing found 21 GB).  A read that
 * fails cleanly in the child is not repeated: its message comes back
 * through a pipe and is the caller's error. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pg_error.h"
#include "pg_limits.h"
#include "runfile.h"
#include "runfile_internal.h"

/* Seconds the pre-read may take: PEGEMM_READ_TIMEOUT (0 turns isolation
 * off, e.g. to debug HDF5 itself), else PG_LIMIT_READ_TIMEOUT_S. */
static int read_timeout_s(int *out)
{
    *out = PG_LIMIT_READ_TIMEOUT_S;
    const char *env = getenv("PEGEMM_READ_TIMEOUT");
    if (!env || !*env)
        return 0;
    char *end = NULL;
    errno = 0;
    long v = strtol(env, &end, 10);
    if (errno != 0 || *end != '\0' || v < 0 || v > 86400)
        return pg_fail("PEGEMM_READ_TIMEOUT='%s' is not a number of seconds in [0, 86400] (0: no isolated pre-read)",
                       env);
    *out = (int)v;
    return 0;
}

/* The child's data segment may grow by this much over what it has (the
 * metadata walk needs little; ASan reserves address space of its own, so
 * its builds run without the limit). */
static void limit_child_memory(void)
{
#if !defined(__SANITIZE_ADDRESS__)
    long pages = 0, data_pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        /* fields: size resident shared text lib data dt */
        if (fscanf(f, "%ld %*s %*s %*s %*s %ld", &pages, &data_pages) != 2)
            data_pages = 0;
        fclose(f);
    }
    const rlim_t cap = (rlim_t)data_pages * (rlim_t)sysconf(_SC_PAGESIZE) + (rlim_t)PG_LIMIT_READ_MEMORY_BYTES;
    struct rlimit rl;
    if (data_pages > 0 && getrlimit(RLIMIT_DATA, &rl) == 0 && (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > cap)) {
        rl.rlim_cur = cap;
        (void)setrlimit(RLIMIT_DATA, &rl); /* best effort: without it the alarm still bounds the walk */
    }
#endif
}

/* Write all of msg to fd (the child's report; errors ignored: the exit
 * status alone still says the read failed). */
static void write_report(int fd, const char *msg)
{
    size_t n = strlen(msg);
    while (n > 0) {
        ssize_t w = write(fd, msg, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        msg += w;
        n -= (size_t)w;
    }
}

/* The child: read the metadata, then _exit (no atexit handlers, no stdio
 * flush of buffers it shares with the parent).  A clean failure sends its
 * message to the parent and exits with CHILD_READ_FAILED. */
#define CHILD_READ_FAILED 3
static void child_walk(const char *path, int timeout_s, int report_fd)
{
    /* The parent's handlers (a test harness's SIGSEGV handler, a
     * cleanup-on-SIGALRM) must not run here: a crash has to end this
     * process, and the alarm has to kill it. */
    for (int sig = 1; sig < NSIG; sig++)
        if (sig != SIGKILL && sig != SIGSTOP)
            (void)signal(sig, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    limit_child_memory();
    alarm((unsigned)timeout_s);
    pg_run run;
    if (pg_run_read_direct(path, &run, 0) != 0) {
        write_report(report_fd, pg_last_error());
        _exit(CHILD_READ_FAILED);
    }
    _exit(0);
}

/* The child's message (at most PG_ERROR_MSG_MAX-ish bytes), read to EOF. */
static void read_report(int fd, char *buf, size_t cap)
{
    size_t n = 0;
    while (n + 1 < cap) {
        ssize_t r = read(fd, buf + n, cap - 1 - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    buf[n] = '\0';
}

static int wait_child(const char *path, pid_t pid, int timeout_s, int report_fd)
{
    char report[1024];
    read_report(report_fd, report, sizeof report); /* EOF when the child ends, however it ends */
    int status = 0;
    pid_t w;
    while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ;
    if (w < 0)
        return pg_fail("cannot wait for the isolated reader: %s", strerror(errno));
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    if (WIFEXITED(status) && WEXITSTATUS(status) == CHILD_READ_FAILED && report[0])
        return pg_fail("%s", report);
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
        return pg_fail("%s: malformed HDF5 file (the HDF5 library did not finish reading it in %d s; "
                       "PEGEMM_READ_TIMEOUT sets the limit); no output written",
                       path, timeout_s);
    if (WIFSIGNALED(status))
        return pg_fail("%s: malformed HDF5 file (the HDF5 library crashed reading it: signal %d, %s); no output written",
                       path, WTERMSIG(status), strsignal(WTERMSIG(status)));
    return pg_fail("%s: malformed HDF5 file (the isolated reader stopped with exit status %d); no output written", path,
                   WEXITSTATUS(status));
}

int pg_run_read_isolated_check(const char *path)
{
    int timeout_s;
    if (read_timeout_s(&timeout_s) < 0)
        return pg_fail_context("%s", path);
    if (timeout_s == 0)
        return 0;
    /* Refuse FIFOs and devices here too: the child must not block on one. */
    if (pg_runfile_check_regular(path) < 0)
        return pg_fail_context("%s", path);
    /* Nothing buffered is left for the child to inherit and write twice. */
    (void)fflush(NULL);
    int fds[2];
    if (pipe(fds) != 0)
        return pg_fail("%s: cannot start the isolated reader (pipe: %s)", path, strerror(errno));
    pid_t pid = fork();
    if (pid < 0) {
        int err = errno;
        close(fds[0]);
        close(fds[1]);
        return pg_fail("%s: cannot start the isolated reader (fork: %s); PEGEMM_READ_TIMEOUT=0 reads without it",
                       path, strerror(err));
    }
    if (pid == 0) {
        close(fds[0]);
        child_walk(path, timeout_s, fds[1]);
    }
    close(fds[1]);
    int rc = wait_child(path, pid, timeout_s, fds[0]);
    close(fds[0]);
    return rc;
}

int pg_run_read(const char *path, pg_run *run, unsigned what)
{
    memset(run, 0, sizeof *run);
    if (pg_run_read_isolated_check(path) < 0) /* its messages name the file */
        return -1;
    return pg_run_read_direct(path, run, what);
}
