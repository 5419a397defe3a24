/* A design contest (`pegemm model contest FILE`): several designs of one
 * kernel, each a schedule with overrides, on several machines and problem
 * shapes, predicted and ranked before anyone writes them; measured results
 * (a second file) are set beside the predictions afterwards, with the
 * ranking checked.  docs/model.md "Design contests" gives the file format:
 *
 *   contest NAME
 *   machine NAME bytes_per_s=B                 its DRAM copy rate (the floor)
 *   shape NAME flops=F bytes=U                 FLOP and unique DRAM bytes
 *   entry MACHINE DESIGN SHAPE SCHEDULE [P=V]...   a schedule and its --set's
 *
 * and the measured file: `measured MACHINE DESIGN SHAPE wall_us=W
 * [period=P] [WAIT=MEAN]...`.  The prediction of an entry is the larger of
 * the model's wall clock and the DRAM floor (bytes / bytes_per_s). */
#ifndef PG_CONTEST_H
#define PG_CONTEST_H

#include <stdio.h>

#include "model.h"
#include "pg_json.h"

#define PG_CONTEST_NAME 32
#define PG_CONTEST_MAX_SETS 16
#define PG_CONTEST_MAX_WAITS 8

typedef struct {
    char machine[PG_CONTEST_NAME], design[PG_CONTEST_NAME], shape[PG_CONTEST_NAME];
    char schedule[256];
    char sets[PG_CONTEST_MAX_SETS][96];
    int nsets, line;
    double flops, bytes, bytes_per_s; /* from the shape and machine lines */
    /* the prediction (pg_contest_predict) */
    pg_prediction pr;
    double model_us, dram_us, predicted_us;
    int dram_bound;
    int rank; /* 1 = fastest predicted among the entries of its machine and shape */
    /* measured_rank: 1 = fastest measured among the measured entries of its group */
    /* the measurement, if the measured file has this entry */
    int measured, measured_rank;
    double m_wall_us, m_period;
    int m_nwaits;
    char m_wait_names[PG_CONTEST_MAX_WAITS][PG_CONTEST_NAME];
    double m_waits[PG_CONTEST_MAX_WAITS];
} pg_contest_entry;

typedef struct {
    char name[64];
    char path[512];
    int n;
    pg_contest_entry *e;
} pg_contest;

/* 0, or -1 with a message naming the file and line. */
int pg_contest_load(const char *path, pg_contest *c);
/* Measured results for entries of c (every line must name one of them). */
int pg_contest_load_measured(const char *path, pg_contest *c);
/* Predict every entry (a schedule load, its overrides, pg_model_predict)
 * and rank within each (machine, shape); measured ranks too. */
int pg_contest_predict(pg_contest *c, const pg_model_opts *o);
/* The ranking table per machine and shape; with measurements, predicted
 * vs measured and whether the ranking held.  Returns 0 or -1 (I/O). */
int pg_contest_print(const pg_contest *c, FILE *f);
void pg_contest_json(const pg_contest *c, pg_json *j);
/* Groups (machine, shape) in which two measured entries are ordered
 * differently by the prediction and the measurement, among the groups with
 * two or more measured entries (*groups_checked); -1 if there are none. */
int pg_contest_rank_misses(const pg_contest *c, int *groups_checked);
void pg_contest_free(pg_contest *c);

#endif
