#include "pg_outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pg_error.h"

static void release(pg_outfile *o)
{
    pg_outdest_free(&o->dest);
    free(o->path);
    o->path = NULL;
    o->f = NULL;
}

int pg_outfile_open(pg_outfile *o, const char *path)
{
    int fd = -1;
    int rc = -1;
    memset(o, 0, sizeof *o);
    pg_outtemp_init(&o->tmp);
    if ((o->path = strdup(path)) == NULL) {
        pg_fail("%s: out of memory", path);
        goto done;
    }
    if (pg_outdest_resolve(path, 1, &o->dest) != 0 || (fd = pg_outdest_open(&o->dest, &o->tmp, path)) < 0)
        goto done;
    if ((o->f = fdopen(fd, "w")) == NULL) {
        pg_fail("cannot open %s for writing: %s", path, strerror(errno));
        goto done;
    }
    rc = 0;
done:
    if (rc != 0) {
        if (fd >= 0 && !o->f)
            (void)close(fd); /* nothing was written */
        pg_outdest_abandon(&o->tmp);
        release(o);
    }
    return rc;
}

/* Everything written reaches the file (and, for a regular file, the disk)
 * before the rename; errno says why not. */
static int finish_stream(pg_outfile *o)
{
    int err = 0;
    if (fflush(o->f) != 0 || ferror(o->f))
        err = errno ? errno : EIO;
    else if (o->dest.kind == PG_OUT_FILE && fsync(fileno(o->f)) != 0)
        err = errno;
    if (fclose(o->f) != 0 && err == 0)
        err = errno;
    o->f = NULL;
    if (err != 0)
        return pg_fail("cannot write %s: %s", o->path, strerror(err));
    return 0;
}

int pg_outfile_commit(pg_outfile *o)
{
    int rc = -1;
    if (!o->f)
        return pg_fail("internal: commit of an output file that is not open");
    errno = 0;
    if (finish_stream(o) != 0 || pg_outdest_commit(&o->dest, &o->tmp, 0, o->path) != 0)
        goto done;
    rc = 0;
done:
    pg_outdest_abandon(&o->tmp);
    release(o);
    return rc;
}

void pg_outfile_abort(pg_outfile *o)
{
    if (o->f)
        (void)fclose(o->f); /* abandoned: its write errors do not matter */
    pg_outdest_abandon(&o->tmp);
    release(o);
}

int pg_outfile_check(const char *path)
{
    pg_outdest d;
    int rc = -1;
    if (pg_outdest_resolve(path, 1, &d) != 0 || pg_outdest_check(&d, path) != 0) {
        pg_fail_context("checked before computing");
        goto done;
    }
    rc = 0;
done:
    pg_outdest_free(&d);
    return rc;
}
