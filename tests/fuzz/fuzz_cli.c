/* Fuzz the command-line parsers: the bytes are an argv (one element per
 * line; a NUL ends the input), the first element a subcommand, run through its pg_cmd_*
 * entry point inside this process's private scratch directory (cwd).
 *
 * Containment: an element with '/' or a leading '.' is refused, so no path
 * leaves the scratch dir (nor reaches /dev); "-" (stdin/stdout) is refused;
 * commands that need a GPU (unless this build has none: then run/bench are
 * the reference-only stubs), the benchmark and the demo are not driven;
 * numbers are kept small (and the model's --tiles at its least) so no reference GEMM is larger than SMALL_MACS.
 * The scratch dir holds a tiny run file "a.h5" (rewritten every input)
 * and is emptied after each. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "fuzz_util.h"
#include "pg_error.h"

#define MAX_ARGS 24
#define MAX_ARG_LEN 96
#define SMALL_MACS (1LL << 22)

typedef struct {
    const char *name;
    int (*fn)(int, char **);
    int max_digits; /* longest run of digits allowed in any element */
} command;

static const command k_commands[] = {
    {"inputs", pg_cmd_inputs, 3}, {"ref", pg_cmd_ref, 3},     {"verify", pg_cmd_verify, 3},
    {"trace", pg_cmd_trace, 4},   {"model", pg_cmd_model, 3}, {"run", pg_cmd_run, 3},
    {"bench", pg_cmd_bench, 3},
};

static unsigned char *g_run;
static size_t g_run_n;

static void load_tiny_run(void)
{
    FILE *f = fopen(PG_FUZZ_SOURCE_DIR "/corpus/runfile/tiny_trace.h5", "rb");
    if (!f)
        return; /* no run file to point at: the commands still parse */
    unsigned char buf[1 << 16];
    g_run_n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    g_run = malloc(g_run_n);
    if (!g_run)
        abort();
    memcpy(g_run, buf, g_run_n);
}

static void setup_once(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    if (setenv("OMP_NUM_THREADS", "1", 1) != 0 || chdir(fuzz_scratch_dir()) != 0)
        abort();
    load_tiny_run();
}

/* The product of the comma-separated numbers in s (a shape), 1 if none. */
static long long shape_product(const char *s)
{
    long long p = 1;
    for (int i = 0; i < 3 && *s; i++) {
        while (*s && !isdigit((unsigned char)*s))
            s++;
        if (!*s)
            break;
        p *= strtoll(s, (char **)&s, 10);
    }
    return p;
}

static int safe_arg(const char *a, int max_digits)
{
    if (!*a || strchr(a, '/') || a[0] == '.' || strcmp(a, "-") == 0 || strstr(a, "0x") || strstr(a, "0X"))
        return 0;
    int run = 0;
    for (const char *p = a; *p; p++) {
        run = isdigit((unsigned char)*p) ? run + 1 : 0;
        if (run > max_digits)
            return 0;
        if (isdigit((unsigned char)*p) && (p[1] == 'e' || p[1] == 'E')) /* 9e9 */
            return 0;
    }
    return !strchr(a, ',') || shape_product(a) <= SMALL_MACS;
}

/* The model's Monte Carlo runs 20,000-100,000 tiles by default (seconds
 * under ASan): a subcommand that takes --tiles gets the smallest allowed
 * (100) unless the input names its own, so parsing stays what is fuzzed. */
static int add_model_tiles(int argc, char **argv)
{
    static char opt[] = "--tiles", val[] = "100";
    static const char *const takes_tiles[] = {"predict", "sweep", "validate-delays", "import-seed", "fit"};
    int takes = 0;
    for (size_t i = 0; argc > 1 && i < sizeof takes_tiles / sizeof takes_tiles[0]; i++)
        takes |= strcmp(argv[1], takes_tiles[i]) == 0;
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--tiles") == 0)
            takes = 0;
    if (!takes || argc + 2 > MAX_ARGS)
        return argc;
    memmove(argv + 4, argv + 2, (size_t)(argc - 1) * sizeof *argv); /* with the NULL */
    argv[2] = opt;
    argv[3] = val;
    return argc + 2;
}

/* Split into argv; 0 if empty, unsafe or too long. */
static int split_args(char *text, char **argv)
{
    int argc = 0;
    for (char *p = text, *end; argc < MAX_ARGS; p = end + 1) {
        end = p + strcspn(p, "\n");
        int last = *end == '\0';
        *end = '\0';
        if (strlen(p) > MAX_ARG_LEN)
            return 0;
        argv[argc++] = p;
        if (last)
            break;
    }
    argv[argc] = NULL;
    return argc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup_once();
    if (size > MAX_ARGS * (MAX_ARG_LEN + 1))
        return 0;
    char *text = fuzz_cstring(data, size); /* an embedded NUL ends the argv */
    char *argv[MAX_ARGS + 1];
    int argc = split_args(text, argv);
    const command *cmd = NULL;
    for (size_t i = 0; argc > 0 && i < sizeof k_commands / sizeof k_commands[0]; i++)
        if (strcmp(argv[0], k_commands[i].name) == 0)
            cmd = &k_commands[i];
    if (cmd && (cmd->fn == pg_cmd_run || cmd->fn == pg_cmd_bench) && pg_have_kernel())
        cmd = NULL;
    for (int i = 1; cmd && i < argc; i++)
        if (!safe_arg(argv[i], cmd->max_digits))
            cmd = NULL;
    if (cmd && cmd->fn == pg_cmd_model)
        argc = add_model_tiles(argc, argv);
    if (cmd) {
        if (g_run)
            fuzz_write_file("a.h5", g_run, g_run_n);
        (void)cmd->fn(argc, argv);
        fuzz_clear_scratch();
        pg_clear_error();
    }
    free(text);
    return 0;
}
