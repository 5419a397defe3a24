#include "pg_alloc.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "pg_error.h"

int pg_bytes(const char *what, int64_t count, size_t size, size_t *out)
{
    if (count < 0 || (size != 0 && (uint64_t)count > SIZE_MAX / size))
        return pg_fail("%s: size %lld x %zu bytes does not fit in memory", what, (long long)count, size);
    *out = (size_t)count * size;
    return 0;
}

uint64_t pg_mem_limit(void)
{
    uint64_t limit = UINT64_MAX;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0 && (uint64_t)pages <= UINT64_MAX / (uint64_t)page)
        limit = (uint64_t)pages * (uint64_t)page;
    const char *env = getenv("PEGEMM_MEM_LIMIT");
    if (env && *env) {
        char *end = NULL;
        errno = 0;
        unsigned long long v = strtoull(env, &end, 10);
        if (errno == 0 && end && *end == '\0' && v > 0 && v < limit)
            limit = v;
    }
    return limit;
}

int pg_mem_fits(const char *what, uint64_t bytes)
{
    uint64_t limit = pg_mem_limit();
    if (bytes <= limit)
        return 0;
    return pg_fail("%s needs %llu bytes (%.1f GiB), more than this machine's memory (%.1f GiB)", what,
                   (unsigned long long)bytes, (double)bytes / (1 << 30), (double)limit / (1 << 30));
}

void *pg_alloc(const char *what, int64_t count, size_t size)
{
    size_t bytes;
    if (pg_bytes(what, count, size, &bytes) < 0 || pg_mem_fits(what, bytes) < 0)
        return NULL;
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        pg_fail("out of memory for %s (%zu bytes)", what, bytes);
    return p;
}
