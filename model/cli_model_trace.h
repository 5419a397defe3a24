/* `pegemm model fit|predict --trace-out`: the model's simulated timeline as a run
 * file (cli_model_trace.c). */
#ifndef PG_CLI_MODEL_TRACE_H
#define PG_CLI_MODEL_TRACE_H

#include "model.h"
#include "runfile.h"

/* Simulate schedule s on each of its machine's SMs through its share of the
 * tiles and write the trace to path atomically (the output policy of
 * pg_run_write), with `measured`'s kernel and GPU record (NULL: `pegemm
 * model predict`, the schedule's name).  -1 with a message on failure;
 * nothing is left at path then. */
int model_trace_write(const char *path, const pg_schedule *s, const pg_model_opts *o, const pg_run *measured);

#endif
