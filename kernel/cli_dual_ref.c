/* `pegemm dual ref` / `pegemm dual check` (cli_dual_ref.h). */
#include "cli_dual_ref.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dual.h"
#include "dual_inputs.h"
#include "pg_alloc.h"
#include "pg_cli.h"
#include "pg_error.h"
#include "pg_json.h"
#include "pg_npy.h"
#include "pg_outpath.h"
#include "pg_progress.h"

#define BLOCK 128 /* the DeepGEMM scale block along N and K */
#define SHOW 10   /* mismatches named on stderr and in the JSON */

enum { F_A, F_B1, F_B2, F_SA, F_SB1, F_SB2, F_C, F_JSON, NFILES };
static const char *const k_files[NFILES] = {"A.npy",        "B1.npy",       "B2.npy", "scale_a.npy",
                                            "scale_b1.npy", "scale_b2.npy", "C.npy",  "problem.json"};

static const char k_scale_layout[] =
    "DeepGEMM block scales, float32: scale_a[g][m][kb] multiplies A[g][m][128*kb .. 128*kb+127] (1 x 128 blocks); "
    "scale_b1[g][nb][kb] multiplies B1[g][128*nb .. +127][128*kb .. +127] (128 x 128 blocks), scale_b2 likewise B2";
static const char k_numerics[] =
    "C[g][m][n] = bits of round_to_nearest_even_out(fl32(silu_f32(d1) * d2)), where d1, d2 are the fp32 block-scaled "
    "E4M3 GEMMs A B1^T, A B2^T accumulated per 128-k block under the accumulation mode and scaled inside the "
    "accumulator, silu_f32(x) = x / (1 + exp(-x)) as reference/silu_fp32.h computes it: see docs/numerics.md, "
    "\"Dual GEMM (SwiGLU)\"";

static const char *out_name(pg_out_dtype t) { return t == PG_OUT_FP16 ? "fp16" : "bf16"; }

static int path_of(char *out, size_t cap, const char *dir, const char *name)
{
    const int n = snprintf(out, cap, "%s/%s", dir, name);
    return n >= 0 && (size_t)n < cap ? 0 : pg_fail("--dir '%.60s...': path too long", dir);
}

int pg_dual_ref_dir_check(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) != 0) {
        if (errno != ENOENT)
            return pg_fail("--dir %s: %s", dir, strerror(errno));
        char parent[4096];
        if (snprintf(parent, sizeof parent, "%s", dir) >= (int)sizeof parent)
            return pg_fail("--dir: path too long");
        const char *up = dirname(parent);
        if (stat(up, &st) != 0 || !S_ISDIR(st.st_mode))
            return pg_fail("--dir %s: its parent '%s' is not an existing directory", dir, up);
        return 0;
    }
    if (!S_ISDIR(st.st_mode))
        return pg_fail("--dir %s exists and is not a directory (%s)", dir, pg_file_kind(st.st_mode));
    for (int f = 0; f < NFILES; f++) {
        char p[4096];
        if (path_of(p, sizeof p, dir, k_files[f]) != 0)
            return -1;
        if (lstat(p, &st) == 0)
            return pg_fail("%s exists: dual ref never replaces a file (remove it, or give another --dir)", p);
    }
    return 0;
}

/* ---- dual ref ---- */

typedef struct {
    const dual_opts *o;
} ref_json_ctx;

static void emit_problem(pg_json *j, const void *ctx)
{
    const dual_opts *o = ((const ref_json_ctx *)ctx)->o;
    pg_json_object_begin(j);
    pg_json_kv_string(j, "what", "pegemm dual ref: inputs and reference output of C = silu(A B1^T) * (A B2^T)");
    pg_json_kv_int(j, "G", o->G);
    pg_json_kv_int(j, "M", o->M);
    pg_json_kv_int(j, "N", o->N);
    pg_json_kv_int(j, "K", o->K);
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)o->seed);
    pg_json_kv_string(j, "seed", seed); /* a string: JSON readers lose integers above 2^53 */
    pg_json_kv_string(j, "out", out_name(o->out));
    pg_json_kv_string(j, "mode", o->mode);
    pg_json_kv_string(j, "formats", "A, B1, B2: FP8 E4M3 (OCP E4M3FN) codes, uint8");
    pg_json_kv_string(j, "scale_layout", k_scale_layout);
    pg_json_kv_string(j, "numerics", k_numerics);
    pg_json_key(j, "files");
    pg_json_object_begin(j);
    pg_json_kv_string(j, "A", "A.npy uint8 [G,M,K]");
    pg_json_kv_string(j, "B1", "B1.npy uint8 [G,N,K]");
    pg_json_kv_string(j, "B2", "B2.npy uint8 [G,N,K]");
    pg_json_kv_string(j, "scale_a", "scale_a.npy float32 [G,M,K/128]");
    pg_json_kv_string(j, "scale_b1", "scale_b1.npy float32 [G,N/128,K/128]");
    pg_json_kv_string(j, "scale_b2", "scale_b2.npy float32 [G,N/128,K/128]");
    pg_json_kv_string(j, "C", "C.npy uint16 [G,M,N] (bf16 or fp16 bits, as 'out' says)");
    pg_json_object_end(j);
    pg_json_kv_string(j, "check", "pegemm dual check --dir DIR --got YOUR_C.npy --mode MODE --out OUT");
    pg_json_object_end(j);
}

/* Remove what this run wrote (files listed in written[], then DIR if it made it). */
static void undo(const char *dir, const int *written, int made_dir)
{
    for (int f = 0; f < NFILES; f++) {
        char p[4096];
        if (written[f] && path_of(p, sizeof p, dir, k_files[f]) == 0)
            unlink(p);
    }
    if (made_dir)
        rmdir(dir);
}

/* A file that appeared since the pre-flight check is not replaced either. */
static int absent(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 ? pg_fail("%s exists: dual ref never replaces a file", path) : 0;
}

static int write_all(const dual_opts *o, const pg_dual_inputs *in, const uint16_t *C, int *written)
{
    const int64_t KB = o->K / BLOCK, NB = o->N / BLOCK;
    const pg_npy_info info[F_JSON] = {
        [F_A] = {PG_NPY_U8, 3, {o->G, o->M, o->K}},      [F_B1] = {PG_NPY_U8, 3, {o->G, o->N, o->K}},
        [F_B2] = {PG_NPY_U8, 3, {o->G, o->N, o->K}},     [F_SA] = {PG_NPY_F32, 3, {o->G, o->M, KB}},
        [F_SB1] = {PG_NPY_F32, 3, {o->G, NB, KB}},       [F_SB2] = {PG_NPY_F32, 3, {o->G, NB, KB}},
        [F_C] = {PG_NPY_U16, 3, {o->G, o->M, o->N}},
    };
    const void *data[F_JSON] = {in->A, in->B1, in->B2, in->scale_a, in->scale_b1, in->scale_b2, C};
    char p[4096];
    for (int f = 0; f < F_JSON; f++) {
        if (path_of(p, sizeof p, o->dir, k_files[f]) != 0 || absent(p) != 0 || pg_npy_write(p, &info[f], data[f]) != 0)
            return -1;
        written[f] = 1;
    }
    ref_json_ctx ctx = {o};
    if (path_of(p, sizeof p, o->dir, k_files[F_JSON]) != 0 || absent(p) != 0 || pg_json_save(p, 1, emit_problem, &ctx) != 0)
        return -1;
    written[F_JSON] = 1;
    return 0;
}

int pg_dual_cmd_ref(const dual_opts *o)
{
    int rc = 2, made_dir = 0, written[NFILES] = {0};
    uint16_t *C = NULL;
    pg_dual_inputs in;
    memset(&in, 0, sizeof in);
    pg_note("dual ref: generating %lld x [%lld x %lld x %lld] inputs (seed %llu)", (long long)o->G, (long long)o->M,
            (long long)o->N, (long long)o->K, (unsigned long long)o->seed);
    if (pg_dual_generate(&in, o->G, o->M, o->N, o->K, o->out, o->seed) != 0)
        goto done;
    C = pg_alloc("C", o->G * o->M * o->N, sizeof *C);
    if (!C)
        goto done;
    pg_note("dual ref: computing the reference C (mode %s, %s out)", o->mode, out_name(o->out));
    if (pg_dual_check(&in.p, &o->accum) != 0 || pg_dual_gemm_ref(&in.p, &o->accum, C) != 0)
        goto done;
    if (pg_dual_ref_dir_check(o->dir) != 0)
        goto done;
    if (mkdir(o->dir, 0777) == 0)
        made_dir = 1;
    else if (errno != EEXIST) {
        pg_fail("--dir %s: cannot create it: %s", o->dir, strerror(errno));
        goto done;
    }
    if (write_all(o, &in, C, written) != 0) {
        undo(o->dir, written, made_dir);
        goto done;
    }
    pg_note("dual ref: wrote A.npy B1.npy B2.npy scale_a.npy scale_b1.npy scale_b2.npy C.npy problem.json in %s",
            o->dir);
    rc = 0;
done:
    if (rc != 0)
        pg_cli_fail("dual ref", 2);
    free(C);
    pg_dual_inputs_free(&in);
    return rc;
}

/* ---- dual check ---- */

typedef struct {
    uint8_t *A, *B1, *B2;
    float *sa, *sb1, *sb2;
    uint16_t *got;
    int64_t G, M, N, K;
} check_files;

static void check_files_free(check_files *c)
{
    free(c->A), free(c->B1), free(c->B2), free(c->sa), free(c->sb1), free(c->sb2), free(c->got);
    memset(c, 0, sizeof *c);
}

static int read_one(const char *dir, int f, pg_npy_dtype t, pg_npy_info *h, void **data)
{
    char p[4096];
    if (path_of(p, sizeof p, dir, k_files[f]) != 0)
        return -1;
    return pg_npy_read(p, t, 3, h, data);
}

/* Shape h must be {a, b, c}; -1 naming the file and both shapes otherwise. */
static int want_shape(const char *name, const pg_npy_info *h, int64_t a, int64_t b, int64_t c)
{
    if (h->shape[0] == a && h->shape[1] == b && h->shape[2] == c)
        return 0;
    return pg_fail("%s has shape [%lld,%lld,%lld]; A.npy and B1.npy say it should be [%lld,%lld,%lld]", name,
                   (long long)h->shape[0], (long long)h->shape[1], (long long)h->shape[2], (long long)a, (long long)b,
                   (long long)c);
}

static int read_inputs(const dual_opts *o, check_files *c)
{
    pg_npy_info hA, h;
    if (read_one(o->dir, F_A, PG_NPY_U8, &hA, (void **)&c->A) != 0 ||
        read_one(o->dir, F_B1, PG_NPY_U8, &h, (void **)&c->B1) != 0)
        return -1;
    c->G = hA.shape[0], c->M = hA.shape[1], c->K = hA.shape[2], c->N = h.shape[1];
    if (h.shape[0] != c->G || h.shape[2] != c->K)
        return pg_fail("B1.npy has shape [%lld,%lld,%lld]; A.npy [G,M,K] = [%lld,%lld,%lld] wants [G,N,K]",
                       (long long)h.shape[0], (long long)h.shape[1], (long long)h.shape[2], (long long)c->G,
                       (long long)c->M, (long long)c->K);
    if (c->G < 1 || c->M < 1 || c->N < 1 || c->K < 1 || c->N % BLOCK || c->K % BLOCK)
        return pg_fail("shape G=%lld M=%lld N=%lld K=%lld: want all >= 1 and N, K multiples of %d (block scales)",
                       (long long)c->G, (long long)c->M, (long long)c->N, (long long)c->K, BLOCK);
    const int64_t KB = c->K / BLOCK, NB = c->N / BLOCK;
    if (read_one(o->dir, F_B2, PG_NPY_U8, &h, (void **)&c->B2) != 0 || want_shape("B2.npy", &h, c->G, c->N, c->K) ||
        read_one(o->dir, F_SA, PG_NPY_F32, &h, (void **)&c->sa) != 0 ||
        want_shape("scale_a.npy", &h, c->G, c->M, KB) ||
        read_one(o->dir, F_SB1, PG_NPY_F32, &h, (void **)&c->sb1) != 0 ||
        want_shape("scale_b1.npy", &h, c->G, NB, KB) ||
        read_one(o->dir, F_SB2, PG_NPY_F32, &h, (void **)&c->sb2) != 0 ||
        want_shape("scale_b2.npy", &h, c->G, NB, KB))
        return -1;
    if (pg_npy_read(o->got, PG_NPY_U16, 3, &h, (void **)&c->got) != 0)
        return pg_fail_context("--got (want uint16 [G,M,N] bf16/fp16 bits: np.asarray(C).view(np.uint16))");
    if (h.shape[0] != c->G || h.shape[1] != c->M || h.shape[2] != c->N)
        return pg_fail("--got %s has shape [%lld,%lld,%lld]; the inputs give C [G,M,N] = [%lld,%lld,%lld]", o->got,
                       (long long)h.shape[0], (long long)h.shape[1], (long long)h.shape[2], (long long)c->G,
                       (long long)c->M, (long long)c->N);
    return 0;
}

typedef struct {
    int64_t g, m, n;
    uint16_t got, want;
    int ulp;
} mismatch;

typedef struct {
    const dual_opts *o;
    const check_files *c;
    int64_t total, differ;
    int max_ulp;
    mismatch first[SHOW];
    int nfirst;
} check_result;

/* Distance in representable steps between two bf16 or fp16 bit patterns
 * (both share the sign-magnitude order; NaNs measure by their bits). */
static int ulp_distance(uint16_t a, uint16_t b)
{
    const int oa = (a & 0x8000) ? -(int)(a & 0x7fff) : (int)(a & 0x7fff);
    const int ob = (b & 0x8000) ? -(int)(b & 0x7fff) : (int)(b & 0x7fff);
    return oa > ob ? oa - ob : ob - oa;
}

static void compare(const uint16_t *want, check_result *r)
{
    const check_files *c = r->c;
    r->total = c->G * c->M * c->N;
    for (int64_t i = 0; i < r->total; i++) {
        if (c->got[i] == want[i])
            continue;
        const int u = ulp_distance(c->got[i], want[i]);
        r->max_ulp = u > r->max_ulp ? u : r->max_ulp;
        if (r->nfirst < SHOW)
            r->first[r->nfirst++] = (mismatch){i / (c->M * c->N), i / c->N % c->M, i % c->N, c->got[i], want[i], u};
        r->differ++;
    }
}

static void emit_check(pg_json *j, const void *ctx)
{
    const check_result *r = ctx;
    pg_json_object_begin(j);
    pg_json_kv_string(j, "command", "dual check");
    pg_json_kv_string(j, "dir", r->o->dir);
    pg_json_kv_string(j, "got", r->o->got);
    pg_json_kv_string(j, "mode", r->o->mode);
    pg_json_kv_string(j, "out", out_name(r->o->out));
    pg_json_kv_int(j, "G", r->c->G);
    pg_json_kv_int(j, "M", r->c->M);
    pg_json_kv_int(j, "N", r->c->N);
    pg_json_kv_int(j, "K", r->c->K);
    pg_json_kv_int(j, "total", r->total);
    pg_json_kv_int(j, "differ", r->differ);
    pg_json_kv_int(j, "max_ulp", r->max_ulp);
    pg_json_kv_bool(j, "pass", r->differ == 0);
    pg_json_key(j, "first");
    pg_json_array_begin(j);
    for (int i = 0; i < r->nfirst; i++) {
        const mismatch *x = &r->first[i];
        pg_json_object_begin(j);
        pg_json_kv_int(j, "g", x->g);
        pg_json_kv_int(j, "m", x->m);
        pg_json_kv_int(j, "n", x->n);
        pg_json_kv_int(j, "got", x->got);
        pg_json_kv_int(j, "want", x->want);
        pg_json_kv_int(j, "ulp", x->ulp);
        pg_json_object_end(j);
    }
    pg_json_array_end(j);
    pg_json_object_end(j);
}

static void report(const check_result *r)
{
    fprintf(stderr, "pegemm dual check: %lld of %lld outputs differ (mode %s, %s out)%s\n", (long long)r->differ,
            (long long)r->total, r->o->mode, out_name(r->o->out), r->differ ? ":" : "");
    for (int i = 0; i < r->nfirst; i++) {
        const mismatch *x = &r->first[i];
        fprintf(stderr, "  g=%lld m=%lld n=%lld: got 0x%04x, want 0x%04x (%d ULP)\n", (long long)x->g,
                (long long)x->m, (long long)x->n, x->got, x->want, x->ulp);
    }
    if (r->differ > r->nfirst)
        fprintf(stderr, "  ... and %lld more (largest distance %d ULP)\n", (long long)(r->differ - r->nfirst),
                r->max_ulp);
}

int pg_dual_cmd_check(const dual_opts *o)
{
    int rc = 2;
    check_files c;
    uint16_t *want = NULL;
    memset(&c, 0, sizeof c);
    if (read_inputs(o, &c) != 0)
        goto done;
    const pg_dual_problem dp = {
        .G = c.G, .M = c.M, .N = c.N, .K = c.K, .fmt_a = PG_FMT_E4M3, .fmt_b = PG_FMT_E4M3,
        .A = c.A, .B1 = c.B1, .B2 = c.B2, .scale = PG_SCALE_BLOCK,
        .scale_a = c.sa, .scale_b1 = c.sb1, .scale_b2 = c.sb2, .out = o->out,
    };
    want = pg_alloc("reference C", c.G * c.M * c.N, sizeof *want);
    if (!want || pg_dual_check(&dp, &o->accum) != 0)
        goto done;
    pg_note("dual check: computing the reference C for %lld x [%lld x %lld x %lld] (mode %s, %s out)",
            (long long)c.G, (long long)c.M, (long long)c.N, (long long)c.K, o->mode, out_name(o->out));
    if (pg_dual_gemm_ref(&dp, &o->accum, want) != 0)
        goto done;
    check_result r = {.o = o, .c = &c};
    compare(want, &r);
    report(&r);
    if (o->json && pg_cli_json_save(o->json, emit_check, &r) != 0)
        goto done;
    rc = r.differ ? 1 : 0;
done:
    if (rc == 2)
        pg_cli_fail("dual check", 2);
    free(want);
    check_files_free(&c);
    return rc;
}
