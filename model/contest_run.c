/* Design contests: predicting, ranking and reporting the entries
 * (contest.h). */
#include <math.h>
#include <string.h>

#include "contest.h"
#include "pg_error.h"

static int same_group(const pg_contest_entry *a, const pg_contest_entry *b)
{
    return !strcmp(a->machine, b->machine) && !strcmp(a->shape, b->shape);
}

static int predict_entry(pg_contest_entry *e, const pg_model_opts *o)
{
    pg_schedule *s = NULL;
    int rc = -1;
    if (pg_schedule_load(e->schedule, &s))
        goto done;
    for (int i = 0; i < e->nsets; i++)
        if (pg_schedule_set(s, e->sets[i], 0))
            goto done;
    char flops[64];
    snprintf(flops, sizeof flops, "flops=%.17g", e->flops);
    if (pg_schedule_set(s, flops, 0) || pg_model_predict(s, o, &e->pr))
        goto done;
    e->model_us = e->pr.wall_ms * 1e3;
    e->dram_us = e->bytes / e->bytes_per_s * 1e6;
    e->dram_bound = e->dram_us > e->model_us;
    e->predicted_us = e->dram_bound ? e->dram_us : e->model_us;
    rc = 0;
done:
    pg_schedule_free(s);
    if (rc)
        pg_fail_context("entry %s %s %s (line %d)", e->machine, e->design, e->shape, e->line);
    return rc;
}

/* 1 + the entries of e's group strictly faster by `value` */
static int rank_in_group(const pg_contest *c, const pg_contest_entry *e, int measured)
{
    int r = 1;
    for (int i = 0; i < c->n; i++) {
        const pg_contest_entry *x = &c->e[i];
        if (x == e || !same_group(x, e) || (measured && !x->measured))
            continue;
        if (measured ? x->m_wall_us < e->m_wall_us : x->predicted_us < e->predicted_us)
            r++;
    }
    return r;
}

int pg_contest_predict(pg_contest *c, const pg_model_opts *o)
{
    for (int i = 0; i < c->n; i++)
        if (predict_entry(&c->e[i], o))
            return -1;
    for (int i = 0; i < c->n; i++) {
        c->e[i].rank = rank_in_group(c, &c->e[i], 0);
        c->e[i].measured_rank = c->e[i].measured ? rank_in_group(c, &c->e[i], 1) : 0;
    }
    return 0;
}

/* the number of measured entries in e's group */
static int group_measured(const pg_contest *c, const pg_contest_entry *e)
{
    int n = 0;
    for (int i = 0; i < c->n; i++)
        n += same_group(&c->e[i], e) && c->e[i].measured;
    return n;
}

/* the first entry of its group (groups are reported once, in file order) */
static int first_of_group(const pg_contest *c, int k)
{
    for (int i = 0; i < k; i++)
        if (same_group(&c->e[i], &c->e[k]))
            return 0;
    return 1;
}

/* 1 if two measured entries of k's group are ordered differently by the
 * prediction and by the measurement */
static int group_order_missed(const pg_contest *c, int k)
{
    for (int i = 0; i < c->n; i++)
        for (int j = 0; j < c->n; j++) {
            const pg_contest_entry *a = &c->e[i], *b = &c->e[j];
            if (!same_group(a, &c->e[k]) || !same_group(b, &c->e[k]) || !a->measured || !b->measured)
                continue;
            if (a->predicted_us < b->predicted_us && !(a->m_wall_us < b->m_wall_us))
                return 1;
        }
    return 0;
}

int pg_contest_rank_misses(const pg_contest *c, int *groups_checked)
{
    int misses = 0;
    *groups_checked = 0;
    for (int k = 0; k < c->n; k++) {
        if (!first_of_group(c, k) || group_measured(c, &c->e[k]) < 2)
            continue;
        (*groups_checked)++;
        misses += group_order_missed(c, k);
    }
    return *groups_checked ? misses : -1;
}

static double measured_wait(const pg_contest_entry *e, const char *name)
{
    for (int i = 0; i < e->m_nwaits; i++)
        if (!strcmp(e->m_wait_names[i], name))
            return e->m_waits[i];
    return NAN;
}

static void print_entry(const pg_contest_entry *e, const pg_contest_entry *winner, FILE *f)
{
    fprintf(f, "  %d  %-10s %11.0f %10.1f %9.1f %10.1f %+7.1f%%  %-16s", e->rank, e->design, e->pr.tile_period,
            e->model_us, e->dram_us, e->predicted_us, 100 * (e->predicted_us / winner->predicted_us - 1),
            e->dram_bound ? "DRAM" : e->pr.bottleneck);
    if (e->measured) {
        fprintf(f, " | %d %9.1f %+7.1f%%", e->measured_rank, e->m_wall_us, 100 * (e->predicted_us / e->m_wall_us - 1));
        if (isfinite(e->m_period))
            fprintf(f, "  period %.0f (%+.1f%%)", e->m_period, 100 * (e->pr.tile_period / e->m_period - 1));
    }
    fputc('\n', f);
    for (int w = 0; w < e->pr.nwaits; w++) {
        const double m = measured_wait(e, e->pr.waits[w].name);
        if (!e->measured && w > 0)
            break; /* before measurement: the first wait only, to keep the table short */
        fprintf(f, "       %-20s predicted %9.0f", e->pr.waits[w].name, e->pr.waits[w].mean);
        if (isfinite(m))
            fprintf(f, "   measured %9.0f", m);
        fputc('\n', f);
    }
}

int pg_contest_print(const pg_contest *c, FILE *f)
{
    fprintf(f, "contest %s (%s): the prediction is the larger of the model's wall clock and the DRAM floor\n", c->name,
            c->path);
    for (int k = 0; k < c->n; k++) {
        if (!first_of_group(c, k))
            continue;
        const pg_contest_entry *winner = NULL;
        for (int i = 0; i < c->n; i++)
            if (same_group(&c->e[i], &c->e[k]) && c->e[i].rank == 1 && !winner)
                winner = &c->e[i];
        fprintf(f, "\n%s, %s\n  #  %-10s %11s %10s %9s %10s %8s  %-16s%s\n", c->e[k].machine, c->e[k].shape, "design",
                "period", "model us", "DRAM us", "predicted", "vs best", "bound by",
                group_measured(c, &c->e[k]) ? " | #  measured  pred/meas" : "");
        for (int r = 1; r <= c->n; r++)
            for (int i = 0; i < c->n; i++)
                if (same_group(&c->e[i], &c->e[k]) && c->e[i].rank == r)
                    print_entry(&c->e[i], winner, f);
    }
    int checked, misses = pg_contest_rank_misses(c, &checked);
    if (misses >= 0)
        fprintf(f, "\nranking: %d of %d machine/shape groups with two or more measured designs ordered as predicted\n",
                checked - misses, checked);
    return ferror(f) ? pg_fail("writing the contest report") : 0;
}

static void json_entry(const pg_contest_entry *e, pg_json *j)
{
    pg_json_object_begin(j);
    pg_json_kv_string(j, "machine", e->machine);
    pg_json_kv_string(j, "design", e->design);
    pg_json_kv_string(j, "shape", e->shape);
    pg_json_kv_string(j, "schedule", e->schedule);
    pg_json_kv_int(j, "rank", e->rank);
    pg_json_kv_number(j, "tile_period", e->pr.tile_period);
    pg_json_kv_number(j, "model_us", e->model_us);
    pg_json_kv_number(j, "dram_us", e->dram_us);
    pg_json_kv_number(j, "predicted_us", e->predicted_us);
    pg_json_kv_string(j, "bound_by", e->dram_bound ? "DRAM" : e->pr.bottleneck);
    pg_json_key(j, "waits");
    pg_json_object_begin(j);
    for (int w = 0; w < e->pr.nwaits; w++)
        pg_json_kv_number(j, e->pr.waits[w].name, e->pr.waits[w].mean);
    pg_json_object_end(j);
    if (e->measured) {
        pg_json_key(j, "measured");
        pg_json_object_begin(j);
        pg_json_kv_int(j, "rank", e->measured_rank);
        pg_json_kv_number(j, "wall_us", e->m_wall_us);
        pg_json_kv_number(j, "tile_period", e->m_period);
        for (int w = 0; w < e->m_nwaits; w++)
            pg_json_kv_number(j, e->m_wait_names[w], e->m_waits[w]);
        pg_json_object_end(j);
    }
    pg_json_object_end(j);
}

void pg_contest_json(const pg_contest *c, pg_json *j)
{
    int checked, misses = pg_contest_rank_misses(c, &checked);
    pg_json_object_begin(j);
    pg_json_kv_string(j, "contest", c->name);
    pg_json_kv_string(j, "file", c->path);
    if (misses >= 0) {
        pg_json_kv_int(j, "groups_measured", checked);
        pg_json_kv_int(j, "groups_ranked_as_predicted", checked - misses);
    }
    pg_json_key(j, "entries");
    pg_json_array_begin(j);
    for (int i = 0; i < c->n; i++)
        json_entry(&c->e[i], j);
    pg_json_array_end(j);
    pg_json_object_end(j);
}
