/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The text layer's lines (see vw_text.h, and vw_text.c for how ink is
 * found): the ink that lines up into text kept, glyphs chained into
 * lines, each line's record, and the small rules of line geometry the
 * pipeline shares (vw_text_chained, vw_text_slide_max,
 * vw_text_least_height).
 */

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "vw_image_int.h"


static int vw_text_records(vw_framer_t *fr, size_t n, const uint32_t *line,
    size_t nline, int polarity, vw_text_t *out);
static int vw_text_by_x(const void *a, const void *b, void *data);
static int vw_text_by_middle(const void *a, const void *b, void *data);
static int vw_text_root(vw_comp_t *c, int i);
static void vw_text_erase(vw_framer_t *fr, vw_image_t *m, uint32_t seed);


/*
 * Keeps the ink that lines up into text: components that cannot be
 * glyphs go first (vw_prep_blobs); of the rest, those at least
 * VW_TEXT_MIN_HEIGHT pixels tall, whatever the picture's size, are
 * chained to their neighbours on the same line
 * (vertical overlap of half the smaller height, a gap of at most 1.5
 * times the larger height, heights within a factor of 2.5: a piece of a
 * bar's edge is no neighbour of the glyphs it runs past), and a chain of
 * VW_TEXT_LINE_GLYPHS or more is a line of text.  Marks (dots, commas,
 * accents) and short words stay when they lie beside a line's glyph,
 * unless they are specks (less than a hundredth of the square of its
 * height: noise next to the glyphs, which would make two pictures of
 * one text differ).
 * Everything else (a moving square, a piece of a line or of a bar's
 * edge, the specks of a noisy picture) is erased from the mask.  box
 * bounds what stays, *glyph_h gets the mean height of the lines' glyphs,
 * *glyphs their number, *lines the lines of text they make: taken top
 * down by their middles, a glyph whose middle lies below the band of
 * the line being counted (the glyphs' extent so far) starts the next,
 * so the chains of one line that a wide gap between words split count
 * once.
 *
 * Noise makes thousands of specks: only the tall components are
 * chained (sorted by their left edge, so that each looks only at those
 * that can still be near it), and only line glyphs are looked at for
 * the marks, so the cost follows the glyphs, not the specks.
 */
int
vw_text_lines(vw_framer_t *fr, vw_image_t *m, int ref_w, int ref_h,
    int polarity, vw_text_t *out)
{
    int         rc, h, lh, ov, gap, ra, rb, near, x0, y0, x1, y1, minh;
    int         bottom, *glyph_h, *glyphs, *lines, *comps;
    size_t      i, j, k, n, ntall, nline, sum;
    uint32_t   *tall, *line;
    vw_rect_t  *box;
    vw_comp_t  *c, *d, *l;

    box = &out->box;
    glyph_h = &out->glyph_h;
    glyphs = &out->glyphs;
    lines = &out->lines;
    comps = &out->comps;

    memset(box, 0, sizeof(vw_rect_t));
    *lines = 0;
    out->nline = 0;

    fr->keep_comps = 1;
    rc = vw_prep_blobs(fr, m, ref_w, ref_h, VW_TEXT_MIN_PIXELS, 0, NULL);
    fr->keep_comps = 0;

    if (rc != 0) {
        return -1;
    }

    n = fr->ncomps;
    c = fr->comps;

    /* glyphs of VW_TEXT_MIN_HEIGHT pixels; in a grainy picture (more
     * than a speck a VW_TEXT_GRAIN_PART pixels) the grain makes
     * components of that height by the hundred, which chain: there
     * they are a 1/VW_TEXT_GRAIN_HEIGHT_PART of the picture tall */

    minh = VW_TEXT_MIN_HEIGHT;
    sum = 0;

    for (i = 0; i < n; i++) {
        sum += c[i].y1 - c[i].y0 < VW_TEXT_SPECK_HEIGHT;
    }

    out->grainy = (int64_t) sum * VW_TEXT_GRAIN_PART
                  > (int64_t) m->width * m->height;

    if (out->grainy) {
        minh = ref_h / VW_TEXT_GRAIN_HEIGHT_PART > minh
               ? ref_h / VW_TEXT_GRAIN_HEIGHT_PART : minh;
    }

    tall = fr->order;
    ntall = 0;

    for (i = 0; i < n; i++) {
        c[i].group = (int) i;
        c[i].glyphs = 0;

        if (c[i].y1 - c[i].y0 + 1 >= minh) {
            tall[ntall++] = (uint32_t) i;
        }
    }

    /* the most of either kind of ink (vw_screen_look: text turned
     * sideways has glyph-sized components but no line) */
    *comps = (int) ntall > *comps ? (int) ntall : *comps;

    if (ntall > 1) {
        qsort_r(tall, ntall, sizeof(uint32_t), vw_text_by_x, c);
    }

    /* chain the glyph-sized components that sit side by side */

    for (k = 0; k < ntall; k++) {
        i = tall[k];
        lh = c[i].y1 - c[i].y0 + 1;

        for (j = k + 1; j < ntall; j++) {
            d = &c[tall[j]];
            h = d->y1 - d->y0 + 1;

            /* heights within 2.5x and a gap of 1.5x the larger: nothing
             * further right than 3.75 lh can be a neighbour */
            if (4 * (d->x0 - c[i].x1) > 15 * lh) {
                break;
            }

            ov = (c[i].y1 < d->y1 ? c[i].y1 : d->y1)
                 - (c[i].y0 > d->y0 ? c[i].y0 : d->y0) + 1;
            gap = (c[i].x0 > d->x0 ? c[i].x0 : d->x0)
                  - (c[i].x1 < d->x1 ? c[i].x1 : d->x1);

            if (!vw_text_chained(lh, h, ov, gap)) {
                continue;
            }

            ra = vw_text_root(c, (int) i);
            rb = vw_text_root(c, (int) tall[j]);
            c[ra > rb ? ra : rb].group = ra < rb ? ra : rb;
        }
    }

    for (i = 0; i < n; i++) {
        c[i].group = vw_text_root(c, (int) i);
        c[c[i].group].glyphs += c[i].y1 - c[i].y0 + 1 >= minh;
    }

    /* the glyphs of lines (in the tall list's place) */

    line = tall;
    nline = 0;
    sum = 0;

    for (i = 0; i < n; i++) {
        if (c[c[i].group].glyphs >= VW_TEXT_LINE_GLYPHS
            && c[i].y1 - c[i].y0 + 1 >= minh)
        {
            line[nline++] = (uint32_t) i;
            sum += c[i].y1 - c[i].y0 + 1;
        }
    }

    *glyph_h = nline > 0 ? (int) (sum / nline) : 0;
    *glyphs = (int) nline;

    /* the lines they make (the loop below takes them in any order) */

    if (nline > 1) {
        qsort_r(line, nline, sizeof(uint32_t), vw_text_by_middle, c);
    }

    bottom = -1;

    for (k = 0; k < nline; k++) {
        l = &c[line[k]];

        if (*lines == 0 || l->y0 + l->y1 > 2 * bottom) {
            (*lines)++;
            bottom = l->y1;

        } else if (l->y1 > bottom) {
            bottom = l->y1;
        }
    }

    /* the lines one by one (the chains, joined on a row) */

    if (nline > 0 && vw_text_records(fr, n, line, nline, polarity, out) != 0)
    {
        return -1;
    }

    c = fr->comps;                  /* (moved if the records grew it) */
    line = fr->order;

    /* lines stay; what lies beside a glyph of a line (within twice its
     * height) and inside its band (half its height above and below),
     * and is not much taller, stays too: dots, commas, accents, a word
     * of one or two letters; the rest is erased */

    x0 = m->width;
    y0 = m->height;
    x1 = -1;
    y1 = -1;

    for (i = 0; i < n; i++) {
        near = c[c[i].group].glyphs >= VW_TEXT_LINE_GLYPHS;

        for (k = 0; k < nline && !near; k++) {
            l = &c[line[k]];
            lh = l->y1 - l->y0 + 1;

            /* not much taller; and no speck: a dot or a comma has at
             * least a hundredth of the square of the line's height */
            if (2 * (c[i].y1 - c[i].y0 + 1) > 3 * lh
                || VW_TEXT_MARK_PART * (int64_t) c[i].pixels
                   < (int64_t) lh * lh)
            {
                continue;
            }

            near = c[i].x1 >= l->x0 - 2 * lh && c[i].x0 <= l->x1 + 2 * lh
                   && c[i].y0 >= l->y0 - lh / 2 && c[i].y1 <= l->y1 + lh / 2;
        }

        if (!near) {
            vw_text_erase(fr, m, c[i].seed);
            continue;
        }

        x0 = c[i].x0 < x0 ? c[i].x0 : x0;
        y0 = c[i].y0 < y0 ? c[i].y0 : y0;
        x1 = c[i].x1 > x1 ? c[i].x1 : x1;
        y1 = c[i].y1 > y1 ? c[i].y1 : y1;
    }

    if (x1 >= 0) {
        box->x = x0;
        box->y = y0;
        box->w = x1 - x0 + 1;
        box->h = y1 - y0 + 1;
    }

    return 0;
}


/*
 * The layer's lines one by one into out->line: the chains of the nline
 * line glyphs line[] (of the n components of fr), taken at their roots,
 * and chains on one row (overlapping by half the smaller height) at
 * most VW_TEXT_LINE_GAP glyph heights apart joined (the words of a
 * line split where a gap is wide).  The VW_TEXT_LINES_MAX of most
 * glyphs are kept, top down.  A chain's record is kept among the
 * framer's components, after the n of the picture (x0..y1 its box,
 * pixels the sum of its glyphs' heights, glyphs their number, group
 * the line it joins).  -1 when out of memory.
 */
static int
vw_text_records(vw_framer_t *fr, size_t n, const uint32_t *line,
    size_t nline, int polarity, vw_text_t *out)
{
    int              ov, gap, ha, hb, ra, rb;
    size_t           i, j, k, nchain;
    vw_comp_t       *c, *a, *b;
    vw_text_line_t   r, *o;

    /* a record per chain, at the chain's root (a tall glyph: only
     * tall components are chained) */

    nchain = 0;

    for (k = 0; k < nline; k++) {
        i = line[k];

        if (fr->comps[i].group != (int) i) {
            continue;
        }

        /* (this may move fr->comps and fr->order, which line is) */
        if (vw_framer_comp(fr, 0, 0, -1, -1, (uint32_t) i, 0) != 0) {
            return -1;
        }

        line = fr->order;
        nchain++;
    }

    c = fr->comps;

    for (k = 0; k < nchain; k++) {
        a = &c[n + k];
        a->x0 = INT_MAX;
        a->y0 = INT_MAX;
        a->x1 = -1;
        a->y1 = -1;
        a->group = (int) k;
        a->glyphs = 0;
        c[a->seed].glyphs = -1 - (int) k;   /* the root finds its record */
    }

    for (k = 0; k < nline; k++) {
        b = &c[line[k]];
        a = &c[n + (size_t) (-1 - c[b->group].glyphs)];
        a->x0 = b->x0 < a->x0 ? b->x0 : a->x0;
        a->y0 = b->y0 < a->y0 ? b->y0 : a->y0;
        a->x1 = b->x1 > a->x1 ? b->x1 : a->x1;
        a->y1 = b->y1 > a->y1 ? b->y1 : a->y1;
        a->pixels += (uint32_t) (b->y1 - b->y0 + 1);
        a->glyphs++;
    }

    /* the roots' counts back (vw_text_lines reads them) */

    for (k = 0; k < nchain; k++) {
        c[c[n + k].seed].glyphs = c[n + k].glyphs;
    }

    /* chains on one row, near each other, joined (their records'
     * group; pairs compared only among the first VW_TEXT_CHAINS_MAX) */

    for (i = 0; i < nchain && i < VW_TEXT_CHAINS_MAX; i++) {
        a = &c[n + i];
        ha = (int) (a->pixels / (uint32_t) a->glyphs);

        for (j = i + 1; j < nchain && j < VW_TEXT_CHAINS_MAX; j++) {
            b = &c[n + j];
            hb = (int) (b->pixels / (uint32_t) b->glyphs);

            ov = (a->y1 < b->y1 ? a->y1 : b->y1)
                 - (a->y0 > b->y0 ? a->y0 : b->y0) + 1;
            gap = (a->x0 > b->x0 ? a->x0 : b->x0)
                  - (a->x1 < b->x1 ? a->x1 : b->x1);

            if (2 * ov < (a->y1 - a->y0 < b->y1 - b->y0 ? a->y1 - a->y0
                                                          : b->y1 - b->y0)
                || gap > VW_TEXT_LINE_GAP * (ha > hb ? ha : hb))
            {
                continue;
            }

            for (ra = (int) i; c[n + ra].group != ra; ra = c[n + ra].group) {
                /* void */
            }

            for (rb = (int) j; c[n + rb].group != rb; rb = c[n + rb].group) {
                /* void */
            }

            c[n + (ra > rb ? ra : rb)].group = ra < rb ? ra : rb;
        }
    }

    /* each line's record, at its first chain's; the most glyphs kept */

    for (k = 0; k < nchain; k++) {
        a = &c[n + k];

        for (ra = (int) k; c[n + ra].group != ra; ra = c[n + ra].group) {
            /* void */
        }

        a->group = ra;

        if (ra == (int) k) {
            continue;
        }

        b = &c[n + ra];
        b->x0 = a->x0 < b->x0 ? a->x0 : b->x0;
        b->y0 = a->y0 < b->y0 ? a->y0 : b->y0;
        b->x1 = a->x1 > b->x1 ? a->x1 : b->x1;
        b->y1 = a->y1 > b->y1 ? a->y1 : b->y1;
        b->pixels += a->pixels;
        b->glyphs += a->glyphs;
    }

    for (k = 0; k < nchain; k++) {
        a = &c[n + k];

        if (a->group != (int) k) {
            continue;
        }

        r.box = (vw_rect_t) { a->x0, a->y0, a->x1 - a->x0 + 1,
                              a->y1 - a->y0 + 1 };
        r.polarity = polarity;
        r.glyphs = a->glyphs;
        r.glyph_h = (int) (a->pixels / (uint32_t) a->glyphs);

        if (out->nline < VW_TEXT_LINES_MAX) {
            out->line[out->nline++] = r;
            continue;
        }

        /* full: it takes the place of the line of fewest glyphs */

        o = &out->line[0];

        for (i = 1; i < VW_TEXT_LINES_MAX; i++) {
            o = out->line[i].glyphs < o->glyphs ? &out->line[i] : o;
        }

        if (r.glyphs > o->glyphs) {
            *o = r;
        }
    }

    vw_text_lines_sort(out->line, out->nline);

    fr->ncomps = n;

    return 0;
}


/* Sorts lines top down (by their middles), then left to right. */
void
vw_text_lines_sort(vw_text_line_t *l, int n)
{
    int             i, j;
    vw_text_line_t  t;

    for (i = 1; i < n; i++) {
        t = l[i];

        for (j = i; j > 0; j--) {
            if (2 * l[j - 1].box.y + l[j - 1].box.h
                < 2 * t.box.y + t.box.h
                || (2 * l[j - 1].box.y + l[j - 1].box.h
                    == 2 * t.box.y + t.box.h && l[j - 1].box.x <= t.box.x))
            {
                break;
            }

            l[j] = l[j - 1];
        }

        l[j] = t;
    }
}


static int
vw_text_by_x(const void *a, const void *b, void *data)
{
    const vw_comp_t  *c = data;
    int               xa, xb;

    xa = c[*(const uint32_t *) a].x0;
    xb = c[*(const uint32_t *) b].x0;

    return xa < xb ? -1 : (xa > xb);
}


static int
vw_text_by_middle(const void *a, const void *b, void *data)
{
    const vw_comp_t  *c = data;
    int               ma, mb;

    ma = c[*(const uint32_t *) a].y0 + c[*(const uint32_t *) a].y1;
    mb = c[*(const uint32_t *) b].y0 + c[*(const uint32_t *) b].y1;

    return ma < mb ? -1 : (ma > mb);
}


static int
vw_text_root(vw_comp_t *c, int i)
{
    while (c[i].group != i) {
        c[i].group = c[c[i].group].group;
        i = c[i].group;
    }

    return i;
}


/* Erases the component of m that has its first pixel at seed. */
static void
vw_text_erase(vw_framer_t *fr, vw_image_t *m, uint32_t seed)
{
    int        w, h, x, y, dx, dy;
    size_t     head, tail;
    uint32_t  *queue, pos;

    w = m->width;
    h = m->height;
    queue = fr->queue;
    head = 0;
    tail = 0;

    queue[tail++] = seed;
    m->data[(size_t) (seed / (uint32_t) w) * m->stride + seed % w] = 255;

    while (head < tail) {
        pos = queue[head++];
        x = (int) (pos % (uint32_t) w);
        y = (int) (pos / (uint32_t) w);

        for (dy = -1; dy <= 1; dy++) {
            for (dx = -1; dx <= 1; dx++) {
                if (x + dx < 0 || x + dx >= w || y + dy < 0 || y + dy >= h
                    || m->data[(size_t) (y + dy) * m->stride + x + dx] != 0)
                {
                    continue;
                }

                m->data[(size_t) (y + dy) * m->stride + x + dx] = 255;
                queue[tail++] = (uint32_t) ((y + dy) * w + x + dx);
            }
        }
    }
}


int
vw_text_on_rows(const vw_text_t *t, const vw_rect_t *box)
{
    int  i;

    for (i = 0; i < t->nline; i++) {
        if (t->line[i].box.y < box->y + box->h
            && box->y < t->line[i].box.y + t->line[i].box.h)
        {
            return 1;
        }
    }

    return 0;
}


int
vw_text_chained(int a, int b, int ov, int gap)
{
    int  lo, hi;

    lo = a < b ? a : b;
    hi = a > b ? a : b;

    return 2 * ov >= lo && 2 * gap <= 3 * hi && 2 * hi <= 5 * lo;
}


int
vw_text_slide_max(int width)
{
    return width / VW_TEXT_SLIDE_PART;
}


int
vw_text_least_height(void)
{
    return VW_TEXT_MIN_HEIGHT;
}
