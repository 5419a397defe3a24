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
 * then decoded in process only (zlib reports corrupt streams as errors). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* The child: read the metadata, then _exit (no atexit handlers, no stdio
 * flush of buffers it shares with the parent).  A clean failure is still
 * a finished read: the parent repeats it in process for the message. */
static void child_walk(const char *path, int timeout_s)
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
    alarm((unsigned)timeout_s);
    pg_run run;
    (void)pg_run_read_direct(path, &run, 0);
    _exit(0);
}

static int wait_child(pid_t pid, int timeout_s)
{
    int status = 0;
    pid_t w;
    while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ;
    if (w < 0)
        return pg_fail("cannot wait for the isolated reader: %s", strerror(errno));
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
        return pg_fail("malformed HDF5 file (the HDF5 library did not finish reading it in %d s; "
                       "PEGEMM_READ_TIMEOUT sets the limit); no output written",
                       timeout_s);
    if (WIFSIGNALED(status))
        return pg_fail("malformed HDF5 file (the HDF5 library crashed reading it: signal %d, %s); no output written",
                       WTERMSIG(status), strsignal(WTERMSIG(status)));
    return pg_fail("malformed HDF5 file (the isolated reader stopped with exit status %d); no output written",
                   WEXITSTATUS(status));
}

int pg_run_read_isolated_check(const char *path)
{
    int timeout_s;
    if (read_timeout_s(&timeout_s) < 0)
        return -1;
    if (timeout_s == 0)
        return 0;
    /* Refuse FIFOs and devices here too: the child must not block on one. */
    if (pg_runfile_check_regular(path) < 0)
        return -1;
    /* Nothing buffered is left for the child to inherit and write twice. */
    (void)fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return pg_fail("cannot start the isolated reader (fork: %s); PEGEMM_READ_TIMEOUT=0 reads without it",
                       strerror(errno));
    if (pid == 0)
        child_walk(path, timeout_s);
    return wait_child(pid, timeout_s);
}

int pg_run_read(const char *path, pg_run *run, unsigned what)
{
    memset(run, 0, sizeof *run);
    if (pg_run_read_isolated_check(path) < 0)
        return pg_fail_context("%s", path);
    return pg_run_read_direct(path, run, what);
}
