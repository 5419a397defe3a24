/* The kit's run-file writer: a pgtrace view is a run file's /trace, column
 * for column (pgtrace_runfile.h). */
#include "pgtrace_runfile.h"

#include <stdio.h>
#include <string.h>

#include "pg_error.h"
#include "pgtrace_csv.h"

static int copy_vocab(const pgtrace_vocab *k, pg_vocab *v)
{
    memset(v, 0, sizeof *v);
    if (k->n_roles > PG_VOCAB_MAX_ROLES || k->n_phases > PG_VOCAB_MAX_PHASES)
        return pg_fail("the vocabulary has %d roles and %d phases; a run file holds at most %d and %d", k->n_roles,
                       k->n_phases, PG_VOCAB_MAX_ROLES, PG_VOCAB_MAX_PHASES);
    for (int i = 0; i < k->n_roles; i++)
        if (pg_vocab_add_role(v, k->role_names[i]) < 0)
            return -1;
    for (int i = 0; i < k->n_phases; i++)
        if (pg_vocab_add_phase(v, k->phase_names[i], k->phase_is_wait && k->phase_is_wait[i]) < 0)
            return -1;
    return 0;
}

int pgtrace_view_to_run(const pgtrace_view *v, const char *schedule, pg_run *run)
{
    memset(run, 0, sizeof *run);
    pg_trace *t = &run->trace;
    if (pg_trace_alloc(t, v->n_events, v->n_sm) < 0)
        return -1;
    if (copy_vocab(v->vocab, &t->vocab) < 0)
        goto fail;
    if (strlen(v->kernel) >= sizeof t->kernel || (schedule && strlen(schedule) >= sizeof t->schedule)) {
        pg_fail("the kernel name or the schedule is too long (at most %zu and %zu characters)", sizeof t->kernel - 1,
                sizeof t->schedule - 1);
        goto fail;
    }
    snprintf(t->kernel, sizeof t->kernel, "%s", v->kernel);
    snprintf(t->schedule, sizeof t->schedule, "%s", schedule ? schedule : "");
    t->clock_hz = v->clock_hz;
    for (int64_t i = 0; i < v->n_events; i++) {
        const pgtrace_event *e = &v->events[i];
        t->sm[i] = e->sm;
        t->role[i] = e->role;
        t->warp[i] = e->warp;
        t->tile[i] = e->tile;
        t->phase[i] = e->phase;
        t->begin[i] = e->begin;
        t->end[i] = e->end;
    }
    if (v->n_sm > 0) {
        memcpy(t->anchor_clock, v->anchor_clock, sizeof(int64_t) * (size_t)v->n_sm);
        memcpy(t->anchor_globaltimer_ns, v->anchor_globaltimer_ns, sizeof(int64_t) * (size_t)v->n_sm);
    }
    return 0;
fail:
    pg_run_free(run);
    return -1;
}

int pgtrace_write_runfile(void *ctx, const pgtrace_view *view)
{
    const pgtrace_runfile *dst = ctx;
    pg_run run;
    if (pgtrace_view_to_run(view, dst->schedule, &run) < 0)
        return pgtrace_fail("%s: %s", dst->path, pg_last_error());
    int rc = pg_run_write(dst->path, &run, 0);
    pg_run_free(&run);
    return rc < 0 ? pgtrace_fail("%s", pg_last_error()) : 0;
}

int pgtrace_csv_to_runfile(const char *csv_path, const char *run_path, const char *schedule)
{
    pgtrace_csv c;
    if (pgtrace_read_csv(csv_path, &c) != 0)
        return pg_fail("%s", pgtrace_last_error());
    const pgtrace_view v = {
        .vocab = &c.vocab,
        .kernel = c.kernel,
        .n_events = c.n_events,
        .events = c.events,
        .n_sm = c.n_sm,
        .anchor_clock = c.anchor_clock,
        .anchor_globaltimer_ns = c.anchor_globaltimer_ns,
        .clock_hz = c.clock_hz,
        .clock_hz_nominal = c.clock_hz_nominal,
        .count = c.count,
        .dropped = c.dropped,
    };
    pg_run run;
    int rc = pgtrace_view_to_run(&v, schedule, &run);
    pgtrace_csv_free(&c);
    if (rc < 0)
        return pg_fail_context("%s", csv_path);
    rc = pg_run_write(run_path, &run, 0);
    pg_run_free(&run);
    return rc;
}
