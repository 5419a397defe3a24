/* A schedule's written text in memory, for the model tests' write-back
 * checks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pg_error.h"
#include "sched_text.h"

char *pg_test_schedule_text(const pg_schedule *s, const char *header)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(pg_schedule_write(s, f, header), 0);
    assert_int_equal(fclose(f), 0);
    assert_non_null(buf);
    return buf;
}

void pg_test_refused(const char *text, const char *msg)
{
    pg_schedule *s = NULL;
    assert_int_not_equal(pg_schedule_load_text(text, "bad.sched", &s), 0);
    assert_null(s);
    if (!strstr(pg_last_error(), msg))
        fail_msg("'%s' not in '%s'", msg, pg_last_error());
    assert_non_null(strstr(pg_last_error(), "bad.sched:"));
}

double pg_test_phase_mean(const pg_schedule *s, int64_t tiles, const char *phase)
{
    pg_model_opts o = {.tiles = tiles, .seed = 1, .deterministic = 1};
    pg_prediction p;
    if (pg_model_predict(s, &o, &p))
        fail_msg("%s", pg_last_error());
    const pg_stat *st = pg_prediction_find(&p, phase);
    assert_non_null(st);
    return st->mean;
}
