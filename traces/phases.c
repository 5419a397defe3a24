#include "phases.h"

#include <stdio.h>
#include <string.h>

#include "pg_error.h"

static const char *const k_roles[PG_ROLE_COUNT] = {"producer", "consumer", "mma", "epilogue"};

static const char *const k_phases[PG_PH_COUNT] = {
    "order_wait", "load_wait", "mainloop", "epilogue_regs", "epilogue_store",
    "producer_wait", "producer_issue",
    "epi_wait", "tma0_wait", "kloop", "ml_wait", "phase1", "phase2",
};

const char *pg_role_name(pg_role r) { return (unsigned)r < PG_ROLE_COUNT ? k_roles[r] : "?"; }

const char *pg_phase_name(pg_phase p) { return (unsigned)p < PG_PH_COUNT ? k_phases[p] : "?"; }

int pg_role_parse(const char *s, pg_role *out)
{
    for (int i = 0; i < PG_ROLE_COUNT; i++)
        if (strcmp(s, k_roles[i]) == 0) {
            *out = (pg_role)i;
            return 0;
        }
    return pg_fail("unknown warp role '%s' (known: producer, consumer, mma, epilogue)", s);
}

int pg_phase_parse(const char *s, pg_phase *out)
{
    for (int i = 0; i < PG_PH_COUNT; i++)
        if (strcmp(s, k_phases[i]) == 0) {
            *out = (pg_phase)i;
            return 0;
        }
    return pg_fail("unknown phase '%s'", s);
}

int pg_phase_is_wait(pg_phase p)
{
    switch (p) {
    case PG_PH_ORDER_WAIT:
    case PG_PH_LOAD_WAIT:
    case PG_PH_PRODUCER_WAIT:
    case PG_PH_EPI_WAIT:
    case PG_PH_TMA0_WAIT:
    case PG_PH_ML_WAIT:
        return 1;
    default:
        return 0;
    }
}

void pg_vocab_pegemm(pg_vocab *v)
{
    memset(v, 0, sizeof *v);
    for (int i = 0; i < PG_ROLE_COUNT; i++)
        snprintf(v->role[i], sizeof v->role[i], "%s", k_roles[i]);
    for (int i = 0; i < PG_PH_COUNT; i++) {
        snprintf(v->phase[i], sizeof v->phase[i], "%s", k_phases[i]);
        v->phase_is_wait[i] = (unsigned char)pg_phase_is_wait((pg_phase)i);
    }
    v->n_roles = PG_ROLE_COUNT;
    v->n_phases = PG_PH_COUNT;
}

int pg_vocab_name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n >= PG_VOCAB_NAME || name[0] == '-' || name[0] == '.')
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
              c == '.'))
            return 0;
    }
    return 1;
}

static int find_name(const char (*list)[PG_VOCAB_NAME], int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(list[i], name) == 0)
            return i;
    return -1;
}

int pg_vocab_role(const pg_vocab *v, const char *name) { return find_name(v->role, v->n_roles, name); }

int pg_vocab_phase(const pg_vocab *v, const char *name) { return find_name(v->phase, v->n_phases, name); }

static int add_name(char (*list)[PG_VOCAB_NAME], int *n, int max, const char *name, const char *what)
{
    if (!pg_vocab_name_ok(name))
        return pg_fail("%s name '%s' is not valid (letters, digits, _ . -; at most %d characters)", what, name,
                       PG_VOCAB_NAME - 1);
    if (find_name(list, *n, name) >= 0)
        return pg_fail("%s '%s' is listed twice", what, name);
    if (*n >= max)
        return pg_fail("too many %ss (at most %d)", what, max);
    snprintf(list[*n], PG_VOCAB_NAME, "%s", name);
    (*n)++;
    return 0;
}

int pg_vocab_add_role(pg_vocab *v, const char *name)
{
    return add_name(v->role, &v->n_roles, PG_VOCAB_MAX_ROLES, name, "role");
}

int pg_vocab_add_phase(pg_vocab *v, const char *name, int is_wait)
{
    if (add_name(v->phase, &v->n_phases, PG_VOCAB_MAX_PHASES, name, "phase") < 0)
        return -1;
    v->phase_is_wait[v->n_phases - 1] = is_wait ? 1 : 0;
    return 0;
}

int pg_vocab_check(const pg_vocab *v)
{
    if (v->n_roles < 0 || v->n_roles > PG_VOCAB_MAX_ROLES || v->n_phases < 0 || v->n_phases > PG_VOCAB_MAX_PHASES)
        return pg_fail("vocabulary sizes out of range (%d roles, %d phases)", v->n_roles, v->n_phases);
    pg_vocab copy;
    memset(&copy, 0, sizeof copy);
    for (int i = 0; i < v->n_roles; i++)
        if (pg_vocab_add_role(&copy, v->role[i]) < 0)
            return -1;
    for (int i = 0; i < v->n_phases; i++)
        if (pg_vocab_add_phase(&copy, v->phase[i], v->phase_is_wait[i]) < 0)
            return -1;
    return 0;
}

static void list_names(const char (*list)[PG_VOCAB_NAME], int n, char *buf, size_t size)
{
    size_t used = 0;
    if (size == 0)
        return;
    buf[0] = 0;
    for (int i = 0; i < n && used < size; i++) {
        int w = snprintf(buf + used, size - used, "%s%s", i ? ", " : "", list[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

void pg_vocab_list_roles(const pg_vocab *v, char *buf, size_t n) { list_names(v->role, v->n_roles, buf, n); }

void pg_vocab_list_phases(const pg_vocab *v, char *buf, size_t n) { list_names(v->phase, v->n_phases, buf, n); }

int pg_vocab_equal(const pg_vocab *a, const pg_vocab *b)
{
    if (a->n_roles != b->n_roles || a->n_phases != b->n_phases)
        return 0;
    for (int i = 0; i < a->n_roles; i++)
        if (strcmp(a->role[i], b->role[i]) != 0)
            return 0;
    for (int i = 0; i < a->n_phases; i++)
        if (strcmp(a->phase[i], b->phase[i]) != 0 || !a->phase_is_wait[i] != !b->phase_is_wait[i])
            return 0;
    return 1;
}
