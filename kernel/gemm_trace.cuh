/* The trace build's instrumentation of our kernels, through the tracing kit
 * (traces/kit/pgtrace.cuh): one path for every variant.  Each function takes
 * TRACE as a template argument; with TRACE false it is empty and reads no
 * clock, so the production instantiations carry nothing of it.
 *
 * Where the events go: the kit's compact fixed-slot mode (16 bytes per
 * phase: {begin, end}).  The kernels' schedule is fixed, so CTA c's local
 * tile i owns the PG_TR_PHASES slots starting at
 * (c * tiles_per_cta + i) * PG_TR_PHASES (consumer phases first, then the
 * producer's), and the slot alone says role, warp (i % 2 for the consumers),
 * phase and, through the schedule, the global tile: the host's slot layout
 * (gpu_trace.c) adds them, and the SM from the CTA's anchor.  No atomic, no
 * %smid and no record to build on the recording threads' paths; the host
 * gets the rows in (CTA, local tile, phase) order.  A slot past the buffer
 * is dropped and counted by the kit, never written.
 *
 * What is recorded (gemm_trace_vocab.h): per tile, by thread 0 of the
 * consumer warpgroup that ran it (warp = the warpgroup, 0 or 1),
 * order_wait | load_wait | mainloop | epilogue_regs | epilogue_store from
 * six clock64 reads t0..t5; by the producer thread (warp 0), producer_wait
 * (from the start of the tile's first stage wait) and producer_issue (from
 * the first stage free to the last load issued), stored once the next
 * tile's first load is out (trace_producer_pending).  Anchors: thread 0 at the
 * CTA's start, consumer 0 after its last store drained. */
#ifndef PG_GEMM_TRACE_CUH
#define PG_GEMM_TRACE_CUH

#include "gemm_kernel.h"
#include "gemm_trace_vocab.h"
#include "pgtrace.cuh"

template <bool TRACE> static __device__ __forceinline__ int64_t trace_clock(void)
{
    return TRACE ? pgtrace_clock() : 0;
}

/* The first slot of CTA blockIdx.x's local tile i, phase `phase`. */
static __device__ __forceinline__ int64_t trace_slot(const pg_kernel_params &p, int32_t local_tile, int phase)
{
    return ((int64_t)blockIdx.x * p.trace_tiles_per_cta + local_tile) * PG_TR_PHASES + phase;
}

/* Thread 0 of the CTA, before anything else. */
template <bool TRACE> static __device__ __forceinline__ void trace_cta_begin(const pg_kernel_params &p)
{
    if (TRACE)
        pgtrace_cta_begin(p.trace);
}

/* Consumer 0's thread 0, once its last store has drained. */
template <bool TRACE> static __device__ __forceinline__ void trace_cta_end(const pg_kernel_params &p)
{
    if (TRACE)
        pgtrace_cta_end(p.trace);
}

/* One consumer tile's five phases, t0..t5 their boundaries: five 16-byte
 * stores of {t_k, t_k+1}.  sm, warp and tile are not stored: the host's
 * slot layout (gpu_trace.c) knows them from the slot. */
template <bool TRACE>
static __device__ __forceinline__ void trace_consumer_tile(const pg_kernel_params &p, int32_t local_tile, int64_t t0,
                                                           int64_t t1, int64_t t2, int64_t t3, int64_t t4, int64_t t5)
{
    if (TRACE) {
        const int64_t bounds[6] = {t0, t1, t2, t3, t4, t5};
        pgtrace_put_spans(p.trace, trace_slot(p, local_tile, PG_TR_ORDER_WAIT), bounds, 5);
    }
}

/* The producer's wait for a free stage and its issue of one tile's loads. */
template <bool TRACE>
static __device__ __forceinline__ void trace_producer_tile(const pg_kernel_params &p, int32_t local_tile, int64_t t_wait,
                                                           int64_t t_issue, int64_t t_end)
{
    if (TRACE) {
        const int64_t bounds[3] = {t_wait, t_issue, t_end};
        pgtrace_put_spans(p.trace, trace_slot(p, local_tile, PG_TR_PRODUCER_WAIT), bounds, 2);
    }
}

/* The producer's record of a tile, held until the next tile's first stage
 * is issued (flush() from ws_produce_tile's after_first_issue) or the
 * producer is done: recorded right after the tile, its stores would sit
 * between the tile's last load and the next tile's first, where the
 * consumers wait for the producer.  The two phases are held as 32-bit
 * lengths after t_wait (the producer warpgroup runs on 40 registers; a
 * phase longer than 2^32 cycles, seconds, would be a hang).  local_tile
 * < 0: nothing held (also a tile that is run but not traced: pingpong's
 * row block past M).  Empty unless TRACE. */
template <bool TRACE> struct trace_producer_pending {
    int64_t t_wait = 0;
    uint32_t wait_cycles = 0, issue_cycles = 0;
    int32_t local_tile = -1;

    __device__ __forceinline__ void hold(int32_t local, bool traced, int64_t w, int64_t issue, int64_t end)
    {
        if (TRACE) {
            local_tile = traced ? local : -1;
            t_wait = w;
            wait_cycles = (uint32_t)(issue - w);
            issue_cycles = (uint32_t)(end - issue);
        }
    }
    __device__ __forceinline__ void flush(const pg_kernel_params &p)
    {
        if (TRACE && local_tile >= 0) {
            const int64_t t_issue = t_wait + wait_cycles;
            trace_producer_tile<TRACE>(p, local_tile, t_wait, t_issue, t_issue + issue_cycles);
            local_tile = -1;
        }
    }
};

#endif
