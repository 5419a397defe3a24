/* Reads the ground-truth file: 1-D integer columns and pools, a few string
 * attributes.  Every HDF5 call is checked; one cleanup path per function. */
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gt_file.h"
#include "pg_error.h"

static const char *const k_set_cols[GT_SET_COLS] = {"k", "fmt_a", "fmt_b", "range", "a_off", "b_off",
                                                    "bias_off", "name_off", "name_len"};
static const char *const k_case_cols[GT_CASE_COLS] = {
    "set", "scale_kind", "scale_a_off", "scale_a_len", "scale_b_off", "scale_b_len", "fast_accum", "out_dtype",
    "bias_dtype", "supported", "out_off", "big_mismatch", "repeat_mismatch", "err_off", "err_len"};

/* A 1-D dataset read as mem_type into a new buffer of elem bytes each. */
static int read_1d(hid_t file, const char *name, hid_t mem_type, size_t elem, gt_array *out)
{
    hid_t ds = -1, space = -1;
    int rc = -1;
    out->data = NULL;
    out->n = 0;
    ds = H5Dopen2(file, name, H5P_DEFAULT);
    if (ds < 0) {
        pg_fail("no dataset '%s'", name);
        goto done;
    }
    space = H5Dget_space(ds);
    hsize_t dims[1] = {0};
    if (space < 0 || H5Sget_simple_extent_ndims(space) != 1 || H5Sget_simple_extent_dims(space, dims, NULL) < 0) {
        pg_fail("dataset '%s' is not 1-D", name);
        goto done;
    }
    out->n = (int64_t)dims[0];
    out->data = malloc(dims[0] ? dims[0] * elem : 1);
    if (out->data == NULL) {
        pg_fail("out of memory for '%s'", name);
        goto done;
    }
    if (dims[0] > 0 && H5Dread(ds, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out->data) < 0) {
        pg_fail("cannot read '%s'", name);
        goto done;
    }
    rc = 0;
done:
    if (space >= 0)
        H5Sclose(space);
    if (ds >= 0)
        H5Dclose(ds);
    if (rc != 0) {
        free(out->data);
        out->data = NULL;
    }
    return rc;
}

static int read_int_attr(hid_t file, const char *name, int64_t *v)
{
    hid_t at = H5Aopen(file, name, H5P_DEFAULT);
    if (at < 0)
        return pg_fail("no attribute '%s'", name);
    int rc = H5Aread(at, H5T_NATIVE_INT64, v) < 0 ? pg_fail("cannot read attribute '%s'", name) : 0;
    H5Aclose(at);
    return rc;
}

/* A variable-length string attribute (h5py's str), copied into buf. */
static int read_str_attr(hid_t file, const char *name, char *buf, size_t cap)
{
    hid_t at = -1, type = -1;
    char *s = NULL;
    int rc = -1;
    at = H5Aopen(file, name, H5P_DEFAULT);
    if (at < 0) {
        pg_fail("no attribute '%s'", name);
        goto done;
    }
    type = H5Tcopy(H5T_C_S1);
    if (type < 0 || H5Tset_size(type, H5T_VARIABLE) < 0 || H5Tset_cset(type, H5T_CSET_UTF8) < 0 ||
        H5Aread(at, type, &s) < 0) {
        pg_fail("cannot read string attribute '%s'", name);
        goto done;
    }
    snprintf(buf, cap, "%s", s ? s : "");
    rc = 0;
done:
    if (s != NULL)
        H5free_memory(s);
    if (type >= 0)
        H5Tclose(type);
    if (at >= 0)
        H5Aclose(at);
    return rc;
}

/* An int64 column; *n < 0: the column sets the row count, else it must match. */
static int read_column(hid_t file, const char *group, const char *col, int64_t *n, int64_t **out)
{
    char path[96];
    gt_array a;
    snprintf(path, sizeof path, "%s/%s", group, col);
    if (read_1d(file, path, H5T_NATIVE_INT64, sizeof(int64_t), &a) != 0)
        return -1;
    if (*n >= 0 && a.n != *n) {
        free(a.data);
        return pg_fail("column '%s' has %lld rows, others %lld", path, (long long)a.n, (long long)*n);
    }
    *n = a.n;
    *out = a.data;
    return 0;
}

int gt_file_read(const char *path, gt_file *g)
{
    memset(g, 0, sizeof *g);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    int rc = -1;
    if (file < 0) {
        pg_fail("cannot open '%s' as HDF5", path);
        goto done;
    }
    if (read_int_attr(file, "M", &g->M) || read_int_attr(file, "N", &g->N) ||
        read_str_attr(file, "gpu_name", g->gpu, sizeof g->gpu) ||
        read_str_attr(file, "torch_version", g->torch, sizeof g->torch) ||
        read_str_attr(file, "cublaslt_version", g->cublaslt, sizeof g->cublaslt))
        goto done;
    g->nsets = g->ncases = -1;
    for (int c = 0; c < GT_SET_COLS; c++)
        if (read_column(file, "sets", k_set_cols[c], &g->nsets, &g->set[c]) != 0)
            goto done;
    for (int c = 0; c < GT_CASE_COLS; c++)
        if (read_column(file, "cases", k_case_cols[c], &g->ncases, &g->cases[c]) != 0)
            goto done;
    if (read_1d(file, "codes", H5T_NATIVE_UINT8, 1, &g->codes) || read_1d(file, "bias_values", H5T_NATIVE_FLOAT, 4, &g->bias_values) ||
        read_1d(file, "scales", H5T_NATIVE_FLOAT, 4, &g->scales) || read_1d(file, "out16", H5T_NATIVE_UINT16, 2, &g->out16) ||
        read_1d(file, "out32", H5T_NATIVE_UINT32, 4, &g->out32) || read_1d(file, "errors", H5T_NATIVE_UINT8, 1, &g->errors) ||
        read_1d(file, "names", H5T_NATIVE_UINT8, 1, &g->names))
        goto done;
    rc = 0;
done:
    if (file >= 0)
        H5Fclose(file);
    if (rc != 0)
        gt_file_free(g);
    return rc;
}

void gt_file_free(gt_file *g)
{
    for (int c = 0; c < GT_SET_COLS; c++)
        free(g->set[c]);
    for (int c = 0; c < GT_CASE_COLS; c++)
        free(g->cases[c]);
    gt_array *pools[] = {&g->codes, &g->bias_values, &g->scales, &g->out16, &g->out32, &g->errors, &g->names};
    for (size_t i = 0; i < sizeof pools / sizeof pools[0]; i++)
        free(pools[i]->data);
    memset(g, 0, sizeof *g);
}
