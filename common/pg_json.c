#include "pg_json.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pg_error.h"
#include "pg_outfile.h"

void pg_json_init(pg_json *j, FILE *f, int pretty)
{
    memset(j, 0, sizeof *j);
    j->f = f;
    j->pretty = pretty;
}

static void misuse(pg_json *j, const char *what)
{
    if (!j->error[0])
        snprintf(j->error, sizeof j->error, "%s", what);
}

static void newline_indent(pg_json *j)
{
    if (!j->pretty)
        return;
    fputc('\n', j->f);
    for (int i = 0; i < j->depth; i++)
        fputs("  ", j->f);
}

/* Everything a value needs before it: a comma and indentation inside an
 * array; nothing after a key (the key wrote its own separator). */
static int before_value(pg_json *j)
{
    if (j->done) {
        misuse(j, "a second top-level value");
        return -1;
    }
    if (j->depth == 0)
        return 0;
    char k = j->kind[j->depth - 1];
    if (k == '{') {
        if (!j->key_pending) {
            misuse(j, "a value inside an object without a key");
            return -1;
        }
        j->key_pending = 0;
        return 0;
    }
    if (j->count[j->depth - 1]++ > 0)
        fputc(',', j->f);
    newline_indent(j);
    return 0;
}

static void after_value(pg_json *j)
{
    if (j->depth == 0)
        j->done = 1;
}

/* Length of the well-formed UTF-8 sequence at p (1..4), or 0 if the bytes
 * there are not one (a stray continuation byte, an overlong form, a
 * surrogate, a code point above U+10FFFF, or a sequence cut short). */
static int utf8_len(const unsigned char *p)
{
    unsigned c = p[0];
    int n;
    unsigned min;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, min = 0x10000;
    else
        return 0;
    unsigned cp = c & (0x3Fu >> (n - 1));
    for (int i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80) /* also stops at the terminating NUL */
            return 0;
        cp = (cp << 6) | (p[i] & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

/* JSON strings are UTF-8: control characters are escaped, and a byte that
 * does not start a well-formed UTF-8 sequence (a Latin-1 kernel name, a
 * corrupt attribute) becomes U+FFFD, so the output is always valid JSON. */
static void write_escaped(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        switch (*p) {
        case '"': fputs("\\\"", f); p++; continue;
        case '\\': fputs("\\\\", f); p++; continue;
        case '\n': fputs("\\n", f); p++; continue;
        case '\r': fputs("\\r", f); p++; continue;
        case '\t': fputs("\\t", f); p++; continue;
        case '\b': fputs("\\b", f); p++; continue;
        case '\f': fputs("\\f", f); p++; continue;
        default: break;
        }
        if (*p < 0x20 || *p == 0x7F) {
            fprintf(f, "\\u%04x", *p);
            p++;
            continue;
        }
        int n = utf8_len(p);
        if (n == 0) {
            fputs("\\ufffd", f);
            p++;
        } else {
            fwrite(p, 1, (size_t)n, f);
            p += n;
        }
    }
    fputc('"', f);
}

static void open_level(pg_json *j, char kind)
{
    if (before_value(j) != 0)
        return;
    if (j->depth >= PG_JSON_MAX_DEPTH) {
        misuse(j, "nesting deeper than PG_JSON_MAX_DEPTH");
        return;
    }
    fputc(kind, j->f);
    j->kind[j->depth] = kind;
    j->count[j->depth] = 0;
    j->depth++;
}

static void close_level(pg_json *j, char kind)
{
    if (j->depth == 0 || j->kind[j->depth - 1] != kind) {
        misuse(j, kind == '{' ? "object end without a matching begin" : "array end without a matching begin");
        return;
    }
    if (j->key_pending) {
        misuse(j, "a key without a value");
        return;
    }
    int had = j->count[j->depth - 1];
    j->depth--;
    if (had)
        newline_indent(j);
    fputc(kind == '{' ? '}' : ']', j->f);
    after_value(j);
}

void pg_json_object_begin(pg_json *j) { open_level(j, '{'); }
void pg_json_object_end(pg_json *j) { close_level(j, '{'); }
void pg_json_array_begin(pg_json *j) { open_level(j, '['); }
void pg_json_array_end(pg_json *j) { close_level(j, '['); }

void pg_json_key(pg_json *j, const char *key)
{
    if (j->depth == 0 || j->kind[j->depth - 1] != '{') {
        misuse(j, "a key outside an object");
        return;
    }
    if (j->key_pending) {
        misuse(j, "two keys in a row");
        return;
    }
    if (j->count[j->depth - 1]++ > 0)
        fputc(',', j->f);
    newline_indent(j);
    write_escaped(j->f, key ? key : "");
    fputs(j->pretty ? ": " : ":", j->f);
    j->key_pending = 1;
}

void pg_json_string(pg_json *j, const char *s)
{
    if (before_value(j) != 0)
        return;
    if (s)
        write_escaped(j->f, s);
    else
        fputs("null", j->f);
    after_value(j);
}

void pg_json_number(pg_json *j, double v)
{
    if (before_value(j) != 0)
        return;
    if (!isfinite(v)) {
        fputs("null", j->f);
    } else if (v == 0.0) {
        fputs(signbit(v) ? "-0.0" : "0", j->f);
    } else {
        /* the shortest %g precision that reads back to the same double */
        char buf[40];
        for (int prec = 6; prec <= 17; prec++) {
            snprintf(buf, sizeof buf, "%.*g", prec, v);
            if (strtod(buf, NULL) == v)
                break;
        }
        fputs(buf, j->f);
    }
    after_value(j);
}

void pg_json_int(pg_json *j, int64_t v)
{
    if (before_value(j) != 0)
        return;
    fprintf(j->f, "%" PRId64, v);
    after_value(j);
}

void pg_json_bool(pg_json *j, int v)
{
    if (before_value(j) != 0)
        return;
    fputs(v ? "true" : "false", j->f);
    after_value(j);
}

void pg_json_null(pg_json *j)
{
    if (before_value(j) != 0)
        return;
    fputs("null", j->f);
    after_value(j);
}

void pg_json_kv_string(pg_json *j, const char *key, const char *s)
{
    pg_json_key(j, key);
    pg_json_string(j, s);
}

void pg_json_kv_number(pg_json *j, const char *key, double v)
{
    pg_json_key(j, key);
    pg_json_number(j, v);
}

void pg_json_kv_int(pg_json *j, const char *key, int64_t v)
{
    pg_json_key(j, key);
    pg_json_int(j, v);
}

void pg_json_kv_bool(pg_json *j, const char *key, int v)
{
    pg_json_key(j, key);
    pg_json_bool(j, v);
}

/* Number arrays stay on one line even in pretty mode: a histogram of 64
 * bins should not take 64 lines. */
static void flat_array(pg_json *j, const double *d, const int64_t *i, int64_t n)
{
    if (before_value(j) != 0)
        return;
    int saved = j->pretty;
    j->pretty = 0;
    fputc('[', j->f);
    j->kind[j->depth] = '[';
    j->count[j->depth] = 0;
    j->depth++;
    for (int64_t k = 0; k < n; k++) {
        if (d)
            pg_json_number(j, d[k]);
        else
            pg_json_int(j, i[k]);
    }
    j->depth--;
    fputc(']', j->f);
    j->pretty = saved;
    after_value(j);
}

void pg_json_number_array(pg_json *j, const double *v, int64_t n) { flat_array(j, v, NULL, n); }
void pg_json_int_array(pg_json *j, const int64_t *v, int64_t n) { flat_array(j, NULL, v, n); }

int pg_json_finish(pg_json *j)
{
    if (j->error[0])
        return pg_fail("JSON writer misuse: %s", j->error);
    if (j->depth != 0 || !j->done)
        return pg_fail("JSON writer misuse: %d unclosed object(s)/array(s)", j->depth);
    fputc('\n', j->f);
    /* flush here, so a full disk is reported now, with its errno */
    if (fflush(j->f) != 0 || ferror(j->f))
        return pg_fail("write error: %s", strerror(errno ? errno : EIO));
    return 0;
}

int pg_json_save(const char *path, int pretty, pg_json_emit_fn emit, const void *ctx)
{
    pg_outfile o;
    pg_json j;
    if (pg_outfile_open(&o, path) != 0)
        return -1;
    pg_json_init(&j, o.f, pretty);
    emit(&j, ctx);
    if (pg_json_finish(&j) != 0) {
        pg_outfile_abort(&o);
        return pg_fail_context("%s", path);
    }
    return pg_outfile_commit(&o);
}
