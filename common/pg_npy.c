/* NumPy .npy reader and writer (pg_npy.h). */
#include "pg_npy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pg_alloc.h"
#include "pg_error.h"
#include "pg_limits.h"
#include "pg_outfile.h"
#include "pg_outpath.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "pg_npy writes and reads little-endian data in place: a big-endian host needs byte swapping here"
#endif

static const char k_magic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};
static const char *const k_descr[PG_NPY_DTYPES] = {"<u1", "<u2", "<f4"};
static const char *const k_names[PG_NPY_DTYPES] = {"uint8", "uint16", "float32"};
static const size_t k_sizes[PG_NPY_DTYPES] = {1, 2, 4};

size_t pg_npy_dtype_size(pg_npy_dtype t) { return t >= 0 && t < PG_NPY_DTYPES ? k_sizes[t] : 0; }
const char *pg_npy_dtype_name(pg_npy_dtype t) { return t >= 0 && t < PG_NPY_DTYPES ? k_names[t] : "?"; }

int pg_npy_count(const pg_npy_info *h, int64_t *elems, int64_t *bytes)
{
    if (h->dtype < 0 || h->dtype >= PG_NPY_DTYPES || h->ndim < 0 || h->ndim > PG_NPY_MAX_DIMS)
        return pg_fail("npy: dtype %d or %d dimensions not supported", (int)h->dtype, h->ndim);
    const int64_t limit = PG_LIMIT_MATRIX_BYTES / (int64_t)k_sizes[h->dtype];
    int64_t n = 1;
    for (int i = 0; i < h->ndim; i++) {
        if (h->shape[i] < 0)
            return pg_fail("npy: dimension %d is negative (%lld)", i, (long long)h->shape[i]);
        if (h->shape[i] > 0 && n > limit / h->shape[i])
            return pg_fail("npy: shape dimension %d = %lld makes the array larger than %lld bytes", i,
                           (long long)h->shape[i], (long long)PG_LIMIT_MATRIX_BYTES);
        n *= h->shape[i];
    }
    *elems = n;
    *bytes = n * (int64_t)k_sizes[h->dtype];
    return 0;
}

int pg_npy_header_format(const pg_npy_info *h, char *buf, size_t cap)
{
    int64_t elems, bytes;
    if (pg_npy_count(h, &elems, &bytes) != 0)
        return -1;
    char dict[512], shape[400];
    size_t used = 0;
    shape[0] = '\0';
    for (int i = 0; i < h->ndim; i++)
        used += (size_t)snprintf(shape + used, sizeof shape - used, "%lld, ", (long long)h->shape[i]);
    if (h->ndim > 1)
        shape[used - 2] = '\0'; /* "(2, 3)"; one dimension keeps its comma: "(2,)" */
    else if (h->ndim == 1)
        shape[used - 1] = '\0';
    int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", k_descr[h->dtype],
                     shape);
    if (n < 0 || (size_t)n >= sizeof dict)
        return pg_fail("npy: header does not fit");
    /* magic(6) + version(2) + length(2) + dict + spaces + '\n': a multiple of 64 */
    const size_t total = (10 + (size_t)n + 1 + 63) / 64 * 64;
    if (total > cap || total - 10 > 65535)
        return pg_fail("npy: header of %zu bytes does not fit", total);
    memcpy(buf, k_magic, 6);
    buf[6] = 1, buf[7] = 0;
    buf[8] = (char)((total - 10) & 0xff), buf[9] = (char)((total - 10) >> 8);
    memcpy(buf + 10, dict, (size_t)n);
    memset(buf + 10 + n, ' ', total - 10 - (size_t)n - 1);
    buf[total - 1] = '\n';
    return (int)total;
}

/* ---- the header dict: {'descr': '<u2', 'fortran_order': False, 'shape': (2, 3), } in any key order ---- */

typedef struct {
    const char *p, *end;
} cursor;

static void skip_ws(cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
        c->p++;
}

static int expect(cursor *c, char ch)
{
    skip_ws(c);
    if (c->p >= c->end || *c->p != ch)
        return pg_fail("npy header: expected '%c' at offset %td", ch, c->end - c->p);
    c->p++;
    return 0;
}

/* A quoted Python string ('...' or "...", no escapes) into out. */
static int quoted(cursor *c, char *out, size_t cap)
{
    skip_ws(c);
    if (c->p >= c->end || (*c->p != '\'' && *c->p != '"'))
        return pg_fail("npy header: expected a quoted string");
    const char q = *c->p++;
    size_t n = 0;
    while (c->p < c->end && *c->p != q) {
        if (*c->p == '\\' || n + 1 >= cap)
            return pg_fail("npy header: a string is too long or escaped");
        out[n++] = *c->p++;
    }
    if (c->p >= c->end)
        return pg_fail("npy header: unterminated string");
    c->p++;
    out[n] = '\0';
    return 0;
}

static int descr_value(cursor *c, pg_npy_info *h)
{
    char d[32];
    if (quoted(c, d, sizeof d) != 0)
        return -1;
    if (strcmp(d, "|u1") == 0 || strcmp(d, "<u1") == 0)
        h->dtype = PG_NPY_U8;
    else if (strcmp(d, "<u2") == 0)
        h->dtype = PG_NPY_U16;
    else if (strcmp(d, "<f4") == 0)
        h->dtype = PG_NPY_F32;
    else
        return pg_fail("dtype '%s' is not supported (uint8 '|u1', little-endian uint16 '<u2' or float32 '<f4')", d);
    return 0;
}

static int fortran_value(cursor *c)
{
    skip_ws(c);
    if ((size_t)(c->end - c->p) >= 5 && memcmp(c->p, "False", 5) == 0) {
        c->p += 5;
        return 0;
    }
    if ((size_t)(c->end - c->p) >= 4 && memcmp(c->p, "True", 4) == 0)
        return pg_fail("fortran_order is True: only C-order arrays are read (np.ascontiguousarray first)");
    return pg_fail("npy header: fortran_order is neither False nor True");
}

static int shape_value(cursor *c, pg_npy_info *h)
{
    if (expect(c, '(') != 0)
        return -1;
    h->ndim = 0;
    for (;;) {
        skip_ws(c);
        if (c->p < c->end && *c->p == ')') {
            c->p++;
            return 0;
        }
        if (h->ndim == PG_NPY_MAX_DIMS)
            return pg_fail("npy header: more than %d dimensions", PG_NPY_MAX_DIMS);
        int64_t v = 0;
        int digits = 0;
        while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
            if (v > (PG_LIMIT_MATRIX_BYTES - 9) / 10)
                return pg_fail("npy header: shape dimension %d is too large", h->ndim);
            v = v * 10 + (*c->p++ - '0');
            digits++;
        }
        if (!digits)
            return pg_fail("npy header: shape holds something other than non-negative integers");
        h->shape[h->ndim++] = v;
        skip_ws(c);
        if (c->p < c->end && *c->p == ',')
            c->p++;
        else if (c->p >= c->end || *c->p != ')')
            return pg_fail("npy header: malformed shape tuple");
    }
}

static int parse_dict(cursor *c, pg_npy_info *h)
{
    int seen[3] = {0, 0, 0}; /* descr, fortran_order, shape */
    if (expect(c, '{') != 0)
        return -1;
    for (;;) {
        skip_ws(c);
        if (c->p < c->end && *c->p == '}') {
            c->p++;
            break;
        }
        char key[32];
        if (quoted(c, key, sizeof key) != 0 || expect(c, ':') != 0)
            return -1;
        int k = strcmp(key, "descr") == 0 ? 0 : strcmp(key, "fortran_order") == 0 ? 1 : strcmp(key, "shape") == 0 ? 2 : -1;
        if (k < 0 || seen[k])
            return pg_fail("npy header: unexpected or repeated key '%s'", key);
        seen[k] = 1;
        if ((k == 0 ? descr_value(c, h) : k == 1 ? fortran_value(c) : shape_value(c, h)) != 0)
            return -1;
        skip_ws(c);
        if (c->p < c->end && *c->p == ',')
            c->p++;
        else if (c->p >= c->end || *c->p != '}')
            return pg_fail("npy header: expected ',' or '}' after '%s'", key);
    }
    if (!seen[0] || !seen[1] || !seen[2])
        return pg_fail("npy header: missing '%s'", !seen[0] ? "descr" : !seen[1] ? "fortran_order" : "shape");
    skip_ws(c);
    if (c->p != c->end)
        return pg_fail("npy header: unexpected text after the dictionary");
    return 0;
}

int pg_npy_header_parse(const unsigned char *buf, size_t n, pg_npy_info *h, size_t *header_bytes)
{
    memset(h, 0, sizeof *h);
    if (n < 10 || memcmp(buf, k_magic, 6) != 0)
        return pg_fail("not a NumPy .npy file (no \\x93NUMPY magic)");
    const int major = buf[6], minor = buf[7];
    if ((major != 1 && major != 2) || minor != 0)
        return pg_fail(".npy format version %d.%d is not supported (1.0 or 2.0)", major, minor);
    const size_t pre = major == 1 ? 10 : 12;
    if (n < pre)
        return pg_fail("truncated .npy header");
    size_t len = (size_t)buf[8] | (size_t)buf[9] << 8;
    if (major == 2)
        len |= (size_t)buf[10] << 16 | (size_t)buf[11] << 24;
    if (len > PG_NPY_MAX_HEADER)
        return pg_fail(".npy header of %zu bytes is longer than %d", len, PG_NPY_MAX_HEADER);
    if (n < pre + len)
        return pg_fail("truncated .npy header (%zu of %zu bytes)", n - pre, len);
    cursor c = {(const char *)buf + pre, (const char *)buf + pre + len};
    if (parse_dict(&c, h) != 0)
        return -1;
    int64_t elems, bytes;
    if (pg_npy_count(h, &elems, &bytes) != 0)
        return -1;
    *header_bytes = pre + len;
    return 0;
}

static int write_all(FILE *f, const void *p, size_t n)
{
    return fwrite(p, 1, n, f) == n ? 0 : pg_fail("write failed: %s", strerror(errno));
}

int pg_npy_write(const char *path, const pg_npy_info *h, const void *data)
{
    char head[1024];
    int64_t elems, bytes;
    const int hn = pg_npy_header_format(h, head, sizeof head);
    if (hn < 0 || pg_npy_count(h, &elems, &bytes) != 0)
        return pg_fail_context("%s", path);
    pg_outfile o;
    if (pg_outfile_open(&o, path) != 0)
        return -1;
    if (write_all(o.f, head, (size_t)hn) != 0 || write_all(o.f, data, (size_t)bytes) != 0) {
        pg_outfile_abort(&o);
        return pg_fail_context("%s", path);
    }
    return pg_outfile_commit(&o);
}

/* Exactly n bytes at the descriptor's offset; -1 with a message on a short file. */
static int read_exact(int fd, void *buf, size_t n, const char *path)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, (char *)buf + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return pg_fail("%s: read failed: %s", path, strerror(errno));
        if (r == 0)
            return pg_fail("%s: truncated: %zu of %zu bytes", path, got, n);
        got += (size_t)r;
    }
    return 0;
}

int pg_npy_read(const char *path, pg_npy_dtype want, int ndim, pg_npy_info *h, void **data)
{
    int rc = -1;
    unsigned char *head = NULL;
    void *buf = NULL;
    *data = NULL;
    const int fd = pg_input_open(path, ".npy file");
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        pg_fail("%s: %s", path, strerror(errno));
        goto done;
    }
    const size_t cap = 12 + PG_NPY_MAX_HEADER;
    const size_t first = (size_t)st.st_size < cap ? (size_t)st.st_size : cap;
    head = malloc(first + 1);
    if (!head) {
        pg_fail("%s: out of memory", path);
        goto done;
    }
    size_t hb = 0;
    if (read_exact(fd, head, first, path) != 0)
        goto done;
    if (pg_npy_header_parse(head, first, h, &hb) != 0) {
        pg_fail_context("%s", path);
        goto done;
    }
    if (h->dtype != want || h->ndim != ndim) {
        pg_fail("%s: holds %s with %d dimensions; want %s with %d", path, pg_npy_dtype_name(h->dtype), h->ndim,
                pg_npy_dtype_name(want), ndim);
        goto done;
    }
    int64_t elems, bytes;
    if (pg_npy_count(h, &elems, &bytes) != 0)
        goto done;
    if ((int64_t)st.st_size != (int64_t)hb + bytes) {
        pg_fail("%s: %lld data bytes, but the shape needs %lld (%s)", path, (long long)st.st_size - (long long)hb,
                (long long)bytes, (int64_t)st.st_size < (int64_t)hb + bytes ? "truncated" : "trailing bytes");
        goto done;
    }
    buf = pg_alloc(path, bytes, 1);
    if (!buf)
        goto done;
    if (lseek(fd, (off_t)hb, SEEK_SET) < 0) {
        pg_fail("%s: seek failed: %s", path, strerror(errno));
        goto done;
    }
    if (read_exact(fd, buf, (size_t)bytes, path) != 0)
        goto done;
    *data = buf;
    buf = NULL;
    rc = 0;
done:
    free(buf);
    free(head);
    close(fd);
    return rc;
}
