/* The `dramq` line: `dramq LATENCY... qscale=Q bytes_per_s=B
 * cal_bytes_per_s=B0 clock_cal=HZ on=0|1`.
 *
 * A load's latency is not a constant of the kernel: DRAM time is fixed in
 * nanoseconds while the SM clock moves with the work (docs/experiments.md
 * M21, why 2), and a load queues behind the others in flight, more so the
 * busier DRAM is (M21, why 1, 3, 4).  Each listed latency (per-tile replayed
 * or parametric) is multiplied by
 *
 *     clock_hz / clock_cal  x  (1 + Q g(rho)) / (1 + Q g(rho_cal)),   g(r) = r / (1 - r)
 *
 * rho = the DRAM share at the period the model runs at: the `bandwidth`
 * line's compulsory bytes per tile x units x clock / (B x period), B the
 * machine's copy floor; rho_cal the same at the calibration run's measured
 * period, clock (clock_cal, set by `pegemm model fit`) and bandwidth B0.
 * So at the calibration point the factor is 1 and the fitted per-tile
 * latencies replay as measured.  Q (the queue's scale against the unloaded
 * latency, an M/M/1 wait of service time Q x the unloaded latency) is a
 * design constant, not fitted per run: 0.15 from M21's H100/H200 pairs of
 * zero-delay runs (in-sample for M22).  The `bandwidth` line's fixed point
 * finds rho; with `dramq` on, its phase mean stays at the calibration and
 * the k-block loads move through this factor instead (predict.c).
 *
 * This file is the line's engine part; its parse is in dramq_parse.c, its
 * fit in dramq_fit.c. */
#include "engine.h"
#include "sched.h"

double dramq_rho(double bytes_per_tile, double units, double period, double bytes_per_s, double clock_hz)
{
    const double r = bytes_per_tile * units * clock_hz / (bytes_per_s * period);
    return r < 0.95 ? r : 0.95; /* a queue at rho -> 1 is unbounded: cap as the bandwidth line does */
}

static int listed(const pg_schedule *s, int dist)
{
    for (int i = 0; i < s->dq_n; i++)
        if (s->dq_dist[i] == dist)
            return 1;
    return 0;
}

int dramq_moves_loop(const pg_schedule *s)
{
    return s->dq_on && s->kb_node >= 0 && listed(s, s->slots[s->kb_load_slot].dist);
}

static double queue(double q, double rho) { return 1 + q * rho / (1 - rho); }

/* the calibration's share: its traffic on its own SMs at its period and clock */
static double cal_rho(const pg_schedule *s)
{
    return dramq_rho(s->bw_cal_bytes_per_tile, sch_bandwidth_cal_units(s), s->bw_calibrated_period,
                     s->dq_cal_bytes_per_s, s->dq_clock_cal);
}

double dramq_factor(const pg_schedule *s, int dist)
{
    if (!s->dq_on || !s->dq_rho_set)
        return 1;
    if (!listed(s, dist))
        return 1;
    return s->machine.clock_hz / s->dq_clock_cal * queue(s->dq_qscale, s->dq_rho) / queue(s->dq_qscale, cal_rho(s));
}

double dramq_queue_ratio(const pg_schedule *s)
{
    if (!s->dq_on || !s->dq_rho_set)
        return 1;
    const double rho_cal = cal_rho(s);
    const double g = s->dq_rho / (1 - s->dq_rho), g_cal = rho_cal / (1 - rho_cal);
    return g_cal > 0 ? g / g_cal : 1;
}
