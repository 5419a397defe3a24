/* `pegemm demo`: the dual-GEMM design contest (demo_contest.h). */
#include "demo_contest.h"

#include <stdio.h>
#include <sys/stat.h>

#include "contest.h"
#include "pg_error.h"

int pg_demo_contest(const char *source_dir, const pg_model_opts *o, FILE *out, FILE *txt, pg_json *j, pg_report *rep)
{
    char path[4200], measured[4200], note[9000];
    struct stat st;
    pg_contest c;
    snprintf(path, sizeof path, "%s/model/contests/dual-gemm.contest", source_dir);
    snprintf(measured, sizeof measured, "%s/traces/dual/measured.txt", source_dir);
    const int have_measured = stat(measured, &st) == 0;
    if (pg_contest_load(path, &c))
        return -1;
    int rc = -1;
    if ((have_measured && pg_contest_load_measured(measured, &c)) || pg_contest_predict(&c, o))
        goto done;
    fprintf(out, "\n== design contest: the SwiGLU dual GEMM (issue 14), predicted before the kernel existed%s\n",
            have_measured ? ", measured beside it" : "");
    fprintf(txt, "\n== design contest: the SwiGLU dual GEMM (issue 14)\n");
    if (pg_contest_print(&c, out) || pg_contest_print(&c, txt))
        goto done;
    pg_json_key(j, "contest");
    pg_contest_json(&c, j);
    int checked, misses = pg_contest_rank_misses(&c, &checked);
    if (misses >= 0)
        snprintf(note, sizeof note,
                 "%d entries (designs x machines x shapes) predicted from %s; measured: %s. %d of %d measured "
                 "machine/shape groups ranked as predicted (docs/experiments.md D1 and its reckoning).",
                 c.n, path, measured, checked - misses, checked);
    else
        snprintf(note, sizeof note,
                 "%d entries (designs x machines x shapes) predicted from %s; no measurements committed yet "
                 "(docs/experiments.md D1).",
                 c.n, path);
    pg_report_section(rep, 1, "The cycle model: sweeps and what-ifs");
    pg_report_add(rep, "Design contest: SwiGLU dual GEMM (sequential / interleaved / ping-pong)", NULL, PG_ITEM_INFO,
                  note);
    rc = 0;
done:
    pg_contest_free(&c);
    return rc;
}
