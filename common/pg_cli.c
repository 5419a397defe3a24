/* The option-table parser every pegemm subcommand uses (pg_cli.h). */
#include "pg_cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pg_error.h"
#include "pg_outfile.h"
#include "pg_progress.h"

/* Built in to every subcommand, after the table's own. */
static const pg_cli_opt k_builtin[] = {
    {"quiet", 'q', NULL, "no progress and no summary lines on stderr (errors still)"},
    {"help", 'h', NULL, "this text (and nothing else is done)"},
};
enum { BUILTIN_QUIET = 0, BUILTIN_HELP = 1 };

/* The entry argument `a` names in `opts`, or -1.  *eq: where "=VALUE"
 * starts (or NULL). */
static int find_opt(const pg_cli_opt *opts, int n, const char *a, const char **eq)
{
    *eq = NULL;
    if (a[0] != '-' || a[1] == '\0')
        return -1;
    if (a[1] != '-') { /* "-x" */
        if (a[2] != '\0')
            return -1;
        for (int k = 0; k < n; k++)
            if (opts[k].alias && opts[k].alias == a[1])
                return k;
        return -1;
    }
    const char *name = a + 2;
    const char *e = strchr(name, '=');
    size_t len = e ? (size_t)(e - name) : strlen(name);
    for (int k = 0; k < n; k++)
        if (strlen(opts[k].name) == len && strncmp(opts[k].name, name, len) == 0) {
            *eq = e;
            return k;
        }
    return -1;
}

int pg_cli_begin(pg_cli *c, const char *cmd, const pg_cli_opt *opts, int nopts, int argc, char **argv)
{
    memset(c, 0, sizeof *c);
    c->cmd = cmd;
    c->opts = opts;
    c->nopts = nopts;
    c->argc = argc;
    c->argv = argv;
    c->i = 1;
    /* --help wins over everything else, errors included: find it first,
     * stepping over the values of the options that take one. */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *eq;
        if (strcmp(a, "--") == 0)
            break;
        if (find_opt(k_builtin, PG_CLI_COUNT(k_builtin), a, &eq) == BUILTIN_HELP)
            return 1;
        int k = find_opt(opts, nopts, a, &eq);
        if (k >= 0 && opts[k].value && !eq)
            i++;
    }
    return 0;
}

static int cli_error(pg_cli *c, const char *fmt, const char *what)
{
    fprintf(stderr, "pegemm %s: ", c->cmd);
    fprintf(stderr, fmt, what);
    fprintf(stderr, " (see pegemm %s --help)\n", c->cmd);
    return PG_CLI_ERROR;
}

int pg_cli_next(pg_cli *c)
{
    while (c->i < c->argc) {
        const char *a = c->argv[c->i++], *eq = NULL;
        c->arg = a;
        c->value = NULL;
        if (c->only_operands || a[0] != '-' || a[1] == '\0') {
            c->value = a;
            return PG_CLI_OPERAND;
        }
        if (strcmp(a, "--") == 0) {
            c->only_operands = 1;
            continue;
        }
        int b = find_opt(k_builtin, PG_CLI_COUNT(k_builtin), a, &eq);
        if (b >= 0 && !eq) {
            if (b == BUILTIN_QUIET)
                pg_progress_set_quiet(1);
            continue; /* --help: pg_cli_begin saw it */
        }
        int k = find_opt(c->opts, c->nopts, a, &eq);
        if (k < 0)
            return cli_error(c, "unknown option '%s' (not one this command takes)", a);
        if (!c->opts[k].value) {
            if (eq)
                return cli_error(c, "option '%s' takes no value", a);
            return k;
        }
        if (eq) {
            c->value = eq + 1;
        } else {
            if (c->i >= c->argc)
                return cli_error(c, "option '%s' needs a value", a);
            c->value = c->argv[c->i++];
        }
        return k;
    }
    return PG_CLI_END;
}

int pg_cli_next_option(pg_cli *c)
{
    int k = pg_cli_next(c);
    if (k != PG_CLI_OPERAND)
        return k;
    pg_fail("unexpected argument '%s'", c->value);
    pg_cli_usage_error(c);
    return PG_CLI_ERROR;
}

int pg_cli_usage_error(const pg_cli *c)
{
    fprintf(stderr, "pegemm %s: %s (see pegemm %s --help)\n", c->cmd, pg_last_error(), c->cmd);
    return 2;
}

int pg_cli_fail(const char *cmd, int status)
{
    fprintf(stderr, "pegemm %s: %s\n", cmd, pg_last_error());
    return status;
}

static void print_table(FILE *f, const pg_cli_opt *opts, int n)
{
    for (int k = 0; k < n; k++) {
        if (!opts[k].help)
            continue;
        char head[64];
        snprintf(head, sizeof head, "%s%c%s--%s%s%s", opts[k].alias ? "-" : "", opts[k].alias ? opts[k].alias : ' ',
                 opts[k].alias ? ", " : "  ", opts[k].name, opts[k].value ? " " : "", opts[k].value ? opts[k].value : "");
        fprintf(f, "  %-26s %s\n", opts[k].alias ? head : head + 2, opts[k].help);
    }
}

void pg_cli_print_options(FILE *f, const pg_cli_opt *opts, int nopts)
{
    print_table(f, opts, nopts);
    print_table(f, k_builtin, PG_CLI_COUNT(k_builtin));
}

int pg_cli_write_report(const char *path, int (*write)(FILE *f, const void *ctx), const void *ctx)
{
    if (strcmp(path, "-") == 0) {
        if (write(stdout, ctx) != 0)
            return -1;
        return fflush(stdout) == 0 ? 0 : pg_fail("writing to stdout: %s", strerror(errno));
    }
    pg_outfile o;
    if (pg_outfile_open(&o, path) != 0)
        return -1;
    if (write(o.f, ctx) != 0) {
        pg_outfile_abort(&o);
        return pg_fail_context("%s", path);
    }
    return pg_outfile_commit(&o);
}

int pg_cli_json_save(const char *path, pg_json_emit_fn emit, const void *ctx)
{
    if (strcmp(path, "-") != 0)
        return pg_json_save(path, 1, emit, ctx);
    pg_json j;
    pg_json_init(&j, stdout, 1);
    emit(&j, ctx);
    if (pg_json_finish(&j) != 0 || fflush(stdout) != 0)
        return pg_fail_context("writing the JSON report to stdout");
    return 0;
}

int pg_cli_int(const char *opt, const char *s, long long lo, long long hi, long long *out)
{
    char *end = NULL;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end != '\0' || errno != 0 || v < lo || v > hi)
        return pg_fail("%s '%s': expected an integer in [%lld, %lld]", opt, s, lo, hi);
    *out = v;
    return 0;
}

int pg_cli_u64(const char *opt, const char *s, unsigned long long *out)
{
    char *end = NULL;
    errno = 0;
    if (s[0] == '-' || s[0] == '+' || s[0] == '\0')
        return pg_fail("%s '%s': expected a non-negative integer", opt, s);
    unsigned long long v = strtoull(s, &end, 10);
    if (*end != '\0' || errno != 0)
        return pg_fail("%s '%s': expected a non-negative integer", opt, s);
    *out = v;
    return 0;
}

int pg_cli_double(const char *opt, const char *s, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || errno != 0 || !isfinite(v))
        return pg_fail("%s '%s': expected a finite number", opt, s);
    *out = v;
    return 0;
}
