/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The lines of a text layer that the frames shown beside it have too
 * (see vw_text.h): strong temporal noise makes chains of glyph-sized
 * specks that one picture takes for lines, but not in the same place in
 * two, while text stays on screen for more than a frame.
 */

#include <stdlib.h>
#include <string.h>

#include "vw_image_int.h"


static int vw_persist_in(const vw_text_line_t *l, int n, int x, int y);


/*
 * A bright layer t is checked against the frames beside it in three
 * steps, so that one grey picture serves for each frame in turn:
 * vw_text_persist_begin, then vw_text_persist_add for each frame, then
 * vw_text_persist_end.  Each frame's bright ink is found over t's rows
 * (and the outline's radius above and below) and chained into lines
 * (vw_text_lines, judged by the size of the picture inside the bars,
 * t->pic, as t was) over t's box widened as
 * far either way as text slides (vw_look_same); the ink of t that lies
 * on them, at
 * the shift that best matches the two, goes into pt->keep.  At the
 * end, pt->keep is chained into lines, and t's ink within their box,
 * grown by two glyph heights across and one down and up (the marks
 * and short words beside a line), is chained again into t.  A glyph
 * on screen is in the frame before it or in the one after (where it
 * appears), but for a few pixels at its edges; a speck of noise comes
 * and goes, so the chain it made falls apart.  t's lines of dark ink
 * on a light band (vw_text_band.c) are in no frame's bright ink: they
 * stay as they are, their ink with them.  Every picture but the
 * frame's grey is of t's box or rows: the cost and the memory are the
 * box's.
 */
int
vw_text_persist_begin(const vw_text_t *t, vw_persist_t *pt, vw_err_t *err)
{
    int  y;

    pt->frames = 0;

    if (t->box.w == 0 || t->polarity != VW_TEXT_BRIGHT) {
        return 0;
    }

    if (vw_image_alloc(&pt->keep, t->box.w, t->box.h) != 0) {
        return vw_fail(err, "no_memory", "frame: out of memory");
    }

    for (y = 0; y < t->box.h; y++) {
        memset(pt->keep.data + (size_t) y * pt->keep.stride, 255,
               (size_t) t->box.w);
    }

    return 0;
}


int
vw_text_persist_add(vw_framer_t *fr, const vw_text_t *t,
    const vw_image_t *other, vw_persist_t *pt, vw_err_t *err)
{
    int             x, y, xb, w, h, r, dx, max, y0, y1, x0;
    size_t          n;
    uint8_t        *ms;
    const uint8_t  *mt, *mi;
    vw_rect_t       b;
    vw_text_t       ot, tt;
    vw_image_t      rows, band;

    w = t->mask.width;
    h = t->mask.height;
    b = t->box;
    r = VW_TEXT_RADIUS;

    if (b.w == 0 || t->polarity != VW_TEXT_BRIGHT || other->width != w
        || other->height != h)
    {
        return 0;
    }

    /* its bright ink over t's rows and r more each way (the outline's
     * reach), then its lines over t's rows alone, in place */

    y0 = b.y > r ? b.y - r : 0;
    y1 = b.y + b.h + r < h ? b.y + b.h + r : h;

    rows = *other;
    rows.data = other->data + (size_t) y0 * other->stride;
    rows.height = y1 - y0;

    if (vw_image_alloc(&pt->ink, w, y1 - y0) != 0) {
        return vw_fail(err, "no_memory", "frame: out of memory");
    }

    vw_ink_bright(fr, &rows, &pt->ink, &n);

    max = vw_text_slide_max(w);
    x0 = b.x > max ? b.x - max : 0;
    band = pt->ink;
    band.data = pt->ink.data + (size_t) (b.y - y0) * pt->ink.stride + x0;
    band.width = (b.x + b.w + max < w ? b.x + b.w + max : w) - x0;
    band.height = b.h;

    memset(&ot, 0, sizeof(vw_text_t));

    if (vw_text_lines(fr, &band, t->pic.w, t->pic.h, VW_TEXT_BRIGHT, &ot)
        != 0)
    {
        return vw_fail(err, "no_memory", "frame: out of memory");
    }

    if (ot.box.w == 0) {
        return 0;
    }

    /* how far they lie to the right of t's (both in t's rows: the
     * masks start at row b.y) */

    ot.mask = pt->ink;
    ot.mask.data = pt->ink.data + (size_t) (b.y - y0) * pt->ink.stride;
    ot.mask.height = b.h;
    ot.box.x += x0;
    tt = *t;
    tt.mask.data = t->mask.data + (size_t) b.y * t->mask.stride;
    tt.mask.height = b.h;
    tt.box.y = 0;
    dx = vw_text_shift(&tt, &ot, max, fr);

    /* t's ink on them (|dx| <= max: within the band) */

    for (y = 0; y < b.h; y++) {
        ms = pt->keep.data + (size_t) y * pt->keep.stride;
        mt = t->mask.data + (size_t) (b.y + y) * t->mask.stride + b.x;
        mi = ot.mask.data + (size_t) y * ot.mask.stride;

        for (x = 0; x < b.w; x++) {
            xb = b.x + x + dx;
            if (mt[x] != 255 && xb >= x0 && xb < x0 + band.width
                && mi[xb] == 0)
            {
                ms[x] = 0;
            }
        }
    }

    pt->frames++;

    return 0;
}


int
vw_text_persist_end(vw_framer_t *fr, const vw_image_t *g, vw_text_t *t,
    vw_persist_t *pt, vw_err_t *err)
{
    int             x, y, x0, y0, x1, y1, gh, i, nd;
    uint8_t        *ms;
    const uint8_t  *mt;
    vw_rect_t       b, k;
    vw_text_t       kt;
    vw_text_line_t  dark[VW_TEXT_LINES_MAX];

    b = t->box;
    memset(&kt, 0, sizeof(vw_text_t));

    if (pt->frames == 0) {
        return 0;                   /* nothing to tell by */
    }

    if (vw_text_lines(fr, &pt->keep, t->pic.w, t->pic.h, VW_TEXT_BRIGHT,
                      &kt)
        != 0)
    {
        return vw_fail(err, "no_memory", "frame: out of memory");
    }

    k = kt.box;
    gh = kt.glyph_h;

    if (k.w == 0) {
        return 0;                   /* no line stays: as it is */
    }

    x0 = k.x - 2 * gh > 0 ? k.x - 2 * gh : 0;
    y0 = k.y - gh > 0 ? k.y - gh : 0;
    x1 = k.x + k.w + 2 * gh < b.w ? k.x + k.w + 2 * gh : b.w;
    y1 = k.y + k.h + gh < b.h ? k.y + k.h + gh : b.h;

    if (x0 == 0 && y0 == 0 && x1 == b.w && y1 == b.h) {
        return 0;                   /* every line stays */
    }

    /* t's ink there, chained again; the lines of dark ink on a light
     * band (vw_text_band.c) are the neighbours' bright ink nowhere, and
     * stay as they are */

    nd = 0;

    for (i = 0; i < t->nline; i++) {
        if (t->line[i].polarity != VW_TEXT_BRIGHT) {
            dark[nd] = t->line[i];
            dark[nd].box.x -= b.x;
            dark[nd].box.y -= b.y;
            nd++;
        }
    }

    for (y = 0; y < b.h; y++) {
        ms = pt->keep.data + (size_t) y * pt->keep.stride;
        mt = t->mask.data + (size_t) (b.y + y) * t->mask.stride + b.x;

        for (x = 0; x < b.w; x++) {
            ms[x] = (y >= y0 && y < y1 && x >= x0 && x < x1 && mt[x] != 255
                     && !vw_persist_in(dark, nd, x, y))
                    ? 0 : 255;
        }
    }

    if (vw_text_lines(fr, &pt->keep, t->pic.w, t->pic.h, VW_TEXT_BRIGHT,
                      &kt)
        != 0)
    {
        return vw_fail(err, "no_memory", "frame: out of memory");
    }

    k = kt.box;

    if (k.w == 0) {
        return 0;
    }

    for (y = 0; y < b.h; y++) {
        ms = pt->keep.data + (size_t) y * pt->keep.stride;
        mt = t->mask.data + (size_t) (b.y + y) * t->mask.stride + b.x;

        for (x = 0; x < b.w && nd > 0; x++) {
            ms[x] = vw_persist_in(dark, nd, x, y) ? mt[x] : ms[x];
        }

        memcpy(t->mask.data + (size_t) (b.y + y) * t->mask.stride + b.x,
               ms, (size_t) b.w);
    }

    t->box.x = b.x + k.x;
    t->box.y = b.y + k.y;
    t->box.w = k.w;
    t->box.h = k.h;
    vw_text_take_lines(t, &kt, b.x, b.y);

    for (i = 0; i < nd && t->nline < VW_TEXT_LINES_MAX; i++) {
        dark[i].box.x += b.x;
        dark[i].box.y += b.y;
        t->line[t->nline++] = dark[i];
        vw_box_union(&t->box, &dark[i].box);
        t->glyph_h = (t->glyph_h * t->glyphs
                      + dark[i].glyph_h * dark[i].glyphs)
                     / (t->glyphs + dark[i].glyphs);
        t->glyphs += dark[i].glyphs;
        t->lines++;
    }

    vw_ink_strokes(fr, g, t->pic.h, t);

    return 1;
}


void
vw_text_persist_free(vw_persist_t *pt)
{
    vw_image_free(&pt->keep);
    vw_image_free(&pt->ink);
}


/* 1 if (x, y) lies in the box of one of the n lines l */
static int
vw_persist_in(const vw_text_line_t *l, int n, int x, int y)
{
    int  i;

    for (i = 0; i < n; i++) {
        if (x >= l[i].box.x && x < l[i].box.x + l[i].box.w
            && y >= l[i].box.y && y < l[i].box.y + l[i].box.h)
        {
            return 1;
        }
    }

    return 0;
}
