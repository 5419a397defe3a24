/* The device silu (silu_fp32.h's branch-free pg_silu_f32 with its
 * reciprocal-and-correction division, as the dual kernel's epilogue runs it)
 * against the host's pg_silu_f32 on all 2^32 fp32 bit patterns, bit for
 * bit; on the device also against the two-division formulation it replaced
 * and its division against __fdiv_rn on every operand pair reached
 * (kernel/silu_check.cu).  This is the proof that pg_silu_div is exact
 * where silu uses it (docs/experiments.md D3).  Chunks of 2^26 inputs: one
 * 256 MiB device buffer and one pinned host buffer; the host side runs on
 * OpenMP.  Exits 77 (SKIP) without an sm_90 GPU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <cuda_runtime_api.h>

#include "gpu_skip.h"
#include "silu_check.h"
#include "silu_fp32.h"

#define CHUNK_LOG2 26
#define CHUNK ((uint32_t)1 << CHUNK_LOG2)
#define CHUNKS (1u << (32 - CHUNK_LOG2))


#define CUDA_OK(call) assert_int_equal((call), cudaSuccess)

/* Host pg_silu_f32 against the device's out[] for x = first + i; returns
 * the number of differences and lowers *first_bad to the smallest x. */
static int64_t compare_chunk(uint32_t first, const float *out, uint64_t *first_bad)
{
    int64_t differ = 0;
#pragma omp parallel for reduction(+ : differ) schedule(static, 1 << 16)
    for (int64_t i = 0; i < (int64_t)CHUNK; i++) {
        const uint32_t bits = first + (uint32_t)i;
        if (pg_sf_bits(pg_silu_f32(pg_sf_from_bits(bits))) != pg_sf_bits(out[i])) {
            differ++;
#pragma omp critical
            if (bits < *first_bad)
                *first_bad = bits;
        }
    }
    return differ;
}

static void test_all_inputs(void **state)
{
    (void)state;
    float *dev_out = NULL, *host_out = NULL;
    pg_silu_check_counts *dev_counts = NULL;
    pg_silu_check_counts counts = {0, 0, UINT64_MAX, UINT64_MAX};
    CUDA_OK(cudaMalloc((void **)&dev_out, (size_t)CHUNK * sizeof(float)));
    CUDA_OK(cudaMalloc((void **)&dev_counts, sizeof counts));
    CUDA_OK(cudaMallocHost((void **)&host_out, (size_t)CHUNK * sizeof(float)));
    CUDA_OK(cudaMemcpy(dev_counts, &counts, sizeof counts, cudaMemcpyHostToDevice));
    int64_t host_differ = 0, checked = 0;
    uint64_t first_host = UINT64_MAX;
    for (uint32_t c = 0; c < CHUNKS; c++) {
        const uint32_t first = c * CHUNK;
        CUDA_OK(pg_silu_check_launch(first, CHUNK, dev_out, dev_counts));
        CUDA_OK(cudaMemcpy(host_out, dev_out, (size_t)CHUNK * sizeof(float), cudaMemcpyDeviceToHost));
        host_differ += compare_chunk(first, host_out, &first_host);
        checked += CHUNK;
    }
    CUDA_OK(cudaMemcpy(&counts, dev_counts, sizeof counts, cudaMemcpyDeviceToHost));
    printf("silu device vs host: %lld inputs, %lld differ (first x 0x%llx)\n", (long long)checked,
           (long long)host_differ, (unsigned long long)first_host);
    printf("silu device vs old device formula (two __fdiv_rn): %llu differ (first x 0x%llx)\n", counts.old_differ,
           counts.first_old);
    printf("pg_silu_div vs __fdiv_rn on the operands of all 2^32 inputs: %llu differ (first x 0x%llx)\n",
           counts.div_differ, counts.first_div);
    CUDA_OK(cudaFree(dev_out));
    CUDA_OK(cudaFree(dev_counts));
    CUDA_OK(cudaFreeHost(host_out));
    assert_int_equal(checked, (int64_t)1 << 32);
    assert_int_equal(host_differ, 0);
    assert_int_equal(counts.old_differ, 0);
    assert_int_equal(counts.div_differ, 0);
}

int main(void)
{
    const char *why = gpu_missing();
    if (why) {
        printf("skipping: %s\n", why);
        return 77;
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_all_inputs)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
