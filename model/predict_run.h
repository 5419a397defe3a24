/* The period of a run as it runs: every unit's share of the tiles from an
 * empty pipeline (predict_run.c). */
#ifndef PG_PREDICT_RUN_H
#define PG_PREDICT_RUN_H

#include "engine.h"
#include "model.h"
#include "sched.h"

/* Gaps each unit's run leaves out: the engine's own pipeline fill. */
#define PG_RUN_FILL_GAPS 4

/* The mean tile gap of the period step over every unit's run of its share
 * of s's tiles, each from an empty pipeline, its first PG_RUN_FILL_GAPS
 * gaps left out; NAN when a unit has fewer than 2 PG_RUN_FILL_GAPS + 2
 * tiles (the fill would be most of it).  E: an engine of s (reset here;
 * its no_replay is restored). */
double predict_run_period(const pg_schedule *s, const pg_model_opts *o, engine *E);

#endif
