/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Light text found by what stands still (see vw_text.h): in a look
 * whose layer has no line, or a few glyphs that move, the ink by local
 * contrast (vw_text_local.c) that stands still in the frames before
 * and after it while the picture moves, made whole at its own level.
 */

#include <stdlib.h>
#include <string.h>

#include "vw_image_int.h"


static int vw_text_calm_held(const vw_image_t *g,
    const vw_image_t *const *other, const vw_text_t *t);
static int vw_text_calm_line(const vw_text_t *kt, int beat);
static int vw_text_calm_fill(vw_framer_t *fr, const vw_image_t *g,
    const vw_image_t *moved, vw_text_t *t);
static VW_VECTORISE size_t vw_ink_moving(const uint8_t *restrict g,
    const uint8_t *restrict o, size_t n);
static VW_VECTORISE void vw_ink_moved_row(uint8_t *restrict m,
    const uint8_t *restrict g, const uint8_t *restrict o, size_t n);


/* a layer with no line (but one whose glyph-sized ink is as often text
 * turned sideways: the orientation test judges it by the components the
 * layer left in fr->comps), or a few glyphs not of local contrast */
int
vw_text_calm_wanted(const vw_text_t *t)
{
    return t->box.w == 0 ? t->comps < VW_TEXT_LOCAL_COMPS
                         : !t->local && t->glyphs < VW_TEXT_LOCAL_GLYPHS;
}


/*
 * Light text with no outline over a picture of its own levels (white
 * over sand, skin or white cloth, cream with a glow over grass) touches
 * the texture around it at any threshold: in one picture its glyphs
 * chain with blades and edges into lines that fill the picture, or
 * break at the weak ones.  The texture moves with the picture, the
 * caption does not: of the ink by local contrast (vw_text_local's, at
 * VW_TEXT_LOCAL_LEVEL then VW_TEXT_LOCAL_LOW, light then dark) only the
 * pixels within VW_TEXT_STILL_DIFF levels of where they were in both
 * before and after count, when more than a VW_TEXT_STILL_PART of the
 * picture moved so since before (in a moving noise a pixel stays by
 * chance in one frame, seldom in two).  The first that makes a line or
 * two (vw_text_calm_line) of more glyphs than VW_TEXT_LOCAL_GAIN times
 * the layer's is made whole at its own level (vw_text_calm_fill) and
 * becomes t if it still does, and does not lie over t's few glyphs
 * (those are its own, found already: an outlined "Why?" whose outline
 * makes more dark glyphs than its fill bright ones).  fr->calm holds
 * the ink meanwhile, and after, once read, what moved (a picture less
 * held: 2 MB at 4K); t is left as it is otherwise.
 */
int
vw_text_calm(vw_framer_t *fr, const vw_image_t *g, const vw_image_t *before,
    vw_image_t *after, vw_text_t *t)
{
    int                i, k, y, r, level, beat, reuse;
    size_t             ink, moved;
    vw_text_t          kt;
    vw_image_t        *moved_map;
    const vw_image_t  *other[2];
    static const int   pol[2] = { VW_TEXT_BRIGHT, VW_TEXT_DARK };

    other[0] = before;
    other[1] = after;

    for (k = 0; k < 2; k++) {
        if (other[k]->width != g->width || other[k]->height != g->height) {
            return 0;
        }
    }

    if (!vw_text_calm_wanted(t) || g->width == 0) {
        return 0;
    }

    moved = 0;

    for (y = 0; y < g->height; y += 2) {
        moved += vw_ink_moving(g->data + (size_t) y * g->stride,
                               before->data + (size_t) y * before->stride,
                               (size_t) g->width);
    }

    if (moved * VW_TEXT_STILL_PART
        <= (size_t) g->width * (size_t) ((g->height + 1) / 2))
    {
        return 0;                       /* a still picture tells nothing */
    }

    if (t->box.w > 0 && vw_text_calm_held(g, other, t)) {
        return 0;
    }

    /* moved, in after's place: 255 where g moved since before or until
     * after */

    if (vw_image_alloc(&fr->calm, g->width, g->height) != 0) {
        return -1;
    }

    moved_map = after;

    for (y = 0; y < g->height; y++) {
        vw_ink_moved_row(moved_map->data + (size_t) y * moved_map->stride,
                         g->data + (size_t) y * g->stride,
                         before->data + (size_t) y * before->stride,
                         (size_t) g->width);
    }

    r = t->pic.h / VW_TEXT_STROKE_PART > VW_TEXT_RADIUS
        ? t->pic.h / VW_TEXT_STROKE_PART : VW_TEXT_RADIUS;
    beat = t->box.w > 0 ? VW_TEXT_LOCAL_GAIN * t->glyphs : 0;
    reuse = fr->open_of == g->data && fr->open_r == r;
    fr->open_of = NULL;

    memset(&kt, 0, sizeof(vw_text_t));
    kt.mask = fr->calm;
    kt.pic = t->pic;

    for (i = 0; i < 4; i++) {
        level = i < 2 ? VW_TEXT_LOCAL_LEVEL : VW_TEXT_LOCAL_LOW;

        /* the openings vw_text_local made of g in this layer's
         * finding serve (a layer with no line tried them all) */

        if (i < 2 && !reuse) {
            if (vw_image_alloc(&fr->open[i], g->width, g->height) != 0) {
                fr->calm = kt.mask;
                return -1;
            }

            vw_ink_open(fr, g, pol[i], r, &fr->open[i]);
        }

        vw_ink_contrast(g, &fr->open[i % 2], &kt.mask, pol[i % 2], level,
                        &ink);

        for (y = 0; ink > 0 && y < g->height; y++) {
            vw_ink_max(kt.mask.data + (size_t) y * kt.mask.stride,
                       moved_map->data + (size_t) y * moved_map->stride,
                       (size_t) g->width);
        }

        memset(&kt.box, 0, sizeof(vw_rect_t));
        kt.nline = 0;
        kt.lines = 0;
        kt.glyphs = 0;

        if (ink > 0
            && vw_text_lines(fr, &kt.mask, t->pic.w, t->pic.h, pol[i % 2],
                             &kt)
               != 0)
        {
            fr->calm = kt.mask;
            return -1;
        }

        if (!vw_text_calm_line(&kt, beat)) {
            continue;
        }

        /* (the fill takes fr->open[0]: no other level is tried) */

        kt.polarity = pol[i % 2];

        if (vw_text_calm_fill(fr, g, moved_map, &kt) != 0
            || vw_text_lines(fr, &kt.mask, t->pic.w, t->pic.h, kt.polarity,
                             &kt)
               != 0)
        {
            fr->calm = kt.mask;
            return -1;
        }

        /* a few glyphs where the still line lies are its own, found
         * already: the layer stays as it was */

        if (!vw_text_calm_line(&kt, beat)
            || (t->box.w > 0 && vw_box_overlap(&kt.box, &t->box) > 0))
        {
            break;
        }

        fr->calm = t->mask;
        kt.local = 1;
        kt.comps = kt.comps > t->comps ? kt.comps : t->comps;
        *t = kt;
        return 1;
    }

    fr->calm = kt.mask;

    return 0;
}


/* The few glyphs of layer t stand still in both other frames (all but
 * a VW_TEXT_STILL_PART of their pixels): a short word of a caption, not
 * the texture, which moves with the picture */
static int
vw_text_calm_held(const vw_image_t *g, const vw_image_t *const *other,
    const vw_text_t *t)
{
    int             x, y, k, d, ink, moved, away;
    const uint8_t  *m, *q, *o;

    ink = 0;
    moved = 0;

    for (y = t->box.y; y < t->box.y + t->box.h; y++) {
        m = t->mask.data + (size_t) y * t->mask.stride;
        q = g->data + (size_t) y * g->stride;

        for (x = t->box.x; x < t->box.x + t->box.w; x++) {
            if (m[x] != 0) {
                continue;
            }

            away = 0;

            for (k = 0; k < 2; k++) {
                o = other[k]->data + (size_t) y * other[k]->stride;
                d = (int) q[x] - (int) o[x];
                away |= d > VW_TEXT_STILL_DIFF || d < -VW_TEXT_STILL_DIFF;
            }

            ink++;
            moved += away;
        }
    }

    return ink > 0 && moved * VW_TEXT_STILL_PART <= ink;
}


/* kt makes a line or two (as vw_text_local asks) of more than beat
 * glyphs */
static int
vw_text_calm_line(const vw_text_t *kt, int beat)
{
    return kt->box.w > 0 && kt->glyphs > beat
           && kt->glyphs >= VW_TEXT_LOCAL_GLYPHS
           && kt->box.h <= VW_TEXT_LOCAL_TALL * kt->glyph_h;
}


/* How many pixels of g are more than VW_TEXT_STILL_DIFF levels from
 * other's (vectorised) */
static VW_VECTORISE size_t
vw_ink_moving(const uint8_t *restrict g, const uint8_t *restrict o,
    size_t n)
{
    size_t    i;
    unsigned  moved;
    uint8_t   d;

    moved = 0;

    for (i = 0; i < n; i++) {
        d = (uint8_t) (g[i] > o[i] ? g[i] - o[i] : o[i] - g[i]);
        moved += d > VW_TEXT_STILL_DIFF;
    }

    return moved;
}


/* m[i] = 255 where g[i] is more than VW_TEXT_STILL_DIFF levels from
 * either o[i] or m[i] (a picture's row, made the map in its place), 0
 * elsewhere (vectorised) */
static VW_VECTORISE void
vw_ink_moved_row(uint8_t *restrict m, const uint8_t *restrict g,
    const uint8_t *restrict o, size_t n)
{
    size_t   i;
    uint8_t  d, e;

    for (i = 0; i < n; i++) {
        d = (uint8_t) (g[i] > o[i] ? g[i] - o[i] : o[i] - g[i]);
        e = (uint8_t) (g[i] > m[i] ? g[i] - m[i] : m[i] - g[i]);
        m[i] = (uint8_t) (0 - (d > VW_TEXT_STILL_DIFF
                               || e > VW_TEXT_STILL_DIFF));
    }
}


/*
 * The glyphs of a layer of still ink (t) made whole at the level of its
 * lines.  The opening by a square made for strokes of the picture's
 * size keeps of a wider stroke (a bold glyph in a glow) only its rim,
 * and a glyph of weaker contrast than the rest is lost: across the band
 * of rows of t's box (half a glyph height more each way), the whole
 * width, ink is taken again where the picture stands above (below, for
 * dark ink) its opening by a square of a third of the glyph height,
 * stands still (not in moved) and is at the band's level:
 * VW_TEXT_CALM_LEVEL quarters of the way from the median of what is
 * around the ink found to the median of that ink.  The texture at that
 * level moves; a flat area wider than the square does not stand above
 * its opening.
 */
static int
vw_text_calm_fill(vw_framer_t *fr, const vw_image_t *g,
    const vw_image_t *moved, vw_text_t *t)
{
    int             x, y, d, level, around, bright, r;
    size_t          ink;
    uint8_t        *m;
    uint32_t        hin[256], hout[256], nin, nout;
    vw_rect_t       all, b;
    vw_image_t      gv, mv;
    const uint8_t  *q;

    bright = t->polarity != VW_TEXT_DARK;
    d = t->glyph_h / 2;
    b.x = 0;
    b.w = g->width;
    b.y = t->box.y - d < 0 ? 0 : t->box.y - d;
    b.h = t->box.y + t->box.h + d > g->height
          ? g->height - b.y : t->box.y + t->box.h + d - b.y;

    memset(hin, 0, sizeof(hin));
    memset(hout, 0, sizeof(hout));
    nin = 0;
    nout = 0;

    for (y = b.y; y < b.y + b.h; y++) {
        m = t->mask.data + (size_t) y * t->mask.stride;
        q = g->data + (size_t) y * g->stride;

        for (x = 0; x < g->width; x++) {
            if (m[x] == 0) {
                hin[q[x]]++;
                nin++;

            } else {
                hout[q[x]]++;
                nout++;
            }
        }
    }

    if (nin == 0 || nout == 0) {
        return 0;
    }

    around = vw_prep_level(hout, nout);
    level = around + (vw_prep_level(hin, nin) - around)
                     * VW_TEXT_CALM_LEVEL / 4;

    r = t->glyph_h / 3 > VW_TEXT_RADIUS ? t->glyph_h / 3 : VW_TEXT_RADIUS;
    all = (vw_rect_t) { 0, 0, g->width, g->height };
    vw_image_view(g, &all, &b, &gv);
    vw_image_view(&t->mask, &all, &b, &mv);

    if (vw_image_alloc(&fr->open[0], b.w, b.h) != 0) {
        return -1;
    }

    vw_ink_open(fr, &gv, t->polarity, r, &fr->open[0]);
    vw_ink_contrast(&gv, &fr->open[0], &mv, t->polarity, 1, &ink);

    for (y = b.y; y < b.y + b.h; y++) {
        m = t->mask.data + (size_t) y * t->mask.stride;
        q = g->data + (size_t) y * g->stride;

        vw_ink_max(m, moved->data + (size_t) y * moved->stride,
                   (size_t) g->width);

        for (x = 0; x < g->width; x++) {
            if (bright ? q[x] < level : q[x] > level) {
                m[x] = 255;
            }
        }
    }

    return 0;
}
