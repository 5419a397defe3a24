/* The CSV trace reader: header (vocabulary, anchors, counts), then rows.
 * Every error names the file and the line. */
#include "pgtrace_csv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *path;
    long line;
    int seen_kernel, seen_clock, seen_nominal, seen_count, seen_dropped, seen_roles, seen_phases, seen_waits,
        seen_sms;
    int64_t cap_events;
} reader;

static int bad(const reader *r, const char *what)
{
    return pgtrace_fail("%s:%ld: %s", r->path, r->line, what);
}

static int parse_i64(const char *s, int64_t *out)
{
    char *end;
    errno = 0;
    const long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end)
        return -1;
    *out = v;
    return 0;
}

/* Split `s` in place at `sep`; at most `max` fields. */
static int split(char *s, char sep, char **fields, int max)
{
    int n = 0;
    for (;;) {
        if (n == max)
            return -1;
        fields[n++] = s;
        char *next = strchr(s, sep);
        if (!next)
            return n;
        *next = '\0';
        s = next + 1;
    }
}

static int find_name(char **names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], s))
            return i;
    return -1;
}

static int read_names(reader *r, char *rest, int *n, char ***names)
{
    char *fields[PGTRACE_MAX_NAMES + 1];
    const int k = *rest ? split(rest, ' ', fields, PGTRACE_MAX_NAMES + 1) : 0;
    if (k < 1 || k > PGTRACE_MAX_NAMES)
        return bad(r, "a name list must hold 1..255 names");
    *names = calloc((size_t)k, sizeof **names);
    if (!*names)
        return bad(r, "out of memory");
    *n = k;
    for (int i = 0; i < k; i++) {
        if (!*fields[i] || find_name(*names, i, fields[i]) >= 0)
            return bad(r, "empty or repeated name");
        if (!((*names)[i] = strdup(fields[i])))
            return bad(r, "out of memory");
    }
    return 0;
}

static int read_waits(reader *r, char *rest, pgtrace_csv *f)
{
    if (!f->phase_names)
        return bad(r, "'# waits' before '# phases'");
    char *fields[PGTRACE_MAX_NAMES + 1];
    const int k = *rest ? split(rest, ' ', fields, PGTRACE_MAX_NAMES + 1) : 0;
    if (k < 0)
        return bad(r, "too many wait names");
    for (int i = 0; i < k; i++) {
        const int p = find_name(f->phase_names, f->n_phases, fields[i]);
        if (p < 0)
            return pgtrace_fail("%s:%ld: wait '%s' is not a phase", r->path, r->line, fields[i]);
        f->phase_is_wait[p] = 1;
    }
    return 0;
}

static int read_sms(reader *r, const char *rest, pgtrace_csv *f)
{
    int64_t n;
    if (parse_i64(rest, &n) || n < 1 || n > 1 << 20)
        return bad(r, "'# sms' must be an SM count >= 1");
    f->n_sm = (int32_t)n;
    f->anchor_clock = malloc((size_t)n * sizeof(int64_t));
    f->anchor_globaltimer_ns = malloc((size_t)n * sizeof(int64_t));
    if (!f->anchor_clock || !f->anchor_globaltimer_ns)
        return bad(r, "out of memory");
    for (int64_t s = 0; s < n; s++)
        f->anchor_clock[s] = f->anchor_globaltimer_ns[s] = -1;
    return 0;
}

static int read_anchor(reader *r, char *rest, pgtrace_csv *f)
{
    char *fields[4];
    int64_t sm, clock, gt;
    if (!f->anchor_clock)
        return bad(r, "'# anchor' before '# sms'");
    if (split(rest, ' ', fields, 4) != 3 || parse_i64(fields[0], &sm) || parse_i64(fields[1], &clock) ||
        parse_i64(fields[2], &gt) || clock < 0)
        return bad(r, "'# anchor SM CLOCK GLOBALTIMER_NS' expected");
    if (sm < 0 || sm >= f->n_sm || f->anchor_clock[sm] >= 0)
        return bad(r, "anchor SM outside 0..sms-1 or given twice");
    f->anchor_clock[sm] = clock;
    f->anchor_globaltimer_ns[sm] = gt;
    return 0;
}

static int read_number(reader *r, const char *rest, int *seen, double *d, int64_t *i)
{
    char *end;
    if (*seen)
        return bad(r, "header key given twice");
    *seen = 1;
    errno = 0;
    if (d) {
        *d = strtod(rest, &end);
        if (errno || end == rest || *end || *d < 0)
            return bad(r, "a number >= 0 expected");
        return 0;
    }
    if (parse_i64(rest, i) || *i < 0)
        return bad(r, "an integer >= 0 expected");
    return 0;
}

/* One "# key value" line. */
static int read_header_line(reader *r, char *line, pgtrace_csv *f)
{
    char *key = line + 2, *rest = strchr(key, ' ');
    rest = rest ? (*rest = '\0', rest + 1) : key + strlen(key);
    int64_t i64 = 0;
    if (!strcmp(key, "kernel")) {
        if (r->seen_kernel++ || strlen(rest) >= sizeof f->kernel)
            return bad(r, "kernel given twice or too long");
        strcpy(f->kernel, rest);
        return 0;
    }
    if (!strcmp(key, "clock_hz"))
        return read_number(r, rest, &r->seen_clock, &f->clock_hz, NULL);
    if (!strcmp(key, "clock_hz_nominal"))
        return read_number(r, rest, &r->seen_nominal, &f->clock_hz_nominal, NULL);
    if (!strcmp(key, "count")) {
        const int rc = read_number(r, rest, &r->seen_count, NULL, &i64);
        f->count = (unsigned long long)i64;
        return rc;
    }
    if (!strcmp(key, "dropped"))
        return read_number(r, rest, &r->seen_dropped, NULL, &f->dropped);
    if (!strcmp(key, "roles"))
        return r->seen_roles++ ? bad(r, "roles given twice") : read_names(r, rest, &f->n_roles, &f->role_names);
    if (!strcmp(key, "phases")) {
        if (r->seen_phases++ || read_names(r, rest, &f->n_phases, &f->phase_names))
            return r->seen_phases > 1 ? bad(r, "phases given twice") : -1;
        f->phase_is_wait = calloc((size_t)f->n_phases, 1);
        return f->phase_is_wait ? 0 : bad(r, "out of memory");
    }
    if (!strcmp(key, "waits"))
        return r->seen_waits++ ? bad(r, "waits given twice") : read_waits(r, rest, f);
    if (!strcmp(key, "sms"))
        return r->seen_sms++ ? bad(r, "sms given twice") : read_sms(r, rest, f);
    if (!strcmp(key, "anchor"))
        return read_anchor(r, rest, f);
    return pgtrace_fail("%s:%ld: unknown header key '%s'", r->path, r->line, key);
}

static int header_complete(const reader *r)
{
    const char *missing = !r->seen_kernel ? "kernel" : !r->seen_clock ? "clock_hz" : !r->seen_nominal ? "clock_hz_nominal"
                        : !r->seen_count ? "count" : !r->seen_dropped ? "dropped" : !r->seen_roles ? "roles"
                        : !r->seen_phases ? "phases" : !r->seen_waits ? "waits" : !r->seen_sms ? "sms" : NULL;
    if (missing)
        return pgtrace_fail("%s:%ld: the header lacks '# %s'", r->path, r->line, missing);
    return 0;
}

static int grow_events(reader *r, pgtrace_csv *f)
{
    if (f->n_events < r->cap_events)
        return 0;
    const int64_t cap = r->cap_events ? 2 * r->cap_events : 4096;
    pgtrace_event *e = realloc(f->events, (size_t)cap * sizeof *e);
    if (!e)
        return bad(r, "out of memory");
    f->events = e;
    r->cap_events = cap;
    return 0;
}

static int read_row(reader *r, char *line, pgtrace_csv *f)
{
    char *c[8];
    int64_t sm, warp, tile, begin, end;
    if (split(line, ',', c, 8) != 7)
        return bad(r, "a row has 7 fields: " PGTRACE_CSV_COLUMNS);
    const int role = find_name(f->role_names, f->n_roles, c[1]);
    const int phase = find_name(f->phase_names, f->n_phases, c[4]);
    if (role < 0 || phase < 0)
        return pgtrace_fail("%s:%ld: unknown %s '%s'", r->path, r->line, role < 0 ? "role" : "phase",
                            role < 0 ? c[1] : c[4]);
    if (parse_i64(c[0], &sm) || parse_i64(c[2], &warp) || parse_i64(c[3], &tile) || parse_i64(c[5], &begin) ||
        parse_i64(c[6], &end) || warp < INT32_MIN || warp > INT32_MAX || tile < INT32_MIN || tile > INT32_MAX)
        return bad(r, "sm, warp, tile, begin and end must be integers");
    if (sm < 0 || sm >= f->n_sm || f->anchor_clock[sm] < 0)
        return bad(r, "the row's SM has no anchor");
    if (end < begin)
        return bad(r, "the row ends before it begins");
    if (grow_events(r, f))
        return -1;
    f->events[f->n_events++] = pgtrace_event_make((int32_t)sm, (uint32_t)role, (int32_t)warp, (int32_t)tile,
                                                  (uint32_t)phase, begin, end);
    return 0;
}

static int read_lines(reader *r, FILE *in, pgtrace_csv *f)
{
    char *line = NULL;
    size_t size = 0;
    ssize_t len;
    int rc = -1, in_header = 1;
    while ((len = getline(&line, &size, in)) > 0) {
        r->line++;
        if (line[len - 1] == '\n')
            line[--len] = '\0';
        if (r->line == 1) {
            if (strcmp(line, PGTRACE_CSV_MAGIC) != 0) {
                rc = bad(r, "not a pgtrace CSV trace (first line must be '" PGTRACE_CSV_MAGIC "')");
                goto done;
            }
        } else if (in_header && !strncmp(line, "# ", 2)) {
            if (read_header_line(r, line, f))
                goto done;
        } else if (in_header) {
            if (strcmp(line, PGTRACE_CSV_COLUMNS) != 0) {
                rc = bad(r, "expected the column line '" PGTRACE_CSV_COLUMNS "'");
                goto done;
            }
            if (header_complete(r))
                goto done;
            in_header = 0;
        } else if (read_row(r, line, f)) {
            goto done;
        }
    }
    if (ferror(in)) {
        rc = pgtrace_fail("%s: read error (%s)", r->path, strerror(errno));
        goto done;
    }
    rc = in_header ? pgtrace_fail("%s: no column line: truncated?", r->path) : 0;
done:
    free(line);
    return rc;
}

int pgtrace_read_csv(const char *path, pgtrace_csv *f)
{
    int rc = -1;
    reader r = {.path = path};
    memset(f, 0, sizeof *f);
    FILE *in = fopen(path, "r");
    if (!in)
        return pgtrace_fail("%s: %s", path, strerror(errno));
    if (read_lines(&r, in, f))
        goto done;
    if (f->count != (unsigned long long)f->n_events + (unsigned long long)f->dropped) {
        rc = pgtrace_fail("%s: count %llu != %lld rows + %lld dropped", path, f->count, (long long)f->n_events,
                          (long long)f->dropped);
        goto done;
    }
    f->vocab = (pgtrace_vocab){f->n_roles, (const char *const *)f->role_names, f->n_phases,
                               (const char *const *)f->phase_names, f->phase_is_wait};
    rc = 0;
done:
    fclose(in);
    if (rc)
        pgtrace_csv_free(f);
    return rc;
}

void pgtrace_csv_free(pgtrace_csv *f)
{
    for (int i = 0; f->role_names && i < f->n_roles; i++)
        free(f->role_names[i]);
    for (int i = 0; f->phase_names && i < f->n_phases; i++)
        free(f->phase_names[i]);
    free(f->role_names);
    free(f->phase_names);
    free(f->phase_is_wait);
    free(f->anchor_clock);
    free(f->anchor_globaltimer_ns);
    free(f->events);
    memset(f, 0, sizeof *f);
}
