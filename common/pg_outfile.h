/* Output files that appear whole or not at all: write to a temporary file
 * in the destination's directory, then rename over the destination.  A
 * failed or abandoned write leaves nothing behind (the "no partial output
 * files" rule for every report, JSON and SVG writer). */
#ifndef PG_OUTFILE_H
#define PG_OUTFILE_H

#include <stdio.h>

typedef struct {
    FILE *f;          /* write here */
    char *path;       /* final name */
    char *tmp_path;   /* temporary name in the same directory */
} pg_outfile;

/* Create the temporary file; -1 with a message naming `path` on failure. */
int pg_outfile_open(pg_outfile *o, const char *path);
/* Flush, close and rename into place; on any error the temporary file is
 * removed and -1 returned with a message.  Always releases `o`. */
int pg_outfile_commit(pg_outfile *o);
/* Before hours of work: can `path` be written?  Creates and removes a
 * temporary file beside it (the same check the real write will face);
 * -1 with a message if `path` is a directory or its directory refuses. */
int pg_outfile_check(const char *path);
/* Close and remove the temporary file (safe on a zeroed or committed struct). */
void pg_outfile_abort(pg_outfile *o);

#endif
