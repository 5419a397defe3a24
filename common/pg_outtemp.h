/* Temporary files for atomic outputs: created beside the destination under
 * a short fixed-size name (".pg.tmp.XXXXXX", 14 bytes, so it fits wherever
 * the final name fits), renamed into place, and removed if the process is
 * stopped by SIGINT, SIGTERM or SIGHUP while one is live.
 *
 * The signal handlers are installed on the first temporary file, only for
 * signals whose action is still the default (an ignored SIGHUP under nohup,
 * or a handler of the program's own, is left alone).  The handler unlinks
 * every live temporary file, then lets the signal kill the process as it
 * would have.  Not thread-safe: create, install and discard from one thread. */
#ifndef PG_OUTTEMP_H
#define PG_OUTTEMP_H

#include <sys/types.h>

#define PG_OUTTEMP_NAME_MAX 16

 /* An all-zero struct is empty (safe to discard). */
typedef struct {
    int active;                     /* dirfd and slot are ours to release */
    int dirfd;                      /* the destination's directory; -1 when none */
    int slot;                       /* index in the signal cleanup registry; -1 when none */
    char name[PG_OUTTEMP_NAME_MAX]; /* relative to dirfd */
} pg_outtemp;

/* Create a new temporary file in `dir`, permissions `mode` (umask applies);
 * returns its descriptor (the caller writes and closes it) or -1 with a
 * message.  `what` names the output in messages. */
int pg_outtemp_create(pg_outtemp *t, const char *dir, mode_t mode, const char *what);
/* Rename the temporary file to `base` in the same directory; with
 * `sync_dir`, fsync the directory after (a failure of that sync is not an
 * error: some file systems cannot).  On failure the temporary is removed and
 * -1 returned with a message naming `what`.  Always releases t. */
int pg_outtemp_install(pg_outtemp *t, const char *base, int sync_dir, const char *what);
/* Remove the temporary file (safe on a released or zeroed-by-init struct). */
void pg_outtemp_discard(pg_outtemp *t);
/* An empty struct (the same as all zeros). */
void pg_outtemp_init(pg_outtemp *t);

#endif
