/* Output of the model subcommands: text tables, JSON (common/pg_json.h) and
 * the sweep's SVG (common/pg_svg.h). */
#ifndef PG_CLI_MODEL_OUT_H
#define PG_CLI_MODEL_OUT_H

#include <stdio.h>

#include "model_ext.h"
#include "validate.h"

int model_print_text(FILE *f, const pg_schedule *s, const pg_model_opts *o, const pg_prediction *p);
int model_print_json(FILE *f, const pg_schedule *s, const pg_model_opts *o, const pg_prediction *p);
int sweep_print_text(FILE *f, const pg_schedule *s, const pg_sweep *sw);
int sweep_print_json(FILE *f, const pg_schedule *s, const pg_sweep *sw);
int sweep_write_svg(const char *path, const pg_schedule *s, const pg_sweep *sw);
/* p: model fitted to the run; m: the run's trace summarized */
int fit_print_text(FILE *f, const pg_schedule *s, const pg_prediction *p, const pg_prediction *m, const pg_run *run);
int fit_print_json(FILE *f, const pg_schedule *s, const pg_prediction *p, const pg_prediction *m, const pg_run *run);
/* Predict every calibration row and compare; *all_ok = 0 if one misses. */
int seed_validate(FILE *f, const pg_seed_row *rows, int n, const pg_model_opts *o, int json, int *all_ok);

/* The H100 --epi-delay sweep check (see `pegemm model validate-delays --help`). */
int delays_validate(FILE *f, const char *const *paths, int n, const pg_model_opts *o, const char *schedule, int json,
                    int *all_ok);

/* `pegemm model validate`'s report (cli_model_validate.c): text, or JSON when json */
int validate_print(FILE *f, const pg_validate_report *r, int json);

/* `pegemm model contest` (cli_model_contest.c) */
int pg_model_cmd_contest(int argc, char **argv);

#endif
