/* Small HDF5 helpers for the run-file reader and writer (internal to
 * traces/).  Every helper checks every HDF5 call, closes what it opened on
 * every path, and on failure records a pg_fail() message that names the
 * object (e.g. "/output/D") and, where HDF5 said why, HDF5's reason. */
#ifndef PG_H5IO_H
#define PG_H5IO_H

#include <hdf5.h>
#include <stddef.h>
#include <stdint.h>

/* HDF5 prints its error stack to stderr by default; pegemm prints its own
 * messages instead.  Begin/end save and restore the caller's handler. */
typedef struct {
    H5E_auto2_t func;
    void *data;
    int saved;
} pg_h5_quiet;
void pg_h5_quiet_begin(pg_h5_quiet *q);
void pg_h5_quiet_end(pg_h5_quiet *q);

/* pg_fail("<what> (HDF5: <innermost reason>)"), or just <what> when HDF5
 * recorded nothing.  Returns -1. */
int pg_h5_fail(const char *what);

/* Close `id` with `close_fn` (H5Aclose, H5Dclose, H5Gclose, H5Fclose; ids
 * < 0 are skipped) and return rc, except that a failing close turns rc 0
 * into pg_h5_fail(what)'s -1: data is only safely written once closed. */
int pg_h5_close(hid_t id, herr_t (*close_fn)(hid_t), int rc, const char *what);

/* "uint8", "int64", "float32", "string", ... for messages. */
void pg_h5_type_desc(hid_t type, char *buf, size_t n);

/* Does the link `path` (absolute, e.g. "/output/rows") exist?  Checks each
 * component, so a missing parent is "no", not an error.  1, 0, or -1. */
int pg_h5_exists(hid_t file, const char *path);

/* ---- attributes (obj_name is only for messages) ---- */
int pg_h5_attr_exists(hid_t obj, const char *obj_name, const char *name);
int pg_h5_attr_write_i64(hid_t obj, const char *obj_name, const char *name, int64_t v);
int pg_h5_attr_write_u64(hid_t obj, const char *obj_name, const char *name, uint64_t v);
int pg_h5_attr_write_f64(hid_t obj, const char *obj_name, const char *name, double v);
int pg_h5_attr_write_str(hid_t obj, const char *obj_name, const char *name, const char *s);
int pg_h5_attr_write_strs(hid_t obj, const char *obj_name, const char *name, const char *const *s, size_t n);

/* Readers accept any integer type for integers and any number for doubles
 * (scalars convert exactly); a missing attribute, a non-scalar or the
 * wrong class is an error naming the attribute.  Strings may be fixed- or
 * variable-length (h5py writes either). */
int pg_h5_attr_read_i64(hid_t obj, const char *obj_name, const char *name, int64_t *v);
int pg_h5_attr_read_u64(hid_t obj, const char *obj_name, const char *name, uint64_t *v);
int pg_h5_attr_read_f64(hid_t obj, const char *obj_name, const char *name, double *v);
int pg_h5_attr_read_str(hid_t obj, const char *obj_name, const char *name, char *buf, size_t n);
/* A 1-D string array: *out is a malloc'd array of *n malloc'd strings
 * (free with pg_h5_strs_free). */
int pg_h5_attr_read_strs(hid_t obj, const char *obj_name, const char *name, char ***out, size_t *n);
void pg_h5_strs_free(char **s, size_t n);

/* ---- datasets ---- */
/* What a dataset must be: the type by class, size and sign, and the name
 * used in messages ("uint16"). */
typedef struct {
    H5T_class_t cls;
    size_t size;
    int is_signed; /* integers only */
    const char *name;
} pg_h5_kind;

extern const pg_h5_kind PG_H5_U8, PG_H5_U16, PG_H5_I32, PG_H5_I64, PG_H5_F32, PG_H5_F64;

/* One expected extent: `value` < 0 means any; `label` says where the
 * expectation comes from ("N", "len(/output/rows)") for the message
 * "/output/D has shape [100,512] but N = 768". */
typedef struct {
    int64_t value;
    const char *label;
} pg_h5_extent;

/* Check that `path` is a dataset of `kind` with `rank` dimensions matching
 * `expect` (NULL: any); dims_out (may be NULL) receives the shape. */
int pg_h5_dataset_check(hid_t file, const char *path, const pg_h5_kind *kind, int rank,
                        const pg_h5_extent *expect, int64_t *dims_out);
/* Read the whole dataset into buf (which holds the checked shape). */
int pg_h5_dataset_read(hid_t file, const char *path, const pg_h5_kind *kind, void *buf);
/* Create and write a dataset; big ones are chunked and compressed
 * (shuffle + deflate) so committed files stay small. */
int pg_h5_dataset_write(hid_t loc, const char *loc_name, const char *name, const pg_h5_kind *kind,
                        int rank, const int64_t *dims, const void *data);

/* Write all of `data` (rank 1 or 2, row-major, already in the file's byte
 * order) into a dataset created with chunks of `chunk` (whole rows), the
 * shuffle filter and deflate at `level`: the chunks are filtered in
 * parallel and written with H5Dwrite_chunk.  h5io_chunks.c. */
int pg_h5_write_chunks(hid_t dset, size_t elem_size, int rank, const hsize_t *dims, const hsize_t *chunk,
                       const void *data, int level, const char *what);

#endif
