/* The host side of the TMA floors (tma_floor.h): the two sources the bench
 * reads from, and the latency-against-loads-in-flight report (M48). */
#ifndef PG_TMA_FLOOR_HOST_H
#define PG_TMA_FLOOR_HOST_H

#include <stdio.h>

#include "gpu_session.h"
#include "tma_floor.h"

/* 32 KB boxes (pingpong's B stage) from a 4 MB buffer, resident in L2 after
 * the first pass, `stages` in flight, 64 MB per SM.  *buf: the buffer (the
 * caller frees it with cudaFree).  0 ready; 1 cannot run here (why); -1
 * error (message set). */
int pg_tma_floor_l2(const pg_gpu *g, int stages, pg_tma_floor *f, void **buf, char *why, size_t why_len);
/* A's 64 x 128 boxes (8 KB), each read once per launch, `stages` in
 * flight; runs only where A is at least twice the L2 (else its boxes would
 * be L2 hits).  0 / 1 (why) / -1 as above. */
int pg_tma_floor_dram(const pg_gpu *g, int stages, pg_tma_floor *f, char *why, size_t why_len);
/* 32 KB boxes (256 rows of 128 B: contiguous) from a 512 MB buffer, each
 * read once per launch: DRAM reads the box path does not cap (M50).
 * 0 / 1 (why) / -1 as above; *buf as for the L2 source. */
int pg_tma_floor_dram_contig(const pg_gpu *g, int stages, pg_tma_floor *f, void **buf, char *why, size_t why_len);
/* Bytes one launch of f loads over `sms` CTAs. */
double pg_tma_floor_bytes(const pg_tma_floor *f, int sms);

/* For each source and 1 .. max loads in flight per SM: the bandwidth of one
 * launch and the mean issue-to-landing latency of its loads; and one
 * contiguous box in flight on a growing share of the SMs (the DRAM from
 * nearly idle to saturated; its share of `copy_gbs`, the copy floor, where
 * > 0), printed to `out` as a table.  0, or -1 with a message. */
int pg_tma_latency_report(pg_gpu *g, double copy_gbs, FILE *out);

#endif
