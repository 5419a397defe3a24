/* A schedule's vocabulary: the `roles`, `phases` and `waits` lines that
 * name the kernel's warp roles and phases, and the rule that ties them to
 * the role and step lines.  Traces are matched to schedules by these names
 * (fit.c, pg_schedule_match_trace), never by code.
 *
 *   roles producer consumer
 *   phases producer_wait issue load_wait softmax store
 *   waits producer_wait load_wait
 *
 * A schedule without these lines (written before schedules declared their
 * names) gets the names its role and step lines use, with pegemm's
 * kernels' names as the ones it may use (pg_vocab_pegemm). */
#include <stdio.h>
#include <string.h>

#include "model_ext.h"
#include "pg_error.h"
#include "sched.h"

#define FAIL(line, ...) (pg_fail(__VA_ARGS__), pg_fail_context("%s:%d", s->origin, (line)))

int sch_vocab_line(const char *d) { return !strcmp(d, "roles") || !strcmp(d, "phases") || !strcmp(d, "waits"); }

/* The next line of text into buf (without the comment), 0 at the end. */
static int next_line(const char **cur, char *buf, size_t n)
{
    if (!**cur)
        return 0;
    const char *e = strchr(*cur, '\n');
    size_t len = e ? (size_t)(e - *cur) : strlen(*cur);
    size_t keep = len < n - 1 ? len : n - 1;
    memcpy(buf, *cur, keep);
    buf[keep] = 0;
    char *hash = strchr(buf, '#');
    if (hash)
        *hash = 0;
    *cur += len + (e ? 1 : 0);
    return 1;
}

static int vocab_words(pg_schedule *s, const char *d, char *rest, int line, int *seen)
{
    char *save = NULL;
    int count = 0;
    for (char *w = strtok_r(rest, " \t\r", &save); w; w = strtok_r(NULL, " \t\r", &save), count++) {
        if (!strcmp(d, "roles")) {
            if (pg_vocab_add_role(&s->vocab, w) < 0)
                return pg_fail_context("%s:%d", s->origin, line);
        } else if (!strcmp(d, "phases")) {
            if (pg_vocab_add_phase(&s->vocab, w, 0) < 0)
                return pg_fail_context("%s:%d", s->origin, line);
        } else {
            int p = pg_vocab_phase(&s->vocab, w);
            if (p < 0)
                return FAIL(line, "waits: '%s' is not in the `phases` line (list the phases first)", w);
            s->vocab.phase_is_wait[p] = 1;
        }
    }
    if (count == 0)
        return FAIL(line, "usage: %s NAME...", d);
    seen[!strcmp(d, "roles") ? 0 : !strcmp(d, "phases") ? 1 : 2] = line;
    return 0;
}

int sch_vocab_load(pg_schedule *s)
{
    memset(&s->vocab, 0, sizeof s->vocab);
    s->vocab_declared = 0;
    int seen[3] = {0, 0, 0}; /* line of roles, phases, waits */
    const char *cur = s->text;
    char buf[1024];
    for (int line = 1; next_line(&cur, buf, sizeof buf); line++) {
        char *p = buf + strspn(buf, " \t\r");
        size_t dl = strcspn(p, " \t\r");
        char d[16];
        if (dl == 0 || dl >= sizeof d)
            continue;
        memcpy(d, p, dl);
        d[dl] = 0;
        if (!sch_vocab_line(d))
            continue;
        int which = !strcmp(d, "roles") ? 0 : !strcmp(d, "phases") ? 1 : 2;
        if (seen[which])
            return FAIL(line, "a second `%s` line (the first is line %d)", d, seen[which]);
        if (which == 2 && !seen[1])
            return FAIL(line, "`waits` before `phases` (list the phases first)");
        if (vocab_words(s, d, p + dl, line, seen) < 0)
            return -1;
    }
    if (!seen[0] != !seen[1])
        return FAIL(seen[0] ? seen[0] : seen[1], "a schedule declares both `roles` and `phases`, or neither");
    s->vocab_declared = seen[0] != 0;
    if (!s->vocab_declared)
        pg_vocab_pegemm(&s->vocab); /* the names a schedule could use before it declared its own */
    return 0;
}

int sch_vocab_need_role(const pg_schedule *s, const char *name, int line)
{
    if (pg_vocab_role(&s->vocab, name) >= 0)
        return 0;
    char list[512];
    pg_vocab_list_roles(&s->vocab, list, sizeof list);
    return FAIL(line, "unknown role '%s' (the schedule's roles: %s)", name, list);
}

int sch_vocab_need_phase(const pg_schedule *s, const char *name, int line)
{
    if (pg_vocab_phase(&s->vocab, name) >= 0)
        return 0;
    char list[1024];
    pg_vocab_list_phases(&s->vocab, list, sizeof list);
    return FAIL(line, "unknown phase '%s' (the schedule's phases: %s)", name, list);
}

/* The step that runs phase p, or NULL. */
static const sch_step *step_of(const pg_schedule *s, const char *phase)
{
    for (int r = 0; r < s->nroles; r++)
        for (int i = 0; i < s->roles[r].nsteps; i++)
            if (s->roles[r].steps[i].kind != STEP_DELAY && !strcmp(s->roles[r].steps[i].name, phase))
                return &s->roles[r].steps[i];
    return NULL;
}

/* Wait steps run waits, work steps work, as the vocabulary says. */
static int check_step_kinds(const pg_schedule *s)
{
    for (int r = 0; r < s->nroles; r++)
        for (int i = 0; i < s->roles[r].nsteps; i++) {
            const sch_step *st = &s->roles[r].steps[i];
            if (st->kind == STEP_DELAY)
                continue;
            int p = pg_vocab_phase(&s->vocab, st->name);
            if (p >= 0 && s->vocab.phase_is_wait[p] != (st->kind == STEP_WAIT))
                return FAIL(st->line, "phase '%s' is %s in the vocabulary but a `%s` step here", st->name,
                            s->vocab.phase_is_wait[p] ? "a wait" : "work (not in `waits`)",
                            st->kind == STEP_WAIT ? "wait" : "work");
        }
    return 0;
}

int sch_vocab_finish(pg_schedule *s)
{
    if (check_step_kinds(s) < 0)
        return -1;
    if (s->vocab_declared) {
        for (int i = 0; i < s->vocab.n_roles; i++) {
            int found = 0;
            for (int r = 0; r < s->nroles; r++)
                found |= !strcmp(s->roles[r].name, s->vocab.role[i]);
            if (!found)
                return FAIL(1, "role '%s' is declared but has no `role` line", s->vocab.role[i]);
        }
        for (int i = 0; i < s->vocab.n_phases; i++)
            if (!step_of(s, s->vocab.phase[i]))
                return FAIL(1, "phase '%s' is declared but no role runs it (a `work` or `wait` step)",
                            s->vocab.phase[i]);
        return 0;
    }
    /* undeclared: the names the schedule uses */
    pg_vocab used;
    memset(&used, 0, sizeof used);
    for (int r = 0; r < s->nroles; r++) {
        if (pg_vocab_add_role(&used, s->roles[r].name) < 0)
            return pg_fail_context("%s:%d", s->origin, s->roles[r].line);
        for (int i = 0; i < s->roles[r].nsteps; i++) {
            const sch_step *st = &s->roles[r].steps[i];
            if (st->kind != STEP_DELAY && pg_vocab_add_phase(&used, st->name, st->kind == STEP_WAIT) < 0)
                return pg_fail_context("%s:%d", s->origin, st->line);
        }
    }
    s->vocab = used;
    return 0;
}

int sch_trace_role(const pg_schedule *s, const pg_trace *t, int r)
{
    return pg_vocab_role(&t->vocab, s->roles[r].name);
}

int sch_trace_phase(const pg_trace *t, const char *phase) { return pg_vocab_phase(&t->vocab, phase); }

/* Which roles and phases of the trace have intervals. */
static void trace_used(const pg_trace *t, unsigned char *roles, unsigned char *phases)
{
    memset(roles, 0, PG_VOCAB_MAX_ROLES);
    memset(phases, 0, PG_VOCAB_MAX_PHASES);
    for (int64_t i = 0; i < t->n; i++) {
        if (t->role[i] < PG_VOCAB_MAX_ROLES)
            roles[t->role[i]] = 1;
        if (t->phase[i] < PG_VOCAB_MAX_PHASES)
            phases[t->phase[i]] = 1;
    }
}

static void used_list(const pg_trace *t, const unsigned char *used, int roles, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = 0;
    const int count = roles ? t->vocab.n_roles : t->vocab.n_phases;
    for (int i = 0; i < count && at < n; i++)
        if (used[i]) {
            int w = snprintf(buf + at, n - at, "%s%s", at ? ", " : "", roles ? t->vocab.role[i] : t->vocab.phase[i]);
            if (w < 0)
                break;
            at += (size_t)w;
        }
}

int pg_schedule_match_trace(const pg_schedule *s, const pg_trace *t)
{
    unsigned char roles[PG_VOCAB_MAX_ROLES], phases[PG_VOCAB_MAX_PHASES];
    char list[1024];
    trace_used(t, roles, phases);
    for (int i = 0; i < t->vocab.n_roles; i++)
        if (roles[i] && pg_vocab_role(&s->vocab, t->vocab.role[i]) < 0) {
            pg_vocab_list_roles(&s->vocab, list, sizeof list);
            return pg_fail("the trace has role '%s', which schedule %s lacks (its roles: %s)", t->vocab.role[i],
                           s->name, list);
        }
    for (int i = 0; i < t->vocab.n_phases; i++)
        if (phases[i] && pg_vocab_phase(&s->vocab, t->vocab.phase[i]) < 0) {
            pg_vocab_list_phases(&s->vocab, list, sizeof list);
            return pg_fail("the trace has phase '%s', which schedule %s lacks (its phases: %s)", t->vocab.phase[i],
                           s->name, list);
        }
    for (int i = 0; i < s->vocab.n_roles; i++) {
        int c = pg_vocab_role(&t->vocab, s->vocab.role[i]);
        if (c < 0 || !roles[c]) {
            used_list(t, roles, 1, list, sizeof list);
            return pg_fail("schedule %s has role '%s', which the trace lacks (the trace's roles: %s)", s->name,
                           s->vocab.role[i], list);
        }
    }
    for (int i = 0; i < s->vocab.n_phases; i++) {
        int c = pg_vocab_phase(&t->vocab, s->vocab.phase[i]);
        if (c < 0 || !phases[c]) {
            used_list(t, phases, 0, list, sizeof list);
            return pg_fail("schedule %s has phase '%s', which the trace lacks (the trace's phases: %s)", s->name,
                           s->vocab.phase[i], list);
        }
        if (!t->vocab.phase_is_wait[c] != !s->vocab.phase_is_wait[i])
            return pg_fail("phase '%s' is %s in the trace but %s in schedule %s", s->vocab.phase[i],
                           t->vocab.phase_is_wait[c] ? "a wait" : "work", s->vocab.phase_is_wait[i] ? "a wait" : "work",
                           s->name);
    }
    return 0;
}

const char *pg_schedule_period_phase(const pg_schedule *s)
{
    return s->roles[s->period_role].steps[s->period_step].name;
}

int pg_trace_in_pegemm_vocab(const pg_trace *t)
{
    pg_vocab ours;
    pg_vocab_pegemm(&ours);
    if (t->vocab.n_roles > ours.n_roles || t->vocab.n_phases > ours.n_phases)
        return 0;
    for (int i = 0; i < t->vocab.n_roles; i++)
        if (strcmp(t->vocab.role[i], ours.role[i]))
            return 0;
    for (int i = 0; i < t->vocab.n_phases; i++)
        if (strcmp(t->vocab.phase[i], ours.phase[i]))
            return 0;
    return 1;
}

int pg_schedule_role_phases(const pg_schedule *s, const char *role, const char **phases, int max)
{
    for (int r = 0; r < s->nroles; r++) {
        if (strcmp(s->roles[r].name, role) != 0)
            continue;
        int n = 0;
        for (int i = 0; i < s->roles[r].nsteps && n < max; i++)
            if (s->roles[r].steps[i].kind != STEP_DELAY)
                phases[n++] = s->roles[r].steps[i].name;
        return n;
    }
    return -1;
}
