/* Shared by the fuzz harnesses: a private scratch directory per process and
 * the fuzzed bytes as a NUL-terminated string or a file in it.  The harnesses
 * abort on a failing libc call: a fuzzer must not go on with a broken setup. */
#ifndef PG_FUZZ_UTIL_H
#define PG_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* The entry points every harness defines (libFuzzer's names). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* This process's private directory (mkdtemp under $TMPDIR or /tmp), made on
 * first use and removed at exit. */
const char *fuzz_scratch_dir(void);
/* The bytes as a malloc'd NUL-terminated string (embedded NULs kept). */
char *fuzz_cstring(const uint8_t *data, size_t size);
/* Write the bytes to `name` inside the scratch dir; returns the full path
 * (a static buffer). */
const char *fuzz_write_file(const char *name, const uint8_t *data, size_t size);
/* Remove every entry of the scratch dir (not the dir itself). */
void fuzz_clear_scratch(void);

#endif
