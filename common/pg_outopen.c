/* Opening and finishing a destination resolved by pg_outdest_resolve: the
 * one place where outputs are created, shared by pg_outfile and the run-file
 * writer. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pg_error.h"
#include "pg_outpath.h"

/* A replaced file keeps what the user gave it: mode, and (we may only
 * change it as root) owner and group.  chown first: it clears set-id bits. */
static int keep_attributes(int fd, const struct stat *st, const char *what)
{
    if (geteuid() == 0 && fchown(fd, st->st_uid, st->st_gid) != 0)
        return pg_fail("cannot give %s its previous owner: %s", what, strerror(errno));
    if (fchmod(fd, st->st_mode & 07777) != 0)
        return pg_fail("cannot give %s its previous permissions: %s", what, strerror(errno));
    return 0;
}

static int open_file(const pg_outdest *d, pg_outtemp *t, const char *what)
{
    int fd = pg_outtemp_create(t, d->dir, 0666, what);
    if (fd < 0)
        return -1;
    if (d->exists && keep_attributes(fd, &d->st, what) != 0) {
        (void)close(fd); /* nothing written yet */
        pg_outtemp_discard(t);
        return -1;
    }
    return fd;
}

int pg_outdest_open(const pg_outdest *d, pg_outtemp *t, const char *what)
{
    int fd = -1;
    pg_outtemp_init(t);
    switch (d->kind) {
    case PG_OUT_FILE:
        return open_file(d, t, what);
    case PG_OUT_STREAM:
        (void)fflush(stdout); /* what we printed before comes before */
        /* no O_CREAT, no O_TRUNC: the device or FIFO is written, not replaced */
        if ((fd = open(d->target, O_WRONLY | O_NOCTTY | O_CLOEXEC)) < 0)
            pg_fail("cannot open %s for writing: %s", what, strerror(errno));
        return fd;
    case PG_OUT_FD:
        (void)fflush(stdout);
        (void)fflush(stderr);
        if ((fd = fcntl(d->fd, F_DUPFD_CLOEXEC, 3)) < 0)
            pg_fail("cannot write %s: %s", what, strerror(errno));
        return fd;
    }
    return pg_fail("internal: unknown output kind for %s", what);
}

int pg_outdest_commit(const pg_outdest *d, pg_outtemp *t, int durable, const char *what)
{
    if (d->kind != PG_OUT_FILE)
        return 0;
    return pg_outtemp_install(t, d->base, durable, what);
}

void pg_outdest_abandon(pg_outtemp *t) { pg_outtemp_discard(t); }

int pg_outdest_check(const pg_outdest *d, const char *what)
{
    pg_outtemp t;
    int fd;
    switch (d->kind) {
    case PG_OUT_FILE:
        if ((fd = pg_outtemp_create(&t, d->dir, 0600, what)) < 0)
            return -1;
        (void)close(fd); /* empty, and removed next */
        pg_outtemp_discard(&t);
        return 0;
    case PG_OUT_STREAM:
        if (access(d->target, W_OK) != 0)
            return pg_fail("cannot write %s: %s", what, strerror(errno));
        return 0;
    case PG_OUT_FD:
        return 0;
    }
    return pg_fail("internal: unknown output kind for %s", what);
}
