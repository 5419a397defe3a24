/* `pegemm dual run|bench|ref|check` options (cli_dual_opts.h). */
#include "cli_dual_opts.h"

#include "cli_dual_ref.h"

#include <stdlib.h>
#include <string.h>

#include "pg_cli.h"
#include "pg_error.h"
#include "pg_outfile.h"
#include "problem.h"

static const char *const k_design_names[PG_DUAL_CLI_DESIGNS] = {"inter", "seq"};

const char *pg_dual_cli_design_name(int d) { return d >= 0 && d < PG_DUAL_CLI_DESIGNS ? k_design_names[d] : "?"; }

enum {
    O_PROBLEM, O_DESIGN, O_DESIGNS, O_OUT, O_SEED, O_CHECK, O_ROWS, O_TRACE, O_EPI_DELAY, O_MAINLOOP_DELAY,
    O_ENERGY, O_REPS, O_WARMUP, O_ROUNDS, O_JSON, O_DIR, O_GOT, O_MODE, O_COUNT
};

static const pg_cli_opt k_opts[O_COUNT] = {
    [O_PROBLEM] = {"problem", 0, "G,M,N,K", "G groups of C[M][N] = silu(A B1^T) * (A B2^T), A [M][K] (required)"},
    [O_DESIGN] = {"design", 0, "inter|seq", "run: the kernel design (default inter)"},
    [O_DESIGNS] = {"designs", 0, "LIST", "bench: the designs timed, comma-separated (default inter,seq)"},
    [O_OUT] = {"out", 0, "bf16|fp16", "output type (default bf16)"},
    [O_SEED] = {"seed", 0, "S", "input generator seed (default 1)"},
    [O_CHECK] = {"check", 0, NULL, "run: compare every selected output bit for bit with the CPU reference (sm90)"},
    [O_ROWS] = {"rows", 0, "SPEC", "run --check: rows of C as [G*M][N]: all (default), A:B, sample:N, i,j,k"},
    [O_TRACE] = {"trace", 0, "FILE.h5", "run: also run the trace build and write its trace as a run file"},
    [O_EPI_DELAY] = {"epi-delay", 0, "CYCLES", "run: spin CYCLES after each epilogue's math (model probe)"},
    [O_MAINLOOP_DELAY] = {"mainloop-delay", 0, "CYCLES", "run: spin CYCLES after each mainloop (model probe)"},
    [O_ENERGY] = {"energy", 0, NULL, "bench: also sustained time and board energy per launch (NVML, ~1 s each)"},
    [O_REPS] = {"reps", 0, "N", "bench: timed launches of each (5..10000; default 50)"},
    [O_WARMUP] = {"warmup", 0, "N", "bench: untimed launches of each first (0..1000; default 5)"},
    [O_ROUNDS] = {"rounds", 0, "N", "bench: round-robin rounds the launches are split into (1..100; default 5)"},
    [O_JSON] = {"json", 0, "FILE", "also write the results as JSON (- for stdout)"},
    [O_DIR] = {"dir", 0, "DIR", "ref: write the .npy files and problem.json here; check: read A, B1, B2, scales here"},
    [O_GOT] = {"got", 0, "FILE.npy", "check: your kernel's C, uint16 [G,M,N] bf16/fp16 bits (required)"},
    [O_MODE] = {"mode", 0, "MODE", "ref, check: accumulation: sm90 (default), sm90-promote, exact, fp32, sm100, PRESET,f=v"},
};

static const char *const k_subs[PG_DUAL_SUBS] = {"run", "bench", "ref", "check"};

/* Which subcommands take each option: bit 1 << PG_DUAL_SUB_* (1 run, 2
 * bench, 4 ref, 8 check). */
static const unsigned char k_where[O_COUNT] = {
    [O_PROBLEM] = 7, [O_DESIGN] = 1, [O_DESIGNS] = 2, [O_OUT] = 15, [O_SEED] = 7, [O_CHECK] = 1, [O_ROWS] = 1,
    [O_TRACE] = 1, [O_EPI_DELAY] = 1, [O_MAINLOOP_DELAY] = 1, [O_ENERGY] = 2, [O_REPS] = 2, [O_WARMUP] = 2,
    [O_ROUNDS] = 2, [O_JSON] = 11, [O_DIR] = 12, [O_GOT] = 8, [O_MODE] = 12,
};

/* The usage text of `dual ref` and `dual check` (no GPU). */
static void usage_ref_check(FILE *f, int check)
{
    if (check)
        fprintf(f, "usage: pegemm dual check --dir DIR --got FILE.npy [--mode MODE] [--out bf16|fp16] [--json FILE]\n"
                   "Check YOUR dual-GEMM kernel bit for bit: read A.npy, B1.npy, B2.npy, scale_a.npy, scale_b1.npy,\n"
                   "scale_b2.npy from DIR (as `pegemm dual ref` writes them, or your own inputs in that layout; G, M,\n"
                   "N, K come from their shapes), compute the CPU reference C = silu(A B1^T) * (A B2^T) under MODE,\n"
                   "and compare every element of FILE.npy (uint16 [G,M,N]: the output's bf16/fp16 bits) with it.\n"
                   "Prints how many differ and the first 10 (g, m, n, got, want, ULP distance).\n");
    else
        fprintf(f, "usage: pegemm dual ref --problem G,M,N,K --dir DIR [--seed S] [--out bf16|fp16] [--mode MODE]\n"
                   "Write the exact inputs and the CPU reference output of the fused SwiGLU dual GEMM as NumPy\n"
                   "files into DIR (created if missing; existing files are never replaced): A.npy uint8 [G,M,K]\n"
                   "E4M3 codes, B1.npy / B2.npy uint8 [G,N,K], scale_a.npy float32 [G,M,K/128], scale_b1.npy /\n"
                   "scale_b2.npy float32 [G,N/128,K/128] (DeepGEMM block scales), C.npy uint16 [G,M,N] output bits,\n"
                   "problem.json.  Then run your kernel on them and `pegemm dual check --dir DIR --got C_yours.npy`.\n");
    fprintf(f, "Shapes: N and K multiples of 128 (the block scales)%s.  Needs no GPU (docs/numerics.md,\n"
               "\"Dual GEMM (SwiGLU)\").\nexit status: 0 ok, 1 %s, 2 bad usage or input\noptions:\n",
            check ? "" : ", M a multiple of 128 like `dual run`", check ? "some outputs differ" : "-");
}

void pg_dual_usage(FILE *f, const char *sub)
{
    if (!sub) {
        fprintf(f, "usage: pegemm dual run|bench|ref|check [options]   (pegemm dual SUB --help)\n"
                   "The fused SwiGLU dual GEMM C = silu(A B1^T) * (A B2^T) on the GPU (FP8 E4M3, DeepGEMM block\n"
                   "scales, bf16/fp16 out, G groups; issue 14):\n"
                   "  run    generate the inputs, run one kernel design; --check against the CPU reference,\n"
                   "         --trace writes the trace build's run file (pegemm model fit --schedule h100-dual-*)\n"
                   "  bench  time the designs and the unfused cuBLASLt baseline, interleaved in one process\n"
                   "  ref    (no GPU) write the exact inputs and the reference C as .npy files, for your own kernel\n"
                   "  check  (no GPU) compare your kernel's C (.npy) with the reference, bit for bit\n");
        return;
    }
    int s = PG_DUAL_SUB_RUN;
    for (int i = 0; i < PG_DUAL_SUBS; i++)
        if (strcmp(sub, k_subs[i]) == 0)
            s = i;
    const int bench = s == PG_DUAL_SUB_BENCH;
    if (s == PG_DUAL_SUB_REF || s == PG_DUAL_SUB_CHECK)
        usage_ref_check(f, s == PG_DUAL_SUB_CHECK);
    else if (bench)
        fprintf(f, "usage: pegemm dual bench --problem G,M,N,K [--designs inter,seq] [--out bf16|fp16] [--energy]\n"
                   "                         [--reps N] [--json FILE]\n"
                   "Time the fused kernel's designs and what a user runs instead (two cuBLASLt block-scaled FP8\n"
                   "GEMMs + a silu*mul kernel; per group in a loop, and batched when G > 1) on the same device\n"
                   "inputs, round-robin: median/p10/p90 per launch (CUDA events), TFLOPS, ratio to the baseline.\n");
    else
        fprintf(f, "usage: pegemm dual run --problem G,M,N,K [--design inter|seq] [--out bf16|fp16] [--seed S]\n"
                   "                       [--check [--rows all|A:B|sample:N]] [--trace FILE.h5]\n"
                   "                       [--epi-delay N] [--mainloop-delay N] [--json FILE] [-q]\n"
                   "Generate the inputs (reference/ generator), run the kernel once; --check compares every\n"
                   "selected output with pg_dual_gemm_ref (sm90 preset) and exits 1 on any difference.\n");
    if (s == PG_DUAL_SUB_RUN || bench)
        fprintf(f, "Shapes: M, N, K multiples of %d (the kernel's tile and k-block).  Needs a CUDA build and an\n"
                   "sm_90 GPU; without one the arguments are checked and the command exits 2.\n"
                   "exit status: 0 ok, 1 a check failed, 2 bad usage or input (or no GPU)\noptions:\n",
                PG_DUAL_CLI_BLOCK);
    pg_cli_opt opts[O_COUNT];
    int n = 0;
    for (int k = 0; k < O_COUNT; k++)
        if (k_where[k] & (1u << s))
            opts[n++] = k_opts[k];
    pg_cli_print_options(f, opts, n);
}

static int design_parse(const char *s, int *d)
{
    for (int i = 0; i < PG_DUAL_CLI_DESIGNS; i++)
        if (strcmp(s, k_design_names[i]) == 0) {
            *d = i;
            return 0;
        }
    return pg_fail("unknown design '%s' (inter, seq)", s);
}

static int designs_parse(const char *s, dual_opts *o)
{
    char buf[64];
    if (strlen(s) >= sizeof buf)
        return pg_fail("--designs '%s' is too long (inter, seq, comma-separated)", s);
    snprintf(buf, sizeof buf, "%s", s);
    o->ndesigns = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int d = 0;
        if (design_parse(t, &d) != 0)
            return -1;
        for (int i = 0; i < o->ndesigns; i++)
            if (o->designs[i] == d)
                return pg_fail("--designs names '%s' twice", t);
        o->designs[o->ndesigns++] = d;
    }
    return o->ndesigns ? 0 : pg_fail("--designs '%s' names no design (inter, seq)", s);
}

/* "G,M,N,K" with the kernel's rules and sizes that fit memory arithmetic. */
static int problem_parse(const char *s, dual_opts *o)
{
    char buf[128];
    int64_t v[4];
    static const char *const what[4] = {"G", "M", "N", "K"};
    if (strlen(s) >= sizeof buf)
        return pg_fail("--problem '%.40s...' is too long (G,M,N,K)", s);
    snprintf(buf, sizeof buf, "%s", s);
    char *p = buf;
    for (int i = 0; i < 4; i++) {
        char *comma = strchr(p, ',');
        if ((i < 3) != (comma != NULL))
            return pg_fail("--problem '%s': want four integers G,M,N,K", s);
        if (comma)
            *comma = '\0';
        long long x;
        char opt[32];
        snprintf(opt, sizeof opt, "--problem %s", what[i]);
        if (pg_cli_int(opt, p, 1, i == 0 ? 4096 : (1 << 20), &x) != 0)
            return -1;
        if (i > 0 && x % PG_DUAL_CLI_BLOCK != 0)
            return pg_fail("--problem %s = %lld: the dual-GEMM kernel needs M, N and K multiples of %d", what[i], x,
                           PG_DUAL_CLI_BLOCK);
        v[i] = x;
        p = comma ? comma + 1 : p;
    }
    o->G = v[0], o->M = v[1], o->N = v[2], o->K = v[3];
    const int64_t limit = (int64_t)1 << 36; /* bytes of one operand or of C: 64 GiB */
    if (o->G * o->M * o->K > limit || o->G * o->N * o->K > limit || 2 * o->G * o->M * o->N > limit)
        return pg_fail("--problem %s: an operand or C would exceed 64 GiB", s);
    return 0;
}

/* One option's value into o; -1 with a message. */
static int take(dual_opts *o, int k, const char *v)
{
    long long x = 0;
    unsigned long long u = 0;
    switch (k) {
    case O_PROBLEM: return problem_parse(v, o);
    case O_DESIGN: return design_parse(v, &o->design);
    case O_DESIGNS: return designs_parse(v, o);
    case O_OUT:
        if (strcmp(v, "bf16") == 0)
            o->out = PG_OUT_BF16;
        else if (strcmp(v, "fp16") == 0)
            o->out = PG_OUT_FP16;
        else
            return pg_fail("--out '%s': the kernel writes bf16 or fp16", v);
        return 0;
    case O_SEED: return pg_cli_u64("--seed", v, &u) ? -1 : (o->seed = u, 0);
    case O_CHECK: o->check = 1; return 0;
    case O_ROWS: o->rows = v; return 0;
    case O_TRACE: o->trace = v; return 0;
    case O_EPI_DELAY: return pg_cli_int("--epi-delay", v, 0, INT32_MAX, &x) ? -1 : (o->epi_delay = x, 0);
    case O_MAINLOOP_DELAY: return pg_cli_int("--mainloop-delay", v, 0, INT32_MAX, &x) ? -1 : (o->mainloop_delay = x, 0);
    case O_ENERGY: o->energy = 1; return 0;
    case O_REPS: return pg_cli_int("--reps", v, 5, 10000, &x) ? -1 : (o->reps = (int)x, 0);
    case O_WARMUP: return pg_cli_int("--warmup", v, 0, 1000, &x) ? -1 : (o->warmup = (int)x, 0);
    case O_ROUNDS: return pg_cli_int("--rounds", v, 1, 100, &x) ? -1 : (o->rounds = (int)x, 0);
    case O_JSON: o->json = v; return 0;
    case O_DIR: o->dir = v; return 0;
    case O_GOT: o->got = v; return 0;
    case O_MODE: o->mode = v; return pg_accum_params_parse(v, &o->accum) ? pg_fail_context("--mode") : 0;
    default: return pg_fail("internal: option %d not handled", k);
    }
}

/* After every option: what depends on several of them. */
static int finish(dual_opts *o, int sub)
{
    const int bench = sub == PG_DUAL_SUB_BENCH;
    if (sub == PG_DUAL_SUB_REF || sub == PG_DUAL_SUB_CHECK) {
        if (sub == PG_DUAL_SUB_CHECK && !o->got)
            return pg_fail("give your kernel's output: --got FILE.npy");
        if (!o->dir)
            return pg_fail("give the directory of the .npy files: --dir DIR");
    }
    if (o->G == 0 && sub != PG_DUAL_SUB_CHECK)
        return pg_fail("give the problem: --problem G,M,N,K");
    if (bench && o->rounds > o->reps)
        return pg_fail("--rounds %d is more than --reps %d (each round times every design at least once)", o->rounds,
                       o->reps);
    if (o->rows && !o->check)
        return pg_fail("--rows selects the rows --check compares; give --check too");
    if (o->check && pg_rows_parse(o->rows ? o->rows : "all", o->G * o->M, o->seed, &o->row_list, &o->nrows) != 0)
        return pg_fail_context("--rows (C has %lld rows: G*M)", (long long)(o->G * o->M));
    return 0;
}

/* Outputs that cannot be written should not cost a GPU run (or a reference). */
static int check_outputs(const dual_opts *o)
{
    if (o->dir && !o->got && pg_dual_ref_dir_check(o->dir) != 0)
        return -1;
    if (o->json && o->trace && strcmp(o->json, o->trace) == 0)
        return pg_fail("--json and --trace name the same file '%s'", o->json);
    if (o->trace && strcmp(o->trace, "-") == 0)
        return pg_fail("--trace needs a file name (a run file is not written to stdout)");
    if (o->json && strcmp(o->json, "-") != 0 && pg_outfile_check(o->json) != 0)
        return -1;
    if (o->trace && pg_outfile_check(o->trace) != 0)
        return -1;
    return 0;
}

int pg_dual_parse(int argc, char **argv, int sub, dual_opts *o)
{
    static const char *const cmds[PG_DUAL_SUBS] = {"dual run", "dual bench", "dual ref", "dual check"};
    if (sub < 0 || sub >= PG_DUAL_SUBS)
        return pg_fail("internal: dual subcommand %d", sub), 2;
    const char *cmd = cmds[sub];
    memset(o, 0, sizeof *o);
    o->mode = "sm90";
    o->accum = *pg_accum_preset(PG_ACC_SM90);
    o->out = PG_OUT_BF16;
    o->seed = 1;
    o->design = 0;
    o->designs[0] = 0, o->designs[1] = 1, o->ndesigns = 2;
    o->reps = 50, o->warmup = 5, o->rounds = 5;
    pg_cli c;
    if (pg_cli_begin(&c, cmd, k_opts, O_COUNT, argc, argv)) {
        pg_dual_usage(stdout, k_subs[sub]);
        return 1;
    }
    int k;
    while ((k = pg_cli_next_option(&c)) != PG_CLI_END) {
        if (k == PG_CLI_ERROR)
            return 2;
        if (!(k_where[k] & (1u << sub))) {
            const char *which[PG_DUAL_SUBS];
            int n = 0;
            for (int i = 0; i < PG_DUAL_SUBS; i++)
                if (k_where[k] & (1u << i))
                    which[n++] = k_subs[i];
            pg_fail("%s is not a `pegemm %s` option (it is one of dual %s%s%s)", c.arg, cmd, which[0],
                    n > 1 ? ", " : "", n > 1 ? which[1] : "");
            return pg_cli_usage_error(&c);
        }
        if (take(o, k, c.value) != 0)
            return pg_cli_usage_error(&c);
    }
    if (finish(o, sub) != 0) {
        pg_dual_opts_free(o);
        return pg_cli_usage_error(&c);
    }
    if (check_outputs(o) != 0) {
        pg_dual_opts_free(o);
        return pg_cli_fail(cmd, 2);
    }
    return 0;
}

void pg_dual_opts_free(dual_opts *o)
{
    free(o->row_list);
    o->row_list = NULL;
}

int pg_dual_dispatch(int argc, char **argv, int (*run_fn)(const dual_opts *), int (*bench_fn)(const dual_opts *))
{
    if (argc < 2) {
        pg_dual_usage(stderr, NULL);
        return 2;
    }
    const char *sub = argv[1];
    if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0 || strcmp(sub, "help") == 0) {
        pg_dual_usage(stdout, NULL);
        return 0;
    }
    int s = -1;
    for (int i = 0; i < PG_DUAL_SUBS; i++)
        if (strcmp(sub, k_subs[i]) == 0)
            s = i;
    if (s < 0) {
        fprintf(stderr, "pegemm dual: unknown subcommand '%s' (run, bench, ref, check)\n\n", sub);
        pg_dual_usage(stderr, NULL);
        return 2;
    }
    dual_opts o;
    const int pr = pg_dual_parse(argc - 1, argv + 1, s, &o);
    if (pr == 1)
        return 0;
    if (pr != 0)
        return 2;
    int rc = 2;
    switch (s) {
    case PG_DUAL_SUB_RUN: rc = run_fn(&o); break;
    case PG_DUAL_SUB_BENCH: rc = bench_fn(&o); break;
    case PG_DUAL_SUB_REF: rc = pg_dual_cmd_ref(&o); break;
    case PG_DUAL_SUB_CHECK: rc = pg_dual_cmd_check(&o); break;
    }
    pg_dual_opts_free(&o);
    return rc;
}
