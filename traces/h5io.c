/* HDF5 error handling, type names and link lookup for traces/. */
#include "h5io.h"

#include <stdio.h>
#include <string.h>

#include "pg_error.h"

void pg_h5_quiet_begin(pg_h5_quiet *q)
{
    q->saved = H5Eget_auto2(H5E_DEFAULT, &q->func, &q->data) >= 0;
    /* If silencing fails HDF5 only gets noisier; our messages still come. */
    (void)H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

void pg_h5_quiet_end(pg_h5_quiet *q)
{
    if (q->saved)
        (void)H5Eset_auto2(H5E_DEFAULT, q->func, q->data);
}

/* The walk goes from the innermost error (the actual cause, e.g.
 * "truncated file: eof = ...") outwards; keep the first description. */
static herr_t keep_innermost(unsigned n, const H5E_error2_t *err, void *client)
{
    if (n == 0 && err->desc)
        snprintf((char *)client, 256, "%s", err->desc);
    return 0;
}

int pg_h5_fail(const char *what)
{
    char reason[256] = "";
    (void)H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, keep_innermost, reason);
    (void)H5Eclear2(H5E_DEFAULT);
    if (reason[0])
        return pg_fail("%s (HDF5: %s)", what, reason);
    return pg_fail("%s", what);
}

int pg_h5_close(hid_t id, herr_t (*close_fn)(hid_t), int rc, const char *what)
{
    if (id >= 0 && close_fn(id) < 0 && rc == 0)
        return pg_h5_fail(what);
    return rc;
}

void pg_h5_type_desc(hid_t type, char *buf, size_t n)
{
    H5T_class_t cls = H5Tget_class(type);
    size_t bits = H5Tget_size(type) * 8;
    switch (cls) {
    case H5T_INTEGER:
        snprintf(buf, n, "%s%zu", H5Tget_sign(type) == H5T_SGN_NONE ? "uint" : "int", bits);
        break;
    case H5T_FLOAT:
        snprintf(buf, n, "float%zu", bits);
        break;
    case H5T_STRING:
        snprintf(buf, n, "string");
        break;
    case H5T_COMPOUND:
        snprintf(buf, n, "compound");
        break;
    case H5T_ENUM:
        snprintf(buf, n, "enum");
        break;
    case H5T_ARRAY:
        snprintf(buf, n, "array");
        break;
    case H5T_VLEN:
        snprintf(buf, n, "vlen");
        break;
    default:
        snprintf(buf, n, "HDF5 type class %d", (int)cls);
        break;
    }
}

int pg_h5_exists(hid_t file, const char *path)
{
    char prefix[512];
    size_t len = strlen(path);
    if (len == 0 || len >= sizeof prefix || path[0] != '/')
        return pg_fail("internal: bad HDF5 path '%s'", path);
    /* H5Lexists fails (rather than saying no) when a parent is missing, so
     * test "/a", then "/a/b", ... */
    for (size_t i = 1; i <= len; i++) {
        if (i < len && path[i] != '/')
            continue;
        memcpy(prefix, path, i);
        prefix[i] = '\0';
        htri_t e = H5Lexists(file, prefix, H5P_DEFAULT);
        if (e < 0) {
            char what[600];
            snprintf(what, sizeof what, "cannot look up %s", prefix);
            return pg_h5_fail(what);
        }
        if (e == 0)
            return 0;
    }
    return 1;
}
