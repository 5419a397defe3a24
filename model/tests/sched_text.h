/* For the model tests: a schedule as `pegemm model fit -o` writes it. */
#ifndef PG_SCHED_TEXT_H
#define PG_SCHED_TEXT_H

#include <stdio.h>

#include "model_ext.h"

/* The text pg_schedule_write gives for s (its first comment `header`, NULL
 * for none), malloc'd: the caller frees it.  Fails the cmocka test if the
 * write fails. */
char *pg_test_schedule_text(const pg_schedule *s, const char *header);

#endif
