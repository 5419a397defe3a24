/* The schedule's optional lines, one row each: their directive and the
 * hooks sched_parse.c (parse, resolve), sched.c (`LINE.KEY=` settings) and
 * sched_write.c (write-back) call by name.  A new line adds its row here
 * (its hooks in its own LINE_parse.c) and, if it fits something, one in
 * fit_lines.c. */
#include <string.h>

#include "sched.h"

/* Rows resolve in this order: `tmaqueue` and `storewin` on the k-block loop
 * `kblocks` resolved, `dramq` on the `bandwidth` line's phase, `contend` last (its
 * solve=tile check reads the `stretch` and `storenear` lines' steps). */
const sch_line sch_lines[] = {
    {"kblocks", sch_kblocks_parse, sch_kblocks_resolve, sch_kblocks_check_order, sch_kblocks_override,
     sch_kblocks_write},
    {"tmaqueue", sch_tmaqueue_parse, sch_tmaqueue_resolve, NULL, sch_tmaqueue_override, sch_tmaqueue_write},
    {"storewin", sch_storewin_parse, sch_storewin_resolve, NULL, sch_storewin_override, sch_storewin_write},
    {"bandwidth", sch_bandwidth_parse, NULL, sch_bandwidth_resolve, sch_bandwidth_override, sch_bandwidth_write},
    {"dramq", sch_dramq_parse, NULL, sch_dramq_resolve, sch_dramq_override, NULL},
    {"l2reuse", sch_l2reuse_parse, NULL, sch_l2reuse_resolve, sch_l2reuse_override, sch_l2reuse_write},
    {"warmup", sch_warmup_parse, NULL, NULL, sch_warmup_override, sch_warmup_write},
    {"stretch", sch_stretch_parse, NULL, sch_stretch_resolve, sch_stretch_override, sch_stretch_write},
    {"storenear", sch_storenear_parse, NULL, sch_storenear_resolve, sch_storenear_override, sch_storenear_write},
    {"inflight", sch_inflight_parse, sch_inflight_resolve, NULL, sch_inflight_override, sch_inflight_write},
    {"streamwall", sch_streamwall_parse, NULL, sch_streamwall_resolve, sch_streamwall_override, sch_streamwall_write},
    {"colshare", sch_colshare_parse, NULL, sch_colshare_resolve, sch_colshare_override, sch_colshare_write},
    {"rowfirst", sch_rowfirst_parse, NULL, sch_rowfirst_resolve, sch_rowfirst_override, sch_rowfirst_write},
    {"contend", sch_contend_parse, NULL, sch_contend_resolve, sch_contend_override, sch_contend_write},
    {"clock", sch_clock_parse, NULL, sch_clock_resolve, sch_clock_override, sch_clock_write},
};
const int sch_nlines = (int)(sizeof sch_lines / sizeof sch_lines[0]);

const sch_line *sch_line_find(const char *name)
{
    for (int i = 0; i < sch_nlines; i++)
        if (strcmp(sch_lines[i].name, name) == 0)
            return &sch_lines[i];
    return NULL;
}
