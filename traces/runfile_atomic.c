/* pg_run_write: the run file, written atomically.  The whole file is built
 * in memory (runfile_write.c), written under a temporary name in the
 * destination's directory, synced, and only then renamed over the
 * destination, so a reader (or a crash) sees either the previous file or
 * the complete new one, never a mix. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "h5io.h"
#include "pg_error.h"
#include "pg_progress.h"
#include "runfile.h"
#include "runfile_internal.h"

/* "<dir>/.<base>.tmp.<pid>": same directory, so rename() cannot cross
 * file systems; hidden and pid-tagged, so it is ours alone. */
static char *temp_name(const char *path, char **dir_out)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t dlen = slash ? (size_t)(slash - path) : 0;
    if (*base == '\0') {
        pg_fail("'%s' names a directory, not a file", path);
        return NULL;
    }
    char *dir = malloc(dlen + 2);
    size_t n = strlen(path) + 48;
    char *tmp = malloc(n);
    if (!dir || !tmp) {
        free(dir);
        free(tmp);
        pg_fail("out of memory");
        return NULL;
    }
    if (slash) {
        memcpy(dir, path, dlen);
        dir[dlen] = '\0';
        if (dlen == 0)
            strcpy(dir, "/");
    } else {
        strcpy(dir, ".");
    }
    snprintf(tmp, n, "%.*s%s.%s.tmp.%ld", (int)dlen, path, slash ? "/" : "", base, (long)getpid());
    *dir_out = dir;
    return tmp;
}

static int fsync_path(const char *p, int is_dir)
{
    int fd = open(p, O_RDONLY | (is_dir ? O_DIRECTORY : 0));
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    int err = errno;
    close(fd);
    errno = err;
    return rc;
}

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

int pg_run_write(const char *path, const pg_run *run, int store_problem)
{
    int rc = -1, fd = -1, tmp_exists = 0;
    char *dir = NULL, *tmp = NULL;
    unsigned char *image = NULL;
    size_t size = 0;
    pg_h5_quiet quiet;
    pg_h5_quiet_begin(&quiet);

    if (pg_runfile_check_run(run, store_problem) < 0)
        goto done;
    if ((tmp = temp_name(path, &dir)) == NULL)
        goto done;
    /* Create the temporary file before the (possibly long) build, so an
     * unwritable destination fails at once, with errno's reason. */
    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0) {
        pg_fail("cannot create a file in '%s': %s", dir, strerror(errno));
        goto done;
    }
    tmp_exists = 1;
    if ((image = pg_runfile_build_image(tmp, run, store_problem, &size)) == NULL)
        goto done;
    if (write_all(fd, image, size, path) < 0 || fsync(fd) < 0) {
        pg_fail("cannot write %s: %s", tmp, strerror(errno));
        goto done;
    }
    int closed = close(fd);
    fd = -1;
    if (closed < 0) {
        pg_fail("cannot write %s: %s", tmp, strerror(errno));
        goto done;
    }
    if (rename(tmp, path) < 0) {
        pg_fail("cannot rename the finished temporary file over it: %s", strerror(errno));
        goto done;
    }
    tmp_exists = 0;
    /* Make the rename itself durable.  The file is complete and in place
     * by now, and some file systems cannot sync directories, so a failure
     * here is not an error. */
    (void)fsync_path(dir, 1);
    rc = 0;
done:
    if (fd >= 0)
        close(fd);
    if (tmp_exists)
        unlink(tmp);
    free(image);
    free(tmp);
    free(dir);
    pg_h5_quiet_end(&quiet);
    if (rc < 0)
        pg_fail_context("writing %s", path);
    return rc;
}
