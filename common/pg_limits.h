/* Every size and count pegemm accepts from a file or a command line, in one
 * place.  Each bound comes from a physical limit with generous headroom, so
 * no real run comes near it, while a hostile or corrupt input is refused
 * before anything is allocated or looped over (docs/format.md, "What the
 * reader checks"; docs/reliability.md). */
#ifndef PG_LIMITS_H
#define PG_LIMITS_H

#include <stdint.h>

/* ---- problem shape (reference/problem.c) ----
 * M: rows of A and D.  The headline problem has 928,256 (4736 images);
 * 2^26 rows of K = 768 are 51 GB of A alone, more than any GPU holds. */
#define PG_LIMIT_M ((int64_t)1 << 26)
/* N, K: embedding width and patch size (768 for 16x16x3 patches); a
 * 65,536-wide layer is far beyond any vision encoder. */
#define PG_LIMIT_N ((int64_t)1 << 16)
#define PG_LIMIT_K ((int64_t)1 << 16)
/* P: patches per image (196 for 224/16). */
#define PG_LIMIT_P ((int64_t)1 << 16)
/* Any one matrix (A, B, combined, D, accumulators): 256 GiB, more than the
 * memory of any one GPU (H200: 141 GB). */
#define PG_LIMIT_MATRIX_BYTES ((int64_t)1 << 38)

/* ---- /kernel attributes ----
 * SMs per device: H100 SXM 132, B200 148; 1024 leaves room for any GPU. */
#define PG_LIMIT_SM_COUNT 1024
/* The SM clock: anything outside 1 MHz .. 100 GHz is not a measurement. */
#define PG_LIMIT_CLOCK_HZ_MIN 1e6
#define PG_LIMIT_CLOCK_HZ_MAX 1e11
/* Tile edges (the hardware's largest MMA tile is 256; TMA boxes <= 256). */
#define PG_LIMIT_TILE 4096
/* Pipeline stages (shared memory holds at most a few dozen). */
#define PG_LIMIT_STAGES 256
/* Consumer warpgroups: a CTA has at most 32 warps. */
#define PG_LIMIT_CONSUMERS 32
/* /kernel cluster: CTAs per cluster (Hopper's portable maximum is 8, 16 with
 * the non-portable size); 0 = not recorded */
#define PG_LIMIT_CLUSTER 16
/* The GPU's L2 (optional l2_bytes): 0 = not recorded; an H100 has 50 MiB,
 * 1 TiB is past any cache. */
#define PG_LIMIT_L2_BYTES ((int64_t)1 << 40)
/* Model-probe spins (epi_delay, mainloop_delay), cycles: 2^31 cycles is
 * over a second per tile. */
#define PG_LIMIT_DELAY ((int64_t)1 << 31)

/* ---- counts of rows and samples in a file ----
 * Trace intervals: a full headline trace has about 40 per tile times
 * 29,008 tiles (1.2 M); 2^28 is 200 times that (7.5 GB in memory). */
#define PG_LIMIT_TRACE_ROWS ((int64_t)1 << 28)
/* Timing samples per set (a benchmark takes hundreds). */
#define PG_LIMIT_TIMING_SAMPLES ((int64_t)1 << 24)
/* Clock values (clock64 cycles, %globaltimer ns): 2^62 ns is 146 years,
 * and keeping values below it makes every difference and sum of two of
 * them fit an int64. */
#define PG_LIMIT_CLOCK_VALUE ((int64_t)1 << 62)

/* ---- strings ----
 * Variable-length string attributes are refused above this many bytes
 * before HDF5 is asked to read them (names are at most 128 bytes). */
#define PG_LIMIT_STRING_BYTES 4096
/* Entries of a string-list attribute (phase_names, role_names). */
#define PG_LIMIT_STRING_LIST 256

/* ---- reading ----
 * A dataset's logical size may exceed its stored bytes only by what
 * deflate can compress (at most about 1032:1) plus a small allowance for
 * fill values; more means unallocated storage that would be read as fill
 * values into memory the file never paid for. */
#define PG_LIMIT_INFLATE_RATIO 1100
#define PG_LIMIT_INFLATE_SLACK_BYTES ((int64_t)1 << 20)
/* The isolated reader's default time limit (PEGEMM_READ_TIMEOUT overrides). */
#define PG_LIMIT_READ_TIMEOUT_S 60
/* Memory the isolated pre-read may allocate beyond what the process has
 * (traces/runfile_isolate.c): the metadata walk needs a few MB. */
#define PG_LIMIT_READ_MEMORY_BYTES ((long long)1 << 30)

#endif
