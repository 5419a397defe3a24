/* One error channel for every part of pegemm.
 * A failing function records a message with pg_fail() and returns -1; the
 * caller either adds context with pg_fail_context() or prints pg_last_error()
 * and exits non-zero.  The buffer is thread-local, so OpenMP code may fail too. */
#ifndef PG_ERROR_H
#define PG_ERROR_H

#include <stdarg.h>

#if defined(__GNUC__)
#define PG_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define PG_PRINTF(a, b)
#endif

/* Record a message (printf-style) and return -1. */
int pg_fail(const char *fmt, ...) PG_PRINTF(1, 2);
/* Prefix the current message with more context ("reading run.h5: ...") and return -1. */
int pg_fail_context(const char *fmt, ...) PG_PRINTF(1, 2);
/* The last recorded message ("" if none). */
const char *pg_last_error(void);
void pg_clear_error(void);

#endif
