/* Fitting an `l2reuse` line (model/l2reuse.c) to a run: only the
 * calibration's working set is the run's own (the latencies it scales are
 * the fit's; C, R and F are the machine's and the line's law).  Set twice:
 * once the run's tiles are known (fit_set_machine's scale_work hook, so the
 * fit's own replays run at h = h0, nothing moved), and again once the
 * `bandwidth` line holds the run's bytes per tile; the L2's size too,
 * where the run file records it (`/kernel l2_bytes`) or names a GPU whose
 * L2 our runs recorded.  As an override, so a
 * recompile keeps it; written back by the line's write hook. */
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "fit.h"
#include "model.h"

/* The L2 of the GPUs our runs were taken on, as `pegemm run` records it
 * (cudaDeviceProp l2CacheSize, read on probe set 18's machines): for run
 * files written before `/kernel l2_bytes` existed. */
static const struct {
    const char *device;
    int64_t l2_bytes;
} k_known_l2[] = {
    {"NVIDIA H100 80GB HBM3", 52428800},
    {"NVIDIA H200", 62914560},
};

int64_t l2reuse_run_l2(const pg_run *run)
{
    if (run->kernel.l2_bytes > 0)
        return run->kernel.l2_bytes;
    for (size_t i = 0; i < sizeof k_known_l2 / sizeof k_known_l2[0]; i++)
        if (strcmp(run->kernel.device, k_known_l2[i].device) == 0)
            return k_known_l2[i].l2_bytes;
    return 0;
}

int l2reuse_cal_set(const pg_schedule *s, double ratio, char *out, size_t cap)
{
    (void)ratio;
    if (!s->l2_line || s->bw_dist < 0)
        return 0;
    snprintf(out, cap, "l2reuse.cal_bytes=%.17g", l2reuse_working_set(s));
    return 1;
}

int l2reuse_fit(pg_schedule *s, const pg_run *run)
{
    char set[96];
    if (!l2reuse_cal_set(s, 1, set, sizeof set))
        return 0;
    if (pg_schedule_set(s, set, 0))
        return -1;
    const int64_t l2 = l2reuse_run_l2(run);
    if (l2 <= 0) /* neither recorded nor known: the schedule's size stays */
        return 0;
    snprintf(set, sizeof set, "l2reuse.bytes=%.17g", (double)l2);
    return pg_schedule_set(s, set, 0);
}
