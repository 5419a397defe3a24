/* Checked allocation: sizes computed without overflow, and a failure that
 * says what could not be allocated (through pg_error.h). */
#ifndef PG_ALLOC_H
#define PG_ALLOC_H

#include <stddef.h>
#include <stdint.h>

/* count * size into *out; -1 with "<what>: size N x S bytes does not fit in
 * memory" when count is negative or the product overflows size_t. */
int pg_bytes(const char *what, int64_t count, size_t size, size_t *out);

/* The most memory one allocation (or one set of buffers) may take: the
 * machine's physical memory, or PEGEMM_MEM_LIMIT (bytes) when that is set
 * and smaller.  A request above it would only swap or be killed. */
uint64_t pg_mem_limit(void);
/* 0 if `bytes` fit within pg_mem_limit(); -1 with "<what> needs N bytes
 * (X GiB), more than this machine's memory (Y GiB)" otherwise. */
int pg_mem_fits(const char *what, uint64_t bytes);

/* malloc'd room for `count` elements of `size` bytes (at least one byte, so
 * a success is never NULL); NULL with a message naming `what` on failure,
 * including a size above pg_mem_limit(). */
void *pg_alloc(const char *what, int64_t count, size_t size);

#endif
