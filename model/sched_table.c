/* A fitted trace's per-tile table on the schedule: which column holds a
 * distribution's samples, and making those distributions empirical.  Part
 * of the schedule data (the engine and the compiler read it; fitting fills
 * the table, fit.c). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pg_error.h"
#include "sched.h"

int sch_table_column(const pg_schedule *s, int dist, int instance)
{
    if (!s->table)
        return -1;
    char want[SCH_NAME + 8];
    int n0 = -1, count = 0;
    for (int c = 0; c < s->table->cols; c++) {
        const char *cn = s->table->colname[c];
        size_t L = strlen(s->dists[dist].name);
        if (strncmp(cn, s->dists[dist].name, L) == 0 && cn[L] == '#') {
            if (atoi(cn + L + 1) == 0)
                n0 = c;
            count++;
        }
    }
    if (n0 < 0)
        return -1;
    snprintf(want, sizeof want, "%s#%d", s->dists[dist].name, instance % count);
    for (int c = 0; c < s->table->cols; c++)
        if (strcmp(s->table->colname[c], want) == 0)
            return c;
    return n0;
}

int sch_attach_table(pg_schedule *s)
{
    for (int d = 0; d < s->ndists; d++) {
        sch_dist *D = &s->dists[d];
        if (sch_table_column(s, d, 0) < 0)
            continue;
        double sum = 0;
        int64_t n = 0;
        for (int c = 0; c < s->table->cols; c++) {
            size_t L = strlen(D->name);
            if (strncmp(s->table->colname[c], D->name, L) || s->table->colname[c][L] != '#')
                continue;
            for (int64_t r = 0; r < s->table->rows; r++, n++)
                sum += s->table->v[r * s->table->cols + c];
        }
        D->family = DIST_EMPIRICAL;
        D->emp_mean = n ? sum / (double)n : 0;
        D->shift = 0;
    }
    return 0;
}

/* the table's column named `want`, -1 if it has none */
static int named_column(const pg_schedule *s, const char *want)
{
    for (int c = 0; s->table && c < s->table->cols; c++)
        if (strcmp(s->table->colname[c], want) == 0)
            return c;
    return -1;
}

/* The columns a line adds to the table are named "@TAG:LATENCY" (its first
 * latency or step), so a line's own column is found by the same name its
 * fit gave it. */
static void tagged_name(char *out, size_t n, const char *tag, const char *spec)
{
    snprintf(out, n, "@%s:%s", tag, spec);
}

static int tagged_column(const pg_schedule *s, const char *tag, const char *spec)
{
    char want[SCH_NAME + 16];
    tagged_name(want, sizeof want, tag, spec);
    return named_column(s, want);
}

/* solve=tile (contend_table_fit.c): the column of line's per-row overlaps */
void sch_table_contend_name(const sch_contend *c, char *out, size_t n) { tagged_name(out, n, "ov", c->spec[0]); }

int sch_table_contend_column(const pg_schedule *s, int line) { return tagged_column(s, "ov", s->ct[line].spec[0]); }

/* storenear own=1 (storenear_table_fit.c): the rows' traced positions */
void sch_table_storenear_name(const pg_schedule *s, char *out, size_t n) { tagged_name(out, n, "sn", s->sn_spec[0]); }

int sch_table_storenear_column(const pg_schedule *s) { return tagged_column(s, "sn", s->sn_spec[0]); }

/* rowfirst (rowfirst_fit.c): the rows' traced tile indices */
void sch_table_rowfirst_name(const pg_schedule *s, char *out, size_t n) { tagged_name(out, n, "rf", s->rf_spec[0]); }

int sch_table_rowfirst_column(const pg_schedule *s) { return tagged_column(s, "rf", s->rf_spec[0]); }

/* the table re-laid out row by row with the new column at the end */
static int add_column(sch_table *T, const char *name)
{
    if (T->cols >= SCH_MAX_NODES)
        return pg_fail("the per-tile table has no room for %s", name);
    double *v = malloc(sizeof(double) * (size_t)T->rows * (size_t)(T->cols + 1));
    if (!v)
        return pg_fail("out of memory for the per-tile table");
    for (int64_t r = 0; r < T->rows; r++)
        memcpy(v + r * (T->cols + 1), T->v + r * T->cols, sizeof(double) * (size_t)T->cols);
    free(T->v);
    T->v = v;
    snprintf(T->colname[T->cols], sizeof T->colname[0], "%s", name);
    return T->cols++;
}

int sch_table_fresh_column(pg_schedule *s, const char *name)
{
    int col = named_column(s, name);
    if (col < 0 && (col = add_column(s->table, name)) < 0)
        return -1;
    for (int64_t r = 0; r < s->table->rows; r++)
        s->table->v[r * s->table->cols + col] = NAN;
    return col;
}
