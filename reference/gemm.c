/* The reference GEMM driver: decodes B once into column panels with n
 * innermost, then splits the selected rows into tiles of PG_KR rows over
 * OpenMP threads.  Every output is computed by the same kernel code with the
 * same operation order whatever thread runs it, so the bits do not depend on
 * the thread count or the schedule.
 *
 * One driver serves the classic problem (pg_gemm_ref: E4M3 x E4M3, the
 * bf16 epilogue) and the scaled GEMM's accumulators (pg_gemm_scaled_acc:
 * either operand format, block or MX scales inside the accumulation).  The
 * kernels see only per-format value and exponent tables and per-tile
 * scales; an output whose row or column holds a NaN or inf code (or an MX
 * NaN scale, or a non-finite block scale) is taken from the scalar
 * definition (pg_scaled_acc), or is the NaN for E4M3 x E4M3. */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "gemm.h"
#include "gemm_kernels.h"
#include "pg_error.h"
#include "pg_progress.h"

/* Per-code tables of one format: value (NaN, inf -> 0), exponent in the
 * tensor-core rule (zero, NaN, inf -> PG_ZERO_EXP), special (NaN or inf). */
typedef struct {
    float val[256];
    int8_t exp[256];
    uint8_t special[256];
} code_tables;

static void make_tables(code_tables *t, pg_fp8_format f)
{
    for (int c = 0; c < 256; c++) {
        uint8_t code = (uint8_t)c;
        t->special[c] = (uint8_t)(pg_fp8f_is_nan(f, code) || pg_fp8f_is_inf(f, code));
        int32_t sig;
        int e;
        pg_fp8f_sig_exp(f, code, &sig, &e);
        t->val[c] = t->special[c] ? 0.0f : pg_fp8f_to_f32(f, code);
        t->exp[c] = (int8_t)(t->special[c] || sig == 0 ? PG_ZERO_EXP : e);
    }
}

/* What one run computes. */
typedef void (*row_sink)(void *ctx, int64_t i, int64_t m, int64_t n0, int64_t nn, const float *v);
typedef struct {
    const pg_scaled_problem *sp; /* formats, A [M][K], B, block or MX scales */
    pg_accum_mode mode;
    const int64_t *rows; /* NULL: rows 0..nrows */
    int64_t nrows;
    int nan_only;   /* E4M3 x E4M3 without block scales: a special output is the NaN */
    int block;      /* DeepGEMM block scales (groups of PG_BLOCK_SCALE_K) */
    int mx;         /* MX scales per PG_MX_BLOCK_K */
    int wide_exact; /* exact mode through pg_kern_exact_wide */
    int64_t chunk;  /* its exact double length, and products' unit 2^unit */
    int unit;
    row_sink sink;
    void *ctx;
} gemm_job;

typedef struct {
    int64_t Kp;      /* K rounded up to a multiple of 32 (zero padding) */
    int64_t ntiles;  /* column tiles of PG_KW */
    int64_t ngroups; /* block scaling: 128-k groups */
    float *bv;       /* [ntiles][Kp][PG_KW] values */
    int8_t *be;      /* [ntiles][Kp][PG_KW] exponents (tensor-core modes) */
    double *bvd;     /* [ntiles][Kp][PG_KW] values as double (exact mode) */
    float *gsb;      /* [ntiles][ngroups][PG_KW] block scales */
    int32_t *xb;     /* [ntiles][Kp/32][PG_KW] MX exponents */
    uint8_t *b_special;    /* [N] 1 if row n of B has a special code or scale */
    uint8_t *tile_special; /* [ntiles] 1 if any row of the column tile does */
} b_panels;

static void panels_free(b_panels *bp)
{
    free(bp->bv);
    free(bp->be);
    free(bp->bvd);
    free(bp->gsb);
    free(bp->xb);
    free(bp->b_special);
    free(bp->tile_special);
    memset(bp, 0, sizeof *bp);
}

static int is_tc(pg_accum_mode m)
{
    return m == PG_ACC_SM90 || m == PG_ACC_SM90_PROMOTE || m == PG_ACC_SM100;
}

/* Row n of B (or of A, with the A-side scales) holds a special input. */
static int row_special(const gemm_job *job, const code_tables *t, int is_b, int64_t n)
{
    const pg_scaled_problem *sp = job->sp;
    const uint8_t *codes = (is_b ? sp->B : sp->A) + n * sp->K;
    for (int64_t k = 0; k < sp->K; k++)
        if (t->special[codes[k]])
            return 1;
    if (job->mx) {
        int64_t nb = sp->K / PG_MX_BLOCK_K;
        const uint8_t *x = (is_b ? sp->mx_b : sp->mx_a) + n * nb;
        for (int64_t j = 0; j < nb; j++)
            if (x[j] == 0xFF)
                return 1;
    }
    if (job->block) {
        int64_t kb = (sp->K + PG_BLOCK_SCALE_K - 1) / PG_BLOCK_SCALE_K;
        const float *s = is_b ? sp->scale_b + (n / PG_BLOCK_SCALE_K) * kb : sp->scale_a + n * kb;
        for (int64_t g = 0; g < kb; g++)
            if (!isfinite(s[g]))
                return 1;
    }
    return 0;
}

static void panel_fill(const gemm_job *job, const code_tables *t, b_panels *b, int64_t jt)
{
    const pg_scaled_problem *sp = job->sp;
    int64_t N = sp->N, K = sp->K, kb = b->ngroups, nb = sp->K / PG_MX_BLOCK_K;
    for (int64_t k = 0; k < b->Kp; k++) {
        for (int j = 0; j < PG_KW; j++) {
            int64_t n = jt * PG_KW + j;
            uint8_t code = (n < N && k < K) ? sp->B[n * K + k] : 0x00; /* zero padding */
            size_t at = (size_t)((jt * b->Kp + k) * PG_KW + j);
            if (b->bv)
                b->bv[at] = t->val[code];
            if (b->bvd)
                b->bvd[at] = (double)t->val[code];
            if (b->be)
                b->be[at] = t->exp[code];
        }
    }
    for (int64_t g = 0; b->gsb && g < kb; g++)
        for (int j = 0; j < PG_KW; j++) {
            int64_t n = jt * PG_KW + j;
            b->gsb[(jt * kb + g) * PG_KW + j] = n < N ? sp->scale_b[(n / PG_BLOCK_SCALE_K) * kb + g] : 0.0f;
        }
    for (int64_t kbk = 0; b->xb && kbk < b->Kp / 32; kbk++)
        for (int j = 0; j < PG_KW; j++) {
            int64_t n = jt * PG_KW + j;
            uint8_t x = n < N ? sp->mx_b[n * nb + kbk] : 127;
            b->xb[(jt * (b->Kp / 32) + kbk) * PG_KW + j] = x == 0xFF ? 0 : (int32_t)x - 127; /* 0xFF: scalar */
        }
}

static int panels_make(b_panels *out, const gemm_job *job, const code_tables *t)
{
    b_panels b = {0};
    int64_t N = job->sp->N, K = job->sp->K;
    int tc = is_tc(job->mode);
    b.Kp = (K + 31) / 32 * 32;
    b.ntiles = (N + PG_KW - 1) / PG_KW;
    b.ngroups = (K + PG_BLOCK_SCALE_K - 1) / PG_BLOCK_SCALE_K;
    size_t elems = (size_t)(b.ntiles * b.Kp * PG_KW);
    b.b_special = calloc((size_t)N, 1);
    b.tile_special = calloc((size_t)b.ntiles, 1);
    int ok = b.b_special != NULL && b.tile_special != NULL;
    if (job->mode == PG_ACC_EXACT)
        ok = ok && (b.bvd = malloc(elems * sizeof *b.bvd)) != NULL;
    else
        ok = ok && (b.bv = malloc(elems * sizeof *b.bv)) != NULL;
    if (tc)
        ok = ok && (b.be = malloc(elems * sizeof *b.be)) != NULL;
    if (job->block)
        ok = ok && (b.gsb = malloc((size_t)(b.ntiles * b.ngroups * PG_KW) * sizeof *b.gsb)) != NULL;
    if (job->mx)
        ok = ok && (b.xb = malloc((size_t)(b.ntiles * (b.Kp / 32) * PG_KW) * sizeof *b.xb)) != NULL;
    if (!ok) {
        panels_free(&b);
        return pg_fail("out of memory for the decoded B (%zu elements)", elems);
    }
#pragma omp parallel for schedule(static)
    for (int64_t jt = 0; jt < b.ntiles; jt++)
        panel_fill(job, t, &b, jt);
#pragma omp parallel for schedule(static)
    for (int64_t n = 0; n < N; n++)
        b.b_special[n] = (uint8_t)row_special(job, t, 1, n);
    for (int64_t n = 0; n < N; n++)
        b.tile_special[n / PG_KW] |= b.b_special[n];
    *out = b;
    return 0;
}

/* Row tiles per OpenMP work item (see run_job). */
#define PG_RB_TILES 8

/* Per-thread scratch for one row tile. */
typedef struct {
    float *av;   /* [Kp][PG_KR] */
    int8_t *ae;  /* [Kp][PG_KR] */
    float *gsa;  /* [ngroups][PG_KR] block scales */
    int32_t *xa; /* [Kp/32][PG_KR] MX exponents */
    float out[PG_KR * PG_KW];
    int a_special[PG_KR];
    int64_t m_of[PG_KR]; /* row of A, -1 past the selection */
} tile_scratch;

/* Decode the tile's A rows, k-major (av[k * PG_KR + r]) so a kernel reaches
 * every row of the tile from one pointer; rows past the end of the
 * selection are zero. */
static void decode_rows(const gemm_job *job, const code_tables *t, int64_t i0, const b_panels *b, tile_scratch *s)
{
    const pg_scaled_problem *sp = job->sp;
    int64_t K = sp->K, Kp = b->Kp, kb = b->ngroups, nb = K / PG_MX_BLOCK_K;
    for (int r = 0; r < PG_KR; r++) {
        int64_t i = i0 + r;
        int64_t m = i >= job->nrows ? -1 : job->rows ? job->rows[i] : i;
        s->m_of[r] = m;
        s->a_special[r] = m >= 0 && row_special(job, t, 0, m);
        const uint8_t *a = m >= 0 ? sp->A + m * K : NULL;
        for (int64_t k = 0; k < Kp; k++) {
            uint8_t c = (a != NULL && k < K) ? a[k] : 0x00;
            s->av[k * PG_KR + r] = t->val[c];
            s->ae[k * PG_KR + r] = t->exp[c];
        }
        for (int64_t g = 0; job->block && g < kb; g++)
            s->gsa[g * PG_KR + r] = m >= 0 ? sp->scale_a[m * kb + g] : 0.0f;
        for (int64_t j = 0; job->mx && j < Kp / 32; j++) {
            uint8_t x = m >= 0 ? sp->mx_a[m * nb + j] : 127;
            s->xa[j * PG_KR + r] = x == 0xFF ? 0 : (int32_t)x - 127;
        }
    }
}

static void run_kernel(const gemm_job *job, const b_panels *b, int64_t jt, tile_scratch *s)
{
    size_t off = (size_t)(jt * b->Kp * PG_KW);
    pg_kern_scaling sc = {0};
    if (job->block) {
        sc.promote_blocks = PG_BLOCK_SCALE_K / 32;
        sc.gsa = s->gsa;
        sc.gsb = b->gsb + jt * b->ngroups * PG_KW;
    } else if (job->mode == PG_ACC_SM90_PROMOTE) {
        sc.promote_blocks = PG_SM90_PROMOTE_K / PG_TC_BLOCK_K;
    }
    if (job->mx) {
        sc.xa = s->xa;
        sc.xb = b->xb + jt * (b->Kp / 32) * PG_KW;
    }
    switch (job->mode) {
    case PG_ACC_EXACT:
        if (job->wide_exact)
            pg_kern_exact_wide(s->av, b->bvd + off, b->Kp, &sc, job->chunk, job->unit, s->out);
        else
            pg_kern_exact(s->av, b->bvd + off, b->Kp, s->out);
        break;
    case PG_ACC_FP32:
        pg_kern_fp32(s->av, b->bv + off, b->Kp, &sc, s->out);
        break;
    case PG_ACC_SM90:
    case PG_ACC_SM90_PROMOTE:
        pg_kern_sm90(s->av, s->ae, b->bv + off, b->be + off, b->Kp, &sc, s->out);
        break;
    case PG_ACC_SM100:
        pg_kern_sm100(s->av, s->ae, b->bv + off, b->be + off, b->Kp, &sc, s->out);
        break;
    default:
        break;
    }
}

/* Specials of a finished tile, then its rows to the sink. */
static void finish_tile(const gemm_job *job, const b_panels *b, int64_t i0, int64_t jt, tile_scratch *s)
{
    int64_t N = job->sp->N, n0 = jt * PG_KW, nn = N - n0 < PG_KW ? N - n0 : PG_KW;
    for (int r = 0; r < PG_KR; r++) {
        int64_t m = s->m_of[r];
        if (m < 0)
            continue;
        float *v = s->out + r * PG_KW;
        if (s->a_special[r] || b->tile_special[jt])
            for (int64_t j = 0; j < nn; j++)
                if (s->a_special[r] || b->b_special[n0 + j])
                    v[j] = job->nan_only ? pg_f32_from_bits(PG_F32_QNAN_BITS)
                                         : pg_scaled_acc(job->sp, pg_accum_preset(job->mode), m, n0 + j);
        job->sink(job->ctx, i0 + r, m, n0, nn, v);
    }
}

static int scratch_alloc(tile_scratch *s, const b_panels *b)
{
    memset(s, 0, sizeof *s);
    s->av = malloc((size_t)(PG_KR * b->Kp) * sizeof(float));
    s->ae = malloc((size_t)(PG_KR * b->Kp) * sizeof(int8_t));
    s->gsa = malloc((size_t)(PG_KR * b->ngroups) * sizeof(float));
    s->xa = malloc((size_t)(PG_KR * (b->Kp / 32)) * sizeof(int32_t));
    return s->av != NULL && s->ae != NULL && s->gsa != NULL && s->xa != NULL;
}

static void scratch_free(tile_scratch *s)
{
    free(s->av);
    free(s->ae);
    free(s->gsa);
    free(s->xa);
}

static int run_job(const gemm_job *job, const char *progress_label)
{
    code_tables t[PG_FMT_COUNT];
    make_tables(&t[PG_FMT_E4M3], PG_FMT_E4M3);
    make_tables(&t[PG_FMT_E5M2], PG_FMT_E5M2);
    const code_tables *ta = &t[job->sp->fmt_a], *tb = &t[job->sp->fmt_b];
    b_panels b;
    if (panels_make(&b, job, tb) != 0)
        return -1;

    int64_t nrows = job->nrows;
    /* Work items are blocks of PG_RB_TILES row tiles: each column panel of
     * B (Kp * PG_KW values, ~200 KB at K = 768) is loaded into L2 once per
     * block and reused by all its tiles, instead of streaming the whole
     * decoded B (more than L2) once per tile. */
    int64_t nrow_tiles = (nrows + PG_KR - 1) / PG_KR;
    int64_t nblocks = (nrow_tiles + PG_RB_TILES - 1) / PG_RB_TILES;
    int64_t blocks_done = 0;
    int failed = 0;
    pg_progress prog;
    if (progress_label)
        pg_progress_begin(&prog, progress_label, nrows);

#pragma omp parallel
    {
        tile_scratch s[PG_RB_TILES];
        int ok = 1;
        for (int u = 0; u < PG_RB_TILES; u++)
            ok = scratch_alloc(&s[u], &b) && ok;
        if (!ok) {
#pragma omp atomic write
            failed = 1;
        }
#pragma omp for schedule(dynamic, 1)
        for (int64_t blk = 0; blk < nblocks; blk++) {
            if (!ok)
                continue;
            int64_t it0 = blk * PG_RB_TILES;
            int ntiles = (int)(nrow_tiles - it0 < PG_RB_TILES ? nrow_tiles - it0 : PG_RB_TILES);
            for (int u = 0; u < ntiles; u++)
                decode_rows(job, ta, (it0 + u) * PG_KR, &b, &s[u]);
            for (int64_t jt = 0; jt < b.ntiles; jt++)
                for (int u = 0; u < ntiles; u++) {
                    run_kernel(job, &b, jt, &s[u]);
                    finish_tile(job, &b, (it0 + u) * PG_KR, jt, &s[u]);
                }
            if (progress_label) {
                int64_t done;
#pragma omp atomic capture
                done = ++blocks_done;
                if (omp_get_thread_num() == 0) {
                    int64_t rows_done = done * PG_RB_TILES * PG_KR;
                    pg_progress_update(&prog, rows_done < nrows ? rows_done : nrows);
                }
            }
        }
        for (int u = 0; u < PG_RB_TILES; u++)
            scratch_free(&s[u]);
    }
    if (progress_label)
        pg_progress_end(&prog);
    panels_free(&b);
    if (failed)
        return pg_fail("reference GEMM: out of memory for per-thread scratch");
    return 0;
}

static int check_args(const pg_problem *p, pg_accum_mode mode, pg_epilogue epi, const int64_t *rows, int64_t nrows,
                      const uint16_t *D)
{
    if (p == NULL || p->A == NULL || p->B == NULL || (p->combined == NULL && p->shape.P > 0))
        return pg_fail("reference GEMM: the problem has no inputs");
    if (!pg_problem_is_classic(p))
        return pg_fail("reference GEMM: the problem is not E4M3 x E4M3 with bf16 output and no scales or bias "
                       "(internal: use pg_problem_ref)");
    if (pg_shape_check(&p->shape) != 0)
        return -1;
    if (mode < 0 || mode >= PG_ACC_COUNT)
        return pg_fail("reference GEMM: unknown accumulation mode %d", (int)mode);
    if (epi < 0 || epi >= PG_EPI_COUNT)
        return pg_fail("reference GEMM: unknown epilogue %d", (int)epi);
    if (D == NULL)
        return pg_fail("reference GEMM: no output buffer");
    if (rows == NULL && nrows != p->shape.M)
        return pg_fail("reference GEMM: all rows requested but nrows = %lld != M = %lld", (long long)nrows,
                       (long long)p->shape.M);
    if (nrows < 0)
        return pg_fail("reference GEMM: nrows = %lld", (long long)nrows);
    if (rows != NULL)
        for (int64_t i = 0; i < nrows; i++)
            if (rows[i] < 0 || rows[i] >= p->shape.M)
                return pg_fail("reference GEMM: row %lld is outside [0, M = %lld)", (long long)rows[i],
                               (long long)p->shape.M);
    return 0;
}

typedef struct {
    const pg_problem *p;
    pg_epilogue epi;
    uint16_t *D;
    float *acc;
} classic_out;

static void classic_sink(void *ctx, int64_t i, int64_t m, int64_t n0, int64_t nn, const float *v)
{
    const classic_out *o = ctx;
    int64_t N = o->p->shape.N, P = o->p->shape.P;
    if (o->acc)
        memcpy(o->acc + i * N + n0, v, (size_t)nn * sizeof *v);
    if (P > 0)
        pg_epilogue_row(o->epi, v, o->p->combined + (m % P) * N + n0, o->D + i * N + n0, nn);
    else /* a plain GEMM: one rounding, whichever epilogue */
        for (int64_t j = 0; j < nn; j++)
            o->D[i * N + n0 + j] = pg_bf16_from_f32(v[j]);
}

int pg_gemm_ref(const pg_problem *p, pg_accum_mode mode, pg_epilogue epi, const int64_t *rows, int64_t nrows,
                uint16_t *D, float *acc, const char *progress_label)
{
    if (check_args(p, mode, epi, rows, nrows, D) != 0)
        return -1;
    pg_scaled_problem sp = {.M = p->shape.M, .N = p->shape.N, .K = p->shape.K, .fmt_a = PG_FMT_E4M3,
                            .fmt_b = PG_FMT_E4M3, .A = p->A, .B = p->B, .scale = PG_SCALE_NONE};
    classic_out o = {p, epi, D, acc};
    gemm_job job = {.sp = &sp, .mode = mode, .rows = rows, .nrows = nrows, .nan_only = 1, .sink = classic_sink,
                    .ctx = &o};
    return run_job(&job, progress_label);
}

typedef struct {
    int64_t N;
    float *acc;
} acc_out;

static void acc_sink(void *ctx, int64_t i, int64_t m, int64_t n0, int64_t nn, const float *v)
{
    const acc_out *o = ctx;
    (void)m;
    memcpy(o->acc + i * o->N + n0, v, (size_t)nn * sizeof *v);
}

/* Exponents of the codes present in codes[0..n): |value| < 2^*top, every
 * value a multiple of 2^*low.  0 when only zeros and specials are present. */
static int code_range(pg_fp8_format f, const uint8_t *codes, int64_t n, int *top, int *low)
{
    uint8_t seen[256] = {0};
    for (int64_t i = 0; i < n; i++)
        seen[codes[i]] = 1;
    int any = 0;
    *top = -1000, *low = 1000;
    for (int c = 0; c < 256; c++) {
        int32_t sig;
        int e;
        int frac = pg_fp8f_sig_exp(f, (uint8_t)c, &sig, &e);
        if (!seen[c] || sig == 0 || pg_fp8f_is_nan(f, (uint8_t)c) || pg_fp8f_is_inf(f, (uint8_t)c))
            continue;
        any = 1;
        int lo = e - frac + __builtin_ctz((unsigned)sig), hi = e - frac + 32 - __builtin_clz((unsigned)sig);
        *top = hi > *top ? hi : *top;
        *low = lo < *low ? lo : *low;
    }
    return any;
}

/* exact mode, any formats: products are multiples of 2^(la + lb) below
 * 2^(ta + tb); 2^(53 - (ta + tb - la - lb)) of them add exactly in double.
 * 1 when even two products may not (E5M2 x E5M2 with both extremes): the
 * scalar definition then. */
static int exact_chunk(gemm_job *job)
{
    const pg_scaled_problem *sp = job->sp;
    int ta, la, tb, lb;
    if (!code_range(sp->fmt_a, sp->A, sp->M * sp->K, &ta, &la) ||
        !code_range(sp->fmt_b, sp->B, sp->N * sp->K, &tb, &lb)) {
        job->chunk = INT64_C(1) << 40, job->unit = 0; /* every product is 0 */
        return 0;
    }
    int spread = ta + tb - la - lb;
    if (spread > 52)
        return 1;
    job->chunk = INT64_C(1) << (53 - spread > 40 ? 40 : 53 - spread);
    job->unit = la + lb;
    return 0;
}

/* MX codes within PG_MX_FAST_RANGE of each other's reach (NaN codes aside). */
static int mx_in_range(const pg_scaled_problem *sp)
{
    int64_t nb = sp->K / PG_MX_BLOCK_K;
    int lo_a = 255, hi_a = 0, lo_b = 255, hi_b = 0;
    for (int64_t i = 0; i < sp->M * nb; i++)
        if (sp->mx_a[i] != 0xFF)
            lo_a = sp->mx_a[i] < lo_a ? sp->mx_a[i] : lo_a, hi_a = sp->mx_a[i] > hi_a ? sp->mx_a[i] : hi_a;
    for (int64_t i = 0; i < sp->N * nb; i++)
        if (sp->mx_b[i] != 0xFF)
            lo_b = sp->mx_b[i] < lo_b ? sp->mx_b[i] : lo_b, hi_b = sp->mx_b[i] > hi_b ? sp->mx_b[i] : hi_b;
    return hi_a + hi_b - 254 <= PG_MX_FAST_RANGE && lo_a + lo_b - 254 >= -PG_MX_FAST_RANGE;
}

int pg_gemm_scaled_acc(const pg_scaled_problem *sp, pg_accum_mode mode, float *acc)
{
    if (sp == NULL || acc == NULL || sp->A == NULL || sp->B == NULL || mode < 0 || mode >= PG_ACC_COUNT)
        return pg_fail("reference GEMM: missing scaled problem or output, or unknown mode");
    gemm_job job = {.sp = sp, .mode = mode, .nrows = sp->M, .block = sp->scale == PG_SCALE_BLOCK,
                    .mx = sp->scale == PG_SCALE_MX};
    job.nan_only = sp->fmt_a == PG_FMT_E4M3 && sp->fmt_b == PG_FMT_E4M3 && !job.block;
    if (job.mx && (!is_tc(mode) || sp->K % PG_MX_BLOCK_K != 0 || !mx_in_range(sp)))
        return 1;
    if (mode == PG_ACC_EXACT && !(sp->fmt_a == PG_FMT_E4M3 && sp->fmt_b == PG_FMT_E4M3 && !job.block)) {
        job.wide_exact = 1;
        if (exact_chunk(&job) != 0)
            return 1;
    }
    acc_out o = {sp->N, acc};
    job.sink = acc_sink;
    job.ctx = &o;
    return run_job(&job, NULL);
}
