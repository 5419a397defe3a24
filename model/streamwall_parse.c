/* The `streamwall` line's schedule side: parse, resolve against the
 * `bandwidth` line and the listed latencies, `streamwall.KEY` overrides,
 * write-back.  What the line does is in streamwall.c (the wall and the
 * factor on the listed latencies) and predict.c (the factor solved at the
 * bandwidth equilibrium); its fit in fit_lines.c. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pg_error.h"
#include "sched.h"

#define SWFAIL(...) (pg_fail(__VA_ARGS__), pg_fail_context("%s:%d", s->origin, s->sw_line))
#define SW_USAGE                                                                                                       \
    "usage: streamwall LATENCY... bytes_per_s=B [copy_bytes_per_s=C write_bytes=W] [floor=device|written] [on=0|1]"

int sch_streamwall_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line)
{
    static const char *const keys[] = {"bytes_per_s", "copy_bytes_per_s", "write_bytes", "floor", "on", NULL};
    (void)text;
    if (s->sw_line)
        return pg_fail("%s:%d: only one `streamwall` line (first at line %d)", s->origin, line, s->sw_line);
    s->sw_line = line;
    s->sw_on = 1;
    s->sw_scale = 1;
    int first_key = 1;
    while (first_key < ntok && !strchr(tok[first_key], '=')) {
        if (s->sw_n == SCH_DQ_MAX)
            return SWFAIL("streamwall: at most %d latencies", SCH_DQ_MAX);
        if (strlen(tok[first_key]) >= SCH_NAME)
            return SWFAIL("streamwall: name too long");
        snprintf(s->sw_spec[s->sw_n++], SCH_NAME, "%s", tok[first_key++]);
    }
    if (s->sw_n == 0 || sch_kv_check(s, tok, ntok, first_key, keys, line))
        return s->sw_n == 0 ? SWFAIL(SW_USAGE) : -1;
    double on = 1;
    if (sch_kv_num(s, tok, ntok, first_key, "bytes_per_s", &s->sw_bytes_per_s, line) != 1 ||
        sch_kv_num(s, tok, ntok, first_key, "on", &on, line) < 0)
        return sch_kv(tok, ntok, first_key, "bytes_per_s") ? -1 : SWFAIL(SW_USAGE);
    if (!(s->sw_bytes_per_s > 0) || !isfinite(s->sw_bytes_per_s))
        return SWFAIL("streamwall: bytes_per_s must be positive (the GPU's stream floor, bytes/s)");
    const int has_copy = sch_kv_num(s, tok, ntok, first_key, "copy_bytes_per_s", &s->sw_copy_bytes_per_s, line);
    const int has_write = sch_kv_num(s, tok, ntok, first_key, "write_bytes", &s->sw_write_bytes, line);
    if (has_copy < 0 || has_write < 0)
        return -1;
    if (has_copy != has_write)
        return SWFAIL("streamwall: copy_bytes_per_s and write_bytes go together (the floor at half written, and the "
                      "bytes of a tile written)");
    if (has_copy && (!(s->sw_copy_bytes_per_s > 0) || !isfinite(s->sw_copy_bytes_per_s) || !(s->sw_write_bytes >= 0)))
        return SWFAIL("streamwall: copy_bytes_per_s must be positive and write_bytes >= 0");
    if (on != 0 && on != 1)
        return SWFAIL("streamwall: on must be 0 or 1");
    s->sw_on = (int)on;
    const char *floor_key = sch_kv(tok, ntok, first_key, "floor");
    if (floor_key && strcmp(floor_key, "device") != 0 && strcmp(floor_key, "written") != 0)
        return SWFAIL("streamwall: floor must be device or written (got '%s')", floor_key);
    s->sw_floor_device = floor_key && strcmp(floor_key, "device") == 0;
    return 0;
}

int sch_streamwall_resolve(pg_schedule *s)
{
    if (!s->sw_line)
        return 0;
    if (s->bw_dist < 0)
        return SWFAIL("streamwall needs a `bandwidth` line (its bytes per tile are the traffic the wall limits)");
    return sch_latline_resolve(s, "streamwall", s->sw_line, s->sw_spec, s->sw_n, s->sw_dist);
}

int sch_streamwall_override(pg_schedule *s, const char *stat, int relative, double value, const char *param)
{
    if (!s->sw_line)
        return pg_fail("'%s': this schedule has no streamwall line", param);
    if (strcmp(stat, "on") == 0) {
        const double v = relative ? s->sw_on + value : value;
        if (v != 0 && v != 1)
            return pg_fail("'%s': on must be 0 or 1", param);
        s->sw_on = (int)v;
        return 0;
    }
    double *f = strcmp(stat, "bytes_per_s") == 0        ? &s->sw_bytes_per_s
                : strcmp(stat, "copy_bytes_per_s") == 0 ? &s->sw_copy_bytes_per_s
                : strcmp(stat, "write_bytes") == 0      ? &s->sw_write_bytes
                                                        : NULL;
    if (!f)
        return pg_fail("'%s': streamwall takes bytes_per_s, copy_bytes_per_s, write_bytes, on", param);
    const double v = relative ? *f + value : value;
    if (f == &s->sw_write_bytes ? !(v >= 0) || !isfinite(v) : !(v > 0) || !isfinite(v))
        return pg_fail("'%s' must be %s", param, f == &s->sw_write_bytes ? ">= 0" : "positive");
    *f = v;
    return 0;
}

/* the line with its floor as it is now (fitted: the run's GPU's); `on=` as
 * written (an `on=$option` keeps its option) */
int sch_streamwall_write(FILE *f, const pg_schedule *s, char *text)
{
    if (!s->sw_line)
        return 0;
    const char *on = strstr(text, " on=");
    char onv[SCH_NAME] = "";
    if (on)
        sscanf(on + 4, "%47s", onv);
    fputs("streamwall", f);
    for (int i = 0; i < s->sw_n; i++)
        fprintf(f, " %s", s->sw_spec[i]);
    fprintf(f, " bytes_per_s=%.9g", s->sw_bytes_per_s);
    if (s->sw_copy_bytes_per_s > 0)
        fprintf(f, " copy_bytes_per_s=%.9g write_bytes=%.9g", s->sw_copy_bytes_per_s, s->sw_write_bytes);
    fprintf(f, "%s%s%s\n", s->sw_floor_device ? " floor=device" : "", on ? " on=" : "", onv);
    return 1;
}
