#include "tma_floor_host.h"

#include <stdlib.h>
#include <string.h>

#include "pg_error.h"
#include "tma_maps.h"

#define L2_FLOOR_ROWS 32768 /* x 128 B = 4 MB */
#define L2_FLOOR_LOADS 2048
#define CONTIG_ROWS (4 << 20) /* x 128 B = 512 MB */

/* A [rows, 128] u8 buffer of its own, filled, read through 256 x 128 boxes
 * (32 KB), `stages` in flight, `loads` per CTA (0: each box once). */
static int own_buffer(const pg_gpu *g, int64_t rows, int stages, int64_t loads, pg_tma_floor *f, void **buf,
                      char *why, size_t why_len, const char *what)
{
    *f = (pg_tma_floor){.row_blocks = rows / 256, .col_blocks = 1, .box_rows = 256, .box_cols = 128,
                        .stages = stages, .loads_per_cta = loads};
    if (!loads)
        f->loads_per_cta = (f->row_blocks + g->sm_count - 1) / g->sm_count;
    *buf = NULL;
    if (pg_tma_floor_smem(f) > g->smem_optin) {
        snprintf(why, why_len, "needs %zu B of shared memory per block", pg_tma_floor_smem(f));
        return 1;
    }
    cudaError_t e = cudaMalloc(buf, (size_t)rows * 128);
    if (e == cudaErrorMemoryAllocation) { /* a floor not measured, not a failed bench */
        (void)cudaGetLastError();
        *buf = NULL;
        snprintf(why, why_len, "no room on the GPU for its %lld MB buffer", (long long)(rows * 128 >> 20));
        return 1;
    }
    if (e == cudaSuccess)
        e = cudaMemsetAsync(*buf, 0x5A, (size_t)rows * 128, g->stream);
    if (e != cudaSuccess) {
        cudaFree(*buf);
        *buf = NULL;
        return pg_cuda_fail(what, e);
    }
    if (pg_tma_encode_2d(&f->map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, *buf, rows, 128, 256, 128,
                         CU_TENSOR_MAP_SWIZZLE_128B, what) != 0) {
        cudaFree(*buf);
        *buf = NULL;
        return -1;
    }
    return 0;
}

int pg_tma_floor_l2(const pg_gpu *g, int stages, pg_tma_floor *f, void **buf, char *why, size_t why_len)
{
    return own_buffer(g, L2_FLOOR_ROWS, stages, L2_FLOOR_LOADS, f, buf, why, why_len, "the L2 floor's buffer");
}

int pg_tma_floor_dram_contig(const pg_gpu *g, int stages, pg_tma_floor *f, void **buf, char *why, size_t why_len)
{
    if ((double)CONTIG_ROWS * 128 < 2.0 * (double)g->l2_bytes) {
        snprintf(why, why_len, "512 MB is not twice this GPU's L2 (%zu B)", g->l2_bytes);
        *buf = NULL;
        return 1;
    }
    return own_buffer(g, CONTIG_ROWS, stages, 0, f, buf, why, why_len, "the contiguous DRAM floor's buffer");
}

int pg_tma_floor_dram(const pg_gpu *g, int stages, pg_tma_floor *f, char *why, size_t why_len)
{
    const pg_shape s = g->shape;
    *f = (pg_tma_floor){.row_blocks = (s.M + 63) / 64, .col_blocks = (int)(s.K / 128), .box_rows = 64,
                        .box_cols = 128, .stages = stages};
    f->loads_per_cta = (f->row_blocks * f->col_blocks + g->sm_count - 1) / g->sm_count;
    if (s.K % 128 != 0 || (double)s.M * (double)s.K < 2.0 * (double)g->l2_bytes) {
        snprintf(why, why_len, "needs K %% 128 == 0 and A at least twice the L2 (%zu B)", g->l2_bytes);
        return 1;
    }
    return pg_tma_encode_2d(&f->map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, g->dA, s.M, s.K, 64, 128,
                            CU_TENSOR_MAP_SWIZZLE_128B, "A (DRAM floor)") != 0
               ? -1
               : 0;
}

double pg_tma_floor_bytes(const pg_tma_floor *f, int sms)
{
    return (double)f->loads_per_cta * sms * f->box_rows * f->box_cols;
}

/* One launch of f on `grid` CTAs, after one untimed: its GB/s and its
 * loads' mean latency. */
static int measure(pg_gpu *g, pg_tma_floor *f, int grid, int64_t *d_lat, double *gbs, double *lat_ns)
{
    const size_t n = 2 * (size_t)grid;
    int64_t *h = malloc(sizeof(int64_t) * n);
    if (!h)
        return pg_fail("out of host memory");
    f->lat_ns = d_lat;
    float ms = 0;
    cudaError_t e = pg_tma_floor_launch(f, grid, g->stream);
    if (e == cudaSuccess)
        e = cudaEventRecord(g->ev0, g->stream);
    if (e == cudaSuccess)
        e = pg_tma_floor_launch(f, grid, g->stream);
    if (e == cudaSuccess)
        e = cudaEventRecord(g->ev1, g->stream);
    if (e == cudaSuccess)
        e = cudaEventSynchronize(g->ev1);
    if (e == cudaSuccess)
        e = cudaEventElapsedTime(&ms, g->ev0, g->ev1);
    if (e == cudaSuccess)
        e = cudaMemcpy(h, d_lat, sizeof(int64_t) * n, cudaMemcpyDeviceToHost);
    f->lat_ns = NULL;
    double sum = 0, cnt = 0;
    for (size_t i = 0; e == cudaSuccess && i < n; i += 2)
        sum += (double)h[i], cnt += (double)h[i + 1];
    free(h);
    if (e != cudaSuccess)
        return pg_cuda_fail("timing a TMA floor", e);
    *gbs = ms > 0 ? pg_tma_floor_bytes(f, grid) / (ms * 1e-3) / 1e9 : 0;
    *lat_ns = cnt > 0 ? sum / cnt : 0;
    return 0;
}

/* 1, 2, 4, ... and then max itself */
static int next_stages(int st, int max) { return st < max && 2 * st > max ? max : 2 * st; }

enum { SRC_L2, SRC_A, SRC_CONTIG };

/* One point: source src with `stages` in flight on `sms` CTAs.  0 measured;
 * 1 not runnable here (why); -1 error. */
static int point(pg_gpu *g, int src, int stages, int sms, int64_t *d_lat, double *gbs, double *lat, char *why,
                 size_t why_len)
{
    pg_tma_floor f;
    void *buf = NULL;
    const int ready = src == SRC_L2       ? pg_tma_floor_l2(g, stages, &f, &buf, why, why_len)
                      : src == SRC_CONTIG ? pg_tma_floor_dram_contig(g, stages, &f, &buf, why, why_len)
                                          : pg_tma_floor_dram(g, stages, &f, why, why_len);
    const int rc = ready == 0 ? measure(g, &f, sms, d_lat, gbs, lat) : ready;
    cudaFree(buf);
    return rc;
}

/* one source's row of the table: 1, 2, 4 ... up to max in flight */
static int report_row(pg_gpu *g, FILE *out, const char *label, int src, int max_stages, int64_t *d_lat)
{
    fprintf(out, "  %-22s", label);
    for (int st = 1; st <= max_stages; st = next_stages(st, max_stages)) {
        char why[160] = "";
        double gbs = 0, lat = 0;
        const int rc = point(g, src, st, g->sm_count, d_lat, &gbs, &lat, why, sizeof why);
        if (rc < 0)
            return -1;
        if (rc == 1) {
            fprintf(out, "  not run: %s", why);
            break;
        }
        fprintf(out, "  %d: %6.0f GB/s %5.0f ns", st, gbs, lat);
    }
    fprintf(out, "\n");
    return 0;
}

/* One contiguous 32 KB box in flight on N of the SMs (M51): the DRAM's
 * latency from nearly idle to saturated, each point's bandwidth also as a
 * share of the copy floor when one is given. */
static int report_sms(pg_gpu *g, FILE *out, double copy_gbs, int64_t *d_lat)
{
    static const int pct[] = {4, 8, 16, 33, 50, 66, 83, 100}; /* of the SMs */
    fprintf(out, "  %-22s", "DRAM contig., 1 on N SMs");
    for (size_t i = 0; i < sizeof pct / sizeof *pct; i++) {
        const int sms = g->sm_count * pct[i] / 100 > 0 ? g->sm_count * pct[i] / 100 : 1;
        char why[160] = "";
        double gbs = 0, lat = 0;
        const int rc = point(g, SRC_CONTIG, 1, sms, d_lat, &gbs, &lat, why, sizeof why);
        if (rc < 0)
            return -1;
        if (rc == 1) {
            fprintf(out, "  not run: %s", why);
            break;
        }
        fprintf(out, "  %d: %5.0f GB/s", sms, gbs);
        if (copy_gbs > 0)
            fprintf(out, " (%.2f)", gbs / copy_gbs);
        fprintf(out, " %5.0f ns", lat);
    }
    fprintf(out, "\n");
    return 0;
}

int pg_tma_latency_report(pg_gpu *g, double copy_gbs, FILE *out)
{
    int64_t *d_lat = NULL;
    cudaError_t e = cudaMalloc((void **)&d_lat, sizeof(int64_t) * 2 * (size_t)g->sm_count);
    if (e != cudaSuccess)
        return pg_cuda_fail("the TMA latency counters", e);
    fprintf(out, "TMA load latency against loads in flight per SM (all SMs; GB/s, mean issue to landing):\n");
    const int rc = report_row(g, out, "L2-resident 32 KB", SRC_L2, 6, d_lat) ||
                           report_row(g, out, "A from DRAM, 8 KB", SRC_A, PG_TMA_FLOOR_MAX_STAGES, d_lat) ||
                           report_row(g, out, "DRAM, contiguous 32 KB", SRC_CONTIG, 6, d_lat) ||
                           report_sms(g, out, copy_gbs, d_lat)
                       ? -1
                       : 0;
    cudaFree(d_lat);
    return rc;
}
