/* Call a subcommand's entry point with a NULL-terminated list of arguments
 * (argv[0] first), as main() would: call(pg_cmd_verify, "verify", "outputs",
 * path, NULL).  Shared by the CLI tests of verify/. */
#ifndef PG_TEST_CLI_CALL_H
#define PG_TEST_CLI_CALL_H

#include <stdarg.h>
#include <stddef.h>

static inline int call(int (*fn)(int, char **), ...)
{
    char *argv[32];
    int argc = 0;
    va_list ap;
    va_start(ap, fn);
    for (char *a; (a = va_arg(ap, char *)) != NULL && argc < 31;)
        argv[argc++] = a;
    va_end(ap);
    argv[argc] = NULL;
    return fn(argc, argv);
}

#endif
