#include "fitted_run.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "pg_error.h"
#include "sched.h"

void pg_fitted_run_load(const char *path, int64_t tiles, pg_fitted_run *f)
{
    memset(f, 0, sizeof *f);
    const pg_model_opts o = {tiles, 1, 0};
    if (pg_run_read(path, &f->run, PG_READ_TRACE) || pg_schedule_fit(&f->run, &f->s) ||
        pg_model_predict(f->s, &o, &f->model) ||
        pg_trace_summarize_period(&f->run.trace, f->s->machine.clock_hz, pg_schedule_period_phase(f->s),
                                  &f->measured))
        fail_msg("%s: %s", path, pg_last_error());
}

void pg_fitted_run_free(pg_fitted_run *f)
{
    pg_schedule_free(f->s);
    pg_run_free(&f->run);
}
