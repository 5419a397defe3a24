/* The timeline picture: for a few SMs, every warp role's phases over a
 * window of tiles, measured above and the model's simulated trace below,
 * waits shaded.  Both come as pg_trace, so one drawing serves both. */
#ifndef PG_VERIFY_TIMELINE_H
#define PG_VERIFY_TIMELINE_H

#include "runfile.h"

/* `measured`: the run's trace; `model`: a simulated trace (may be NULL);
 * `nsm`: SMs of the measured trace to draw; `ntiles`: tiles in the window
 * (counted on each SM's first consumer/mma lane). */
int pg_timeline_svg(const char *path, const char *title, const pg_trace *measured, const pg_trace *model, int nsm,
                    int ntiles);
/* ... with the schedule's period phase (the serialized step; NULL: mainloop,
 * kloop, or the trace's first work phase): windows start at a tile of the
 * first warp that runs it, in measured and model alike, so their rows line
 * up; the x axis says where each window sits and which tiles it shows. */
int pg_timeline_svg_period(const char *path, const char *title, const pg_trace *measured, const pg_trace *model,
                           int nsm, int ntiles, const char *period);
/* The same with lane prefixes of the caller's choosing (e.g. two model
 * traces: "baseline" above, "F38" below); b may be NULL. */
int pg_timeline_svg_pair(const char *path, const char *title, const pg_trace *a, const char *a_label, int nsm_a,
                         const pg_trace *b, const char *b_label, int ntiles);

#endif
