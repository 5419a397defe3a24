/* Helpers shared by `pegemm inputs`, `ref` and `bench-ref`. */
#include <errno.h>
#include <limits.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "inputs.h"
#include "pg_error.h"
#include "runfile.h"

int pg_cli_parse_u64(const char *s, const char *what, uint64_t *out)
{
    if (s == NULL || *s == '\0' || *s == '-' || *s == '+')
        return pg_fail("bad %s '%s': expected a non-negative integer", what, s ? s : "");
    errno = 0;
    char *end = NULL;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0')
        return pg_fail("bad %s '%s': expected a non-negative integer", what, s);
    *out = (uint64_t)v;
    return 0;
}

int pg_cli_parse_int(const char *s, const char *what, int lo, int hi, int *out)
{
    if (s == NULL || *s == '\0')
        return pg_fail("bad %s: empty", what);
    errno = 0;
    char *end = NULL;
    long v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
        return pg_fail("bad %s '%s': expected an integer in [%d, %d]", what, s, lo, hi);
    *out = (int)v;
    return 0;
}

int pg_cli_load_problem(const char *input, const char *shape, const char *family, uint64_t seed, pg_problem *p,
                        int *from_file_stored)
{
    memset(p, 0, sizeof *p);
    *from_file_stored = 0;
    if (input != NULL && shape != NULL)
        return pg_fail("give either --input FILE or --problem M,N,K[,P], not both");
    if (input == NULL && shape == NULL)
        return pg_fail("no inputs: give --input FILE or --problem M,N,K[,P] (with --family and --seed)");
    if (input != NULL) {
        pg_run run;
        /* pg_run_read's messages already name the file */
        if (pg_run_read(input, &run, PG_READ_PROBLEM) != 0)
            return -1;
        *p = run.problem; /* take the inputs; free the rest */
        *from_file_stored = run.problem_stored;
        memset(&run.problem, 0, sizeof run.problem);
        pg_run_free(&run);
        return 0;
    }
    pg_shape sh;
    pg_family fam;
    if (pg_shape_parse(shape, &sh) != 0 || pg_family_parse(family, &fam) != 0)
        return -1;
    return pg_problem_generate_progress(p, sh, fam, seed, "generating inputs");
}

void pg_cli_set_threads(int threads)
{
    if (threads > 0)
        omp_set_num_threads(threads);
}
