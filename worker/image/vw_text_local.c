/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Text by local contrast (see vw_text.c): thin strokes lighter or
 * darker than what is around them, whatever their levels and whatever
 * is around them (nothing, a glow, a bar of any colour); in a look,
 * only those that stand still while the picture behind them moves.
 */

#include <stdlib.h>
#include <string.h>

#include "vw_image_int.h"


static void vw_ink_window(uint8_t *restrict dst, const uint8_t *restrict src,
    int w, int r, int most);
static VW_VECTORISE void vw_ink_least_window(uint8_t *restrict dst,
    const uint8_t *restrict src, size_t n, int r);
static VW_VECTORISE void vw_ink_most_window(uint8_t *restrict dst,
    const uint8_t *restrict src, size_t n, int r);
static void vw_ink_square(vw_framer_t *fr, const uint8_t *src,
    size_t stride, uint8_t *dst, size_t dst_stride, int w, int h, int r,
    int most);
static VW_VECTORISE size_t vw_ink_local_row(uint8_t *restrict m,
    const uint8_t *restrict g, const uint8_t *restrict o, int level,
    int bright, size_t n);


/*
 * Text by local contrast (vw_ink_open, vw_ink_contrast) into t, for
 * glyphs with no outline and of any colour: light then dark at
 * VW_TEXT_LOCAL_LEVEL, then both at VW_TEXT_LOCAL_LOW (a threshold for
 * the picture, the strongest that makes a line); light ink only, if
 * light (what bright ink found pieces of); the first that makes lines
 * of more than beat glyphs wins (t->local set).  None: t has no box.
 * The opening of each polarity (fr->open) serves both levels.
 */
int
vw_text_local(vw_framer_t *fr, const vw_image_t *g, int ref_w, int ref_h,
    int beat, int light, vw_text_t *t, vw_err_t *err)
{
    int                i, r, level;
    size_t             ink;
    vw_text_t          was;
    vw_image_t         mask;
    static const int   pol[2] = { VW_TEXT_BRIGHT, VW_TEXT_DARK };

    r = ref_h / VW_TEXT_STROKE_PART > VW_TEXT_RADIUS
        ? ref_h / VW_TEXT_STROKE_PART : VW_TEXT_RADIUS;
    was = *t;

    for (i = 0; i < 4; i++) {
        level = i < 2 ? VW_TEXT_LOCAL_LEVEL : VW_TEXT_LOCAL_LOW;

        if (light && pol[i % 2] != VW_TEXT_BRIGHT) {
            continue;
        }

        if (i < 2) {
            fr->open_of = NULL;

            if (vw_image_alloc(&fr->open[i], g->width, g->height) != 0) {
                return vw_fail(err, "no_memory", "frame: out of memory");
            }

            vw_ink_open(fr, g, pol[i], r, &fr->open[i]);

            if (i == 1) {
                fr->open_of = g->data;      /* for vw_text_calm */
                fr->open_r = r;
            }
        }

        vw_ink_contrast(g, &fr->open[i % 2], &t->mask, pol[i % 2], level,
                        &ink);

        memset(&t->box, 0, sizeof(vw_rect_t));
        t->nline = 0;
        t->lines = 0;

        if (ink > 0
            && vw_text_lines(fr, &t->mask, ref_w, ref_h, pol[i % 2], t)
               != 0)
        {
            return vw_fail(err, "no_memory", "frame: out of memory");
        }

        /* captions found so are a line or two: lines that fill the
         * picture (chains through texture that zigzag down it, a
         * pattern's edges) are not taken for text */

        if (t->box.w > 0 && t->glyphs > beat
            && t->glyphs >= VW_TEXT_LOCAL_GLYPHS
            && t->box.h <= VW_TEXT_LOCAL_TALL * t->glyph_h)
        {
            t->polarity = pol[i % 2];
            t->local = 1;
            return 0;
        }
    }

    /* none: t as it was (its count of glyph-sized components too,
     * which tells whether to look for text turned sideways), its mask
     * without ink (comparisons look at the ink of layers with no box) */

    mask = t->mask;
    *t = was;
    t->mask = mask;

    for (i = 0; i < g->height; i++) {
        memset(t->mask.data + (size_t) i * t->mask.stride, 255,
               (size_t) g->width);
    }

    return 0;
}


/*
 * Ink by local contrast, in either polarity (text with no outline, of
 * any colour, on any background): a pixel is ink when it stands at
 * least level above (VW_TEXT_BRIGHT) or below (VW_TEXT_DARK) the
 * opening (closing) of the picture by a square of side 2r + 1, that is
 * above what the picture is once every feature thinner than that is
 * taken away: a stroke of at most 2r pixels across stands out from its
 * own background, whatever the levels of both, while a wide light area
 * (a sky, a blade of grass wider than the square, a white frame) or a
 * step between two areas does not.  vw_ink_open makes the opening
 * (closing) into o (g's size), vw_ink_contrast the ink at a level:
 * one opening serves every level.  Four separable passes of window
 * minimums and maximums (fr->seen holds the rows' ones), each a run of
 * byte minimums the compiler vectorises.
 */
void
vw_ink_open(vw_framer_t *fr, const vw_image_t *g, int polarity, int r,
    vw_image_t *o)
{
    int  w, h, bright;

    w = g->width;
    h = g->height;
    bright = polarity == VW_TEXT_BRIGHT;

    /* the erosion (bright; dilation for dark) into o, then the
     * dilation (erosion) of that in its place: the opening (closing),
     * with no third picture */

    vw_ink_square(fr, g->data, g->stride, o->data, o->stride, w, h, r,
                  !bright);
    vw_ink_square(fr, o->data, o->stride, o->data, o->stride, w, h, r,
                  bright);
}


/* dst = the least (most, with most) of src over the square of side
 * 2r + 1 around each pixel, clipped at the edges: the rows' windows
 * into fr->seen (w h bytes), then each row the fold of 2r + 1 of them;
 * dst may be src (every row of src is read before dst is written) */
static void
vw_ink_square(vw_framer_t *fr, const uint8_t *src, size_t stride,
    uint8_t *dst, size_t dst_stride, int w, int h, int r, int most)
{
    int       y, k, y0, y1;
    uint8_t  *a, *d;

    a = fr->seen;

    for (y = 0; y < h; y++) {
        vw_ink_window(a + (size_t) y * w, src + (size_t) y * stride, w, r,
                      most);
    }

    for (y = 0; y < h; y++) {
        y0 = y - r < 0 ? 0 : y - r;
        y1 = y + r >= h ? h - 1 : y + r;
        d = dst + (size_t) y * dst_stride;
        memcpy(d, a + (size_t) y0 * w, (size_t) w);

        for (k = y0 + 1; k <= y1; k++) {
            if (most) {
                vw_ink_max(d, a + (size_t) k * w, (size_t) w);

            } else {
                vw_ink_min(d, a + (size_t) k * w, (size_t) w);
            }
        }
    }
}


void
vw_ink_contrast(const vw_image_t *g, const vw_image_t *o, vw_image_t *m,
    int polarity, int level, size_t *ink)
{
    int  y;

    *ink = 0;

    for (y = 0; y < g->height; y++) {
        *ink += vw_ink_local_row(m->data + (size_t) y * m->stride,
                                 g->data + (size_t) y * g->stride,
                                 o->data + (size_t) y * o->stride, level,
                                 polarity == VW_TEXT_BRIGHT,
                                 (size_t) g->width);
    }
}


/* dst[x] = the least (most, with most) of src over [x - r, x + r],
 * clipped at the row's ends */
static void
vw_ink_window(uint8_t *restrict dst, const uint8_t *restrict src, int w,
    int r, int most)
{
    int      x, k;
    uint8_t  v;

    if (w > 2 * r) {
        if (most) {
            vw_ink_most_window(dst + r, src, (size_t) (w - 2 * r), r);
        } else {
            vw_ink_least_window(dst + r, src, (size_t) (w - 2 * r), r);
        }
    }

    for (x = 0; x < w; x++) {
        if (x == r && w > 2 * r) {
            x = w - r;
        }

        v = src[x];

        for (k = x - r < 0 ? 0 : x - r; k <= x + r && k < w; k++) {
            v = most ? (src[k] > v ? src[k] : v) : (src[k] < v ? src[k] : v);
        }

        dst[x] = v;
    }
}


/* dst[i] = the least of src[i .. i + 2r], i < n */
static VW_VECTORISE void
vw_ink_least_window(uint8_t *restrict dst, const uint8_t *restrict src,
    size_t n, int r)
{
    size_t  i;
    int     k;

    memcpy(dst, src, n);

    for (k = 1; k <= 2 * r; k++) {
        for (i = 0; i < n; i++) {
            dst[i] = src[i + k] < dst[i] ? src[i + k] : dst[i];
        }
    }
}


/* dst[i] = the most of src[i .. i + 2r], i < n */
static VW_VECTORISE void
vw_ink_most_window(uint8_t *restrict dst, const uint8_t *restrict src,
    size_t n, int r)
{
    size_t   i;
    int      k;

    memcpy(dst, src, n);

    for (k = 1; k <= 2 * r; k++) {
        for (i = 0; i < n; i++) {
            dst[i] = src[i + k] > dst[i] ? src[i + k] : dst[i];
        }
    }
}


/* One row of ink by local contrast: g at least level above the opening
 * (bright) or below the closing (dark) in o.  The difference is taken
 * saturated in bytes both ways, one of them zero: vectorised. */
static VW_VECTORISE size_t
vw_ink_local_row(uint8_t *restrict m, const uint8_t *restrict g,
    const uint8_t *restrict o, int level, int bright, size_t n)
{
    size_t    i;
    unsigned  ink;
    uint8_t   on, up, dn, lv, d;

    ink = 0;
    lv = (uint8_t) level;

    for (i = 0; i < n; i++) {
        up = (uint8_t) (g[i] > o[i] ? g[i] - o[i] : 0);
        dn = (uint8_t) (o[i] > g[i] ? o[i] - g[i] : 0);
        d = bright ? up : dn;
        on = (uint8_t) (d >= lv);
        m[i] = (uint8_t) (on - 1);          /* ink 0, else 255 */
        ink += on;
    }

    return ink;
}


/*
 * Keeps of a layer of ink by local contrast (t, of picture g) the glyph
 * pixels that stand still: within VW_TEXT_STILL_DIFF levels of where
 * they were in other, a frame shown a little before, when more than a
 * VW_TEXT_STILL_PART of what surrounds them moved (on a still picture
 * nothing is told, and text that just appeared has moved).  Captions
 * stay where they are while the picture behind them pans, zooms or
 * cuts; the texture local contrast finds too (blades of grass, leaves,
 * line art) moves with it.  What stays is chained into lines again
 * (vw_text_lines, judged by the picture inside the bars, t->pic, as t
 * was): the layer may lose every line.  1 if it changed, 0
 * if not, -1 when out of memory.
 */
int
vw_text_still(vw_framer_t *fr, const vw_image_t *g, const vw_image_t *other,
    vw_text_t *t)
{
    int             x, y, d, moved, around, away;
    uint8_t        *m;
    const uint8_t  *q, *o;
    vw_rect_t       of, b;
    vw_text_t       kt;

    b = t->box;

    if (b.w == 0 || !t->local || other->width != g->width
        || other->height != g->height)
    {
        return 0;
    }

    around = 0;
    away = 0;

    for (y = b.y; y < b.y + b.h; y++) {
        m = t->mask.data + (size_t) y * t->mask.stride;
        q = g->data + (size_t) y * g->stride;
        o = other->data + (size_t) y * other->stride;

        for (x = b.x; x < b.x + b.w; x++) {
            d = (int) q[x] - (int) o[x];
            around += m[x] != 0;
            away += m[x] != 0 && (d > VW_TEXT_STILL_DIFF
                                  || d < -VW_TEXT_STILL_DIFF);
        }
    }

    if (away * VW_TEXT_STILL_PART <= around) {
        return 0;
    }

    moved = 0;

    for (y = b.y; y < b.y + b.h; y++) {
        m = t->mask.data + (size_t) y * t->mask.stride;
        q = g->data + (size_t) y * g->stride;
        o = other->data + (size_t) y * other->stride;

        for (x = b.x; x < b.x + b.w; x++) {
            d = (int) q[x] - (int) o[x];

            if (m[x] == 0 && (d > VW_TEXT_STILL_DIFF
                              || d < -VW_TEXT_STILL_DIFF))
            {
                m[x] = 255;
                moved++;
            }
        }
    }

    if (moved == 0) {
        return 0;
    }

    of = (vw_rect_t) { 0, 0, g->width, g->height };
    memset(&kt, 0, sizeof(vw_text_t));
    vw_image_view(&t->mask, &of, &b, &kt.mask);

    if (vw_text_lines(fr, &kt.mask, t->pic.w, t->pic.h, t->polarity, &kt)
        != 0)
    {
        return -1;
    }

    t->box = kt.box;
    t->box.x += kt.box.w > 0 ? b.x : 0;
    t->box.y += kt.box.w > 0 ? b.y : 0;
    vw_text_take_lines(t, &kt, b.x, b.y);

    if (t->box.w == 0) {
        t->polarity = VW_TEXT_NONE;
        t->local = 0;
    }

    return 1;
}
