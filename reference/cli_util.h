/* Small helpers shared by the reference part's subcommands. */
#ifndef PG_REF_CLI_UTIL_H
#define PG_REF_CLI_UTIL_H

#include <stdint.h>

/* Whole-string decimal parses; -1 with a pg_fail() message naming `what`. */
int pg_cli_parse_u64(const char *s, const char *what, uint64_t *out);
int pg_cli_parse_int(const char *s, const char *what, int lo, int hi, int *out);

/* Set the OpenMP thread count (threads > 0) or keep the default (0). */
void pg_cli_set_threads(int threads);

#endif
