/* A small SVG plot writer for reports: x/y line and point plots with axes
 * and labels, grouped bar histograms, and timelines (rectangles on lanes,
 * waits shaded, with a legend).  The caller describes the plot in a struct
 * that points at its own arrays; the writer scales, draws axes with round
 * tick values and escapes all text.  Output is standalone SVG 1.1. */
#ifndef PG_SVG_H
#define PG_SVG_H

#include <stdint.h>
#include <stdio.h>

#define PG_SVG_MAX_SERIES 8
#define PG_SVG_MAX_MARKS 8

enum { PG_SVG_LINE = 1, PG_SVG_POINTS = 2 };

typedef struct {
    const char *label;
    const double *x, *y; /* n points; non-finite points are skipped (a line breaks there) */
    int64_t n;
    int style;           /* PG_SVG_LINE, PG_SVG_POINTS or both */
} pg_svg_series;

typedef struct {
    const char *title, *xlabel, *ylabel;
    int log_y;           /* log10 y axis (points <= 0 skipped) */
    int nseries;
    pg_svg_series series[PG_SVG_MAX_SERIES];
    int nmarks;          /* vertical reference lines (e.g. a phase transition) */
    double mark_x[PG_SVG_MAX_MARKS];
    const char *mark_label[PG_SVG_MAX_MARKS];
} pg_svg_xy;

typedef struct {
    const char *title, *xlabel, *ylabel;
    int nbins;
    const char *const *bin_labels; /* nbins labels, drawn under the bars */
    int nsets;                     /* bars per bin, side by side */
    const char *set_labels[PG_SVG_MAX_SERIES];
    const double *values[PG_SVG_MAX_SERIES]; /* nbins each, >= 0 */
    int log_y;                     /* log10(1 + value) bar heights, for counts spanning decades */
} pg_svg_bars;

typedef struct {
    double t0, t1; /* x extent (t1 >= t0) */
    int lane;      /* row, 0 at the top */
    int cls;       /* class: colour and legend entry */
} pg_svg_span;

typedef struct {
    const char *title, *xlabel;
    int nlanes;
    const char *const *lane_labels;   /* nlanes; NULL or "" draws a separator lane */
    int nclasses;
    const char *const *class_labels;  /* nclasses legend names */
    const int *class_is_wait;         /* nclasses flags (or NULL): waits drawn hatched and pale */
    int64_t nspans;
    const pg_svg_span *spans;
} pg_svg_timeline;

/* Each writer returns 0, or -1 with a pg_fail() message for an invalid
 * description (no data, bad lane/class index, too many series) or a write
 * error.  The _save variants write `path` atomically (pg_outfile). */
int pg_svg_xy_write(FILE *f, const pg_svg_xy *p);
int pg_svg_bars_write(FILE *f, const pg_svg_bars *p);
int pg_svg_timeline_write(FILE *f, const pg_svg_timeline *p);
int pg_svg_xy_save(const char *path, const pg_svg_xy *p);
int pg_svg_bars_save(const char *path, const pg_svg_bars *p);
int pg_svg_timeline_save(const char *path, const pg_svg_timeline *p);

/* The colour of series/class i (a fixed, colour-blind friendly palette). */
const char *pg_svg_color(int i);
/* Write s with XML escaping (&, <, >, ", '). */
void pg_svg_escape(FILE *f, const char *s);

#endif
