/* Loading schedules (built-in or file), and what-if overrides. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "model.h"
#include "pg_error.h"
#include "pg_outpath.h"
#include "sched.h"

static char *read_whole_file(const char *path)
{
    FILE *f = pg_input_fopen(path, "schedule file"); /* a regular file, registered as an input */
    char *buf = NULL;
    long n;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
        pg_fail("cannot read schedule file '%s'", path);
        goto done;
    }
    if (n > (1 << 20)) {
        pg_fail("schedule file '%s' is larger than 1 MiB", path);
        goto done;
    }
    buf = malloc((size_t)n + 1);
    if (!buf) {
        pg_fail("out of memory reading '%s'", path);
        goto done;
    }
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
        pg_fail("cannot read schedule file '%s'", path);
        free(buf);
        buf = NULL;
        goto done;
    }
    buf[n] = '\0';
done:
    fclose(f);
    return buf;
}

int pg_schedule_load(const char *name_or_path, pg_schedule **out)
{
    *out = NULL;
    pg_schedule *s = calloc(1, sizeof *s);
    if (!s)
        return pg_fail("out of memory");
    const char *builtin = sch_builtin_text(name_or_path);
    if (builtin) {
        s->text = strdup(builtin);
        snprintf(s->origin, sizeof s->origin, "builtin:%s", name_or_path);
    } else if (strchr(name_or_path, '/') || strstr(name_or_path, ".sched")) {
        s->text = read_whole_file(name_or_path);
        snprintf(s->origin, sizeof s->origin, "%s", name_or_path);
        if (!s->text) {
            free(s);
            return -1;
        }
    } else {
        free(s);
        return pg_fail("unknown schedule '%s' (built-in: %s; or give a path to a .sched file)", name_or_path,
                       sch_builtin_names());
    }
    if (!s->text || sch_load_options(s) || sch_compile(s)) {
        pg_schedule_free(s);
        return -1;
    }
    *out = s;
    return 0;
}

void pg_schedule_free(pg_schedule *s)
{
    if (!s)
        return;
    if (s->table) {
        free(s->table->v);
        free(s->table);
    }
    free(s->text);
    free(s);
}

const char *pg_schedule_name(const pg_schedule *s) { return s->name; }

static const char *const k_machine_keys[] = {"units", "tiles", "clock_hz", "flops", "prologue", "mem_clock_hz", "whole_run", NULL};

double sch_mem_clock_ratio(const pg_schedule *s)
{
    const sch_machine *m = &s->machine;
    return m->mem_clock_hz > 0 && m->clock_hz > 0 ? m->clock_hz / m->mem_clock_hz : 1.0;
}

double sch_dist_scale(const pg_schedule *s, int d)
{
    return s->dists[d].kind == DKIND_MEMORY ? sch_mem_clock_ratio(s) : 1.0;
}

static double *machine_field(sch_machine *m, const char *key)
{
    if (strcmp(key, "units") == 0)
        return &m->units;
    if (strcmp(key, "tiles") == 0)
        return &m->tiles;
    if (strcmp(key, "clock_hz") == 0)
        return &m->clock_hz;
    if (strcmp(key, "flops") == 0)
        return &m->flops;
    if (strcmp(key, "prologue") == 0)
        return &m->prologue;
    if (strcmp(key, "mem_clock_hz") == 0)
        return &m->mem_clock_hz;
    if (strcmp(key, "whole_run") == 0)
        return &m->whole_run;
    return NULL;
}

/* A fitted distribution replaces the named one whole; it keeps the line
 * and kind the schedule gave it, so messages and the writer stay right. */
static int apply_fitted_dist(pg_schedule *s, const sch_override *o)
{
    int di = sch_find_dist(s, o->param);
    if (di < 0)
        return pg_fail("fitted distribution '%s' is not in schedule %s", o->param, s->name);
    sch_dist d = o->dist;
    d.line = s->dists[di].line;
    d.kind = s->dists[di].kind;
    if (dist_fit(&d))
        return -1;
    s->dists[di] = d;
    return 0;
}

/* A parameter without a dot is a machine key; all but prologue and
 * whole_run (a flag) must stay positive. */
static int apply_machine(pg_schedule *s, const sch_override *o, const char *name)
{
    double *f = machine_field(&s->machine, name);
    if (!f)
        return pg_fail("unknown parameter '%s'", o->param);
    double v = o->relative ? *f + o->value : o->value;
    if (strcmp(name, "whole_run") == 0 && v != 0 && v != 1)
        return pg_fail("whole_run is 0 or 1 (got %g)", v);
    if (!(v > 0) && strcmp(name, "prologue") != 0 && strcmp(name, "whole_run") != 0)
        return pg_fail("'%s' must be positive (got %g)", name, v);
    *f = v;
    return 0;
}

/* The message for a PHASE.STAT whose PHASE is no distribution: it lists
 * the schedule's distributions. */
static int fail_unknown_dist(const pg_schedule *s, const sch_override *o, const char *name)
{
    char known[512] = "";
    for (int i = 0; i < s->ndists; i++) {
        strncat(known, s->dists[i].name, sizeof known - strlen(known) - 3);
        strncat(known, i + 1 < s->ndists ? ", " : "", sizeof known - strlen(known) - 1);
    }
    return pg_fail("unknown parameter '%s': '%s' is not a phase, memory or latency of schedule %s (known: %s)",
                   o->param, name, s->name, known);
}

/* The bounds given (min, p95, max) move with the distribution. */
static void shift_bounds(sch_dist *d, double delta)
{
    if (isfinite(d->min))
        d->min += delta;
    if (isfinite(d->p95))
        d->p95 += delta;
    if (isfinite(d->max))
        d->max += delta;
}

/* A new mean keeps the calibrated spread: shift the whole distribution
 * (a trace's samples by their shift, a memory line by its DRAM latency). */
static void set_mean(sch_dist *d, const sch_override *o)
{
    double cur = dist_mean(d), delta = (o->relative ? cur + o->value : o->value) - cur;
    if (d->family == DIST_EMPIRICAL)
        d->shift += delta;
    else if (d->kind == DKIND_MEMORY) {
        d->dram_latency += delta;
        shift_bounds(d, delta);
    } else {
        d->mean += delta;
        shift_bounds(d, delta);
    }
}

/* The field STAT names in d, NULL if none.  An sd on a constant makes it
 * normal (a spread needs a family that has one). */
static double *stat_field(sch_dist *d, const char *stat)
{
    if (d->kind == DKIND_MEMORY) {
        if (strcmp(stat, "dram_latency") == 0)
            return &d->dram_latency;
        if (strcmp(stat, "bytes") == 0)
            return &d->bytes;
        if (strcmp(stat, "bytes_per_cycle") == 0)
            return &d->bytes_per_cycle;
        if (strcmp(stat, "sd") == 0)
            return &d->sd;
        return NULL;
    }
    if (strcmp(stat, "min") == 0)
        return &d->min;
    if (strcmp(stat, "p95") == 0)
        return &d->p95;
    if (strcmp(stat, "max") == 0)
        return &d->max;
    if (strcmp(stat, "sd") == 0) {
        if (d->family == DIST_CONST)
            d->family = DIST_NORMAL;
        return &d->sd;
    }
    return NULL;
}

/* Any statistic but the mean: set it (a missing one counts as 0 for
 * --delta); a constant given both min and p95 becomes log-normal. */
static int set_stat(sch_dist *d, const sch_override *o, const char *name, const char *stat)
{
    if (d->family == DIST_EMPIRICAL)
        return pg_fail("'%s' is resampled from a trace: only %s.mean can be changed", o->param, name);
    double *field = stat_field(d, stat);
    if (!field)
        return pg_fail("unknown statistic '%s' in '%s' (%s)", stat, o->param,
                       d->kind == DKIND_MEMORY ? "mean, dram_latency, bytes, bytes_per_cycle, sd"
                                               : "mean, min, p95, max, sd");
    double cur = isfinite(*field) ? *field : 0;
    *field = o->relative ? cur + o->value : o->value;
    if (d->family == DIST_CONST && (strcmp(stat, "p95") == 0 || strcmp(stat, "min") == 0) && isfinite(d->min) &&
        isfinite(d->p95))
        d->family = DIST_LOGNORMAL;
    return 0;
}

int sch_apply_override(pg_schedule *s, const sch_override *o)
{
    if (o->has_dist)
        return apply_fitted_dist(s, o);
    char name[SCH_NAME + 16];
    snprintf(name, sizeof name, "%s", o->param);
    char *dot = strchr(name, '.');
    if (!dot)
        return apply_machine(s, o, name);
    *dot = '\0';
    const char *stat = dot + 1;
    const sch_line *ln = sch_line_find(name);
    if (ln && ln->override)
        return ln->override(s, stat, o->relative, o->value, o->param);
    int di = sch_find_dist(s, name);
    if (di < 0)
        return fail_unknown_dist(s, o, name);
    sch_dist *d = &s->dists[di];
    sch_dist saved = *d;
    if (strcmp(stat, "mean") == 0)
        set_mean(d, o);
    else if (set_stat(d, o, name, stat))
        return -1;
    if (dist_fit(d)) {
        *d = saved;
        return pg_fail_context("after %s %s", o->relative ? "--delta" : "--set", o->param);
    }
    return 0;
}

int sch_overridden(const pg_schedule *s, const char *param, double *delta)
{
    int how = 0;
    double sum = 0;
    for (int i = 0; i < s->noverrides; i++) {
        const sch_override *o = &s->overrides[i];
        if (o->has_dist || strcmp(o->param, param) != 0)
            continue;
        if (!o->relative)
            how = 1;
        else if (how != 1)
            how = 2, sum += o->value;
    }
    if (delta)
        *delta = sum;
    return how;
}

void sch_write_key(FILE *f, const pg_schedule *s, const char *param, const char *tok, double value)
{
    double delta = 0;
    const int how = sch_overridden(s, param, &delta);
    sch_write_key_as(f, tok, how, delta, value);
}

char *sch_cut_comment(char *text)
{
    char *comment = strchr(text, '#');
    if (comment)
        *comment++ = '\0';
    return comment;
}

void sch_end_line(FILE *f, const char *comment)
{
    if (comment)
        fprintf(f, " #%s", comment);
    fputc('\n', f);
}

void sch_write_key_as(FILE *f, const char *tok, int how, double delta, double value)
{
    const char *eq = strchr(tok, '=');
    const int key_len = eq ? (int)(eq - tok) : (int)strlen(tok);
    if (!eq || !strchr(eq, '$'))
        how = 1; /* a plain number: the value now */
    if (how == 0)
        fputs(tok, f);
    else if (how == 2)
        fprintf(f, "%.*s=(%s)+%.9g", key_len, tok, eq + 1, delta);
    else
        fprintf(f, "%.*s=%.9g", key_len, tok, value);
}

int sch_set_dist(pg_schedule *s, const sch_dist *d)
{
    sch_override o;
    memset(&o, 0, sizeof o);
    snprintf(o.param, sizeof o.param, "%s", d->name);
    o.has_dist = 1;
    o.dist = *d;
    if (sch_apply_override(s, &o))
        return -1;
    for (int i = 0; i < s->noverrides; i++)
        if (s->overrides[i].has_dist && strcmp(s->overrides[i].param, o.param) == 0) {
            s->overrides[i] = o;
            return 0;
        }
    if (s->noverrides == SCH_MAX_OVERRIDES)
        return pg_fail("too many overrides (at most %d)", SCH_MAX_OVERRIDES);
    s->overrides[s->noverrides++] = o;
    return 0;
}

/* PARAM=VALUE: PARAM copied into param (n chars), *value left at VALUE. */
static int split_assignment(const char *assignment, char *param, size_t n, const char **value)
{
    const char *eq = strchr(assignment, '=');
    if (!eq || eq == assignment || (size_t)(eq - assignment) >= n)
        return pg_fail("'%s': expected PARAM=VALUE", assignment);
    memcpy(param, assignment, (size_t)(eq - assignment));
    param[eq - assignment] = '\0';
    *value = eq + 1;
    return 0;
}

/* The option's new text into nv (n chars): one of its choices as given,
 * or a number (relative: added to the old value's). */
static int option_value(const sch_option *o, const char *param, const char *value, int relative, const char *old,
                        char *nv, size_t n)
{
    if (o->choices[0]) {
        if (relative)
            return pg_fail("option '%s' takes one of %s, not a --delta", param, o->choices);
        int ok = 0;
        char ch[sizeof o->choices];
        snprintf(ch, sizeof ch, "%s", o->choices);
        for (char *c = strtok(ch, "|"); c; c = strtok(NULL, "|"))
            if (strcmp(c, value) == 0)
                ok = 1;
        if (!ok)
            return pg_fail("option '%s' must be one of %s (got '%s')", param, o->choices, value);
        snprintf(nv, n, "%s", value);
        return 0;
    }
    double v, base = 0;
    if (expr_eval(value, 0, &v))
        return pg_fail_context("option '%s'", param);
    if (relative && expr_eval(old, 0, &base))
        return pg_fail_context("option '%s'", param);
    snprintf(nv, n, "%.17g", base + v);
    return 0;
}

/* An option changes the schedule's text, so the schedule is compiled
 * again; if that fails the old value is put back (and compiled again) so
 * that the schedule stays usable. */
static int set_option(pg_schedule *s, sch_option *o, const char *param, const char *value, int relative)
{
    char old[sizeof o->value], nv[sizeof o->value + 64];
    snprintf(old, sizeof old, "%s", o->value);
    if (option_value(o, param, value, relative, old, nv, sizeof nv))
        return -1;
    if (strlen(nv) >= sizeof o->value)
        return pg_fail("option '%s': value too long", param);
    memcpy(o->value, nv, strlen(nv) + 1);
    if (sch_compile(s)) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", pg_last_error());
        snprintf(o->value, sizeof o->value, "%s", old);
        if (sch_compile(s))
            return pg_fail("%s (and the schedule no longer compiles)", msg);
        return pg_fail("%s=%s: %s", param, value, msg);
    }
    return 0;
}

/* The message for a PARAM that is neither an option, a machine key nor a
 * PHASE.STAT: it lists the options and the machine keys. */
static int fail_unknown_param(const pg_schedule *s, const char *param)
{
    char known[512] = "";
    for (int i = 0; i < s->noptions; i++) {
        strncat(known, s->options[i].name, sizeof known - strlen(known) - 3);
        strncat(known, ", ", sizeof known - strlen(known) - 1);
    }
    for (int i = 0; k_machine_keys[i]; i++) {
        strncat(known, k_machine_keys[i], sizeof known - strlen(known) - 3);
        strncat(known, k_machine_keys[i + 1] ? ", " : "", sizeof known - strlen(known) - 1);
    }
    return pg_fail("unknown parameter '%s' for schedule %s (options and machine: %s; or PHASE.STAT such as "
                   "%s.mean)",
                   param, s->name, known, s->ndists ? s->dists[0].name : "phase1");
}

/* Keep the override (re-applied after every compile) once it applied.  A
 * second absolute value for the same parameter replaces the first. */
static int add_override(pg_schedule *s, const char *param, double v, int relative)
{
    for (int i = 0; i < s->noverrides && !relative; i++)
        if (!s->overrides[i].relative && !s->overrides[i].has_dist && strcmp(s->overrides[i].param, param) == 0) {
            sch_override o = s->overrides[i];
            o.value = v;
            if (sch_apply_override(s, &o))
                return -1;
            s->overrides[i] = o;
            return 0;
        }
    if (s->noverrides == SCH_MAX_OVERRIDES)
        return pg_fail("too many overrides (at most %d)", SCH_MAX_OVERRIDES);
    sch_override *o = &s->overrides[s->noverrides];
    snprintf(o->param, sizeof o->param, "%s", param);
    o->value = v;
    o->relative = relative;
    if (sch_apply_override(s, o))
        return -1;
    s->noverrides++;
    return 0;
}

int pg_schedule_set(pg_schedule *s, const char *assignment, int relative)
{
    char param[SCH_NAME + 16];
    const char *value = NULL;
    if (split_assignment(assignment, param, sizeof param, &value))
        return -1;
    for (int i = 0; i < s->noptions; i++)
        if (strcmp(s->options[i].name, param) == 0)
            return set_option(s, &s->options[i], param, value, relative);
    double v;
    if (expr_eval(value, 0, &v))
        return pg_fail_context("'%s'", assignment);
    if (!strchr(param, '.') && !machine_field(&s->machine, param))
        return fail_unknown_param(s, param);
    return add_override(s, param, v, relative);
}

int pg_schedule_set_all(pg_schedule *s, const char *const *sets, int nsets, const char *const *deltas, int ndeltas)
{
    for (int i = 0; i < nsets; i++)
        if (pg_schedule_set(s, sets[i], 0))
            return -1;
    for (int i = 0; i < ndeltas; i++)
        if (pg_schedule_set(s, deltas[i], 1))
            return -1;
    return 0;
}

int pg_schedule_option(const pg_schedule *s, const char *name, char *value, int n)
{
    for (int i = 0; i < s->noptions; i++)
        if (strcmp(s->options[i].name, name) == 0) {
            if (value)
                snprintf(value, (size_t)n, "%s", s->options[i].value);
            return 0;
        }
    return -1;
}
