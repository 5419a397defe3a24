/* For the model tests: a schedule as `pegemm model fit -o` writes it. */
#ifndef PG_SCHED_TEXT_H
#define PG_SCHED_TEXT_H

#include <stdint.h>
#include <stdio.h>

#include "model_ext.h"

/* The text pg_schedule_write gives for s (its first comment `header`, NULL
 * for none), malloc'd: the caller frees it.  Fails the cmocka test if the
 * write fails. */
char *pg_test_schedule_text(const pg_schedule *s, const char *header);

/* Fails the cmocka test unless schedule `text` (loaded as "bad.sched") is
 * refused with an error that holds `msg` and names the file and line. */
void pg_test_refused(const char *text, const char *msg);

/* The mean of `phase` in a deterministic prediction of s (seed 1, `tiles`
 * tiles); fails the cmocka test if the prediction fails or has no such
 * phase.  s stays the caller's. */
double pg_test_phase_mean(const pg_schedule *s, int64_t tiles, const char *phase);

/* A schedule with a closed-form period (test_dramq.c, test_warmup.c): one
 * warp computes 1,000 cycles a tile, then waits for a 1,000-cycle load
 * issued when its compute ended; its DRAM share at the 2,000-cycle
 * calibrated period is 0.5.  TILES: the machine's tile count (on 1 unit);
 * LINES: the lines after it (a `dramq` line, ...). */
#define PG_TEST_LOAD_SCHED(TILES, LINES)                                                                              \
    "schedule dq\n"                                                                                                   \
    "option dramq 1 0|1\n"                                                                                            \
    "machine units=1 tiles=" TILES " clock_hz=1e9 flops=1e12\n"                                                       \
    "period consumer.mainloop\n"                                                                                      \
    "phase mainloop family=const mean=1000\n"                                                                         \
    "memory first_load dram_latency=1000 bytes=0 bytes_per_cycle=64\n"                                                \
    "role consumer instances=1\n"                                                                                     \
    "  wait load_wait until consumer.mainloop[1] + first_load\n"                                                      \
    "  work mainloop\n"                                                                                               \
    "bandwidth mainloop compute=1000 bytes_per_tile=1e6 bytes_per_s=1e12 calibrated_period=2000\n" LINES

#endif
