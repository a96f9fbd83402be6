/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The lines of a screen's text layer that its reading lacks, each read
 * again on its own (see vw_read.c).  Tesseract's page layout returns
 * nothing for some lines the layer found: two or three Chinese
 * characters, a word of one to four letters ("No.", "Go!").  Cut
 * from the mean at the line's own box, thresholded at the line's own
 * level (vw_prep_line), scaled for its glyphs' height and read as one
 * line, such a line reads right.  A line so read goes in among the
 * reading's lines where it is (vw_ocr_result_merge).  A line of many
 * small glyphs is read so also when the reading has it unsure, and
 * again in grey when its level reads nothing (vw_read_line_fine); any
 * line, when the reading has only a part of it (vw_read_line_short).
 */

#include <limits.h>
#include <string.h>

#include "vw_pipeline_int.h"


static int vw_read_line_covered(const vw_pipe_t *p,
    const vw_ocr_result_t *res, const vw_text_line_t *l, int conf);
static int vw_read_line_short(const vw_pipe_t *p, const vw_ocr_result_t *res,
    const vw_text_line_t *l);
static void vw_read_line_box(const vw_pipe_t *p, const vw_text_line_t *l,
    vw_rect_t *r);
static int vw_read_line_one(vw_pipe_t *p, const vw_text_line_t *l,
    const vw_rect_t *r, int grey, vw_ocr_result_t *one, vw_err_t *err);
static int vw_read_line_fine(const vw_text_line_t *l);
static void vw_read_line_place(vw_rect_t *b, const vw_rect_t *r, int s,
    int scale);
static int vw_read_line_beside(const vw_ocr_result_t *res,
    const vw_ocr_result_t *one, const vw_text_line_t *l);
static int vw_read_line_says(const vw_ocr_result_t *one,
    const vw_text_line_t *l);


/*
 * Each line of the pending screen's layer (its first look's) that no
 * line of *res covers is read alone from the screen's mean; a reading
 * that says something, or an unsure one that is a line of a caption
 * *res has (vw_read_line_beside), goes into *res.  -1 on error (*res
 * is then freed).
 */
int
vw_read_lines(vw_pipe_t *p, vw_ocr_result_t *res, vw_err_t *err)
{
    int               i, rc, fine, covered, part;
    vw_rect_t         r, box;
    vw_ocr_result_t   one, both;
    const vw_text_t  *t;

    t = &p->ref_layer;

    for (i = 0; i < t->nline && !res->timed_out; i++) {
        fine = vw_read_line_fine(&t->line[i]);
        covered = vw_read_line_covered(p, res, &t->line[i],
                                       fine ? VW_READ_CONF : 0);
        part = covered && vw_read_line_short(p, res, &t->line[i]);

        if ((covered && !part) || vw_memo_is_moved(p, i)) {
            /* read (a line of small glyphs: read sure; a part of a
             * line is read again), or moved with the background
             * (vw_memo_moved) */
            continue;
        }

        vw_read_line_box(p, &t->line[i], &r);

        /* the same box, as good as the same pixels, read as nothing
         * before (vw_read_memo.c) */
        box = (vw_rect_t) { p->region.x + r.x, p->region.y + r.y, r.w, r.h };

        if (r.w > 0 && vw_memo_line_known(p, &box)) {
            p->run->stats.readings_remembered++;
            continue;
        }

        if (vw_read_line_one(p, &t->line[i], &r, 0, &one, err) != 0) {
            vw_ocr_result_free(res);
            return -1;
        }

        if (!vw_read_line_says(&one, &t->line[i]) && !one.timed_out
            && fine)
        {
            /* small glyphs with a one-pixel fill: in grey, as it is */
            res->ms += one.ms;
            vw_ocr_result_free(&one);

            if (vw_read_line_one(p, &t->line[i], &r, 1, &one, err) != 0) {
                vw_ocr_result_free(res);
                return -1;
            }
        }

        if (!vw_read_line_says(&one, &t->line[i])
            && !vw_read_line_beside(res, &one, &t->line[i]))
        {
            if (one.text != NULL && !one.timed_out
                && vw_memo_line_fail(p, &box, t->line[i].glyph_h) != 0)
            {
                vw_ocr_result_free(&one);
                vw_ocr_result_free(res);
                return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                               p->job->name);
            }

            res->ms += one.ms;
            res->timed_out |= one.timed_out;
            vw_ocr_result_free(&one);
            continue;
        }

        if (res->nlines == 0) {
            vw_reading_take(res, &one, 1);
            continue;
        }

        rc = vw_ocr_result_merge(res, &one, fine || part, &both);

        if (rc < 0) {
            vw_ocr_result_free(&one);
            vw_ocr_result_free(res);
            return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                           p->job->name);
        }

        if (rc == 0) {
            vw_reading_take(res, &one, 0);
            continue;
        }

        both.ms = res->ms + one.ms;
        vw_ocr_result_free(&one);
        vw_ocr_result_free(res);
        *res = both;
    }

    return 0;
}


/*
 * The glyphs of the layer's lines that the reading's lines lie on, the
 * letters it is to be weighed against (vw_reading_few), and enough of
 * them that it needs VW_FEW_MIN + 1 letters; all the layer's when it
 * lies on none or on all, or when not all its lines are recorded.  The
 * lines it did not read are mostly a busy picture taken for lines: a
 * splash of water beside three Chinese characters made 17 glyphs, the
 * characters 7, and their reading (3 letters) was taken for noise.
 */
int
vw_read_line_glyphs(const vw_pipe_t *p, const vw_ocr_result_t *res)
{
    int               i, n, k;
    const vw_text_t  *t;

    t = &p->ref_layer;
    n = 0;

    if (t->nline >= VW_TEXT_LINES_MAX) {
        return t->glyphs;
    }

    for (i = 0; i < t->nline; i++) {
        n += vw_read_line_covered(p, res, &t->line[i], 0) ? t->line[i].glyphs
                                                          : 0;
    }

    if (n == 0 || n == t->glyphs) {
        return t->glyphs;
    }

    /* some lines went unread: at least VW_FEW_MIN + 1 letters ("of", at
     * 78, from a cluttered garage's "lines" is no text) */
    k = VW_FEW_PART * (VW_FEW_MIN + 1);

    return n >= k ? n : t->glyphs < k ? t->glyphs : k;
}


/*
 * The glyphs of the layer's lines that the reading lies on none of
 * (vw_read_line_covered), those that moved with the background
 * (vw_memo_moved) and those of the other ink (dark on a light band,
 * vw_text_band.c: the page is read prepared for the layer's ink, and
 * they are read alone) aside; all the layer's when one of those lies
 * between lines the reading has (a caption's line it dropped: the
 * texture a busy picture makes lines of is around a caption).
 */
int
vw_read_line_lacking(const vw_pipe_t *p, const vw_ocr_result_t *res)
{
    int                    i, n, top, bottom, mid;
    const vw_text_t       *t;
    const vw_text_line_t  *l;

    t = &p->ref_layer;
    n = 0;
    top = INT_MAX;
    bottom = INT_MIN;

    for (i = 0; i < t->nline; i++) {
        l = &t->line[i];

        if (vw_read_line_covered(p, res, l, 0)) {
            top = l->box.y < top ? l->box.y : top;
            bottom = l->box.y + l->box.h > bottom ? l->box.y + l->box.h
                                                  : bottom;
        }
    }

    for (i = 0; i < t->nline; i++) {
        l = &t->line[i];

        if (vw_memo_is_moved(p, i) || l->polarity != t->polarity
            || vw_read_line_covered(p, res, l, 0))
        {
            continue;
        }

        mid = l->box.y + l->box.h / 2;

        if (mid > top && mid < bottom) {
            return t->glyphs;
        }

        n += l->glyphs;
    }

    return n;
}


/*
 * Which lines of the pending screen's layer its reading res read
 * (vw_read_line_covered), for vw_memo_moved: a line that moves on the
 * next screen is the background's only if it was not read.  Not when
 * the layer is not the one vw_memo_moved saw (a later look stood in).
 */
void
vw_read_lines_mark(vw_pipe_t *p, const vw_ocr_result_t *res)
{
    int               i;
    const vw_text_t  *t;

    t = &p->ref_layer;

    for (i = 0; i < t->nline && i < p->memo_nlines; i++) {
        if (memcmp(&p->memo_lines[i].box, &t->line[i].box,
                   sizeof(vw_rect_t)) == 0)
        {
            p->memo_read[i] = (char) vw_read_line_covered(p, res,
                                                          &t->line[i], 0);
        }
    }
}


/*
 * A line of the reading read at conf or more lies on layer line l
 * (vw_read_line_on).
 */
static int
vw_read_line_covered(const vw_pipe_t *p, const vw_ocr_result_t *res,
    const vw_text_line_t *l, int conf)
{
    int  i, x0, x1;

    for (i = 0; i < res->nlines; i++) {
        if (res->lines[i].confidence >= conf
            && vw_read_line_on(p, &res->lines[i].box, l, &x0, &x1))
        {
            return 1;
        }
    }

    return 0;
}


/*
 * The letters of the reading's lines that lie on layer line l
 * (vw_read_line_on) span less than VW_LINE_PART_NUM / VW_LINE_PART_DEN
 * of its width: Tesseract's page layout read a part of it ("的" of
 * "真的", two Chinese characters; read alone, the line reads whole).
 */
static int
vw_read_line_short(const vw_pipe_t *p, const vw_ocr_result_t *res,
    const vw_text_line_t *l)
{
    int               i, x0, x1, lo, hi;
    const vw_rect_t  *b;

    lo = l->box.x + l->box.w;
    hi = l->box.x;

    for (i = 0; i < res->nlines; i++) {
        b = res->lines[i].letters.w > 0 ? &res->lines[i].letters
                                        : &res->lines[i].box;

        if (vw_read_line_on(p, b, l, &x0, &x1)) {
            lo = x0 < lo ? x0 : lo;
            hi = x1 > hi ? x1 : hi;
        }
    }

    return hi > lo && VW_LINE_PART_DEN * (hi - lo)
                      < VW_LINE_PART_NUM * l->box.w;
}


/*
 * Box b of a reading's line (in the OCR picture's pixels: the region,
 * scaled) lies on layer line l: they overlap across, and up and down by
 * half of l's height.  *x0, *x1: b's left and right in the picture's
 * pixels.
 */
int
vw_read_line_on(const vw_pipe_t *p, const vw_rect_t *b,
    const vw_text_line_t *l, int *x0, int *x1)
{
    int  s, y0, y1;

    s = p->scale;
    *x0 = p->region.x + b->x / s;
    *x1 = p->region.x + (b->x + b->w) / s;
    y0 = p->region.y + b->y / s;
    y1 = p->region.y + (b->y + b->h) / s;

    y0 = y0 > l->box.y ? y0 : l->box.y;
    y1 = y1 < l->box.y + l->box.h ? y1 : l->box.y + l->box.h;

    return *x1 > l->box.x && *x0 < l->box.x + l->box.w && *x1 > *x0
           && 2 * (y1 - y0) >= l->box.h;
}


/*
 * What of the pending screen's mean layer line l is read from: its box
 * and VW_LINE_ACROSS glyph heights either way across, half a glyph
 * height above and below (the marks, the short letters the layer does
 * not chain), within the region; in the region's pixels (the mean's).
 * Empty when none of it is.
 */
static void
vw_read_line_box(const vw_pipe_t *p, const vw_text_line_t *l, vw_rect_t *r)
{
    int  px, py, x0, y0, x1, y1;

    px = VW_OCR_MARGIN + VW_LINE_ACROSS * l->glyph_h;
    py = VW_OCR_MARGIN / 2 + l->glyph_h / 2;

    x0 = l->box.x - px - p->region.x;
    y0 = l->box.y - py - p->region.y;
    x1 = l->box.x + l->box.w + px - p->region.x;
    y1 = l->box.y + l->box.h + py - p->region.y;
    x0 = x0 > 0 ? x0 : 0;
    y0 = y0 > 0 ? y0 : 0;
    x1 = x1 < p->mean.width ? x1 : p->mean.width;
    y1 = y1 < p->mean.height ? y1 : p->mean.height;

    *r = x1 > x0 && y1 > y0 ? (vw_rect_t) { x0, y0, x1 - x0, y1 - y0 }
                            : (vw_rect_t) { 0, 0, 0, 0 };
}


/*
 * Reads layer line l alone: its box and VW_LINE_ACROSS glyph heights
 * either way across, half a glyph height above and below (the marks,
 * the short letters the layer does not chain), cut from the screen's
 * mean, prepared at its own level (grey: as it is) and scaled to about
 * VW_LINE_GLYPH_PX pixels a glyph, read as one line.  one's line boxes
 * are given in the region's OCR pixels, as the page reading's are.
 */
static int
vw_read_line_one(vw_pipe_t *p, const vw_text_line_t *l, const vw_rect_t *r,
    int grey, vw_ocr_result_t *one, vw_err_t *err)
{
    int            i, s, pol, rc;
    vw_ocr_how_t   how;
    vw_stats_t    *st;

    st = &p->run->stats;

    memset(one, 0, sizeof(vw_ocr_result_t));

    if (r->w <= 0 || r->h <= 0) {
        one->text = NULL;
        return 0;
    }

    s = (VW_LINE_GLYPH_PX + l->glyph_h / 2) / (l->glyph_h > 0 ? l->glyph_h
                                                               : 1);
    s = s < 1 ? 1 : s > VW_PREP_SCALE_MAX ? VW_PREP_SCALE_MAX : s;

    pol = grey ? VW_PREP_GREY
          : l->polarity == VW_TEXT_DARK ? VW_PREP_DARK : VW_PREP_BRIGHT;

    if (vw_prep_line(&p->framer, &p->mean, r, &p->ref_layer.mask,
                     p->region.x, p->region.y, pol, p->ref.width,
                     p->ref.height, s, &p->ocr, err)
        != 0)
    {
        return -1;
    }

    how.layout = VW_OCR_LAYOUT_LINE;
    how.speck = 0;

    rc = vw_ocr_image(p->engine, &p->ocr, &how, p->limits.frame_timeout_ms,
                      vw_pipe_poll, p, one, err);

    if (rc != 0) {
        return -1;
    }

    st->ocr_passes++;
    st->line_readings++;

    /* its boxes from the line's picture to the region's OCR picture */

    for (i = 0; i < one->nlines; i++) {
        vw_read_line_place(&one->lines[i].box, r, s, p->scale);

        if (one->lines[i].letters.w > 0) {
            vw_read_line_place(&one->lines[i].letters, r, s, p->scale);
        }
    }

    for (i = 0; i < one->ndropped; i++) {
        vw_read_line_place(&one->dropped[i].box, r, s, p->scale);
    }

    return 0;
}


/*
 * A box of the line's picture (scaled s times, cut at r of the region)
 * in the region's OCR picture (scale times the region).
 */

static void
vw_read_line_place(vw_rect_t *b, const vw_rect_t *r, int s, int scale)
{
    b->x = (r->x + b->x / s) * scale;
    b->y = (r->y + b->y / s) * scale;
    b->w = b->w * scale / s;
    b->h = b->h * scale / s;
}


/*
 * A line of many small glyphs (VW_SURE_GLYPHS or more, less than
 * VW_LINE_FINE_GLYPH pixels tall), which is read again in grey when its
 * own level made nothing of it.  14 px white subtitles with a black
 * outline over a light grey picture (its levels 160-200) have a fill a
 * pixel wide at 720p: at any level the fill breaks or the picture
 * joins it ("The garden looks better every year." read as nothing),
 * and the grey cut, scaled, reads right.  A line of many glyphs is
 * text more often than the texture a busy picture makes short lines of.
 */
static int
vw_read_line_fine(const vw_text_line_t *l)
{
    return l->glyphs >= VW_SURE_GLYPHS && l->glyph_h < VW_LINE_FINE_GLYPH;
}


/*
 * A line read alone says something when it was kept (vw_ocr.c: sure
 * enough), is read at VW_READ_CONF or more, and has at least a quarter
 * as many letters or digits as the line has glyphs (vw_reading_few).
 */
static int
vw_read_line_says(const vw_ocr_result_t *one, const vw_text_line_t *l)
{
    return one->text != NULL && !one->timed_out && one->nlines == 1
           && one->confidence >= VW_READ_CONF
           && !vw_reading_few(vw_reading_letters(one), l->glyphs);
}


/*
 * A line read alone, unsure, that is a line of a caption the reading
 * has: it fits its glyphs (vw_reading_fits) and lies right above or
 * below a sure line of the reading (VW_OCR_ACCEPT), within the taller
 * one's height of it, their middles as near across (a caption's lines
 * are centred, or start at one margin).  Bilingual subtitles:
 * "把灯关掉" over "Turn off the light" (97), read alone at 66.
 */
static int
vw_read_line_beside(const vw_ocr_result_t *res, const vw_ocr_result_t *one,
    const vw_text_line_t *l)
{
    int               i, h, gap, mid, left;
    const vw_rect_t  *a, *b;

    if (one->text == NULL || one->timed_out || one->nlines != 1
        || !vw_reading_fits(one, l->glyphs))
    {
        return 0;
    }

    a = &one->lines[0].box;

    for (i = 0; i < res->nlines; i++) {
        if (res->lines[i].confidence < VW_OCR_ACCEPT) {
            continue;
        }

        b = &res->lines[i].box;
        h = a->h > b->h ? a->h : b->h;
        gap = a->y >= b->y + b->h ? a->y - (b->y + b->h)
              : b->y >= a->y + a->h ? b->y - (a->y + a->h) : -1;
        mid = abs((2 * a->x + a->w) - (2 * b->x + b->w)) / 2;
        left = abs(a->x - b->x);

        if (gap >= 0 && gap <= h && (mid <= h || left <= h)) {
            return 1;
        }
    }

    return 0;
}
