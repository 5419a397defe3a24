/* Checks shared by the run-file writer and reader (internal to traces/).
 * Each returns 0, or -1 with a message that names the field and the value. */
#ifndef PG_RUNFILE_INTERNAL_H
#define PG_RUNFILE_INTERNAL_H

#include <stdint.h>

#include <hdf5.h>
#include <stddef.h>

#include "runfile.h"

/* Row indices strictly increasing within [0, M); `where` names them in
 * messages ("/output/rows"). */
int pg_runfile_check_rows(const int64_t *rows, int64_t n, int64_t M, const char *where);
/* At most PG_LIMIT_TRACE_ROWS intervals on PG_LIMIT_SM_COUNT SMs; anchors
 * present when there are intervals; per interval: role and phase codes
 * below n_roles / n_phases, sm in [0, n_sm), warp and tile >= 0,
 * 0 <= begin <= end < 2^62, and the SM's anchors in [0, 2^62). */
int pg_runfile_check_trace(const pg_trace *t, int n_roles, int n_phases, const char *where);
/* The /kernel attributes within their bounds (common/pg_limits.h):
 * sm_clock_hz finite in [1 MHz, 100 GHz], sm_count in [1, 1024], ... */
int pg_runfile_check_kernel(const pg_kernel_info *k);
/* A timing name is a single HDF5 link name: non-empty, NUL-terminated within
 * the struct, no '/', not "." . */
int pg_runfile_check_timing_name(const char *name, size_t cap);
/* 0 if `path` is a regular file (opened without blocking, so a FIFO
 * cannot hang the reader); -1 with "not a regular file (a FIFO)" etc. */
int pg_runfile_check_regular(const char *path);
/* Everything pg_run_write needs before it creates any file. */
int pg_runfile_check_run(const pg_run *run, int store_problem);

/* The complete file for `run` as a malloc'd byte image of *size bytes
 * (runfile_write.c); `name` only labels the in-memory file.  NULL with a
 * message on failure. */
unsigned char *pg_runfile_build_image(const char *name, const pg_run *run, int store_problem, size_t *size);

/* Reader sections (runfile_read_*.c).  Each validates its part of an open
 * file; the message names the dataset or attribute. */
/* Open the group at `path` (absolute) into *g: 1 if opened, 0 if there
 * is no such link (*g = -1), -1 with a message if it is not a group or
 * cannot be opened. */
int pg_runfile_open_group(hid_t file, const char *path, hid_t *g);
int pg_runfile_read_kernel(hid_t file, pg_kernel_info *k);
/* runfile_read_terms.c: the general problem's attributes (absent: the
 * classic problem), its scale and bias datasets (checked; loaded), and
 * /output's accumulation set (mode, accum_*, library). */
int pg_runfile_read_terms_attrs(hid_t g, pg_problem *p);
int pg_runfile_check_terms_data(hid_t file, const pg_problem *p, int stored);
int pg_runfile_load_terms(hid_t file, pg_problem *p);
int pg_runfile_read_accum(hid_t g, pg_run *run);
int pg_runfile_read_timings(hid_t file, pg_run *run);
/* `version`: the file's schema version (1: the names must be a prefix of
 * pg_vocab_pegemm(), waits from it; 2: the file's own vocabulary). */
int pg_runfile_read_trace(hid_t file, pg_trace *t, const pg_kernel_info *k, int load, int version);

#endif
