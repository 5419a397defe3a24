#include "pg_error.h"

#include <stdio.h>
#include <string.h>

static _Thread_local char g_msg[1024];

int pg_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_msg, sizeof g_msg, fmt, ap);
    va_end(ap);
    return -1;
}

int pg_fail_context(const char *fmt, ...)
{
    char prefix[512];
    char old[sizeof g_msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    memcpy(old, g_msg, sizeof old);
    /* Truncation is acceptable: the newest context comes first. */
    snprintf(g_msg, sizeof g_msg, "%.500s: %.500s", prefix, old);
    return -1;
}

const char *pg_last_error(void) { return g_msg; }

void pg_clear_error(void) { g_msg[0] = '\0'; }
