/* A fit at another K than the schedule was written for (model/fit.c
 * fit_set_probes, docs/experiments.md M121): the k-block loop's tile compute
 * follows the run's work once, whether the schedule writes it per tile
 * (h100-bres: 2304/$kblocks) or per k-block (h100-pingpong: 512 each), and
 * the self-fit reproduces the run.
 * argv: traces/probes/h200/pingpong_ml_00000.h5 (pingpong at K = 768),
 * traces/probes/h200_s40/pingpong_k1536.h5 (pingpong at K = 1,536: +43%
 * before, its loop's compute scaled x 4), traces/probes/h200_s44/
 * bres_k512_epi_02000.h5 (bres at K = 512). */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model.h"
#include "model_ext.h"
#include "pg_error.h"
#include "runfile.h"
#include "fit.h"
#include "fitted_run.h"
#include "sched.h"

enum { PINGPONG_768, PINGPONG_1536, BRES_512, N_RUNS };
static const char *g_path[N_RUNS];

/* the loop's tensor-core cycles per tile: K / 128 k-blocks of 64 x N_tile x 128 at 8,192 FLOP a cycle */
static double tile_compute(const pg_schedule *s)
{
    return s->kb_compute * s->kb_count;
}

static void expect_self_fit(const pg_fitted_run *f, const char *what)
{
    const double err = f->model.tile_period / f->measured.tile_period - 1;
    if (fabs(err) > 0.03)
        fail_msg("%s: self-fit period %.1f against %.1f measured (%+.1f%%)", what, f->model.tile_period,
                 f->measured.tile_period, 100 * err);
}

static void test_pingpong_other_k(void **state)
{
    (void)state;
    pg_fitted_run at768, at1536;
    pg_fitted_run_load(g_path[PINGPONG_768], 20000, &at768);
    pg_fitted_run_load(g_path[PINGPONG_1536], 20000, &at1536);
    assert_int_equal(at1536.s->kb_count, 12);
    assert_true(fabs(tile_compute(at768.s) - 3072) < 1);
    assert_true(fabs(tile_compute(at1536.s) - 6144) < 1); /* 12,288 before M121 */
    expect_self_fit(&at1536, "pingpong K = 1,536");
    char note[256];
    assert_int_equal(fit_loop_unmeasured(at768.s, note, sizeof note), 0); /* 6 k-blocks on 4 stages */
    assert_string_equal(note, "");
    /* the loop's stall-free overhead is the SM's, not K's: 0 before (the
     * extra compute ate it), ~240 at K = 768 */
    assert_true(fabs(at1536.s->kb_fixed - at768.s->kb_fixed) < 600);
    assert_true(at1536.s->kb_fixed > 0);
    pg_fitted_run_free(&at768);
    pg_fitted_run_free(&at1536);
}

static void test_bres_other_k(void **state)
{
    (void)state;
    pg_fitted_run f;
    pg_fitted_run_load(g_path[BRES_512], 20000, &f);
    assert_int_equal(f.s->kb_count, 4);
    assert_true(fabs(tile_compute(f.s) - 1536) < 1); /* 4 x 384: unchanged by M121 */
    expect_self_fit(&f, "bres K = 512");
    /* 4 k-blocks on 4 stages: the loop's latency is not measured (M123) */
    char note[256];
    assert_int_equal(fit_loop_unmeasured(f.s, note, sizeof note), 1);
    assert_non_null(strstr(note, "4 k-blocks on a 4-stage ring"));
    pg_fitted_run_free(&f);
}

int main(int argc, char **argv)
{
    if (argc != 1 + N_RUNS) {
        fprintf(stderr, "usage: %s PINGPONG_768.h5 PINGPONG_1536.h5 BRES_512.h5\n", argv[0]);
        return 2;
    }
    for (int i = 0; i < N_RUNS; i++)
        g_path[i] = argv[1 + i];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pingpong_other_k),
        cmocka_unit_test(test_bres_other_k),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
