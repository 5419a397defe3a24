/* Reference-only mode: the CUDA kernel is not compiled into this binary.
 * `run` and `bench` still check their arguments (the same parser as the
 * CUDA build), so a bad shape is reported as such; then exit 2.  So do
 * `dual run` and `dual bench` (cli_dual_opts.c). */
#include <stdio.h>

#include "cli_dual_opts.h"
#include "cli_run_opts.h"
#include "commands.h"

static int no_kernel(int argc, char **argv, int bench)
{
    run_opts o;
    int pr = pg_run_parse(argc, argv, bench, &o);
    if (pr == 1) {
        pg_run_usage(stdout, argv[0], NULL);
        return 0;
    }
    if (pr != 0)
        return 2;
    fprintf(stderr,
            "pegemm %s: no CUDA GPU: pegemm was built without CUDA (reference-only mode): rebuild with nvcc "
            "installed and `meson setup build -Dcuda=enabled` to run the GPU kernel; `pegemm ref` computes the same "
            "outputs on the CPU\n",
            argv[0]);
    return 2;
}

int pg_cmd_run(int argc, char **argv) { return no_kernel(argc, argv, 0); }

int pg_cmd_bench(int argc, char **argv) { return no_kernel(argc, argv, 1); }

/* `pegemm dual run|bench`: the same parser as the CUDA build, then exit 2. */
static int no_dual_kernel(const char *sub)
{
    fprintf(stderr,
            "pegemm dual %s: no CUDA GPU: pegemm was built without CUDA (reference-only mode): rebuild with nvcc "
            "installed and `meson setup build -Dcuda=enabled` to run the dual-GEMM kernel\n",
            sub);
    return 2;
}

static int no_dual_run(const dual_opts *o)
{
    (void)o;
    return no_dual_kernel("run");
}

static int no_dual_bench(const dual_opts *o)
{
    (void)o;
    return no_dual_kernel("bench");
}

int pg_cmd_dual(int argc, char **argv) { return pg_dual_dispatch(argc, argv, no_dual_run, no_dual_bench); }

int pg_have_kernel(void) { return 0; }
