/* A schedule `pegemm model fit -o` writes is the fit: validate with it
 * predicts a build without a prefetch as the built-in it was fitted from
 * does (M175; a prefetch build refits the calibration from the written
 * figures and differs by under 2 cycles).  The
 * write-back had turned h100-pingpong's expressions of the options into
 * the calibration's numbers (its epilogue line's compute= of $kblocks, its
 * solve= of $rowfirst_prefetch), so that the written schedule predicted
 * another K 1.2 points longer than the built-in did (set 78, K = 256:
 * +1.1% against -0.1%).  And it settles: the written schedule's second and
 * third refits write the same text, its "fitted by" line not doubled.
 * argv: traces/probes/h200_s81/pingpong_ml_00000.h5, then its
 * pingpong_k384_epi_02000 and pingpong_k512_epi_04500. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "model.h"
#include "period_pins.h"
#include "pg_error.h"
#include "runfile.h"
#include "sched.h"
#include "sched_text.h"

enum { CAL, K384, K512, N_RUNS };
static const char *g_path[N_RUNS];

/* RUN fitted with SCHEDULE, written to PATH with the CLI's comment; the text */
static char *fit_and_write(const pg_run *run, const char *schedule, const char *path)
{
    pg_schedule *s = NULL;
    if (pg_schedule_fit_as(run, schedule, &s) || pg_schedule_save(s, path, "fitted by `pegemm model fit` from cal.h5"))
        fail_msg("%s: %s", schedule, pg_last_error());
    char *text = pg_test_schedule_text(s, NULL);
    pg_schedule_free(s);
    return text;
}

static void test_written_fit_predicts_as_the_builtin(void **state)
{
    (void)state;
    char dir[] = "/tmp/pg_fit_written.XXXXXX", once[64], twice[64], thrice[64];
    assert_non_null(mkdtemp(dir));
    snprintf(once, sizeof once, "%s/once.sched", dir);
    snprintf(twice, sizeof twice, "%s/twice.sched", dir);
    snprintf(thrice, sizeof thrice, "%s/thrice.sched", dir);
    pg_run run;
    if (pg_run_read(g_path[CAL], &run, PG_READ_TRACE))
        fail_msg("%s", pg_last_error());
    free(fit_and_write(&run, "h100-pingpong", once));
    char *a = fit_and_write(&run, once, twice), *b = fit_and_write(&run, twice, thrice);
    assert_string_equal(a, b);
    double builtin[N_RUNS], written[N_RUNS];
    pg_test_period_errors(g_path[CAL], &g_path[K384], N_RUNS - 1, NULL, 0, 1, builtin);
    pg_test_period_errors_of(once, g_path[CAL], &g_path[K384], N_RUNS - 1, NULL, 0, 1, written);
    for (int i = 1; i < N_RUNS; i++)
        if (!(fabs(written[i] - builtin[i]) < 1e-9))
            fail_msg("run %d: the written fit predicts %+.2f%%, the built-in %+.2f%%", i, 100 * written[i],
                     100 * builtin[i]);
    FILE *f = fopen(twice, "r");
    assert_non_null(f);
    char line[256];
    int fitted_by = 0;
    while (fgets(line, sizeof line, f))
        fitted_by += strncmp(line, "# fitted by", 11) == 0;
    fclose(f);
    assert_int_equal(fitted_by, 1);
    free(a);
    free(b);
    pg_run_free(&run);
    assert_int_equal(unlink(once), 0);
    assert_int_equal(unlink(twice), 0);
    assert_int_equal(unlink(thrice), 0);
    assert_int_equal(rmdir(dir), 0);
}

/* The write drops the schedule's first line where it is an earlier fit's
 * "fitted by ... from ..." line, and only then: a line of the user's that
 * starts alike stays */
static void test_only_an_earlier_fit_line_is_replaced(void **state)
{
    (void)state;
    static const char body[] = "schedule t\nmachine units=1 tiles=10 clock_hz=1e9 flops=1e12\nperiod consumer.mainloop\n"
                               "phase mainloop family=const mean=10\nrole consumer instances=1\n  work mainloop\n";
    static const char *const first[] = {"# fitted by `pegemm model fit` from old.h5 (9 trace rows)\n",
                                        "# fitted by `pegemm model fit` then hand-tuned\n"};
    for (int i = 0; i < 2; i++) {
        char text[512];
        snprintf(text, sizeof text, "%s%s", first[i], body);
        pg_schedule *s = NULL;
        if (pg_schedule_load_text(text, "t.sched", &s))
            fail_msg("%s", pg_last_error());
        char *out = pg_test_schedule_text(s, "fitted by `pegemm model fit` from new.h5 (9 trace rows)");
        assert_int_equal(strncmp(out, "# fitted by `pegemm model fit` from new.h5", 42), 0);
        assert_true((strstr(out, first[i]) != NULL) == (i == 1));
        free(out);
        pg_schedule_free(s);
    }
}

/* h100-pingpong written with overrides and read back: a switch an
 * override set (storewin on=) is written; a --delta on an expression is
 * (EXPR)+SUM, which every line reads back, the latency lines (colshare)
 * too; an absolute override under contend.KEY and a delta under
 * contend.PHASE.KEY of the same line make its number */
static void test_overrides_read_back(void **state)
{
    (void)state;
    pg_schedule *s = NULL, *t = NULL;
    if (pg_schedule_load("h100-pingpong", &s))
        fail_msg("%s", pg_last_error());
    const char *builtin = pg_schedule_text(s), *at = strstr(builtin, " ratio=0.71 ");
    assert_non_null(at);
    const size_t size = strlen(builtin) + 16;
    char *text = malloc(size);
    assert_non_null(text);
    snprintf(text, size, "%.*s ratio=$dramq+.71 %s", (int)(at - builtin), builtin, at + 12); /* dramq is 0 */
    pg_schedule_free(s);
    static const char *const sets[] = {"rowfirst_prefetch=0", "storewin.on=0", "contend.slowdown=0.2"};
    static const char *const deltas[] = {"storewin.load_gain=0.1", "colshare.ratio=0.01",
                                         "contend.epilogue_regs.slowdown=0.05"};
    if (pg_schedule_load_text(text, "pp.sched", &s))
        fail_msg("%s", pg_last_error());
    for (int i = 0; i < 3; i++)
        if (pg_schedule_set(s, sets[i], 0) || pg_schedule_set(s, deltas[i], 1))
            fail_msg("%s", pg_last_error());
    char *buf = pg_test_schedule_text(s, NULL);
    assert_non_null(strstr(buf, " load_gain=(0.5*(1-$rowfirst_prefetch))+0.1 "));
    assert_non_null(strstr(buf, " ratio=($dramq+.71)+0.01 "));
    assert_non_null(strstr(buf, "contend epilogue_regs by=mainloop slowdown=0.25 "));
    if (pg_schedule_load_text(buf, "back.sched", &t))
        fail_msg("reload: %s", pg_last_error());
    assert_true(t->wn_on == 0 && fabs(t->wn_load_gain - 0.6) < 1e-12 && fabs(t->cs_ratio - 0.72) < 1e-12 &&
                fabs(t->ct[0].slowdown - 0.25) < 1e-12);
    free(buf);
    free(text);
    pg_schedule_free(s);
    pg_schedule_free(t);
}

int main(int argc, char **argv)
{
    const int rc = pg_test_take_runs(argc, argv, "test_fit_written", g_path, N_RUNS);
    if (rc)
        return rc;
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_written_fit_predicts_as_the_builtin),
                                       cmocka_unit_test(test_only_an_earlier_fit_line_is_replaced),
                                       cmocka_unit_test(test_overrides_read_back)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
