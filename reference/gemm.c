/* The reference GEMM driver: decodes B once into column panels with n
 * innermost, then splits the selected rows into tiles of PG_KR rows over
 * OpenMP threads.  Every output is computed by the same kernel code with the
 * same operation order whatever thread runs it, so the bits do not depend on
 * the thread count or the schedule. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "gemm.h"
#include "gemm_kernels.h"
#include "pg_error.h"
#include "pg_progress.h"

typedef struct {
    int64_t Kp;     /* K rounded up to a multiple of 32 (zero padding) */
    int64_t ntiles; /* column tiles of PG_KW */
    float *bv;      /* [ntiles][Kp][PG_KW] values */
    int8_t *be;     /* [ntiles][Kp][PG_KW] exponents (tensor-core modes) */
    double *bvd;    /* [ntiles][Kp][PG_KW] values as double (exact mode) */
    uint8_t *b_nan;    /* [N] 1 if row n of B holds a NaN code */
    uint8_t *tile_nan; /* [ntiles] 1 if any row of the column tile does */
} b_panels;

/* Per-code tables: value (NaN -> 0) and exponent in the tensor-core rule
 * (accum.c; zero and NaN -> PG_ZERO_EXP). */
typedef struct {
    float val[256];
    int8_t exp[256];
} code_tables;

static void make_tables(code_tables *t)
{
    for (int c = 0; c < 256; c++) {
        uint8_t code = (uint8_t)c;
        int e = (c >> 3) & 0xF, m = c & 7;
        if (pg_fp8_is_nan(code)) {
            t->val[c] = 0.0f;
            t->exp[c] = PG_ZERO_EXP;
            continue;
        }
        t->val[c] = pg_fp8_to_f32(code);
        if (e == 0 && m == 0)
            t->exp[c] = PG_ZERO_EXP;
        else if (e == 0)
            t->exp[c] = -6;
        else
            t->exp[c] = (int8_t)(e - 7);
    }
}

static void panels_free(b_panels *bp)
{
    free(bp->bv);
    free(bp->be);
    free(bp->bvd);
    free(bp->b_nan);
    free(bp->tile_nan);
    memset(bp, 0, sizeof *bp);
}

static int panels_make(b_panels *out, const pg_problem *p, pg_accum_mode mode, const code_tables *t)
{
    b_panels b = {0};
    int64_t N = p->shape.N, K = p->shape.K;
    int tc = mode == PG_ACC_SM90 || mode == PG_ACC_SM90_PROMOTE || mode == PG_ACC_SM100;
    b.Kp = (K + 31) / 32 * 32;
    b.ntiles = (N + PG_KW - 1) / PG_KW;
    size_t elems = (size_t)(b.ntiles * b.Kp * PG_KW);
    b.b_nan = calloc((size_t)N, 1);
    b.tile_nan = calloc((size_t)b.ntiles, 1);
    if (mode == PG_ACC_EXACT)
        b.bvd = malloc(elems * sizeof *b.bvd);
    else
        b.bv = malloc(elems * sizeof *b.bv);
    if (tc)
        b.be = malloc(elems * sizeof *b.be);
    if (b.b_nan == NULL || b.tile_nan == NULL || (mode == PG_ACC_EXACT ? b.bvd == NULL : b.bv == NULL) || (tc && b.be == NULL)) {
        panels_free(&b);
        return pg_fail("out of memory for the decoded B (%zu elements)", elems);
    }
#pragma omp parallel for schedule(static)
    for (int64_t jt = 0; jt < b.ntiles; jt++) {
        for (int64_t k = 0; k < b.Kp; k++) {
            for (int j = 0; j < PG_KW; j++) {
                int64_t n = jt * PG_KW + j;
                uint8_t code = (n < N && k < K) ? p->B[n * K + k] : 0x00; /* zero padding */
                size_t at = (size_t)((jt * b.Kp + k) * PG_KW + j);
                if (b.bv)
                    b.bv[at] = t->val[code];
                if (b.bvd)
                    b.bvd[at] = (double)t->val[code];
                if (b.be)
                    b.be[at] = t->exp[code];
            }
        }
    }
    for (int64_t n = 0; n < N; n++)
        for (int64_t k = 0; k < K; k++)
            if (pg_fp8_is_nan(p->B[n * K + k])) {
                b.b_nan[n] = 1;
                b.tile_nan[n / PG_KW] = 1;
                break;
            }
    *out = b;
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

/* Row tiles per OpenMP work item (see pg_gemm_ref). */
#define PG_RB_TILES 8

/* Per-thread scratch for one row tile. */
typedef struct {
    float *av;  /* [Kp][PG_KR] */
    int8_t *ae; /* [Kp][PG_KR] */
    float out[PG_KR * PG_KW];
} tile_scratch;

/* Decode the tile's A rows, k-major (av[k * PG_KR + r]) so a kernel reaches
 * every row of the tile from one pointer; rows past the end of the
 * selection are zero. */
static void decode_rows(const pg_problem *p, const code_tables *t, const int64_t *rows, int64_t i0, int64_t nrows,
                        int64_t Kp, tile_scratch *s, int a_nan[PG_KR], int64_t m_of[PG_KR])
{
    int64_t K = p->shape.K;
    for (int r = 0; r < PG_KR; r++) {
        int64_t i = i0 + r;
        a_nan[r] = 0;
        m_of[r] = -1;
        if (i >= nrows) {
            for (int64_t k = 0; k < Kp; k++) {
                s->av[k * PG_KR + r] = 0.0f;
                s->ae[k * PG_KR + r] = PG_ZERO_EXP;
            }
            continue;
        }
        int64_t m = rows ? rows[i] : i;
        m_of[r] = m;
        const uint8_t *a = p->A + m * K;
        int nan = 0;
        for (int64_t k = 0; k < K; k++) {
            uint8_t c = a[k];
            s->av[k * PG_KR + r] = t->val[c];
            s->ae[k * PG_KR + r] = t->exp[c];
            nan |= (c & 0x7F) == 0x7F;
        }
        a_nan[r] = nan;
        for (int64_t k = K; k < Kp; k++) {
            s->av[k * PG_KR + r] = 0.0f;
            s->ae[k * PG_KR + r] = PG_ZERO_EXP;
        }
    }
}

static void run_kernel(pg_accum_mode mode, const b_panels *b, int64_t jt, tile_scratch *s)
{
    size_t off = (size_t)(jt * b->Kp * PG_KW);
    switch (mode) {
    case PG_ACC_EXACT:
        pg_kern_exact(s->av, b->bvd + off, b->Kp, s->out);
        break;
    case PG_ACC_FP32:
        pg_kern_fp32(s->av, b->bv + off, b->Kp, s->out);
        break;
    case PG_ACC_SM90:
        pg_kern_sm90(s->av, s->ae, b->bv + off, b->be + off, b->Kp, 0, s->out);
        break;
    case PG_ACC_SM90_PROMOTE:
        pg_kern_sm90(s->av, s->ae, b->bv + off, b->be + off, b->Kp, PG_SM90_PROMOTE_K / PG_TC_BLOCK_K, s->out);
        break;
    case PG_ACC_SM100:
        pg_kern_sm100(s->av, s->ae, b->bv + off, b->be + off, b->Kp, s->out);
        break;
    default:
        break;
    }
}

int pg_gemm_ref(const pg_problem *p, pg_accum_mode mode, pg_epilogue epi, const int64_t *rows, int64_t nrows,
                uint16_t *D, float *acc, const char *progress_label)
{
    if (check_args(p, mode, epi, rows, nrows, D) != 0)
        return -1;
    code_tables t;
    make_tables(&t);
    b_panels b;
    if (panels_make(&b, p, mode, &t) != 0)
        return -1;

    int64_t N = p->shape.N, P = p->shape.P;
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
        for (int u = 0; u < PG_RB_TILES; u++) {
            s[u].av = malloc((size_t)(PG_KR * b.Kp) * sizeof(float));
            s[u].ae = malloc((size_t)(PG_KR * b.Kp) * sizeof(int8_t));
            ok = ok && s[u].av != NULL && s[u].ae != NULL;
        }
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
            int a_nan[PG_RB_TILES][PG_KR];
            int64_t m_of[PG_RB_TILES][PG_KR];
            for (int u = 0; u < ntiles; u++)
                decode_rows(p, &t, rows, (it0 + u) * PG_KR, nrows, b.Kp, &s[u], a_nan[u], m_of[u]);
            for (int64_t jt = 0; jt < b.ntiles; jt++) {
                int64_t n0 = jt * PG_KW, nn = N - n0 < PG_KW ? N - n0 : PG_KW;
                for (int u = 0; u < ntiles; u++) {
                    run_kernel(mode, &b, jt, &s[u]);
                    for (int r = 0; r < PG_KR; r++) {
                        if (m_of[u][r] < 0)
                            continue;
                        int64_t i = (it0 + u) * PG_KR + r;
                        float *v = s[u].out + r * PG_KW;
                        if (a_nan[u][r] || b.tile_nan[jt])
                            for (int64_t j = 0; j < nn; j++)
                                if (a_nan[u][r] || b.b_nan[n0 + j])
                                    v[j] = pg_f32_from_bits(PG_F32_QNAN_BITS);
                        if (acc)
                            memcpy(acc + i * N + n0, v, (size_t)nn * sizeof *v);
                        if (P > 0)
                            pg_epilogue_row(epi, v, p->combined + (m_of[u][r] % P) * N + n0, D + i * N + n0, nn);
                        else /* a plain GEMM: one rounding, whichever epilogue */
                            for (int64_t j = 0; j < nn; j++)
                                D[i * N + n0 + j] = pg_bf16_from_f32(v[j]);
                    }
                }
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
        for (int u = 0; u < PG_RB_TILES; u++) {
            free(s[u].av);
            free(s[u].ae);
        }
    }
    if (progress_label)
        pg_progress_end(&prog);
    panels_free(&b);
    if (failed)
        return pg_fail("reference GEMM: out of memory for per-thread scratch");
    return 0;
}
