/* What a run's shape and grid are to a schedule: the fit sets them from
 * the calibration run, and `pegemm model validate` from each run it
 * predicts (a what-if at another M, N or K), by the same definitions. */
#include "fit.h"

/* A once and D (bf16) once, over the problem's tiles: B and the combined
 * rows are read from L2 (B: 1.2 MB at K = 768; the combined rows: P rows),
 * and a row block of A is read from DRAM by one CTA of the group that
 * shares it, so more column blocks (a larger N) share each A byte more. */
double fit_bandwidth_bytes_per_tile(const pg_shape *sh, double tiles)
{
    return ((double)sh->M * (double)sh->K + 2.0 * (double)sh->M * (double)sh->N) / tiles;
}

/* The SMs the run's tiles ran on: its SM count, or the CTAs its trace
 * anchored where fewer ran (bres at N = 1,536: 16 groups of 8 column
 * blocks, 128 CTAs on 132 SMs); a kernel with more CTAs than SMs has the
 * SM count. */
int fit_run_units(const pg_run *run)
{
    const int sms = run->kernel.sm_count;
    const int64_t ctas = run->trace.n_sm;
    if (ctas > 0 && (sms <= 0 || ctas < sms))
        return (int)ctas;
    return sms;
}
