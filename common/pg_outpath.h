/* The output policy shared by every writer (pg_outfile for text, JSON, SVG
 * and HTML; pg_run_write for HDF5 run files): what an output path means and
 * which outputs are refused.
 *
 *   - a symlink is followed to its final target (a dangling one to the name
 *     it points at, if that directory exists); the file is replaced beside
 *     the target, so the link stays a link;
 *   - a character device or FIFO (/dev/null, /dev/stdout, a named pipe) is
 *     written straight into, never replaced;
 *   - "-" means standard output, where the writer allows it; /dev/stdout,
 *     /dev/stderr, /dev/fd/N and /proc/self/fd/N mean that open descriptor
 *     (written through a duplicate, so a `> file` redirection keeps its
 *     offset and what else the program prints, instead of being replaced);
 *   - a directory, socket or block device is refused;
 *   - an output that is the same file (st_dev, st_ino) as a registered input
 *     is refused, whatever name or link reaches it.
 *
 * Not thread-safe: register inputs and resolve outputs from one thread. */
#ifndef PG_OUTPATH_H
#define PG_OUTPATH_H

#include <stdio.h>
#include <sys/stat.h>

#include "pg_outtemp.h"

/* What kind of file a stat() mode is, for messages ("a FIFO", "a directory", ...). */
const char *pg_file_kind(mode_t m);

/* Remember an input file, so no output can overwrite it.  `name` is what
 * messages call it.  The _stat form takes a stat() the caller already made;
 * pg_input_register stats `path` itself.  -1 with a message on failure. */
int pg_input_register(const char *path);
int pg_input_register_stat(const char *name, const struct stat *st);
int pg_input_register_fd(int fd, const char *name);
/* Open an input file for reading: regular files only (a FIFO or device is
 * refused at once, never waited on; the message names `what`, e.g.
 * "schedule file", and the file's kind), registered as an input.  NULL
 * with a message on failure. */
FILE *pg_input_fopen(const char *path, const char *what);
/* The same as a descriptor (blocking, close-on-exec); with what == NULL the
 * messages leave the file's name to the caller ("not a regular file (a
 * FIFO)").  -1 with a message on failure. */
int pg_input_open(const char *path, const char *what);
/* Forget every registered input (tests; a long-lived caller between jobs). */
void pg_input_clear(void);

typedef enum {
    PG_OUT_FILE,   /* a regular file, new or replaced: write a temporary beside it and rename */
    PG_OUT_STREAM, /* a character device or FIFO: open it for writing and write in place */
    PG_OUT_FD,     /* "-", /dev/stdout, /dev/fd/N: a descriptor the process already has open */
} pg_out_kind;

typedef struct {
    pg_out_kind kind;
    char *target;   /* FILE: the name that gets replaced (the link's target for a symlink); STREAM: what to open */
    char *dir;      /* FILE: the directory holding target ("." for a bare name) */
    char *base;     /* FILE: target's last component */
    int exists;     /* FILE: target exists now; its mode and owner are in st */
    struct stat st; /* the existing object (when exists, or for STREAM and FD) */
    int fd;         /* FD: which descriptor */
} pg_outdest;

/* Apply the policy to the output `path`.  `allow_stdout`: "-" is standard
 * output (else it is a file named "-").  -1 with a message naming `path`
 * on refusal; d needs pg_outdest_free either way. */
int pg_outdest_resolve(const char *path, int allow_stdout, pg_outdest *d);
void pg_outdest_free(pg_outdest *d);

/* Opening and finishing a resolved destination (pg_outopen.c).
 *
 * pg_outdest_open: a descriptor to write the output to.  FILE: a new
 * temporary file beside the target (mode 0666 less the umask for a new
 * output; a replaced file keeps its mode, and under root its owner); STREAM:
 * the device or FIFO itself, opened for writing (a FIFO waits for a reader);
 * FD: a duplicate of the descriptor.  Pending stdout output is flushed
 * first, so text appears in order.  -1 with a message naming `what`.
 *
 * pg_outdest_commit: after the caller has written and closed the
 * descriptor: FILE renames the temporary over the target (with `durable`,
 * and the caller's fsync, the rename is synced too); others: nothing.
 * pg_outdest_abandon: remove the temporary, if any.  Both release t. */
int pg_outdest_open(const pg_outdest *d, pg_outtemp *t, const char *what);
int pg_outdest_commit(const pg_outdest *d, pg_outtemp *t, int durable, const char *what);
void pg_outdest_abandon(pg_outtemp *t);
/* Pre-flight: could pg_outdest_open succeed?  Creates nothing outside a
 * destination directory's own temporary (made and removed at once); for a
 * device or FIFO only its write permission is checked. */
int pg_outdest_check(const pg_outdest *d, const char *what);

#endif
