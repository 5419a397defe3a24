/* out[i] = pg_silu_f32(in[i]), compiled twice by meson.build: with
 * -ffp-contract=off and with -ffp-contract=fast -mfma, under the names
 * SILU_FILL_NAME gives; test_silu.c checks both give the same bits. */
#include <stdint.h>

#include "silu_fp32.h"

void SILU_FILL_NAME(const float *in, float *out, int64_t n);

void SILU_FILL_NAME(const float *in, float *out, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        out[i] = pg_silu_f32(in[i]);
}
