/* Small helpers shared by the reference part's subcommands. */
#ifndef PG_REF_CLI_UTIL_H
#define PG_REF_CLI_UTIL_H

#include <stdint.h>

#include "problem.h"

/* Whole-string decimal parses; -1 with a pg_fail() message naming `what`. */
int pg_cli_parse_u64(const char *s, const char *what, uint64_t *out);
int pg_cli_parse_int(const char *s, const char *what, int lo, int hi, int *out);

/* The problem from --input FILE, or generated from --problem/--family/--seed
 * (family and seed defaulted by the caller).  Exactly one source must be
 * given.  *from_file_stored is 1 when the inputs came stored in a file. */
int pg_cli_load_problem(const char *input, const char *shape, const char *family, uint64_t seed, pg_problem *p,
                        int *from_file_stored);

/* Set the OpenMP thread count (threads > 0) or keep the default (0). */
void pg_cli_set_threads(int threads);

#endif
