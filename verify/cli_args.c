#include "cli_args.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pg_error.h"

int pg_arg_int(const char *opt, const char *s, int64_t lo, int64_t hi, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end != '\0' || errno != 0 || v < lo || v > hi)
        return pg_fail("%s '%s': expected an integer in [%lld, %lld]", opt, s, (long long)lo, (long long)hi);
    *out = v;
    return 0;
}

int pg_arg_u64(const char *opt, const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (s[0] == '-')
        return pg_fail("%s '%s': expected a non-negative integer", opt, s);
    unsigned long long v = strtoull(s, &end, 0);
    if (end == s || *end != '\0' || errno != 0)
        return pg_fail("%s '%s': expected a non-negative integer", opt, s);
    *out = v;
    return 0;
}

int pg_arg_run_file(const char *arg, const char **path, const char *hint)
{
    if (arg[0] == '-')
        return pg_fail("unknown option '%s'%s", arg, hint);
    if (*path)
        return pg_fail("more than one run file ('%s' and '%s')", *path, arg);
    *path = arg;
    return 0;
}

int pg_arg_need_run_file(const char *path)
{
    return path ? 0 : pg_fail("no run file given");
}

int pg_arg_wants_help(int argc, char **argv, int from)
{
    for (int i = from; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return 1;
    return 0;
}
