/* pegemm: one program, one subcommand per job.  `pegemm CMD --help` on each. */
#include <stdio.h>
#include <string.h>

#include "commands.h"

typedef struct {
    const char *name;
    int (*fn)(int, char **);
    const char *summary;
} command;

static const command k_commands[] = {
    {"demo", pg_cmd_demo, "the main job: verify committed/fresh runs, check traces against the model, F38 what-if, report"},
    {"inputs", pg_cmd_inputs, "write an input run file from family/seed/shape"},
    {"ref", pg_cmd_ref, "run the CPU reference in one accumulation mode and write a run file"},
    {"bench-ref", pg_cmd_bench_ref, "reference throughput per mode beside OpenBLAS sgemm"},
    {"run", pg_cmd_run, "run the GPU kernel and write a run file (needs a CUDA build and an sm_90 GPU)"},
    {"bench", pg_cmd_bench, "time the fused kernel against cuBLASLt baselines and a copy"},
    {"dual", pg_cmd_dual, "the fused SwiGLU dual GEMM on the GPU: run (--check, --trace), bench"},
    {"model", pg_cmd_model, "the cycle model: predict, sweep, fit"},
    {"verify", pg_cmd_verify, "verify outputs (bit-exact) or a trace (against the model)"},
    {"trace", pg_cmd_trace, "export a trace (Chrome trace-event JSON)"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: pegemm COMMAND [ARGS]   (pegemm COMMAND --help for each)\n\ncommands:\n");
    for (size_t i = 0; i < sizeof k_commands / sizeof k_commands[0]; i++)
        fprintf(f, "  %-10s %s\n", k_commands[i].name, k_commands[i].summary);
    fprintf(f, "\nGPU kernel in this build: %s\n", pg_have_kernel() ? "yes (sm_90a)" : "no (reference-only mode)");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    for (size_t i = 0; i < sizeof k_commands / sizeof k_commands[0]; i++)
        if (strcmp(argv[1], k_commands[i].name) == 0)
            return k_commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "pegemm: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return 2;
}
