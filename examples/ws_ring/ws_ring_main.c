/* ws_ring: run the example kernel, check it against the CPU, time the plain
 * and the traced build interleaved in one process, and write the trace.
 *
 *   ws_ring [--rows R] [--cols C] [--softmax-delay CYCLES] [--reps N] [--seed S]
 *           [--capacity EVENTS] [--trace OUT.csv] [--summary OUT.txt]
 *
 * Build and run: examples/ws_ring/run_on_gpu.sh (nvcc -arch=sm_90a).
 * Exit: 0 ok, 1 a check failed (output or event count), 2 usage error, no
 * GPU or a CUDA error. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "pgtrace_csv.h"
#include "pgtrace_host.h"
#include "ws_ring.h"

/* Relative error allowed against softmax in double: expf (2 ulp) and fp32
 * sums of 4096 terms stay near 1e-6; an indexing or ring bug is O(1). */
#define WS_CHECK_TOL 2e-5

/* The vocabulary this kernel's trace uses: data handed to the kit. */
static const char *const k_role_names[WS_ROLE_COUNT] = {"producer", "consumer"};
static const char *const k_phase_names[WS_PH_COUNT] = {"producer_wait", "issue", "load_wait", "softmax", "store"};
static const unsigned char k_phase_is_wait[WS_PH_COUNT] = {1, 0, 1, 0, 0};
static const pgtrace_vocab k_vocab = {WS_ROLE_COUNT, k_role_names, WS_PH_COUNT, k_phase_names, k_phase_is_wait};

typedef struct {
    int32_t rows, cols;
    int64_t softmax_delay, capacity;
    int reps;
    unsigned long long seed;
    const char *trace_path, *summary_path;
} options;

typedef struct {
    float *x, *y;    /* device */
    float *hx, *hy;  /* host */
    int grid, sm_count;
    char device[256];
    cudaStream_t stream;
    cudaEvent_t ev[2];
    pgtrace_buffer buf;
} session;

typedef struct {
    double plain_ms, traced_ms, max_rel_err;
    pgtrace_trace trace;
} results;

#define CUDA_OK(call, what)                                                                                        \
    do {                                                                                                           \
        const cudaError_t e_ = (call);                                                                             \
        if (e_ != cudaSuccess) {                                                                                   \
            fprintf(stderr, "ws_ring: %s: %s\n", what, cudaGetErrorString(e_));                                    \
            return 2;                                                                                              \
        }                                                                                                          \
    } while (0)

static void usage(FILE *f)
{
    fprintf(f, "usage: ws_ring [--rows R] [--cols C] [--softmax-delay CYCLES] [--reps N] [--seed S]\n"
               "               [--capacity EVENTS] [--trace OUT.csv] [--summary OUT.txt]\n"
               "  rows: a multiple of %d (default 6336); cols: a multiple of %d, at most %d (default 4096)\n"
               "  capacity: trace buffer events (default: exactly %d per tile)\n",
            WS_TILE_ROWS, WS_COLS_MULTIPLE, WS_MAX_COLS, WS_EVENTS_PER_TILE);
}

static int parse_int(const char *name, const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    const long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) {
        fprintf(stderr, "ws_ring: --%s '%s': expected an integer in [%lld, %lld]\n", name, s, lo, hi);
        return 2;
    }
    *out = v;
    return 0;
}

static int parse_options(int argc, char **argv, options *o)
{
    static const struct option longs[] = {
        {"rows", 1, 0, 'r'},     {"cols", 1, 0, 'c'},  {"softmax-delay", 1, 0, 'd'}, {"reps", 1, 0, 'n'},
        {"seed", 1, 0, 's'},     {"capacity", 1, 0, 'k'}, {"trace", 1, 0, 't'},     {"summary", 1, 0, 'o'},
        {"help", 0, 0, 'h'},     {0, 0, 0, 0}};
    *o = (options){.rows = 6336, .cols = 4096, .reps = 50, .seed = 1};
    long long v;
    int c;
    while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        const char *name = c == 'r' ? "rows" : c == 'c' ? "cols" : c == 'd' ? "softmax-delay" : c == 'n' ? "reps"
                         : c == 's' ? "seed" : "capacity";
        if (c == 'h') {
            usage(stdout);
            exit(0);
        } else if (c == 't') {
            o->trace_path = optarg;
        } else if (c == 'o') {
            o->summary_path = optarg;
        } else if (c == '?' || parse_int(name, optarg, c == 's' || c == 'd' ? 0 : 1, c == 'd' ? 100000000LL : 1LL << 30, &v)) {
            usage(stderr);
            return 2;
        } else if (c == 'r') {
            o->rows = (int32_t)v;
        } else if (c == 'c') {
            o->cols = (int32_t)v;
        } else if (c == 'd') {
            o->softmax_delay = v;
        } else if (c == 'n') {
            o->reps = (int)v;
        } else if (c == 's') {
            o->seed = (unsigned long long)v;
        } else {
            o->capacity = v;
        }
    }
    if (optind != argc || o->rows % WS_TILE_ROWS || o->cols % WS_COLS_MULTIPLE || o->cols > WS_MAX_COLS) {
        fprintf(stderr, "ws_ring: rows must be a multiple of %d, cols a multiple of %d up to %d (got %d x %d)\n",
                WS_TILE_ROWS, WS_COLS_MULTIPLE, WS_MAX_COLS, o->rows, o->cols);
        return 2;
    }
    return 0;
}

/* Deterministic inputs: uniform in [-6, 6) plus a per-row offset, so each
 * row's max differs (splitmix64 of seed and index). */
static void make_input(float *x, int64_t rows, int64_t cols, unsigned long long seed)
{
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++) {
            unsigned long long z = seed * 0x9E3779B97F4A7C15ull + (unsigned long long)(r * cols + c);
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
            z ^= z >> 31;
            x[r * cols + c] = (float)((double)(z >> 40) / (double)(1ull << 24) * 12.0 - 6.0 + (double)(r % 17));
        }
}

/* The largest relative error of y against softmax in double; NaN if any
 * output is not finite (the poisoned buffer was not fully written). */
static double check_softmax(const float *x, const float *y, int64_t rows, int64_t cols)
{
    double worst = 0;
    for (int64_t r = 0; r < rows; r++) {
        const float *xr = x + r * cols, *yr = y + r * cols;
        double m = -INFINITY, sum = 0;
        for (int64_t c = 0; c < cols; c++)
            m = fmax(m, xr[c]);
        for (int64_t c = 0; c < cols; c++)
            sum += exp(xr[c] - m);
        for (int64_t c = 0; c < cols; c++) {
            if (!isfinite(yr[c]))
                return NAN;
            const double ref = exp(xr[c] - m) / sum, err = fabs(yr[c] - ref) / ref;
            worst = err > worst ? err : worst;
        }
    }
    return worst;
}

static int session_open(const options *o, session *s)
{
    const size_t bytes = (size_t)o->rows * o->cols * sizeof(float);
    const int64_t tiles = o->rows / WS_TILE_ROWS;
    int n = 0;
    struct cudaDeviceProp prop;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n < 1) {
        fprintf(stderr, "ws_ring: no CUDA GPU found\n");
        return 2;
    }
    CUDA_OK(cudaGetDeviceProperties(&prop, 0), "reading the device properties");
    if (prop.major < 9) {
        fprintf(stderr, "ws_ring: %s is sm_%d%d; the kernel needs sm_90 (cp.async.bulk, mbarrier tx counts)\n",
                prop.name, prop.major, prop.minor);
        return 2;
    }
    snprintf(s->device, sizeof s->device, "%s", prop.name);
    s->sm_count = prop.multiProcessorCount;
    s->grid = (int)(tiles < s->sm_count ? tiles : s->sm_count); /* persistent: one CTA per SM */
    s->hx = malloc(bytes);
    s->hy = malloc(bytes);
    if (!s->hx || !s->hy) {
        fprintf(stderr, "ws_ring: out of host memory for %d x %d floats\n", o->rows, o->cols);
        return 2;
    }
    make_input(s->hx, o->rows, o->cols, o->seed);
    CUDA_OK(cudaMalloc((void **)&s->x, bytes), "allocating x");
    CUDA_OK(cudaMalloc((void **)&s->y, bytes), "allocating y");
    CUDA_OK(cudaMemcpy(s->x, s->hx, bytes, cudaMemcpyHostToDevice), "uploading x");
    CUDA_OK(cudaStreamCreate(&s->stream), "creating a stream");
    CUDA_OK(cudaEventCreate(&s->ev[0]), "creating an event");
    CUDA_OK(cudaEventCreate(&s->ev[1]), "creating an event");
    const int64_t capacity = o->capacity ? o->capacity : tiles * WS_EVENTS_PER_TILE;
    if (pgtrace_buffer_create(&s->buf, capacity, s->grid) != 0) {
        fprintf(stderr, "ws_ring: %s\n", pgtrace_last_error());
        return 2;
    }
    return 0;
}

static void session_close(session *s)
{
    pgtrace_buffer_destroy(&s->buf);
    cudaFree(s->x);
    cudaFree(s->y);
    if (s->stream)
        cudaStreamDestroy(s->stream);
    if (s->ev[0])
        cudaEventDestroy(s->ev[0]);
    if (s->ev[1])
        cudaEventDestroy(s->ev[1]);
    free(s->hx);
    free(s->hy);
}

/* One launch of either build; the traced one resets its buffer first
 * (outside the timed interval).  *ms gets the launch's event time. */
static int launch(const options *o, session *s, int traced, double *ms)
{
    const ws_ring_args a = {s->x, s->y, o->rows, o->cols, o->softmax_delay};
    const pgtrace_dev none = {0};
    if (traced && pgtrace_buffer_reset(&s->buf, s->stream) != 0) {
        fprintf(stderr, "ws_ring: %s\n", pgtrace_last_error());
        return 2;
    }
    CUDA_OK(cudaEventRecord(s->ev[0], s->stream), "recording an event");
    CUDA_OK(traced ? ws_ring_launch_traced(&a, s->buf.dev, s->grid, s->stream)
                   : ws_ring_launch_plain(&a, none, s->grid, s->stream),
            traced ? "launching the traced kernel" : "launching the kernel");
    CUDA_OK(cudaEventRecord(s->ev[1], s->stream), "recording an event");
    CUDA_OK(cudaEventSynchronize(s->ev[1]), "running the kernel");
    float f = 0;
    CUDA_OK(cudaEventElapsedTime(&f, s->ev[0], s->ev[1]), "reading the kernel time");
    *ms = f;
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Plain and traced launches alternate, so clock and power drift hit both
 * alike; the medians are compared. */
static int time_interleaved(const options *o, session *s, results *r)
{
    double *t[2] = {calloc((size_t)o->reps, sizeof(double)), calloc((size_t)o->reps, sizeof(double))};
    int rc = 2;
    double ms;
    if (!t[0] || !t[1]) {
        fprintf(stderr, "ws_ring: out of host memory\n");
        goto done;
    }
    for (int i = 0; i < 3; i++) /* warm-up */
        if (launch(o, s, 0, &ms) || launch(o, s, 1, &ms))
            goto done;
    for (int i = 0; i < o->reps; i++)
        for (int traced = 0; traced < 2; traced++)
            if (launch(o, s, (i + traced) % 2, &t[(i + traced) % 2][i])) /* alternate which goes first */
                goto done;
    qsort(t[0], (size_t)o->reps, sizeof(double), cmp_double);
    qsort(t[1], (size_t)o->reps, sizeof(double), cmp_double);
    r->plain_ms = t[0][o->reps / 2];
    r->traced_ms = t[1][o->reps / 2];
    rc = 0;
done:
    free(t[0]);
    free(t[1]);
    return rc;
}

/* Poison y (all bits set: NaN), run one build, download and check it. */
static int run_checked(const options *o, session *s, int traced, double *max_rel_err)
{
    const size_t bytes = (size_t)o->rows * o->cols * sizeof(float);
    double ms;
    CUDA_OK(cudaMemset(s->y, 0xFF, bytes), "poisoning y");
    if (launch(o, s, traced, &ms))
        return 2;
    CUDA_OK(cudaMemcpy(s->hy, s->y, bytes, cudaMemcpyDeviceToHost), "downloading y");
    const double err = check_softmax(s->hx, s->hy, o->rows, o->cols);
    *max_rel_err = isnan(*max_rel_err) || isnan(err) ? NAN : fmax(*max_rel_err, err);
    printf("check %-6s: max relative error %.3g (%s)\n", traced ? "traced" : "plain", err,
           err <= WS_CHECK_TOL ? "ok" : "FAIL");
    return 0;
}

/* Mean duration of each phase, and cycles per tile: per SM, the span from
 * its first event to its last over the tiles it ran, averaged over SMs. */
typedef struct {
    double phase_mean[WS_PH_COUNT];
    double cycles_per_tile;
} trace_stats;

static int summarize_trace(const pgtrace_trace *t, trace_stats *st)
{
    int64_t n[WS_PH_COUNT] = {0};
    double sum[WS_PH_COUNT] = {0};
    int64_t *lo = malloc((size_t)t->sm_count * sizeof *lo), *hi = malloc((size_t)t->sm_count * sizeof *hi);
    int64_t *tiles = calloc((size_t)t->sm_count, sizeof *tiles);
    int rc = 2;
    if (!lo || !hi || !tiles) {
        fprintf(stderr, "ws_ring: out of host memory\n");
        goto done;
    }
    for (int32_t s = 0; s < t->sm_count; s++)
        lo[s] = INT64_MAX, hi[s] = INT64_MIN;
    for (int64_t i = 0; i < t->n_events; i++) {
        const pgtrace_event *e = &t->events[i];
        if (e->phase >= WS_PH_COUNT || e->sm < 0 || e->sm >= t->sm_count)
            continue; /* pgtrace_emit reports these */
        n[e->phase]++;
        sum[e->phase] += (double)(e->end - e->begin);
        lo[e->sm] = e->begin < lo[e->sm] ? e->begin : lo[e->sm];
        hi[e->sm] = e->end > hi[e->sm] ? e->end : hi[e->sm];
        tiles[e->sm] += e->phase == WS_PH_ISSUE;
    }
    for (int p = 0; p < WS_PH_COUNT; p++)
        st->phase_mean[p] = n[p] ? sum[p] / (double)n[p] : 0;
    double per = 0;
    int used = 0;
    for (int32_t s = 0; s < t->sm_count; s++)
        if (tiles[s] > 0) {
            per += (double)(hi[s] - lo[s]) / (double)tiles[s];
            used++;
        }
    st->cycles_per_tile = used ? per / used : 0;
    rc = 0;
done:
    free(lo);
    free(hi);
    free(tiles);
    return rc;
}

static void print_summary(FILE *f, const options *o, const session *s, const results *r, const trace_stats *st,
                          int64_t expected)
{
    const double bytes = 2.0 * o->rows * o->cols * sizeof(float); /* x read once, y written once */
    fprintf(f, "device=%s\nsm_count=%d\ngrid=%d\nrows=%d\ncols=%d\ntiles=%d\nsoftmax_delay=%lld\nreps=%d\n",
            s->device, s->sm_count, s->grid, o->rows, o->cols, o->rows / WS_TILE_ROWS, (long long)o->softmax_delay,
            o->reps);
    fprintf(f, "plain_ms_median=%.6f\ntraced_ms_median=%.6f\ntrace_overhead_pct=%.3f\nplain_gb_per_s=%.1f\n",
            r->plain_ms, r->traced_ms, 100.0 * (r->traced_ms / r->plain_ms - 1.0), bytes / (r->plain_ms * 1e6));
    fprintf(f, "check_max_rel_err=%.3g\ncheck=%s\n", r->max_rel_err, r->max_rel_err <= WS_CHECK_TOL ? "pass" : "FAIL");
    fprintf(f, "events_expected=%lld\nevents_count=%llu\nevents_capacity=%lld\nevents_recorded=%lld\n"
               "events_dropped=%lld\n",
            (long long)expected, r->trace.count, (long long)r->trace.capacity, (long long)r->trace.n_events,
            (long long)r->trace.dropped);
    fprintf(f, "clock_hz=%.6g\nclock_hz_nominal=%.6g\ncycles_per_tile=%.1f\n", r->trace.clock_hz,
            r->trace.clock_hz_nominal, st->cycles_per_tile);
    for (int p = 0; p < WS_PH_COUNT; p++)
        fprintf(f, "phase_mean_cycles.%s=%.1f\n", k_phase_names[p], st->phase_mean[p]);
}

static int write_summary(const char *path, const options *o, const session *s, const results *r,
                         const trace_stats *st, int64_t expected)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        fprintf(stderr, "ws_ring: %s: path too long\n", path);
        return 2;
    }
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "ws_ring: %s: %s\n", tmp, strerror(errno));
        return 2;
    }
    print_summary(f, o, s, r, st, expected);
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, "ws_ring: writing %s: %s\n", path, strerror(errno));
        unlink(tmp);
        return 2;
    }
    return 0;
}

/* Every event is counted even when the buffer is full. */
static int check_events(const results *r, int64_t expected)
{
    const pgtrace_trace *t = &r->trace;
    if (t->count != (unsigned long long)expected ||
        t->dropped != (expected > t->capacity ? expected - t->capacity : 0) || t->n_events + t->dropped != expected) {
        fprintf(stderr, "ws_ring: FAIL: %llu events counted, %lld recorded, %lld dropped; expected %lld in all\n",
                t->count, (long long)t->n_events, (long long)t->dropped, (long long)expected);
        return 1;
    }
    return 0;
}

static int run(const options *o, session *s, results *r)
{
    int rc;
    trace_stats st = {0};
    const int64_t expected = (int64_t)(o->rows / WS_TILE_ROWS) * WS_EVENTS_PER_TILE;
    if ((rc = session_open(o, s)) || (rc = time_interleaved(o, s, r)) || (rc = run_checked(o, s, 0, &r->max_rel_err)) ||
        (rc = run_checked(o, s, 1, &r->max_rel_err)))
        return rc;
    if (pgtrace_buffer_collect(&s->buf, &r->trace) != 0) {
        fprintf(stderr, "ws_ring: %s\n", pgtrace_last_error());
        return 2;
    }
    if ((rc = summarize_trace(&r->trace, &st)))
        return rc;
    print_summary(stdout, o, s, r, &st, expected);
    if (o->summary_path && (rc = write_summary(o->summary_path, o, s, r, &st, expected)))
        return rc;
    if (o->trace_path && pgtrace_emit(&r->trace, &k_vocab, "ws_ring", pgtrace_write_csv, (void *)o->trace_path)) {
        fprintf(stderr, "ws_ring: writing the trace: %s\n", pgtrace_last_error());
        return 1; /* emit refuses a trace that breaks the vocabulary or its anchors: a failed check */
    }
    if ((rc = check_events(r, expected)))
        return rc;
    return r->max_rel_err <= WS_CHECK_TOL ? 0 : 1;
}

int main(int argc, char **argv)
{
    options o;
    session s = {0};
    results r = {0};
    int rc = parse_options(argc, argv, &o);
    if (rc == 0)
        rc = run(&o, &s, &r);
    pgtrace_trace_free(&r.trace);
    session_close(&s);
    return rc;
}
