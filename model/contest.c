/* Design contests: parsing the contest and measured files (contest.h). */
#include "contest.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pg_error.h"
#include "pg_outpath.h"

#define MAX_TOKENS 40
#define MAX_LINE 4096
#define MAX_DEFS 16

typedef struct {
    char name[PG_CONTEST_NAME];
    double a, b; /* machine: bytes_per_s; shape: flops, bytes */
} def;

typedef struct {
    const char *path;
    int line;
    def machines[MAX_DEFS], shapes[MAX_DEFS];
    int nmachines, nshapes;
} parse_state;

static int fail_at(const parse_state *ps, const char *msg, const char *what)
{
    return pg_fail("%s:%d: %s%s%s", ps->path, ps->line, msg, what ? " " : "", what ? what : "");
}

static int split(char *s, char **tok)
{
    int n = 0;
    for (char *t = strtok(s, " \t\r\n"); t && n < MAX_TOKENS; t = strtok(NULL, " \t\r\n"))
        tok[n++] = t;
    return n;
}

/* KEY=VALUE with a finite number > 0 (>= 0 with allow_zero); -1 if tok is
 * not KEY=..., -2 (message set) if the value is bad */
static int key_value(const parse_state *ps, const char *tok, const char *key, int allow_zero, double *out)
{
    size_t k = strlen(key);
    if (strncmp(tok, key, k) != 0 || tok[k] != '=')
        return -1;
    char *end;
    errno = 0;
    *out = strtod(tok + k + 1, &end);
    if (end == tok + k + 1 || *end || errno || !isfinite(*out) || *out < 0 || (*out == 0 && !allow_zero))
        return fail_at(ps, allow_zero ? "expected a number >= 0 in" : "expected a positive number in", tok), -2;
    return 0;
}

static int key_number(const parse_state *ps, const char *tok, const char *key, double *out)
{
    return key_value(ps, tok, key, 0, out);
}

static int copy_name(const parse_state *ps, char *dst, size_t n, const char *src)
{
    if (strlen(src) >= n)
        return fail_at(ps, "name too long:", src);
    for (const char *p = src; *p; p++)
        if (!(*p == '_' || *p == '-' || *p == '.' || (*p >= '0' && *p <= '9') || ((*p | 32) >= 'a' && (*p | 32) <= 'z')))
            return fail_at(ps, "names are [A-Za-z0-9_.-]:", src);
    memcpy(dst, src, strlen(src) + 1);
    return 0;
}

static const def *find_def(const def *d, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(d[i].name, name))
            return &d[i];
    return NULL;
}

/* machine NAME bytes_per_s=B  |  shape NAME flops=F bytes=U */
static int parse_def(parse_state *ps, char **tok, int n, int is_machine)
{
    def *list = is_machine ? ps->machines : ps->shapes;
    int *count = is_machine ? &ps->nmachines : &ps->nshapes;
    if (n != (is_machine ? 3 : 4))
        return fail_at(ps, is_machine ? "usage: machine NAME bytes_per_s=B" : "usage: shape NAME flops=F bytes=U", NULL);
    if (*count == MAX_DEFS)
        return fail_at(ps, "too many definitions", NULL);
    def *d = &list[*count];
    if (copy_name(ps, d->name, sizeof d->name, tok[1]))
        return -1;
    if (find_def(list, *count, d->name))
        return fail_at(ps, "defined twice:", d->name);
    int r = is_machine ? key_number(ps, tok[2], "bytes_per_s", &d->a) : key_number(ps, tok[2], "flops", &d->a);
    if (r == 0 && !is_machine)
        r = key_number(ps, tok[3], "bytes", &d->b);
    if (r == -1)
        return fail_at(ps, is_machine ? "expected bytes_per_s=, got" : "expected flops= then bytes=, got",
                       tok[is_machine ? 2 : (strncmp(tok[2], "flops=", 6) ? 2 : 3)]);
    if (r)
        return -1;
    (*count)++;
    return 0;
}

static int parse_entry(parse_state *ps, char **tok, int n, pg_contest *c)
{
    if (n < 5)
        return fail_at(ps, "usage: entry MACHINE DESIGN SHAPE SCHEDULE [P=V]...", NULL);
    if (n - 5 > PG_CONTEST_MAX_SETS)
        return fail_at(ps, "too many overrides", NULL);
    const def *m = find_def(ps->machines, ps->nmachines, tok[1]), *s = find_def(ps->shapes, ps->nshapes, tok[3]);
    if (!m)
        return fail_at(ps, "unknown machine (define it with a machine line first):", tok[1]);
    if (!s)
        return fail_at(ps, "unknown shape (define it with a shape line first):", tok[3]);
    pg_contest_entry *grown = realloc(c->e, sizeof *c->e * (size_t)(c->n + 1));
    if (!grown)
        return pg_fail("out of memory reading %s", ps->path);
    c->e = grown;
    pg_contest_entry *e = &c->e[c->n];
    memset(e, 0, sizeof *e);
    if (copy_name(ps, e->machine, sizeof e->machine, tok[1]) || copy_name(ps, e->design, sizeof e->design, tok[2]) ||
        copy_name(ps, e->shape, sizeof e->shape, tok[3]))
        return -1;
    for (int i = 0; i < c->n; i++)
        if (!strcmp(c->e[i].machine, e->machine) && !strcmp(c->e[i].design, e->design) &&
            !strcmp(c->e[i].shape, e->shape))
            return fail_at(ps, "a second entry for the same machine, design and shape:", e->design);
    if (strlen(tok[4]) >= sizeof e->schedule)
        return fail_at(ps, "schedule path too long", NULL);
    strcpy(e->schedule, tok[4]);
    for (int i = 5; i < n; i++) {
        if (strlen(tok[i]) >= sizeof e->sets[0] || !strchr(tok[i], '='))
            return fail_at(ps, "an override is P=V (at most 95 characters):", tok[i]);
        strcpy(e->sets[e->nsets++], tok[i]);
    }
    e->line = ps->line;
    e->bytes_per_s = m->a;
    e->flops = s->a;
    e->bytes = s->b;
    c->n++;
    return 0;
}

static int parse_line(parse_state *ps, char *line, pg_contest *c)
{
    char *hash = strchr(line, '#'), *tok[MAX_TOKENS];
    if (hash)
        *hash = 0;
    int n = split(line, tok);
    if (n == 0 || !strcmp(tok[0], "doc"))
        return 0;
    if (!strcmp(tok[0], "contest")) {
        if (n != 2 || c->name[0])
            return fail_at(ps, "one 'contest NAME' line", NULL);
        return copy_name(ps, c->name, sizeof c->name, tok[1]);
    }
    if (!strcmp(tok[0], "machine") || !strcmp(tok[0], "shape"))
        return parse_def(ps, tok, n, tok[0][0] == 'm');
    if (!strcmp(tok[0], "entry"))
        return parse_entry(ps, tok, n, c);
    return fail_at(ps, "unknown directive (contest, doc, machine, shape, entry):", tok[0]);
}

int pg_contest_load(const char *path, pg_contest *c)
{
    memset(c, 0, sizeof *c);
    parse_state ps = {.path = path};
    char line[MAX_LINE];
    int rc = -1;
    FILE *f = pg_input_fopen(path, "contest file");
    if (!f)
        return -1;
    snprintf(c->path, sizeof c->path, "%s", path);
    while (fgets(line, sizeof line, f)) {
        ps.line++;
        if (!strchr(line, '\n') && !feof(f)) {
            fail_at(&ps, "line longer than 4,095 characters", NULL);
            goto done;
        }
        if (parse_line(&ps, line, c))
            goto done;
    }
    if (ferror(f)) {
        pg_fail("%s: read error", path);
        goto done;
    }
    if (!c->name[0] || c->n == 0) {
        pg_fail("%s: a contest needs a 'contest NAME' line and at least one entry", path);
        goto done;
    }
    rc = 0;
done:
    fclose(f);
    if (rc)
        pg_contest_free(c);
    return rc;
}

static pg_contest_entry *find_entry(pg_contest *c, char **tok)
{
    for (int i = 0; i < c->n; i++)
        if (!strcmp(c->e[i].machine, tok[1]) && !strcmp(c->e[i].design, tok[2]) && !strcmp(c->e[i].shape, tok[3]))
            return &c->e[i];
    return NULL;
}

/* measured MACHINE DESIGN SHAPE wall_us=W [period=P] [WAIT=MEAN]... */
static int parse_measured(parse_state *ps, char *line, pg_contest *c)
{
    char *hash = strchr(line, '#'), *tok[MAX_TOKENS];
    if (hash)
        *hash = 0;
    int n = split(line, tok);
    if (n == 0)
        return 0;
    if (strcmp(tok[0], "measured") || n < 5)
        return fail_at(ps, "usage: measured MACHINE DESIGN SHAPE wall_us=W [period=P] [WAIT=MEAN]...", NULL);
    pg_contest_entry *e = find_entry(c, tok);
    if (!e)
        return fail_at(ps, "no such entry in the contest:", tok[2]);
    if (e->measured)
        return fail_at(ps, "measured twice:", tok[2]);
    if (key_number(ps, tok[4], "wall_us", &e->m_wall_us) != 0)
        return fail_at(ps, "the fifth field is wall_us=MICROSECONDS, got", tok[4]);
    e->m_period = NAN;
    for (int i = 5; i < n; i++) {
        const char *eq = strchr(tok[i], '=');
        if (!eq || eq == tok[i] || (size_t)(eq - tok[i]) >= PG_CONTEST_NAME)
            return fail_at(ps, "expected NAME=VALUE, got", tok[i]);
        char key[PG_CONTEST_NAME];
        memcpy(key, tok[i], (size_t)(eq - tok[i]));
        key[eq - tok[i]] = 0;
        double v;
        if (key_value(ps, tok[i], key, 1, &v) != 0)
            return -1;
        if (!strcmp(key, "period")) {
            e->m_period = v;
        } else {
            if (e->m_nwaits == PG_CONTEST_MAX_WAITS)
                return fail_at(ps, "too many waits", NULL);
            strcpy(e->m_wait_names[e->m_nwaits], key);
            e->m_waits[e->m_nwaits++] = v;
        }
    }
    e->measured = 1;
    return 0;
}

int pg_contest_load_measured(const char *path, pg_contest *c)
{
    parse_state ps = {.path = path};
    char line[MAX_LINE];
    int rc = -1;
    FILE *f = pg_input_fopen(path, "measured results");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f)) {
        ps.line++;
        if (parse_measured(&ps, line, c))
            goto done;
    }
    rc = ferror(f) ? pg_fail("%s: read error", path) : 0;
done:
    fclose(f);
    return rc;
}

void pg_contest_free(pg_contest *c)
{
    free(c->e);
    memset(c, 0, sizeof *c);
}
