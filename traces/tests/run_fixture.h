/* Test fixtures for the run-file tests: deterministic runs, temporary
 * directories, whole-run comparison, and raw HDF5 edits that break a valid
 * file in one specific way. */
#ifndef PG_RUN_FIXTURE_H
#define PG_RUN_FIXTURE_H

#include <hdf5.h>
#include <stddef.h>
#include <stdint.h>

#include "runfile.h"

typedef struct {
    int64_t M, N, K, P;
    int subset;      /* store a row subset (with /output/rows) instead of all rows */
    int accumulator; /* store fp32 accumulators */
    int trace;       /* a trace of trace_n (default 50) intervals on 4 SMs */
    int64_t trace_n;
    int kernel;      /* kernel info */
    int ntimings;    /* timing sets ("fused", "copy", "cublaslt_gemm", ...) */
    uint64_t salt;   /* varies the contents */
} fx_spec;

/* A run whose every field holds distinct, deterministic values.  Family is
 * "normal" (inputs allocated and filled all the same). */
void fx_make_run(pg_run *run, const fx_spec *spec);
/* Assert that every field `what` covers is equal (bit for bit). */
void fx_assert_runs_equal(const pg_run *want, const pg_run *got, unsigned what);

/* A fresh directory under $TMPDIR (or /tmp); fx_rmtree removes it and its
 * plain files (one level, which is all the tests create). */
char *fx_tempdir(void);
void fx_rmtree(char *dir);
/* dir + "/" + name, malloc'd. */
char *fx_path(const char *dir, const char *name);
/* The whole file (malloc'd) and its size; NULL if unreadable. */
unsigned char *fx_slurp(const char *path, size_t *size);
/* Number of entries in dir whose name contains ".tmp." (writer temp files). */
int fx_count_temp_files(const char *dir);

/* Raw edits of an existing HDF5 file (each asserts success). */
void fx_h5_delete(const char *file, const char *obj);
void fx_h5_write_dataset(const char *file, const char *obj, hid_t mem_type, hid_t file_type, int rank,
                         const hsize_t *dims, const void *data);
void fx_h5_set_attr_i64(const char *file, const char *obj, const char *name, int64_t v);
void fx_h5_set_attr_u64(const char *file, const char *obj, const char *name, uint64_t v);
void fx_h5_set_attr_f64(const char *file, const char *obj, const char *name, double v);
/* Replace `obj` by a 1-D dataset of n elements that no data is written to:
 * FX_DECLARE_EMPTY leaves its storage unallocated (a few hundred bytes of
 * file declare n elements); FX_DECLARE_FILLED allocates deflated chunks of
 * fill values (storage that really holds n zeros); FX_DECLARE_EXTERNAL
 * keeps the data in an external file. */
enum { FX_DECLARE_EMPTY, FX_DECLARE_FILLED, FX_DECLARE_EXTERNAL };
void fx_h5_declare_dataset(const char *file, const char *obj, hid_t file_type, hsize_t n, int how);
void fx_h5_set_attr_str(const char *file, const char *obj, const char *name, const char *s);
/* A 1-D attribute of n variable-length strings (replacing any of that name). */
void fx_h5_set_attr_strs(const char *file, const char *obj, const char *name, const char *const *strs, hsize_t n);
void fx_h5_delete_attr(const char *file, const char *obj, const char *name);

/* pg_run_read must fail, leave the run empty, and say `needle` (and the path). */
void fx_expect_read_error(const char *path, unsigned what, const char *needle);

#endif
