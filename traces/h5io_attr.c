/* Reading and writing HDF5 attributes (scalars, strings, string arrays). */
#include "h5io.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pg_error.h"
#include "pg_limits.h"

#define WHAT_LEN 300

/* "cannot <verb> attribute <name> of <obj_name>" into what[WHAT_LEN]. */
static const char *attr_what(char *what, const char *verb, const char *obj_name, const char *name)
{
    snprintf(what, WHAT_LEN, "cannot %s attribute %s of %s", verb, name, obj_name);
    return what;
}

/* ---- writing ---- */

static int attr_write(hid_t obj, const char *obj_name, const char *name, hid_t file_type, hid_t mem_type,
                      const hsize_t *n, const void *data)
{
    int rc = -1;
    hid_t space = -1, attr = -1;
    char what[WHAT_LEN];
    attr_what(what, "write", obj_name, name);

    space = n ? H5Screate_simple(1, n, NULL) : H5Screate(H5S_SCALAR);
    if (space < 0)
        goto fail;
    attr = H5Acreate2(obj, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT);
    if (attr < 0)
        goto fail;
    if (H5Awrite(attr, mem_type, data) < 0)
        goto fail;
    rc = 0;
    goto done;
fail:
    pg_h5_fail(what);
done:
    rc = pg_h5_close(attr, H5Aclose, rc, what);
    if (space >= 0)
        H5Sclose(space);
    return rc;
}

int pg_h5_attr_write_i64(hid_t obj, const char *obj_name, const char *name, int64_t v)
{
    return attr_write(obj, obj_name, name, H5T_STD_I64LE, H5T_NATIVE_INT64, NULL, &v);
}

int pg_h5_attr_write_u64(hid_t obj, const char *obj_name, const char *name, uint64_t v)
{
    return attr_write(obj, obj_name, name, H5T_STD_U64LE, H5T_NATIVE_UINT64, NULL, &v);
}

int pg_h5_attr_write_f64(hid_t obj, const char *obj_name, const char *name, double v)
{
    return attr_write(obj, obj_name, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, NULL, &v);
}

/* Variable-length UTF-8: what h5py reads back as a Python str. */
static hid_t vlen_utf8(void)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t < 0)
        return -1;
    if (H5Tset_size(t, H5T_VARIABLE) < 0 || H5Tset_cset(t, H5T_CSET_UTF8) < 0) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

int pg_h5_attr_write_str(hid_t obj, const char *obj_name, const char *name, const char *s)
{
    hid_t t = vlen_utf8();
    if (t < 0)
        return pg_h5_fail("cannot make a string type");
    int rc = attr_write(obj, obj_name, name, t, t, NULL, &s);
    H5Tclose(t);
    return rc;
}

int pg_h5_attr_write_strs(hid_t obj, const char *obj_name, const char *name, const char *const *s, size_t n)
{
    hid_t t = vlen_utf8();
    if (t < 0)
        return pg_h5_fail("cannot make a string type");
    hsize_t dims = n;
    int rc = attr_write(obj, obj_name, name, t, t, &dims, s);
    H5Tclose(t);
    return rc;
}

/* ---- reading ---- */

int pg_h5_attr_exists(hid_t obj, const char *obj_name, const char *name)
{
    htri_t e = H5Aexists(obj, name);
    if (e < 0) {
        char what[WHAT_LEN];
        return pg_h5_fail(attr_what(what, "look up", obj_name, name));
    }
    return e > 0;
}

/* Open attribute `name`, check its class and that it holds `want_n`
 * elements (0: a scalar or a single element; otherwise any count, returned
 * in *n).  On success *attr and *type are open. */
static int attr_open(hid_t obj, const char *obj_name, const char *name, H5T_class_t cls1, H5T_class_t cls2,
                     const char *cls_desc, int array, hid_t *attr, hid_t *type, size_t *n)
{
    int rc = -1;
    hid_t space = -1;
    char what[WHAT_LEN];
    *attr = *type = -1;

    int e = pg_h5_attr_exists(obj, obj_name, name);
    if (e < 0)
        return -1;
    if (e == 0)
        return pg_fail("attribute %s of %s is missing", name, obj_name);

    attr_what(what, "read", obj_name, name);
    if ((*attr = H5Aopen(obj, name, H5P_DEFAULT)) < 0 || (*type = H5Aget_type(*attr)) < 0 ||
        (space = H5Aget_space(*attr)) < 0) {
        pg_h5_fail(what);
        goto done;
    }
    H5T_class_t cls = H5Tget_class(*type);
    if (cls != cls1 && cls != cls2) {
        char desc[64];
        pg_h5_type_desc(*type, desc, sizeof desc);
        pg_fail("attribute %s of %s has type %s but must be %s", name, obj_name, desc, cls_desc);
        goto done;
    }
    hssize_t count = H5Sget_simple_extent_npoints(space);
    int ndims = H5Sget_simple_extent_ndims(space);
    if (count < 0 || ndims < 0) {
        pg_h5_fail(what);
        goto done;
    }
    if (array ? ndims > 1 : count != 1) {
        pg_fail("attribute %s of %s holds %lld values in %d dimensions but must be %s", name, obj_name,
                (long long)count, ndims, array ? "a 1-D list" : "a single value");
        goto done;
    }
    *n = (size_t)count;
    rc = 0;
done:
    if (space >= 0)
        H5Sclose(space);
    if (rc < 0) {
        if (*type >= 0)
            H5Tclose(*type);
        if (*attr >= 0)
            H5Aclose(*attr);
        *attr = *type = -1;
    }
    return rc;
}

/* Read the open attribute's single value as `mem` into out, then close
 * the attribute and its type (attr_open's pair) whatever happened. */
static int attr_read_close(hid_t attr, hid_t type, hid_t mem, void *out, const char *obj_name, const char *name)
{
    char what[WHAT_LEN];
    int rc = H5Aread(attr, mem, out) < 0 ? pg_h5_fail(attr_what(what, "read", obj_name, name)) : 0;
    H5Tclose(type);
    H5Aclose(attr);
    return rc;
}

/* Read an integer attribute as int64 or uint64 without silent clamping:
 * HDF5 converts out-of-range values to the nearest bound, so read it in
 * the stored type's sign and check the range here. */
static int attr_read_int(hid_t obj, const char *obj_name, const char *name, int want_unsigned, void *out)
{
    hid_t attr = -1, type = -1;
    size_t n;
    if (attr_open(obj, obj_name, name, H5T_INTEGER, H5T_INTEGER, "an integer", 0, &attr, &type, &n) < 0)
        return -1;
    int stored_signed = H5Tget_sign(type) != H5T_SGN_NONE;
    int64_t sv = 0;
    uint64_t uv = 0;
    if (attr_read_close(attr, type, stored_signed ? H5T_NATIVE_INT64 : H5T_NATIVE_UINT64,
                        stored_signed ? (void *)&sv : (void *)&uv, obj_name, name) < 0)
        return -1;
    if (stored_signed && want_unsigned && sv < 0)
        return pg_fail("attribute %s of %s is %" PRId64 " but must not be negative", name, obj_name, sv);
    if (!stored_signed && !want_unsigned && uv > (uint64_t)INT64_MAX)
        return pg_fail("attribute %s of %s is %" PRIu64 ", too large", name, obj_name, uv);
    if (want_unsigned)
        *(uint64_t *)out = stored_signed ? (uint64_t)sv : uv;
    else
        *(int64_t *)out = stored_signed ? sv : (int64_t)uv;
    return 0;
}

int pg_h5_attr_read_i64(hid_t obj, const char *obj_name, const char *name, int64_t *v)
{
    return attr_read_int(obj, obj_name, name, 0, v);
}

int pg_h5_attr_read_u64(hid_t obj, const char *obj_name, const char *name, uint64_t *v)
{
    return attr_read_int(obj, obj_name, name, 1, v);
}

int pg_h5_attr_read_f64(hid_t obj, const char *obj_name, const char *name, double *v)
{
    hid_t attr = -1, type = -1;
    size_t n;
    if (attr_open(obj, obj_name, name, H5T_FLOAT, H5T_INTEGER, "a number", 0, &attr, &type, &n) < 0)
        return -1;
    return attr_read_close(attr, type, H5T_NATIVE_DOUBLE, v, obj_name, name);
}

void pg_h5_strs_free(char **s, size_t n)
{
    if (!s)
        return;
    for (size_t i = 0; i < n; i++)
        free(s[i]);
    free(s);
}

/* Copy a fixed-length string of `len` bytes (NUL- or space-padded). */
static char *dup_fixed(const char *p, size_t len)
{
    while (len > 0 && (p[len - 1] == '\0' || p[len - 1] == ' '))
        len--;
    const char *nul = memchr(p, '\0', len);
    if (nul)
        len = (size_t)(nul - p);
    char *s = malloc(len + 1);
    if (s) {
        memcpy(s, p, len);
        s[len] = '\0';
    }
    return s;
}

/* Read a string attribute (scalar or 1-D) into n malloc'd strings. */
static int attr_read_strings(hid_t obj, const char *obj_name, const char *name, int array, char ***out, size_t *nout)
{
    int rc = -1;
    hid_t attr = -1, type = -1, mem = -1;
    size_t n = 0;
    char **strs = NULL;
    char **vl = NULL;
    char *fixed = NULL;
    int vl_read = 0;
    char what[WHAT_LEN];
    attr_what(what, "read", obj_name, name);

    if (attr_open(obj, obj_name, name, H5T_STRING, H5T_STRING, "a string", array, &attr, &type, &n) < 0)
        return -1;
    if (n > PG_LIMIT_STRING_LIST) {
        pg_fail("attribute %s of %s lists %zu strings; at most %d are allowed", name, obj_name, n,
                PG_LIMIT_STRING_LIST);
        goto done;
    }
    strs = calloc(n ? n : 1, sizeof *strs);
    if (!strs) {
        pg_fail("out of memory reading attribute %s of %s", name, obj_name);
        goto done;
    }
    htri_t is_vl = H5Tis_variable_str(type);
    if (is_vl < 0 || (mem = H5Tcopy(type)) < 0) {
        pg_h5_fail(what);
        goto done;
    }
    if (is_vl) {
        vl = calloc(n ? n : 1, sizeof *vl);
        if (!vl) {
            pg_fail("out of memory reading attribute %s of %s", name, obj_name);
            goto done;
        }
        if (H5Aread(attr, mem, vl) < 0) {
            pg_h5_fail(what);
            goto done;
        }
        vl_read = 1;
        for (size_t i = 0; i < n; i++) {
            if (vl[i] && strnlen(vl[i], PG_LIMIT_STRING_BYTES + 1) > PG_LIMIT_STRING_BYTES) {
                pg_fail("attribute %s of %s holds a string longer than %d bytes", name, obj_name,
                        PG_LIMIT_STRING_BYTES);
                goto done;
            }
            strs[i] = dup_fixed(vl[i] ? vl[i] : "", vl[i] ? strlen(vl[i]) : 0);
            if (!strs[i]) {
                pg_fail("out of memory reading attribute %s of %s", name, obj_name);
                goto done;
            }
        }
    } else {
        size_t len = H5Tget_size(type);
        if (len > PG_LIMIT_STRING_BYTES) {
            pg_fail("attribute %s of %s is a fixed-length string of %zu bytes; at most %d are allowed", name, obj_name,
                    len, PG_LIMIT_STRING_BYTES);
            goto done;
        }
        if (len == 0 || (fixed = calloc(n ? n : 1, len)) == NULL) {
            pg_fail("cannot read attribute %s of %s (size %zu)", name, obj_name, len);
            goto done;
        }
        if (H5Aread(attr, mem, fixed) < 0) {
            pg_h5_fail(what);
            goto done;
        }
        for (size_t i = 0; i < n; i++) {
            strs[i] = dup_fixed(fixed + i * len, len);
            if (!strs[i]) {
                pg_fail("out of memory reading attribute %s of %s", name, obj_name);
                goto done;
            }
        }
    }
    *out = strs;
    *nout = n;
    strs = NULL;
    rc = 0;
done:
    if (vl_read)
        for (size_t i = 0; i < n; i++)
            H5free_memory(vl[i]);
    free(vl);
    free(fixed);
    pg_h5_strs_free(strs, n);
    if (mem >= 0)
        H5Tclose(mem);
    H5Tclose(type);
    H5Aclose(attr);
    return rc;
}

int pg_h5_attr_read_str(hid_t obj, const char *obj_name, const char *name, char *buf, size_t bufsize)
{
    char **s = NULL;
    size_t n = 0;
    if (attr_read_strings(obj, obj_name, name, 0, &s, &n) < 0)
        return -1;
    int rc = 0;
    size_t len = strlen(s[0]);
    if (len >= bufsize)
        rc = pg_fail("attribute %s of %s is %zu characters long; at most %zu allowed", name, obj_name, len,
                     bufsize - 1);
    else
        memcpy(buf, s[0], len + 1);
    pg_h5_strs_free(s, n);
    return rc;
}

int pg_h5_attr_read_strs(hid_t obj, const char *obj_name, const char *name, char ***out, size_t *n)
{
    return attr_read_strings(obj, obj_name, name, 1, out, n);
}
