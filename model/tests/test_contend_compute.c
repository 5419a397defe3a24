/* The `contend` line's compute= key (model/contend.c contend_weight,
 * docs/experiments.md M30): a cycle of overlap with a `by` step that ran
 * longer than its compute counts compute / work (only the step's compute
 * contends; its stalls do not).
 *  - the engine: two ping-pong warpgroups with constant phases, where the
 *    epilogue's steady state is known in closed form; a spin after the
 *    `by` step's work does not dilute the weight;
 *  - the fit: on a synthetic trace whose epilogue is slowed by C x the
 *    other mainloop's compute share x the overlap, the fit with compute=
 *    recovers C, and the fit without it does not (so the key is needed);
 *  - write-back and reload keep the key; a negative value is rejected. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine.h"
#include "model_ext.h"
#include "pg_error.h"
#include "fit.h"
#include "sched.h"
#include "sched_text.h"

static const char k_pp[] = "schedule pp\n"
                           "option K 0\n"
                           "option md 0\n"
                           "machine units=1 tiles=20000 clock_hz=1e9 flops=1e12\n"
                           "period consumer.mainloop\n"
                           "phase mainloop family=const mean=1000\n"
                           "phase epilogue_regs family=const mean=400\n"
                           "role consumer instances=2 mode=rotate\n"
                           "  wait order_wait until consumer.mainloop[1]\n"
                           "  work mainloop + $md\n"
                           "  work epilogue_regs\n"
                           "contend epilogue_regs by=mainloop slowdown=0.5 window=1 compute=$K\n";

#define NEAR(x, want, tol)                                                                                             \
    do {                                                                                                               \
        if (!(fabs((x) - (want)) < (tol)))                                                                             \
            fail_msg("%s = %.3f, expected %.3f", #x, (x), (double)(want));                                             \
    } while (0)

static double epilogue_at(const char *const *sets, int n)
{
    pg_schedule *s = NULL;
    if (pg_schedule_load_text(k_pp, "pp.sched", &s) != 0)
        fail_msg("load: %s", pg_last_error());
    for (int i = 0; i < n; i++)
        if (pg_schedule_set(s, sets[i], 0) != 0)
            fail_msg("set %s: %s", sets[i], pg_last_error());
    pg_model_opts o = {20000, 1, 1};
    pg_prediction p;
    if (pg_model_predict(s, &o, &p) != 0)
        fail_msg("predict: %s", pg_last_error());
    const double e = pg_prediction_find(&p, "epilogue_regs")->mean;
    pg_schedule_free(s);
    return e;
}

/* The other mainloop (1,000 cycles of work) starts as the epilogue starts
 * and covers it: w = 400 + 0.5 f w with f = the counted share. */
static void test_closed_form(void **state)
{
    (void)state;
    /* compute=0: every cycle counts (the line as before): w = 800 */
    NEAR(epilogue_at(NULL, 0), 800, 1.0);
    /* compute=500 of 1,000: f = 0.5, w = 400 / 0.75 */
    const char *half[] = {"K=500"};
    NEAR(epilogue_at(half, 1), 400 / 0.75, 1.0);
    /* compute above the work: the step never stalled, f = 1 */
    const char *over[] = {"K=2000"};
    NEAR(epilogue_at(over, 1), 800, 1.0);
    /* a 1,000-cycle spin after the mainloop's work: the next mainloop
     * starts as this epilogue starts and still covers it; the weight is
     * 500 / 1,000 of the work, not 500 / 2,000 with the spin */
    const char *spin[] = {"K=500", "md=1000"};
    NEAR(epilogue_at(spin, 2), 400 / 0.75, 1.0);
}

static double uniform(uint64_t *x)
{
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*x >> 11) / 9007199254740992.0;
}

typedef struct {
    pg_trace t;
    int64_t *row_of;
    sch_table *T;
} synth;

/* One SM, n tiles: mainloop k (compute 1,000 plus a stall uniform in
 * [0, 1,500]) ends, epilogue k starts, mainloop k + 1 starts g later (g
 * uniform in [0, 1,400]); epilogue k's work is u + C x (1,000 / mainloop
 * k + 1's work) x its overlap with it, u independent of g. */
static void make_trace(synth *S, int64_t n, double C)
{
    memset(S, 0, sizeof *S);
    pg_trace *t = &S->t;
    assert_true(pg_vocab_add_role(&t->vocab, "consumer") == 0);
    assert_true(pg_vocab_add_phase(&t->vocab, "mainloop", 0) == 0);
    assert_true(pg_vocab_add_phase(&t->vocab, "epilogue_regs", 0) == 0);
    t->n = 2 * n;
    t->sm = calloc((size_t)t->n, sizeof *t->sm);
    t->role = calloc((size_t)t->n, sizeof *t->role);
    t->warp = calloc((size_t)t->n, sizeof *t->warp);
    t->tile = calloc((size_t)t->n, sizeof *t->tile);
    t->phase = calloc((size_t)t->n, sizeof *t->phase);
    t->begin = calloc((size_t)t->n, sizeof *t->begin);
    t->end = calloc((size_t)t->n, sizeof *t->end);
    S->row_of = calloc((size_t)n, sizeof *S->row_of);
    S->T = calloc(1, sizeof *S->T);
    double *m = calloc((size_t)n, sizeof *m), *g = calloc((size_t)n, sizeof *g);
    assert_true(t->sm && t->role && t->warp && t->tile && t->phase && t->begin && t->end && S->row_of && S->T && m && g);
    S->T->rows = n;
    S->T->cols = 2;
    snprintf(S->T->colname[0], sizeof S->T->colname[0], "mainloop#0");
    snprintf(S->T->colname[1], sizeof S->T->colname[1], "epilogue_regs#0");
    S->T->v = calloc((size_t)(2 * n), sizeof *S->T->v);
    assert_non_null(S->T->v);
    uint64_t seed = 11;
    for (int64_t k = 0; k < n; k++) {
        m[k] = 1000 + 1500 * uniform(&seed);
        g[k] = 1400 * uniform(&seed);
    }
    double start = 1000; /* mainloop k's start */
    for (int64_t k = 0; k < n; k++) {
        const double e0 = start + m[k], u = 1500 + 400 * (uniform(&seed) - 0.5);
        const double f = k + 1 < n ? 1000 / m[k + 1] : 0, nb = e0 + g[k], ne = nb + (k + 1 < n ? m[k + 1] : 0);
        double w = u;
        for (int it = 0; it < 60; it++) /* w = u + C f ov(w): a contraction (C f < 1) */
            w = u + C * f * contend_overlap(e0, e0 + w, nb, ne);
        const int64_t i = 2 * k;
        t->tile[i] = t->tile[i + 1] = (int32_t)k;
        t->warp[i] = t->warp[i + 1] = (int32_t)(k % 2);
        t->phase[i] = 0;
        t->begin[i] = (int64_t)start;
        t->end[i] = (int64_t)(start + m[k]);
        t->phase[i + 1] = 1;
        t->begin[i + 1] = (int64_t)e0;
        t->end[i + 1] = (int64_t)(e0 + w);
        S->T->v[k * 2] = (double)(t->end[i] - t->begin[i]);
        S->T->v[k * 2 + 1] = (double)(t->end[i + 1] - t->begin[i + 1]);
        S->row_of[k] = k;
        start = nb;
    }
    free(m);
    free(g);
}

static void free_trace(synth *S)
{
    free(S->t.sm);
    free(S->t.role);
    free(S->t.warp);
    free(S->t.tile);
    free(S->t.phase);
    free(S->t.begin);
    free(S->t.end);
    free(S->row_of);
}

/* the slowdown `contend_fit` finds on S with the line's compute= K */
static double fitted(synth *S, int64_t n, double K)
{
    char text[2048];
    snprintf(text, sizeof text, "%.*scontend epilogue_regs by=mainloop slowdown=0 compute=%g\n",
             (int)(strstr(k_pp, "contend ") - k_pp), k_pp, K);
    pg_schedule *s = NULL;
    if (pg_schedule_load_text(text, "fit.sched", &s) != 0)
        fail_msg("load: %s", pg_last_error());
    s->table = S->T; /* lent: taken back before the schedule is freed */
    assert_int_equal(contend_fit(s, &S->t, S->row_of, n), 0);
    const double C = s->ct[0].slowdown;
    s->table = NULL;
    pg_schedule_free(s);
    return C;
}

static void test_fit(void **state)
{
    (void)state;
    const int64_t n = 20000;
    const double C = 0.4;
    synth S;
    make_trace(&S, n, C);
    const double with = fitted(&S, n, 1000), without = fitted(&S, n, 0);
    NEAR(with, C, 0.02);
    /* every cycle counted as one: the estimate is the mean share's, far off */
    if (!(fabs(without - C) > 0.08))
        fail_msg("without compute= the fit found %.3f, as close to %.2f as with it (%.3f)", without, C, with);
    free(S.T->v);
    free(S.T);
    free_trace(&S);
}

static void test_write_back(void **state)
{
    (void)state;
    pg_schedule *s = NULL, *t = NULL;
    if (pg_schedule_load_text(k_pp, "pp.sched", &s) != 0)
        fail_msg("load: %s", pg_last_error());
    assert_int_equal(pg_schedule_set(s, "contend.compute=3072", 0), 0);
    char *buf = pg_test_schedule_text(s, NULL);
    /* an override of the expression is written as its number */
    assert_non_null(strstr(buf, "contend epilogue_regs by=mainloop slowdown=0.5 window=1 compute=3072\n"));
    if (pg_schedule_load_text(buf, "back.sched", &t) != 0)
        fail_msg("reload: %s", pg_last_error());
    assert_true(t->ct[0].compute == 3072);
    assert_int_not_equal(pg_schedule_set(s, "contend.compute=-1", 0), 0);
    assert_non_null(strstr(pg_last_error(), "out of range"));
    free(buf);
    pg_schedule_free(s);
    pg_schedule_free(t);
    /* without one it stays the expression and follows its option after a
     * reload (h100-pingpong's compute= follows $kblocks: written as the
     * number, a fitted schedule predicted another K 1.2 points off, M175);
     * a fitted slowdown and overlap are written as numbers, the overlap
     * added where the line had none, before a trailing comment */
    char text[2048];
    snprintf(text, sizeof text, "%.*scontend epilogue_regs by=mainloop slowdown=0.1+$md window=1 compute=$K # why\n",
             (int)(strstr(k_pp, "contend ") - k_pp), k_pp);
    if (pg_schedule_load_text(text, "pp.sched", &s) || pg_schedule_set(s, "K=3072", 0) ||
        pg_schedule_set(s, "contend.epilogue_regs.slowdown=0.3", 0) || pg_schedule_set(s, "contend.overlap=700", 0))
        fail_msg("load: %s", pg_last_error());
    buf = pg_test_schedule_text(s, NULL);
    assert_non_null(strstr(buf, "contend epilogue_regs by=mainloop slowdown=0.3 window=1 compute=$K overlap=700 # why\n"));
    if (pg_schedule_load_text(buf, "back.sched", &t) || pg_schedule_set(t, "K=1024", 0))
        fail_msg("reload: %s", pg_last_error());
    assert_true(t->ct[0].compute == 1024 && t->ct[0].slowdown == 0.3 && t->ct[0].overlap == 700);
    free(buf);
    pg_schedule_free(s);
    pg_schedule_free(t);
    /* a --delta on an expression stays one, plus the delta; an expression
     * nothing set (the slowdown no fit measured) stays as written */
    if (pg_schedule_load_text(text, "pp.sched", &s) || pg_schedule_set(s, "K=3072", 0) ||
        pg_schedule_set(s, "contend.compute=100", 1) || pg_schedule_set(s, "contend.compute=-50", 1))
        fail_msg("load: %s", pg_last_error());
    assert_true(s->ct[0].compute == 3122);
    buf = pg_test_schedule_text(s, NULL);
    assert_non_null(strstr(buf, "contend epilogue_regs by=mainloop slowdown=0.1+$md window=1 compute=($K)+50 # why\n"));
    if (pg_schedule_load_text(buf, "back.sched", &t) || pg_schedule_set(t, "K=1024", 0) || pg_schedule_set(t, "md=0.2", 0))
        fail_msg("reload: %s", pg_last_error());
    assert_true(t->ct[0].compute == 1074 && fabs(t->ct[0].slowdown - 0.3) < 1e-12);
    free(buf);
    pg_schedule_free(s);
    pg_schedule_free(t);
    /* a negative compute= on the line itself */
    snprintf(text, sizeof text, "%.*scontend epilogue_regs by=mainloop slowdown=0.1 compute=-5\n",
             (int)(strstr(k_pp, "contend ") - k_pp), k_pp);
    assert_int_not_equal(pg_schedule_load_text(text, "bad.sched", &s), 0);
    assert_non_null(strstr(pg_last_error(), "compute must be >= 0"));
}

/* h100-pingpong's option regs_by_compute (docs/experiments.md M108): off,
 * its epilogue line counts every cycle of overlap (compute=0) at the
 * full-size trace's unweighted figures; on, it counts the loop's 512
 * cycles of wgmma a k-block (6 at K = 768, 8 at K = 1,024) over its work,
 * at that trace's weighted figures.  Its second line (M168), the store's
 * issue, counts every cycle whatever the option. */
static void test_builtin_option(void **state)
{
    (void)state;
    static const struct {
        const char *sets[2];
        double compute, slowdown, overlap;
    } k_cases[] = {{{"regs_by_compute=0", "kblocks=6"}, 0, 0.1444, 2598},
                   {{"regs_by_compute=1", "kblocks=6"}, 3072, 0.2514, 1691},
                   {{"regs_by_compute=1", "kblocks=8"}, 4096, 0.2514, 1691}};
    for (size_t c = 0; c < sizeof k_cases / sizeof k_cases[0]; c++) {
        pg_schedule *s = NULL;
        if (pg_schedule_load("h100-pingpong", &s))
            fail_msg("load: %s", pg_last_error());
        for (int i = 0; i < 2; i++)
            if (pg_schedule_set(s, k_cases[c].sets[i], 0))
                fail_msg("set %s: %s", k_cases[c].sets[i], pg_last_error());
        assert_int_equal(s->nct, 2);
        NEAR(s->ct[0].compute, k_cases[c].compute, 1e-6);
        NEAR(s->ct[0].slowdown, k_cases[c].slowdown, 1e-9);
        NEAR(s->ct[0].overlap, k_cases[c].overlap, 1e-9);
        assert_string_equal(s->ct[1].spec[0], "epilogue_store");
        NEAR(s->ct[1].compute, 0, 1e-12);
        NEAR(s->ct[1].slowdown, 0.26, 1e-9);
        NEAR(s->ct[1].overlap, 412, 1e-9);
        pg_schedule_free(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_closed_form), cmocka_unit_test(test_fit),
                                       cmocka_unit_test(test_write_back),
                                       cmocka_unit_test(test_builtin_option)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
