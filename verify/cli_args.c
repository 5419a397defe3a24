#include "cli_args.h"

#include <string.h>

#include "pg_error.h"

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
