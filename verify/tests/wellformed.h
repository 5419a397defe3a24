/* Independent checkers for the tests: a strict JSON parser (RFC 8259
 * grammar) and an XML well-formedness checker (tags nest and match,
 * attributes quoted, entities known, one root element).  They share no
 * code with the writers they check. */
#ifndef PG_TEST_WELLFORMED_H
#define PG_TEST_WELLFORMED_H

#include <stddef.h>

typedef struct {
    long objects, arrays, strings, numbers, literals;
    /* counts of "key": "value" string pairs equal to a chosen key/value */
    const char *count_key, *count_value;
    long key_value_hits;
} json_stats;

/* 0 if `text` is exactly one valid JSON value (surrounding whitespace
 * allowed); otherwise -1 and `err` describes the first problem. */
int json_validate(const char *text, size_t len, json_stats *st, char *err, size_t errlen);

typedef struct {
    long elements;
    char root[64];
} xml_stats;

int xml_validate(const char *text, size_t len, xml_stats *st, char *err, size_t errlen);

/* Read a whole file into a NUL-terminated buffer (caller frees); NULL if absent. */
char *read_whole_file(const char *path, size_t *len);

/* 0 if the file `path` is a well-formed SVG document (root element <svg>)
 * with at least `min_elements` elements; otherwise -1 and `err` says why. */
int svg_file_validate(const char *path, long min_elements, char *err, size_t errlen);

#endif
