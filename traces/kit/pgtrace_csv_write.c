/* The CSV trace writer (atomic: temp file + fsync + rename). */
#include "pgtrace_csv.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void write_names(FILE *f, const char *key, int n, const char *const *names, const unsigned char *only)
{
    fputs(key, f);
    for (int i = 0; i < n; i++)
        if (!only || only[i])
            fprintf(f, " %s", names[i]);
    fputc('\n', f);
}

static void write_header(FILE *f, const pgtrace_view *w)
{
    const pgtrace_vocab *v = w->vocab;
    fprintf(f, "%s\n", PGTRACE_CSV_MAGIC);
    fprintf(f, "# kernel %s\n", w->kernel);
    fprintf(f, "# clock_hz %.17g\n", w->clock_hz);
    fprintf(f, "# clock_hz_nominal %.17g\n", w->clock_hz_nominal);
    fprintf(f, "# count %llu\n", w->count);
    fprintf(f, "# dropped %lld\n", (long long)w->dropped);
    write_names(f, "# roles", v->n_roles, v->role_names, NULL);
    write_names(f, "# phases", v->n_phases, v->phase_names, NULL);
    write_names(f, "# waits", v->n_phases, v->phase_names, v->phase_is_wait);
    fprintf(f, "# sms %d\n", w->n_sm);
    for (int32_t s = 0; s < w->n_sm; s++)
        if (w->anchor_clock[s] >= 0)
            fprintf(f, "# anchor %d %lld %lld\n", s, (long long)w->anchor_clock[s],
                    (long long)w->anchor_globaltimer_ns[s]);
    fprintf(f, "%s\n", PGTRACE_CSV_COLUMNS);
}

static void write_rows(FILE *f, const pgtrace_view *w)
{
    const pgtrace_vocab *v = w->vocab;
    for (int64_t i = 0; i < w->n_events; i++) {
        const pgtrace_event *e = &w->events[i];
        fprintf(f, "%d,%s,%d,%d,%s,%lld,%lld\n", e->sm, v->role_names[e->role], e->warp, e->tile,
                v->phase_names[e->phase], (long long)e->begin, (long long)e->end);
    }
}

/* "<dir>/.<base>.tmp.<pid>" beside the destination, so rename stays in one file system. */
static int temp_path_for(const char *path, char *out, size_t size)
{
    char *a = strdup(path), *b = strdup(path);
    int rc = -1;
    if (!a || !b) {
        rc = pgtrace_fail("out of memory");
        goto done;
    }
    const int n = snprintf(out, size, "%s/.%s.tmp.%ld", dirname(a), basename(b), (long)getpid());
    if (n < 0 || (size_t)n >= size) {
        rc = pgtrace_fail("%s: path too long", path);
        goto done;
    }
    rc = 0;
done:
    free(a);
    free(b);
    return rc;
}

int pgtrace_write_csv(void *ctx, const pgtrace_view *view)
{
    const char *path = ctx;
    char tmp[4096];
    FILE *f = NULL;
    int rc = -1, made = 0;
    struct stat st;
    if (!path || !*path)
        return pgtrace_fail("CSV trace: no output path");
    if (strpbrk(view->kernel, "\r\n"))
        return pgtrace_fail("CSV trace: the kernel name contains a line break");
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return pgtrace_fail("%s: exists and is not a regular file; not replacing it", path);
    if (temp_path_for(path, tmp, sizeof tmp) != 0)
        return -1;
    f = fopen(tmp, "wx");
    if (!f) {
        rc = pgtrace_fail("%s: cannot create (%s)", tmp, strerror(errno));
        goto done;
    }
    made = 1;
    write_header(f, view);
    write_rows(f, view);
    if (fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0) {
        rc = pgtrace_fail("%s: write failed (%s)", tmp, strerror(errno));
        goto done;
    }
    const int closed = fclose(f);
    f = NULL;
    if (closed != 0) {
        rc = pgtrace_fail("%s: close failed (%s)", tmp, strerror(errno));
        goto done;
    }
    if (rename(tmp, path) != 0) {
        rc = pgtrace_fail("%s: cannot rename into place (%s)", path, strerror(errno));
        goto done;
    }
    made = 0;
    rc = 0;
done:
    if (f)
        fclose(f);
    if (made)
        unlink(tmp);
    return rc;
}
