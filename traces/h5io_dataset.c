/* Checking, reading and writing whole HDF5 datasets. */
#include "h5io.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pg_alloc.h"
#include "pg_error.h"
#include "pg_limits.h"

const pg_h5_kind PG_H5_U8 = {H5T_INTEGER, 1, 0, "uint8"};
const pg_h5_kind PG_H5_U16 = {H5T_INTEGER, 2, 0, "uint16"};
const pg_h5_kind PG_H5_I32 = {H5T_INTEGER, 4, 1, "int32"};
const pg_h5_kind PG_H5_I64 = {H5T_INTEGER, 8, 1, "int64"};
const pg_h5_kind PG_H5_F32 = {H5T_FLOAT, 4, 0, "float32"};
const pg_h5_kind PG_H5_F64 = {H5T_FLOAT, 8, 0, "float64"};

/* HDF5's predefined type ids are run-time values, so map kinds here. */
static hid_t mem_type(const pg_h5_kind *k)
{
    if (k->cls == H5T_FLOAT)
        return k->size == 4 ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE;
    switch (k->size) {
    case 1: return k->is_signed ? H5T_NATIVE_INT8 : H5T_NATIVE_UINT8;
    case 2: return k->is_signed ? H5T_NATIVE_INT16 : H5T_NATIVE_UINT16;
    case 4: return k->is_signed ? H5T_NATIVE_INT32 : H5T_NATIVE_UINT32;
    default: return k->is_signed ? H5T_NATIVE_INT64 : H5T_NATIVE_UINT64;
    }
}

/* Files are little-endian whatever machine wrote them. */
static hid_t file_type(const pg_h5_kind *k)
{
    if (k->cls == H5T_FLOAT)
        return k->size == 4 ? H5T_IEEE_F32LE : H5T_IEEE_F64LE;
    switch (k->size) {
    case 1: return k->is_signed ? H5T_STD_I8LE : H5T_STD_U8LE;
    case 2: return k->is_signed ? H5T_STD_I16LE : H5T_STD_U16LE;
    case 4: return k->is_signed ? H5T_STD_I32LE : H5T_STD_U32LE;
    default: return k->is_signed ? H5T_STD_I64LE : H5T_STD_U64LE;
    }
}

static void shape_desc(const int64_t *dims, int rank, char *buf, size_t n)
{
    size_t used = (size_t)snprintf(buf, n, "[");
    for (int i = 0; i < rank && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s%lld", i ? "," : "", (long long)dims[i]);
    if (used < n)
        snprintf(buf + used, n - used, "]");
}

/* Only what pegemm and h5py write: contiguous, compact or chunked storage
 * inside the file, filtered (if at all) by shuffle, deflate or fletcher32.
 * External raw-data files would make a run file read other files, virtual
 * datasets other HDF5 files, and an unknown filter makes HDF5 look for a
 * plugin library to load. */
static int check_layout(hid_t dset, const char *path)
{
    int rc = -1;
    char what[300];
    snprintf(what, sizeof what, "cannot read the storage properties of %s", path);
    hid_t dcpl = H5Dget_create_plist(dset);
    if (dcpl < 0)
        return pg_h5_fail(what);
    H5D_layout_t layout = H5Pget_layout(dcpl);
    int n_external = H5Pget_external_count(dcpl);
    int n_filters = H5Pget_nfilters(dcpl);
    if (layout < 0 || n_external < 0 || n_filters < 0) {
        pg_h5_fail(what);
        goto done;
    }
    if (layout != H5D_CONTIGUOUS && layout != H5D_CHUNKED && layout != H5D_COMPACT) {
        pg_fail("%s has an unsupported storage layout (%d; a virtual dataset?): only data stored in the file is read",
                path, (int)layout);
        goto done;
    }
    if (n_external > 0) {
        pg_fail("%s keeps its data in %d external file(s); only data stored in the file is read", path, n_external);
        goto done;
    }
    for (int i = 0; i < n_filters; i++) {
        unsigned flags = 0, cd[8];
        size_t ncd = sizeof cd / sizeof cd[0];
        H5Z_filter_t id = H5Pget_filter2(dcpl, (unsigned)i, &flags, &ncd, cd, 0, NULL, NULL);
        if (id < 0) {
            pg_h5_fail(what);
            goto done;
        }
        if (id != H5Z_FILTER_DEFLATE && id != H5Z_FILTER_SHUFFLE && id != H5Z_FILTER_FLETCHER32) {
            pg_fail("%s uses HDF5 filter %d; only shuffle, deflate and fletcher32 are read", path, (int)id);
            goto done;
        }
    }
    rc = 0;
done:
    H5Pclose(dcpl);
    return rc;
}

/* The bytes the dataset declares must be backed by storage in the file:
 * an unallocated (never written) dataset of 2^30 elements costs a few
 * hundred bytes of file and would be read as gigabytes of fill values. */
static int check_storage(hid_t dset, const char *path, const pg_h5_kind *kind, const int64_t *dims, int rank)
{
    if (check_layout(dset, path) < 0)
        return -1;
    /* extents are below 2^64 and a product of them can overflow: stop at
     * the point where it is certainly too large */
    uint64_t bytes = kind->size;
    for (int i = 0; i < rank; i++) {
        if (dims[i] != 0 && bytes > UINT64_MAX / 2 / (uint64_t)dims[i])
            return pg_fail("%s declares more elements than any memory holds", path);
        bytes *= (uint64_t)dims[i];
    }
    /* Asked even for small datasets: for a chunked one this walks the
     * chunk index, so the isolated pre-read (runfile_isolate.c) covers it. */
    hsize_t stored = H5Dget_storage_size(dset); /* 0 both for "none" and for an error */
    (void)H5Eclear2(H5E_DEFAULT);
    if (bytes <= (uint64_t)PG_LIMIT_INFLATE_SLACK_BYTES)
        return 0;
    if (stored > (UINT64_MAX - (uint64_t)PG_LIMIT_INFLATE_SLACK_BYTES) / PG_LIMIT_INFLATE_RATIO ||
        bytes <= (uint64_t)stored * PG_LIMIT_INFLATE_RATIO + (uint64_t)PG_LIMIT_INFLATE_SLACK_BYTES)
        return 0;
    return pg_fail("%s declares %llu bytes of data but the file stores only %llu bytes of it (unwritten or "
                   "truncated data; at most %d:1 compression is possible)",
                   path, (unsigned long long)bytes, (unsigned long long)stored, PG_LIMIT_INFLATE_RATIO);
}

int pg_h5_dataset_check(hid_t file, const char *path, const pg_h5_kind *kind, int rank,
                        const pg_h5_extent *expect, int64_t *dims_out)
{
    int rc = -1;
    hid_t obj = -1, type = -1, space = -1;
    char what[300];
    snprintf(what, sizeof what, "cannot open %s", path);

    int e = pg_h5_exists(file, path);
    if (e < 0)
        return -1;
    if (e == 0)
        return pg_fail("%s is missing", path);
    if ((obj = H5Oopen(file, path, H5P_DEFAULT)) < 0) {
        pg_h5_fail(what);
        goto done;
    }
    if (H5Iget_type(obj) != H5I_DATASET) {
        pg_fail("%s is not a dataset", path);
        goto done;
    }
    if ((type = H5Dget_type(obj)) < 0 || (space = H5Dget_space(obj)) < 0) {
        pg_h5_fail(what);
        goto done;
    }
    H5T_class_t cls = H5Tget_class(type);
    int sign_ok = cls != H5T_INTEGER || (H5Tget_sign(type) != H5T_SGN_NONE) == kind->is_signed;
    if (cls != kind->cls || H5Tget_size(type) != kind->size || !sign_ok) {
        char desc[64];
        pg_h5_type_desc(type, desc, sizeof desc);
        pg_fail("%s has type %s but must be %s", path, desc, kind->name);
        goto done;
    }
    int ndims = H5Sget_simple_extent_ndims(space);
    if (ndims < 0) {
        pg_h5_fail(what);
        goto done;
    }
    if (ndims != rank) {
        pg_fail("%s has rank %d but must have rank %d", path, ndims, rank);
        goto done;
    }
    hsize_t h[H5S_MAX_RANK];
    int64_t dims[H5S_MAX_RANK];
    if (H5Sget_simple_extent_dims(space, h, NULL) < 0) {
        pg_h5_fail(what);
        goto done;
    }
    for (int i = 0; i < rank; i++)
        dims[i] = (int64_t)h[i];
    for (int i = 0; expect && i < rank; i++) {
        if (expect[i].value >= 0 && dims[i] != expect[i].value) {
            char shape[128];
            shape_desc(dims, rank, shape, sizeof shape);
            pg_fail("%s has shape %s but %s = %lld", path, shape, expect[i].label, (long long)expect[i].value);
            goto done;
        }
    }
    if (check_storage(obj, path, kind, dims, rank) < 0)
        goto done;
    if (dims_out)
        memcpy(dims_out, dims, (size_t)rank * sizeof *dims);
    rc = 0;
done:
    if (space >= 0)
        H5Sclose(space);
    if (type >= 0)
        H5Tclose(type);
    if (obj >= 0)
        H5Oclose(obj);
    return rc;
}

int pg_h5_dataset_read(hid_t file, const char *path, const pg_h5_kind *kind, void *buf)
{
    int rc = -1;
    hid_t dset = -1, space = -1;
    char what[300];
    snprintf(what, sizeof what, "cannot read %s", path);
    if ((dset = H5Dopen2(file, path, H5P_DEFAULT)) < 0 || (space = H5Dget_space(dset)) < 0) {
        pg_h5_fail(what);
        goto done;
    }
    hssize_t n = H5Sget_simple_extent_npoints(space);
    if (n < 0) {
        pg_h5_fail(what);
        goto done;
    }
    if (n > 0 && H5Dread(dset, mem_type(kind), H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0) {
        pg_h5_fail(what);
        goto done;
    }
    rc = 0;
done:
    if (space >= 0)
        H5Sclose(space);
    if (dset >= 0)
        H5Dclose(dset);
    return rc;
}

/* Datasets under this size stay contiguous: chunk indexes and filter
 * headers would cost more than compression saves. */
#define SMALL_DATASET_BYTES (64u * 1024u)
/* About 1 MiB per chunk: big enough for deflate to work well, small enough
 * that HDF5's default 1 MiB chunk cache holds one. */
#define CHUNK_BYTES (1u << 20)
/* Deflate level 4: files 0.9% larger than level 6 in half the time
 * (measured on outputs, accumulators, inputs and a trace; docs/experiments.md,
 * "traces").  Overridable only for that experiment. */
#ifndef DEFLATE_LEVEL
#define DEFLATE_LEVEL 4
#endif

int pg_h5_dataset_write(hid_t loc, const char *loc_name, const char *name, const pg_h5_kind *kind, int rank,
                        const int64_t *dims, const void *data)
{
    int rc = -1;
    hid_t space = -1, dcpl = -1, dset = -1;
    char what[300];
    snprintf(what, sizeof what, "cannot write %s/%s", strcmp(loc_name, "/") ? loc_name : "", name);

    hsize_t h[H5S_MAX_RANK], chunk[H5S_MAX_RANK];
    int64_t count = 1;
    for (int i = 0; i < rank; i++) {
        h[i] = (hsize_t)dims[i];
        count *= dims[i];
    }
    size_t bytes;
    if (pg_bytes(what, count, kind->size, &bytes) < 0)
        return -1;

    /* No modification times in object headers: the same run gives the same
     * bytes, so committed files only change when their contents do. */
    if ((space = H5Screate_simple(rank, h, NULL)) < 0 || (dcpl = H5Pcreate(H5P_DATASET_CREATE)) < 0 ||
        H5Pset_obj_track_times(dcpl, 0) < 0)
        goto fail;
    if (bytes >= SMALL_DATASET_BYTES) {
        /* Chunks span whole rows (the last dimension) and as many leading
         * rows as fit in CHUNK_BYTES. */
        size_t row_bytes = kind->size;
        for (int i = 1; i < rank; i++) {
            chunk[i] = h[i];
            row_bytes *= (size_t)h[i];
        }
        hsize_t rows = row_bytes >= CHUNK_BYTES ? 1 : CHUNK_BYTES / row_bytes;
        chunk[0] = rows < h[0] ? rows : h[0];
        if (H5Pset_chunk(dcpl, rank, chunk) < 0 || H5Pset_shuffle(dcpl) < 0 ||
            H5Pset_deflate(dcpl, DEFLATE_LEVEL) < 0)
            goto fail;
    }
    if ((dset = H5Dcreate2(loc, name, file_type(kind), space, H5P_DEFAULT, dcpl, H5P_DEFAULT)) < 0)
        goto fail;
    /* Compressed datasets are filtered on all threads (h5io_chunks.c); that
     * writes file bytes directly, so only where memory already has the
     * file's byte order (little-endian hosts). */
    htri_t same_layout = H5Tequal(mem_type(kind), file_type(kind));
    if (same_layout < 0)
        goto fail;
    if (bytes >= SMALL_DATASET_BYTES && same_layout) {
        if (pg_h5_write_chunks(dset, kind->size, rank, h, chunk, data, DEFLATE_LEVEL, what) < 0)
            goto done;
    } else if (count > 0 && H5Dwrite(dset, mem_type(kind), H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0) {
        goto fail;
    }
    rc = 0;
    goto done;
fail:
    pg_h5_fail(what);
done:
    rc = pg_h5_close(dset, H5Dclose, rc, what);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (space >= 0)
        H5Sclose(space);
    return rc;
}
