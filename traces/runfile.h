/* The HDF5 run file, schema v2 (docs/format.md; v1 files are read too).  One file per run:
 * problem, kernel config and device, timing samples, outputs, trace.
 * Version 2: a trace carries its own vocabulary (role and phase names,
 * waits) and may name its schedule; v1 files still read.
 * Written atomically (temp file in the same directory + rename); validated
 * on read with messages that name the dataset and what is wrong. */
#ifndef PG_RUNFILE_H
#define PG_RUNFILE_H

#include <stdint.h>

#include "accum.h"
#include "accum_params.h"
#include "formats.h"
#include "phases.h"
#include "problem.h"

#define PG_RUN_SCHEMA_VERSION 2

/* One row per phase interval. Times are SM clock64 cycles. */
typedef struct {
    int64_t n;
    int32_t *sm;
    uint8_t *role;  /* code in vocab.role */
    int32_t *warp;  /* warp or warpgroup index within the role */
    int32_t *tile;  /* linear tile index */
    uint8_t *phase; /* code in vocab.phase */
    int64_t *begin;
    int64_t *end;
    /* per-SM anchor: clock64 and %globaltimer (ns) read together at kernel start */
    int64_t n_sm;
    int64_t *anchor_clock;
    int64_t *anchor_globaltimer_ns;
    /* The kernel's own names (written with the trace; a v1 file's are the
     * prefix of pg_vocab_pegemm() it listed). */
    pg_vocab vocab;
    char schedule[128]; /* the schedule that describes the kernel ("" none): a built-in name or a .sched path */
    char kernel[64];    /* the traced kernel's name ("" none; /kernel name describes pegemm's GEMM kernels) */
    double clock_hz;    /* the SM clock measured with the trace (0: none; /kernel sm_clock_hz otherwise) */
    int from_v1;        /* read from a schema-v1 file */
} pg_trace;

/* A named set of timing samples (e.g. "fused", "cublaslt_gemm", "copy"). */
typedef struct {
    char name[48];
    int64_t n;
    double *ms;   /* samples in milliseconds */
    double flops; /* work per sample, for TFLOPS (0 if not meaningful) */
    double bytes; /* compulsory bytes per sample, for GB/s */
} pg_timing;

#define PG_MAX_TIMINGS 32

typedef struct {
    int present;
    char name[64];        /* kernel name/version, e.g. "h100-pingpong" */
    char device[128];     /* GPU name */
    int sm_count;
    double sm_clock_hz;   /* measured SM clock (clock64 vs globaltimer) */
    int tile_m, tile_n, tile_k, stages, consumers;
    int trace_build;      /* 1 if the clock64 trace build */
    int64_t epi_delay;    /* model probes, cycles (0 = off) */
    int64_t mainloop_delay;
    int64_t l2_bytes;     /* the GPU's L2 cache, bytes (optional attribute; 0: not recorded) */
    int cluster;          /* CTAs per cluster that share loads by multicast (optional attribute; 0: not recorded) */
} pg_kernel_info;

typedef struct {
    /* inputs: read from /problem or regenerated from family+seed.  A run
     * without a GEMM problem (a trace of another kernel, v2) has none:
     * problem.shape.M == 0, and no outputs. */
    pg_problem problem;
    int problem_stored;   /* 1 if /problem/A,B,combined are in the file */

    /* outputs (nrows == 0: none) */
    pg_accum_mode mode;   /* accumulation mode the outputs were made in (when accum is a preset) */
    pg_epilogue epilogue;
    /* The accumulation parameter set, field by field (/output accum_*).
     * Writers may leave accum.name NULL: the preset of `mode` is written.
     * The reader fills it; a set of its own has the name "custom" (then
     * mode_custom = 1 and `mode` means nothing). */
    pg_accum_params accum;
    int mode_custom;
    char library[32];     /* library preset of the epilogue ("": none; general problems only) */
    int64_t nrows;
    int64_t *rows;        /* NULL when all M rows are stored in order */
    uint16_t *D;          /* [nrows, N] bf16 or fp16 bits (problem.out); NULL for fp32 outputs */
    uint32_t *D32;        /* [nrows, N] fp32 bits when problem.out is fp32 */
    float *acc;           /* [nrows, N] or NULL */

    pg_kernel_info kernel;
    int ntimings;
    pg_timing timings[PG_MAX_TIMINGS];
    pg_trace trace;       /* trace.n == 0: no trace */
} pg_run;

/* What pg_run_read loads beyond the metadata (problem attributes, output
 * mode and epilogue, kernel info, timings).  Every part present in the file
 * is validated either way; a part not asked for is left empty, as if the
 * file had none (A/B/combined NULL; nrows 0; trace.n 0). */
enum {
    PG_READ_PROBLEM = 1, /* A, B, combined (regenerated if the file only has family+seed) */
    PG_READ_OUTPUT = 2,
    PG_READ_TRACE = 4,
    PG_READ_ALL = 7,
};

/* Write `run` to `path` atomically: nothing at `path` changes unless the
 * whole file was written and closed.  `store_problem` chooses whether the
 * inputs go in the file (required when family is "file"). */
int pg_run_write(const char *path, const pg_run *run, int store_problem);
/* Read and validate.  On failure the run is left empty and the message
 * names the file, the dataset and the problem.  The file must be a regular
 * file; its metadata is first walked in a child process under a time limit
 * (runfile_isolate.c), so a file that crashes or hangs libhdf5 is refused
 * ("malformed HDF5 file (the HDF5 library crashed reading it: signal 11,
 * ...)") without harming the caller. */
int pg_run_read(const char *path, pg_run *run, unsigned what);
/* The same read in this process, without the isolated pre-read: for
 * fuzzers, and for files already known to be well-formed. */
int pg_run_read_direct(const char *path, pg_run *run, unsigned what);
/* Only the isolated pre-read: 0 if libhdf5 walks the file's metadata
 * without crashing and within PEGEMM_READ_TIMEOUT seconds (default 60;
 * 0 skips it), else -1 with the reason. */
int pg_run_read_isolated_check(const char *path);
void pg_run_free(pg_run *run);

/* Helpers for building runs. */
int pg_run_add_timing(pg_run *run, const char *name, const double *ms, int64_t n, double flops, double bytes);
/* Columns for n rows and n_sm anchors; the vocabulary starts empty: set
 * t->vocab (pg_vocab_pegemm for pegemm's kernels) before writing. */
int pg_trace_alloc(pg_trace *t, int64_t n, int64_t n_sm);
/* Free a trace's columns and leave it zeroed (n == 0). */
void pg_trace_free(pg_trace *t);

#endif
