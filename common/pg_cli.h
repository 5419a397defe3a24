/* The command-line convention of every pegemm subcommand, in one parser.
 *
 * A subcommand declares its options in a table (long name, one-letter alias,
 * whether it takes a value, a help line) and reads them with pg_cli_next().
 * Every subcommand also takes -h/--help (usage on stdout, exit 0, no work:
 * pg_cli_begin finds it before anything else is looked at) and -q/--quiet
 * (no progress, no summary lines).  An unknown option, an option this
 * subcommand does not take, or a missing value is an error naming the option
 * and the subcommand; the caller returns 2.  Values: "--name V",
 * "--name=V", "-x V".  "--" ends the options; "-" alone is an operand. */
#ifndef PG_CLI_H
#define PG_CLI_H

#include <stdio.h>

typedef struct {
    const char *name;  /* long name without "--" */
    char alias;        /* "-x", or 0 */
    const char *value; /* the value's placeholder ("FILE"), or NULL: a flag */
    const char *help;  /* one line for --help; NULL: an accepted alias, not listed */
} pg_cli_opt;

/* pg_cli_next's non-option results (options: their index in the table, >= 0) */
#define PG_CLI_END (-1)
#define PG_CLI_OPERAND (-2) /* an argument no option took: in ->value */
#define PG_CLI_ERROR (-3)   /* message printed; return 2 */

typedef struct {
    const char *cmd; /* "model fit": for messages ("pegemm model fit: ...") */
    const pg_cli_opt *opts;
    int nopts;
    int argc;
    char **argv;
    int i;
    int only_operands; /* after "--" */
    const char *value; /* the option's value, or the operand */
    const char *arg;   /* the option as written (for messages) */
} pg_cli;

#define PG_CLI_COUNT(table) ((int)(sizeof(table) / sizeof((table)[0])))

/* Start reading argv[1..argc-1].  Returns 1 if -h/--help is among the
 * options (print the usage to stdout and return 0 without doing anything),
 * else 0. */
int pg_cli_begin(pg_cli *c, const char *cmd, const pg_cli_opt *opts, int nopts, int argc, char **argv);
/* The next option (its table index; value in c->value), PG_CLI_OPERAND,
 * PG_CLI_END, or PG_CLI_ERROR after printing the message. */
int pg_cli_next(pg_cli *c);
/* pg_cli_next for commands that take no operands: an operand is an error
 * ("unexpected argument"), reported like the others (PG_CLI_ERROR). */
int pg_cli_next_option(pg_cli *c);

/* "pegemm CMD: <pg_last_error()> (see pegemm CMD --help)" on stderr; returns 2. */
int pg_cli_usage_error(const pg_cli *c);
/* "pegemm CMD: <pg_last_error()>" on stderr; returns `status`. */
int pg_cli_fail(const char *cmd, int status);

/* The option lines of the usage text (the table's, then -q and -h). */
void pg_cli_print_options(FILE *f, const pg_cli_opt *opts, int nopts);

/* Write a report to `path` through write(f, ctx) (0 ok, -1 with a message):
 * "-" is stdout; anything else is written atomically (temp file + rename),
 * nothing left behind on failure. */
int pg_cli_write_report(const char *path, int (*write)(FILE *f, const void *ctx), const void *ctx);

/* pg_json_save with the same convention: "-" is stdout. */
#include "pg_json.h"
int pg_cli_json_save(const char *path, pg_json_emit_fn emit, const void *ctx);

/* Whole-string numbers, range-checked; -1 with a message naming `opt`. */
int pg_cli_int(const char *opt, const char *s, long long lo, long long hi, long long *out);
int pg_cli_u64(const char *opt, const char *s, unsigned long long *out);
int pg_cli_double(const char *opt, const char *s, double *out);

#endif
