/* The inputs of `pegemm dual run|bench`: the reference's deterministic
 * generator (reference/dual_inputs.h), so that the CPU check, the kernel's
 * tests and any other tool get the same bytes from (G, M, N, K, out, seed). */
#include <string.h>

#include "cli_dual_common.h"
#include "pg_error.h"

int pg_dual_cli_inputs(const dual_opts *o, pg_dual_inputs *in)
{
    memset(in, 0, sizeof *in);
    if (pg_dual_generate(in, o->G, o->M, o->N, o->K, o->out, o->seed) != 0)
        return pg_fail_context("generating the inputs (G=%lld M=%lld N=%lld K=%lld)", (long long)o->G,
                               (long long)o->M, (long long)o->N, (long long)o->K);
    return 0;
}

void pg_dual_cli_inputs_free(pg_dual_inputs *in)
{
    if (in->A)
        pg_dual_inputs_free(in);
    memset(in, 0, sizeof *in);
}
