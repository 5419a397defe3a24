/* fp32 -> bf16 (RNE) over all 2^32 bit patterns against an independent
 * method: pick the nearer of the two BF16 neighbours by comparing
 * distances in double (ties to the even one), with 2^128 standing in for
 * the neighbour above the largest finite value. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "formats.h"

static uint16_t expected(uint32_t u)
{
    uint32_t mag = u & 0x7FFFFFFFu;
    if (mag > 0x7F800000u)
        return PG_BF16_QNAN;
    if (mag == 0x7F800000u)
        return (uint16_t)(u >> 16);
    uint32_t lo = mag & 0xFFFF0000u;
    uint32_t hi = lo + 0x10000u;
    float x, flo, fhi;
    memcpy(&x, &mag, sizeof x);
    memcpy(&flo, &lo, sizeof flo);
    memcpy(&fhi, &hi, sizeof fhi);
    double dhi = hi == 0x7F800000u ? 0x1p128 : (double)fhi;
    double below = (double)x - (double)flo, above = dhi - (double)x;
    uint32_t pick;
    if (below < above)
        pick = lo;
    else if (above < below)
        pick = hi;
    else
        pick = (lo & 0x10000u) ? hi : lo;
    return (uint16_t)((pick >> 16) | ((u >> 16) & 0x8000u));
}

static void test_all_fp32_patterns(void **state)
{
    (void)state;
    long long bad = 0;
#pragma omp parallel for reduction(+ : bad) schedule(static)
    for (int64_t i = 0; i <= (int64_t)UINT32_MAX; i++) {
        uint32_t u = (uint32_t)i;
        float x;
        memcpy(&x, &u, sizeof x);
        bad += pg_bf16_from_f32(x) != expected(u);
    }
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_all_fp32_patterns)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
