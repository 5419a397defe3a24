/* Fuzz the schedule-expression evaluator (model/expr.c): arbitrary text,
 * evaluated with and without the `warp` variable. */
#include <stdlib.h>

#include "expr.h"
#include "fuzz_util.h"
#include "pg_error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_cstring(data, size);
    double v = 0;
    (void)expr_eval(text, 3.0, &v);
    (void)expr_uses_warp(text);
    pg_clear_error();
    free(text);
    return 0;
}
