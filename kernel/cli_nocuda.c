/* Reference-only mode: the CUDA kernel is not compiled into this binary. */
#include <stdio.h>

#include "commands.h"

static int no_kernel(const char *cmd)
{
    fprintf(stderr,
            "pegemm %s: pegemm was built without CUDA (reference-only mode): rebuild with nvcc installed and "
            "`meson setup build -Dcuda=enabled` to run the GPU kernel; `pegemm ref` computes the same outputs on the CPU\n",
            cmd);
    return 2;
}

int pg_cmd_run(int argc, char **argv)
{
    (void)argc;
    return no_kernel(argv[0]);
}

int pg_cmd_bench(int argc, char **argv)
{
    (void)argc;
    return no_kernel(argv[0]);
}

int pg_have_kernel(void) { return 0; }
