/* The problem options shared by `pegemm inputs`, `ref` and `bench-ref`. */
#include "cli_problem.h"

#include <string.h>

#include "cli_util.h"
#include "inputs.h"
#include "pg_error.h"
#include "problem_terms.h"
#include "runfile.h"

void pg_cli_problem_begin(pg_cli_problem *o)
{
    memset(o, 0, sizeof *o);
    o->family = "normal";
    o->seed = 1;
}

int pg_cli_problem_take(pg_cli_problem *o, const pg_cli_opt *opt, const char *value)
{
    const char *n = opt->name;
    if (!strcmp(n, "input"))
        o->input = value;
    else if (!strcmp(n, "problem") || !strcmp(n, "shape"))
        o->shape = value;
    else if (!strcmp(n, "family"))
        o->family = value;
    else if (!strcmp(n, "seed"))
        return pg_cli_parse_u64(value, "--seed", &o->seed) != 0 ? -1 : 1;
    else if (!strcmp(n, "fmt-a"))
        o->fmt_a = value;
    else if (!strcmp(n, "fmt-b"))
        o->fmt_b = value;
    else if (!strcmp(n, "scale"))
        o->scale = value;
    else if (!strcmp(n, "bias"))
        o->bias = value;
    else if (!strcmp(n, "out-dtype"))
        o->out_dtype = value;
    else if (!strcmp(n, "threads"))
        return pg_cli_parse_int(value, "--threads", 1, 4096, &o->threads) != 0 ? -1 : 1;
    else
        return 0;
    return 1;
}

/* The terms' flags into t (kinds only). */
static int parse_terms(const pg_cli_problem *o, pg_problem *t)
{
    pg_fp8_format fa = PG_FMT_E4M3, fb = PG_FMT_E4M3;
    pg_scale_kind sc = PG_SCALE_NONE;
    pg_out_dtype out = PG_OUT_BF16, bias = PG_OUT_BF16;
    if ((o->fmt_a && pg_fp8_format_parse(o->fmt_a, &fa) != 0) ||
        (o->fmt_b && pg_fp8_format_parse(o->fmt_b, &fb) != 0) || (o->scale && pg_scale_kind_parse(o->scale, &sc) != 0) ||
        (o->out_dtype && pg_out_dtype_parse(o->out_dtype, &out) != 0) ||
        (o->bias && strcmp(o->bias, "none") != 0 && pg_out_dtype_parse(o->bias, &bias) != 0))
        return -1;
    t->fmt_a = fa, t->fmt_b = fb, t->scale = sc, t->out = out, t->bias_dtype = bias;
    t->has_bias = o->bias != NULL && strcmp(o->bias, "none") != 0;
    return 0;
}

int pg_cli_problem_load(const pg_cli_problem *o, pg_problem *p, int *from_file_stored)
{
    memset(p, 0, sizeof *p);
    *from_file_stored = 0;
    if (o->input != NULL && o->shape != NULL)
        return pg_fail("give either --input FILE or --problem M,N,K[,P], not both");
    if (o->input == NULL && o->shape == NULL)
        return pg_fail("no inputs: give --input FILE or --problem M,N,K[,P] (with --family and --seed)");
    int terms = o->fmt_a || o->fmt_b || o->scale || o->bias || o->out_dtype;
    if (o->input != NULL && terms)
        return pg_fail("--fmt-a, --fmt-b, --scale, --bias and --out-dtype describe a generated problem; "
                       "the file given with --input says its own");
    if (o->input != NULL) {
        pg_run run;
        /* pg_run_read's messages already name the file */
        if (pg_run_read(o->input, &run, PG_READ_PROBLEM) != 0)
            return -1;
        *p = run.problem; /* take the inputs; free the rest */
        *from_file_stored = run.problem_stored;
        memset(&run.problem, 0, sizeof run.problem);
        pg_run_free(&run);
        return 0;
    }
    pg_shape sh;
    pg_family fam;
    pg_problem t;
    memset(&t, 0, sizeof t);
    if (pg_shape_parse(o->shape, &sh) != 0 || pg_family_parse(o->family, &fam) != 0 || parse_terms(o, &t) != 0)
        return -1;
    t.shape = sh;
    if (pg_problem_terms_check_kinds(&t) != 0)
        return -1;
    if (pg_problem_generate_progress(p, sh, fam, o->seed, "generating inputs") != 0)
        return -1;
    p->fmt_a = t.fmt_a, p->fmt_b = t.fmt_b, p->scale = t.scale, p->out = t.out;
    p->has_bias = t.has_bias, p->bias_dtype = t.bias_dtype;
    if (pg_problem_terms_generate(p) != 0) {
        pg_problem_free(p);
        return -1;
    }
    return 0;
}

int pg_cli_report(const char *cmd, int status)
{
    fprintf(stderr, "pegemm %s: %s\n", cmd, pg_last_error());
    return status;
}
