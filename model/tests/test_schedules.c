/* Schedule files: the built-ins load and round-trip through the writer;
 * invalid files are rejected with "file:line: problem"; overrides and
 * fitted distributions behave as documented. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fit.h"
#include "maxplus.h"
#include "model_ext.h"
#include "pg_error.h"
#include "sched.h"
#include "sched_text.h"

static const char k_good[] = "schedule t\n"                                                       /* 1 */
                             "machine units=1 tiles=100 clock_hz=1e9 flops=1e12\n"               /* 2 */
                             "period consumer.mainloop\n"                                         /* 3 */
                             "phase producer_issue family=const mean=100\n"                       /* 4 */
                             "phase mainloop family=const mean=200\n"                             /* 5 */
                             "role producer instances=1\n"                                        /* 6 */
                             "  wait producer_wait\n"                                             /* 7 */
                             "  work producer_issue\n"                                            /* 8 */
                             "role consumer instances=1\n"                                        /* 9 */
                             "  wait load_wait until producer.producer_issue\n"                   /* 10 */
                             "  work mainloop\n"                                                  /* 11 */
                             "buffer stages count=2 acquire=producer.producer_wait release=consumer.mainloop\n";

/* `text` with line `lineno` (1-based) replaced (every line ends in '\n'). */
static char *replace_line(const char *text, int lineno, const char *repl)
{
    static char out[4096];
    out[0] = '\0';
    const char *p = text;
    for (int l = 1; *p; l++) {
        const char *e = strchr(p, '\n');
        if (l == lineno) {
            strcat(out, repl);
            strcat(out, "\n");
        } else {
            strncat(out, p, (size_t)(e - p + 1));
        }
        p = e + 1;
    }
    return out;
}

/* k_good with line `lineno` replaced. */
static char *with_line(int lineno, const char *repl) { return replace_line(k_good, lineno, repl); }

static void expect_reject(const char *text, const char *where, const char *what)
{
    pg_schedule *s = NULL;
    pg_clear_error();
    int rc = pg_schedule_load_text(text, "bad.sched", &s);
    if (rc == 0) {
        pg_schedule_free(s);
        fail_msg("accepted a schedule that should fail with '%s'", what);
    }
    assert_null(s);
    const char *msg = pg_last_error();
    if (!strstr(msg, where) || !strstr(msg, what))
        fail_msg("message '%s' lacks '%s' or '%s'", msg, where, what);
}

static void test_good_loads(void **state)
{
    (void)state;
    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load_text(k_good, "good.sched", &s), 0);
    double lambda;
    char c[256], b[64];
    assert_int_equal(sch_deterministic(s, &lambda, c, sizeof c, b, sizeof b), 0);
    assert_true(fabs(lambda - 200) < 1e-9);
    pg_schedule_free(s);
}

static void test_invalid_files(void **state)
{
    (void)state;
    expect_reject(with_line(11, "  work mainlop"), "bad.sched:11", "unknown phase 'mainlop'");
    expect_reject(with_line(9, "role consumr instances=1"), "bad.sched:9", "unknown role 'consumr'");
    expect_reject(with_line(10, "  wait load_wait until producr.producer_issue"), "bad.sched:10",
                  "role 'producr' is not in this schedule");
    expect_reject(with_line(10, "  wait load_wait until epilogue.phase1"), "bad.sched:10",
                  "role 'epilogue' is not in this schedule");
    /* the producer waits on this tile's mainloop, which waits on the producer: no buffer between */
    expect_reject(with_line(7, "  wait producer_wait until consumer.mainloop"), "bad.sched:7",
                  "deadlock: a cycle with no buffer");
    expect_reject(with_line(5, "phase mainloop family=lognormal mean=200 min=100 p95=190"), "bad.sched:5",
                  "min < mean < p95");
    expect_reject(with_line(5, "phase mainloop family=const mean=$nope"), "bad.sched:5", "unknown option '$nope'");
    expect_reject(with_line(11, "  frobnicate mainloop"), "bad.sched:11", "unknown directive 'frobnicate'");
    expect_reject(with_line(4, "phase bogus family=const mean=1"), "bad.sched:4", "unknown phase 'bogus'");
    expect_reject(with_line(8, "  work phase1"), "bad.sched:8", "has no distribution");
}

/* `until start + TERM` (M113): a floor on a wait, from its own start --
 * for the producer's first step, its previous tile's last step.  In k_good
 * the producer waits 100 cycles a tile (the 200-cycle mainloop less its
 * 100-cycle issue); a 150-cycle floor holds it there, so the producer's
 * 250-cycle tile sets the period. */
static void test_wait_floor(void **state)
{
    (void)state;
    pg_schedule *s = NULL;
    if (pg_schedule_load_text(with_line(7, "  wait producer_wait until start + 150"), "floor.sched", &s))
        fail_msg("%s", pg_last_error());
    pg_model_opts o = {1000, 1, 0};
    pg_prediction p;
    assert_int_equal(pg_model_predict(s, &o, &p), 0);
    assert_true(fabs(pg_prediction_find(&p, "producer_wait")->mean - 150) < 1e-6);
    assert_true(fabs(p.tile_period - 250) < 1e-6);
    pg_schedule_free(s);
    assert_int_equal(pg_schedule_load_text(k_good, "good.sched", &s), 0);
    assert_int_equal(pg_model_predict(s, &o, &p), 0);
    assert_true(fabs(pg_prediction_find(&p, "producer_wait")->mean - 100) < 1e-6);
    assert_true(fabs(p.tile_period - 200) < 1e-6);
    pg_schedule_free(s);
    expect_reject(with_line(7, "  wait producer_wait until start"), "bad.sched:7", "`until start` needs a term");
}

static void test_file_rejected_names_file(void **state)
{
    (void)state;
    const char *path = "test_model_bad.sched";
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(with_line(11, "  work mainlop"), f);
    fclose(f);
    pg_schedule *s = NULL;
    assert_int_not_equal(pg_schedule_load(path, &s), 0);
    assert_non_null(strstr(pg_last_error(), "test_model_bad.sched:11"));
    remove(path);
    assert_int_not_equal(pg_schedule_load("no-such-schedule", &s), 0);
    assert_non_null(strstr(pg_last_error(), "b200-seed"));
}

static void test_builtins_roundtrip(void **state)
{
    (void)state;
    const char *names[] = {"b200-seed", "h100-pingpong"};
    for (int i = 0; i < 2; i++) {
        pg_schedule *s = NULL, *t = NULL;
        assert_int_equal(pg_schedule_load(names[i], &s), 0);
        assert_string_equal(pg_schedule_name(s), names[i]);
        char *buf = pg_test_schedule_text(s, "round trip");
        assert_int_equal(pg_schedule_load_text(buf, "roundtrip", &t), 0);
        double l1, l2;
        char c1[256], c2[256], b1[64], b2[64];
        assert_int_equal(sch_deterministic(s, &l1, c1, sizeof c1, b1, sizeof b1), 0);
        assert_int_equal(sch_deterministic(t, &l2, c2, sizeof c2, b2, sizeof b2), 0);
        assert_true(fabs(l1 - l2) < 1e-6 * l1);
        assert_string_equal(c1, c2);
        free(buf);
        pg_schedule_free(s);
        pg_schedule_free(t);
    }
}

static void test_overrides(void **state)
{
    (void)state;
    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load("b200-seed", &s), 0);
    int d = sch_find_dist(s, "phase1");
    double mean = s->dists[d].mean, spread = s->dists[d].p95 - s->dists[d].mean;
    /* a new mean keeps the calibrated spread */
    assert_int_equal(pg_schedule_set(s, "phase1.mean=-170", 1), 0);
    assert_true(fabs(s->dists[d].mean - (mean - 170)) < 1e-9);
    assert_true(fabs((s->dists[d].p95 - s->dists[d].mean) - spread) < 1e-9);
    /* structural options recompile and keep earlier overrides */
    assert_int_equal(pg_schedule_set(s, "release_after=phase2", 0), 0);
    d = sch_find_dist(s, "phase1");
    assert_true(fabs(s->dists[d].mean - (mean - 170)) < 1e-9);
    assert_int_not_equal(pg_schedule_set(s, "release_after=phase3", 0), 0);
    assert_non_null(strstr(pg_last_error(), "phase1|phase2"));
    assert_int_not_equal(pg_schedule_set(s, "phase9.mean=1", 0), 0);
    assert_non_null(strstr(pg_last_error(), "unknown parameter"));
    assert_int_not_equal(pg_schedule_set(s, "phase1.median=1", 0), 0);
    assert_int_not_equal(pg_schedule_set(s, "nonsense", 0), 0);
    assert_int_equal(pg_schedule_set(s, "epilogue_warps=5", 0), 0);
    assert_int_equal(s->roles[1].instances, 10); /* 5 warps x 2 CTAs */
    pg_schedule_free(s);
}

/* `kblocks.tile_compute` (as `pegemm model fit` sets the loop's work) is
 * split over the count, follows a later --set of the count, and is written
 * back as TILE/(COUNT as written); `kblocks.compute` stays one k-block's */
static void test_kblocks_tile_compute(void **state)
{
    (void)state;
    pg_schedule *s = NULL, *t = NULL;
    assert_int_equal(pg_schedule_load("h100-bres", &s), 0);
    assert_true(fabs(s->kb_compute - 2304.0 / 6) < 1e-9);
    assert_int_equal(pg_schedule_set(s, "kblocks.tile_compute=3000", 0), 0);
    assert_true(fabs(s->kb_compute - 500) < 1e-9);
    assert_int_equal(pg_schedule_set(s, "kblocks=12", 0), 0);
    assert_int_equal(pg_schedule_set(s, "stages=8", 0), 0);
    assert_true(fabs(s->kb_compute - 250) < 1e-9);
    char *buf = pg_test_schedule_text(s, "tile form");
    assert_non_null(strstr(buf, "compute=3000/($kblocks)"));
    assert_int_equal(pg_schedule_load_text(buf, "tile.sched", &t), 0);
    assert_int_equal(pg_schedule_set(t, "stages=4", 0), 0); /* stages first: the ring must fit the count */
    assert_int_equal(pg_schedule_set(t, "kblocks=6", 0), 0);
    assert_true(fabs(t->kb_compute - 500) < 1e-9);
    /* one k-block's compute set directly does not follow the count */
    assert_int_equal(pg_schedule_set(t, "kblocks.compute=100", 0), 0);
    assert_int_equal(pg_schedule_set(t, "kblocks=12", 0), 0);
    assert_true(fabs(t->kb_compute - 100) < 1e-9);
    free(buf);
    pg_schedule_free(s);
    pg_schedule_free(t);
}

/* The `bandwidth` line's floor=device (M72): parsed, written back, refused
 * with another value; the copy floors pegemm knows by GPU name, none for
 * a GPU it has not measured (the fit then keeps the written figure; a fit
 * on an H200 trace taking 4.23 TB/s is pinned in test_validate.c). */
static void test_bandwidth_floor_device(void **state)
{
    (void)state;
    pg_schedule *s = NULL, *t = NULL;
    assert_int_equal(pg_schedule_load("h100-bres", &s), 0);
    assert_true(s->bw_floor_device);
    char *buf = pg_test_schedule_text(s, NULL);
    char *bad = malloc(strlen(buf) + 32);
    assert_non_null(bad);
    strcpy(bad, buf);
    char *line = strstr(bad, "\nbandwidth "), *at = line ? strstr(line, " floor=device") : NULL;
    assert_true(at && at < strchr(line + 1, '\n'));
    memcpy(at, " floor=dvice ", 13);
    assert_int_not_equal(pg_schedule_load_text(bad, "bad.sched", &t), 0);
    assert_non_null(strstr(pg_last_error(), "floor must be device or written (got 'dvice')"));
    assert_true(fit_gpu_copy_floor("NVIDIA H200") > 4.0e12 && fit_gpu_copy_floor("NVIDIA H100 80GB HBM3") == 3.0e12);
    assert_true(fit_gpu_copy_floor("test") == 0 && fit_gpu_l2("NVIDIA H200") == 62914560);
    free(bad);
    free(buf);
    pg_schedule_free(s);
}

/* h100-bres's mean producer_wait with `kblocks` k-blocks per tile */
static double bres_producer_wait(int kblocks)
{
    pg_schedule *s = NULL;
    char kb[32];
    snprintf(kb, sizeof kb, "kblocks=%d", kblocks);
    assert_int_equal(pg_schedule_load("h100-bres", &s), 0);
    assert_int_equal(pg_schedule_set(s, kb, 0), 0);
    pg_model_opts o = {.tiles = 20000, .seed = 1};
    pg_prediction p;
    assert_int_equal(pg_model_predict(s, &o, &p), 0);
    const double w = pg_prediction_find(&p, "producer_wait")->mean;
    pg_schedule_free(s);
    return w;
}

/* docs/experiments.md M71, M75: tile k's k-block j reuses the slot of
 * global k-block k x kblocks + j - stages, freed when the k-block after
 * that one starts (the loop's end for a tile's last), however many tiles
 * back it lies.  The producer's wait for a tile's first stage: at 4
 * k-blocks the previous tile's first (freed a quarter into it), at 3 the
 * last of the tile two back (freed at its end, long before: the producer
 * hardly waits), at 2 the first of the tile two back, whose slot the
 * producer, a whole ring ahead, waits for longest; the measured waits on
 * probe sets 25-26 rank the same (K = 256 / 384 / 512 / 640: ~1,240 / 115 /
 * 870 / 190 cycles).  M71's lines gave 2 > 3 > 4 (704 / 66 / 66 before
 * it); a tile two back freed "before the previous tile's start" (M71's and
 * M74's cap) made 3 k-blocks wait the most. */
static void test_ring_last_stage(void **state)
{
    (void)state;
    const double w2 = bres_producer_wait(2), w3 = bres_producer_wait(3), w4 = bres_producer_wait(4),
                 w5 = bres_producer_wait(5);
    if (!(w2 > w4 && w4 > w3 && w4 > 1.5 * w5))
        fail_msg("producer_wait at 2 / 3 / 4 / 5 k-blocks: %.0f / %.0f / %.0f / %.0f", w2, w3, w4, w5);
}

/* the built-in h100-bres loop's fixed cycles (fixed=, M36) */
static double s_fixed(void)
{
    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load("h100-bres", &s), 0);
    const double f = s->kb_fixed;
    assert_true(f > 0);
    pg_schedule_free(s);
    return f;
}

/* the model's mean mainloop of h100-bres with the given kblocks queue/inflight */
static double bres_mainloop(double queue, double inflight)
{
    pg_schedule *s = NULL;
    char q[64], n[64];
    snprintf(q, sizeof q, "kblocks.queue=%g", queue);
    snprintf(n, sizeof n, "kblocks.inflight=%g", inflight);
    assert_int_equal(pg_schedule_load("h100-bres", &s), 0);
    assert_int_equal(pg_schedule_set(s, q, 0), 0);
    assert_int_equal(pg_schedule_set(s, n, 0), 0);
    /* without its contention, so that a loop whose loads land at once is
     * its compute alone */
    assert_int_equal(pg_schedule_set(s, "contend.epilogue_regs.slowdown=0", 0), 0);
    assert_int_equal(pg_schedule_set(s, "contend.mainloop.slowdown=0", 0), 0);
    const double m = pg_test_phase_mean(s, 4000, "mainloop");
    pg_schedule_free(s);
    return m;
}

/* kblocks queue= (docs/experiments.md M25): a load's latency x (1 - q + q n /
 * inflight); queue=0 ignores inflight; a larger calibration count means each
 * load queues less, down to the loop's pure compute; out-of-range values are
 * refused */
static void test_kblocks_queue(void **state)
{
    (void)state;
    const double plain = bres_mainloop(0, 4);
    assert_true(fabs(bres_mainloop(0, 1) - plain) < 1e-9);
    const double fast = bres_mainloop(1, 1000), slow = bres_mainloop(1, 0.5), mid = bres_mainloop(1, 2);
    assert_true(fast < mid && mid < slow);
    assert_true(fast < plain && plain < slow);
    /* loads land at once: compute and the loop's fixed cycles only (M36) */
    assert_true(fabs(fast - 2304 - s_fixed()) < 20);
    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load("h100-bres", &s), 0);
    assert_int_not_equal(pg_schedule_set(s, "kblocks.queue=1.5", 0), 0);
    assert_non_null(strstr(pg_last_error(), "<= 1"));
    assert_int_not_equal(pg_schedule_set(s, "kblocks.inflight=-1", 0), 0);
    pg_schedule_free(s);
    char text[sizeof k_good + 256];
    snprintf(text, sizeof text, "%s%s", k_good,
             "latency L family=const mean=5\nlatency H family=const mean=1\n"
             "kblocks mainloop count=4 stages=2 compute=2 issue=producer.producer_issue load=L release=H "
             "calibrated_mean=200 queue=2\n");
    expect_reject(text, "bad.sched:15", "queue= must be in [0, 1]");
}

/* The fitted log-normal reproduces the summaries it was fitted to. */
static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void test_lognormal_fit(void **state)
{
    (void)state;
    sch_dist d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "phase1");
    d.family = DIST_LOGNORMAL;
    d.mean = 4345;
    d.min = 2842;
    d.p95 = 5537;
    d.max = NAN;
    d.sd = NAN;
    assert_int_equal(dist_fit(&d), 0);
    enum { N = 400000 };
    double *v = malloc(sizeof(double) * N), sum = 0;
    assert_non_null(v);
    rng r;
    rng_seed(&r, 3);
    for (int i = 0; i < N; i++) {
        v[i] = dist_sample(&d, &r);
        sum += v[i];
        assert_true(v[i] >= d.min);
    }
    qsort(v, N, sizeof(double), cmp);
    assert_true(fabs(sum / N - 4345) < 5);
    assert_true(fabs(v[(int)(0.95 * (N - 1))] - 5537) < 10);
    free(v);
}

/* mem_clock_hz: memory terms are held in ns, so a new clock_hz rescales
 * them (and only them); without it they stay in cycles. */
static const char k_mem[] = "schedule m\n"
                            "machine units=1 tiles=100 clock_hz=1e9 flops=1e12 mem_clock_hz=1e9\n"
                            "period consumer.mainloop\n"
                            "phase producer_issue family=const mean=100\n"
                            "phase mainloop family=const mean=200\n"
                            "memory first_load dram_latency=1000 bytes=0 bytes_per_cycle=1\n"
                            "role producer instances=1\n"
                            "  wait producer_wait\n"
                            "  work producer_issue\n"
                            "role consumer instances=1\n"
                            "  wait load_wait until producer.producer_issue + first_load\n"
                            "  work mainloop\n"
                            "buffer stages count=1 acquire=producer.producer_wait release=consumer.mainloop\n";

static double det_cycle(pg_schedule *s)
{
    double lam;
    char cyc[256], bn[64];
    if (sch_deterministic(s, &lam, cyc, sizeof cyc, bn, sizeof bn))
        fail_msg("%s", pg_last_error());
    return lam;
}

static void test_mem_clock(void **state)
{
    (void)state;
    pg_schedule *s = NULL;
    if (pg_schedule_load_text(k_mem, "m.sched", &s))
        fail_msg("%s", pg_last_error());
    assert_true(fabs(det_cycle(s) - 1300) < 1e-6); /* 100 + 1000 + 200 over one buffer */
    assert_int_equal(pg_schedule_set(s, "clock_hz=2e9", 0), 0);
    assert_true(fabs(det_cycle(s) - 2300) < 1e-6); /* the 1000 ns of memory are 2000 cycles now */
    assert_int_equal(pg_schedule_set(s, "mem_clock_hz=2e9", 0), 0);
    assert_true(fabs(det_cycle(s) - 1300) < 1e-6);
    pg_schedule_free(s);
    /* without mem_clock_hz the memory term stays in cycles */
    char text[2048];
    snprintf(text, sizeof text, "%s", k_mem);
    char *m = strstr(text, " mem_clock_hz=1e9");
    memmove(m, m + strlen(" mem_clock_hz=1e9"), strlen(m + strlen(" mem_clock_hz=1e9")) + 1);
    if (pg_schedule_load_text(text, "m.sched", &s))
        fail_msg("%s", pg_last_error());
    assert_int_equal(pg_schedule_set(s, "clock_hz=2e9", 0), 0);
    assert_true(fabs(det_cycle(s) - 1300) < 1e-6);
    pg_schedule_free(s);
    expect_reject(with_line(2, "machine units=1 tiles=100 clock_hz=1e9 flops=1e12 mem_clock_hz=-1"), "bad.sched:2",
                  "mem_clock_hz must be positive");
    expect_reject(with_line(2, "machine units=1 tiles=100 clock_hz=1e9 flops=1e12 whole_run=2"), "bad.sched:2",
                  "whole_run is 0 or 1");
}

/* whole_run: statistics over every unit's run from an empty pipeline; the
 * first tile of a role waits for nothing before it (its set-up aside). */
static void test_whole_run(void **state)
{
    (void)state;
    pg_schedule *s = NULL;
    if (pg_schedule_load_text(k_mem, "m.sched", &s))
        fail_msg("%s", pg_last_error());
    pg_model_opts o = {1000, 1, 0};
    pg_prediction steady, whole;
    assert_int_equal(pg_model_predict(s, &o, &steady), 0);
    assert_int_equal(pg_schedule_set(s, "whole_run=1", 0), 0);
    assert_int_equal(pg_model_predict(s, &o, &whole), 0);
    /* steady state: producer_wait = the loop minus the producer's own work */
    const pg_stat *pw0 = pg_prediction_find(&steady, "producer_wait"), *pw1 = pg_prediction_find(&whole, "producer_wait");
    assert_non_null(pw0);
    assert_non_null(pw1);
    assert_true(fabs(pw0->mean - 1200) < 1e-6);
    /* whole run, 100 tiles: the first waits 0, the other 99 wait 1,200 */
    assert_true(fabs(pw1->mean - 1200.0 * 99 / 100) < 1e-6);
    assert_true(fabs(whole.tile_period - steady.tile_period) < 1e-6);
    pg_schedule_free(s);
}

/* A schedule in its own vocabulary (not pegemm's names): roles loader and
 * worker, phases fetch_wait (a wait), compute, writeback. */
static const char k_vocab[] = "schedule made-up\n"                                            /* 1 */
                              "roles loader worker\n"                                         /* 2 */
                              "phases fetch_wait fetch compute writeback\n"                   /* 3 */
                              "waits fetch_wait\n"                                            /* 4 */
                              "machine units=1 tiles=100 clock_hz=1e9 flops=1e12\n"           /* 5 */
                              "period worker.compute\n"                                       /* 6 */
                              "phase fetch family=const mean=100\n"                           /* 7 */
                              "phase compute family=const mean=300\n"                         /* 8 */
                              "phase writeback family=const mean=50\n"                        /* 9 */
                              "role loader instances=1\n"                                     /* 10 */
                              "  work fetch\n"                                                /* 11 */
                              "role worker instances=1\n"                                     /* 12 */
                              "  wait fetch_wait until loader.fetch\n"                        /* 13 */
                              "  work compute\n"                                              /* 14 */
                              "  work writeback\n";                                           /* 15 */

static char *vocab_with_line(int lineno, const char *repl) { return replace_line(k_vocab, lineno, repl); }

static void test_own_vocabulary(void **state)
{
    (void)state;
    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load_text(k_vocab, "made-up.sched", &s), 0);
    assert_int_equal(s->vocab.n_roles, 2);
    assert_int_equal(s->vocab.n_phases, 4);
    assert_true(s->vocab_declared);
    assert_int_equal(s->vocab.phase_is_wait[pg_vocab_phase(&s->vocab, "fetch_wait")], 1);
    assert_int_equal(s->vocab.phase_is_wait[pg_vocab_phase(&s->vocab, "compute")], 0);
    double lambda;
    char c[256], b[64];
    assert_int_equal(sch_deterministic(s, &lambda, c, sizeof c, b, sizeof b), 0);
    assert_true(fabs(lambda - 350) < 1e-9); /* worker: compute + writeback per tile */
    pg_schedule_free(s);
    /* pegemm's names are not this schedule's */
    expect_reject(vocab_with_line(14, "  work mainloop"), "bad.sched:14",
                  "unknown phase 'mainloop' (the schedule's phases: fetch_wait, fetch, compute, writeback)");
    expect_reject(vocab_with_line(12, "role consumer instances=1"), "bad.sched:12", "unknown role 'consumer'");
    /* a declared name must be used, and the other way round */
    expect_reject(vocab_with_line(3, "phases fetch_wait fetch compute writeback spare"), "bad.sched",
                  "phase 'spare' is declared but no role runs it");
    expect_reject(vocab_with_line(2, "roles loader worker idler"), "bad.sched", "role 'idler' is declared");
    /* waits are waits, work is work */
    expect_reject(vocab_with_line(4, "waits fetch_wait compute"), "bad.sched:14",
                  "phase 'compute' is a wait in the vocabulary but a `work` step here");
    expect_reject(vocab_with_line(4, "waits nothing"), "bad.sched:4", "'nothing' is not in the `phases` line");
    expect_reject(vocab_with_line(2, "# no roles line"), "bad.sched",
                  "declares both `roles` and `phases`, or neither");
    expect_reject(vocab_with_line(3, "phases fetch_wait fetch compute compute"), "bad.sched:3",
                  "phase 'compute' is listed twice");
}

/* A trace in the made-up vocabulary: per tile the loader's fetch and the
 * worker's fetch_wait, compute, writeback. */
static void made_up_trace(pg_trace *t, const char *const *phases, int nphases, const unsigned char *waits)
{
    const int tiles = 4, per = 4;
    assert_int_equal(pg_trace_alloc(t, tiles * per, 1), 0);
    assert_int_equal(pg_vocab_add_role(&t->vocab, "worker"), 0); /* codes in another order than the schedule's */
    assert_int_equal(pg_vocab_add_role(&t->vocab, "loader"), 0);
    for (int i = 0; i < nphases; i++)
        assert_int_equal(pg_vocab_add_phase(&t->vocab, phases[i], waits[i]), 0);
    t->anchor_clock[0] = 1000;
    t->anchor_globaltimer_ns[0] = 5000;
    static const char *const seq[4] = {"fetch", "fetch_wait", "compute", "writeback"};
    int64_t clock = 2000;
    for (int k = 0; k < tiles; k++)
        for (int j = 0; j < per; j++) {
            int64_t i = k * per + j;
            int ph = pg_vocab_phase(&t->vocab, seq[j]);
            t->role[i] = (uint8_t)(j == 0 ? 1 : 0);
            t->phase[i] = (uint8_t)(ph >= 0 ? ph : 0);
            t->tile[i] = k;
            t->begin[i] = clock;
            t->end[i] = clock += 100;
        }
}

static void test_match_trace(void **state)
{
    (void)state;
    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load_text(k_vocab, "made-up.sched", &s), 0);
    pg_trace t;
    static const char *const same[] = {"writeback", "compute", "fetch_wait", "fetch"};
    static const unsigned char same_w[] = {0, 0, 1, 0};
    made_up_trace(&t, same, 4, same_w);
    assert_int_equal(pg_schedule_match_trace(s, &t), 0);
    pg_trace_free(&t);
    /* the trace has a phase the schedule lacks */
    static const char *const extra[] = {"writeback", "compute", "fetch_wait", "fetch", "spill"};
    static const unsigned char extra_w[] = {0, 0, 1, 0, 0};
    made_up_trace(&t, extra, 5, extra_w);
    t.phase[3] = 4; /* one writeback becomes a spill */
    assert_int_equal(pg_schedule_match_trace(s, &t), -1);
    assert_non_null(strstr(pg_last_error(), "the trace has phase 'spill', which schedule made-up lacks"));
    pg_trace_free(&t);
    /* the schedule has a phase the trace lacks (no intervals of it) */
    static const char *const fewer[] = {"writeback", "compute", "fetch_wait", "fetch"};
    made_up_trace(&t, fewer, 4, same_w);
    for (int64_t i = 0; i < t.n; i++)
        if (t.phase[i] == 0)
            t.phase[i] = 1; /* no writeback left */
    assert_int_equal(pg_schedule_match_trace(s, &t), -1);
    assert_non_null(strstr(pg_last_error(), "schedule made-up has phase 'writeback', which the trace lacks"));
    pg_trace_free(&t);
    /* the waits disagree */
    static const unsigned char wrong_w[] = {0, 1, 1, 0};
    made_up_trace(&t, same, 4, wrong_w);
    assert_int_equal(pg_schedule_match_trace(s, &t), -1);
    assert_non_null(strstr(pg_last_error(), "phase 'compute' is a wait in the trace but work in schedule made-up"));
    pg_trace_free(&t);
    /* a role the schedule lacks */
    made_up_trace(&t, same, 4, same_w);
    snprintf(t.vocab.role[1], sizeof t.vocab.role[1], "prefetcher");
    assert_int_equal(pg_schedule_match_trace(s, &t), -1);
    assert_non_null(strstr(pg_last_error(), "the trace has role 'prefetcher', which schedule made-up lacks"));
    pg_trace_free(&t);
    pg_schedule_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_loads),        cmocka_unit_test(test_invalid_files),
        cmocka_unit_test(test_own_vocabulary),    cmocka_unit_test(test_match_trace),
        cmocka_unit_test(test_file_rejected_names_file), cmocka_unit_test(test_builtins_roundtrip),
        cmocka_unit_test(test_overrides),         cmocka_unit_test(test_kblocks_tile_compute),
        cmocka_unit_test(test_kblocks_queue),     cmocka_unit_test(test_ring_last_stage),
        cmocka_unit_test(test_bandwidth_floor_device),
                cmocka_unit_test(test_lognormal_fit),
        cmocka_unit_test(test_mem_clock),         cmocka_unit_test(test_whole_run),
        cmocka_unit_test(test_wait_floor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
