/* The `inflight` line: `inflight LATENCY share=F stages=S cal=N [on=0|1]`.
 * LATENCY is added after an issue event (in h100-bres the tile's first
 * load: `producer.producer_issue@0 + first_load`).  The SM's TMA loads
 * queue behind one another: per-k-block clocks (docs/experiments.md M113,
 * bres on an H200) show a load taking 670-900 cycles with none of its SM's
 * loads ahead of it, 810-1,160 behind one, 1,290-1,560 behind two and
 * 1,750-2,000 behind three.  So the first load's sample, traced behind the
 * calibration's mean count N (itself included), moves by
 * (1 - F + F n / N), n = 1 + the `kblocks` loop's loads of the two tiles
 * before still in flight at its issue.  Under a delay the loop's loads
 * have landed long before the next tile's first is issued (n ~ 1): that
 * load comes early, and the next warpgroup can start right behind the
 * other's loop (M112's pairing).  stages=S: the ring depth the share was
 * measured at; at another depth (another stage size: bres64's 4 KB) the
 * line moves nothing, a smaller load's cost not being measured.  N is set
 * by `pegemm model fit` (store_lines_fit.c), on its own replay. */
#include "engine.h"
#include "sched.h"

double inflight_extra(engine *E, int64_t k, int dist, double end, double sample)
{
    const pg_schedule *s = E->s;
    if (!s->if_line || dist != s->if_dist || k < 1 || E->kb_fit_load)
        return 0;
    /* the loops of tiles k - 1 and k - 2, as kblocks.c counts a load's queue
     * (tile 1: tile 0's alone; skipping it started the model's second
     * warpgroup a full calibrated latency late, docs/experiments.md M128) */
    const int nk = s->kb_count;
    const int n = kblocks_in_flight(E->kb_land + ((k - 1) % E->R) * nk, nk,
                                    k >= 2 ? E->kb_land + ((k - 2) % E->R) * nk : NULL, nk, end - sample);
    E->if_sum += n;
    E->if_n++;
    if (!s->if_on || E->lines_record_only || s->kb_stages != s->if_stages)
        return 0;
    return sample * (s->if_share * (n / s->if_cal - 1));
}
