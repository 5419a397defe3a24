/* A small streaming JSON writer: objects, arrays, strings with escaping,
 * numbers (NaN and +-inf written as null, since JSON has no such numbers).
 * The writer inserts commas and indentation itself and tracks nesting; any
 * misuse (a value where a key is due, unbalanced ends) or write error makes
 * pg_json_finish() fail, so a caller checks once at the end. */
#ifndef PG_JSON_H
#define PG_JSON_H

#include <stdint.h>
#include <stdio.h>

#define PG_JSON_MAX_DEPTH 32

typedef struct {
    FILE *f;
    int pretty;                          /* newline + two-space indent per level */
    int depth;
    char kind[PG_JSON_MAX_DEPTH];        /* '{' or '[' per open level */
    int count[PG_JSON_MAX_DEPTH];        /* values written at each level */
    int key_pending;                     /* a key was written, its value is due */
    int done;                            /* the top-level value is complete */
    char error[128];                     /* first misuse, "" if none */
} pg_json;

void pg_json_init(pg_json *j, FILE *f, int pretty);

void pg_json_object_begin(pg_json *j);
void pg_json_object_end(pg_json *j);
void pg_json_array_begin(pg_json *j);
void pg_json_array_end(pg_json *j);
void pg_json_key(pg_json *j, const char *key);

void pg_json_string(pg_json *j, const char *s); /* NULL writes null */
void pg_json_number(pg_json *j, double v);      /* shortest round-trip form; NaN/inf -> null */
void pg_json_int(pg_json *j, int64_t v);
void pg_json_bool(pg_json *j, int v);
void pg_json_null(pg_json *j);

/* key + value in one call (inside an object). */
void pg_json_kv_string(pg_json *j, const char *key, const char *s);
void pg_json_kv_number(pg_json *j, const char *key, double v);
void pg_json_kv_int(pg_json *j, const char *key, int64_t v);
void pg_json_kv_bool(pg_json *j, const char *key, int v);
/* An array of numbers / integers as one value. */
void pg_json_number_array(pg_json *j, const double *v, int64_t n);
void pg_json_int_array(pg_json *j, const int64_t *v, int64_t n);

/* 0 if one complete, balanced value was written without write errors;
 * otherwise -1 with a pg_fail() message.  Writes a final newline. */
int pg_json_finish(pg_json *j);

/* One JSON value into the file `path`, whole or not at all (pg_outfile.h):
 * `emit` writes the value with j, then the writer is checked and the file
 * put in place.  -1 with a message naming `path` on any failure. */
typedef void (*pg_json_emit_fn)(pg_json *j, const void *ctx);
int pg_json_save(const char *path, int pretty, pg_json_emit_fn emit, const void *ctx);

#endif
