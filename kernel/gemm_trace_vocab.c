/* The names of our kernels' roles and phases (gemm_trace_vocab.h). */
#include "gemm_trace_vocab.h"

#include "phases.h"

static const char *const k_roles[PG_TR_ROLES] = {
    [PG_TR_PRODUCER] = "producer",
    [PG_TR_CONSUMER] = "consumer",
};
static const char *const k_phases[PG_TR_PHASES] = {
    [PG_TR_ORDER_WAIT] = "order_wait",         [PG_TR_LOAD_WAIT] = "load_wait",
    [PG_TR_MAINLOOP] = "mainloop",             [PG_TR_EPILOGUE_REGS] = "epilogue_regs",
    [PG_TR_EPILOGUE_STORE] = "epilogue_store", [PG_TR_PRODUCER_WAIT] = "producer_wait",
    [PG_TR_PRODUCER_ISSUE] = "producer_issue",
};
static const unsigned char k_waits[PG_TR_PHASES] = {
    [PG_TR_ORDER_WAIT] = 1, [PG_TR_LOAD_WAIT] = 1, [PG_TR_PRODUCER_WAIT] = 1,
};

const pgtrace_vocab pg_gemm_trace_vocab = {PG_TR_ROLES, k_roles, PG_TR_PHASES, k_phases, k_waits};

/* The committed run files and the model know these codes. */
_Static_assert(PG_TR_PRODUCER == (int)PG_ROLE_PRODUCER && PG_TR_CONSUMER == (int)PG_ROLE_CONSUMER, "role codes");
_Static_assert(PG_TR_ORDER_WAIT == (int)PG_PH_ORDER_WAIT && PG_TR_PRODUCER_ISSUE == (int)PG_PH_PRODUCER_ISSUE &&
                   PG_TR_MAINLOOP == (int)PG_PH_MAINLOOP && PG_TR_PRODUCER_WAIT == (int)PG_PH_PRODUCER_WAIT,
               "phase codes");
