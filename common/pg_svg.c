#include "pg_svg.h"

#include <math.h>
#include <string.h>

#include "pg_error.h"
#include "pg_outfile.h"

/* Okabe-Ito palette plus two greys: distinguishable with common colour
 * blindness, and dark enough on white. */
static const char *const k_palette[] = {
    "#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7",
    "#56B4E9", "#F0E442", "#000000", "#999999", "#666666",
};
#define NPALETTE ((int)(sizeof k_palette / sizeof k_palette[0]))

const char *pg_svg_color(int i) { return k_palette[((i % NPALETTE) + NPALETTE) % NPALETTE]; }

void pg_svg_escape(FILE *f, const char *s)
{
    if (!s)
        return;
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default:
            /* XML 1.0 forbids most control characters even escaped */
            if ((unsigned char)*s >= 0x20 || *s == '\t' || *s == '\n')
                fputc(*s, f);
        }
    }
}

/* ---- shared drawing pieces ---- */

typedef struct {
    double x0, y0, w, h;  /* plot area in pixels (y0 = top) */
    double lo_x, hi_x, lo_y, hi_y;
    int log_y;
} frame;

static double fx(const frame *fr, double x) { return fr->x0 + (x - fr->lo_x) / (fr->hi_x - fr->lo_x) * fr->w; }

static double fy(const frame *fr, double y)
{
    double v = fr->log_y ? log10(y) : y;
    return fr->y0 + fr->h - (v - fr->lo_y) / (fr->hi_y - fr->lo_y) * fr->h;
}

static void header(FILE *f, double w, double h, const char *title)
{
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" height=\"%.0f\" "
               "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n",
            w, h, w, h);
    fprintf(f, "<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
               "patternTransform=\"rotate(45)\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#333\" "
               "stroke-width=\"1.5\" stroke-opacity=\"0.5\"/></pattern></defs>\n");
    fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n", w, h);
    if (title) {
        fprintf(f, "<text x=\"%.1f\" y=\"24\" text-anchor=\"middle\" font-size=\"16\" font-weight=\"bold\">", w / 2);
        pg_svg_escape(f, title);
        fputs("</text>\n", f);
    }
}

static void text(FILE *f, double x, double y, const char *anchor, const char *extra, const char *s)
{
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s>", x, y, anchor, extra ? extra : "");
    pg_svg_escape(f, s);
    fputs("</text>\n", f);
}

/* Round tick values (1, 2, 5 x 10^k) covering [lo, hi]; returns the count. */
static int nice_ticks(double lo, double hi, double *ticks, int max)
{
    double span = hi - lo;
    if (!(span > 0))
        return 0;
    double raw = span / 6;
    double mag = pow(10, floor(log10(raw)));
    double step = mag;
    if (raw / mag > 5)
        step = 10 * mag;
    else if (raw / mag > 2)
        step = 5 * mag;
    else if (raw / mag > 1)
        step = 2 * mag;
    int n = 0;
    for (double t = ceil(lo / step) * step; t <= hi + step * 1e-9 && n < max; t += step)
        ticks[n++] = fabs(t) < step * 1e-9 ? 0 : t;
    return n;
}

static void axes(FILE *f, const frame *fr, const char *xlabel, const char *ylabel, int y_ticks)
{
    double ticks[32];
    char buf[64];
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#444\"/>\n",
            fr->x0, fr->y0, fr->w, fr->h);
    int n = nice_ticks(fr->lo_x, fr->hi_x, ticks, 32);
    for (int i = 0; i < n; i++) {
        double x = fx(fr, ticks[i]);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", x, fr->y0, x,
                fr->y0 + fr->h);
        snprintf(buf, sizeof buf, "%g", ticks[i]);
        text(f, x, fr->y0 + fr->h + 16, "middle", NULL, buf);
    }
    n = y_ticks ? nice_ticks(fr->lo_y, fr->hi_y, ticks, 32) : 0;
    for (int i = 0; i < n; i++) {
        /* on a log axis, only whole decades get a tick */
        if (fr->log_y && fabs(ticks[i] - round(ticks[i])) > 1e-9)
            continue;
        double v = fr->log_y ? pow(10, ticks[i]) : ticks[i];
        double y = fy(fr, v);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", fr->x0, y,
                fr->x0 + fr->w, y);
        snprintf(buf, sizeof buf, "%g", v);
        text(f, fr->x0 - 6, y + 4, "end", NULL, buf);
    }
    if (xlabel)
        text(f, fr->x0 + fr->w / 2, fr->y0 + fr->h + 40, "middle", NULL, xlabel);
    if (ylabel) {
        double cx = fr->x0 - 58, cy = fr->y0 + fr->h / 2;
        char rot[96];
        snprintf(rot, sizeof rot, " transform=\"rotate(-90 %.1f %.1f)\"", cx, cy);
        text(f, cx, cy, "middle", rot, ylabel);
    }
}

static void legend_entry(FILE *f, double x, double y, const char *color, int wait, int style, const char *label)
{
    if (style == PG_SVG_POINTS)
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>\n", x + 8, y - 4, color);
    else if (style == PG_SVG_LINE)
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"/>\n", x,
                y - 4, x + 16, y - 4, color);
    else {
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"%s\"%s/>\n", x, y - 9, color,
                wait ? " fill-opacity=\"0.35\"" : "");
        if (wait)
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"url(#hatch)\"/>\n", x, y - 9);
    }
    text(f, x + 22, y, "start", NULL, label ? label : "");
}

static int finish(FILE *f)
{
    fputs("</svg>\n", f);
    if (ferror(f))
        return pg_fail("SVG write error");
    return 0;
}

/* ---- x/y plot ---- */

int pg_svg_xy_write(FILE *f, const pg_svg_xy *p)
{
    if (p->nseries < 1 || p->nseries > PG_SVG_MAX_SERIES)
        return pg_fail("SVG plot: %d series (need 1..%d)", p->nseries, PG_SVG_MAX_SERIES);
    if (p->nmarks < 0 || p->nmarks > PG_SVG_MAX_MARKS)
        return pg_fail("SVG plot: %d marks (at most %d)", p->nmarks, PG_SVG_MAX_MARKS);
    frame fr = {.x0 = 90, .y0 = 50, .w = 560, .h = 360, .log_y = p->log_y};
    double lx = INFINITY, hx = -INFINITY, ly = INFINITY, hy = -INFINITY;
    for (int s = 0; s < p->nseries; s++) {
        const pg_svg_series *se = &p->series[s];
        for (int64_t i = 0; i < se->n; i++) {
            double x = se->x[i], y = se->y[i];
            if (!isfinite(x) || !isfinite(y) || (p->log_y && y <= 0))
                continue;
            double v = p->log_y ? log10(y) : y;
            lx = fmin(lx, x), hx = fmax(hx, x), ly = fmin(ly, v), hy = fmax(hy, v);
        }
    }
    for (int m = 0; m < p->nmarks; m++)
        if (isfinite(p->mark_x[m]))
            lx = fmin(lx, p->mark_x[m]), hx = fmax(hx, p->mark_x[m]);
    if (!(lx <= hx) || !(ly <= hy))
        return pg_fail("SVG plot '%s': no finite points to draw", p->title ? p->title : "");
    /* pad so points sit inside the frame; a flat series still gets a range */
    double px = hx > lx ? (hx - lx) * 0.04 : fmax(fabs(lx) * 0.1, 1);
    double py = hy > ly ? (hy - ly) * 0.06 : fmax(fabs(ly) * 0.1, 1);
    fr.lo_x = lx - px, fr.hi_x = hx + px;
    fr.lo_y = (!p->log_y && ly >= 0 && ly - py < 0) ? 0 : ly - py;
    fr.hi_y = hy + py;

    header(f, 1000, 470, p->title);
    axes(f, &fr, p->xlabel, p->ylabel, 1);
    for (int m = 0; m < p->nmarks; m++) {
        if (!isfinite(p->mark_x[m]))
            continue;
        double x = fx(&fr, p->mark_x[m]);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#c00\" stroke-dasharray=\"5,4\"/>\n",
                x, fr.y0, x, fr.y0 + fr.h);
        text(f, x + 4, fr.y0 + 14 + 14 * m, "start", " fill=\"#c00\"", p->mark_label[m]);
    }
    for (int s = 0; s < p->nseries; s++) {
        const pg_svg_series *se = &p->series[s];
        const char *c = pg_svg_color(s);
        if (se->style & PG_SVG_LINE) {
            int open = 0;
            for (int64_t i = 0; i < se->n; i++) {
                double x = se->x[i], y = se->y[i];
                if (!isfinite(x) || !isfinite(y) || (p->log_y && y <= 0)) {
                    if (open)
                        fputs("\"/>\n", f);
                    open = 0;
                    continue;
                }
                if (!open)
                    fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", c);
                fprintf(f, "%s%.1f,%.1f", open ? " " : "", fx(&fr, x), fy(&fr, y));
                open = 1;
            }
            if (open)
                fputs("\"/>\n", f);
        }
        if (se->style & PG_SVG_POINTS)
            for (int64_t i = 0; i < se->n; i++) {
                double x = se->x[i], y = se->y[i];
                if (!isfinite(x) || !isfinite(y) || (p->log_y && y <= 0))
                    continue;
                fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\" stroke=\"white\"/>\n", fx(&fr, x),
                        fy(&fr, y), c);
            }
        int style = se->style == PG_SVG_POINTS ? PG_SVG_POINTS : PG_SVG_LINE;
        legend_entry(f, fr.x0 + fr.w + 16, fr.y0 + 14 + 20 * s, c, 0, style, se->label);
    }
    return finish(f);
}

/* ---- grouped bars ---- */

int pg_svg_bars_write(FILE *f, const pg_svg_bars *p)
{
    if (p->nbins < 1)
        return pg_fail("SVG histogram: no bins");
    if (p->nsets < 1 || p->nsets > PG_SVG_MAX_SERIES)
        return pg_fail("SVG histogram: %d sets (need 1..%d)", p->nsets, PG_SVG_MAX_SERIES);
    double hi = 0;
    for (int s = 0; s < p->nsets; s++)
        for (int b = 0; b < p->nbins; b++) {
            double v = p->values[s][b];
            if (!isfinite(v) || v < 0)
                return pg_fail("SVG histogram: set %d bin %d has value %g (need finite >= 0)", s, b, v);
            hi = fmax(hi, p->log_y ? log10(1 + v) : v);
        }
    if (hi <= 0)
        hi = 1;
    frame fr = {.x0 = 90, .y0 = 50, .w = 560, .h = 340, .lo_x = 0, .hi_x = p->nbins, .lo_y = 0, .hi_y = hi * 1.08};
    header(f, 1000, 490, p->title);
    /* y axis in the bar-height unit: log10(1+count) is labelled by count */
    double ticks[32];
    char buf[64];
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#444\"/>\n", fr.x0,
            fr.y0, fr.w, fr.h);
    if (p->log_y) {
        /* bar height log10(1 + count): ticks at counts 0, 1, 10, 100, ... */
        for (int k = -1; k <= 18; k++) {
            double v = k < 0 ? 0 : pow(10, k);
            double hv = log10(1 + v);
            if (hv > fr.hi_y)
                break;
            double y = fr.y0 + fr.h - hv / fr.hi_y * fr.h;
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", fr.x0, y,
                    fr.x0 + fr.w, y);
            snprintf(buf, sizeof buf, "%g", v);
            text(f, fr.x0 - 6, y + 4, "end", NULL, buf);
        }
    } else {
        int nt = nice_ticks(0, fr.hi_y, ticks, 32);
        for (int i = 0; i < nt; i++) {
            double y = fr.y0 + fr.h - ticks[i] / fr.hi_y * fr.h;
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", fr.x0, y,
                    fr.x0 + fr.w, y);
            snprintf(buf, sizeof buf, "%g", ticks[i]);
            text(f, fr.x0 - 6, y + 4, "end", NULL, buf);
        }
    }
    double bw = fr.w / p->nbins;
    double gap = bw * 0.15;
    double sw = (bw - 2 * gap) / p->nsets;
    int label_every = p->nbins > 24 ? (p->nbins + 23) / 24 : 1;
    for (int b = 0; b < p->nbins; b++) {
        for (int s = 0; s < p->nsets; s++) {
            double v = p->values[s][b];
            double hv = p->log_y ? log10(1 + v) : v;
            double h = hv / fr.hi_y * fr.h;
            fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"><title>", fr.x0 + b * bw + gap + s * sw,
                    fr.y0 + fr.h - h, sw, h, pg_svg_color(s));
            pg_svg_escape(f, p->set_labels[s]);
            fprintf(f, ": %g</title></rect>\n", v);
        }
        if (p->bin_labels && b % label_every == 0) {
            double lx = fr.x0 + (b + 0.5) * bw, ly = fr.y0 + fr.h + 14;
            if (p->nbins > 8) {
                /* crowded: rotate so long labels ("16384-32767") do not collide */
                char rot[96];
                snprintf(rot, sizeof rot, " transform=\"rotate(-40 %.1f %.1f)\"", lx, ly);
                text(f, lx, ly, "end", rot, p->bin_labels[b]);
            } else {
                text(f, lx, ly + 2, "middle", NULL, p->bin_labels[b]);
            }
        }
    }
    if (p->xlabel)
        text(f, fr.x0 + fr.w / 2, fr.y0 + fr.h + (p->nbins > 8 ? 78 : 40), "middle", NULL, p->xlabel);
    if (p->ylabel) {
        double cx = fr.x0 - 58, cy = fr.y0 + fr.h / 2;
        char rot[96];
        snprintf(rot, sizeof rot, " transform=\"rotate(-90 %.1f %.1f)\"", cx, cy);
        text(f, cx, cy, "middle", rot, p->ylabel);
    }
    for (int s = 0; s < p->nsets; s++)
        legend_entry(f, fr.x0 + fr.w + 16, fr.y0 + 14 + 20 * s, pg_svg_color(s), 0, 0, p->set_labels[s]);
    return finish(f);
}

/* ---- timeline ---- */

int pg_svg_timeline_write(FILE *f, const pg_svg_timeline *p)
{
    if (p->nlanes < 1)
        return pg_fail("SVG timeline: no lanes");
    if (p->nclasses < 1)
        return pg_fail("SVG timeline: no classes");
    if (p->nspans < 1)
        return pg_fail("SVG timeline '%s': no intervals to draw", p->title ? p->title : "");
    double lo = INFINITY, hi = -INFINITY;
    for (int64_t i = 0; i < p->nspans; i++) {
        const pg_svg_span *s = &p->spans[i];
        if (s->lane < 0 || s->lane >= p->nlanes)
            return pg_fail("SVG timeline: interval %lld on lane %d of %d", (long long)i, s->lane, p->nlanes);
        if (s->cls < 0 || s->cls >= p->nclasses)
            return pg_fail("SVG timeline: interval %lld has class %d of %d", (long long)i, s->cls, p->nclasses);
        if (!isfinite(s->t0) || !isfinite(s->t1) || s->t1 < s->t0)
            return pg_fail("SVG timeline: interval %lld is [%g, %g]", (long long)i, s->t0, s->t1);
        lo = fmin(lo, s->t0), hi = fmax(hi, s->t1);
    }
    if (hi <= lo)
        hi = lo + 1;
    const double lane_h = 18, label_w = 230;
    int legend_rows = (p->nclasses + 3) / 4;
    frame fr = {.x0 = label_w, .y0 = 50, .w = 900, .h = lane_h * p->nlanes, .lo_x = lo, .hi_x = hi, .lo_y = 0, .hi_y = 1};
    double height = fr.y0 + fr.h + 60 + 20 * legend_rows;
    header(f, fr.x0 + fr.w + 30, height, p->title);
    for (int l = 0; l < p->nlanes; l++) {
        const char *lab = p->lane_labels ? p->lane_labels[l] : NULL;
        double y = fr.y0 + l * lane_h;
        if (!lab || !lab[0]) {
            fprintf(f, "<line x1=\"10\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#888\" stroke-dasharray=\"2,3\"/>\n",
                    y + lane_h / 2, fr.x0 + fr.w, y + lane_h / 2);
            continue;
        }
        if (l % 2 == 0)
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#f4f4f4\"/>\n", fr.x0, y, fr.w,
                    lane_h);
        text(f, fr.x0 - 6, y + lane_h - 5, "end", NULL, lab);
    }
    axes(f, &fr, p->xlabel, NULL, 0);
    for (int64_t i = 0; i < p->nspans; i++) {
        const pg_svg_span *s = &p->spans[i];
        double x = fx(&fr, s->t0), w = fmax(fx(&fr, s->t1) - x, 0.3);
        double y = fr.y0 + s->lane * lane_h + 2;
        int wait = p->class_is_wait && p->class_is_wait[s->cls];
        fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\"%s><title>", x, y, w,
                lane_h - 4, pg_svg_color(s->cls), wait ? " fill-opacity=\"0.35\"" : "");
        pg_svg_escape(f, p->class_labels[s->cls]);
        fprintf(f, " %g..%g</title></rect>\n", s->t0, s->t1);
        if (wait)
            fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"url(#hatch)\"/>\n", x, y, w,
                    lane_h - 4);
    }
    for (int c = 0; c < p->nclasses; c++) {
        double x = fr.x0 + (c % 4) * 220, y = fr.y0 + fr.h + 52 + 20 * (c / 4);
        legend_entry(f, x, y, pg_svg_color(c), p->class_is_wait && p->class_is_wait[c], 0, p->class_labels[c]);
    }
    return finish(f);
}

/* ---- atomic file variants ---- */

#define SAVE(fn, T)                                                \
    int fn##_save(const char *path, const T *p)                    \
    {                                                              \
        pg_outfile o;                                              \
        if (pg_outfile_open(&o, path) != 0)                        \
            return -1;                                             \
        if (fn##_write(o.f, p) != 0) {                             \
            pg_outfile_abort(&o);                                  \
            return pg_fail_context("%s", path);                    \
        }                                                          \
        return pg_outfile_commit(&o);                              \
    }

SAVE(pg_svg_xy, pg_svg_xy)
SAVE(pg_svg_bars, pg_svg_bars)
SAVE(pg_svg_timeline, pg_svg_timeline)
