/* The GPU kernel against the CPU reference, bit for bit (checkasm style:
 * same signature, re-seeded inputs, every family, partial tiles, small P).
 * GPU cases skip with the reason when no sm_90 GPU is present; the shape and
 * mode checks run everywhere. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cuda_runtime_api.h>

#include "gemm.h"
#include "gpu_session.h"
#include "gpu_skip.h"
#include "inputs.h"
#include "pg_error.h"
#include "runner.h"
#include "tma_floor_host.h"

static void compare_case(pg_shape s, pg_family f, uint64_t seed, const char *rows_spec)
{
    pg_problem p = {0};
    int64_t *rows = NULL, nrows = 0;
    assert_int_equal(pg_problem_generate(&p, s, f, seed), 0);
    assert_int_equal(pg_rows_parse(rows_spec, s.M, seed, &rows, &nrows), 0);
    uint16_t *gpu = malloc((size_t)(nrows * s.N) * 2), *ref = malloc((size_t)(nrows * s.N) * 2);
    assert_non_null(gpu);
    assert_non_null(ref);
    if (pg_gemm_gpu(&p, PG_ACC_SM90, PG_EPI_DOUBLE, rows, nrows, gpu, NULL, NULL) != 0)
        fail_msg("pg_gemm_gpu: %s", pg_last_error());
    assert_int_equal(pg_gemm_ref(&p, PG_ACC_SM90, PG_EPI_DOUBLE, rows, nrows, ref, NULL, NULL), 0);
    int64_t bad = 0;
    for (int64_t i = 0; i < nrows * s.N; i++)
        if (gpu[i] != ref[i] && bad++ < 5)
            print_message("%s M=%lld P=%lld: row %lld col %lld gpu 0x%04x ref 0x%04x\n", pg_family_name(f),
                          (long long)s.M, (long long)s.P, (long long)(rows ? rows[i / s.N] : i / s.N),
                          (long long)(i % s.N), gpu[i], ref[i]);
    assert_int_equal(bad, 0);
    free(gpu);
    free(ref);
    free(rows);
    pg_problem_free(&p);
}

static void test_every_family_partial_tiles(void **state)
{
    (void)state;
    skip_without_gpu();
    /* 1000 = 15 full 64-row tiles + 40 rows; P = 196 */
    for (int f = 0; f < PG_FAM_COUNT; f++)
        compare_case((pg_shape){1000, 768, 768, 196}, (pg_family)f, 11 + (uint64_t)f, "all");
}

static void test_small_p_and_tiny_m(void **state)
{
    (void)state;
    skip_without_gpu();
    compare_case((pg_shape){133, 256, 128, 1}, PG_FAM_CODES, 5, "all");
    compare_case((pg_shape){1, 512, 256, 7}, PG_FAM_NORMAL, 6, "all");
    compare_case((pg_shape){300, 768, 384, 37}, PG_FAM_SPECIAL, 7, "sample:50");
}

/* The trace build through the tracing kit: every tile of the problem once
 * per phase (seven rows: five consumer, two producer), the consumer rows on
 * warpgroup 0 or 1, intervals in order, every row's SM anchored, nothing
 * dropped.  M = 900: 15 row blocks, so pingpong's last pair has a block past
 * M, which runs but is not traced. */
static void trace_case(pg_variant v)
{
    pg_problem p = {0};
    pg_gpu g;
    pg_trace t = {0};
    int64_t unwritten = -1;
    const pg_shape s = {900, 768, 768, 196};
    assert_int_equal(pg_problem_generate(&p, s, PG_FAM_NORMAL, 3), 0);
    if (pg_gpu_open(&g) != 0)
        fail_msg("pg_gpu_open: %s", pg_last_error());
    g.variant = v;
    if (pg_gpu_load(&g, &p) != 0 || pg_gpu_checked_run(&g, 1, 0, 0, &unwritten) != 0 || pg_gpu_collect_trace(&g, &t) != 0)
        fail_msg("%s trace build: %s", pg_variant_get(g.variant)->cli, pg_last_error());
    assert_int_equal(unwritten, 0);
    assert_int_equal(g.trace_dropped, 0);
    assert_int_equal(t.n, 7 * g.num_tiles);
    assert_int_equal(t.n_sm, g.sm_count);
    int64_t per_phase[PG_PH_COUNT] = {0};
    for (int64_t k = 0; k < t.n; k++) {
        const int consumer = t.phase[k] <= PG_PH_EPILOGUE_STORE;
        assert_true(t.phase[k] <= PG_PH_PRODUCER_ISSUE);
        assert_int_equal(t.role[k], consumer ? PG_ROLE_CONSUMER : PG_ROLE_PRODUCER);
        assert_true(consumer ? (t.warp[k] == 0 || t.warp[k] == 1) : t.warp[k] == 0);
        assert_true(t.tile[k] >= 0 && t.tile[k] < g.num_tiles);
        assert_true(t.begin[k] > 0 && t.begin[k] <= t.end[k]);
        assert_true(t.sm[k] >= 0 && t.sm[k] < t.n_sm && t.anchor_clock[t.sm[k]] > 0);
        per_phase[t.phase[k]]++;
        /* a tile's consumer phases follow each other: rows k-1, k of one tile */
        if (consumer && t.phase[k] > PG_PH_ORDER_WAIT)
            assert_int_equal(t.begin[k], t.end[k - 1]);
    }
    for (int ph = 0; ph <= PG_PH_PRODUCER_ISSUE; ph++)
        assert_int_equal(per_phase[ph], g.num_tiles);
    assert_true(g.trace_clock_hz > 1e8 && g.trace_clock_hz < 5e9);
    pg_trace_free(&t);
    pg_gpu_close(&g);
    pg_problem_free(&p);
}

static void test_trace_build(void **state)
{
    (void)state;
    skip_without_gpu();
    trace_case(PG_VARIANT_PINGPONG);
    trace_case(PG_VARIANT_AUTO);
}

/* The bench's TMA floors and its latency table (tma_floor_host.h,
 * docs/experiments.md M44, M48, M50, M51) on a problem whose A is more
 * than twice the L2: each source at its deepest ring runs, a ring deeper
 * than shared memory holds is reported not run with the reason, and the
 * table has every row measured, none "not run". */
static void test_tma_floors(void **state)
{
    (void)state;
    skip_without_gpu();
    pg_problem p = {0};
    pg_gpu g;
    const pg_shape s = {200704, 768, 768, 196};
    assert_int_equal(pg_problem_generate(&p, s, PG_FAM_NORMAL, 3), 0);
    if (pg_gpu_open(&g) != 0 || pg_gpu_load(&g, &p) != 0)
        fail_msg("%s", pg_last_error());
    pg_tma_floor f;
    void *buf = NULL;
    char why[160] = "";
    assert_int_equal(pg_tma_floor_l2(&g, 6, &f, &buf, why, sizeof why), 0);
    assert_int_equal(pg_tma_floor_launch(&f, g.sm_count, g.stream), cudaSuccess);
    assert_int_equal(cudaStreamSynchronize(g.stream), cudaSuccess);
    cudaFree(buf);
    assert_int_equal(pg_tma_floor_dram(&g, 8, &f, why, sizeof why), 0);
    assert_int_equal(pg_tma_floor_launch(&f, g.sm_count, g.stream), cudaSuccess);
    assert_int_equal(cudaStreamSynchronize(g.stream), cudaSuccess);
    assert_true(pg_tma_floor_bytes(&f, g.sm_count) >= (double)s.M * s.K); /* every box of A at least once */
    assert_int_equal(pg_tma_floor_l2(&g, PG_TMA_FLOOR_MAX_STAGES, &f, &buf, why, sizeof why), 1);
    assert_null(buf);
    assert_non_null(strstr(why, "shared memory"));
    FILE *out = tmpfile();
    assert_non_null(out);
    assert_int_equal(pg_tma_latency_report(&g, 3000, out), 0);
    char text[4096] = "";
    rewind(out);
    const size_t n = fread(text, 1, sizeof text - 1, out);
    text[n] = '\0';
    fclose(out);
    assert_non_null(strstr(text, "L2-resident 32 KB"));
    assert_non_null(strstr(text, "DRAM contig., 1 on N SMs"));
    assert_null(strstr(text, "not run"));
    pg_gpu_close(&g);
    pg_problem_free(&p);
}

static void test_rejects_bad_shapes(void **state)
{
    (void)state;
    pg_shape s = {1024, 100, 768, 196};
    assert_int_equal(pg_gpu_shape_supported(&s), -1);
    assert_non_null(strstr(pg_last_error(), "N"));
    s = (pg_shape){1024, 768, 100, 196};
    assert_int_equal(pg_gpu_shape_supported(&s), -1);
    assert_non_null(strstr(pg_last_error(), "K"));
    s = (pg_shape){1024, 768, 768, 0};
    assert_int_equal(pg_gpu_shape_supported(&s), -1);
    s = (pg_shape){1, 256, 128, 1};
    assert_int_equal(pg_gpu_shape_supported(&s), 0);
}

static void test_rejects_other_modes(void **state)
{
    (void)state;
    pg_problem p = {.shape = {64, 256, 128, 1}};
    uint16_t d[1];
    float acc[1];
    assert_int_equal(pg_gemm_gpu(&p, PG_ACC_FP32, PG_EPI_DOUBLE, NULL, 64, d, NULL, NULL), -1);
    assert_non_null(strstr(pg_last_error(), "sm90"));
    assert_int_equal(pg_gemm_gpu(&p, PG_ACC_SM90, PG_EPI_SINGLE, NULL, 64, d, NULL, NULL), -1);
    assert_int_equal(pg_gemm_gpu(&p, PG_ACC_SM90, PG_EPI_DOUBLE, NULL, 64, d, acc, NULL), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rejects_bad_shapes),
        cmocka_unit_test(test_rejects_other_modes),
        cmocka_unit_test(test_every_family_partial_tiles),
        cmocka_unit_test(test_small_p_and_tiny_m),
        cmocka_unit_test(test_trace_build),
        cmocka_unit_test(test_tma_floors),
    };
    return cmocka_run_group_tests_name("kernel", tests, NULL, NULL);
}
