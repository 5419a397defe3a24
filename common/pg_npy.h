/* NumPy .npy files (format version 1.0 written; 1.0 and 2.0 read) of the
 * three element types pegemm exchanges with other people's kernels: uint8
 * (FP8 codes), uint16 (bf16/fp16 bits) and float32 (scales), little-endian,
 * C order.  Anything else a reader meets (another magic, version, dtype,
 * Fortran order, a shape that does not fit the limits, data shorter or
 * longer than the shape says) is refused with a message naming the file and
 * the problem, never guessed at.  Writing goes through pg_outfile (atomic,
 * the shared output policy); reading through pg_input_open (the file is
 * registered as an input, so no output can replace it). */
#ifndef PG_NPY_H
#define PG_NPY_H

#include <stddef.h>
#include <stdint.h>

typedef enum { PG_NPY_U8 = 0, PG_NPY_U16 = 1, PG_NPY_F32 = 2, PG_NPY_DTYPES } pg_npy_dtype;

#define PG_NPY_MAX_DIMS 8
/* A header longer than this is not one pegemm wrote or would accept (NumPy's
 * own limit for untrusted files is 10,000 bytes). */
#define PG_NPY_MAX_HEADER 10000

typedef struct {
    pg_npy_dtype dtype;
    int ndim;
    int64_t shape[PG_NPY_MAX_DIMS];
} pg_npy_info;

size_t pg_npy_dtype_size(pg_npy_dtype t);
const char *pg_npy_dtype_name(pg_npy_dtype t); /* "uint8", "uint16", "float32" */
/* Elements and bytes of a shape; -1 with a message when a dimension is
 * negative or the data would exceed PG_LIMIT_MATRIX_BYTES. */
int pg_npy_count(const pg_npy_info *h, int64_t *elems, int64_t *bytes);

/* The version 1.0 header for h (magic .. newline, a multiple of 64 bytes)
 * into buf; its length, or -1 with a message. */
int pg_npy_header_format(const pg_npy_info *h, char *buf, size_t cap);
/* Parse a header from the file's first bytes: *header_bytes is where the
 * data starts.  n is how many bytes buf holds (at most the whole file).
 * 0, or -1 with a message (no file name: the caller adds it). */
int pg_npy_header_parse(const unsigned char *buf, size_t n, pg_npy_info *h, size_t *header_bytes);

/* Write h and data (pg_npy_count(h) bytes) to path. 0, or -1 with a message. */
int pg_npy_write(const char *path, const pg_npy_info *h, const void *data);
/* Read path, which must hold `want` elements in `ndim` dimensions; the
 * shape into h, the data (malloc'd, the caller frees) into *data.  0, or -1
 * with a message naming path. */
int pg_npy_read(const char *path, pg_npy_dtype want, int ndim, pg_npy_info *h, void **data);

#endif
