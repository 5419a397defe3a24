/* What a run's shape and grid are to a schedule: the fit sets them from
 * the calibration run, and `pegemm model validate` from each run it
 * predicts (a what-if at another M, N or K), by the same definitions. */
#include "fit.h"

/* The tiles of the problem in the kernel's tile (edge tiles whole) and
 * its work, 2 M N K: the `machine` line's tiles= and flops=. */
double fit_run_tiles(const pg_shape *sh, const pg_kernel_info *k)
{
    return (double)((sh->M + k->tile_m - 1) / k->tile_m) * (double)((sh->N + k->tile_n - 1) / k->tile_n);
}

double fit_run_flops(const pg_shape *sh) { return 2.0 * (double)sh->M * (double)sh->N * (double)sh->K; }

/* A once and D (bf16) once, over the problem's tiles: B and the combined
 * rows are read from L2 (B: 1.2 MB at K = 768; the combined rows: P rows),
 * and a row block of A is read from DRAM by one CTA of the group that
 * shares it, so more column blocks (a larger N) share each A byte more. */
double fit_bandwidth_bytes_per_tile(const pg_shape *sh, double tiles)
{
    return ((double)sh->M * (double)sh->K + 2.0 * (double)sh->M * (double)sh->N) / tiles;
}

/* The SMs the run's tiles ran on: its SM count, or fewer where its trace
 * has SMs no CTA ran on (anchor -1: bres at N = 1,536 runs 16 groups of 8
 * column blocks, 128 CTAs on 132 SMs). */
int fit_run_units(const pg_run *run)
{
    const pg_trace *t = &run->trace;
    int ran = 0;
    for (int64_t i = 0; t->anchor_clock && i < t->n_sm; i++)
        ran += t->anchor_clock[i] >= 0;
    if (ran > 0 && (run->kernel.sm_count <= 0 || ran < run->kernel.sm_count))
        return ran;
    return run->kernel.sm_count;
}
