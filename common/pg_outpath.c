#include "pg_outpath.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pg_error.h"

/* Linux's own limit on links followed in one lookup. */
#define MAX_LINK_HOPS 40

/* ---- the registry of inputs ---- */

typedef struct {
    dev_t dev;
    ino_t ino;
    char *name;
} input_file;

static input_file *g_inputs;
static size_t g_ninputs, g_cap;

static int same_object(const struct stat *a, dev_t dev, ino_t ino) { return a->st_dev == dev && a->st_ino == ino; }

int pg_input_register_stat(const char *name, const struct stat *st)
{
    for (size_t i = 0; i < g_ninputs; i++)
        if (same_object(st, g_inputs[i].dev, g_inputs[i].ino))
            return 0;
    if (g_ninputs == g_cap) {
        size_t cap = g_cap ? 2 * g_cap : 8;
        input_file *grown = realloc(g_inputs, cap * sizeof *grown);
        if (!grown)
            return pg_fail("out of memory registering the input %s", name);
        g_inputs = grown;
        g_cap = cap;
    }
    char *copy = strdup(name);
    if (!copy)
        return pg_fail("out of memory registering the input %s", name);
    g_inputs[g_ninputs++] = (input_file){st->st_dev, st->st_ino, copy};
    return 0;
}

int pg_input_register(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return pg_fail("cannot read %s: %s", path, strerror(errno));
    return pg_input_register_stat(path, &st);
}

int pg_input_register_fd(int fd, const char *name)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return pg_fail("cannot read %s: %s", name, strerror(errno));
    return pg_input_register_stat(name, &st);
}

/* "<what> '<path>' " before a message, or nothing when the caller names the
 * file itself (what == NULL). */
static int input_fail(const char *path, const char *what, const char *msg, const char *detail)
{
    if (what)
        return pg_fail("%s '%s' %s%s", what, path, msg, detail);
    return pg_fail("%s%s", msg, detail);
}

int pg_input_open(const char *path, const char *what)
{
    /* O_NONBLOCK: opening a FIFO without a writer must not wait for one;
     * fstat says what was actually opened. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    char detail[96];
    struct stat st;
    if (fd < 0) {
        snprintf(detail, sizeof detail, "%s", strerror(errno));
        input_fail(path, what, what ? "cannot be opened: " : "", detail);
        return -1;
    }
    if (fstat(fd, &st) != 0) {
        snprintf(detail, sizeof detail, "%s", strerror(errno));
        input_fail(path, what, "cannot be read: ", detail);
    } else if (!S_ISREG(st.st_mode)) {
        snprintf(detail, sizeof detail, "(%s)", pg_file_kind(st.st_mode));
        input_fail(path, what, what ? "is not a regular file " : "not a regular file ", detail);
    } else {
        int flags = fcntl(fd, F_GETFL);
        if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
            snprintf(detail, sizeof detail, "%s", strerror(errno));
            input_fail(path, what, "cannot be read: ", detail);
        } else if (pg_input_register_stat(path, &st) == 0) { /* no output may overwrite it */
            return fd;
        }
    }
    close(fd);
    return -1;
}

FILE *pg_input_fopen(const char *path, const char *what)
{
    int fd = pg_input_open(path, what);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "r");
    if (!f) {
        pg_fail("cannot read %s '%s': %s", what, path, strerror(errno));
        close(fd);
    }
    return f;
}

void pg_input_clear(void)
{
    for (size_t i = 0; i < g_ninputs; i++)
        free(g_inputs[i].name);
    free(g_inputs);
    g_inputs = NULL;
    g_ninputs = g_cap = 0;
}

/* The rename would give the output a new inode, so the comparison is made
 * against the object that exists now, before anything is written. */
/* An input deleted since it was read frees its inode number for a new file;
 * only an input still reachable by its name counts. */
static int refuse_if_input(const char *path, const struct stat *st)
{
    for (size_t i = 0; i < g_ninputs; i++) {
        struct stat now;
        if (same_object(st, g_inputs[i].dev, g_inputs[i].ino) && stat(g_inputs[i].name, &now) == 0 &&
            same_object(&now, g_inputs[i].dev, g_inputs[i].ino))
            return pg_fail("refusing to write %s: it is the input file %s", path, g_inputs[i].name);
    }
    return 0;
}

/* ---- resolving the destination ---- */

void pg_outdest_free(pg_outdest *d)
{
    free(d->target);
    free(d->dir);
    free(d->base);
    d->target = d->dir = d->base = NULL;
}

/* dir and base of d->target: "a/b/c" -> "a/b", "c"; "c" -> ".", "c"; "/c" -> "/", "c" */
static int split_target(pg_outdest *d)
{
    const char *slash = strrchr(d->target, '/');
    if (slash)
        d->dir = slash == d->target ? strdup("/") : strndup(d->target, (size_t)(slash - d->target));
    else
        d->dir = strdup(".");
    d->base = strdup(slash ? slash + 1 : d->target);
    if (!d->dir || !d->base)
        return pg_fail("out of memory");
    return 0;
}

/* The name a symlink at `link` points to, relative names taken from the
 * link's own directory (as the kernel does). */
static char *link_target(const char *link, const struct stat *st)
{
    size_t cap = st->st_size > 0 ? (size_t)st->st_size + 1 : PATH_MAX;
    char *content = malloc(cap);
    char *joined = NULL;
    errno = ENOMEM;
    if (!content)
        goto done;
    ssize_t n = readlink(link, content, cap);
    if (n >= 0 && (size_t)n >= cap)
        errno = ENAMETOOLONG; /* the link changed under us */
    if (n < 0 || (size_t)n >= cap)
        goto done;
    content[n] = '\0';
    const char *slash = strrchr(link, '/');
    if (content[0] == '/' || !slash) {
        joined = content;
        content = NULL;
        goto done;
    }
    size_t dlen = (size_t)(slash - link) + 1;
    if ((joined = malloc(dlen + (size_t)n + 1)) != NULL) {
        memcpy(joined, link, dlen);
        memcpy(joined + dlen, content, (size_t)n + 1);
    }
done:
    free(content);
    return joined;
}

const char *pg_file_kind(mode_t m)
{
    if (S_ISREG(m))
        return "a regular file";
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISFIFO(m))
        return "a FIFO";
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    if (S_ISSOCK(m))
        return "a socket";
    return "an unknown kind of file";
}

/* A name that does not exist yet: its directory must. */
static int new_file(const char *path, pg_outdest *d)
{
    struct stat dst;
    d->kind = PG_OUT_FILE;
    if (split_target(d) != 0)
        return -1;
    if (stat(d->dir, &dst) != 0)
        return pg_fail("cannot create %s: %s", path, strerror(errno));
    if (!S_ISDIR(dst.st_mode))
        return pg_fail("cannot create %s: %s", path, strerror(ENOTDIR));
    return 0;
}

/* The names of open descriptors: /dev/stdout, /dev/stderr, /dev/fd/N,
 * /proc/self/fd/N; -1 for any other name. */
static int descriptor_named(const char *path)
{
    static const char *prefixes[] = {"/dev/fd/", "/proc/self/fd/"};
    if (strcmp(path, "/dev/stdout") == 0)
        return STDOUT_FILENO;
    if (strcmp(path, "/dev/stderr") == 0)
        return STDERR_FILENO;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t n = strlen(prefixes[i]);
        if (strncmp(path, prefixes[i], n) != 0 || path[n] == '\0' || strspn(path + n, "0123456789") != strlen(path + n) ||
            strlen(path + n) > 6)
            continue;
        return atoi(path + n);
    }
    return -1;
}

static int resolve_descriptor(const char *path, int fd, pg_outdest *d)
{
    d->kind = PG_OUT_FD;
    d->fd = fd;
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0)
        return pg_fail("cannot write %s: descriptor %d is not open", path, fd);
    if ((flags & O_ACCMODE) == O_RDONLY)
        return pg_fail("cannot write %s: descriptor %d is open for reading only", path, fd);
    if (fstat(fd, &d->st) != 0)
        return pg_fail("cannot write %s: %s", path, strerror(errno));
    if (S_ISDIR(d->st.st_mode))
        return pg_fail("cannot write %s: it is a directory", path);
    return refuse_if_input(path, &d->st);
}

/* What exists at the end of the path (following every link, as open()
 * would: /dev/stdout -> /proc/self/fd/1 -> a pipe is only known this way). */
static int classify(const char *path, const struct stat *st, pg_outdest *d)
{
    d->st = *st;
    d->exists = 1;
    if (S_ISREG(st->st_mode)) {
        d->kind = PG_OUT_FILE;
        /* the rename goes beside the file itself, so a link to it stays a link */
        free(d->target);
        if ((d->target = realpath(path, NULL)) == NULL)
            return pg_fail("cannot resolve %s: %s", path, strerror(errno));
        if (split_target(d) != 0)
            return -1;
    } else if (S_ISCHR(st->st_mode) || S_ISFIFO(st->st_mode)) {
        d->kind = PG_OUT_STREAM; /* opened through path itself */
    } else {
        return pg_fail("cannot write %s: it is %s", path, pg_file_kind(st->st_mode));
    }
    return refuse_if_input(path, st);
}

/* A dangling symlink: follow the chain by hand to the name it points at,
 * which is then created (beside the link's final target). */
static int resolve_dangling(const char *path, pg_outdest *d)
{
    for (int hops = 0; hops <= MAX_LINK_HOPS; hops++) {
        struct stat st;
        if (lstat(d->target, &st) != 0) {
            if (errno == ENOENT)
                return new_file(path, d);
            return pg_fail("cannot write %s: %s", path, strerror(errno));
        }
        if (!S_ISLNK(st.st_mode)) /* it appeared meanwhile */
            return pg_fail("cannot write %s: it changed while being resolved", path);
        char *next = link_target(d->target, &st);
        if (!next)
            return pg_fail("cannot read the symbolic link %s: %s", d->target, strerror(errno));
        free(d->target);
        d->target = next;
    }
    return pg_fail("cannot write %s: %s", path, strerror(ELOOP));
}

int pg_outdest_resolve(const char *path, int allow_stdout, pg_outdest *d)
{
    struct stat st;
    memset(d, 0, sizeof *d);
    if (path[0] == '\0')
        return pg_fail("the output name is empty");
    if (allow_stdout && strcmp(path, "-") == 0)
        return resolve_descriptor("standard output", STDOUT_FILENO, d);
    int fd = descriptor_named(path);
    if (fd >= 0)
        return resolve_descriptor(path, fd, d);
    if (path[strlen(path) - 1] == '/')
        return pg_fail("'%s' names a directory, not a file", path);
    if ((d->target = strdup(path)) == NULL)
        return pg_fail("out of memory");
    if (stat(path, &st) == 0)
        return classify(path, &st, d);
    if (errno != ENOENT)
        return pg_fail("cannot write %s: %s", path, strerror(errno));
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
        return resolve_dangling(path, d);
    return new_file(path, d);
}
