/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Dark text on a light band across a picture whose text is bright ink
 * (see vw_text.h): a news lower third's black capitals on an orange bar
 * under a white subtitle.  Bright ink has no place for them, and dark
 * ink over the whole picture is as much its texture's; but a band of
 * one light level, across most of the picture, is set there to be
 * written on, and what is well below its level inside it is ink.
 *
 *   - a row is plain when at least VW_BAND_PLAIN_NUM/VW_BAND_PLAIN_DEN
 *     of every fourth pixel lie within VW_BAND_SPREAD levels of its
 *     commonest level, and that level is at least VW_BAND_LEVEL;
 *   - a band is a run of plain rows of one level (within
 *     VW_BAND_SPREAD), through rows that are not (a line of text
 *     across the bar) as long as the band goes on within VW_BAND_GAP
 *     rows, VW_BAND_MIN to a VW_BAND_PART-th of the picture tall;
 *   - across, the band is the longest run of columns mostly at its
 *     level in its plain rows, its gaps (glyphs) no wider than it is
 *     tall;
 *   - its ink: at least VW_TEXT_DARK_DROP levels below its level,
 *     chained into lines as any ink (vw_text_lines).
 *
 * The lines found are added to the layer with their own polarity (dark):
 * a line is read alone at its own level (vw_read_line.c).
 */

#include <stdlib.h>
#include <string.h>

#include "vw_image_int.h"


typedef struct {
    int  y0, y1;                /* rows [y0, y1) of the picture */
    int  x0, x1;                /* columns [x0, x1) */
    int  level;
} vw_band_t;


static int vw_band_row(const uint8_t *q, int w, int *level);
static int vw_band_across(const vw_image_t *pg, const uint8_t *plain,
    vw_band_t *b);
static int vw_band_lines(vw_framer_t *fr, const vw_image_t *pg,
    const vw_band_t *b, int ref_w, int ref_h, vw_text_t *t);


int
vw_text_band(vw_framer_t *fr, const vw_image_t *pg, int ref_w, int ref_h,
    vw_text_t *t)
{
    int        y, k, level, end, lv, rc, found;
    uint8_t   *plain;
    int       *levels;
    vw_band_t  b;

    if (pg->width < 16 || pg->height < VW_BAND_MIN) {
        return 0;
    }

    plain = malloc((size_t) pg->height);
    levels = malloc((size_t) pg->height * sizeof(int));

    if (plain == NULL || levels == NULL) {
        free(plain);
        free(levels);
        return -1;
    }

    for (y = 0; y < pg->height; y++) {
        plain[y] = (uint8_t) vw_band_row(pg->data + (size_t) y * pg->stride,
                                         pg->width, &levels[y]);
    }

    found = 0;
    y = 0;

    while (y < pg->height) {
        if (!plain[y]) {
            y++;
            continue;
        }

        /* a band from row y: its plain rows of its level, through gaps
         * of other rows */

        level = levels[y];
        end = y + 1;

        for (k = y + 1; k < pg->height && k - end < VW_BAND_GAP; k++) {
            lv = levels[k] - level;

            if (plain[k] && lv <= VW_BAND_SPREAD && lv >= -VW_BAND_SPREAD) {
                end = k + 1;
            }
        }

        b = (vw_band_t) { y, end, 0, 0, level };

        if (end - y >= VW_BAND_MIN
            && (end - y) * VW_BAND_PART <= pg->height
            && vw_band_across(pg, plain, &b))
        {
            rc = vw_band_lines(fr, pg, &b, ref_w, ref_h, t);

            if (rc < 0) {
                free(plain);
                free(levels);
                return -1;
            }

            found += rc;
        }

        y = end;
    }

    free(plain);
    free(levels);

    return found > 0;
}


/* 1 if the row of w pixels at q is plain (see the top), *level its
 * commonest level (the middle of a bin of 8) */
static int
vw_band_row(const uint8_t *q, int w, int *level)
{
    int  x, n, m, near, hist[32];

    memset(hist, 0, sizeof(hist));
    n = 0;

    for (x = 0; x < w; x += 4) {
        hist[q[x] >> 3]++;
        n++;
    }

    m = 0;

    for (x = 1; x < 32; x++) {
        m = hist[x] > hist[m] ? x : m;
    }

    *level = m * 8 + 4;
    near = hist[m] + (m > 0 ? hist[m - 1] : 0) + (m < 31 ? hist[m + 1] : 0);

    return *level >= VW_BAND_LEVEL
           && near * VW_BAND_PLAIN_DEN >= n * VW_BAND_PLAIN_NUM;
}


/*
 * The columns of band b: every fourth, at b's level (within
 * VW_BAND_SPREAD) in at least half of its plain rows; the longest run
 * of them, gaps no wider than the band is tall.  0 when that is less
 * than half the picture's width (a light patch, not a bar).
 */
static int
vw_band_across(const vw_image_t *pg, const uint8_t *plain, vw_band_t *b)
{
    int             x, y, rows, at, d, start, last, best0, best1;
    const uint8_t  *q;

    rows = 0;

    for (y = b->y0; y < b->y1; y++) {
        rows += plain[y];
    }

    start = -1;
    last = -1;
    best0 = 0;
    best1 = 0;

    for (x = 0; x < pg->width; x += 4) {
        at = 0;

        for (y = b->y0; y < b->y1; y++) {
            if (!plain[y]) {
                continue;
            }

            q = pg->data + (size_t) y * pg->stride;
            d = q[x] - b->level;
            at += d <= VW_BAND_SPREAD && d >= -VW_BAND_SPREAD;
        }

        if (2 * at < rows) {
            continue;
        }

        if (start < 0 || x - last > b->y1 - b->y0) {
            start = x;
        }

        last = x;

        if (last + 4 - start > best1 - best0) {
            best0 = start;
            best1 = last + 4 < pg->width ? last + 4 : pg->width;
        }
    }

    b->x0 = best0;
    b->x1 = best1;

    return 2 * (best1 - best0) >= pg->width;
}


/* The lines of dark ink in band b (of picture pg) added to layer t;
 * how many, or -1 when out of memory. */
static int
vw_band_lines(vw_framer_t *fr, const vw_image_t *pg, const vw_band_t *b,
    int ref_w, int ref_h, vw_text_t *t)
{
    int               x, y, i, w, h, level, sum;
    size_t            n;
    uint8_t          *mr, *tr;
    vw_rect_t         all, band, box;
    vw_image_t        m, bv;
    vw_text_t         bt;
    vw_text_line_t   *l;

    w = b->x1 - b->x0;
    h = b->y1 - b->y0;
    level = b->level - VW_TEXT_DARK_DROP;

    memset(&m, 0, sizeof(vw_image_t));
    memset(&bt, 0, sizeof(vw_text_t));

    if (level < 0 || vw_image_alloc(&m, w, h) != 0) {
        return level < 0 ? 0 : -1;
    }

    all = (vw_rect_t) { 0, 0, pg->width, pg->height };
    band = (vw_rect_t) { b->x0, b->y0, w, h };
    vw_image_view(pg, &all, &band, &bv);
    vw_ink_dark(&bv, &m, level, &n);

    if (n == 0 || vw_text_lines(fr, &m, ref_w, ref_h, VW_TEXT_DARK, &bt) != 0)
    {
        vw_image_free(&m);
        return n == 0 ? 0 : -1;
    }

    /* its lines, into t's, where they are in the whole picture (t->pic:
     * pg is the picture inside the bars), with their ink */

    n = 0;
    sum = t->glyph_h * t->glyphs;

    for (i = 0; i < bt.nline && t->nline < VW_TEXT_LINES_MAX; i++) {
        l = &t->line[t->nline++];
        *l = bt.line[i];
        l->box.x += t->pic.x + b->x0;
        l->box.y += t->pic.y + b->y0;
        l->polarity = VW_TEXT_DARK;

        for (y = 0; y < bt.line[i].box.h; y++) {
            mr = m.data + (size_t) (bt.line[i].box.y + y) * m.stride
                 + bt.line[i].box.x;
            tr = t->mask.data + (size_t) (l->box.y + y) * t->mask.stride
                 + l->box.x;

            for (x = 0; x < bt.line[i].box.w; x++) {
                tr[x] = mr[x] == 0 ? 0 : tr[x];
            }
        }

        box = l->box;
        vw_box_union(&t->box, &box);
        t->glyphs += l->glyphs;
        t->lines++;
        sum += l->glyph_h * l->glyphs;
        n++;
    }

    if (n > 0 && t->glyphs > 0) {
        t->glyph_h = sum / t->glyphs;
    }

    vw_image_free(&m);

    return (int) n;
}
