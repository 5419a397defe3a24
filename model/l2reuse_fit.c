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

#include "engine.h"
#include "fit.h"
#include "model.h"

int64_t l2reuse_run_l2(const pg_run *run)
{
    return run->kernel.l2_bytes > 0 ? run->kernel.l2_bytes : fit_gpu_l2(run->kernel.device);
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
