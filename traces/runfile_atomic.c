/* pg_run_write: the run file, written atomically.  The whole file is built
 * in memory (runfile_write.c), written under a temporary name in the
 * destination's directory, synced, and only then renamed over the
 * destination, so a reader (or a crash, or a SIGINT/SIGTERM) sees either the
 * previous file or the complete new one, never a mix.
 *
 * What the output path means is the policy every writer shares
 * (common/pg_outpath.h): a symlink is followed and its target replaced, a
 * character device or FIFO (/dev/null) is written straight into, a
 * directory or the run's own input file is refused. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "h5io.h"
#include "pg_error.h"
#include "pg_outpath.h"
#include "pg_progress.h"
#include "runfile.h"
#include "runfile_internal.h"

/* Written in pieces of this size, with progress (pg_progress.h): a
 * full-size run file is gigabytes. */
#define WRITE_PIECE ((size_t)64 << 20)

static int write_all(int fd, const unsigned char *buf, size_t n, const char *path)
{
    char label[160];
    snprintf(label, sizeof label, "writing %s", path);
    pg_progress prog;
    const size_t total = n;
    pg_progress_begin(&prog, label, (int64_t)total);
    while (n > 0) {
        pg_progress_update(&prog, (int64_t)(total - n));
        ssize_t w = write(fd, buf, n < WRITE_PIECE ? n : WRITE_PIECE);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        buf += w;
        n -= (size_t)w;
    }
    pg_progress_update(&prog, (int64_t)total);
    pg_progress_end(&prog);
    return 0;
}

/* Write and close fd; a regular file is synced before the rename. */
static int write_image(int fd, const unsigned char *image, size_t size, int is_file, const char *path)
{
    int err = 0;
    if (write_all(fd, image, size, path) < 0 || (is_file && fsync(fd) < 0))
        err = errno;
    if (close(fd) < 0 && err == 0)
        err = errno;
    if (err != 0)
        return pg_fail("write failed: %s", strerror(err));
    return 0;
}

int pg_run_write(const char *path, const pg_run *run, int store_problem)
{
    int rc = -1, fd = -1;
    unsigned char *image = NULL;
    size_t size = 0;
    pg_outdest dest;
    pg_outtemp tmp;
    pg_outtemp_init(&tmp);
    memset(&dest, 0, sizeof dest);
    pg_h5_quiet quiet;
    pg_h5_quiet_begin(&quiet);

    if (pg_runfile_check_run(run, store_problem) < 0)
        goto done;
    /* "-" is a file of that name here: a run file is not for a terminal */
    if (pg_outdest_resolve(path, 0, &dest) != 0)
        goto done;
    /* Open the destination before the (possibly long) build, so an
     * unwritable one fails at once, with errno's reason. */
    if ((fd = pg_outdest_open(&dest, &tmp, path)) < 0)
        goto done;
    if ((image = pg_runfile_build_image(path, run, store_problem, &size)) == NULL)
        goto done;
    int written = write_image(fd, image, size, dest.kind == PG_OUT_FILE, path);
    fd = -1;
    if (written != 0 || pg_outdest_commit(&dest, &tmp, 1, path) != 0)
        goto done;
    rc = 0;
done:
    if (fd >= 0)
        (void)close(fd); /* abandoned before anything was written */
    pg_outdest_abandon(&tmp);
    pg_outdest_free(&dest);
    free(image);
    pg_h5_quiet_end(&quiet);
    if (rc < 0)
        pg_fail_context("writing %s", path);
    return rc;
}
