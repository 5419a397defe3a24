/* `pegemm dual ref` and `pegemm dual check`: the dual GEMM's exact inputs
 * and reference output as NumPy files, and a bit-for-bit check of another
 * kernel's output against the CPU reference.  No GPU: built and the same in
 * the CUDA and the reference-only builds. */
#ifndef PG_KERNEL_CLI_DUAL_REF_H
#define PG_KERNEL_CLI_DUAL_REF_H

#include "cli_dual_opts.h"

/* Before any work: `dual ref --dir DIR` can write there: DIR is a directory
 * or does not exist yet (its parent does), and holds none of the files
 * `dual ref` writes.  -1 with a message naming the file otherwise. */
int pg_dual_ref_dir_check(const char *dir);

/* The commands on parsed options; exit status (0 ok, 1 outputs differ, 2
 * usage or input error), messages on stderr. */
int pg_dual_cmd_ref(const dual_opts *o);
int pg_dual_cmd_check(const dual_opts *o);

#endif
