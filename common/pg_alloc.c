#include "pg_alloc.h"

#include <stdlib.h>

#include "pg_error.h"

int pg_bytes(const char *what, int64_t count, size_t size, size_t *out)
{
    if (count < 0 || (size != 0 && (uint64_t)count > SIZE_MAX / size))
        return pg_fail("%s: size %lld x %zu bytes does not fit in memory", what, (long long)count, size);
    *out = (size_t)count * size;
    return 0;
}

void *pg_alloc(const char *what, int64_t count, size_t size)
{
    size_t bytes;
    if (pg_bytes(what, count, size, &bytes) < 0)
        return NULL;
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        pg_fail("out of memory for %s (%zu bytes)", what, bytes);
    return p;
}
