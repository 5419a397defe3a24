#include "phases.h"

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
