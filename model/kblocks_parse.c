/* The `kblocks` line's schedule side: keep its spec, resolve it (after the
 * line's $options are substituted) against the built graph, check the node
 * order the engine needs, `kblocks.KEY` overrides, write-back.  The loop itself runs in kblocks.c, its
 * calibration in kblocks_fit.c. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "pg_error.h"
#include "sched.h"

#define FAIL(line, ...) (pg_fail(__VA_ARGS__), pg_fail_context("%s:%d", s->origin, (line)))

/* the value of KEY= in the space-separated spec, copied into out; 0 if absent */
static int spec_value(const char *spec, const char *key, char *out, size_t n)
{
    const size_t kl = strlen(key);
    const char *p = spec;
    while (*p) {
        while (*p == ' ' || *p == '\t')
            p++;
        const char *end = p + strcspn(p, " \t");
        if ((size_t)(end - p) > kl && strncmp(p, key, kl) == 0 && p[kl] == '=') {
            snprintf(out, n, "%.*s", (int)(end - p - (ptrdiff_t)kl - 1), p + kl + 1);
            return 1;
        }
        p = end;
    }
    return 0;
}

static int spec_num(pg_schedule *s, const char *key, double *out)
{
    char v[128];
    if (!spec_value(s->kb_spec, key, v, sizeof v))
        return FAIL(s->kb_line, "kblocks needs %s=", key);
    if (expr_eval(v, 0, out))
        return FAIL(s->kb_line, "kblocks %s=: %s", key, pg_last_error());
    return 0;
}

static int spec_latency(pg_schedule *s, const char *key, int *slot)
{
    char v[128];
    if (!spec_value(s->kb_spec, key, v, sizeof v))
        return FAIL(s->kb_line, "kblocks needs %s=LATENCY", key);
    int d = sch_find_dist(s, v);
    if (d < 0 || s->dists[d].kind == DKIND_PHASE)
        return FAIL(s->kb_line, "kblocks %s=%s: not a `latency` or `memory` line of this schedule", key, v);
    *slot = sch_slot_of(s, d, 0);
    return *slot < 0 ? FAIL(s->kb_line, "too many sampled quantities") : 0;
}

/* ROLE.STEP -> its node (chain 0); -1 with a message */
static int spec_node(pg_schedule *s, const char *what, const char *spec, int *node)
{
    const char *dot = strchr(spec, '.');
    for (int r = 0; dot && r < s->nroles; r++)
        if (strlen(s->roles[r].name) == (size_t)(dot - spec) && strncmp(s->roles[r].name, spec, (size_t)(dot - spec)) == 0)
            for (int st = 0; st < s->roles[r].nsteps; st++)
                if (strcmp(s->roles[r].steps[st].name, dot + 1) == 0) {
                    if (s->roles[r].nchains != 1)
                        return FAIL(s->kb_line, "kblocks %s'%s': its role must run one chain (instances=1 or "
                                                "mode=rotate)", what, spec);
                    *node = sch_node_of(s, r, 0, st);
                    return 0;
                }
    return FAIL(s->kb_line, "kblocks %s'%s': no such ROLE.STEP in this schedule", what, spec);
}

int sch_kblocks_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line)
{
    (void)tok, (void)ntok;
    if (s->kb_line)
        return FAIL(line, "only one `kblocks` line (first at line %d)", s->kb_line);
    const char *rest = strstr(text, "kblocks") + strlen("kblocks");
    if (strlen(rest) >= sizeof s->kb_spec)
        return FAIL(line, "kblocks line too long");
    snprintf(s->kb_spec, sizeof s->kb_spec, "%s", rest);
    s->kb_line = line;
    return 0;
}

/* shiftN=... (N in 1..SCH_KB_SHIFTS) at p (len chars, or a bare name with
 * len 0): N, else 0 */
static int shift_key(const char *p, size_t len)
{
    if (strncmp(p, "shift", 5) != 0)
        return 0;
    char *end;
    const long d = strtol(p + 5, &end, 10);
    if (end == p + 5 || d < 1 || d > SCH_KB_SHIFTS || (len ? *end != '=' || (size_t)(end - p) >= len : *end != '\0'))
        return 0;
    return (int)d;
}

/* ring_stages= (line or override): 0 (not measured) or a whole ring depth */
static int ring_stages_ok(double v) { return v == 0 || (v >= 2 && v <= 1024 && v == floor(v)); }

/* An optional KEY=: 0 when absent, else its value, which must lie in
 * [0, max] (`range` says so in the message, `what` says what it is). */
static int spec_optional(pg_schedule *s, const char *key, double max, const char *range, const char *what, double *out)
{
    char v[128];
    *out = 0;
    if (spec_value(s->kb_spec, key, v, sizeof v) && spec_num(s, key, out))
        return -1;
    if (!(*out >= 0 && *out <= max))
        return FAIL(s->kb_line, "kblocks %s= must be in %s (%s; got %g)", key, range, what, *out);
    return 0;
}

/* The spec's words: the first is the phase (copied into phase, n chars),
 * the rest must be known KEY=VALUE pairs, so that a misspelt key is an
 * error rather than a default. */
static int kb_check_words(pg_schedule *s, char *phase, size_t n)
{
    static const char *const keys[] = {"count", "stages", "compute", "issue", "load", "release", "calibrated_mean",
                                       "queue", "queue_mean", "ring", "ring_stages", "wake", "inflight", "roundtrip", "fifo", "fixed", "fixed_mode", "boundaries", "shift_count",
                                       "shift_stages", NULL};
    const char *p = s->kb_spec;
    for (int first = 1; *p; first = 0) {
        while (*p == ' ' || *p == '\t')
            p++;
        size_t len = strcspn(p, " \t");
        if (!len)
            break;
        if (first && !memchr(p, '=', len)) {
            if (len >= n)
                return FAIL(s->kb_line, "kblocks: phase name too long");
            memcpy(phase, p, len);
        } else {
            int ok = shift_key(p, len) > 0;
            for (int k = 0; keys[k]; k++)
                ok |= len > strlen(keys[k]) && strncmp(p, keys[k], strlen(keys[k])) == 0 && p[strlen(keys[k])] == '=';
            if (!ok)
                return FAIL(s->kb_line, "kblocks: '%.*s': expected KEY=VALUE with KEY one of count, stages, compute, "
                                        "issue, load, release, calibrated_mean, queue, queue_mean, ring, ring_stages, wake, inflight, "
                                        "roundtrip, fifo, fixed, boundaries, shift1..shift16, shift_count, "
                                        "shift_stages",
                            (int)len, p);
        }
        p += len;
    }
    if (!phase[0])
        return FAIL(s->kb_line, "usage: kblocks PHASE count= stages= compute= issue=ROLE.STEP load=LATENCY "
                                "release=LATENCY calibrated_mean=");
    return 0;
}

/* The required numbers: count and stages come back for the caller to store
 * (whole numbers once checked), compute and calibrated_mean are stored. */
static int kb_required(pg_schedule *s, double *count, double *stages)
{
    if (spec_num(s, "count", count) || spec_num(s, "stages", stages) || spec_num(s, "compute", &s->kb_compute) ||
        spec_num(s, "calibrated_mean", &s->kb_calibrated_mean))
        return -1;
    if (*count != floor(*count) || *count < 1 || *count > 1024)
        return FAIL(s->kb_line, "kblocks count= must be a whole number of k-blocks in 1..1024 (got %g)", *count);
    /* a ring deeper than a tile's k-blocks is a ring: a k-block's slot is
     * then a tile two or more back, long free (the replay takes it so) */
    if (*stages != floor(*stages) || *stages < 2 || *stages > 1024)
        return FAIL(s->kb_line, "kblocks stages= must be a whole number in 2..1024 (got %g): with one stage a "
                                "k-block would wait for its own release", *stages);
    if (!(s->kb_compute >= 0) || !(s->kb_calibrated_mean >= 0))
        return FAIL(s->kb_line, "kblocks compute= and calibrated_mean= must be >= 0");
    return 0;
}

/* The optional numbers: the queueing share of the load latency, the
 * calibration's loads in flight, the consumer's wgmma round trip
 * (kblocks.c), and the fit's offsets of the loop's events from their
 * k-block starts (M46: absent = not fitted, NAN). */
static int kb_optional(pg_schedule *s)
{
    char v[128];
    if (spec_optional(s, "queue", 1, "[0, 1]", "the share of the load latency that is queueing", &s->kb_queue) ||
        spec_optional(s, "queue_mean", 1, "{0, 1}", "1: by the run's mean loads in flight", &s->kb_queue_mean) ||
        spec_optional(s, "ring", 1, "[0, 1]", "the share of the load latency that follows the ring's depth",
                      &s->kb_ring) ||
        spec_optional(s, "ring_stages", 1024, "[0, 1024]", "the ring depth the latency was fitted at",
                      &s->kb_ring_stages) ||
        spec_optional(s, "wake", 1e6, "[0, 1e6] cycles", "a waiting k-block's landing to its slot's release",
                      &s->kb_wake) ||
        spec_optional(s, "inflight", 1024, "[0, 1024]", "0: the stage count", &s->kb_inflight) ||
        spec_optional(s, "roundtrip", 1e6, "[0, 1e6] cycles", "the consumer's wgmma round trip", &s->kb_roundtrip) ||
        spec_optional(s, "fifo", 1e6, "[0, 1e6] cycles", "the SM's least gap between its loads' landings", &s->kb_fifo) ||
        spec_optional(s, "fixed", 1e6, "[0, 1e6] cycles", "the loop's cycles besides its k-blocks", &s->kb_fixed) ||
        spec_optional(s, "fixed_mode", 1, "{0, 1}", "1: fixed= fitted as the low tail's commonest value",
                      &s->kb_fixed_mode) ||
        spec_optional(s, "boundaries", 1, "{0, 1}", "1: events on the loop at k-block starts", &s->kb_boundaries) ||
        spec_optional(s, "shift_count", 1024, "[0, 1024]", "the k-blocks the shifts were fitted at",
                      &s->kb_shift_count) ||
        spec_optional(s, "shift_stages", 1024, "[0, 1024]", "the stages the shifts were fitted at",
                      &s->kb_shift_stages))
        return -1;
    if (s->kb_fixed_mode != 0 && s->kb_fixed_mode != 1)
        return FAIL(s->kb_line, "kblocks fixed_mode= must be 0 or 1");
    if (!ring_stages_ok(s->kb_ring_stages))
        return FAIL(s->kb_line, "kblocks ring_stages= must be 0 or a whole number of stages in 2..1024 (got %g)",
                    s->kb_ring_stages);
    if (s->kb_boundaries != 0 && s->kb_boundaries != 1)
        return FAIL(s->kb_line, "kblocks boundaries= must be 0 or 1");
    for (int d = 1; d <= SCH_KB_SHIFTS; d++) {
        char key[16];
        snprintf(key, sizeof key, "shift%d", d);
        s->kb_shift[d - 1] = NAN;
        if (!spec_value(s->kb_spec, key, v, sizeof v))
            continue;
        if (spec_num(s, key, &s->kb_shift[d - 1]))
            return -1;
        if (!(fabs(s->kb_shift[d - 1]) <= 1e6))
            return FAIL(s->kb_line, "kblocks %s= must be within +-1e6 cycles", key);
    }
    return 0;
}

/* The phase's work step (*kn): one chain, its only dependency the step
 * before it, which the loop replaces (its sample slot kept as the phase's). */
static int kb_phase_node(pg_schedule *s, const char *phase, int *kn)
{
    int kr, ks;
    *kn = -1;
    if (sch_find_work(s, phase, &kr, &ks) == 0) {
        char rs[2 * SCH_NAME + 2];
        snprintf(rs, sizeof rs, "%s.%s", s->roles[kr].name, phase);
        if (spec_node(s, "", rs, kn))
            return -1;
    }
    if (*kn < 0)
        return FAIL(s->kb_line, "kblocks: '%s' is not a work step of this schedule", phase);
    int nin = 0;
    for (int i = 0; i < s->nedges; i++)
        if (s->edges[i].to == *kn) {
            nin++;
            if (s->edges[i].kind != EDGE_SEQ || s->edges[i].nterms != 1)
                return FAIL(s->kb_line, "kblocks: the step '%s' may have no `+ TERM` or `until` clauses (a constant "
                                        "`+ N` is added after its last k-block)", phase);
            s->kb_phase_slot = s->edges[i].slot[0];
        }
    if (nin != 1)
        return FAIL(s->kb_line, "kblocks: the step '%s' must depend only on the step before it", phase);
    return 0;
}

/* issue=, load= and release=: another role's step whose start issues
 * k-block 0, and the two latencies the loop samples. */
static int kb_issue_and_latencies(pg_schedule *s, int kn)
{
    char v[128];
    if (!spec_value(s->kb_spec, "issue", v, sizeof v))
        return FAIL(s->kb_line, "kblocks needs issue=ROLE.STEP (the step whose start issues k-block 0)");
    if (spec_node(s, "issue=", v, &s->kb_issue_node))
        return -1;
    if (s->nodes[s->kb_issue_node].role == s->nodes[kn].role)
        return FAIL(s->kb_line, "kblocks issue=%s: the issuing step must be another role's", v);
    if (spec_latency(s, "load", &s->kb_load_slot) || spec_latency(s, "release", &s->kb_release_slot))
        return -1;
    return 0;
}

int sch_kblocks_resolve(pg_schedule *s)
{
    if (!s->kb_line)
        return 0;
    char phase[SCH_NAME + 8] = "", v[128];
    double count, stages;
    if (kb_check_words(s, phase, sizeof phase) || kb_required(s, &count, &stages) || kb_optional(s))
        return -1;
    s->kb_fixed_named = spec_value(s->kb_spec, "fixed", v, sizeof v);
    s->kb_count = (int)count;
    s->kb_stages = (int)stages;
    s->kb_tile_form = 0;
    int kn;
    if (kb_phase_node(s, phase, &kn) || kb_issue_and_latencies(s, kn))
        return -1;
    s->kb_node = kn;
    /* the loop's events (ROLE.STEP@F on it), numbered in edge order */
    int nev = 0;
    for (int i = 0; i < s->nedges; i++) {
        sch_edge *e = &s->edges[i];
        e->kb_event = e->at_node == kn && e->at_frac > 0 && nev < SCH_KB_SHIFTS ? nev++ : -1;
    }
    return 0;
}

int sch_kblocks_check_order(pg_schedule *s)
{
    if (s->kb_node < 0)
        return 0;
    /* the engine reads the issuing step's start (its previous step's end) of
     * the same tile when it runs the loop: that must come first */
    const sch_node *in = &s->nodes[s->kb_issue_node];
    int pos_issue = -1, pos_kb = -1;
    for (int i = 0; i < s->nnodes; i++) {
        if (s->topo[i] == in->prev)
            pos_issue = i;
        if (s->topo[i] == s->kb_node)
            pos_kb = i;
    }
    if (in->prev_off == 0 && pos_issue > pos_kb)
        return FAIL(s->kb_line, "kblocks: the issuing step's start must come before the loop within a tile (add a "
                                "wait on it, as load_wait waits on producer_issue@0)");
    return 0;
}

/* `kblocks.compute` is one k-block's compute; `kblocks.tile_compute` the
 * whole loop's, split evenly over count (re-applied after every compile, so
 * it follows a changed count: 12 k-blocks of a tile's 2,304 cycles are 192
 * each, not the calibration's 384) */
int sch_kblocks_override(pg_schedule *s, const char *stat, int relative, double value, const char *param)
{
    const int tile = strcmp(stat, "tile_compute") == 0, shift = shift_key(stat, 0);
    if (shift > 0 && s->kb_node >= 0) {
        if (!(fabs(value) <= 1e6) || relative)
            return pg_fail("'%s': a shift is an absolute number of cycles within +-1e6", param);
        s->kb_shift[shift - 1] = value;
        return 0;
    }
    double *f = strcmp(stat, "compute") == 0 || tile      ? &s->kb_compute
                : strcmp(stat, "calibrated_mean") == 0 ? &s->kb_calibrated_mean
                : strcmp(stat, "queue") == 0           ? &s->kb_queue
                : strcmp(stat, "queue_mean") == 0      ? &s->kb_queue_mean
                : strcmp(stat, "ring") == 0            ? &s->kb_ring
                : strcmp(stat, "ring_stages") == 0     ? &s->kb_ring_stages
                : strcmp(stat, "wake") == 0            ? &s->kb_wake
                : strcmp(stat, "boundaries") == 0      ? &s->kb_boundaries
                : strcmp(stat, "shift_count") == 0     ? &s->kb_shift_count
                : strcmp(stat, "shift_stages") == 0    ? &s->kb_shift_stages
                : strcmp(stat, "inflight") == 0        ? &s->kb_inflight
                : strcmp(stat, "roundtrip") == 0       ? &s->kb_roundtrip
                : strcmp(stat, "fifo") == 0            ? &s->kb_fifo
                : strcmp(stat, "fixed") == 0           ? &s->kb_fixed
                : strcmp(stat, "fixed_mode") == 0      ? &s->kb_fixed_mode
                                                       : NULL;
    if (!f || s->kb_node < 0)
        return pg_fail("'%s': %s", param,
                       s->kb_node < 0 ? "this schedule has no kblocks line"
                                      : "kblocks takes compute, tile_compute, calibrated_mean, queue, queue_mean, ring, "
                                        "ring_stages, wake, "
                                        "inflight, roundtrip, fifo, fixed, fixed_mode, boundaries, shift1..shift16, "
                                        "shift_count, shift_stages");
    const double scale = tile ? s->kb_count : 1;
    double v = relative ? *f * scale + value : value;
    const int cycles = f == &s->kb_roundtrip || f == &s->kb_fixed || f == &s->kb_fifo || f == &s->kb_wake;
    const int shape = f == &s->kb_shift_count || f == &s->kb_shift_stages || f == &s->kb_ring_stages;
    const int flag = f == &s->kb_queue_mean || f == &s->kb_boundaries || f == &s->kb_fixed_mode;
    if (f == &s->kb_ring_stages && !ring_stages_ok(v))
        return pg_fail("'%s' must be 0 or a whole number of stages in 2..1024", param);
    if (!(v >= 0) || ((f == &s->kb_queue || f == &s->kb_ring) && v > 1) || (flag && v != 0 && v != 1) ||
        ((f == &s->kb_inflight || shape) && v > 1024) || (cycles && v > 1e6))
        return pg_fail("'%s' must be >= 0%s", param,
                       f == &s->kb_queue || f == &s->kb_ring ? " and <= 1"
                       : flag                 ? " and 0 or 1"
                       : f == &s->kb_inflight || shape ? " and <= 1024"
                       : cycles               ? " and <= 1e6"
                                              : "");
    *f = v / scale;
    if (tile)
        s->kb_tile_form = 1;
    else if (f == &s->kb_compute)
        s->kb_tile_form = 0;
    return 0;
}

/* TOK is KEY=...: written as sch_write_key writes it (override
 * kblocks.KEY); *wrote set.  0 (nothing written) for another key. */
static int write_number_key(FILE *f, const pg_schedule *s, const char *tok, const char *key, double value, int *wrote)
{
    const size_t n = strlen(key);
    if (strncmp(tok, key, n) != 0 || tok[n] != '=')
        return 0;
    char param[64];
    snprintf(param, sizeof param, "kblocks.%s", key);
    sch_write_key(f, s, param, tok, value);
    *wrote = 1;
    return 1;
}

/* the line as written (its $options stay), its fitted numbers replaced; a
 * compute set as the tile's (kb_tile_form) is written as TILE/(COUNT);
 * keys an override or the fit set where the line had none, then any
 * trailing comment */
int sch_kblocks_write(FILE *f, const pg_schedule *s, char *text)
{
    if (s->kb_node < 0)
        return 0;
    char *comment = sch_cut_comment(text);
    char count[128];
    if (!spec_value(text, "count", count, sizeof count)) /* as written: before strtok_r cuts it */
        count[0] = '\0';
    char *save = NULL;
    int first = 1, wrote_queue = 0, wrote_inflight = 0, wrote_roundtrip = 0, wrote_fixed = 0, wrote_qmean = 0, wrote_bound = 0,
        wrote_fmode = 0, wrote_fifo = 0, wrote_ring = 0, wrote_wake = 0;
    for (char *tok = strtok_r(text, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save), first = 0) {
        if (shift_key(tok, strlen(tok)) || strncmp(tok, "ring_stages=", 12) == 0 ||
            strncmp(tok, "shift_count=", 12) == 0 || strncmp(tok, "shift_stages=", 13) == 0)
            continue; /* written below, from the fitted values */
        if (!first)
            fputc(' ', f);
        if (write_number_key(f, s, tok, "ring", s->kb_ring, &wrote_ring) ||
            write_number_key(f, s, tok, "wake", s->kb_wake, &wrote_wake) ||
            write_number_key(f, s, tok, "roundtrip", s->kb_roundtrip, &wrote_roundtrip) ||
            write_number_key(f, s, tok, "fifo", s->kb_fifo, &wrote_fifo) ||
            write_number_key(f, s, tok, "queue", s->kb_queue, &wrote_queue))
            continue;
        if (strncmp(tok, "compute=", 8) == 0 && s->kb_tile_form && count[0])
            fprintf(f, "compute=%.9g/(%s)", s->kb_compute * s->kb_count, count);
        else if (strncmp(tok, "compute=", 8) == 0)
            fprintf(f, "compute=%.9g", s->kb_compute);
        else if (strncmp(tok, "calibrated_mean=", 16) == 0)
            fprintf(f, "calibrated_mean=%.9g", s->kb_calibrated_mean);
        else if (strncmp(tok, "boundaries=", 11) == 0)
            fprintf(f, "boundaries=%.9g", s->kb_boundaries), wrote_bound = 1;
        else if (strncmp(tok, "queue_mean=", 11) == 0)
            fprintf(f, "queue_mean=%.9g", s->kb_queue_mean), wrote_qmean = 1;
        else if (strncmp(tok, "inflight=", 9) == 0)
            fprintf(f, "inflight=%.9g", s->kb_inflight), wrote_inflight = 1;
        else if (strncmp(tok, "fixed=", 6) == 0)
            fprintf(f, "fixed=%.9g", s->kb_fixed), wrote_fixed = 1;
        else if (strncmp(tok, "fixed_mode=", 11) == 0)
            fprintf(f, "fixed_mode=%.9g", s->kb_fixed_mode), wrote_fmode = 1;
        else
            fputs(tok, f);
    }
    if (!wrote_bound && s->kb_boundaries > 0)
        fprintf(f, " boundaries=%.9g", s->kb_boundaries);
    for (int d = 1; d <= SCH_KB_SHIFTS; d++)
        if (isfinite(s->kb_shift[d - 1]))
            fprintf(f, " shift%d=%.9g", d, s->kb_shift[d - 1]);
    if (s->kb_shift_count > 0)
        fprintf(f, " shift_count=%.9g shift_stages=%.9g", s->kb_shift_count, s->kb_shift_stages);
    if (!wrote_ring && s->kb_ring > 0)
        fprintf(f, " ring=%.9g", s->kb_ring);
    if (!wrote_wake && s->kb_wake > 0)
        fprintf(f, " wake=%.9g", s->kb_wake);
    if (s->kb_ring_stages > 0)
        fprintf(f, " ring_stages=%.9g", s->kb_ring_stages);
    if (!wrote_qmean && s->kb_queue_mean > 0)
        fprintf(f, " queue_mean=%.9g", s->kb_queue_mean);
    if (!wrote_inflight && s->kb_inflight > 0)
        fprintf(f, " inflight=%.9g", s->kb_inflight);
    /* a --set kblocks.roundtrip= on a line without the key: the written
     * schedule must run the loop the prediction ran */
    if (!wrote_roundtrip && s->kb_roundtrip > 0)
        fprintf(f, " roundtrip=%.9g", s->kb_roundtrip);
    if (!wrote_fixed && s->kb_fixed > 0)
        fprintf(f, " fixed=%.9g", s->kb_fixed);
    if (!wrote_fifo && s->kb_fifo > 0)
        fprintf(f, " fifo=%.9g", s->kb_fifo);
    if (!wrote_fmode && s->kb_fixed_mode > 0)
        fprintf(f, " fixed_mode=%.9g", s->kb_fixed_mode);
    if (!wrote_queue && s->kb_queue > 0)
        fprintf(f, " queue=%.9g", s->kb_queue);
    sch_end_line(f, comment);
    return 1;
}
