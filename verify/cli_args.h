/* Small helpers for the verify/trace/demo command lines (the options and
 * their numbers: common/pg_cli.h): --help anywhere, the one run file a
 * command reads. */
#ifndef PG_VERIFY_CLI_ARGS_H
#define PG_VERIFY_CLI_ARGS_H

/* 1 if any of argv[from..argc-1] is --help or -h. */
int pg_arg_wants_help(int argc, char **argv, int from);

/* An argument that no option took: the one run file a command reads.  -1
 * with a message for an unknown option ("unknown option 'X'" + `hint`) or a
 * second run file; otherwise *path = arg. */
int pg_arg_run_file(const char *arg, const char **path, const char *hint);
/* -1 with "no run file given" if path is NULL. */
int pg_arg_need_run_file(const char *path);

#endif
