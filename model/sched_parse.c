/* Schedule text -> compiled schedule (distributions, roles, event graph).
 * The format is line based; see docs/model.md "Schedule files".  Every
 * message names the file (or builtin:NAME) and the line. */
#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "pg_error.h"
#include "phases.h"
#include "sched.h"

#define MAXTOK 40

typedef struct {
    char buf[1024];
    char *tok[MAXTOK];
    int n;
} toks;

/* Errors carry "origin:line: " */
#define FAIL(line, ...) (pg_fail(__VA_ARGS__), pg_fail_context("%s:%d", s->origin, (line)))

static int tokenize(const char *line, toks *t)
{
    snprintf(t->buf, sizeof t->buf, "%s", line);
    t->n = 0;
    for (char *p = strtok(t->buf, " \t\r"); p; p = strtok(NULL, " \t\r")) {
        if (t->n == MAXTOK)
            return -1;
        t->tok[t->n++] = p;
    }
    return 0;
}

/* Replace $option with its value. */
static int substitute(const pg_schedule *s, const char *in, char *out, size_t n, int line)
{
    size_t o = 0;
    for (const char *p = in; *p;) {
        if (*p == '$') {
            const char *q = ++p;
            while (isalnum((unsigned char)*q) || *q == '_')
                q++;
            int len = (int)(q - p), found = -1;
            for (int i = 0; i < s->noptions; i++)
                if ((int)strlen(s->options[i].name) == len && strncmp(s->options[i].name, p, (size_t)len) == 0)
                    found = i;
            if (found < 0)
                return FAIL(line, "unknown option '$%.*s' (declare it with an `option` line)", len, p);
            size_t vl = strlen(s->options[found].value);
            if (o + vl + 1 >= n)
                return FAIL(line, "line too long");
            memcpy(out + o, s->options[found].value, vl);
            o += vl;
            p = q;
        } else {
            if (o + 2 >= n)
                return FAIL(line, "line too long");
            out[o++] = *p++;
        }
    }
    out[o] = '\0';
    return 0;
}

/* Next line of text: copies it (comment stripped) into buf; returns 0 at the end. */
static int next_line(const char **cursor, char *buf, size_t n)
{
    const char *p = *cursor;
    if (!*p)
        return 0;
    const char *e = strchr(p, '\n');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    size_t c = len < n - 1 ? len : n - 1;
    memcpy(buf, p, c);
    buf[c] = '\0';
    char *hash = strchr(buf, '#');
    if (hash)
        *hash = '\0';
    *cursor = e ? e + 1 : p + len;
    return 1;
}

int sch_load_options(pg_schedule *s)
{
    const char *cur = s->text;
    char line[1024];
    int lineno = 0;
    s->noptions = 0;
    while (next_line(&cur, line, sizeof line)) {
        lineno++;
        toks t;
        if (tokenize(line, &t) || t.n == 0 || strcmp(t.tok[0], "option") != 0)
            continue;
        if (t.n < 3 || t.n > 4)
            return FAIL(lineno, "usage: option NAME DEFAULT [CHOICE|CHOICE...]");
        /* A second declaration would be ambiguous, and the writer repeats
         * each declared name's value per line (fuzzing found schedules
         * whose written text no longer parsed: tests/fuzz/regress/sched). */
        if (strlen(t.tok[1]) >= sizeof s->options[0].name)
            return FAIL(lineno, "option name '%.20s...' is longer than %zu characters", t.tok[1],
                        sizeof s->options[0].name - 1);
        for (int i = 0; i < s->noptions; i++)
            if (strcmp(s->options[i].name, t.tok[1]) == 0)
                return FAIL(lineno, "option '%s' is declared twice (first on line %d)", t.tok[1], s->options[i].line);
        if (s->noptions == SCH_MAX_OPTIONS)
            return FAIL(lineno, "too many options (at most %d)", SCH_MAX_OPTIONS);
        sch_option *o = &s->options[s->noptions++];
        snprintf(o->name, sizeof o->name, "%s", t.tok[1]);
        snprintf(o->value, sizeof o->value, "%s", t.tok[2]);
        snprintf(o->choices, sizeof o->choices, "%s", t.n == 4 ? t.tok[3] : "");
        o->line = lineno;
    }
    return 0;
}

int sch_find_dist(const pg_schedule *s, const char *name)
{
    for (int i = 0; i < s->ndists; i++)
        if (strcmp(s->dists[i].name, name) == 0)
            return i;
    return -1;
}

static int find_role(const pg_schedule *s, const char *name)
{
    for (int i = 0; i < s->nroles; i++)
        if (strcmp(s->roles[i].name, name) == 0)
            return i;
    return -1;
}

static int find_step(const sch_role *r, const char *name)
{
    for (int i = 0; i < r->nsteps; i++)
        if (strcmp(r->steps[i].name, name) == 0)
            return i;
    return -1;
}

void sch_node_name(const pg_schedule *s, int node, char *buf, int n)
{
    const sch_node *nd = &s->nodes[node];
    const sch_role *r = &s->roles[nd->role];
    if (r->nchains > 1)
        snprintf(buf, (size_t)n, "%s[%d].%s", r->name, nd->chain, r->steps[nd->step].name);
    else
        snprintf(buf, (size_t)n, "%s.%s", r->name, r->steps[nd->step].name);
}

/* "key=value" tokens; unknown keys are errors. */
const char *sch_kv(const char *const *tok, int ntok, int from, const char *key)
{
    size_t kl = strlen(key);
    for (int i = from; i < ntok; i++)
        if (strncmp(tok[i], key, kl) == 0 && tok[i][kl] == '=')
            return tok[i] + kl + 1;
    return NULL;
}

int sch_kv_check(pg_schedule *s, const char *const *tok, int ntok, int from, const char *const *keys, int line)
{
    for (int i = from; i < ntok; i++) {
        const char *eq = strchr(tok[i], '=');
        int ok = 0;
        for (int k = 0; keys[k] && eq; k++)
            if ((size_t)(eq - tok[i]) == strlen(keys[k]) && strncmp(tok[i], keys[k], strlen(keys[k])) == 0)
                ok = 1;
        if (!ok)
            return FAIL(line, "'%s': expected KEY=VALUE with KEY one of the keys of `%s`", tok[i], tok[0]);
    }
    return 0;
}

int sch_kv_num(pg_schedule *s, const char *const *tok, int ntok, int from, const char *key, double *out, int line)
{
    const char *v = sch_kv(tok, ntok, from, key);
    if (!v)
        return 0;
    if (expr_eval(v, 0, out))
        return FAIL(line, "%s: %s", key, pg_last_error());
    return 1;
}

static const char *kv(const toks *t, int from, const char *key)
{
    return sch_kv((const char *const *)t->tok, t->n, from, key);
}

static int kv_check(pg_schedule *s, const toks *t, int from, const char *const *keys, int line)
{
    return sch_kv_check(s, (const char *const *)t->tok, t->n, from, keys, line);
}

static int kv_num(pg_schedule *s, const toks *t, int from, const char *key, double *out, int line)
{
    return sch_kv_num(s, (const char *const *)t->tok, t->n, from, key, out, line);
}

static int parse_dist(pg_schedule *s, const toks *t, int line)
{
    static const char *const phase_keys[] = {"family", "mean", "min", "p95", "max", "sd", NULL};
    static const char *const mem_keys[] = {"dram_latency", "bytes", "bytes_per_cycle", "sd", "min", "p95", NULL};
    if (t->n < 2)
        return FAIL(line, "usage: %s NAME KEY=VALUE...", t->tok[0]);
    if (s->ndists == SCH_MAX_DISTS)
        return FAIL(line, "too many distributions (at most %d)", SCH_MAX_DISTS);
    if (sch_find_dist(s, t->tok[1]) >= 0)
        return FAIL(line, "'%s' is defined twice", t->tok[1]);
    sch_dist *d = &s->dists[s->ndists];
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "%s", t->tok[1]);
    d->mean = d->min = d->p95 = d->max = d->sd = NAN;
    d->line = line;
    if (strcmp(t->tok[0], "memory") == 0) {
        d->kind = DKIND_MEMORY;
        if (kv_check(s, t, 2, mem_keys, line))
            return -1;
        if (kv_num(s, t, 2, "dram_latency", &d->dram_latency, line) != 1 ||
            kv_num(s, t, 2, "bytes", &d->bytes, line) != 1 ||
            kv_num(s, t, 2, "bytes_per_cycle", &d->bytes_per_cycle, line) != 1)
            return FAIL(line, "memory '%s' needs dram_latency=, bytes= and bytes_per_cycle=", d->name);
        if (kv_num(s, t, 2, "sd", &d->sd, line) < 0 || kv_num(s, t, 2, "min", &d->min, line) < 0 ||
            kv_num(s, t, 2, "p95", &d->p95, line) < 0)
            return -1;
        if (isfinite(d->min) != isfinite(d->p95))
            return FAIL(line, "memory '%s': min= and p95= go together (a log-normal latency)", d->name);
        if (isfinite(d->min))
            d->family = DIST_LOGNORMAL;
    } else {
        if (strcmp(t->tok[0], "phase") == 0) {
            d->kind = DKIND_PHASE;
            if (sch_vocab_need_phase(s, d->name, line)) /* phase distributions are named after phases */
                return -1;
        } else {
            d->kind = DKIND_LATENCY;
        }
        if (kv_check(s, t, 2, phase_keys, line))
            return -1;
        const char *fam = kv(t, 2, "family");
        if (!fam || strcmp(fam, "const") == 0)
            d->family = DIST_CONST;
        else if (strcmp(fam, "normal") == 0)
            d->family = DIST_NORMAL;
        else if (strcmp(fam, "lognormal") == 0)
            d->family = DIST_LOGNORMAL;
        else
            return FAIL(line, "unknown family '%s' (const, normal, lognormal)", fam);
        if (kv_num(s, t, 2, "mean", &d->mean, line) != 1)
            return FAIL(line, "'%s' needs mean=", d->name);
        if (kv_num(s, t, 2, "min", &d->min, line) < 0 || kv_num(s, t, 2, "p95", &d->p95, line) < 0 ||
            kv_num(s, t, 2, "max", &d->max, line) < 0 || kv_num(s, t, 2, "sd", &d->sd, line) < 0)
            return -1;
    }
    if (dist_fit(d))
        return pg_fail_context("%s:%d", s->origin, line);
    s->ndists++;
    return 0;
}

static int parse_role(pg_schedule *s, const toks *t, int line)
{
    static const char *const keys[] = {"instances", "mode", "group", NULL};
    if (t->n < 2)
        return FAIL(line, "usage: role NAME instances=N [mode=each|rotate] [group=G]");
    if (sch_vocab_need_role(s, t->tok[1], line))
        return -1;
    if (s->nroles == SCH_MAX_ROLES)
        return FAIL(line, "too many roles");
    if (find_role(s, t->tok[1]) >= 0)
        return FAIL(line, "role '%s' is defined twice", t->tok[1]);
    if (kv_check(s, t, 2, keys, line))
        return -1;
    sch_role *r = &s->roles[s->nroles];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", t->tok[1]);
    double inst = 1, group = 0;
    if (kv_num(s, t, 2, "instances", &inst, line) < 0 || kv_num(s, t, 2, "group", &group, line) < 0)
        return -1;
    if (inst < 1 || inst > 64 || inst != floor(inst))
        return FAIL(line, "role '%s': instances must be an integer 1..64 (got %g)", r->name, inst);
    r->instances = (int)inst;
    r->group = group >= 1 ? (int)group : r->instances;
    const char *mode = kv(t, 2, "mode");
    if (mode && strcmp(mode, "rotate") == 0)
        r->rotate = 1;
    else if (mode && strcmp(mode, "each") != 0)
        return FAIL(line, "role '%s': mode must be each or rotate (got '%s')", r->name, mode);
    r->nchains = r->rotate ? 1 : r->instances;
    r->line = line;
    s->nroles++;
    return 0;
}

static int parse_step(pg_schedule *s, const toks *t, int line)
{
    if (s->nroles == 0)
        return FAIL(line, "`%s` before any `role` line", t->tok[0]);
    sch_role *r = &s->roles[s->nroles - 1];
    if (r->nsteps == SCH_MAX_STEPS)
        return FAIL(line, "role '%s': too many steps", r->name);
    if (t->n < 2)
        return FAIL(line, "usage: %s %s", t->tok[0], strcmp(t->tok[0], "delay") == 0 ? "CYCLES" : "PHASE [...]");
    sch_step *st = &r->steps[r->nsteps];
    memset(st, 0, sizeof *st);
    st->line = line;
    st->dist = -1;
    int rest = 2;
    if (strcmp(t->tok[0], "delay") == 0) {
        st->kind = STEP_DELAY;
        snprintf(st->name, sizeof st->name, "delay%d", r->nsteps);
        rest = 1;
    } else {
        st->kind = strcmp(t->tok[0], "work") == 0 ? STEP_WORK : STEP_WAIT;
        if (sch_vocab_need_phase(s, t->tok[1], line))
            return -1;
        if (find_step(r, t->tok[1]) >= 0)
            return FAIL(line, "role '%s': phase '%s' appears twice", r->name, t->tok[1]);
        for (int i = 0; i < s->nroles - 1; i++)
            if (find_step(&s->roles[i], t->tok[1]) >= 0)
                return FAIL(line, "phase '%s' already belongs to role '%s'", t->tok[1], s->roles[i].name);
        snprintf(st->name, sizeof st->name, "%s", t->tok[1]);
    }
    st->spec[0] = '\0';
    for (int i = rest; i < t->n; i++) {
        strncat(st->spec, t->tok[i], sizeof st->spec - strlen(st->spec) - 2);
        strcat(st->spec, " ");
    }
    r->nsteps++;
    return 0;
}

static int parse_buffer(pg_schedule *s, const toks *t, int line)
{
    if (t->n < 5 || strncmp(t->tok[2], "count=", 6) || strncmp(t->tok[3], "acquire=", 8) ||
        strncmp(t->tok[4], "release=", 8))
        return FAIL(line, "usage: buffer NAME count=N acquire=ROLE.STEP release=ROLE.STEP[@F][[OFF]] [+ TERM]...");
    if (s->nbuffers == SCH_MAX_DISTS)
        return FAIL(line, "too many buffers");
    sch_buffer *b = &s->buffers[s->nbuffers];
    memset(b, 0, sizeof *b);
    snprintf(b->name, sizeof b->name, "%s", t->tok[1]);
    double c;
    if (expr_eval(t->tok[2] + 6, 0, &c))
        return pg_fail_context("%s:%d: buffer '%s' count", s->origin, line, b->name);
    if (c < 1 || c > 64 || c != floor(c))
        return FAIL(line, "buffer '%s': count must be an integer 1..64 (got %g)", b->name, c);
    b->count = (int)c;
    snprintf(b->acquire, sizeof b->acquire, "%s", t->tok[3] + 8);
    snprintf(b->release, sizeof b->release, "%s", t->tok[4] + 8);
    for (int i = 5; i < t->n; i++) {
        strncat(b->release, " ", sizeof b->release - strlen(b->release) - 1);
        strncat(b->release, t->tok[i], sizeof b->release - strlen(b->release) - 1);
    }
    b->line = line;
    s->nbuffers++;
    return 0;
}

static int parse_machine(pg_schedule *s, const toks *t, int line)
{
    static const char *const keys[] = {"units", "tiles", "clock_hz", "flops", "prologue", "mem_clock_hz", "whole_run", NULL};
    if (kv_check(s, t, 1, keys, line))
        return -1;
    sch_machine *m = &s->machine;
    if (kv_num(s, t, 1, "units", &m->units, line) < 0 || kv_num(s, t, 1, "tiles", &m->tiles, line) < 0 ||
        kv_num(s, t, 1, "clock_hz", &m->clock_hz, line) < 0 || kv_num(s, t, 1, "flops", &m->flops, line) < 0 ||
        kv_num(s, t, 1, "prologue", &m->prologue, line) < 0 ||
        kv_num(s, t, 1, "mem_clock_hz", &m->mem_clock_hz, line) < 0 ||
        kv_num(s, t, 1, "whole_run", &m->whole_run, line) < 0)
        return -1;
    if (m->mem_clock_hz < 0)
        return FAIL(line, "mem_clock_hz must be positive");
    if (m->whole_run != 0 && m->whole_run != 1)
        return FAIL(line, "whole_run is 0 or 1");
    return 0;
}

/* ------------------------------------------------------------ graph building */

/* Resolve "role.step" to indices. */
static int resolve_role_step(pg_schedule *s, const char *spec, int *role, int *step, int line)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", spec);
    char *dot = strchr(buf, '.');
    if (!dot)
        return FAIL(line, "'%s': expected ROLE.STEP", spec);
    *dot = '\0';
    *role = find_role(s, buf);
    if (*role < 0) {
        return FAIL(line, "'%s': role '%s' is not in this schedule", spec, buf);
    }
    *step = find_step(&s->roles[*role], dot + 1);
    if (*step < 0) {
        return FAIL(line, "'%s': role '%s' has no step '%s'", spec, buf, dot + 1);
    }
    return 0;
}

int sch_find_work(const pg_schedule *s, const char *name, int *role, int *step)
{
    for (int r = 0; r < s->nroles; r++)
        for (int st = 0; st < s->roles[r].nsteps; st++)
            if (s->roles[r].steps[st].kind == STEP_WORK && strcmp(s->roles[r].steps[st].name, name) == 0) {
                *role = r;
                *step = st;
                return 0;
            }
    return -1;
}

int sch_slot_of(pg_schedule *s, int dist, int instance)
{
    for (int i = 0; i < s->nslots; i++)
        if (s->slots[i].dist == dist && s->slots[i].instance == instance)
            return i;
    if (s->nslots == SCH_MAX_NODES)
        return -1;
    s->slots[s->nslots].dist = dist;
    s->slots[s->nslots].instance = instance;
    return s->nslots++;
}

static int add_term(pg_schedule *s, sch_edge *e, int dist, int instance, double coef, int toff, int line)
{
    if (e->nterms == SCH_MAX_TERMS)
        return FAIL(line, "too many random terms on one dependency (at most %d)", SCH_MAX_TERMS);
    int sl = sch_slot_of(s, dist, instance);
    if (sl < 0)
        return FAIL(line, "too many sampled quantities");
    e->slot[e->nterms] = sl;
    e->coef[e->nterms] = coef;
    e->toff[e->nterms] = toff;
    e->nterms++;
    if (s->dists[dist].kind == DKIND_MEMORY) {
        e->kind = e->kind == EDGE_BUFFER ? EDGE_BUFFER : EDGE_MEMORY;
        e->label = e->kind == EDGE_MEMORY ? dist : e->label;
    }
    return 0;
}

/* "+ X - Y ..." tokens [from, n): numbers/expressions into w, distribution names into terms. */
static int parse_terms(pg_schedule *s, char **tok, int n, double warp, sch_edge *e, int line)
{
    for (int i = 0; i < n; i += 2) {
        double sign;
        if (strcmp(tok[i], "+") == 0)
            sign = 1;
        else if (strcmp(tok[i], "-") == 0)
            sign = -1;
        else
            return FAIL(line, "'%s': expected + or - before a term", tok[i]);
        if (i + 1 >= n)
            return FAIL(line, "'%s' with nothing after it", tok[i]);
        int d = sch_find_dist(s, tok[i + 1]);
        if (d >= 0) {
            if (add_term(s, e, d, 0, sign, 0, line))
                return -1;
            continue;
        }
        double v;
        if (expr_eval(tok[i + 1], warp, &v))
            return FAIL(line, "'%s' is neither a number nor a distribution (phase/memory/latency) of this schedule",
                        tok[i + 1]);
        e->w += sign * v;
    }
    return 0;
}

static int add_edge(pg_schedule *s, const sch_edge *e)
{
    if (s->nedges == SCH_MAX_EDGES)
        return FAIL(e->line, "too many dependencies");
    s->edges[s->nedges++] = *e;
    return 0;
}

/* An EVENT token ROLE.STEP[@F][[OFF]]: ROLE.STEP into ev (n chars), the
 * tile offset into *off (0 if none), the fraction into *frac (-1 if none). */
static int parse_event(pg_schedule *s, const char *tok, char *ev, size_t n, int *off, double *frac, int line)
{
    snprintf(ev, n, "%s", tok);
    *off = 0;
    *frac = -1;
    char *br = strchr(ev, '[');
    if (br) {
        size_t L = strlen(br);
        if (br[L - 1] != ']')
            return FAIL(line, "'%s': expected [TILE_OFFSET] at the end", tok);
        br[L - 1] = '\0';
        double o;
        if (expr_eval(br + 1, 0, &o) || o < 0 || o != floor(o) || o > 64)
            return FAIL(line, "'%s': the tile offset must be an integer 0..64", tok);
        *off = (int)o;
        *br = '\0';
    }
    char *at = strchr(ev, '@');
    if (at) {
        *at = '\0';
        if (expr_eval(at + 1, 0, frac) || *frac < 0 || *frac > 1)
            return FAIL(line, "'%s': the fraction after @ must be in [0, 1]", tok);
    }
    return 0;
}

/* Where edge e starts for the event on node u (step S; instance: its
 * sample's): before the end (F < 1) it starts at the step before u, with
 * the step's F share as a term; at the end, at u itself. */
static int event_source(pg_schedule *s, sch_edge *e, int u, const sch_step *S, int instance, int off, double frac,
                        int line)
{
    if (frac >= 0 && frac < 1) {
        e->from = s->nodes[u].prev;
        e->off = off + s->nodes[u].prev_off;
        e->at_node = u;
        e->at_frac = frac;
        e->at_off = off;
        if (S->kind == STEP_WORK && frac > 0 && add_term(s, e, S->dist, instance, frac, off, line))
            return -1;
    } else {
        e->from = u;
        e->off = off;
        /* @1 of a work step is its end; kept as an event on the step so
         * that a `kblocks` loop reads it as the loop's end before its
         * constant (a --mainloop-delay spin the kernel runs after the
         * loop released its last stage: docs/experiments.md M75) */
        if (frac == 1 && S->kind == STEP_WORK) {
            e->at_node = u;
            e->at_frac = 1;
            e->at_off = off;
        }
    }
    return 0;
}

/* Dependencies of node (role rv, chain cv) on EVENT [+ TERMS]: one edge per
 * chain of the event's role (a barrier waits for all of them), or the same
 * chain when the event is in the waiting role itself. */
static int add_event_deps(pg_schedule *s, int rv, int cv, int v, char **tok, int n, int extra_off,
                          sch_edge_kind kind, int label, int line)
{
    char ev[160];
    int off;
    double frac;
    if (parse_event(s, tok[0], ev, sizeof ev, &off, &frac, line))
        return -1;
    int re, se;
    if (resolve_role_step(s, ev, &re, &se, line))
        return -1;
    const sch_role *R = &s->roles[re];
    const sch_step *S = &R->steps[se];
    if (frac >= 0 && S->kind != STEP_WORK && frac != 0 && frac != 1)
        return FAIL(line, "'%s': a fraction of a wait is meaningless (only @0 = its start, @1 = its end)", tok[0]);
    off += extra_off;
    int c0 = 0, c1 = R->nchains;
    if (re == rv && !R->rotate) {
        c0 = cv;
        c1 = cv + 1;
    }
    for (int c = c0; c < c1; c++) {
        sch_edge e = {0};
        e.to = v;
        e.kind = kind;
        e.label = label;
        e.line = line;
        int u = sch_node_of(s, re, c, se);
        e.at_node = -1;
        if (event_source(s, &e, u, S, R->rotate ? 0 : c, off, frac, line))
            return -1;
        double warp = (double)(cv % s->roles[rv].group);
        if (parse_terms(s, tok + 1, n - 1, warp, &e, line) || add_edge(s, &e))
            return -1;
    }
    return 0;
}

/* Role r's nodes, chain by chain (a chain's first step follows its last
 * step one tile back, or `instances` back in a rotation); a work step's
 * distribution is the phase line of its name. */
static int add_role_nodes(pg_schedule *s, int r)
{
    sch_role *R = &s->roles[r];
    if (R->nsteps == 0)
        return FAIL(R->line, "role '%s' has no steps", R->name);
    R->node0 = s->nnodes;
    if (s->nnodes + R->nchains * R->nsteps > SCH_MAX_NODES)
        return FAIL(R->line, "too many nodes (roles x instances x steps > %d)", SCH_MAX_NODES);
    for (int c = 0; c < R->nchains; c++)
        for (int st = 0; st < R->nsteps; st++) {
            sch_node *nd = &s->nodes[s->nnodes++];
            nd->role = r;
            nd->chain = c;
            nd->step = st;
            nd->prev = st > 0 ? s->nnodes - 2 : R->node0 + c * R->nsteps + R->nsteps - 1;
            nd->prev_off = st > 0 ? 0 : (R->rotate ? R->instances : 1);
        }
    for (int st = 0; st < R->nsteps; st++) {
        sch_step *S = &R->steps[st];
        if (S->kind == STEP_WORK) {
            S->dist = sch_find_dist(s, S->name);
            if (S->dist < 0 || s->dists[S->dist].kind != DKIND_PHASE)
                return FAIL(S->line, "work phase '%s' has no distribution (add a `phase %s ...` line)", S->name,
                            S->name);
        }
    }
    return 0;
}

/* The weight and terms of a step's sequential edge e from its spec's
 * tokens before the first `until`: a delay's CYCLES [+ TERM]..., a work
 * step's own phase sample plus its terms; a wait takes none. */
static int seq_edge_terms(pg_schedule *s, const sch_role *R, const sch_step *S, int c, toks *t, int first_until,
                          sch_edge *e)
{
    double warp = (double)(c % R->group);
    if (S->kind == STEP_DELAY) {
        if (first_until != t->n || t->n < 1)
            return FAIL(S->line, "usage: delay CYCLES [+ TERM]... (an expression; `warp` is the warp index)");
        if (expr_eval(t->tok[0], warp, &e->w))
            return pg_fail_context("%s:%d", s->origin, S->line);
        return parse_terms(s, t->tok + 1, t->n - 1, warp, e, S->line);
    }
    if (S->kind == STEP_WORK && add_term(s, e, S->dist, R->rotate ? 0 : c, 1.0, 0, S->line))
        return -1;
    if (S->kind == STEP_WAIT && first_until > 0)
        return FAIL(S->line, "a wait takes only `until EVENT [+ TERM]...` clauses");
    return parse_terms(s, t->tok, first_until, warp, e, S->line);
}

/* `until start + TERM...`: a floor on step v, which cannot end sooner
 * than the terms after it began (the end of the step before it, for a
 * role's first step its previous tile's last): a wait's poll and clock
 * reads when there is nothing to wait for (docs/model.md; M113). */
static int add_start_dep(pg_schedule *s, const sch_role *R, int c, int v, char **tok, int n, int line)
{
    if (n == 0)
        return FAIL(line, "`until start` needs a term (until start + LATENCY)");
    sch_edge e = {0};
    e.to = v;
    e.from = s->nodes[v].prev;
    e.off = s->nodes[v].prev_off;
    e.kind = EDGE_DEP;
    e.label = -1;
    e.at_node = -1;
    e.line = line;
    return parse_terms(s, tok, n, (double)(c % R->group), &e, line) || add_edge(s, &e) ? -1 : 0;
}

/* Node v's (step st of chain c of role r) edges: the sequential one (the
 * step starts when the previous one ends) and one dependency per `until`. */
static int add_step_edges(pg_schedule *s, int r, int c, int st)
{
    const sch_role *R = &s->roles[r];
    const sch_step *S = &R->steps[st];
    int v = sch_node_of(s, r, c, st);
    toks t;
    if (tokenize(S->spec, &t))
        return FAIL(S->line, "too many tokens");
    sch_edge e = {0};
    e.from = s->nodes[v].prev;
    e.off = s->nodes[v].prev_off;
    e.to = v;
    e.kind = EDGE_SEQ;
    e.label = -1;
    e.at_node = -1;
    e.line = S->line;
    int first_until = t.n;
    for (int i = 0; i < t.n; i++)
        if (strcmp(t.tok[i], "until") == 0) {
            first_until = i;
            break;
        }
    if (seq_edge_terms(s, R, S, c, &t, first_until, &e) || add_edge(s, &e))
        return -1;
    for (int i = first_until; i < t.n;) {
        int j = i + 1;
        while (j < t.n && strcmp(t.tok[j], "until") != 0)
            j++;
        if (j == i + 1)
            return FAIL(S->line, "`until` needs an EVENT (ROLE.STEP[@F][[OFF]], or `start`)");
        if (strcmp(t.tok[i + 1], "start") == 0 ? add_start_dep(s, R, c, v, t.tok + i + 2, j - i - 2, S->line)
                                               : add_event_deps(s, r, c, v, t.tok + i + 1, j - i - 1, 0, EDGE_DEP, -1, S->line))
            return -1;
        i = j;
    }
    return 0;
}

/* Buffer b: every chain of its acquiring wait waits for its release
 * `count` tiles back (the buffer's slots). */
static int add_buffer_edges(pg_schedule *s, int b)
{
    const sch_buffer *B = &s->buffers[b];
    int ra, sa;
    if (resolve_role_step(s, B->acquire, &ra, &sa, B->line))
        return -1;
    if (s->roles[ra].steps[sa].kind != STEP_WAIT)
        return FAIL(B->line, "buffer '%s': acquire= must name a wait step (got '%s')", B->name, B->acquire);
    toks t;
    if (tokenize(B->release, &t) || t.n == 0)
        return FAIL(B->line, "buffer '%s': bad release=", B->name);
    for (int c = 0; c < s->roles[ra].nchains; c++)
        if (add_event_deps(s, ra, c, sch_node_of(s, ra, c, sa), t.tok, t.n, B->count, EDGE_BUFFER, b, B->line))
            return -1;
    return 0;
}

/* The largest tile offset of any edge or term (at least 1): how many
 * tiles back the engine must keep. */
static void set_maxoff(pg_schedule *s)
{
    s->maxoff = 1;
    for (int i = 0; i < s->nedges; i++) {
        const sch_edge *e = &s->edges[i];
        if (e->off > s->maxoff)
            s->maxoff = e->off;
        for (int k = 0; k < e->nterms; k++)
            if (e->toff[k] > s->maxoff)
                s->maxoff = e->toff[k];
    }
}

static int build_graph(pg_schedule *s)
{
    s->nnodes = 0;
    for (int r = 0; r < s->nroles; r++)
        if (add_role_nodes(s, r))
            return -1;
    s->nedges = 0;
    s->nslots = 0;
    for (int r = 0; r < s->nroles; r++)
        for (int c = 0; c < s->roles[r].nchains; c++)
            for (int st = 0; st < s->roles[r].nsteps; st++)
                if (add_step_edges(s, r, c, st))
                    return -1;
    for (int b = 0; b < s->nbuffers; b++)
        if (add_buffer_edges(s, b))
            return -1;
    set_maxoff(s);
    return 0;
}

/* An event inside a k-block loop of the same tile (ROLE.STEP@F, 0 < F < 1):
 * the engine reads it from the loop's own k-block times, so the loop's step
 * must run before the edge's target, though the edge starts at the step
 * before the loop. */
static int kb_event(const pg_schedule *s, const sch_edge *e)
{
    return s->kb_node >= 0 && e->at_node == s->kb_node && e->at_off == 0 && e->at_frac > 0 && e->at_frac < 1;
}

/* Kahn's order of the offset-0 edges (and the k-block loops' events) into
 * s->topo; indeg is left with what remains, which is nonzero on a cycle.
 * Returns how many nodes were ordered. */
static int topo_sort(pg_schedule *s, int *indeg)
{
    int n = s->nnodes, head = 0, tail = 0;
    for (int i = 0; i < s->nedges; i++) {
        if (s->edges[i].off == 0)
            indeg[s->edges[i].to]++;
        if (kb_event(s, &s->edges[i]))
            indeg[s->edges[i].to]++;
    }
    for (int v = 0; v < n; v++)
        if (indeg[v] == 0)
            s->topo[tail++] = v;
    while (head < tail) {
        int u = s->topo[head++];
        for (int i = 0; i < s->nedges; i++) {
            if (s->edges[i].off == 0 && s->edges[i].from == u && --indeg[s->edges[i].to] == 0)
                s->topo[tail++] = s->edges[i].to;
            if (u == s->kb_node && kb_event(s, &s->edges[i]) && --indeg[s->edges[i].to] == 0)
                s->topo[tail++] = s->edges[i].to;
        }
    }
    return tail;
}

/* The deadlock's message: walk backwards along the remaining offset-0
 * edges until a node repeats, then name the cycle and the lines of its
 * non-sequential dependencies (the earliest of them is the message's line). */
static int fail_deadlock(pg_schedule *s, const int *indeg)
{
    int n = s->nnodes;
    int seen[SCH_MAX_NODES], path[SCH_MAX_NODES + 1], pedge[SCH_MAX_NODES + 1], plen = 0, v = -1;
    for (int i = 0; i < n; i++)
        seen[i] = -1;
    for (int i = 0; i < n && v < 0; i++)
        if (indeg[i] > 0)
            v = i;
    while (seen[v] < 0) {
        seen[v] = plen;
        path[plen] = v;
        pedge[plen] = -1;
        for (int i = 0; i < s->nedges; i++) {
            const sch_edge *e = &s->edges[i];
            if (e->off == 0 && e->to == v && indeg[e->from] > 0) {
                pedge[plen] = i;
                v = e->from;
                break;
            }
        }
        plen++;
    }
    char msg[512] = "", nm[96], lines[128] = "";
    int line = 0;
    for (int i = plen - 1; i >= seen[v]; i--) {
        sch_node_name(s, path[i], nm, sizeof nm);
        strncat(msg, nm, sizeof msg - strlen(msg) - 1);
        strncat(msg, " -> ", sizeof msg - strlen(msg) - 1);
        const sch_edge *e = pedge[i] >= 0 ? &s->edges[pedge[i]] : NULL;
        if (e && e->kind != EDGE_SEQ) {
            char l[16];
            snprintf(l, sizeof l, "%s%d", lines[0] ? ", " : "", e->line);
            strncat(lines, l, sizeof lines - strlen(lines) - 1);
            if (!line || e->line < line)
                line = e->line;
        }
    }
    sch_node_name(s, path[plen - 1], nm, sizeof nm);
    strncat(msg, nm, sizeof msg - strlen(msg) - 1);
    if (!line)
        line = s->roles[s->nodes[v].role].line;
    return FAIL(line, "deadlock: a cycle with no buffer (each step waits, within one tile, on the next; "
                      "dependencies on lines %s): %s",
                lines[0] ? lines : "-", msg);
}

/* Each node's incoming edges, contiguous: in_edge[in_begin[v] ..
 * in_begin[v + 1]) (a counting sort by target, edge order kept). */
static void index_in_edges(pg_schedule *s)
{
    int cnt[SCH_MAX_NODES + 1] = {0}, n = s->nnodes;
    for (int i = 0; i < s->nedges; i++)
        cnt[s->edges[i].to + 1]++;
    for (int v = 0; v < n; v++)
        cnt[v + 1] += cnt[v];
    memcpy(s->in_begin, cnt, sizeof(int) * (size_t)(n + 1));
    for (int i = 0; i < s->nedges; i++)
        s->in_edge[cnt[s->edges[i].to]++] = i;
}

/* Offset-0 edges must be acyclic: a cycle among them is a deadlock (a tile
 * waiting on itself with no buffer in between).  Also the evaluation order. */
static int order_nodes(pg_schedule *s)
{
    int indeg[SCH_MAX_NODES] = {0};
    if (topo_sort(s, indeg) < s->nnodes)
        return fail_deadlock(s, indeg);
    index_in_edges(s);
    return 0;
}

/* The message lists every directive, the optional lines' from their table. */
static int unknown_directive(pg_schedule *s, const char *d, int line)
{
    char known[512] = "schedule, doc, option, roles, phases, waits, machine, phase, memory, latency, role, work, "
                      "wait, delay, buffer, period, idle";
    for (int i = 0; i < sch_nlines; i++) {
        strncat(known, ", ", sizeof known - strlen(known) - 1);
        strncat(known, sch_lines[i].name, sizeof known - strlen(known) - 1);
    }
    return FAIL(line, "unknown directive '%s' (%s)", d, known);
}

/* One directive line (t, tokenized after the $options; text: the line
 * itself, for the optional lines' parsers).  The core directives are here,
 * the optional lines' in their table (sch_lines). */
static int parse_directive(pg_schedule *s, toks *t, const char *text, int lineno)
{
    const char *d = t->tok[0];
    const sch_line *ln = NULL;
    if (strcmp(d, "schedule") == 0) {
        if (t->n != 2)
            return FAIL(lineno, "usage: schedule NAME");
        snprintf(s->name, sizeof s->name, "%s", t->tok[1]);
    } else if (strcmp(d, "machine") == 0) {
        return parse_machine(s, t, lineno);
    } else if (strcmp(d, "phase") == 0 || strcmp(d, "memory") == 0 || strcmp(d, "latency") == 0) {
        return parse_dist(s, t, lineno);
    } else if (strcmp(d, "role") == 0) {
        return parse_role(s, t, lineno);
    } else if (strcmp(d, "work") == 0 || strcmp(d, "wait") == 0 || strcmp(d, "delay") == 0) {
        return parse_step(s, t, lineno);
    } else if (strcmp(d, "buffer") == 0) {
        return parse_buffer(s, t, lineno);
    } else if (strcmp(d, "period") == 0) {
        if (t->n != 2)
            return FAIL(lineno, "usage: period ROLE.STEP");
        snprintf(s->period_spec, sizeof s->period_spec, "%s", t->tok[1]);
        s->period_line = lineno;
    } else if (strcmp(d, "idle") == 0) {
        if (t->n != 3 || s->nidle == SCH_MAX_IDLE)
            return FAIL(lineno, "usage: idle NAME ROLE.STEP (at most %d)", SCH_MAX_IDLE);
        snprintf(s->idle[s->nidle].name, sizeof s->idle[0].name, "%s", t->tok[1]);
        snprintf(s->idle_spec[s->nidle], sizeof s->idle_spec[0], "%s", t->tok[2]);
        s->idle_line[s->nidle++] = lineno;
    } else if ((ln = sch_line_find(d))) {
        return ln->parse(s, (const char *const *)t->tok, t->n, text, lineno);
    } else {
        return unknown_directive(s, d, lineno);
    }
    return 0;
}

/* Every line of the text but options, docs and the vocabulary's lines
 * (read before); *lineno ends at the number of lines, for the messages of
 * what is missing. */
static int parse_lines(pg_schedule *s, int *lineno)
{
    const char *cur = s->text;
    char raw[1024], line[1024];
    while (next_line(&cur, raw, sizeof raw)) {
        ++*lineno;
        toks t;
        if (tokenize(raw, &t))
            return FAIL(*lineno, "too many tokens");
        if (t.n == 0 || strcmp(t.tok[0], "option") == 0 || strcmp(t.tok[0], "doc") == 0 || sch_vocab_line(t.tok[0]))
            continue;
        if (substitute(s, raw, line, sizeof line, *lineno) || tokenize(line, &t))
            return -1;
        if (parse_directive(s, &t, line, *lineno))
            return -1;
    }
    return 0;
}

/* The lines every schedule needs, checked before the graph is built. */
static int check_required(pg_schedule *s, int lineno)
{
    if (!s->name[0])
        return FAIL(1, "no `schedule NAME` line");
    if (s->nroles == 0)
        return FAIL(lineno, "no roles");
    if (!(s->machine.units >= 1) || !(s->machine.tiles >= 1) || !(s->machine.clock_hz > 0) || !(s->machine.flops > 0))
        return FAIL(lineno, "needs a `machine units=N tiles=N clock_hz=HZ flops=F` line");
    if (!s->period_spec[0])
        return FAIL(lineno, "needs a `period ROLE.STEP` line (the step whose tile-to-tile gap is the period)");
    return 0;
}

/* The graph, the optional lines' parts of it and the evaluation order. */
static int compile_graph(pg_schedule *s)
{
    if (build_graph(s))
        return -1;
    for (int i = 0; i < sch_nlines; i++) /* may add sample slots: before the order */
        if (sch_lines[i].resolve_graph && sch_lines[i].resolve_graph(s))
            return -1;
    if (order_nodes(s))
        return -1;
    for (int i = 0; i < sch_nlines; i++)
        if (sch_lines[i].resolve && sch_lines[i].resolve(s))
            return -1;
    if (resolve_role_step(s, s->period_spec, &s->period_role, &s->period_step, s->period_line))
        return -1;
    for (int i = 0; i < s->nidle; i++)
        if (resolve_role_step(s, s->idle_spec[i], &s->idle[i].role, &s->idle[i].step, s->idle_line[i]))
            return -1;
    return 0;
}

/* The options ROLE_start and ROLE_setup, when declared, set the role's
 * start and setup cycles. */
static int role_options(pg_schedule *s)
{
    for (int r = 0; r < s->nroles; r++) {
        char nm[SCH_NAME + 8];
        snprintf(nm, sizeof nm, "%s_start", s->roles[r].name);
        for (int i = 0; i < s->noptions; i++)
            if (strcmp(s->options[i].name, nm) == 0 && expr_eval(s->options[i].value, 0, &s->role_start[r]))
                return FAIL(s->options[i].line, "option %s: %s", nm, pg_last_error());
        snprintf(nm, sizeof nm, "%s_setup", s->roles[r].name);
        for (int i = 0; i < s->noptions; i++)
            if (strcmp(s->options[i].name, nm) == 0 && expr_eval(s->options[i].value, 0, &s->role_setup[r]))
                return FAIL(s->options[i].line, "option %s: %s", nm, pg_last_error());
    }
    return 0;
}

int sch_compile(pg_schedule *s)
{
    /* reset the compiled part */
    memset(&s->machine, 0, sizeof *s - offsetof(pg_schedule, machine));
    s->period_role = s->period_step = -1;
    s->bw_dist = -1;
    s->kb_node = -1;
    if (sch_vocab_load(s))
        return -1;
    int lineno = 0;
    if (parse_lines(s, &lineno) || check_required(s, lineno))
        return -1;
    if (sch_vocab_finish(s) || compile_graph(s) || role_options(s))
        return -1;
    if (s->table && sch_attach_table(s))
        return -1;
    for (int i = 0; i < s->noverrides; i++)
        if (sch_apply_override(s, &s->overrides[i]))
            return -1;
    return 0;
}
