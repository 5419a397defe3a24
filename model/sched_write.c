/* Schedules as text again: loading from a string, cloning, and writing a
 * schedule (with its current options, overrides and fitted distributions)
 * back out as a .sched file in the same format. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_ext.h"
#include "pg_error.h"
#include "pg_outfile.h"
#include "sched.h"

int pg_schedule_load_text(const char *text, const char *origin, pg_schedule **out)
{
    *out = NULL;
    pg_schedule *s = calloc(1, sizeof *s);
    if (!s)
        return pg_fail("out of memory");
    s->text = strdup(text);
    snprintf(s->origin, sizeof s->origin, "%s", origin);
    if (!s->text || sch_load_options(s) || sch_compile(s)) {
        if (!s->text)
            pg_fail("out of memory");
        pg_schedule_free(s);
        return -1;
    }
    *out = s;
    return 0;
}

int pg_schedule_clone(const pg_schedule *s, pg_schedule **out)
{
    *out = NULL;
    pg_schedule *c = malloc(sizeof *c);
    if (!c)
        return pg_fail("out of memory");
    memcpy(c, s, sizeof *c);
    c->text = strdup(s->text);
    c->table = NULL;
    if (!c->text) {
        free(c);
        return pg_fail("out of memory");
    }
    if (s->table) {
        c->table = malloc(sizeof *c->table);
        if (c->table) {
            memcpy(c->table, s->table, sizeof *c->table);
            size_t bytes = sizeof(double) * (size_t)s->table->rows * (size_t)s->table->cols;
            c->table->v = malloc(bytes ? bytes : 1);
            if (c->table->v)
                memcpy(c->table->v, s->table->v, bytes);
        }
        if (!c->table || !c->table->v) {
            if (c->table)
                free(c->table);
            c->table = NULL;
            pg_schedule_free(c);
            return pg_fail("out of memory");
        }
    }
    *out = c;
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* A trace-fitted (empirical) distribution as summaries: mean, min, p95, max. */
static int empirical_summary(const pg_schedule *s, int di, double *mean, double *mn, double *p95, double *mx)
{
    const sch_dist *d = &s->dists[di];
    int64_t n = 0;
    double *v = malloc(sizeof(double) * (size_t)(s->table->rows * s->table->cols + 1));
    if (!v)
        return pg_fail("out of memory");
    for (int c = 0; c < s->table->cols; c++) {
        size_t L = strlen(d->name);
        if (strncmp(s->table->colname[c], d->name, L) || s->table->colname[c][L] != '#')
            continue;
        for (int64_t r = 0; r < s->table->rows; r++)
            v[n++] = s->table->v[r * s->table->cols + c] + d->shift;
    }
    qsort(v, (size_t)n, sizeof(double), cmp_double);
    double sum = 0;
    for (int64_t i = 0; i < n; i++)
        sum += v[i];
    *mean = n ? sum / (double)n : NAN;
    *mn = n ? v[0] : NAN;
    *mx = n ? v[n - 1] : NAN;
    *p95 = n ? v[(int64_t)floor(0.95 * (double)(n - 1))] : NAN;
    free(v);
    return 0;
}

static void write_dist(FILE *f, const pg_schedule *s, int di)
{
    const sch_dist *d = &s->dists[di];
    double emean = NAN, emin = NAN, ep95 = NAN, emax = NAN;
    if (d->kind == DKIND_MEMORY && d->family == DIST_EMPIRICAL &&
        empirical_summary(s, di, &emean, &emin, &ep95, &emax) == 0) {
        /* replayed from a trace: written as its summary (a normal through the
         * mean and the upper tail) */
        double xfer = d->bytes / d->bytes_per_cycle;
        fprintf(f, "memory %s dram_latency=%.6g bytes=%.6g bytes_per_cycle=%.6g sd=%.6g   # fitted from a trace\n",
                d->name, emean - xfer > 0 ? emean - xfer : 0, emean - xfer > 0 ? d->bytes : 0, d->bytes_per_cycle,
                ep95 > emean ? (ep95 - emean) / 1.645 : 0);
        return;
    }
    if (d->kind == DKIND_MEMORY) {
        fprintf(f, "memory %s dram_latency=%.6g bytes=%.6g bytes_per_cycle=%.6g", d->name, d->dram_latency, d->bytes,
                d->bytes_per_cycle);
        if (d->family == DIST_LOGNORMAL)
            fprintf(f, " min=%.6g p95=%.6g", d->min, d->p95);
        else if (isfinite(d->sd) && d->sd > 0)
            fprintf(f, " sd=%.6g", d->sd);
        fprintf(f, "\n");
        return;
    }
    const char *kw = d->kind == DKIND_PHASE ? "phase" : "latency";
    if (d->family == DIST_EMPIRICAL) {
        double mean = NAN, mn = NAN, p95 = NAN, mx = NAN;
        if (empirical_summary(s, di, &mean, &mn, &p95, &mx) == 0) {
            sch_dist t = *d;
            t.family = DIST_LOGNORMAL;
            t.mean = mean;
            t.min = mn;
            t.p95 = p95;
            t.max = mx > p95 ? mx : NAN;
            if (dist_fit(&t) == 0) {
                fprintf(f, "%s %s family=lognormal mean=%.6g min=%.6g p95=%.6g", kw, d->name, mean, mn, p95);
                if (isfinite(t.max))
                    fprintf(f, " max=%.6g", t.max);
                fprintf(f, "   # fitted from a trace\n");
            } else {
                fprintf(f, "%s %s family=normal mean=%.6g sd=%.6g min=%.6g max=%.6g   # fitted from a trace\n", kw,
                        d->name, mean, (p95 - mean) / 1.645 > 0 ? (p95 - mean) / 1.645 : 0, mn, mx);
            }
            return;
        }
    }
    static const char *const fam[] = {"const", "normal", "lognormal", "const"};
    fprintf(f, "%s %s family=%s mean=%.6g", kw, d->name, fam[d->family], d->mean);
    if (isfinite(d->min))
        fprintf(f, " min=%.6g", d->min);
    if (isfinite(d->p95) && d->family == DIST_LOGNORMAL)
        fprintf(f, " p95=%.6g", d->p95);
    if (isfinite(d->max))
        fprintf(f, " max=%.6g", d->max);
    if (isfinite(d->sd) && d->family == DIST_NORMAL)
        fprintf(f, " sd=%.6g", d->sd);
    fprintf(f, "\n");
}

int pg_schedule_write(const pg_schedule *s, FILE *f, const char *comment)
{
    const char *p = s->text;
    if (comment) {
        fprintf(f, "# %s\n", comment);
        /* the schedule's own first line, where it says the same of an
         * earlier fit (a fitted schedule fitted again): what it says no
         * longer holds (the words before " from " alike, then " from " or
         * the line's end: a line of the user's that goes on otherwise stays) */
        const char *from = strstr(comment, " from ");
        const size_t n = from ? (size_t)(from - comment) : strlen(comment);
        const char *after = p + 2 + n;
        if (p[0] == '#' && p[1] == ' ' && strncmp(p + 2, comment, n) == 0 &&
            (from ? strncmp(after, " from ", 6) == 0 : *after == '\n' || *after == '\0')) {
            const char *e = strchr(p, '\n');
            p = e ? e + 1 : p + strlen(p);
        }
    }
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char line[1024], w1[64] = "", w2[64] = "";
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line - 1 ? len : sizeof line - 1), p);
        sscanf(line, "%63s %63s", w1, w2);
        int done = 0;
        const sch_line *ln = NULL;
        if (strcmp(w1, "option") == 0) {
            for (int i = 0; i < s->noptions; i++)
                if (strcmp(s->options[i].name, w2) == 0) {
                    fprintf(f, "option %s %s%s%s\n", w2, s->options[i].value, s->options[i].choices[0] ? " " : "",
                            s->options[i].choices);
                    done = 1;
                }
        } else if (strcmp(w1, "phase") == 0 || strcmp(w1, "memory") == 0 || strcmp(w1, "latency") == 0) {
            int di = sch_find_dist(s, w2);
            if (di >= 0) {
                write_dist(f, s, di);
                done = 1;
            }
        } else if ((ln = sch_line_find(w1)) && ln->write) {
            done = ln->write(f, s, line);
        } else if (strcmp(w1, "machine") == 0) {
            fprintf(f, "machine units=%.17g tiles=%.17g clock_hz=%.17g flops=%.17g prologue=%.17g", s->machine.units,
                    s->machine.tiles, s->machine.clock_hz, s->machine.flops, s->machine.prologue);
            if (s->machine.mem_clock_hz > 0)
                fprintf(f, " mem_clock_hz=%.17g", s->machine.mem_clock_hz);
            if (s->machine.whole_run)
                fprintf(f, " whole_run=1");
            fputc('\n', f);
            done = 1;
        }
        if (!done)
            fprintf(f, "%s\n", line);
        p = e ? e + 1 : p + len;
    }
    return ferror(f) ? pg_fail("write error") : 0;
}

int pg_schedule_save(const pg_schedule *s, const char *path, const char *comment)
{
    pg_outfile o;
    if (pg_outfile_open(&o, path))
        return -1;
    if (pg_schedule_write(s, o.f, comment)) {
        pg_outfile_abort(&o);
        return pg_fail_context("writing %s", path);
    }
    return pg_outfile_commit(&o);
}

const char *pg_schedule_text(const pg_schedule *s) { return s->text; }
