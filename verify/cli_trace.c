/* pegemm trace export --chrome RUN.h5 [--output FILE]
 * pegemm trace import --csv FILE --output RUN.h5 [--schedule NAME|FILE.sched] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chrome.h"
#include "cli_args.h"
#include "commands.h"
#include "pg_cli.h"
#include "pg_error.h"
#include "pg_outpath.h"
#include "pg_progress.h"
#include "pgtrace_runfile.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: pegemm trace export --chrome RUN.h5 [-o|--output FILE] [-q|--quiet]\n"
               "  Write the run's trace as Chrome trace-event JSON (open in https://ui.perfetto.dev or\n"
               "  chrome://tracing): one process per SM, one thread per warp role and warp, times in us\n"
               "  from the run's measured SM clock, SMs aligned by their %%globaltimer anchors.\n"
               "  Default output: RUN.h5 with .h5 replaced by .chrome.json.\n"
               "usage: pegemm trace import --csv FILE -o|--output RUN.h5 [--schedule NAME|FILE.sched]\n"
               "  Convert a CSV trace of the tracing kit (traces/kit/README.md) to a run file (schema v2):\n"
               "  the kernel's own roles and phases, anchors and clock, unchanged; --schedule names the\n"
               "  schedule that describes the kernel (used by model fit and verify trace by default).\n"
               "exit status: 0 written, 2 bad usage or input\n");
}

static int cmd_import(int argc, char **argv)
{
    const char *csv = NULL, *output = NULL, *schedule = NULL;
    int r;
    enum { O_CSV, O_OUTPUT, O_SCHEDULE, O_COUNT };
    static const pg_cli_opt opts[O_COUNT] = {
        [O_CSV] = {"csv", 0, "FILE", NULL},
        [O_OUTPUT] = {"output", 'o', "RUN.h5", NULL},
        [O_SCHEDULE] = {"schedule", 0, "NAME|FILE", NULL},
    };
    pg_cli c;
    pg_cli_begin(&c, "trace import", opts, O_COUNT, argc, argv);
    while ((r = pg_cli_next(&c)) != PG_CLI_END) {
        if (r == PG_CLI_ERROR)
            return 2;
        if (r == PG_CLI_OPERAND) {
            pg_fail("unexpected argument '%s' (give the CSV with --csv)", c.value);
            goto bad;
        }
        csv = r == O_CSV ? c.value : csv;
        output = r == O_OUTPUT ? c.value : output;
        schedule = r == O_SCHEDULE ? c.value : schedule;
    }
    if (!csv || !output) {
        pg_fail("give --csv FILE and --output RUN.h5");
        goto bad;
    }
    /* the CSV is an input: a regular file (never wait on a FIFO), and no output may replace it */
    FILE *probe = pg_input_fopen(csv, "trace CSV");
    if (!probe)
        goto bad;
    fclose(probe);
    if (pgtrace_csv_to_runfile(csv, output, schedule) != 0)
        goto bad;
    pg_note("wrote %s from %s", output, csv);
    return 0;
bad:
    fprintf(stderr, "pegemm trace import: %s\n", pg_last_error());
    return 2;
}

/* RUN.h5 with .h5 replaced by .chrome.json (malloc'd; NULL with the error set). */
static char *default_chrome_path(const char *path)
{
    size_t n = strlen(path);
    char *out = malloc(n + 16);
    if (!out) {
        pg_fail("out of memory");
        return NULL;
    }
    memcpy(out, path, n + 1);
    if (n > 3 && strcmp(path + n - 3, ".h5") == 0)
        out[n - 3] = '\0';
    strcat(out, ".chrome.json");
    return out;
}

/* export's options.  0: parsed; 2: the parser has said why (exit 2 as is);
 * -1: pg_last_error says why. */
static int parse_export(int argc, char **argv, const char **path, const char **output)
{
    int chrome = 0, r;
    enum { O_CHROME, O_OUTPUT, O_COUNT };
    static const pg_cli_opt opts[O_COUNT] = {
        [O_CHROME] = {"chrome", 0, NULL, NULL},
        [O_OUTPUT] = {"output", 'o', "FILE", NULL},
    };
    pg_cli c;
    pg_cli_begin(&c, "trace export", opts, O_COUNT, argc, argv); /* --help: pg_cmd_trace */
    while ((r = pg_cli_next(&c)) != PG_CLI_END) {
        if (r == PG_CLI_ERROR)
            return 2;
        if (r == PG_CLI_OPERAND && pg_arg_run_file(c.value, path, " (see pegemm trace export --help)") != 0)
            return -1;
        chrome |= r == O_CHROME;
        *output = r == O_OUTPUT ? c.value : *output;
    }
    if (!chrome)
        return pg_fail("give the export format: --chrome (the only one so far)");
    return pg_arg_need_run_file(*path);
}

/* Read the run's trace and write it as Chrome trace-event JSON. */
static int export_chrome(const char *path, const char *output)
{
    pg_run run;
    pg_chrome_counts counts;
    int rc = -1;
    memset(&run, 0, sizeof run);
    if (pg_run_read(path, &run, PG_READ_TRACE) != 0)
        return -1;
    /* its messages name the run or the output file, whichever failed */
    if (pg_chrome_save(output, &run, path, &counts) != 0)
        goto done;
    pg_note("wrote %s: %lld phase events on %lld SMs, %lld warp threads%s", output, (long long)counts.phase_events,
           (long long)counts.process_names, (long long)counts.thread_names,
           counts.aligned ? ", SMs aligned by %globaltimer" : ", no anchors: each SM starts at 0");
    rc = 0;
done:
    pg_run_free(&run);
    return rc;
}

static int cmd_export(int argc, char **argv)
{
    const char *path = NULL, *output = NULL;
    char *default_out = NULL;
    int rc = parse_export(argc, argv, &path, &output);
    if (rc == 2)
        return 2;
    if (rc != 0)
        goto bad;
    if (!output && (output = default_out = default_chrome_path(path)) == NULL)
        goto bad;
    if (export_chrome(path, output) != 0)
        goto bad;
    rc = 0;
    goto done;
bad:
    fprintf(stderr, "pegemm trace export: %s\n", pg_last_error());
    rc = 2;
done:
    free(default_out);
    return rc;
}

int pg_cmd_trace(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (pg_arg_wants_help(argc, argv, 1)) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "import") == 0)
        return cmd_import(argc - 1, argv + 1);
    if (strcmp(argv[1], "export") != 0) {
        fprintf(stderr, "pegemm trace: unknown subcommand '%s' (export, import)\n", argv[1]);
        usage(stderr);
        return 2;
    }
    return cmd_export(argc - 1, argv + 1);
}
