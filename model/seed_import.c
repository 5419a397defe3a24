/* The seed's calibration summaries (b200-calibration.csv) in the model's
 * form: one b200-seed schedule per row. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_ext.h"
#include "pg_error.h"
#include "pg_outpath.h"
#include "sched.h"

/* Spreads the seed's log gives (b200-kernel.md), as ratios to the mean:
 * phase 1: F15 min 3,115 and max 10,542 at mean 4,762; F24/F31 per-warp
 * p95 ~27% above the per-warp mean.  Phase 2: F15 669..2,276 at 1,071; its
 * p95 is not reported, phase 1's relative p95 is used. */
#define P1_MIN 0.654
#define P1_P95 1.27
#define P1_MAX 2.21
#define P2_MIN 0.625
#define P2_P95 1.27
#define P2_MAX 2.125

static int split_csv(char *line, char **f, int max)
{
    int n = 0;
    char *p = line;
    while (n < max) {
        f[n++] = p;
        char *c = strchr(p, ',');
        if (!c)
            break;
        *c = '\0';
        p = c + 1;
    }
    char *nl = strpbrk(f[n - 1], "\r\n");
    if (nl)
        *nl = '\0';
    return n;
}

static double num_or_nan(const char *s) { return *s ? strtod(s, NULL) : NAN; }

int pg_seed_read_csv(const char *path, pg_seed_row *rows, int max, int *n)
{
    static const char *const want[] = {"experiment", "state", "release_after", "epilogue_warps", "kloop",
                                       "tma0_wait",  "epi_wait", "phase1",      "phase2",         "ml_wait",
                                       "tile",       "wall_ms",  "regs",        "notes"};
    enum { NCOL = 14 };
    FILE *f = pg_input_fopen(path, "calibration CSV"); /* a regular file, registered as an input */
    if (!f)
        return -1;
    char line[2048], *fld[32];
    int col[NCOL], rc = -1, lineno = 1;
    *n = 0;
    if (!fgets(line, sizeof line, f)) {
        pg_fail("%s: empty file", path);
        goto done;
    }
    int nf = split_csv(line, fld, 32);
    for (int w = 0; w < NCOL; w++) {
        col[w] = -1;
        for (int i = 0; i < nf; i++)
            if (strcmp(fld[i], want[w]) == 0)
                col[w] = i;
        if (col[w] < 0) {
            pg_fail("%s:1: no column '%s' (expected the b200-calibration.csv header)", path, want[w]);
            goto done;
        }
    }
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (strspn(line, " \t\r\n") == strlen(line))
            continue;
        if (*n == max) {
            pg_fail("%s: more than %d rows", path, max);
            goto done;
        }
        int k = split_csv(line, fld, 32);
        if (k < nf) {
            pg_fail("%s:%d: %d fields, the header has %d", path, lineno, k, nf);
            goto done;
        }
        pg_seed_row *r = &rows[*n];
        memset(r, 0, sizeof *r);
        snprintf(r->experiment, sizeof r->experiment, "%s", fld[col[0]]);
        snprintf(r->state, sizeof r->state, "%s", fld[col[1]]);
        snprintf(r->release_after, sizeof r->release_after, "%s", fld[col[2]]);
        r->epilogue_warps = atoi(fld[col[3]]);
        r->kloop = num_or_nan(fld[col[4]]);
        r->tma0_wait = num_or_nan(fld[col[5]]);
        r->epi_wait = num_or_nan(fld[col[6]]);
        r->phase1 = num_or_nan(fld[col[7]]);
        r->phase2 = num_or_nan(fld[col[8]]);
        r->ml_wait = num_or_nan(fld[col[9]]);
        r->tile = num_or_nan(fld[col[10]]);
        r->wall_ms = num_or_nan(fld[col[11]]);
        r->regs = num_or_nan(fld[col[12]]);
        snprintf(r->notes, sizeof r->notes, "%s", fld[col[13]]);
        if (strcmp(r->release_after, "phase1") && strcmp(r->release_after, "phase2")) {
            pg_fail("%s:%d: release_after must be phase1 or phase2 (got '%s')", path, lineno, r->release_after);
            goto done;
        }
        if (r->epilogue_warps < 1 || r->epilogue_warps > 8 || !isfinite(r->kloop)) {
            pg_fail("%s:%d: needs epilogue_warps 1..8 and a kloop figure", path, lineno);
            goto done;
        }
        (*n)++;
    }
    if (ferror(f)) {
        pg_fail("%s: read error", path);
        goto done;
    }
    rc = 0;
done:
    fclose(f);
    return rc;
}

/* Replace the line that starts with `prefix` in text by `repl`. */
static int replace_line(char **text, const char *prefix, const char *repl)
{
    char *p = *text;
    size_t pl = strlen(prefix);
    while (p && *p) {
        if (strncmp(p, prefix, pl) == 0) {
            char *e = strchr(p, '\n');
            size_t before = (size_t)(p - *text), after = e ? strlen(e) : 0;
            char *out = malloc(before + strlen(repl) + after + 1);
            if (!out)
                return pg_fail("out of memory");
            memcpy(out, *text, before);
            strcpy(out + before, repl);
            if (e)
                strcpy(out + before + strlen(repl), e);
            free(*text);
            *text = out;
            return 0;
        }
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return pg_fail("the b200-seed schedule has no '%s' line", prefix);
}

int pg_seed_row_schedule(const pg_seed_row *rows, int n, int i, pg_schedule **out, char *note, int note_n)
{
    *out = NULL;
    note[0] = '\0';
    const pg_seed_row *r = &rows[i];
    double p1 = r->phase1, p2 = r->phase2;
    if (!isfinite(p1) || !isfinite(p2)) {
        /* the nearest row with the same release point that reports them */
        int best = -1;
        for (int j = 0; j < n; j++)
            if (j != i && isfinite(rows[j].phase1) && isfinite(rows[j].phase2) &&
                strcmp(rows[j].release_after, r->release_after) == 0 && (best < 0 || abs(j - i) < abs(best - i)))
                best = j;
        if (best < 0)
            return pg_fail("row %s reports no phase 1/phase 2 and no row with the same release point does",
                           r->experiment);
        if (!isfinite(p1))
            p1 = rows[best].phase1;
        if (!isfinite(p2))
            p2 = rows[best].phase2;
        snprintf(note, (size_t)note_n, "phase 1/2 not reported: %s's used", rows[best].experiment);
    }
    const char *base = sch_builtin_text("b200-seed");
    char *text = base ? strdup(base) : NULL, line[512];
    int rc = -1;
    pg_schedule *s = NULL;
    if (!text)
        return pg_fail("no built-in b200-seed schedule");
    snprintf(line, sizeof line, "phase kloop family=const mean=%.6g", r->kloop);
    if (replace_line(&text, "phase kloop ", line))
        goto done;
    snprintf(line, sizeof line, "phase phase1 family=lognormal mean=%.6g min=%.6g p95=%.6g max=%.6g", p1, P1_MIN * p1,
             P1_P95 * p1, P1_MAX * p1);
    if (replace_line(&text, "phase phase1 ", line))
        goto done;
    snprintf(line, sizeof line, "phase phase2 family=lognormal mean=%.6g min=%.6g p95=%.6g max=%.6g", p2, P2_MIN * p2,
             P2_P95 * p2, P2_MAX * p2);
    if (replace_line(&text, "phase phase2 ", line))
        goto done;
    char origin[96];
    snprintf(origin, sizeof origin, "seed:%s", r->experiment);
    if (pg_schedule_load_text(text, origin, &s))
        goto done;
    char opt[64];
    snprintf(opt, sizeof opt, "release_after=%s", r->release_after);
    if (pg_schedule_set(s, opt, 0))
        goto done;
    snprintf(opt, sizeof opt, "epilogue_warps=%d", r->epilogue_warps);
    if (pg_schedule_set(s, opt, 0))
        goto done;
    /* the 80-cycle per-warp stagger arrived with F31 */
    if (pg_schedule_set(s, strstr(r->state, "stagger") ? "stagger=80" : "stagger=0", 0))
        goto done;
    *out = s;
    s = NULL;
    rc = 0;
done:
    free(text);
    pg_schedule_free(s);
    return rc;
}
