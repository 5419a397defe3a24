/* The `bandwidth` line's schedule side: parse, resolve its phase,
 * `bandwidth.KEY` overrides, write-back.  What the line does (the stall
 * that grows with the DRAM share) is in predict.c; its fit in fit_lines.c. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pg_error.h"
#include "sched.h"

#define FAIL(line, ...) (pg_fail(__VA_ARGS__), pg_fail_context("%s:%d", s->origin, (line)))

int sch_bandwidth_parse(pg_schedule *s, const char *const *tok, int ntok, const char *text, int line)
{
    static const char *const keys[] = {"compute", "bytes_per_tile", "bytes_per_s", "calibrated_period", "work",
                                       "cal_bytes_per_tile", "cal_units", "floor", "traffic", NULL};
    (void)text;
    if (ntok < 2 || sch_kv_check(s, tok, ntok, 2, keys, line))
        return ntok < 2 ? FAIL(line, "usage: bandwidth PHASE compute= bytes_per_tile= bytes_per_s= "
                                     "calibrated_period=")
                        : -1;
    snprintf(s->bw_spec, sizeof s->bw_spec, "%s", tok[1]);
    if (sch_kv_num(s, tok, ntok, 2, "compute", &s->bw_compute, line) != 1 ||
        sch_kv_num(s, tok, ntok, 2, "bytes_per_tile", &s->bw_bytes_per_tile, line) != 1 ||
        sch_kv_num(s, tok, ntok, 2, "bytes_per_s", &s->bw_bytes_per_s, line) != 1 ||
        sch_kv_num(s, tok, ntok, 2, "calibrated_period", &s->bw_calibrated_period, line) != 1)
        return FAIL(line, "bandwidth needs compute=, bytes_per_tile=, bytes_per_s= and calibrated_period=");
    s->bw_work = 0;
    s->bw_cal_bytes_per_tile = s->bw_bytes_per_tile;
    s->bw_cal_units = 0;
    const char *floor_key = sch_kv(tok, ntok, 2, "floor");
    if (floor_key && strcmp(floor_key, "device") != 0 && strcmp(floor_key, "written") != 0)
        return FAIL(line, "bandwidth: floor must be device or written (got '%s')", floor_key);
    s->bw_floor_device = floor_key && strcmp(floor_key, "device") == 0;
    const char *traffic = sch_kv(tok, ntok, 2, "traffic");
    s->bw_traffic = !traffic || strcmp(traffic, "dram") == 0 ? SCH_TRAFFIC_DRAM
                    : strcmp(traffic, "dram_k") == 0         ? SCH_TRAFFIC_DRAM_K
                    : strcmp(traffic, "kblocks") == 0        ? SCH_TRAFFIC_KBLOCKS
                                                             : -1;
    if (s->bw_traffic < 0)
        return FAIL(line, "bandwidth: traffic must be dram, dram_k or kblocks (got '%s')", traffic);
    if (sch_kv_num(s, tok, ntok, 2, "work", &s->bw_work, line) < 0 ||
        sch_kv_num(s, tok, ntok, 2, "cal_bytes_per_tile", &s->bw_cal_bytes_per_tile, line) < 0 ||
        sch_kv_num(s, tok, ntok, 2, "cal_units", &s->bw_cal_units, line) < 0)
        return -1;
    if (!(s->bw_cal_units >= 0))
        return FAIL(line, "bandwidth: cal_units must be >= 0 (0: the machine's units)");
    if (!(s->bw_bytes_per_s > 0) || !(s->bw_calibrated_period > 0) || !(s->bw_compute >= 0) ||
        !(s->bw_cal_bytes_per_tile >= 0))
        return FAIL(line, "bandwidth: bytes_per_s and calibrated_period must be positive");
    s->bw_line = line;
    return 0;
}

int sch_bandwidth_resolve(pg_schedule *s)
{
    if (!s->bw_spec[0])
        return 0;
    s->bw_dist = sch_find_dist(s, s->bw_spec);
    if (s->bw_dist < 0 || s->dists[s->bw_dist].kind != DKIND_PHASE)
        return FAIL(s->bw_line, "bandwidth: '%s' is not a phase of this schedule", s->bw_spec);
    return 0;
}

int sch_bandwidth_override(pg_schedule *s, const char *stat, int relative, double value, const char *param)
{
    double *f = strcmp(stat, "compute") == 0             ? &s->bw_compute
                : strcmp(stat, "bytes_per_tile") == 0    ? &s->bw_bytes_per_tile
                : strcmp(stat, "bytes_per_s") == 0       ? &s->bw_bytes_per_s
                : strcmp(stat, "calibrated_period") == 0 ? &s->bw_calibrated_period
                : strcmp(stat, "work") == 0              ? &s->bw_work
                : strcmp(stat, "cal_bytes_per_tile") == 0 ? &s->bw_cal_bytes_per_tile
                : strcmp(stat, "cal_units") == 0         ? &s->bw_cal_units
                                                         : NULL;
    if (!f || s->bw_dist < 0)
        return pg_fail("'%s': %s", param,
                       s->bw_dist < 0 ? "this schedule has no bandwidth line"
                                      : "bandwidth takes compute, bytes_per_tile, bytes_per_s, calibrated_period, "
                                        "work, cal_bytes_per_tile, cal_units");
    double v = relative ? *f + value : value;
    const int may_be_zero = f == &s->bw_compute || f == &s->bw_cal_units;
    if (f == &s->bw_work ? !isfinite(v) || v < -s->bw_compute : !(v >= 0) || (!may_be_zero && !(v > 0)))
        return pg_fail("'%s' must be %s", param, f == &s->bw_work ? "finite and at least -compute" : "positive");
    *f = v;
    return 0;
}

double sch_bandwidth_cal_units(const pg_schedule *s)
{
    return s->bw_cal_units > 0 ? s->bw_cal_units : s->machine.units;
}

int sch_bandwidth_write(FILE *f, const pg_schedule *s, char *text)
{
    (void)text;
    if (s->bw_dist < 0)
        return 0;
    fprintf(f, "bandwidth %s compute=%.9g bytes_per_tile=%.9g bytes_per_s=%.9g calibrated_period=%.9g",
            s->dists[s->bw_dist].name, s->bw_compute, s->bw_bytes_per_tile, s->bw_bytes_per_s,
            s->bw_calibrated_period);
    if (s->bw_work != 0)
        fprintf(f, " work=%.9g", s->bw_work);
    if (s->bw_cal_bytes_per_tile != s->bw_bytes_per_tile)
        fprintf(f, " cal_bytes_per_tile=%.9g", s->bw_cal_bytes_per_tile);
    if (s->bw_cal_units > 0)
        fprintf(f, " cal_units=%.9g", s->bw_cal_units);
    if (s->bw_floor_device)
        fputs(" floor=device", f);
    if (s->bw_traffic != SCH_TRAFFIC_DRAM)
        fputs(s->bw_traffic == SCH_TRAFFIC_DRAM_K ? " traffic=dram_k" : " traffic=kblocks", f);
    fputc('\n', f);
    return 1;
}
