/* Helpers shared by `pegemm inputs`, `ref` and `bench-ref` (the problem
 * options themselves: cli_problem.c). */
#include <errno.h>
#include <limits.h>
#include <omp.h>
#include <stdlib.h>

#include "cli_util.h"
#include "pg_error.h"

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

void pg_cli_set_threads(int threads)
{
    if (threads > 0)
        omp_set_num_threads(threads);
}
