#include "trace_check.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pg_error.h"

/* The schedule's view of each trace role: which of the trace's phases it
 * runs, in tile order (codes of the trace's vocabulary).  Built once per
 * check; without a schedule nothing is known and those checks are off. */
typedef struct {
    int known;                             /* the schedule has this role */
    int nphases;
    int phase[PG_VOCAB_MAX_PHASES];        /* trace phase codes, in the schedule's step order */
} role_steps;

static void build_steps(const pg_schedule *s, const pg_trace *t, role_steps *rs)
{
    memset(rs, 0, sizeof(role_steps) * PG_VOCAB_MAX_ROLES);
    for (int r = 0; s && r < t->vocab.n_roles; r++) {
        const char *names[PG_VOCAB_MAX_PHASES];
        int n = pg_schedule_role_phases(s, t->vocab.role[r], names, PG_VOCAB_MAX_PHASES);
        if (n < 0)
            continue;
        rs[r].known = 1;
        for (int i = 0; i < n; i++) {
            int c = pg_vocab_phase(&t->vocab, names[i]);
            if (c >= 0)
                rs[r].phase[rs[r].nphases++] = c;
        }
    }
}

static int role_has_phase(const role_steps *rs, int phase)
{
    for (int i = 0; i < rs->nphases; i++)
        if (rs->phase[i] == phase)
            return 1;
    return 0;
}

static void note(pg_trace_issues *t, int64_t *counter, const char *fmt, ...) PG_PRINTF(3, 4);
static void note(pg_trace_issues *t, int64_t *counter, const char *fmt, ...)
{
    (*counter)++;
    if (t->nnotes >= PG_TRACE_MAX_NOTES)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->notes[t->nnotes++], sizeof t->notes[0], fmt, ap);
    va_end(ap);
}

static const pg_trace *g_sort_trace; /* qsort has no context argument in C17 */

/* order: sm, role, warp, begin, end */
static int cmp_record(const void *pa, const void *pb)
{
    const pg_trace *t = g_sort_trace;
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
#define CMP(x)                      \
    if (t->x[a] != t->x[b])         \
        return t->x[a] < t->x[b] ? -1 : 1;
    CMP(sm) CMP(role) CMP(warp) CMP(begin) CMP(end)
#undef CMP
    return a < b ? -1 : a > b;
}

static int same_warp(const pg_trace *t, int64_t a, int64_t b)
{
    return t->sm[a] == t->sm[b] && t->role[a] == t->role[b] && t->warp[a] == t->warp[b];
}

static void check_records(const pg_run *run, const pg_schedule *s, const role_steps *rs, pg_trace_issues *out)
{
    const pg_trace *t = &run->trace;
    const pg_vocab *v = &t->vocab;
    const pg_kernel_info *k = &run->kernel;
    const int consumer = pg_vocab_role(v, "consumer"); /* pegemm's GEMM kernels: /kernel consumers */
    int64_t tiles = 0;
    if (k->tile_m > 0 && k->tile_n > 0)
        tiles = ((run->problem.shape.M + k->tile_m - 1) / k->tile_m) * ((run->problem.shape.N + k->tile_n - 1) / k->tile_n);
    for (int64_t i = 0; i < t->n; i++) {
        if (t->role[i] >= v->n_roles || t->phase[i] >= v->n_phases) {
            note(out, &out->impossible, "record %" PRId64 ": unknown role %d or phase %d", i, t->role[i], t->phase[i]);
            continue;
        }
        const int r = t->role[i], p = t->phase[i];
        if (t->end[i] < t->begin[i])
            note(out, &out->impossible, "record %" PRId64 " (sm %d %s %d tile %d %s) ends before it begins (%" PRId64
                                        " < %" PRId64 ")",
                 i, t->sm[i], v->role[r], t->warp[i], t->tile[i], v->phase[p], t->end[i], t->begin[i]);
        if (rs[r].known && !role_has_phase(&rs[r], p))
            note(out, &out->impossible, "record %" PRId64 ": role %s does not have phase %s in schedule %s", i,
                 v->role[r], v->phase[p], pg_schedule_name(s));
        if (t->sm[i] < 0 || t->warp[i] < 0 || t->tile[i] < 0)
            note(out, &out->impossible, "record %" PRId64 ": negative sm/warp/tile (%d, %d, %d)", i, t->sm[i],
                 t->warp[i], t->tile[i]);
        /* against the kernel the run says it used */
        if (k->sm_count > 0 && t->sm[i] >= k->sm_count)
            note(out, &out->config_mismatch, "record %" PRId64 ": sm %d, but the kernel ran on %d SMs", i, t->sm[i],
                 k->sm_count);
        if (r == consumer && k->present && k->consumers > 0 && t->warp[i] >= k->consumers)
            note(out, &out->config_mismatch, "record %" PRId64 ": consumer warpgroup %d, but the kernel has %d consumers",
                 i, t->warp[i], k->consumers);
        if (s && !rs[r].known)
            note(out, &out->config_mismatch, "record %" PRId64 ": role %s is not in schedule %s", i, v->role[r],
                 pg_schedule_name(s));
        if (tiles > 0 && t->tile[i] >= tiles)
            note(out, &out->config_mismatch, "record %" PRId64 ": tile %d, but M=%" PRId64 " N=%" PRId64
                                             " in %dx%d tiles has %" PRId64 " tiles",
                 i, t->tile[i], run->problem.shape.M, run->problem.shape.N, k->tile_m, k->tile_n, tiles);
        if (t->n_sm > 0 && (t->sm[i] < 0 || t->sm[i] >= t->n_sm))
            note(out, &out->config_mismatch, "record %" PRId64 ": sm %d has no clock anchor (%" PRId64 " anchors)", i,
                 t->sm[i], t->n_sm);
    }
}

/* Per warp, in time order: intervals must not overlap, a warp finishes a
 * tile before starting another, and phases within a tile follow the
 * schedule's step order. */
static void check_order(const pg_trace *t, const role_steps *rs, const int64_t *idx, pg_trace_issues *out)
{
    const pg_vocab *v = &t->vocab;
    int64_t n = t->n;
    for (int64_t s = 0; s < n;) {
        int64_t e = s + 1;
        while (e < n && same_warp(t, idx[s], idx[e]))
            e++;
        /* [s, e): one warp's records in begin order */
        for (int64_t i = s + 1; i < e; i++) {
            int64_t a = idx[i - 1], b = idx[i];
            if (t->begin[b] < t->end[a] && t->end[a] >= t->begin[a])
                note(out, &out->impossible, "sm %d %s %d: %s of tile %d [%" PRId64 ", %" PRId64 ") overlaps %s of tile %d [%" PRId64
                                            ", %" PRId64 ") (one warp does one thing at a time)",
                     t->sm[b], v->role[t->role[b]], t->warp[b], v->phase[t->phase[b]], t->tile[b], t->begin[b],
                     t->end[b], v->phase[t->phase[a]], t->tile[a], t->begin[a], t->end[a]);
        }
        /* tiles: contiguous runs; a tile seen again after another started is out of order */
        for (int64_t i = s; i < e;) {
            int64_t j = i + 1;
            while (j < e && t->tile[idx[j]] == t->tile[idx[i]])
                j++;
            for (int64_t q = j; q < e; q++)
                if (t->tile[idx[q]] == t->tile[idx[i]]) {
                    note(out, &out->impossible, "sm %d %s %d: tile %d resumes at cycle %" PRId64 " after tile %d started",
                         t->sm[idx[i]], v->role[t->role[idx[i]]], t->warp[idx[i]], t->tile[idx[i]],
                         t->begin[idx[q]], t->tile[idx[j]]);
                    break;
                }
            /* the schedule's step order within a tile: each phase ends
             * before the role's next one begins */
            const role_steps *R = &rs[t->role[idx[i]]];
            for (int c = 0; c + 1 < R->nphases; c++) {
                const int before = R->phase[c], after = R->phase[c + 1];
                int64_t before_end = INT64_MIN, after_begin = INT64_MAX;
                for (int64_t q = i; q < j; q++) {
                    int64_t r = idx[q];
                    if (t->phase[r] == before && t->end[r] > before_end)
                        before_end = t->end[r];
                    if (t->phase[r] == after && t->begin[r] < after_begin)
                        after_begin = t->begin[r];
                }
                if (before_end != INT64_MIN && after_begin != INT64_MAX && after_begin < before_end)
                    note(out, &out->impossible, "sm %d %s %d tile %d: %s begins at %" PRId64 " before %s ends at %" PRId64,
                         t->sm[idx[i]], v->role[t->role[idx[i]]], t->warp[idx[i]], t->tile[idx[i]], v->phase[after],
                         after_begin, v->phase[before], before_end);
            }
            i = j;
        }
        s = e;
    }
}

int pg_trace_check(const pg_run *run, const pg_schedule *s, pg_trace_issues *out)
{
    role_steps rs[PG_VOCAB_MAX_ROLES];
    const pg_trace *t = &run->trace;
    int64_t *idx = NULL;
    memset(out, 0, sizeof *out);
    if (t->n <= 0)
        return pg_fail("the run has no trace (/trace is absent or empty)");
    out->records = t->n;
    const pg_kernel_info *k = &run->kernel;
    if (!k->present && t->from_v1)
        note(out, &out->config_mismatch, "the run has no /kernel attributes to check the trace against");
    else if (k->present && !k->trace_build)
        note(out, &out->config_mismatch, "the run holds a trace but /kernel says it is not the trace build");
    if (k->present && k->sm_count > 0 && t->n_sm > k->sm_count)
        note(out, &out->config_mismatch, "%" PRId64 " SM clock anchors, but the kernel ran on %d SMs", t->n_sm,
             k->sm_count);
    build_steps(s, t, rs);
    check_records(run, s, rs, out);
    idx = malloc((size_t)t->n * sizeof *idx);
    if (!idx)
        return pg_fail("out of memory sorting %" PRId64 " trace records", t->n);
    for (int64_t i = 0; i < t->n; i++)
        idx[i] = i;
    g_sort_trace = t;
    qsort(idx, (size_t)t->n, sizeof *idx, cmp_record);
    check_order(t, rs, idx, out);
    free(idx);
    return 0;
}

void pg_trace_issues_print(FILE *f, const pg_trace_issues *t)
{
    fprintf(f, "  trace records %" PRId64 ": %" PRId64 " impossible, %" PRId64 " inconsistent with /kernel\n", t->records,
            t->impossible, t->config_mismatch);
    for (int i = 0; i < t->nnotes; i++)
        fprintf(f, "    %s\n", t->notes[i]);
    if (t->impossible + t->config_mismatch > t->nnotes)
        fprintf(f, "    ... (%" PRId64 " more)\n", t->impossible + t->config_mismatch - t->nnotes);
}
