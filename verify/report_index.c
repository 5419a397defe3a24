#include "report_index.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "pg_error.h"
#include "pg_outfile.h"
#include "pg_svg.h"

static int mkdir_p(const char *dir)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf)
        return pg_fail("report folder name too long");
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0755) != 0 && errno != EEXIST)
            return pg_fail("cannot create folder %s: %s", buf, strerror(errno));
        *p = '/';
    }
    if (mkdir(buf, 0755) != 0 && errno != EEXIST)
        return pg_fail("cannot create folder %s: %s", buf, strerror(errno));
    struct stat st;
    if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode))
        return pg_fail("%s exists and is not a folder", buf);
    return 0;
}

int pg_report_begin(pg_report *r, const char *dir)
{
    memset(r, 0, sizeof *r);
    if (snprintf(r->dir, sizeof r->dir, "%s", dir) >= (int)sizeof r->dir)
        return pg_fail("report folder name too long");
    return mkdir_p(dir);
}

int pg_report_path(const pg_report *r, const char *file, char *out, size_t n)
{
    if ((size_t)snprintf(out, n, "%s/%s", r->dir, file) >= n)
        return pg_fail("path %s/%s too long", r->dir, file);
    return 0;
}

void pg_report_section(pg_report *r, int rank, const char *title)
{
    for (int i = 0; i < r->nsections; i++)
        if (strcmp(r->section_title[i], title) == 0) {
            r->current = i;
            return;
        }
    if (r->nsections >= PG_REPORT_MAX_SECTIONS)
        return;
    snprintf(r->section_title[r->nsections], sizeof r->section_title[0], "%s", title);
    r->section_rank[r->nsections] = rank;
    r->current = r->nsections++;
}

void pg_report_add(pg_report *r, const char *title, const char *file, int status, const char *note)
{
    if (r->n >= PG_REPORT_MAX_ITEMS)
        return;
    pg_report_item *it = &r->items[r->n++];
    snprintf(it->title, sizeof it->title, "%s", title);
    snprintf(it->file, sizeof it->file, "%s", file ? file : "");
    snprintf(it->note, sizeof it->note, "%s", note ? note : "");
    it->status = status;
    it->section = r->current;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Section indices in rank order (stable). */
static int section_order(const pg_report *r, int *order)
{
    int n = r->nsections > 0 ? r->nsections : 1;
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = 1; i < n; i++)
        for (int k = i; k > 0 && r->section_rank[order[k]] < r->section_rank[order[k - 1]]; k--) {
            int t = order[k];
            order[k] = order[k - 1];
            order[k - 1] = t;
        }
    return n;
}

static void write_item_link(FILE *f, const pg_report_item *it, int i)
{
    fprintf(f, "<li><a href=\"#item%d\">", i);
    pg_svg_escape(f, it->title);
    fputs("</a>", f);
    if (it->status != PG_ITEM_INFO)
        fprintf(f, " <span class=\"%s\">%s</span>", it->status == PG_ITEM_PASS ? "pass" : "fail",
                it->status == PG_ITEM_PASS ? "PASS" : "FAIL");
    fputs("</li>\n", f);
}

int pg_report_write_index(const pg_report *r, const char *heading, const char *intro)
{
    int order[PG_REPORT_MAX_SECTIONS];
    int nsec = section_order(r, order);
    char path[4200];
    pg_outfile o;
    if (pg_report_path(r, "index.html", path, sizeof path) != 0 || pg_outfile_open(&o, path) != 0)
        return -1;
    FILE *f = o.f;
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>", f);
    pg_svg_escape(f, heading);
    fputs("</title>\n<style>body{font-family:sans-serif;max-width:1250px;margin:2em auto;padding:0 1em}"
          ".pass{color:#080;font-weight:bold}.fail{color:#c00;font-weight:bold}"
          "object{max-width:100%;border:1px solid #ddd;margin:.5em 0}li{margin:.3em 0}"
          "section{margin:1.5em 0;border-top:1px solid #ccc}</style></head><body>\n<h1>", f);
    pg_svg_escape(f, heading);
    fputs("</h1>\n", f);
    if (intro) {
        fputs("<p>", f);
        pg_svg_escape(f, intro);
        fputs("</p>\n", f);
    }
    fputs("<h2>Contents</h2>\n", f);
    for (int k = 0; k < nsec; k++) {
        int sec = order[k];
        if (r->nsections > 0) {
            fputs("<h3>", f);
            pg_svg_escape(f, r->section_title[sec]);
            fputs("</h3>\n", f);
        }
        fputs("<ul>\n", f);
        for (int i = 0; i < r->n; i++)
            if (r->nsections == 0 || r->items[i].section == sec)
                write_item_link(f, &r->items[i], i);
        fputs("</ul>\n", f);
    }
    for (int k = 0; k < nsec; k++) {
        int sec = order[k];
        for (int i = 0; i < r->n; i++) {
            const pg_report_item *it = &r->items[i];
            if (r->nsections > 0 && it->section != sec)
                continue;
            fprintf(f, "<section id=\"item%d\"><h2>", i);
            pg_svg_escape(f, it->title);
            if (it->status != PG_ITEM_INFO)
                fprintf(f, " <span class=\"%s\">%s</span>", it->status == PG_ITEM_PASS ? "pass" : "fail",
                        it->status == PG_ITEM_PASS ? "PASS" : "FAIL");
            fputs("</h2>\n", f);
            if (it->note[0]) {
                fputs("<p>", f);
                pg_svg_escape(f, it->note);
                fputs("</p>\n", f);
            }
            if (it->file[0]) {
                if (ends_with(it->file, ".svg")) {
                    /* <object>, not <img>: an SVG inside <img> is a static
                     * picture, so its <title> tooltips never show */
                    fputs("<object type=\"image/svg+xml\" data=\"", f);
                    pg_svg_escape(f, it->file);
                    fputs("\">", f);
                    pg_svg_escape(f, it->title);
                    fputs("</object><br>\n", f);
                }
                fputs("<a href=\"", f);
                pg_svg_escape(f, it->file);
                fputs("\">", f);
                pg_svg_escape(f, it->file);
                fputs("</a>\n", f);
            }
            fputs("</section>\n", f);
        }
    }
    fputs("</body></html>\n", f);
    return pg_outfile_commit(&o);
}
