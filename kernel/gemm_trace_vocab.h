/* Our kernels' trace vocabulary: the roles and phases the trace build
 * records (kernel/gemm_trace.cuh) as indices, and their names for the host
 * (gemm_trace_vocab.c), in the tracing kit's form (traces/kit/pgtrace_trace.h).
 * The indices are also the codes of traces/phases.h (checked in
 * gemm_trace_vocab.c), so the run files stay what they were. */
#ifndef PG_GEMM_TRACE_VOCAB_H
#define PG_GEMM_TRACE_VOCAB_H

#include "pgtrace_trace.h"

enum { PG_TR_PRODUCER = 0, PG_TR_CONSUMER = 1, PG_TR_ROLES };

/* Per (CTA, local tile) the trace build fills PG_TR_PHASES consecutive
 * slots in this order: the consumer's five, then the producer's two. */
enum {
    PG_TR_ORDER_WAIT = 0,
    PG_TR_LOAD_WAIT,
    PG_TR_MAINLOOP,
    PG_TR_EPILOGUE_REGS,
    PG_TR_EPILOGUE_STORE,
    PG_TR_PRODUCER_WAIT,
    PG_TR_PRODUCER_ISSUE,
    PG_TR_PHASES
};

#ifdef __cplusplus
extern "C" {
#endif

extern const pgtrace_vocab pg_gemm_trace_vocab;

#ifdef __cplusplus
}
#endif

#endif
