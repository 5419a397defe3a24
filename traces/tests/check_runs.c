/* Every committed run under traces/runs/ (or the directory given, with its
 * subdirectories) is a valid schema-v1 file: read each with outputs and
 * trace and print one line about it.  Exit 77 (skipped) when there are no runs yet, 1 if any file is
 * rejected. */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pg_error.h"
#include "runfile.h"

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int files, bad;

/* Check every .h5 under dir, subdirectories included (e.g. epi_sweep/). */
static void check_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            check_dir(path);
            continue;
        }
        if (!ends_with(e->d_name, ".h5"))
            continue;
        pg_run run;
        files++;
        if (pg_run_read(path, &run, PG_READ_OUTPUT | PG_READ_TRACE) != 0) {
            printf("BAD  %s\n", pg_last_error());
            bad++;
            continue;
        }
        const pg_shape *s = &run.problem.shape;
        printf("ok   %s: M=%" PRId64 " N=%" PRId64 " K=%" PRId64 " P=%" PRId64 " %s, %" PRId64
               " output rows (%s), %d timing sets, %" PRId64 " trace intervals%s%s\n",
               path, s->M, s->N, s->K, s->P, run.problem.family, run.nrows,
               run.nrows ? pg_accum_name(run.mode) : "-", run.ntimings, run.trace.n,
               run.kernel.present ? ", kernel " : "", run.kernel.present ? run.kernel.name : "");
        pg_run_free(&run);
    }
    closedir(d);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    check_dir(argv[1]);
    if (files == 0) {
        printf("SKIP: no .h5 files under %s (no committed runs yet)\n", argv[1]);
        return 77;
    }
    printf("%d run files, %d rejected\n", files, bad);
    return bad ? 1 : 0;
}
