#include "pg_outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pg_error.h"

static void release(pg_outfile *o)
{
    free(o->path);
    free(o->tmp_path);
    o->path = NULL;
    o->tmp_path = NULL;
    o->f = NULL;
}

int pg_outfile_open(pg_outfile *o, const char *path)
{
    int fd = -1;
    int rc = -1;
    size_t n = strlen(path);
    o->f = NULL;
    o->path = strdup(path);
    o->tmp_path = malloc(n + 16);
    if (!o->path || !o->tmp_path) {
        pg_fail("%s: out of memory", path);
        goto done;
    }
    /* mkstemp in the same directory, so the final rename stays on one file system */
    snprintf(o->tmp_path, n + 16, "%s.tmpXXXXXX", path);
    fd = mkstemp(o->tmp_path);
    if (fd < 0) {
        pg_fail("cannot create %s: %s", path, strerror(errno));
        goto done;
    }
    /* mkstemp makes the file 0600; reports are for sharing */
    if (fchmod(fd, 0644) != 0) {
        pg_fail("cannot set permissions of %s: %s", path, strerror(errno));
        close(fd);
        unlink(o->tmp_path);
        goto done;
    }
    o->f = fdopen(fd, "w");
    if (!o->f) {
        pg_fail("cannot open %s for writing: %s", path, strerror(errno));
        close(fd);
        unlink(o->tmp_path);
        goto done;
    }
    rc = 0;
done:
    if (rc != 0)
        release(o);
    return rc;
}

int pg_outfile_commit(pg_outfile *o)
{
    int rc = -1;
    if (!o->f)
        return pg_fail("internal: commit of an output file that is not open");
    int write_err = ferror(o->f);
    int close_err = fclose(o->f);
    o->f = NULL;
    if (write_err || close_err != 0) {
        pg_fail("writing %s failed: %s", o->path, strerror(errno ? errno : EIO));
        unlink(o->tmp_path);
        goto done;
    }
    if (rename(o->tmp_path, o->path) != 0) {
        pg_fail("cannot rename %s to %s: %s", o->tmp_path, o->path, strerror(errno));
        unlink(o->tmp_path);
        goto done;
    }
    rc = 0;
done:
    release(o);
    return rc;
}

void pg_outfile_abort(pg_outfile *o)
{
    if (o->f) {
        fclose(o->f);
        unlink(o->tmp_path);
    }
    release(o);
}

int pg_outfile_check(const char *path)
{
    struct stat st;
    pg_outfile o;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return pg_fail("cannot write the output %s: it is a directory", path);
    if (pg_outfile_open(&o, path) != 0)
        return pg_fail_context("checked before computing");
    pg_outfile_abort(&o);
    return 0;
}
