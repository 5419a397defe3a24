/* Every pgtrace.cuh call in one kernel, for ptx_off.sh. */
#include "pgtrace.cuh"

__global__ void probe(float *x, int n, pgtrace_dev tr)
{
    pgtrace_cta_begin(tr);
    const int64_t t0 = pgtrace_clock();
    const pgtrace_mark m = pgtrace_begin();
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * 2.0f + 1.0f;
    const int64_t t1 = pgtrace_clock();
    if (threadIdx.x % 32 == 0) {
        pgtrace_event ev[2] = {pgtrace_ev(0, threadIdx.x / 32, blockIdx.x, 0, t0, t1),
                               pgtrace_ev(0, threadIdx.x / 32, blockIdx.x, 1, t1, pgtrace_clock())};
        pgtrace_put_n(tr, ev, 2);
        pgtrace_put(tr, 1, 0, blockIdx.x, 2, t0, t1);
        pgtrace_end(tr, m, 1, 0, blockIdx.x, 3);
        pgtrace_put_at_n(tr, (int64_t)blockIdx.x * 2, ev, 2); /* fixed-slot mode */
        const int64_t bounds[3] = {t0, t1, pgtrace_clock()};
        pgtrace_put_spans(tr, (int64_t)blockIdx.x * 3, bounds, 2); /* compact fixed-slot mode */
        pgtrace_put_span(tr, (int64_t)blockIdx.x * 3 + 2, t0, t1);
    }
    pgtrace_cta_end(tr);
}
