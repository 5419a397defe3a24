/* `pegemm run` / `pegemm bench` options (cli_run_opts.h). */
#include "cli_run_opts.h"

#include <string.h>

#include "pg_cli.h"
#include "pg_error.h"
#include "pg_outfile.h"

enum {
    O_OUTPUT, O_OUT, O_SHAPE, O_PROBLEM, O_VARIANT, O_A_PREFETCH, O_FAMILY, O_SEED, O_INPUT, O_ROWS, O_TRACE,
    O_EPI_DELAY, O_MAINLOOP_DELAY, O_REPS, O_WARMUP, O_CHECK, O_BASELINES, O_ABLATE, O_ENERGY, O_COUNT
};

static const pg_cli_opt k_opts[O_COUNT] = {
    [O_OUTPUT] = {"output", 'o', "RUN.h5", "write a run file (atomically)"},
    [O_OUT] = {"out", 0, "RUN.h5", NULL},
    [O_SHAPE] = {"shape", 0, "M,N,K[,P]", "problem shape (default the headline problem; --problem too)"},
    [O_PROBLEM] = {"problem", 0, "M,N,K[,P]", NULL},
    [O_VARIANT] = {"variant", 0, "NAME", "kernel variant: pingpong, bres, bres64, bresmc2, bresmc4, default"},
    [O_A_PREFETCH] = {"a-prefetch", 0, "TILES", "the producer asks L2 for A that many tiles ahead (0..64; 0: pingpong none, bres* its own tile)"},
    [O_FAMILY] = {"family", 0, "NAME", "input family (normal, codes, band, subnormal, special; default normal)"},
    [O_SEED] = {"seed", 0, "S", "generator seed (default 1)"},
    [O_INPUT] = {"input", 0, "RUN.h5", "take the inputs from a run file instead"},
    [O_ROWS] = {"rows", 0, "SPEC", "rows to keep: all, A:B, sample:N, i,j,k (default all up to 2^16, else sample:4096)"},
    [O_TRACE] = {"trace", 0, NULL, "run the clock64 trace build and store /trace"},
    [O_EPI_DELAY] = {"epi-delay", 0, "CYCLES", "spin CYCLES more in each epilogue (model probe)"},
    [O_MAINLOOP_DELAY] = {"mainloop-delay", 0, "CYCLES", "spin CYCLES more at the end of each mainloop (model probe)"},
    [O_REPS] = {"reps", 0, "N", "timed launches (1..256; default run 20, bench 30)"},
    [O_WARMUP] = {"warmup", 0, "N", "untimed launches first (0..1000; default 3)"},
    [O_CHECK] = {"check", 0, NULL, "compare the kept rows bit for bit with the CPU reference; exit 1 on a difference"},
    [O_BASELINES] = {"baselines", 0, NULL, "also time the cuBLASLt baselines and a copy (bench: always)"},
    [O_ABLATE] = {"ablate", 0, NULL, "bench: also time bres with parts of its work dropped"},
    [O_ENERGY] = {"energy", 0, NULL, "bench: also measure board energy per launch (NVML)"},
};

void pg_run_usage(FILE *f, const char *cmd, const char *constraints)
{
    fprintf(f, "usage: pegemm %s [options]\n", cmd);
    fprintf(f, "%s the fused kernel (accumulation mode sm90: wgmma chained over all of K)%s.\n"
               "Needs a CUDA build and an sm_90 GPU; without one, the arguments are checked and the\n"
               "command exits 2 (`pegemm ref` computes the same outputs on the CPU).\n",
            strcmp(cmd, "bench") == 0 ? "Time" : "Run",
            strcmp(cmd, "bench") == 0 ? "\nagainst cuBLASLt and the machine's floors: a copy, the kernel's traffic without math,\n"
                                        "TMA box reads from L2 and DRAM with their latency against loads in flight"
                                      : "");
    if (constraints)
        fprintf(f, "%s", constraints);
    fprintf(f, "options:\n");
    pg_cli_print_options(f, k_opts, O_COUNT);
}

/* One option's value into o; -1 with a message. */
static int take(run_opts *o, int k, const char *v)
{
    long long x = 0;
    unsigned long long u = 0;
    switch (k) {
    case O_OUTPUT: case O_OUT: o->out = v; return 0;
    case O_INPUT: o->input = v; return 0;
    case O_ROWS: o->rows = v; return 0;
    case O_VARIANT: o->variant = v; return 0;
    case O_SHAPE: case O_PROBLEM: return pg_shape_parse(v, &o->shape) ? -1 : pg_shape_check(&o->shape);
    case O_FAMILY: return pg_family_parse(v, &o->family);
    case O_SEED: return pg_cli_u64("--seed", v, &u) ? -1 : (o->seed = u, 0);
    case O_A_PREFETCH: return pg_cli_int("--a-prefetch", v, 0, 64, &x) ? -1 : (o->a_prefetch = x, 0);
    case O_EPI_DELAY: return pg_cli_int("--epi-delay", v, 0, INT32_MAX, &x) ? -1 : (o->epi_delay = x, 0);
    case O_MAINLOOP_DELAY: return pg_cli_int("--mainloop-delay", v, 0, INT32_MAX, &x) ? -1 : (o->mainloop_delay = x, 0);
    case O_REPS: return pg_cli_int("--reps", v, 1, 256, &x) ? -1 : (o->reps = (int)x, 0);
    case O_WARMUP: return pg_cli_int("--warmup", v, 0, 1000, &x) ? -1 : (o->warmup = (int)x, 0);
    case O_TRACE: o->trace = 1; return 0;
    case O_CHECK: o->check = 1; return 0;
    case O_BASELINES: o->baselines = 1; return 0;
    case O_ABLATE: o->ablate = 1; return 0;
    case O_ENERGY: o->energy = 1; return 0;
    default: return pg_fail("internal: option %d not handled", k);
    }
}

int pg_run_parse(int argc, char **argv, int bench, run_opts *o)
{
    const char *cmd = bench ? "bench" : "run";
    memset(o, 0, sizeof *o);
    o->shape = (pg_shape){PG_DEFAULT_M, PG_DEFAULT_N, PG_DEFAULT_K, PG_DEFAULT_P};
    o->family = PG_FAM_NORMAL;
    o->seed = 1;
    o->reps = bench ? 30 : 20;
    o->warmup = 3;
    o->baselines = bench;
    o->a_prefetch = -1;
    pg_cli c;
    if (pg_cli_begin(&c, cmd, k_opts, O_COUNT, argc, argv))
        return 1;
    int k;
    while ((k = pg_cli_next_option(&c)) != PG_CLI_END) {
        if (k == PG_CLI_ERROR)
            return 2;
        if (!bench && (k == O_ABLATE || k == O_ENERGY)) {
            pg_fail("%s is a `pegemm bench` option", c.arg);
            return pg_cli_usage_error(&c);
        }
        if (take(o, k, c.value) != 0)
            return pg_cli_usage_error(&c);
    }
    /* an output that cannot be written should not cost a GPU run */
    if (o->out && pg_outfile_check(o->out) != 0)
        return pg_cli_fail(cmd, 2);
    return 0;
}
