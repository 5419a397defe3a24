/* Checked allocation: sizes computed without overflow, and a failure that
 * says what could not be allocated (through pg_error.h). */
#ifndef PG_ALLOC_H
#define PG_ALLOC_H

#include <stddef.h>
#include <stdint.h>

/* count * size into *out; -1 with "<what>: size N x S bytes does not fit in
 * memory" when count is negative or the product overflows size_t. */
int pg_bytes(const char *what, int64_t count, size_t size, size_t *out);

/* malloc'd room for `count` elements of `size` bytes (at least one byte, so
 * a success is never NULL); NULL with a message naming `what` on failure. */
void *pg_alloc(const char *what, int64_t count, size_t size);

#endif
