/* The `contend` lines (model/contend.c, docs/experiments.md M17):
 *  - two ping-pong warpgroups with constant phases, where the contended
 *    steps' steady state is known in closed form: the epilogue slowed by
 *    the next tile's mainloop, the mainloop by the previous tile's
 *    epilogue, both at once; constants added to either step (a probe's
 *    spin) do not contend; a `kblocks` loop's contention on its compute;
 *  - a line with slowdown 0 changes nothing (h100-bres with `tmaqueue`);
 *  - the fit's estimator recovers a known slowdown from per-tile data, and
 *    finds none where there is none; the tile=previous fit on a synthetic
 *    trace, the `by` step's spin left out;
 *  - keep=1: less overlap than the calibration's speeds nothing up;
 *    keep=busy: except the overlap the other warpgroup's spins take off;
 *  - solve=tile: each tile's own overlap, where one warpgroup carries the
 *    contention (short tiles waiting on their drain);
 *  - invalid lines and overrides are rejected naming the line and the
 *    problem; every line is written back and reads back the same. */
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

static const char k_pingpong[] = "schedule pp\n"
                                 "option E 400\n"
                                 "option C 0.5\n"
                                 "option W 1\n"
                                 "option d 0\n"
                                 "option M 1000\n"
                                 "option md 0\n"
                                 "option C2 0\n"
                                 "machine units=1 tiles=20000 clock_hz=1e9 flops=1e12\n"
                                 "period consumer.mainloop\n"
                                 "phase mainloop family=const mean=$M\n"
                                 "phase epilogue_regs family=const mean=$E\n"
                                 "role consumer instances=2 mode=rotate\n"
                                 "  wait order_wait until consumer.mainloop[1]\n"
                                 "  work mainloop + $md\n"
                                 "  work epilogue_regs + $d\n"
                                 "contend epilogue_regs by=mainloop slowdown=$C window=$W\n";

typedef struct {
    double period, mainloop, epilogue;
} pp_result;

/* A schedule's text with `sets`, at its means (or by Monte Carlo, 20,000
 * tiles, seed 1): its period, mainloop and epilogue */
static pp_result predict_text(const char *text, const char *name, const char *const *sets, int n,
                              int deterministic)
{
    pg_schedule *s = NULL;
    if (pg_schedule_load_text(text, name, &s) != 0)
        fail_msg("load: %s", pg_last_error());
    for (int i = 0; i < n; i++)
        if (pg_schedule_set(s, sets[i], 0) != 0)
            fail_msg("set %s: %s", sets[i], pg_last_error());
    pg_model_opts o = {20000, 1, deterministic};
    pg_prediction p;
    if (pg_model_predict(s, &o, &p) != 0)
        fail_msg("predict: %s", pg_last_error());
    const pp_result r = {p.tile_period, pg_prediction_find(&p, "mainloop")->mean,
                         pg_prediction_find(&p, "epilogue_regs")->mean};
    pg_schedule_free(s);
    return r;
}

/* k_pingpong followed by `extra` lines */
static pp_result predict_pp(const char *extra, const char *const *sets, int n, int deterministic)
{
    char text[4096];
    snprintf(text, sizeof text, "%s%s", k_pingpong, extra ? extra : "");
    return predict_text(text, "pp.sched", sets, n, deterministic);
}

static void predict_with(const char *const *sets, int n, double *period, double *epilogue)
{
    const pp_result r = predict_pp(NULL, sets, n, 1);
    *period = r.period;
    *epilogue = r.epilogue;
}

#define NEAR(x, want, tol)                                                                                             \
    do {                                                                                                               \
        if (!(fabs((x) - (want)) < (tol)))                                                                             \
            fail_msg("%s = %.3f, expected %.3f", #x, (x), (double)(want));                                             \
    } while (0)

static void test_closed_form(void **state)
{
    (void)state;
    double T, e;
    /* The other mainloop (1,000) starts as the epilogue starts and covers
     * all of it: w = 400 + 0.5 w, w = 800; the tensor cores stay busy. */
    predict_with(NULL, 0, &T, &e);
    assert_true(fabs(e - 800) < 1.0);
    assert_true(fabs(T - 1000) < 1e-6);
    /* ... the same with the overlap averaged over 16 tiles */
    const char *w16[] = {"W=16"};
    predict_with(w16, 1, &T, &e);
    assert_true(fabs(e - 800) < 1.0);
    /* No slowdown: the sampled 400. */
    const char *c0[] = {"C=0"};
    predict_with(c0, 1, &T, &e);
    assert_true(fabs(e - 400) < 1e-6);
    /* Work 700: 700 + 0.5 x 1,000 = 1,200 > the mainloop, so a warpgroup's
     * own loop binds: period (1,000 + 1,200) / 2 = 1,100, and the other
     * mainloop still overlaps 1,000 cycles of the work. */
    const char *e700[] = {"E=700"};
    predict_with(e700, 1, &T, &e);
    assert_true(fabs(e - 1200) < 1.0);
    assert_true(fabs(T - 1100) < 1.0);
    /* A 1,000-cycle spin after the work (the probe) does not contend but
     * delays the other mainloop: period T = (2,000 + w) / 2, the other
     * mainloop starts T - 1,000 after the work and overlaps w / 2 of it:
     * w = 400 + 0.25 w = 533.3; the step reports w + 1,000. */
    const char *spin[] = {"d=1000"};
    predict_with(spin, 1, &T, &e);
    assert_true(fabs(e - (1000 + 400 / 0.75)) < 1.0);
    assert_true(fabs(T - (2000 + 400 / 0.75) / 2) < 1.0);
}

/* keep=1 (docs/experiments.md M77): the calibration's contention is a
 * floor.  With OV = 500 and the other mainloop over all of the epilogue's
 * work w: w = 400 + 0.5 (w - 500), w = 300 without it; with it the step
 * keeps its sampled 400 (less overlap than 500 speeds nothing up), and
 * more overlap than OV slows it as before (OV = 0: 800). */
static void test_keep(void **state)
{
    (void)state;
    double T, e;
    const char *lower[] = {"contend.overlap=500"};
    predict_with(lower, 1, &T, &e);
    NEAR(e, 300, 1.0);
    const char *kept[] = {"contend.overlap=500", "contend.keep=1"};
    predict_with(kept, 2, &T, &e);
    NEAR(e, 400, 1e-6);
    const char *more[] = {"contend.keep=1"};
    predict_with(more, 1, &T, &e);
    NEAR(e, 800, 1.0);
}

/* keep=busy (docs/experiments.md M78): the floor less the overlap of the
 * epilogue's work w with the other warpgroup's spins.  With a 1,000-cycle
 * spin after each epilogue (d) the period is T = (2,000 + w) / 2; the other
 * warpgroup spins over the first w / 2 of the work (its previous
 * epilogue's spin ends as its mainloop starts) and runs its mainloop over
 * the rest.  OV = 500, C = 0.5: without keep w = 400 + 0.5 (w / 2 - 500) =
 * 200; keep=1 holds the sampled 400; keep=busy's floor is -0.5 x w / 2:
 * w = 400 - 0.25 w = 320 (the floor binds: w / 2 - 500 < -w / 2).  Without
 * a spin nothing idles and keep=busy is keep=1 (400). */
static void test_keep_busy(void **state)
{
    (void)state;
    double T, e;
    const char *none[] = {"contend.overlap=500", "d=1000"};
    predict_with(none, 2, &T, &e);
    NEAR(e, 1000 + 200, 1.0);
    const char *all[] = {"contend.overlap=500", "d=1000", "contend.keep=1"};
    predict_with(all, 3, &T, &e);
    NEAR(e, 1000 + 400, 1.0);
    const char *busy[] = {"contend.overlap=500", "d=1000", "contend.keep=2"};
    predict_with(busy, 3, &T, &e);
    NEAR(e, 1000 + 320, 1.0);
    NEAR(T, (2000 + 320) / 2.0, 1.0);
    const char *busy_no_spin[] = {"contend.overlap=500", "contend.keep=2"};
    predict_with(busy_no_spin, 2, &T, &e);
    NEAR(e, 400, 1e-6);
}

static const char k_previous[] = "contend mainloop by=epilogue_regs tile=previous slowdown=$C2 window=$W\n";

/* Both directions at once: the mainloops run back to back (the epilogue is
 * the shorter), so epilogue k starts with mainloop k + 1 and mainloop k + 1
 * with epilogue k: each overlaps all of the epilogue's work e.
 * e = 400 + 0.5 e = 800; m = 1,000 + 0.25 e = 1,200 = the period. */
static void test_two_lines(void **state)
{
    (void)state;
    const char *both[] = {"C2=0.25"};
    pp_result r = predict_pp(k_previous, both, 1, 1);
    NEAR(r.epilogue, 800, 1.0);
    NEAR(r.mainloop, 1200, 1.0);
    NEAR(r.period, 1200, 1.0);
    /* ... averaged over 16 tiles: the same steady state */
    const char *w16[] = {"C2=0.25", "W=16"};
    r = predict_pp(k_previous, w16, 2, 1);
    NEAR(r.epilogue, 800, 2.0);
    NEAR(r.mainloop, 1200, 2.0);
}

/* tile=previous against tile=next for the mainloop: the next tile's
 * epilogue starts after its own mainloop, which starts after this one:
 * no overlap, 1,000; the previous tile's (400, uncontended) overlaps all
 * of it: 1,000 + 0.25 x 400. */
static void test_previous_vs_next(void **state)
{
    (void)state;
    const char *sets[] = {"C=0", "C2=0.25"};
    pp_result r = predict_pp("contend mainloop by=epilogue_regs slowdown=$C2 window=$W\n", sets, 2, 1);
    NEAR(r.mainloop, 1000, 1e-6);
    NEAR(r.period, 1000, 1e-6);
    r = predict_pp(k_previous, sets, 2, 1);
    NEAR(r.mainloop, 1100, 1.0);
    NEAR(r.period, 1100, 1.0);
    NEAR(r.epilogue, 400, 1e-6);
}

/* Constants added to the `by` step (a probe's spin, after its work) do not
 * contend.  Mainloop work 300 + a 1,000-cycle spin: the next mainloop's
 * work overlaps 300 cycles of the epilogue, e = 400 + 0.5 x 300 = 550 (with
 * the spin counted it would be 800); the period is the mainloop's 1,300.
 * The previous epilogue's 300-cycle spin: m = 1,000 + 0.5 x 400 = 1,200
 * (1,350 with the spin counted). */
static void test_by_constants(void **state)
{
    (void)state;
    const char *ml[] = {"M=300", "md=1000"};
    pp_result r = predict_pp(NULL, ml, 2, 1);
    NEAR(r.epilogue, 550, 1.0);
    NEAR(r.period, 1300, 1.0);
    const char *epi[] = {"C=0", "C2=0.5", "d=300"};
    r = predict_pp(k_previous, epi, 3, 1);
    NEAR(r.mainloop, 1200, 1.0);
    NEAR(r.epilogue, 700, 1e-6);
    NEAR(r.period, 1200, 1.0);
}

/* A contended `kblocks` loop: six k-blocks of 100 cycles, stages that land
 * at once (L = 0) or late (L = 400).  The previous epilogue's 400 cycles
 * of work add 0.25 x 400 / 6 to each k-block's compute: the loop takes
 * 600 + 100 with no stalls; with the ring stalling, a k-block that waits
 * for its stage hides its extra compute (the ring and the contention add
 * up as a max, as in the kernel). */
static const char k_kblocks[] = "schedule kb\n"
                                "option C 0.25\n"
                                "option L 0\n"
                                "machine units=1 tiles=20000 clock_hz=1e9 flops=1e12\n"
                                "period consumer.mainloop\n"
                                "phase producer_issue family=const mean=10\n"
                                "phase mainloop family=const mean=600\n"
                                "phase epilogue_regs family=const mean=400\n"
                                "latency kblock_load family=const mean=$L\n"
                                "latency stage_handover family=const mean=0\n"
                                "role producer instances=1\n"
                                "  work producer_issue\n"
                                "role consumer instances=2 mode=rotate\n"
                                "  wait order_wait until consumer.mainloop[1]\n"
                                "  work mainloop\n"
                                "  work epilogue_regs\n"
                                "kblocks mainloop count=6 stages=4 compute=100 issue=producer.producer_issue "
                                "load=kblock_load release=stage_handover calibrated_mean=600\n"
                                "contend mainloop by=epilogue_regs tile=previous slowdown=$C window=1\n";

static double kblocks_mainloop(const char *set_c, const char *set_l)
{
    pg_schedule *s = NULL;
    if (pg_schedule_load_text(k_kblocks, "kb.sched", &s) != 0)
        fail_msg("load: %s", pg_last_error());
    if (pg_schedule_set(s, set_c, 0) || pg_schedule_set(s, set_l, 0))
        fail_msg("set: %s", pg_last_error());
    pg_model_opts o = {20000, 1, 1};
    pg_prediction p;
    if (pg_model_predict(s, &o, &p) != 0)
        fail_msg("predict: %s", pg_last_error());
    const double m = pg_prediction_find(&p, "mainloop")->mean;
    pg_schedule_free(s);
    return m;
}

static void test_kblocks_compute(void **state)
{
    (void)state;
    NEAR(kblocks_mainloop("C=0", "L=0"), 600, 1e-6);
    NEAR(kblocks_mainloop("C=0.25", "L=0"), 700, 1.0);
    /* a load-bound ring (L = 400: 800 cycles a loop) hides it all; added
     * after the loop instead of on the compute it would make 900 */
    NEAR(kblocks_mainloop("C=0", "L=400"), 800, 1.0);
    NEAR(kblocks_mainloop("C=0.25", "L=400"), 800, 1.0);
}

/* A line with slowdown 0 changes nothing, whatever its overlap: h100-bres
 * (a `kblocks` loop with `tmaqueue` and its two lines) against the same
 * schedule without them, by Monte Carlo. */
static void test_zero_slowdown(void **state)
{
    (void)state;
    pg_schedule *a = NULL, *b = NULL;
    /* the built-in without its `contend` lines (sized to the built-in: a
     * fixed buffer overflowed once the schedule outgrew it) */
    const char *src = sch_builtin_text("h100-bres");
    char *text = calloc(strlen(src) + 1, 1);
    assert_non_null(text);
    for (const char *line = src; *line;) {
        const char *nl = strchr(line, '\n');
        const size_t len = nl ? (size_t)(nl - line + 1) : strlen(line);
        if (strncmp(line, "contend ", 8) != 0)
            strncat(text, line, len);
        line += len;
    }
    const int loaded = pg_schedule_load_text(text, "bres0.sched", &a);
    free(text);
    if (loaded != 0)
        fail_msg("load: %s", pg_last_error());
    assert_int_equal(a->nct, 0);
    assert_int_equal(pg_schedule_load("h100-bres", &b), 0);
    assert_int_equal(pg_schedule_set(b, "contend.epilogue_regs.slowdown=0", 0), 0);
    assert_int_equal(pg_schedule_set(b, "contend.mainloop.slowdown=0", 0), 0);
    assert_int_equal(pg_schedule_set(b, "contend.epilogue_regs.overlap=500", 0), 0);
    assert_int_equal(pg_schedule_set(b, "contend.mainloop.overlap=900", 0), 0);
    assert_int_equal(b->nct, 2);
    pg_model_opts o = {20000, 1, 0};
    pg_prediction pa, pb;
    assert_int_equal(pg_model_predict(a, &o, &pa), 0);
    assert_int_equal(pg_model_predict(b, &o, &pb), 0);
    assert_true(pa.tile_period == pb.tile_period);
    const char *phases[] = {"mainloop", "epilogue_regs", "epilogue_store"};
    for (int i = 0; i < 3; i++)
        assert_true(pg_prediction_find(&pa, phases[i])->mean == pg_prediction_find(&pb, phases[i])->mean);
    /* ... and with slowdowns the two lines move it */
    assert_int_equal(pg_schedule_set(b, "contend.slowdown=0.4", 0), 0);
    assert_int_equal(pg_schedule_set(b, "contend.mainloop.slowdown=0.3", 0), 0);
    assert_int_equal(pg_model_predict(b, &o, &pb), 0);
    assert_true(pb.tile_period != pa.tile_period);
    pg_schedule_free(a);
    pg_schedule_free(b);
}

static double uniform(uint64_t *x)
{
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*x >> 11) / 9007199254740992.0;
}

/* Tiles with work u (independent of g) whose other mainloop starts g after
 * the step and covers the rest of it: w = u + C (w - g) where w > g. */
static double estimate_from(double C, int64_t n, uint64_t seed)
{
    double *w = malloc(sizeof(double) * (size_t)n), *ov = malloc(sizeof(double) * (size_t)n),
           *g = malloc(sizeof(double) * (size_t)n);
    assert_non_null(w);
    assert_non_null(ov);
    assert_non_null(g);
    for (int64_t i = 0; i < n; i++) {
        const double u = 2500 + 400 * (uniform(&seed) - 0.5), gi = 3500 * uniform(&seed);
        double wi = (u - C * gi) / (1 - C);
        if (wi <= gi)
            wi = u; /* the other mainloop started after the work ended */
        w[i] = wi;
        ov[i] = wi > gi ? wi - gi : 0;
        g[i] = gi < wi ? gi : wi;
    }
    const double est = contend_estimate(w, ov, g, n);
    free(w);
    free(ov);
    free(g);
    return est;
}

static void test_estimator(void **state)
{
    (void)state;
    const double cs[] = {0.0, 0.14, 0.3, 0.6};
    for (int i = 0; i < 4; i++) {
        const double est = estimate_from(cs[i], 20000, 17 + (uint64_t)i);
        if (fabs(est - cs[i]) > 0.02)
            fail_msg("slowdown %.2f estimated as %.3f", cs[i], est);
    }
}

/* The tile=previous fit on a synthetic trace, one SM: mainloop k starts at
 * 3,000 k; the previous tile's epilogue (400 cycles of work, then a
 * 1,000-cycle spin) started g before it, g uniform in [-200, 1,200]; the
 * mainloop's work is u + C x its overlap with that work, u independent of
 * g.  The fit must find C (and not count the spin, which would make the
 * overlap 1,000 cycles longer and change with g where the work's does not). */
static void test_fit_previous(void **state)
{
    (void)state;
    const int64_t n = 20000;
    const double C = 0.3, we = 400, spin = 1000;
    char text[4096];
    const int keep = (int)(strstr(k_pingpong, "contend ") - k_pingpong);
    snprintf(text, sizeof text, "%.*s%s", keep, k_pingpong,
             "contend mainloop by=epilogue_regs tile=previous slowdown=0\n");
    pg_schedule *s = NULL;
    if (pg_schedule_load_text(text, "fit.sched", &s) != 0)
        fail_msg("load: %s", pg_last_error());
    pg_trace t;
    memset(&t, 0, sizeof t);
    assert_true(pg_vocab_add_role(&t.vocab, "consumer") == 0);
    assert_true(pg_vocab_add_phase(&t.vocab, "mainloop", 0) == 0);
    assert_true(pg_vocab_add_phase(&t.vocab, "epilogue_regs", 0) == 0);
    t.n = 2 * n;
    t.sm = calloc((size_t)t.n, sizeof *t.sm);
    t.role = calloc((size_t)t.n, sizeof *t.role);
    t.warp = calloc((size_t)t.n, sizeof *t.warp);
    t.tile = calloc((size_t)t.n, sizeof *t.tile);
    t.phase = calloc((size_t)t.n, sizeof *t.phase);
    t.begin = calloc((size_t)t.n, sizeof *t.begin);
    t.end = calloc((size_t)t.n, sizeof *t.end);
    int64_t *row_of = calloc((size_t)n, sizeof *row_of);
    sch_table *T = calloc(1, sizeof *T);
    assert_true(t.sm && t.role && t.warp && t.tile && t.phase && t.begin && t.end && row_of && T);
    T->rows = n;
    T->cols = 2;
    snprintf(T->colname[0], sizeof T->colname[0], "mainloop#0");
    snprintf(T->colname[1], sizeof T->colname[1], "epilogue_regs#0");
    T->v = calloc((size_t)(2 * n), sizeof *T->v);
    assert_non_null(T->v);
    s->table = T; /* the schedule frees it */
    uint64_t seed = 5;
    double ovsum = 0;
    for (int64_t k = 0; k < n; k++) {
        const double tk = 3000.0 * (double)(k + 1), g = -200 + 1400 * uniform(&seed);
        const double u = 2000 + 400 * (uniform(&seed) - 0.5);
        const double ov = contend_overlap(tk, tk + 3000, tk - g, tk - g + we); /* the work is longer than 1,400 */
        const double w = u + C * ov;
        if (k > 0)
            ovsum += ov;
        /* this tile's mainloop; the previous tile's epilogue (tile 0's own
         * epilogue starts before tile 1's mainloop at the same g rule) */
        const int64_t i = 2 * k;
        t.tile[i] = (int32_t)k;
        t.warp[i] = (int32_t)(k % 2);
        t.phase[i] = 0;
        t.begin[i] = (int64_t)tk;
        t.end[i] = (int64_t)(tk + w);
        T->v[k * 2] = (double)(t.end[i] - t.begin[i]);
        if (k > 0) {
            t.tile[i + 1] = (int32_t)(k - 1);
            t.warp[i + 1] = (int32_t)((k - 1) % 2);
            t.phase[i + 1] = 1;
            t.begin[i + 1] = (int64_t)(tk - g);
            t.end[i + 1] = (int64_t)(tk - g + we + spin);
            T->v[(k - 1) * 2 + 1] = we;
        } else {
            t.tile[i + 1] = (int32_t)(n - 1); /* the last tile's epilogue: after every mainloop */
            t.warp[i + 1] = (int32_t)((n - 1) % 2);
            t.phase[i + 1] = 1;
            t.begin[i + 1] = (int64_t)(3000.0 * (double)(n + 2));
            t.end[i + 1] = t.begin[i + 1] + (int64_t)(we + spin);
            T->v[(n - 1) * 2 + 1] = we;
        }
        t.role[i] = t.role[i + 1] = 0;
        row_of[k] = k;
    }
    assert_int_equal(contend_fit(s, &t, row_of, n), 0);
    NEAR(s->ct[0].slowdown, C, 0.02);
    NEAR(s->ct[0].overlap, ovsum / (double)(n - 1), 1.0);
    /* fit=overlap (M34): the same trace, the line's slowdown kept, the overlap measured */
    snprintf(text, sizeof text, "%.*s%s", keep, k_pingpong,
             "contend mainloop by=epilogue_regs tile=previous slowdown=0.11 fit=overlap\n");
    pg_schedule *kept = NULL;
    if (pg_schedule_load_text(text, "fit.sched", &kept) != 0)
        fail_msg("load: %s", pg_last_error());
    sch_table *T2 = calloc(1, sizeof *T2);
    assert_non_null(T2);
    *T2 = *T;
    T2->v = malloc(sizeof *T2->v * (size_t)(2 * n));
    assert_non_null(T2->v);
    memcpy(T2->v, T->v, sizeof *T2->v * (size_t)(2 * n));
    kept->table = T2;
    assert_int_equal(contend_fit(kept, &t, row_of, n), 0);
    assert_true(kept->ct[0].slowdown == 0.11);
    NEAR(kept->ct[0].overlap, ovsum / (double)(n - 1), 1.0);
    pg_schedule_free(kept);
    free(t.sm);
    free(t.role);
    free(t.warp);
    free(t.tile);
    free(t.phase);
    free(t.begin);
    free(t.end);
    free(row_of);
    pg_schedule_free(s);
}

/* Every line written back, with its direction and fitted numbers, reads
 * back the same; `contend.KEY` sets the first line, `contend.PHASE.KEY`
 * the line that slows PHASE. */
static void test_write_back(void **state)
{
    (void)state;
    char text[4096];
    snprintf(text, sizeof text, "%s%s", k_pingpong, k_previous);
    pg_schedule *s = NULL, *t = NULL;
    if (pg_schedule_load_text(text, "two.sched", &s) != 0)
        fail_msg("load: %s", pg_last_error());
    assert_int_equal(pg_schedule_set(s, "contend.slowdown=0.2", 0), 0);
    assert_int_equal(pg_schedule_set(s, "contend.mainloop.slowdown=0.3", 0), 0);
    assert_int_equal(pg_schedule_set(s, "contend.mainloop.overlap=123.5", 0), 0);
    assert_int_equal(pg_schedule_set(s, "contend.epilogue_regs.window=8", 0), 0);
    assert_true(s->ct[0].slowdown == 0.2 && s->ct[0].window == 8 && s->ct[1].slowdown == 0.3 &&
                s->ct[1].overlap == 123.5 && s->ct[1].previous && !s->ct[0].previous);
    char *buf = pg_test_schedule_text(s, NULL);
    /* the overridden window a number, the other line's window its
     * expression (an option a later fit or run sets moves it) */
    assert_non_null(strstr(buf, "contend epilogue_regs by=mainloop slowdown=0.2 window=8\n"));
    assert_non_null(strstr(buf, "contend mainloop by=epilogue_regs tile=previous slowdown=0.3 window=$W overlap=123.5\n"));
    if (pg_schedule_load_text(buf, "back.sched", &t) != 0)
        fail_msg("reload: %s", pg_last_error());
    assert_int_equal(t->nct, 2);
    for (int i = 0; i < 2; i++)
        assert_true(t->ct[i].slowdown == s->ct[i].slowdown && t->ct[i].overlap == s->ct[i].overlap &&
                    t->ct[i].window == s->ct[i].window && t->ct[i].previous == s->ct[i].previous &&
                    t->ct[i].node == s->ct[i].node && t->ct[i].by_node == s->ct[i].by_node);
    pg_model_opts o = {4000, 1, 0};
    pg_prediction ps, pt;
    assert_int_equal(pg_model_predict(s, &o, &ps), 0);
    assert_int_equal(pg_model_predict(t, &o, &pt), 0);
    assert_true(ps.tile_period == pt.tile_period);
    /* overrides that address no line, or no key */
    assert_int_not_equal(pg_schedule_set(s, "contend.order_wait.slowdown=0.1", 0), 0);
    assert_non_null(strstr(pg_last_error(), "no contend line slows 'order_wait' (lines: epilogue_regs, mainloop)"));
    assert_int_not_equal(pg_schedule_set(s, "contend.mainloop.speed=0.1", 0), 0);
    assert_non_null(strstr(pg_last_error(), "contend takes slowdown, overlap, window"));
    assert_int_not_equal(pg_schedule_set(s, "contend.mainloop.slowdown=1.2", 0), 0);
    assert_non_null(strstr(pg_last_error(), "out of range"));
    free(buf);
    /* fit=overlap is written back and read back */
    s->ct[1].fit_overlap_only = 1;
    buf = pg_test_schedule_text(s, NULL);
    assert_non_null(strstr(buf, "tile=previous slowdown=0.3 window=$W overlap=123.5 fit=overlap\n"));
    pg_schedule_free(t);
    if (pg_schedule_load_text(buf, "back.sched", &t) != 0)
        fail_msg("reload: %s", pg_last_error());
    assert_true(t->ct[1].fit_overlap_only && !t->ct[0].fit_overlap_only);
    free(buf);
    /* keep=1 too, and a keep that is not 0, 1 or 2 (busy) is refused, the line unchanged */
    assert_int_equal(pg_schedule_set(s, "contend.mainloop.keep=1", 0), 0);
    assert_int_not_equal(pg_schedule_set(s, "contend.keep=3", 0), 0);
    assert_non_null(strstr(pg_last_error(), "keep must be 0, 1 or 2 (busy)"));
    assert_true(s->ct[1].keep && !s->ct[0].keep);
    buf = pg_test_schedule_text(s, NULL);
    assert_non_null(strstr(buf, "tile=previous slowdown=0.3 window=$W overlap=123.5 fit=overlap keep=1\n"));
    pg_schedule_free(t);
    if (pg_schedule_load_text(buf, "back.sched", &t) != 0)
        fail_msg("reload: %s", pg_last_error());
    assert_true(t->ct[1].keep && !t->ct[0].keep);
    free(buf);
    /* keep=2 is keep=busy, written back by name and read back */
    assert_int_equal(pg_schedule_set(s, "contend.keep=2", 0), 0);
    assert_int_equal(s->ct[0].keep, SCH_KEEP_BUSY);
    buf = pg_test_schedule_text(s, NULL);
    assert_non_null(strstr(buf, "keep=busy\n"));
    pg_schedule_free(t);
    if (pg_schedule_load_text(buf, "back.sched", &t) != 0)
        fail_msg("reload: %s", pg_last_error());
    assert_int_equal(t->ct[0].keep, SCH_KEEP_BUSY);
    free(buf);
    pg_schedule_free(s);
    pg_schedule_free(t);
}

/* The schedule with its `contend` line replaced (replace) or followed by
 * `line` must be rejected with "bad.sched:LINE: ..." naming `what`. */
static void expect_reject(const char *line, int replace, const char *what)
{
    char text[2048];
    const int keep = replace ? (int)(strstr(k_pingpong, "contend ") - k_pingpong) : (int)strlen(k_pingpong);
    snprintf(text, sizeof text, "%.*s%s\n", keep, k_pingpong, line);
    pg_schedule *s = NULL;
    if (pg_schedule_load_text(text, "bad.sched", &s) == 0) {
        pg_schedule_free(s);
        fail_msg("accepted: %s", line);
    }
    const char *msg = pg_last_error();
    if (!strstr(msg, "bad.sched:") || !strstr(msg, what))
        fail_msg("'%s' rejected as '%s', expected '%s'", line, msg, what);
}

static void test_rejects(void **state)
{
    (void)state;
    expect_reject("contend epilogue_regs by=mainloop tile=previous slowdown=0.1", 0,
                  "bad.sched:18: contend: epilogue_regs is already slowed by the line at 17");
    expect_reject("contend mainloop by=epilogue_regs slowdown=0.1\ncontend mainloop by=epilogue_regs slowdown=0.1\n"
                  "contend mainloop by=epilogue_regs slowdown=0.1\ncontend mainloop by=epilogue_regs slowdown=0.1",
                  0, "bad.sched:21: contend: at most 4 `contend` lines");
    static const struct {
        const char *line, *what;
    } bad[] = {
        {"contend epilogue_regs by=mainlop slowdown=0.1", "by=mainlop is not a work step"},
        {"contend epilogue_regs by=mainloop slowdown=1.5", "slowdown must be in [0, 1)"},
        {"contend epilogue_regs by=mainloop slowdown=0.1 window=0", "window must be >= 1"},
        {"contend epilogue_regs by=mainloop slowdown=0.1 frob=2", "expected KEY=VALUE"},
        {"contend epilogue_regs by=mainloop tile=sideways slowdown=0.1", "tile must be next or previous (got 'sideways')"},
        {"contend epilogue_regs by=order_wait slowdown=0.1", "by=order_wait is not a work step"},
        {"contend epilogue_regs by=epilogue_regs slowdown=0.1", "must be another work step"},
        {"contend epilogue_regs slowdown=0.1", "usage: contend"},
        {"contend epilogue_regs by=mainloop slowdown=0.1 fit=slowdown", "fit must be both or overlap (got 'slowdown')"},
        {"contend epilogue_regs by=mainloop slowdown=0.1 keep=2", "keep must be 0, 1 or busy (got '2')"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect_reject(bad[i].line, 1, bad[i].what);
    /* a role that does not take tiles in turn */
    const char *single = "schedule one\n"
                         "machine units=1 tiles=100 clock_hz=1e9 flops=1e12\n"
                         "period consumer.mainloop\n"
                         "phase mainloop family=const mean=1000\n"
                         "phase epilogue_regs family=const mean=400\n"
                         "role consumer instances=1\n"
                         "  work mainloop\n"
                         "  work epilogue_regs\n"
                         "contend epilogue_regs by=mainloop slowdown=0.1\n";
    pg_schedule *s = NULL;
    assert_int_not_equal(pg_schedule_load_text(single, "bad.sched", &s), 0);
    assert_non_null(strstr(pg_last_error(), "must take tiles in turn"));
}

/* solve=tile (docs/experiments.md M86): short tiles whose warpgroup waits
 * on its own epilogue's drain.  Mainloop 500, epilogue work 400, C = 0.5,
 * OV = 0, drain 1,000.  Tile 1's mainloop follows tile 0's at once and
 * lies inside tile 0's epilogue, which solves to 400 + 0.5 x 500 = 650;
 * tile 2 waits for that epilogue's drain, so tile 1's epilogue (400 from
 * 1,000) has no mainloop beside it.  The state repeats: one warpgroup
 * carries all the contention, the period is (500 + 650 + 1,000) / 2 =
 * 1,075 and the epilogue's mean (650 + 400) / 2 = 525.  The running mean
 * gives both warpgroups the same share, (500 + e + 1,000) / 2 with e the
 * averaged epilogue: a different state, not this one. */
static const char k_drain[] = "schedule drain\n"
                              "machine units=1 tiles=20000 clock_hz=1e9 flops=1e12\n"
                              "period consumer.mainloop\n"
                              "phase mainloop family=const mean=500\n"
                              "phase epilogue_regs family=const mean=400\n"
                              "latency drain family=const mean=1000\n"
                              "role consumer instances=2 mode=rotate\n"
                              "  wait order_wait until consumer.mainloop[1] until consumer.epilogue_regs[2] + drain\n"
                              "  work mainloop\n"
                              "  work epilogue_regs\n"
                              "contend epilogue_regs by=mainloop slowdown=0.5 overlap=0 window=16\n";

static pp_result predict_drain(const char *solve)
{
    return predict_text(k_drain, "drain.sched", &solve, 1, 1);
}

static void test_solve_tile(void **state)
{
    (void)state;
    pp_result r = predict_drain("contend.solve=1");
    NEAR(r.period, 1075, 1.0);
    NEAR(r.epilogue, 525, 1.0);
    r = predict_drain("contend.solve=0");
    if (!(fabs(r.period - 1075) > 20))
        fail_msg("the running mean reached the per-tile state: period %.1f", r.period);
    /* written back, and refused where it cannot work */
    pg_schedule *s = NULL;
    if (pg_schedule_load_text(k_drain, "drain.sched", &s) != 0 || pg_schedule_set(s, "contend.solve=1", 0) != 0)
        fail_msg("load: %s", pg_last_error());
    char *buf = pg_test_schedule_text(s, NULL);
    assert_non_null(strstr(buf, "window=16 solve=tile"));
    free(buf);
    pg_schedule_free(s);
    expect_reject("contend mainloop by=epilogue_regs tile=previous slowdown=0.1 solve=tile", 1,
                  "solve=tile needs tile=next");
    expect_reject("contend epilogue_regs by=mainloop slowdown=0.1 solve=always", 1,
                  "solve must be window, tile or an expression of 0 (window) or 1 (tile) (got 'always')");
    expect_reject("contend epilogue_regs by=mainloop slowdown=0.1 solve=2", 1, "(got '2')");
}

/* solve= as an expression of an option (docs/experiments.md M146: h100-
 * pingpong's rowfirst_prefetch chooses it): 1 - $pf is tile where pf = 0,
 * window where pf = 1, and setting the option moves the line with it */
static void test_solve_option(void **state)
{
    (void)state;
    static const char head[] = "option pf 1 0|1\n", tail[] = " solve=1-$pf\n";
    const size_t size = sizeof head + sizeof k_drain + sizeof tail;
    char *text = malloc(size);
    assert_non_null(text);
    /* k_drain with its last line's newline replaced by the solve key */
    snprintf(text, size, "%s%.*s%s", head, (int)(sizeof k_drain - 2), k_drain, tail);
    pg_schedule *s = NULL;
    if (pg_schedule_load_text(text, "drain_opt.sched", &s) != 0)
        fail_msg("load: %s", pg_last_error());
    assert_int_equal(s->ct[0].solve_tile, 0);
    if (pg_schedule_set(s, "pf=0", 0) != 0)
        fail_msg("set: %s", pg_last_error());
    assert_int_equal(s->ct[0].solve_tile, 1);
    /* written back as the expression, with the option's value: read back, tile */
    char *buf = pg_test_schedule_text(s, NULL);
    assert_non_null(strstr(buf, " solve=1-$pf\n"));
    pg_schedule *t = NULL;
    if (pg_schedule_load_text(buf, "back.sched", &t) != 0)
        fail_msg("reload: %s", pg_last_error());
    assert_int_equal(t->ct[0].solve_tile, 1);
    free(buf);
    pg_schedule_free(t);
    pg_schedule_free(s);
    const char *pf0 = "pf=0";
    const pp_result r = predict_text(text, "drain_opt.sched", &pf0, 1, 1);
    NEAR(r.period, 1075, 1.0);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_closed_form),     cmocka_unit_test(test_two_lines),
        cmocka_unit_test(test_previous_vs_next), cmocka_unit_test(test_by_constants),
        cmocka_unit_test(test_kblocks_compute), cmocka_unit_test(test_zero_slowdown),
        cmocka_unit_test(test_estimator),       cmocka_unit_test(test_fit_previous),
        cmocka_unit_test(test_write_back),      cmocka_unit_test(test_rejects),
        cmocka_unit_test(test_keep),
        cmocka_unit_test(test_keep_busy),       cmocka_unit_test(test_solve_tile),
        cmocka_unit_test(test_solve_option)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
