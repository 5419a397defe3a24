/* The dual-GEMM kernel's host side (dual_gpu.h): what the kernel supports,
 * the problem uploaded, the four TMA descriptors, the persistent grid,
 * launches (production and trace build), the trace's slot layout and its
 * completeness check, the download. */
#include "dual_gpu.h"

#include <stdlib.h>
#include <string.h>

#include <cudaTypedefs.h>

#include "dual_kernel.h"
#include "formats.h"
#include "pg_error.h"
#include "tma_maps.h"

struct pg_dual_gpu {
    int64_t G, M, N, K, MB, NB, KB;
    pg_out_dtype out;
    uint8_t *A, *B1, *B2;
    float *scale_a, *scale_b1, *scale_b2;
    uint16_t *C;
    pg_dual_params params; /* descriptors and shape; delays and trace set per launch */
    int grid;
    int64_t tiles;
    int owns_buffers; /* 1: create's uploads, freed with the handle; 0: wrap's, the caller's */
};

#define CUDA_OK(call)                                                                                              \
    do {                                                                                                           \
        cudaError_t e_ = (call);                                                                                   \
        if (e_ != cudaSuccess) {                                                                                   \
            rc = pg_fail("%s: %s", #call, cudaGetErrorString(e_));                                                 \
            goto done;                                                                                             \
        }                                                                                                          \
    } while (0)

static const char *const k_design_names[PG_DUAL_DESIGN_COUNT] = {"inter", "seq"};

const char *pg_dual_design_name(pg_dual_design d)
{
    return d >= 0 && d < PG_DUAL_DESIGN_COUNT ? k_design_names[d] : "?";
}

int pg_dual_design_parse(const char *s, pg_dual_design *d)
{
    for (int i = 0; i < PG_DUAL_DESIGN_COUNT; i++)
        if (s && strcmp(s, k_design_names[i]) == 0) {
            *d = (pg_dual_design)i;
            return 0;
        }
    return pg_fail("unknown dual-GEMM design '%s' (inter, seq)", s ? s : "(null)");
}

/* What the kernel needs of the shape and output type. */
static int check_dims(int64_t G, int64_t M, int64_t N, int64_t K, pg_out_dtype out)
{
    if (G < 1 || M < 1 || N < 1 || K < 1)
        return pg_fail("dual GPU kernel: shape G=%lld M=%lld N=%lld K=%lld", (long long)G, (long long)M,
                       (long long)N, (long long)K);
    if (out != PG_OUT_BF16 && out != PG_OUT_FP16)
        return pg_fail("dual GPU kernel: output type %s unsupported (bf16, fp16)", pg_out_dtype_name(out));
    if (M % PG_DUAL_BLOCK || N % PG_DUAL_BLOCK || K % PG_DUAL_BLOCK)
        return pg_fail("dual GPU kernel: M, N, K must be multiples of %d (M=%lld N=%lld K=%lld)", PG_DUAL_BLOCK,
                       (long long)M, (long long)N, (long long)K);
    /* TMA coordinates and the kernel's row and tile indices are 32-bit
     * (G*M first: with M, N >= 128 and G*M, G*N < 2^31 nothing below overflows) */
    if (G > INT32_MAX / M || G > INT32_MAX / N || K > INT32_MAX ||
        G * (M / PG_DUAL_BLOCK) * (N / PG_DUAL_BLOCK) > INT32_MAX)
        return pg_fail("dual GPU kernel: G*M, G*N, K and the tile count must stay below 2^31");
    return 0;
}

/* What the kernel needs of the problem, p aside. */
static int check_shape(const pg_dual_problem *dp)
{
    if (dp->scale != PG_SCALE_BLOCK)
        return pg_fail("dual GPU kernel: scale kind '%s' unsupported (block only)", pg_scale_kind_name(dp->scale));
    if (dp->fmt_a != PG_FMT_E4M3 || dp->fmt_b != PG_FMT_E4M3)
        return pg_fail("dual GPU kernel: operand formats %s x %s unsupported (e4m3 x e4m3 only)",
                       pg_fp8_format_name(dp->fmt_a), pg_fp8_format_name(dp->fmt_b));
    if (check_dims(dp->G, dp->M, dp->N, dp->K, dp->out) != 0)
        return -1;
    if (!dp->scale_a || !dp->scale_b1 || !dp->scale_b2)
        return pg_fail("dual GPU kernel: block scales missing");
    return 0;
}

int pg_dual_gpu_supports(const pg_dual_problem *dp, const pg_accum_params *p)
{
    if (pg_dual_check(dp, p) != 0)
        return -1;
    if (pg_accum_params_mode(p) != PG_ACC_SM90)
        return pg_fail("dual GPU kernel: accumulation '%s' unsupported (the sm90 preset only)", p->name);
    return check_shape(dp);
}

/* The persistent grid: min(#SMs, #tiles), once the device can hold a CTA
 * of each design on an SM. */
static int grid_for(pg_dual_gpu *g)
{
    int rc = -1, dev = 0, sms = 0, optin = 0;
    CUDA_OK(cudaGetDevice(&dev));
    CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CUDA_OK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    for (int d = 0; d < PG_DUAL_DESIGN_COUNT; d++) {
        const size_t smem = pg_dual_kernel_smem_bytes(d);
        int ctas = 0;
        if (smem > PG_DUAL_MAX_SMEM || smem > (size_t)optin) {
            rc = pg_fail("dual GPU kernel '%s': %zu bytes of shared memory, the device allows %d",
                         k_design_names[d], smem, optin);
            goto done;
        }
        CUDA_OK(pg_dual_kernel_occupancy(d, &ctas));
        if (ctas < 1) {
            rc = pg_fail("dual GPU kernel '%s': no CTA fits on an SM", k_design_names[d]);
            goto done;
        }
    }
    g->grid = (int)(g->tiles < sms ? g->tiles : sms);
    rc = 0;
done:
    return rc;
}

static int build_maps(pg_dual_gpu *g)
{
    pg_dual_params *p = &g->params;
    const int64_t rows_a = g->G * g->M, rows_b = g->G * g->N;
    if (pg_tma_encode_2d(&p->map_a, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, g->A, rows_a, g->K, PG_DUAL_BLOCK, PG_DUAL_BLOCK,
                         CU_TENSOR_MAP_SWIZZLE_128B, "dual A") ||
        pg_tma_encode_2d(&p->map_b1, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, g->B1, rows_b, g->K, PG_DUAL_BLOCK,
                         PG_DUAL_BLOCK, CU_TENSOR_MAP_SWIZZLE_128B, "dual B1") ||
        pg_tma_encode_2d(&p->map_b2, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, g->B2, rows_b, g->K, PG_DUAL_BLOCK,
                         PG_DUAL_BLOCK, CU_TENSOR_MAP_SWIZZLE_128B, "dual B2") ||
        pg_tma_encode_2d(&p->map_c, CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, g->C, rows_a, g->N, PG_DUAL_BLOCK, 64,
                         CU_TENSOR_MAP_SWIZZLE_128B, "dual C"))
        return -1;
    p->scale_a = g->scale_a;
    p->scale_b1 = g->scale_b1;
    p->scale_b2 = g->scale_b2;
    p->G = (int32_t)g->G;
    p->M = (int32_t)g->M;
    p->N = (int32_t)g->N;
    p->K = (int32_t)g->K;
    return 0;
}

/* A handle for a checked shape, buffers not yet set. */
static pg_dual_gpu *handle_new(int64_t G, int64_t M, int64_t N, int64_t K, pg_out_dtype out, int owns_buffers)
{
    pg_dual_gpu *g = calloc(1, sizeof *g);
    if (!g) {
        pg_fail("dual GPU kernel: out of host memory");
        return NULL;
    }
    g->G = G, g->M = M, g->N = N, g->K = K, g->out = out, g->owns_buffers = owns_buffers;
    g->MB = M / PG_DUAL_BLOCK, g->NB = N / PG_DUAL_BLOCK, g->KB = K / PG_DUAL_BLOCK;
    g->tiles = G * g->MB * g->NB;
    return g;
}

/* The bytes of each buffer of g's shape. */
typedef struct {
    size_t a, b, sa, sb, c;
} buffer_bytes;

static buffer_bytes bytes_of(const pg_dual_gpu *g)
{
    return (buffer_bytes){
        .a = (size_t)(g->G * g->M * g->K),
        .b = (size_t)(g->G * g->N * g->K),
        .sa = (size_t)(g->G * g->M * g->KB) * sizeof(float),
        .sb = (size_t)(g->G * g->NB * g->KB) * sizeof(float),
        .c = (size_t)(g->G * g->M * g->N) * sizeof(uint16_t),
    };
}

int pg_dual_gpu_create(pg_dual_gpu **out, const pg_dual_problem *dp)
{
    int rc = -1;
    pg_dual_gpu *g = NULL;
    *out = NULL;
    if (!dp || !dp->A || !dp->B1 || !dp->B2)
        return pg_fail("dual GPU kernel: missing problem or operands");
    if (check_shape(dp) != 0 || !(g = handle_new(dp->G, dp->M, dp->N, dp->K, dp->out, 1)))
        return -1;
    const buffer_bytes n = bytes_of(g);
    CUDA_OK(cudaMalloc((void **)&g->A, n.a));
    CUDA_OK(cudaMalloc((void **)&g->B1, n.b));
    CUDA_OK(cudaMalloc((void **)&g->B2, n.b));
    CUDA_OK(cudaMalloc((void **)&g->scale_a, n.sa));
    CUDA_OK(cudaMalloc((void **)&g->scale_b1, n.sb));
    CUDA_OK(cudaMalloc((void **)&g->scale_b2, n.sb));
    CUDA_OK(cudaMalloc((void **)&g->C, n.c));
    CUDA_OK(cudaMemcpy(g->A, dp->A, n.a, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(g->B1, dp->B1, n.b, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(g->B2, dp->B2, n.b, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(g->scale_a, dp->scale_a, n.sa, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(g->scale_b1, dp->scale_b1, n.sb, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(g->scale_b2, dp->scale_b2, n.sb, cudaMemcpyHostToDevice));
    /* poison: 0xFFFF is a NaN neither converter writes (theirs is 0x7FFF), so
     * an element the kernel never stored shows in any comparison */
    CUDA_OK(cudaMemset(g->C, 0xFF, n.c));
    if (build_maps(g) != 0 || grid_for(g) != 0)
        goto done;
    *out = g;
    rc = 0;
done:
    if (rc)
        pg_dual_gpu_free(g);
    return rc;
}

/* ---------------------------------------------------------------- caller-owned buffers */
/* The driver's cuMemGetAddressRange, through the runtime (as tma_maps.c
 * gets its encoder), so nothing links libcuda. */
static PFN_cuMemGetAddressRange_v3020 get_address_range(void)
{
    static PFN_cuMemGetAddressRange_v3020 fn = NULL;
    if (!fn) {
        void *p = NULL;
        enum cudaDriverEntryPointQueryResult q;
        cudaError_t e = cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &p, 12000, cudaEnableDefault, &q);
        if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || !p) {
            pg_fail("the CUDA driver has no cuMemGetAddressRange (%s)", cudaGetErrorString(e));
            return NULL;
        }
        fn = (PFN_cuMemGetAddressRange_v3020)p;
    }
    return fn;
}

/* No device touched: present, aligned (TMA needs 16-byte base addresses;
 * the scales are read as floats). */
static int check_pointer(const void *p, size_t align, const char *what)
{
    if (!p)
        return pg_fail("dual GPU kernel: %s is NULL", what);
    if ((uintptr_t)p % align)
        return pg_fail("dual GPU kernel: %s at %p is not %zu-byte aligned", what, p, align);
    return 0;
}

/* p .. p + bytes is device memory of the current device, inside one
 * allocation (a smaller tensor would be read past its end). */
static int check_device_range(const void *p, size_t bytes, const char *what)
{
    int rc = -1, dev = 0;
    struct cudaPointerAttributes at;
    CUdeviceptr base = 0;
    size_t size = 0;
    PFN_cuMemGetAddressRange_v3020 range = get_address_range();
    if (!range)
        goto done;
    CUDA_OK(cudaGetDevice(&dev));
    CUDA_OK(cudaPointerGetAttributes(&at, p));
    if ((at.type != cudaMemoryTypeDevice && at.type != cudaMemoryTypeManaged) || at.device != dev) {
        rc = pg_fail("dual GPU kernel: %s at %p is not memory of the current device %d (type %d, device %d)", what,
                     p, dev, (int)at.type, at.device);
        goto done;
    }
    const CUresult r = range(&base, &size, (CUdeviceptr)(uintptr_t)p);
    if (r != CUDA_SUCCESS) {
        rc = pg_fail("dual GPU kernel: cuMemGetAddressRange of %s at %p: CUresult %d", what, p, (int)r);
        goto done;
    }
    if ((uintptr_t)p - (uintptr_t)base > size || size - ((uintptr_t)p - (uintptr_t)base) < bytes) {
        rc = pg_fail("dual GPU kernel: %s at %p needs %zu bytes; its allocation ends %zu bytes after it", what, p,
                     bytes, (size_t)(size - ((uintptr_t)p - (uintptr_t)base)));
        goto done;
    }
    rc = 0;
done:
    return rc;
}

int pg_dual_gpu_wrap(pg_dual_gpu **out, int64_t G, int64_t M, int64_t N, int64_t K, pg_out_dtype out_dtype,
                     const void *A, const void *B1, const void *B2, const float *scale_a, const float *scale_b1,
                     const float *scale_b2, void *C)
{
    int rc = -1;
    pg_dual_gpu *g = NULL;
    *out = NULL;
    if (check_dims(G, M, N, K, out_dtype) != 0 || check_pointer(A, 16, "A") || check_pointer(B1, 16, "B1") ||
        check_pointer(B2, 16, "B2") || check_pointer(scale_a, 4, "scale_a") ||
        check_pointer(scale_b1, 4, "scale_b1") || check_pointer(scale_b2, 4, "scale_b2") ||
        check_pointer(C, 16, "C") || !(g = handle_new(G, M, N, K, out_dtype, 0)))
        return -1;
    /* the kernel only reads A, B1, B2 and the scales (the handle's fields
     * serve create's uploads too, hence not const) */
    g->A = (uint8_t *)(uintptr_t)A, g->B1 = (uint8_t *)(uintptr_t)B1, g->B2 = (uint8_t *)(uintptr_t)B2;
    g->scale_a = (float *)(uintptr_t)scale_a, g->scale_b1 = (float *)(uintptr_t)scale_b1;
    g->scale_b2 = (float *)(uintptr_t)scale_b2, g->C = C;
    const buffer_bytes n = bytes_of(g);
    if (check_device_range(A, n.a, "A") || check_device_range(B1, n.b, "B1") || check_device_range(B2, n.b, "B2") ||
        check_device_range(scale_a, n.sa, "scale_a") || check_device_range(scale_b1, n.sb, "scale_b1") ||
        check_device_range(scale_b2, n.sb, "scale_b2") || check_device_range(C, n.c, "C") || build_maps(g) != 0 ||
        grid_for(g) != 0)
        goto done;
    *out = g;
    rc = 0;
done:
    if (rc)
        pg_dual_gpu_free(g);
    return rc;
}

static int launch(pg_dual_gpu *g, pg_dual_design d, const pg_dual_probe *probe, const pgtrace_buffer *buf,
                  cudaStream_t s)
{
    int rc = -1;
    if (d < 0 || d >= PG_DUAL_DESIGN_COUNT)
        return pg_fail("dual GPU kernel: unknown design code %d", (int)d);
    pg_dual_params p = g->params;
    p.epi_delay = probe ? probe->epi_delay : 0;
    p.mainloop_delay = probe ? probe->mainloop_delay : 0;
    if (buf) {
        p.trace = buf->dev;
        p.trace_tiles_per_cta = (int32_t)(buf->slots_per_cta / PG_DTR_PHASES);
    }
    CUDA_OK(pg_dual_kernel_launch((int)d, g->out == PG_OUT_FP16, buf != NULL, &p, g->grid, s));
    rc = 0;
done:
    if (rc)
        pg_fail_context("launching the dual kernel '%s' on %d CTAs", pg_dual_design_name(d), g->grid);
    return rc;
}

int pg_dual_gpu_launch(pg_dual_gpu *g, pg_dual_design d, const pg_dual_probe *probe, cudaStream_t s)
{
    return launch(g, d, probe, NULL, s);
}

/* ---------------------------------------------------------------- trace build */
static int64_t tiles_per_cta(const pg_dual_gpu *g) { return (g->tiles + g->grid - 1) / g->grid; }

int pg_dual_gpu_trace_buffer(const pg_dual_gpu *g, pgtrace_buffer *buf)
{
    if (pgtrace_buffer_create_compact(buf, tiles_per_cta(g) * PG_DTR_PHASES, g->grid) != 0) {
        pg_fail("%s", pgtrace_last_error());
        return pg_fail_context("allocating the dual kernel's trace buffer");
    }
    return 0;
}

int pg_dual_gpu_launch_traced(pg_dual_gpu *g, pg_dual_design d, const pg_dual_probe *probe, const pgtrace_buffer *buf,
                              cudaStream_t s)
{
    if (!buf || buf->slots_per_cta != tiles_per_cta(g) * PG_DTR_PHASES || buf->n_ctas != g->grid)
        return pg_fail("dual GPU kernel: the trace buffer was not made for this problem (pg_dual_gpu_trace_buffer)");
    if (pgtrace_buffer_reset(buf, s) != 0)
        return pg_fail("%s", pgtrace_last_error());
    return launch(g, d, probe, buf, s);
}

/* The output tile (g, mb, nb) as the row-major index (g MB + mb) NB + nb
 * of the schedule index t: dual.cuh's dual_tile_of on the host. */
static int64_t output_tile(const pg_dual_gpu *g, int64_t t)
{
    const int64_t group = t / (g->MB * g->NB), r = t % (g->MB * g->NB);
    int64_t mb, nb;
    if (g->MB <= g->NB)
        mb = r % g->MB, nb = r / g->MB;
    else
        nb = r % g->NB, mb = r / g->NB;
    return (group * g->MB + mb) * g->NB + nb;
}

/* Slot s of CTA c: local tile s / PG_DTR_PHASES (schedule index c + i grid),
 * phase s % PG_DTR_PHASES; the producer's phases first. */
static int describe_slot(void *ctx, int32_t cta, int64_t slot, pgtrace_slot_info *out)
{
    const pg_dual_gpu *g = ctx;
    const int64_t t = cta + slot / PG_DTR_PHASES * g->grid;
    const int phase = (int)(slot % PG_DTR_PHASES);
    if (t >= g->tiles)
        return 0;
    out->role = phase <= PG_DTR_PRODUCER_ISSUE ? PG_DTR_PRODUCER : PG_DTR_CONSUMER;
    out->warp = 0;
    out->tile = (int32_t)output_tile(g, t);
    out->phase = (uint32_t)phase;
    return 1;
}

/* Every tile once per phase, nothing else. */
static int check_complete(const pg_dual_gpu *g, const pgtrace_trace *t)
{
    int rc = -1;
    uint8_t *seen = calloc((size_t)(g->tiles * PG_DTR_PHASES), 1);
    if (!seen)
        return pg_fail("dual trace: out of host memory");
    for (int64_t k = 0; k < t->n_events; k++) {
        const pgtrace_event *e = &t->events[k];
        if (e->tile < 0 || e->tile >= g->tiles || e->phase >= PG_DTR_PHASES) {
            rc = pg_fail("dual trace: row %lld names tile %d phase %d", (long long)k, e->tile, e->phase);
            goto done;
        }
        uint8_t *s = &seen[(int64_t)e->tile * PG_DTR_PHASES + e->phase];
        if (*s) {
            rc = pg_fail("dual trace: tile %d phase %d recorded twice", e->tile, e->phase);
            goto done;
        }
        *s = 1;
    }
    for (int64_t i = 0; i < g->tiles * PG_DTR_PHASES; i++)
        if (!seen[i]) {
            rc = pg_fail("dual trace: tile %lld phase %s not recorded", (long long)(i / PG_DTR_PHASES),
                         pg_dual_trace_vocab()->phase_names[i % PG_DTR_PHASES]);
            goto done;
        }
    rc = 0;
done:
    free(seen);
    return rc;
}

int pg_dual_gpu_trace_collect(const pg_dual_gpu *g, const pgtrace_buffer *buf, pgtrace_trace *out)
{
    int rc = -1;
    memset(out, 0, sizeof *out);
    const pgtrace_slot_layout layout = {buf->slots_per_cta, describe_slot, (void *)g};
    if (pgtrace_buffer_collect_compact(buf, &layout, out) != 0) {
        rc = pg_fail("dual trace: %s", pgtrace_last_error());
        goto done;
    }
    if (out->dropped != 0) { /* the slots are sized for the schedule: a drop is a bug */
        rc = pg_fail("dual trace: %lld events dropped", (long long)out->dropped);
        goto done;
    }
    if (check_complete(g, out) != 0)
        goto done;
    rc = 0;
done:
    if (rc)
        pgtrace_trace_free(out);
    return rc;
}

static const char *const k_roles[PG_DTR_ROLES] = {[PG_DTR_PRODUCER] = "producer", [PG_DTR_CONSUMER] = "consumer"};
static const char *const k_phases[PG_DTR_PHASES] = {
    [PG_DTR_PRODUCER_WAIT] = "producer_wait", [PG_DTR_PRODUCER_ISSUE] = "producer_issue",
    [PG_DTR_LOAD_WAIT] = "load_wait",         [PG_DTR_MAINLOOP] = "mainloop",
    [PG_DTR_EPILOGUE_MATH] = "epilogue_math", [PG_DTR_EPILOGUE_STORE] = "epilogue_store",
};
static const unsigned char k_waits[PG_DTR_PHASES] = {[PG_DTR_PRODUCER_WAIT] = 1, [PG_DTR_LOAD_WAIT] = 1};
static const pgtrace_vocab k_vocab = {PG_DTR_ROLES, k_roles, PG_DTR_PHASES, k_phases, k_waits};

const pgtrace_vocab *pg_dual_trace_vocab(void) { return &k_vocab; }

/* ---------------------------------------------------------------- results, handles */
int pg_dual_gpu_download(const pg_dual_gpu *g, void *C)
{
    int rc = -1;
    CUDA_OK(cudaDeviceSynchronize()); /* also reports a failed launch */
    CUDA_OK(cudaMemcpy(C, g->C, (size_t)(g->G * g->M * g->N) * sizeof(uint16_t), cudaMemcpyDeviceToHost));
    rc = 0;
done:
    return rc;
}

int64_t pg_dual_gpu_tiles(const pg_dual_gpu *g) { return g->tiles; }
int pg_dual_gpu_grid(const pg_dual_gpu *g) { return g->grid; }

void pg_dual_gpu_buffers_get(const pg_dual_gpu *g, pg_dual_gpu_buffers *b)
{
    *b = (pg_dual_gpu_buffers){g->A, g->B1, g->B2, g->scale_a, g->scale_b1, g->scale_b2, g->C};
}

void pg_dual_gpu_free(pg_dual_gpu *g)
{
    if (!g)
        return;
    if (!g->owns_buffers) {
        free(g);
        return;
    }
    cudaFree(g->A);
    cudaFree(g->B1);
    cudaFree(g->B2);
    cudaFree(g->scale_a);
    cudaFree(g->scale_b1);
    cudaFree(g->scale_b2);
    cudaFree(g->C);
    free(g);
}

static int gemm_gpu(pg_dual_design d, const pg_dual_problem *dp, const pg_accum_params *p, void *C)
{
    int rc = -1;
    pg_dual_gpu *g = NULL;
    if (!C)
        return pg_fail("dual GPU kernel: missing output C");
    if (pg_dual_gpu_supports(dp, p) != 0 || pg_dual_gpu_create(&g, dp) != 0 || pg_dual_gpu_launch(g, d, NULL, 0) != 0 ||
        pg_dual_gpu_download(g, C) != 0)
        goto done;
    rc = 0;
done:
    pg_dual_gpu_free(g);
    return rc;
}

int pg_dual_gemm_gpu_inter(const pg_dual_problem *dp, const pg_accum_params *p, void *C)
{
    return gemm_gpu(PG_DUAL_INTER, dp, p, C);
}

int pg_dual_gemm_gpu_seq(const pg_dual_problem *dp, const pg_accum_params *p, void *C)
{
    return gemm_gpu(PG_DUAL_SEQ, dp, p, C);
}
