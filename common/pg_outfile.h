/* Output files that appear whole or not at all: write to a temporary file
 * in the destination's directory, then rename over the destination.  A
 * failed or abandoned write, or a SIGINT/SIGTERM/SIGHUP on the way, leaves
 * nothing behind (the "no partial output files" rule for every report, JSON
 * and SVG writer).
 *
 * What a path means follows the shared output policy (pg_outpath.h): a
 * symlink is followed and its target replaced (the link stays); a character
 * device or FIFO (/dev/null, /dev/stdout, a named pipe) is written straight
 * into; "-" is standard output; a directory, socket or block device, or the
 * same file as a registered input, is refused. */
#ifndef PG_OUTFILE_H
#define PG_OUTFILE_H

#include <stdio.h>

#include "pg_outpath.h"

typedef struct {
    FILE *f;         /* write here */
    char *path;      /* the name the caller gave, for messages */
    pg_outdest dest; /* what that name resolved to */
    pg_outtemp tmp;  /* the temporary file, for a regular-file destination */
} pg_outfile;

/* Open the output; -1 with a message naming `path` on failure or refusal. */
int pg_outfile_open(pg_outfile *o, const char *path);
/* Flush, sync, close and rename into place; on any error the temporary file
 * is removed and -1 returned with a message naming the output and the
 * reason.  Always releases `o`. */
int pg_outfile_commit(pg_outfile *o);
/* Before hours of work: would pg_outfile_open(path) succeed?  The same
 * policy and refusals; creates and removes a temporary file beside a regular
 * destination, and creates nothing for a device or FIFO.  -1 with a message. */
int pg_outfile_check(const char *path);
/* Close and remove the temporary file (safe on a failed open or a committed struct). */
void pg_outfile_abort(pg_outfile *o);

#endif
