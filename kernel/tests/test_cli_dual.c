/* `pegemm dual run --check`'s comparison (kernel/cli_dual_check.c) on a
 * small problem against pg_dual_gemm_ref, and the trace vocabulary of
 * kernel/dual_gpu.h against the schedules that fit its run files.  No GPU
 * needed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli_dual_check.h"
#include "dual_gpu.h"
#include "rng.h"

enum { G = 2, M = 8, N = 160, K = 256, KB = 2, NB = 2 };

typedef struct {
    uint8_t A[G * M * K], B1[G * N * K], B2[G * N * K];
    float sa[G * M * KB], sb1[G * NB * KB], sb2[G * NB * KB];
    uint16_t C[G * M * N];
    pg_dual_problem dp;
} fixture;

/* E4M3 codes with small exponents (no NaN) and scales in [2^-6, 2^-4]. */
static uint8_t code(uint64_t r) { return (uint8_t)((r & 0x80) | ((r >> 8) % 10) << 3 | ((r >> 16) & 7)); }
static float scale(uint64_t r) { return (float)(4 + r % 5) / 256.0f; }

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    for (int i = 0; i < G * M * K; i++)
        f->A[i] = code(pg_rng_u64(7, 1, (uint64_t)i));
    for (int i = 0; i < G * N * K; i++) {
        f->B1[i] = code(pg_rng_u64(7, 2, (uint64_t)i));
        f->B2[i] = code(pg_rng_u64(7, 3, (uint64_t)i));
    }
    for (int i = 0; i < G * M * KB; i++)
        f->sa[i] = scale(pg_rng_u64(7, 4, (uint64_t)i));
    for (int i = 0; i < G * NB * KB; i++) {
        f->sb1[i] = scale(pg_rng_u64(7, 5, (uint64_t)i));
        f->sb2[i] = scale(pg_rng_u64(7, 6, (uint64_t)i));
    }
    f->dp = (pg_dual_problem){.G = G, .M = M, .N = N, .K = K, .fmt_a = PG_FMT_E4M3, .fmt_b = PG_FMT_E4M3,
                              .A = f->A, .B1 = f->B1, .B2 = f->B2, .scale = PG_SCALE_BLOCK, .scale_a = f->sa,
                              .scale_b1 = f->sb1, .scale_b2 = f->sb2, .out = PG_OUT_BF16};
    if (pg_dual_gemm_ref(&f->dp, pg_accum_preset(PG_ACC_SM90), f->C) != 0) {
        free(f);
        return -1;
    }
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    free(*state);
    return 0;
}

static void check(fixture *f, const int64_t *rows, int64_t n, pg_dual_check_result *r, char *log, size_t nlog)
{
    FILE *tmp = tmpfile();
    assert_non_null(tmp);
    assert_int_equal(pg_dual_check_rows(&f->dp, pg_accum_preset(PG_ACC_SM90), rows, n, f->C, 5, tmp, r), 0);
    rewind(tmp);
    size_t got = fread(log, 1, nlog - 1, tmp);
    log[got] = '\0';
    fclose(tmp);
}

static void test_check_counts_and_names(void **state)
{
    fixture *f = *state;
    pg_dual_check_result r;
    char log[1024];
    /* the reference's own output: every element compared, none differs */
    check(f, NULL, 0, &r, log, sizeof log);
    assert_int_equal(r.compared, G * M * N);
    assert_int_equal(r.rows, G * M);
    assert_int_equal(r.mismatched, 0);
    assert_string_equal(log, "");
    /* one wrong element (group 1, row 3, column 150): found and named */
    f->C[(1 * M + 3) * N + 150] ^= 1;
    check(f, NULL, 0, &r, log, sizeof log);
    assert_int_equal(r.mismatched, 1);
    assert_non_null(strstr(log, "group 1 row 3 col 150"));
    /* a contiguous selection without it, and a scattered one (copied rows,
     * out of order, across groups) with it */
    const int64_t run[] = {0, 1, 2, 3, 4};
    check(f, run, 5, &r, log, sizeof log);
    assert_int_equal(r.compared, 5 * N);
    assert_int_equal(r.mismatched, 0);
    const int64_t scattered[] = {M + 5, 2, M + 3, M + 1};
    check(f, scattered, 4, &r, log, sizeof log);
    assert_int_equal(r.compared, 4 * N);
    assert_int_equal(r.rows, 4);
    assert_int_equal(r.mismatched, 1);
    f->C[(1 * M + 3) * N + 150] ^= 1;
}

static void test_check_refuses(void **state)
{
    fixture *f = *state;
    pg_dual_check_result r;
    const int64_t outside[] = {0, G * M};
    assert_int_equal(pg_dual_check_rows(&f->dp, pg_accum_preset(PG_ACC_SM90), outside, 2, f->C, 5, NULL, &r), -1);
    pg_dual_problem tensor = f->dp;
    tensor.scale = PG_SCALE_TENSOR;
    assert_int_equal(pg_dual_check_rows(&tensor, pg_accum_preset(PG_ACC_SM90), NULL, 0, f->C, 5, NULL, &r), -1);
}

/* The words after `key` on the schedule's line "key w1 w2 ...". */
static void sched_line(const char *path, const char *key, char *out, size_t n)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[512];
    out[0] = '\0';
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, strlen(key)) == 0 && line[strlen(key)] == ' ') {
            snprintf(out, n, "%s", line + strlen(key) + 1);
            out[strcspn(out, "\n")] = '\0';
        }
    fclose(f);
}

static void test_trace_vocab_is_the_schedules(void **state)
{
    (void)state;
    const pgtrace_vocab *v = pg_dual_trace_vocab();
    char roles[256] = "", phases[256] = "", waits[256] = "";
    for (int i = 0; i < v->n_roles; i++)
        snprintf(roles + strlen(roles), sizeof roles - strlen(roles), "%s%s", i ? " " : "", v->role_names[i]);
    for (int i = 0; i < v->n_phases; i++) {
        snprintf(phases + strlen(phases), sizeof phases - strlen(phases), "%s%s", i ? " " : "", v->phase_names[i]);
        if (v->phase_is_wait[i])
            snprintf(waits + strlen(waits), sizeof waits - strlen(waits), "%s%s", waits[0] ? " " : "",
                     v->phase_names[i]);
    }
    static const char *const designs[] = {"inter", "seq"};
    for (int d = 0; d < 2; d++) {
        char path[512], want[256];
        snprintf(path, sizeof path, "%s/model/schedules/h100-dual-%s.sched", PG_SOURCE_DIR, designs[d]);
        sched_line(path, "roles", want, sizeof want);
        assert_string_equal(roles, want);
        sched_line(path, "phases", want, sizeof want);
        assert_string_equal(phases, want);
        sched_line(path, "waits", want, sizeof want);
        assert_string_equal(waits, want);
        assert_string_equal(pg_dual_design_name((pg_dual_design)d), designs[d]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_check_counts_and_names, setup, teardown),
        cmocka_unit_test_setup_teardown(test_check_refuses, setup, teardown),
        cmocka_unit_test(test_trace_vocab_is_the_schedules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
