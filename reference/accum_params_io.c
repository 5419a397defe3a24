/* Accumulation parameter sets as text: the field names and values a user
 * writes (--accum BASE,field=value) and a run file stores field by field,
 * and which named mode a set equals. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accum_params.h"
#include "pg_error.h"

static const char *const k_kinds[] = {"exact", "fp32", "block"};
static const char *const k_rounds[] = {"trunc", "rne"};
static const char *const k_entries[] = {"inside", "after"};

const char *pg_sum_kind_name(pg_sum_kind k) { return k >= 0 && k <= PG_SUM_BLOCK ? k_kinds[k] : "?"; }
const char *pg_rounding_name(pg_rounding r) { return r >= 0 && r <= PG_RND_RNE ? k_rounds[r] : "?"; }
const char *pg_c_entry_name(pg_c_entry c) { return c >= 0 && c <= PG_C_AFTER ? k_entries[c] : "?"; }

static int find(const char *s, const char *const *names, int n, const char *what)
{
    for (int i = 0; i < n; i++)
        if (s != NULL && strcmp(s, names[i]) == 0)
            return i;
    char list[64] = "";
    for (int i = 0; i < n; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", names[i]);
    pg_fail("unknown %s '%s' (valid: %s)", what, s ? s : "(null)", list);
    return -1;
}

int pg_sum_kind_parse(const char *s, pg_sum_kind *out)
{
    int i = find(s, k_kinds, 3, "accumulation kind");
    return i < 0 ? -1 : (*out = (pg_sum_kind)i, 0);
}

int pg_rounding_parse(const char *s, pg_rounding *out)
{
    int i = find(s, k_rounds, 2, "rounding");
    return i < 0 ? -1 : (*out = (pg_rounding)i, 0);
}

int pg_c_entry_parse(const char *s, pg_c_entry *out)
{
    int i = find(s, k_entries, 2, "accumulator entry");
    return i < 0 ? -1 : (*out = (pg_c_entry)i, 0);
}

/* Two sets compute the same bits: the exact and fp32 kinds use no other
 * field; tensor-core blocks use all of them. */
static int same_model(const pg_accum_params *p, const pg_accum_params *q)
{
    if (p->kind != q->kind)
        return 0;
    if (p->kind != PG_SUM_BLOCK)
        return 1;
    return p->block_k == q->block_k && p->align_frac_bits == q->align_frac_bits && p->align_round == q->align_round &&
           p->out_frac_bits == q->out_frac_bits && p->out_round == q->out_round && p->promote_k == q->promote_k &&
           p->c_entry == q->c_entry;
}

int pg_accum_params_mode(const pg_accum_params *p)
{
    for (int m = 0; m < PG_ACC_COUNT; m++)
        if (same_model(p, pg_accum_preset((pg_accum_mode)m)))
            return m;
    return -1;
}

static int parse_int(const char *field, const char *v, int *out)
{
    char *end = NULL;
    long x = strtol(v, &end, 10);
    if (*v == '\0' || *end != '\0' || x < 0 || x > 4096)
        return pg_fail("accumulation field %s = '%s' is not an integer in [0, 4096]", field, v);
    *out = (int)x;
    return 0;
}

/* One "field=value" into p. */
static int set_field(pg_accum_params *p, const char *field, const char *v)
{
    if (!strcmp(field, "kind"))
        return pg_sum_kind_parse(v, &p->kind);
    if (!strcmp(field, "block_k"))
        return parse_int(field, v, &p->block_k);
    if (!strcmp(field, "align_frac_bits") || !strcmp(field, "F"))
        return parse_int(field, v, &p->align_frac_bits);
    if (!strcmp(field, "align_round"))
        return pg_rounding_parse(v, &p->align_round);
    if (!strcmp(field, "out_frac_bits") || !strcmp(field, "O"))
        return parse_int(field, v, &p->out_frac_bits);
    if (!strcmp(field, "out_round"))
        return pg_rounding_parse(v, &p->out_round);
    if (!strcmp(field, "promote_k"))
        return parse_int(field, v, &p->promote_k);
    if (!strcmp(field, "c_entry"))
        return pg_c_entry_parse(v, &p->c_entry);
    return pg_fail("unknown accumulation field '%s' (valid: kind, block_k, align_frac_bits, align_round, "
                   "out_frac_bits, out_round, promote_k, c_entry)", field);
}

int pg_accum_params_parse(const char *spec, pg_accum_params *out)
{
    char buf[256];
    if (spec == NULL || strlen(spec) >= sizeof buf)
        return pg_fail("bad accumulation '%s' (expected PRESET[,field=value...])", spec ? spec : "(null)");
    strcpy(buf, spec);
    char *save = NULL, *tok = strtok_r(buf, ",", &save);
    pg_accum_mode base;
    if (tok == NULL || pg_accum_parse(tok, &base) != 0)
        return pg_fail_context("accumulation '%s'", spec);
    pg_accum_params p = *pg_accum_preset(base);
    int changed = 0;
    while ((tok = strtok_r(NULL, ",", &save)) != NULL) {
        char *eq = strchr(tok, '=');
        if (eq == NULL)
            return pg_fail("accumulation '%s': '%s' is not field=value", spec, tok);
        *eq = '\0';
        if (set_field(&p, tok, eq + 1) != 0)
            return pg_fail_context("accumulation '%s'", spec);
        changed = 1;
    }
    if (changed) {
        int m = pg_accum_params_mode(&p);
        if (m >= 0) {
            p = *pg_accum_preset((pg_accum_mode)m); /* a preset spelt field by field is that preset */
        } else {
            p.name = "custom";
            p.hw_checked = 0;
            p.source = "user-given parameters";
        }
    }
    if (pg_accum_params_check(&p) != 0)
        return -1;
    *out = p;
    return 0;
}
