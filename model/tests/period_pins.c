/* period_pins.h: validate's period errors on committed runs, and the pin. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "model.h"
#include "period_pins.h"
#include "pg_error.h"
#include "validate.h"

int pg_test_take_runs(int argc, char **argv, const char *name, const char **path, int n)
{
    if (argc - 1 != n) {
        fprintf(stderr, "%s: give the %d runs\n", name, n);
        return 2;
    }
    for (int i = 0; i < n; i++)
        path[i] = argv[i + 1];
    return 0;
}

void pg_test_period_errors(const char *cal, const char *const *runs, int n, const char *const *variant,
                           int nvariant, uint64_t seed, double *err)
{
    pg_test_period_errors_of(NULL, cal, runs, n, variant, nvariant, seed, err);
}

void pg_test_period_errors_of(const char *schedule, const char *cal, const char *const *runs, int n,
                              const char *const *variant, int nvariant, uint64_t seed, double *err)
{
    pg_validate_opts v = {0};
    v.schedule = schedule;
    v.variant = variant;
    v.nvariant = nvariant;
    const pg_model_opts o = {20000, seed, 0};
    pg_validate_report r;
    if (pg_model_validate_runs(cal, runs, n, &v, &o, &r))
        fail_msg("%s", pg_last_error());
    assert_int_equal(r.n, n + 1); /* the calibration's self-fit row first */
    for (int i = 1; i < r.n; i++) {
        assert_string_equal(r.rows[i].whatif.why_not, "");
        err[i] = r.rows[i].period_predicted / r.rows[i].period_measured - 1;
    }
    pg_validate_report_free(&r);
}

void pg_test_period_within(const char *what, int run, double err, double lo, double hi)
{
    if (!(err >= lo && err <= hi))
        fail_msg("%s, run %d: period %+.1f%%, pinned to [%+.1f%%, %+.1f%%]", what, run, 100 * err, 100 * lo,
                 100 * hi);
}
