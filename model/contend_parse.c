/* The `contend` lines' schedule side: parse, resolve them against the built
 * graph, `contend.KEY` / `contend.PHASE.KEY` overrides, write-back.  What a
 * line does is in contend.c; its fit in contend_fit.c. */
#include <stdio.h>
#include <string.h>

#include "expr.h"
#include "pg_error.h"
#include "sched.h"

#define CFAIL_AT(line, ...) (pg_fail(__VA_ARGS__), pg_fail_context("%s:%d", s->origin, (line)))

/* The sample slot of chain 0 of a work step's phase, -1 if it has none. */
static int step_slot(const pg_schedule *s, int role, int step)
{
    for (int i = 0; i < s->nslots; i++)
        if (s->slots[i].dist == s->roles[role].steps[step].dist && s->slots[i].instance == 0)
            return i;
    return -1;
}

/* A step the line names: plain work (its start to start + its work is what
 * contends), the `kblocks` loop included. */
static int plain_work(pg_schedule *s, const sch_contend *c, const char *what, int role, int step, int *slot)
{
    const sch_step *S = &s->roles[role].steps[step];
    if (strstr(S->spec, "until"))
        return CFAIL_AT(c->line, "contend: %s%s has an `until` clause; only plain work contends", what, S->name);
    *slot = sch_node_of(s, role, 0, step) == s->kb_node ? -1 : step_slot(s, role, step);
    if (*slot < 0 && sch_node_of(s, role, 0, step) != s->kb_node)
        return CFAIL_AT(c->line, "contend: %s%s has no sampled phase", what, S->name);
    return 0;
}

/* Does edge e read a node of in_set at tile offset off (its source, or its
 * ROLE.STEP@F event)? */
static int reads_at(const sch_edge *e, const unsigned char *in_set, int off)
{
    return (e->off == off && in_set[e->from]) || (e->at_node >= 0 && e->at_off == off && in_set[e->at_node]);
}

/* Would running node v again move state besides its time (a line's
 * running mean or record)?  A stretch tile=next step only records its
 * interval (the next run records it again) and is stretched after the
 * solve when both lines wait for the same `by` step (engine.c: the solve,
 * then the stretch). */
static int desc_runs_twice_unsafely(const pg_schedule *s, int v, int by_node)
{
    if (v == s->kb_node)
        return 1;
    for (int i = 0; i < s->nct; i++)
        if (s->ct[i].node == v || s->ct[i].by_node == v)
            return 1;
    for (int j = s->in_begin[v]; j < s->in_begin[v + 1]; j++) {
        const sch_edge *e = &s->edges[s->in_edge[j]];
        for (int q = 0; q < e->nterms; q++) {
            const int dist = s->slots[e->slot[q]].dist;
            for (int l = 0; l < s->nst; l++)
                if (dist == s->st[l].dist && !(s->st[l].next && s->st[l].by_node == by_node))
                    return 1;
            if (s->sn_line && dist == s->sn_dist)
                return 1;
        }
    }
    return 0;
}

/* solve=tile (M86): the engine solves tile k's step once tile k + 1's `by`
 * step has run, then re-runs the steps of tile k that follow from it
 * (c->desc).  That is only sound if nothing of tile k + 1 up to its `by`
 * step reads them: refused otherwise, naming the step. */
static int resolve_solve_tile(pg_schedule *s, sch_contend *c)
{
    if (c->previous || c->slot < 0 || c->keep == SCH_KEEP_BUSY)
        return CFAIL_AT(c->line, "contend: solve=tile needs tile=next, a plain work step (not a `kblocks` loop) "
                                 "and keep=0 or 1");
    unsigned char in_set[SCH_MAX_NODES] = {0};
    int pos[SCH_MAX_NODES];
    c->ndesc = 0;
    for (int ti = 0; ti < s->nnodes; ti++) {
        const int v = s->topo[ti];
        pos[v] = ti;
        for (int j = s->in_begin[v]; j < s->in_begin[v + 1] && !in_set[v]; j++)
            in_set[v] = reads_at(&s->edges[s->in_edge[j]], in_set, 0);
        if (in_set[v])
            c->desc[c->ndesc++] = v;
        in_set[v] |= v == c->node;
    }
    for (int i = 0; i < s->nedges; i++) {
        const sch_edge *e = &s->edges[i];
        if (reads_at(e, in_set, 1) && pos[e->to] <= pos[c->by_node])
            return CFAIL_AT(c->line, "contend: solve=tile: %s.%s reads %s or a step after it one tile back before "
                                     "%s runs, so the solve would come too late",
                            s->roles[s->nodes[e->to].role].name,
                            s->roles[s->nodes[e->to].role].steps[s->nodes[e->to].step].name, c->spec[0], c->spec[1]);
    }
    for (int d = 0; d < c->ndesc; d++)
        if (desc_runs_twice_unsafely(s, c->desc[d], c->by_node))
            return CFAIL_AT(c->line, "contend: solve=tile: %s.%s follows from %s but keeps state of its own (a "
                                     "contended, `kblocks`, stretch or storenear step) and cannot run twice",
                            s->roles[s->nodes[c->desc[d]].role].name,
                            s->roles[s->nodes[c->desc[d]].role].steps[s->nodes[c->desc[d]].step].name, c->spec[0]);
    if (s->sn_line && s->sn_back == 1 && in_set[s->sn_store_node])
        return CFAIL_AT(c->line, "contend: solve=tile: the storenear line reads %s's steps one tile back",
                        c->spec[0]);
    return 0;
}

static int resolve_one(pg_schedule *s, sch_contend *c)
{
    int r, st, rb, sb;
    if (sch_find_work(s, c->spec[0], &r, &st))
        return CFAIL_AT(c->line, "contend: '%s' is not a work step of any role", c->spec[0]);
    if (sch_find_work(s, c->spec[1], &rb, &sb))
        return CFAIL_AT(c->line, "contend: by=%s is not a work step of any role", c->spec[1]);
    const sch_role *R = &s->roles[r];
    if (!R->rotate || R->instances < 2)
        return CFAIL_AT(c->line,
                        "contend: role %s must take tiles in turn (mode=rotate, instances >= 2): the contention is "
                        "between its instances",
                        R->name);
    if (rb != r || sb == st)
        return CFAIL_AT(c->line, "contend: by=%s must be another work step of role %s", c->spec[1], R->name);
    if (plain_work(s, c, "", r, st, &c->slot) || plain_work(s, c, "by=", rb, sb, &c->by_slot))
        return -1;
    if (!(c->slowdown >= 0 && c->slowdown < 1))
        return CFAIL_AT(c->line, "contend: slowdown must be in [0, 1) cycles of work per cycle of overlap (got %g)",
                        c->slowdown);
    if (!(c->overlap >= 0))
        return CFAIL_AT(c->line, "contend: overlap must be >= 0 cycles (got %g)", c->overlap);
    if (!(c->compute >= 0))
        return CFAIL_AT(c->line, "contend: compute must be >= 0 cycles (got %g)", c->compute);
    if (!(c->window >= 1))
        return CFAIL_AT(c->line, "contend: window must be >= 1 tile (got %g)", c->window);
    c->node = sch_node_of(s, r, 0, st);
    c->by_node = sch_node_of(s, r, 0, sb);
    return c->solve_tile ? resolve_solve_tile(s, c) : 0;
}

int sch_contend_resolve(pg_schedule *s)
{
    /* The engine evaluates every step in tile order: a contended step's work
     * uses the overlaps of earlier tiles only, and a tile's overlap joins
     * the running mean once both its steps have run (contend.c). */
    for (int i = 0; i < s->nct; i++) {
        if (resolve_one(s, &s->ct[i]))
            return -1;
        for (int j = 0; j < i; j++)
            if (s->ct[j].node == s->ct[i].node)
                return CFAIL_AT(s->ct[i].line, "contend: %s is already slowed by the line at %d (one line per phase)",
                                s->ct[i].spec[0], s->ct[j].line);
    }
    return 0;
}

/* keep=0|1|busy (NULL: 0); -1 for anything else */
static int keep_value(const char *text)
{
    if (!text || strcmp(text, "0") == 0)
        return SCH_KEEP_NONE;
    if (strcmp(text, "1") == 0)
        return SCH_KEEP_ALL;
    if (strcmp(text, "busy") == 0)
        return SCH_KEEP_BUSY;
    return -1;
}

/* solve=window|tile, or an expression of the schedule's options that is 0
 * (window) or 1 (tile), so that an option can choose (h100-pingpong's
 * rowfirst_prefetch, docs/experiments.md M146); NULL: window.  -1 for
 * anything else. */
static int solve_value(const char *text)
{
    double v;
    if (!text || strcmp(text, "window") == 0)
        return 0;
    if (strcmp(text, "tile") == 0)
        return 1;
    if (expr_eval(text, 0, &v))
        return -1;
    return v == 0 ? 0 : v == 1 ? 1 : -1;
}

int sch_contend_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line)
{
    static const char *const keys[] = {"by",  "tile", "slowdown", "overlap", "window",
                                       "compute", "fit", "keep", "solve", NULL};
    (void)text;
    if (s->nct == SCH_CT_MAX)
        return CFAIL_AT(line, "contend: at most %d `contend` lines", SCH_CT_MAX);
    if (ntok < 4 || strchr(tok[1], '=') || sch_kv_check(s, tok, ntok, 2, keys, line))
        return ntok < 4 || strchr(tok[1], '=')
                   ? CFAIL_AT(line, "usage: contend PHASE by=PHASE [tile=next|previous] slowdown=C [overlap=CYCLES] "
                                    "[window=TILES] [compute=CYCLES] [fit=both|overlap] [keep=0|1|busy] "
                                    "[solve=window|tile|0|1]")
                   : -1;
    sch_contend *c = &s->ct[s->nct];
    memset(c, 0, sizeof *c);
    c->line = line;
    c->window = 16;
    const char *by = sch_kv(tok, ntok, 2, "by"), *tile = sch_kv(tok, ntok, 2, "tile"),
               *fit = sch_kv(tok, ntok, 2, "fit"), *keep = sch_kv(tok, ntok, 2, "keep"),
               *solve = sch_kv(tok, ntok, 2, "solve");
    if (!by || !by[0] || sch_kv_num(s, tok, ntok, 2, "slowdown", &c->slowdown, line) != 1 ||
        sch_kv_num(s, tok, ntok, 2, "overlap", &c->overlap, line) < 0 ||
        sch_kv_num(s, tok, ntok, 2, "window", &c->window, line) < 0 ||
        sch_kv_num(s, tok, ntok, 2, "compute", &c->compute, line) < 0)
        return CFAIL_AT(line, "contend needs by=PHASE and slowdown=C");
    if (tile && strcmp(tile, "next") != 0 && strcmp(tile, "previous") != 0)
        return CFAIL_AT(line, "contend: tile must be next or previous (got '%s')", tile);
    c->previous = tile && strcmp(tile, "previous") == 0;
    if (fit && strcmp(fit, "both") != 0 && strcmp(fit, "overlap") != 0)
        return CFAIL_AT(line, "contend: fit must be both or overlap (got '%s')", fit);
    c->fit_overlap_only = fit && strcmp(fit, "overlap") == 0;
    c->keep = keep_value(keep);
    if (c->keep < 0)
        return CFAIL_AT(line, "contend: keep must be 0, 1 or busy (got '%s')", keep);
    c->solve_tile = solve_value(solve);
    if (c->solve_tile < 0)
        return CFAIL_AT(line, "contend: solve must be window, tile or an expression of 0 (window) or 1 (tile) (got '%s')",
                        solve);
    if (strlen(tok[1]) >= SCH_NAME || strlen(by) >= SCH_NAME)
        return CFAIL_AT(line, "contend: phase name too long");
    snprintf(c->spec[0], sizeof c->spec[0], "%s", tok[1]);
    snprintf(c->spec[1], sizeof c->spec[1], "%s", by);
    s->nct++;
    return 0;
}

/* `stat` is KEY (the first line) or PHASE.KEY (the line that slows PHASE) */
static sch_contend *addressed_line(pg_schedule *s, const char *stat, const char **key, const char *param)
{
    const char *dot = strrchr(stat, '.');
    if (s->nct == 0) {
        pg_fail("'%s': this schedule has no contend line", param);
        return NULL;
    }
    *key = dot ? dot + 1 : stat;
    if (!dot)
        return &s->ct[0];
    for (int i = 0; i < s->nct; i++)
        if (strlen(s->ct[i].spec[0]) == (size_t)(dot - stat) && strncmp(s->ct[i].spec[0], stat, (size_t)(dot - stat)) == 0)
            return &s->ct[i];
    char known[SCH_CT_MAX * (SCH_NAME + 2)] = "";
    for (int i = 0; i < s->nct; i++) {
        strncat(known, i ? ", " : "", sizeof known - strlen(known) - 1);
        strncat(known, s->ct[i].spec[0], sizeof known - strlen(known) - 1);
    }
    pg_fail("'%s': no contend line slows '%.*s' (lines: %s)", param, (int)(dot - stat), stat, known);
    return NULL;
}

int sch_contend_override(pg_schedule *s, const char *stat, int relative, double value, const char *param)
{
    const char *key = NULL;
    sch_contend *c = addressed_line(s, stat, &key, param);
    if (!c)
        return -1;
    if (strcmp(key, "keep") == 0) {
        const double v = relative ? c->keep + value : value;
        if (v != SCH_KEEP_NONE && v != SCH_KEEP_ALL && v != SCH_KEEP_BUSY)
            return pg_fail("'%s': keep must be 0, 1 or 2 (busy)", param);
        if (v == SCH_KEEP_BUSY && c->solve_tile) /* as the line's parse refuses it */
            return pg_fail("'%s': keep=busy on a solve=tile line (solve=tile needs keep=0 or 1)", param);
        c->keep = (int)v;
        return 0;
    }
    if (strcmp(key, "solve") == 0) {
        const double v = relative ? c->solve_tile + value : value;
        if (v != 0 && v != 1)
            return pg_fail("'%s': solve must be 0 (window) or 1 (tile)", param);
        c->solve_tile = (int)v;
        return c->solve_tile ? resolve_solve_tile(s, c) : 0;
    }
    double *f = strcmp(key, "slowdown") == 0  ? &c->slowdown
                : strcmp(key, "overlap") == 0 ? &c->overlap
                : strcmp(key, "window") == 0  ? &c->window
                : strcmp(key, "compute") == 0 ? &c->compute
                                              : NULL;
    if (!f)
        return pg_fail("'%s': contend takes slowdown, overlap, window, compute, keep, solve (contend.KEY for the first line, "
                       "contend.PHASE.KEY for the line that slows PHASE)",
                       param);
    double v = relative ? *f + value : value;
    if (f == &c->slowdown ? !(v >= 0 && v < 1) : f == &c->window ? !(v >= 1) : !(v >= 0))
        return pg_fail("'%s': %g is out of range (slowdown in [0, 1), overlap and compute >= 0, window >= 1)", param, v);
    *f = v;
    return 0;
}

/* How overrides set KEY of line C (sch_overridden's 0 / 1 / 2 and the
 * relative ones' sum): by contend.PHASE.KEY, and for the first line by
 * contend.KEY too (the fit's name in a schedule of one line, a user's
 * either); an absolute one under either name makes it a number */
static int key_overridden(const pg_schedule *s, const sch_contend *c, const char *key, double *delta)
{
    char param[SCH_NAME + 32];
    double by_phase = 0, by_first = 0;
    snprintf(param, sizeof param, "contend.%s.%s", c->spec[0], key);
    const int how = sch_overridden(s, param, &by_phase);
    snprintf(param, sizeof param, "contend.%s", key);
    const int first = c == &s->ct[0] ? sch_overridden(s, param, &by_first) : 0;
    *delta = by_phase + by_first;
    return how == 1 || first == 1 ? 1 : how || first ? 2 : 0;
}

enum { K_SLOWDOWN, K_OVERLAP, K_WINDOW, K_COMPUTE, K_FIT, K_KEEP, K_SOLVE, K_NKEYS };
static const char *const k_written[K_NKEYS + 1] = {"slowdown", "overlap", "window", "compute",
                                                   "fit",      "keep",    "solve",  NULL};

static double number_of(const sch_contend *c, int k)
{
    switch (k) {
    case K_SLOWDOWN:
        return c->slowdown;
    case K_OVERLAP:
        return c->overlap;
    case K_WINDOW:
        return c->window;
    default:
        return c->compute;
    }
}

/* fit=, keep= and solve= by name, as line C has them now */
static void write_word(FILE *f, const sch_contend *c, int k)
{
    if (k == K_FIT)
        fprintf(f, "fit=%s", c->fit_overlap_only ? "overlap" : "both");
    else if (k == K_KEEP)
        fprintf(f, "keep=%s", c->keep == SCH_KEEP_BUSY ? "busy" : c->keep ? "1" : "0");
    else
        fprintf(f, "solve=%s", c->solve_tile ? "tile" : "window");
}

/* Token TOK of key K written back (an expression of the options no
 * override set stays one: sch_write_key_as) */
static void write_token(FILE *f, const pg_schedule *s, const sch_contend *c, int k, const char *tok)
{
    double delta = 0;
    const int how = key_overridden(s, c, k_written[k], &delta);
    if (k < K_FIT)
        sch_write_key_as(f, tok, how, delta, number_of(c, k));
    else if (strchr(tok, '$') && !how)
        fputs(tok, f);
    else
        write_word(f, c, k);
}

/* Does line C differ from the parser's default in key K (to be written
 * where the line had none: the fitted overlap, an override's key)? */
static int key_set(const sch_contend *c, int k)
{
    switch (k) {
    case K_OVERLAP:
        return c->overlap > 0;
    case K_WINDOW:
        return c->window != 16;
    case K_COMPUTE:
        return c->compute > 0;
    case K_FIT:
        return c->fit_overlap_only;
    case K_KEEP:
        return c->keep != 0;
    case K_SOLVE:
        return c->solve_tile;
    default:
        return 1;
    }
}

/* The line as written, each key as write_token writes it: the fit's
 * slowdown= and overlap= (set as overrides) and any override's key as
 * their values, an expression of the options nothing set as written, so
 * that it follows the options a later fit or run sets (h100-pingpong's
 * compute= follows $kblocks, its solve= $rowfirst_prefetch: written as
 * numbers, a fitted schedule predicted K = 256 1.2 points longer than the
 * built-in, M175); keys the line had not, where set, before any trailing
 * comment. */
int sch_contend_write(FILE *f, const pg_schedule *s, char *text)
{
    char phase[SCH_NAME + 1] = "";
    if (sscanf(text, "%*s %48s", phase) != 1)
        return 0;
    const sch_contend *c = NULL;
    for (int i = 0; i < s->nct && !c; i++)
        if (strcmp(s->ct[i].spec[0], phase) == 0)
            c = &s->ct[i];
    if (!c)
        return 0; /* PHASE written through an option: the line stays as written */
    char *comment = sch_cut_comment(text);
    unsigned written = 0;
    for (char *save = NULL, *t = strtok_r(text, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        const int k = sch_latline_key(k_written, t);
        if (t != text)
            fputc(' ', f);
        if (k < 0) {
            fputs(t, f);
            continue;
        }
        write_token(f, s, c, k, t);
        written |= 1u << k;
    }
    for (int k = 0; k < K_NKEYS; k++)
        if (!(written & 1u << k) && key_set(c, k)) {
            fputc(' ', f);
            if (k < K_FIT)
                fprintf(f, "%s=%.9g", k_written[k], number_of(c, k));
            else
                write_word(f, c, k);
        }
    sch_end_line(f, comment);
    return 1;
}
