/* What a run differs in from the calibration run, as what-ifs on the
 * schedule fitted to the calibration (validate.h).  The settings come from
 * the run files' /kernel and /problem attributes, so a probe is predicted
 * from what was run, not from how its file is named. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"
#include "pg_error.h"
#include "sched.h"
#include "validate.h"

static void add(pg_whatif *w, const char *fmt, ...)
{
    if (w->n == PG_WHATIF_MAX) {
        snprintf(w->why_not, sizeof w->why_not, "more than %d differences", PG_WHATIF_MAX);
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->set[w->n++], PG_WHATIF_LEN, fmt, ap);
    va_end(ap);
}

static void note(char *buf, size_t cap, const char *what)
{
    size_t len = strlen(buf);
    snprintf(buf + len, cap - len, "%s%s", len ? ", " : "", what);
}

/* The kinds of change a row's what-ifs make (for the report's per-kind
 * counts: issue 12 asks for the model held on each kind), set where each
 * difference is found and named in this order. */
enum {
    CHANGE_DELAY = 1,
    CHANGE_M = 2,
    CHANGE_N = 4,
    CHANGE_K = 8,
    CHANGE_SMS = 16,
    CHANGE_STRUCTURE = 32,
    CHANGE_GPU = 64,
    N_CHANGE_KINDS = 7
};

static void kind_name(unsigned change, pg_whatif *w)
{
    static const char *const k_names[N_CHANGE_KINDS] = {"delay", "M", "N", "K", "SMs", "structure", "GPU"};
    w->kind[0] = '\0';
    for (int b = 0; b < N_CHANGE_KINDS; b++)
        if (change & (1u << b)) {
            const size_t len = strlen(w->kind);
            snprintf(w->kind + len, sizeof w->kind - len, "%s%s", len ? "+" : "", k_names[b]);
        }
    if (!w->kind[0])
        snprintf(w->kind, sizeof w->kind, "none");
}

/* "s" and digits: a stage-count token */
static int stage_token(const char *tok)
{
    if (tok[0] != 's' || !tok[1])
        return 0;
    for (const char *c = tok + 1; *c; c++)
        if (*c < '0' || *c > '9')
            return 0;
    return 1;
}

/* "pf" and digits: the L2 prefetch's distance in tiles (cli_run.c names a
 * build "-pfD" where D is not the variant's default); 0 when tok is not one */
static int prefetch_token(const char *tok)
{
    if (strncmp(tok, "pf", 2) != 0 || !tok[2])
        return 0;
    for (const char *c = tok + 2; *c; c++)
        if (*c < '0' || *c > '9')
            return 0;
    const long d = strtol(tok + 2, NULL, 10);
    return d > 0 && d < 1000 ? (int)d : 0;
}

/* The kernel name's prefetch distance (0: none named), any token */
static int prefetch_of(const pg_kernel_info *k)
{
    char name[sizeof k->name];
    snprintf(name, sizeof name, "%s", k->name);
    char *save = NULL;
    int d = 0;
    for (char *tok = strtok_r(name, "-", &save); tok; tok = strtok_r(NULL, "-", &save)) {
        const int t = prefetch_token(tok);
        d = t ? t : d;
    }
    return d;
}

/* The calibration's build prefetches: its name says so, or the fit read
 * the option off its trace (the kernel before M142, whose plain name hid a
 * prefetch: M146). */
static int cal_prefetches(const pg_run *cal, const pg_schedule *fit)
{
    char v[32];
    if (prefetch_of(&cal->kernel) > 0)
        return 1;
    return pg_schedule_option(fit, fit->rf_option, v, sizeof v) == 0 && atof(v) != 0;
}

/* The kernel's name without what a what-if can change: its stage count
 * ("-s4"; the stages attribute is compared instead: runs of session 7 and
 * before named a pingpong build "-s4" whatever its ring), its prefetch
 * distance ("-pf2": prefetch_whatifs says whether the schedule can tell)
 * and the k extent of its tile ("64x192x128" -> "64x192"), so that bres64
 * (64x192x64-s8) is bres (64x192x128-s4) with another ring while bresmc2
 * stays another kernel. */
static void kernel_family(const pg_kernel_info *k, char *out, size_t cap)
{
    char name[sizeof k->name];
    snprintf(name, sizeof name, "%s", k->name);
    out[0] = '\0';
    char *save = NULL;
    for (char *tok = strtok_r(name, "-", &save); tok; tok = strtok_r(NULL, "-", &save)) {
        int tm, tn, tk, used = 0;
        if (stage_token(tok) || prefetch_token(tok))
            continue;
        if (sscanf(tok, "%dx%dx%d%n", &tm, &tn, &tk, &used) == 3 && tok[used] == '\0')
            snprintf(tok, strlen(tok) + 1, "%dx%d", tm, tn);
        const size_t len = strlen(out);
        snprintf(out + len, cap - len, "%s%s", len ? "-" : "", tok);
    }
}

/* Another kernel, or a problem the schedule has no term for: why_not. */
static int same_kernel(const pg_run *cal, const pg_run *run, pg_whatif *w)
{
    const pg_kernel_info *a = &cal->kernel, *b = &run->kernel;
    char fa[sizeof a->name], fb[sizeof b->name];
    kernel_family(a, fa, sizeof fa);
    kernel_family(b, fb, sizeof fb);
    if (strcmp(fa, fb) != 0 || a->tile_m != b->tile_m || a->tile_n != b->tile_n || a->consumers != b->consumers)
        snprintf(w->why_not, sizeof w->why_not,
                 "another kernel ('%s' vs the calibration's '%s'): the model predicts its calibration's kernel at "
                 "other settings",
                 b->name, a->name);
    else if (a->cluster > 0 && b->cluster > 0 && a->cluster != b->cluster) /* both recorded (M162) */
        snprintf(w->why_not, sizeof w->why_not,
                 "another cluster size (%d CTAs per cluster vs the calibration's %d): the model predicts its "
                 "calibration's kernel at other settings",
                 b->cluster, a->cluster);
    else if (run->problem.shape.K % b->tile_k != 0 || cal->problem.shape.K % a->tile_k != 0)
        snprintf(w->why_not, sizeof w->why_not, "K = %lld is not a whole number of the kernel's %d-deep k-blocks",
                 (long long)run->problem.shape.K, b->tile_k);
    return w->why_not[0] == '\0';
}

/* The `bandwidth` line's bytes of a tile of the run where its N or K
 * differs from the calibration's (-1 for "the fitted line's": the same
 * shape), as its traffic= says (sched.h, M82): the compulsory DRAM bytes
 * of its shape (dram); of its K at the calibration's N, the same at
 * another N (dram_k); the fitted bytes x K'/K (kblocks). */
static double run_bytes_per_tile(const pg_run *cal, const pg_run *run, const pg_schedule *fit)
{
    const pg_shape *c = &cal->problem.shape;
    pg_shape r = run->problem.shape;
    if (fit->bw_traffic != SCH_TRAFFIC_DRAM) {
        if (r.K == c->K || c->K <= 0)
            return -1;
        if (fit->bw_traffic == SCH_TRAFFIC_KBLOCKS)
            return fit->bw_bytes_per_tile * (double)r.K / (double)c->K;
        r.N = c->N;
    } else if (r.N == c->N && r.K == c->K) {
        return -1;
    }
    return fit_bandwidth_bytes_per_tile(&r, fit_run_tiles(&r, &run->kernel));
}

/* Another K (or N with partial tiles): each tile does another amount of
 * work; the lines that scale with it say how (fit_lines_work_sets: the
 * `kblocks` loop's compute as the tile's, after its count is set; on a
 * phase no loop replays, `bandwidth.work`). */
static void work_whatifs(const pg_run *cal, const pg_run *run, const pg_schedule *fit, pg_whatif *w)
{
    const double per_tile_c = fit_run_flops(&cal->problem.shape) / fit_run_tiles(&cal->problem.shape, &cal->kernel);
    const double per_tile_r = fit_run_flops(&run->problem.shape) / fit_run_tiles(&run->problem.shape, &run->kernel);
    if (!(per_tile_c > 0) || per_tile_r == per_tile_c)
        return;
    char sets[PG_WHATIF_MAX][FIT_SET_LEN];
    const int n = fit_lines_work_sets(fit, per_tile_r / per_tile_c, sets, PG_WHATIF_MAX);
    for (int i = 0; i < n; i++)
        add(w, "%s", sets[i]);
}

/* The problem's size, the grid and the kernel's ring: M and N move the
 * tile count and the work, K each tile's k-blocks and work, N and K the
 * DRAM bytes of a tile (fit_shape.c's definitions, as the fit's); the
 * units are the SMs that ran tiles (fewer CTAs than SMs at some N). */
static unsigned shape_whatifs(const pg_run *cal, const pg_run *run, const pg_schedule *fit, pg_whatif *w)
{
    const pg_shape *c = &cal->problem.shape, *r = &run->problem.shape;
    const pg_kernel_info *kc = &cal->kernel, *kr = &run->kernel;
    const unsigned change = (r->M != c->M ? CHANGE_M : 0) | (r->N != c->N ? CHANGE_N : 0) | (r->K != c->K ? CHANGE_K : 0);
    unsigned machine = kr->sm_count != kc->sm_count ? CHANGE_SMS : 0; /* SMs, ring */
    if (change & (CHANGE_M | CHANGE_N))
        add(w, "tiles=%.17g", fit_run_tiles(r, kr));
    if (change)
        add(w, "flops=%.17g", fit_run_flops(r));
    const int units = fit_run_units(run);
    if (units != fit_run_units(cal)) {
        machine |= CHANGE_SMS;
        add(w, "units=%d", units);
    }
    /* k-blocks before stages: the schedule checks the ring against them */
    if (r->K / kr->tile_k != c->K / kc->tile_k) {
        machine |= kr->tile_k != kc->tile_k ? CHANGE_STRUCTURE : 0;
        add(w, "kblocks=%lld", (long long)(r->K / kr->tile_k));
    }
    if (kr->stages != kc->stages) {
        machine |= CHANGE_STRUCTURE;
        add(w, "stages=%d", kr->stages);
    }
    work_whatifs(cal, run, fit, w);
    const double bytes = run_bytes_per_tile(cal, run, fit);
    if (bytes >= 0 && fit->bw_dist >= 0)
        add(w, "bandwidth.bytes_per_tile=%.17g", bytes);
    return change | machine;
}

/* Fewer or more SMs sharing the same GPU's DRAM (a grid that does not
 * fill the GPU): a schedule's `dramq` line queues the loads it lists at
 * the run's share, as for another GPU but at the one floor, and holds
 * them in ns at the SM clock the run ran at (its /kernel sm_clock_hz:
 * under the power cap 66 CTAs ran at 1.79 GHz where 132 ran at 1.62).
 * M104 (one H200, post hoc): pingpong at 66 / 34 CTAs -3.5 / -3.6% without
 * the line, -2.6 / -3.0% with it, +0.7% at 66 with the run's clock too; its
 * first load fell 1,848 -> 1,433 cycles.  On one GPU the line stays as the
 * schedule has it under the other probes, whose share moves with the SM's
 * own timing (M22; h100-pingpong's is on for a build that does not
 * prefetch A, M159).
 * Another GPU: device_whatifs switches it on. */
static void units_whatifs(const pg_run *cal, const pg_run *run, const pg_schedule *fit, pg_whatif *w)
{
    if (!fit->dq_line || w->other_device || fit_run_units(run) == fit_run_units(cal))
        return;
    add(w, "dramq.on=1");
    if (run->kernel.sm_clock_hz > 0)
        add(w, "clock_hz=%.17g", run->kernel.sm_clock_hz);
}

/* Another GPU.  A schedule with a `dramq` line names the loads that queue
 * for DRAM: across machines they move through its queue at the other
 * machine's copy floor (the line is switched on, its share taken against
 * each machine's floor), and the `bandwidth` line keeps its calibration
 * (docs/experiments.md M35: on probe sets 1-7 that moved the first load's
 * wait, and pingpong's ring, as the H200 and the H100 differ, where the
 * bandwidth transform shortened bres's k-block loads, which do not move).
 * A schedule without one: the fitted bandwidth term's DRAM share moved to
 * the other machine's floor (M20: bytes per tile over the floors' ratio;
 * the calibration's share stays at its own bytes, cal_bytes_per_tile).
 * The core-clock terms stay in cycles.  Without floors, or either line, it
 * cannot be predicted. */
static void device_whatifs(const pg_run *cal, const pg_run *run, const pg_schedule *fit, const pg_floors *fl,
                           pg_whatif *w)
{
    if (strcmp(cal->kernel.device, run->kernel.device) == 0)
        return;
    w->other_device = 1;
    if (!fl || fl->cal_bytes_per_s <= 0 || fl->other_bytes_per_s <= 0) {
        snprintf(w->why_not, sizeof w->why_not,
                 "another GPU ('%s' vs '%s'): give --floors CAL,OTHER (each machine's copy floor in GB/s, "
                 "`pegemm bench`)",
                 run->kernel.device, cal->kernel.device);
        return;
    }
    if (fit->dq_line) {
        add(w, "dramq.on=1"); /* the line's own key: whatever option, if any, drives it */
        add(w, "dramq.bytes_per_s=%.17g", fl->other_bytes_per_s);
        add(w, "dramq.cal_bytes_per_s=%.17g", fl->cal_bytes_per_s);
        return;
    }
    if (fit->bw_dist < 0) {
        snprintf(w->why_not, sizeof w->why_not,
                 "another GPU, and schedule %s has neither a dramq nor a bandwidth line to carry the floors", fit->name);
        return;
    }
    const double ratio = fl->other_bytes_per_s / fl->cal_bytes_per_s;
    add(w, "bandwidth.bytes_per_s=%.17g", fl->cal_bytes_per_s);
    /* the run's own bytes per tile (shape_whatifs); the calibration's share
     * stays its own (cal_bytes_per_tile at its period): before M40 the
     * period was divided too, to undo the share's being taken from the
     * what-if's bytes */
    const double bytes = run_bytes_per_tile(cal, run, fit);
    add(w, "bandwidth.bytes_per_tile=%.17g", (bytes >= 0 ? bytes : fit->bw_bytes_per_tile) / ratio);
}

/* The `l2reuse` line (model/l2reuse.c): the run's GPU's L2 where the run
 * file records it (`/kernel l2_bytes`) or its GPU is one whose L2 our runs
 * recorded (l2reuse_run_l2), else the fit's.  Its working set is
 * tiles x the `bandwidth` line's bytes per tile; where device_whatifs
 * divided those by the floors' ratio (another GPU, no `dramq` line), the
 * L2 and the calibration's working set are divided alike, so the share
 * kept stays the run's.  Nothing is added where nothing differs. */
static void l2_whatifs(const pg_run *run, const pg_schedule *fit, const pg_floors *fl, pg_whatif *w)
{
    if (!fit->l2_line)
        return;
    double scale = 1;
    if (w->other_device && !fit->dq_line && fl && fl->cal_bytes_per_s > 0 && fl->other_bytes_per_s > 0)
        scale = fl->cal_bytes_per_s / fl->other_bytes_per_s;
    const int64_t l2 = l2reuse_run_l2(run);
    const double C = l2 > 0 ? (double)l2 : fit->l2_bytes;
    if (C != fit->l2_bytes || scale != 1)
        add(w, "l2reuse.bytes=%.17g", C * scale);
    if (scale != 1)
        add(w, "l2reuse.cal_bytes=%.17g", fit->l2_cal_bytes * scale);
}

/* The `streamwall` line (model/streamwall.c) on another GPU: that GPU's
 * floors, where the line takes the device's (floor=device) and pegemm
 * measured it (fit_gpus.c), else the fit's moved by the copy floors' ratio
 * (the stream floor is 0.90 of the copy floor on both GPUs, M76); nothing
 * where neither is known. */
static void wall_whatifs(const pg_run *run, const pg_schedule *fit, const pg_floors *fl, pg_whatif *w)
{
    if (!fit->sw_line || !w->other_device)
        return;
    const int known = fit->sw_floor_device && fit_gpu_stream_floor(run->kernel.device) > 0;
    const double ratio = fl && fl->cal_bytes_per_s > 0 && fl->other_bytes_per_s > 0
                             ? fl->other_bytes_per_s / fl->cal_bytes_per_s
                             : 0;
    if (!known && !(ratio > 0))
        return;
    add(w, "streamwall.bytes_per_s=%.17g",
        known ? fit_gpu_stream_floor(run->kernel.device) : fit->sw_bytes_per_s * ratio);
    if (fit->sw_copy_bytes_per_s > 0)
        add(w, "streamwall.copy_bytes_per_s=%.17g",
            known ? fit_gpu_copy_floor(run->kernel.device) : fit->sw_copy_bytes_per_s * ratio);
}

/* The `colshare` line (model/colshare.c): the run's column blocks where
 * they differ from the calibration's (another N): its A loads hit the L2
 * for another share of the CTAs that read each row block. */
static void colshare_whatifs(const pg_run *run, const pg_schedule *fit, pg_whatif *w)
{
    const double blocks = colshare_run_blocks(run);
    if (fit->cs_line && blocks >= 1 && blocks != fit->cs_cal_blocks)
        add(w, "colshare.blocks=%.17g", blocks);
}

/* The `rowfirst` line (model/rowfirst.c): the run's column blocks where
 * they differ from the calibration's: another share of its tiles is a row
 * block's first. */
static void rowfirst_whatifs(const pg_run *run, const pg_schedule *fit, pg_whatif *w)
{
    const double blocks = colshare_run_blocks(run);
    if (fit->rf_line && fit->rf_on && blocks >= 1 && blocks != fit->rf_cal_blocks)
        add(w, "rowfirst.blocks=%.17g", blocks);
}

/* A build that prefetches A (name token "pfD", D >= 1) where the
 * calibration's does not, or the reverse (M148): the `rowfirst` line's
 * option refitted to the run's (1 with the prefetch) and its prefetch=
 * cycles added on each row-first tile (taken away for the reverse).  One
 * distance is as good as another to the line: each prefetches one tile's A
 * per tile.  A schedule whose line has no option or no prefetch= cannot
 * tell such builds apart: another kernel. */
static unsigned prefetch_whatifs(const pg_run *cal, const pg_run *run, const pg_schedule *fit, pg_whatif *w)
{
    const int named_c = prefetch_of(&cal->kernel) > 0, pr = prefetch_of(&run->kernel) > 0;
    if (named_c == pr)
        return 0;
    if (!fit->rf_line || !fit->rf_on || !fit->rf_option[0] || !(fit->rf_prefetch > 0)) {
        snprintf(w->why_not, sizeof w->why_not,
                 "another kernel ('%s' vs the calibration's '%s'): an A prefetch the schedule has no "
                 "`rowfirst ... option= prefetch=` line (on) for",
                 run->kernel.name, cal->kernel.name);
        return 0;
    }
    if (cal_prefetches(cal, fit) == pr)
        return 0; /* a calibration whose trace shows the prefetch its name does not */
    snprintf(w->refit, sizeof w->refit, "%s=%d", fit->rf_option, pr);
    add(w, "rowfirst.added=%.17g", pr ? fit->rf_prefetch : -fit->rf_prefetch);
    if (fit->rf_prefetch_all > 0) /* M156: the check for a tile to prefetch, on every tile */
        add(w, "rowfirst.added_all=%.17g", pr ? fit->rf_prefetch_all : -fit->rf_prefetch_all);
    return CHANGE_STRUCTURE;
}

int pg_whatif_derive(const pg_run *cal, const pg_run *run, const pg_schedule *fit, const pg_floors *floors,
                     pg_whatif *w)
{
    memset(w, 0, sizeof *w);
    if (!cal->kernel.present || !run->kernel.present)
        return pg_fail("a run without /kernel attributes: nothing says what it ran");
    if (cal->kernel.tile_k <= 0 || run->kernel.tile_k <= 0)
        return pg_fail("a run with no tile_k");
    if (!same_kernel(cal, run, w))
        return 0;
    unsigned change = prefetch_whatifs(cal, run, fit, w);
    if (w->why_not[0])
        return 0;
    change |= shape_whatifs(cal, run, fit, w);
    colshare_whatifs(run, fit, w);
    rowfirst_whatifs(run, fit, w);
    device_whatifs(cal, run, fit, floors, w);
    units_whatifs(cal, run, fit, w);
    l2_whatifs(run, fit, floors, w);
    wall_whatifs(run, fit, floors, w);
    if (w->other_device)
        change |= CHANGE_GPU;
    if (run->kernel.epi_delay != cal->kernel.epi_delay) {
        change |= CHANGE_DELAY;
        add(w, "epi_delay=%lld", (long long)run->kernel.epi_delay);
    }
    if (run->kernel.mainloop_delay != cal->kernel.mainloop_delay) {
        change |= CHANGE_DELAY;
        add(w, "mainloop_delay=%lld", (long long)run->kernel.mainloop_delay);
    }
    const pg_problem *pc = &cal->problem, *pr = &run->problem;
    if (strcmp(pc->family, pr->family) != 0)
        note(w->unmodelled, sizeof w->unmodelled, "input family");
    if (pc->seed != pr->seed)
        note(w->unmodelled, sizeof w->unmodelled, "input seed");
    if (pc->shape.P != pr->shape.P)
        note(w->unmodelled, sizeof w->unmodelled, "P");
    kind_name(change, w);
    return 0;
}
