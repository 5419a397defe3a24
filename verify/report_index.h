/* The report folder: files written by the verify and demo commands and an
 * index.html that links (and, for SVG, shows) each with its verdict. */
#ifndef PG_VERIFY_REPORT_INDEX_H
#define PG_VERIFY_REPORT_INDEX_H

#include <stddef.h>

#define PG_REPORT_MAX_ITEMS 64

enum { PG_ITEM_INFO = -1, PG_ITEM_PASS = 0, PG_ITEM_FAIL = 1 };

typedef struct {
    char title[160];
    char file[160]; /* relative to the report folder */
    char note[512];
    int status;     /* PG_ITEM_INFO, PG_ITEM_PASS or PG_ITEM_FAIL */
    int section;    /* index into pg_report.sections */
} pg_report_item;

#define PG_REPORT_MAX_SECTIONS 8

typedef struct {
    char dir[4096];
    int n;
    pg_report_item items[PG_REPORT_MAX_ITEMS];
    /* sections are written in rank order (then creation order), whatever
     * order the items arrive in: the headline first, details last */
    int nsections, current;
    char section_title[PG_REPORT_MAX_SECTIONS][96];
    int section_rank[PG_REPORT_MAX_SECTIONS];
} pg_report;

/* Create the folder (and parents) if needed; -1 with a message. */
int pg_report_begin(pg_report *r, const char *dir);
/* dir/file into out; -1 if it does not fit. */
int pg_report_path(const pg_report *r, const char *file, char *out, size_t n);
/* Items added from now on go into the section `title` (created on first use). */
void pg_report_section(pg_report *r, int rank, const char *title);
void pg_report_add(pg_report *r, const char *title, const char *file, int status, const char *note);
/* index.html, atomically. */
int pg_report_write_index(const pg_report *r, const char *heading, const char *intro);

#endif
