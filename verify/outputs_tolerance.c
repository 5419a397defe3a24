/* Tolerances for kernels that are not meant to be bit-exact. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out_values.h"
#include "outputs.h"
#include "pg_error.h"

static int parse_number(const char *s, const char *what, double *out)
{
    char *end = NULL;
    double v = strtod(s, &end);
    if (*s == '\0' || end == s || *end != '\0' || !isfinite(v) || v < 0)
        return pg_fail("bad tolerance: %s '%s' is not a finite number >= 0", what, s);
    *out = v;
    return 0;
}

int pg_out_tolerance_parse(const char *s, pg_out_tolerance *t)
{
    pg_out_tolerance r = {PG_TOL_EXACT, 0, 0.0, 0.0};
    const char *usage = "(expected exact, ulp:N, rel:X or rel:X,abs:Y)";
    if (s == NULL)
        return pg_fail("missing tolerance %s", usage);
    if (strcmp(s, "exact") == 0) {
        *t = r;
        return 0;
    }
    if (strncmp(s, "ulp:", 4) == 0) {
        char *end = NULL;
        long v = strtol(s + 4, &end, 10);
        if (s[4] == '\0' || *end != '\0' || v < 0 || v > INT32_MAX - 1)
            return pg_fail("bad tolerance '%s': N in ulp:N must be an integer >= 0", s);
        r.kind = PG_TOL_ULP;
        r.ulp = (int32_t)v;
        *t = r;
        return 0;
    }
    if (strncmp(s, "rel:", 4) == 0) {
        char buf[64];
        if (strlen(s + 4) >= sizeof buf)
            return pg_fail("bad tolerance '%s' %s", s, usage);
        strcpy(buf, s + 4);
        char *comma = strchr(buf, ',');
        if (comma != NULL) {
            *comma = '\0';
            if (strncmp(comma + 1, "abs:", 4) != 0)
                return pg_fail("bad tolerance '%s' %s", s, usage);
            if (parse_number(comma + 5, "abs", &r.abs) != 0)
                return -1;
        }
        if (parse_number(buf, "rel", &r.rel) != 0)
            return -1;
        r.kind = PG_TOL_REL;
        *t = r;
        return 0;
    }
    return pg_fail("bad tolerance '%s' %s", s, usage);
}

void pg_out_tolerance_text(const pg_out_tolerance *t, char *buf, size_t n)
{
    if (t->kind == PG_TOL_ULP)
        snprintf(buf, n, "within %d ulp", (int)t->ulp);
    else if (t->kind == PG_TOL_REL)
        snprintf(buf, n, "within rel %.3g, abs %.3g", t->rel, t->abs);
    else
        snprintf(buf, n, "bit-exact");
}

int pg_out_tolerance_pass(const pg_out_tolerance *t, pg_out_dtype out, uint32_t g, uint32_t w)
{
    if (g == w)
        return 1;
    double x = pg_out_value(out, g), y = pg_out_value(out, w);
    if (isnan(x) || isnan(y))
        return isnan(x) && isnan(y) && t->kind != PG_TOL_EXACT;
    switch (t->kind) {
    case PG_TOL_ULP: return pg_out_ulp_distance(out, g, w) <= t->ulp;
    case PG_TOL_REL: {
        if (isinf(x) || isinf(y))
            return x == y;
        double d = fabs(x - y);
        return d <= t->abs || d <= t->rel * fabs(y);
    }
    default: return 0;
    }
}
