/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The text layer of a picture (see vw_text.h): where the glyphs are,
 * found without Tesseract, so that only that region is read, a picture
 * with no glyph is not read at all, and two pictures are compared on
 * their glyphs alone, whatever the background does around them.
 *
 * Glyphs burned into a video are made to be read over anything: light
 * glyphs with a dark outline, shadow or box (subtitles, titles), or dark
 * glyphs on a light or plain picture (slides).  So:
 *
 *   - bright ink: pixels at least VW_TEXT_INK_BRIGHT with a pixel of at
 *     most VW_TEXT_OUTLINE within VW_TEXT_RADIUS (the outline); bright
 *     areas of the background have no such border, only their edges do
 *     (and those are compared only where a stroke has it on both sides:
 *     vw_ink_strokes);
 *   - dark ink, on a light picture (more than half of it at least
 *     VW_PREP_INK_LEVEL), or when a picture of middling grey has no bright
 *     ink: pixels at least VW_TEXT_DARK_DROP levels below the median;
 *     and bright ink again when a light picture's dark ink makes no
 *     line (white text in a black bar across a white frame); and, in a
 *     layer of bright ink, dark ink on the light bands across the
 *     picture (vw_text_band.c: black capitals on a news bar);
 *   - ink by local contrast (vw_ink_open, vw_ink_contrast), light or
 *     dark, when neither finds a line (unless what they found is a
 *     grainy picture's glyph-sized specks), or dark ink finds one of a
 *     few glyphs on a picture that is not light, or bright ink on a
 *     dark one (vw_text_local): text with no outline, of any colour;
 *     such a layer is kept, in the look, to what stands still
 *     (vw_text_still);
 *   - ink components that cannot be glyphs are dropped (too large, too
 *     solid, spanning the picture, a few stray pixels: vw_prep_blobs);
 *     the glyphs' bounding box is the region Tesseract reads.
 *
 * Noise that one picture takes for lines is told from text by the
 * frames shown beside it (vw_text_persist_*): text stays a frame or
 * more, a chain of specks does not.
 *
 * Near-identical text: the two pictures' grey levels are compared only
 * where either has ink, in blocks and cells as vw_image_similar does.
 * A glyph that stays has the same levels in both; one that appears,
 * goes away or changes puts ink where the other picture has background
 * or outline, tens of levels away.  A pixel that is ink in one picture
 * only because it sits at the threshold has nearly the same level in
 * the other, so compression noise at glyph edges does not count.
 */

#include <stdlib.h>
#include <string.h>

#include "core/vw_stage.h"
#include "vw_image_int.h"


static int vw_text_layer(vw_framer_t *fr, const vw_image_t *g, int ref_w,
    int ref_h, int bars, vw_text_t *t, vw_err_t *err);
static int vw_text_layer_ink(vw_framer_t *fr, const vw_image_t *g,
    int ref_w, int ref_h, int bars, vw_text_t *t, vw_err_t *err);
static int vw_text_kind(vw_framer_t *fr, const vw_image_t *g,
    const vw_image_t *pg, int bars, int ref_w, int ref_h, int kind,
    int level, vw_text_t *t);
static void vw_text_outside(vw_image_t *m, const vw_rect_t *pic);
static void vw_text_cut(const vw_rect_t *box, const vw_rect_t *of,
    const vw_rect_t *in, vw_rect_t *cut);


void
vw_text_free(vw_text_t *t)
{
    vw_image_free(&t->mask);
    memset(t, 0, sizeof(vw_text_t));
}


void
vw_text_swap(vw_text_t *a, vw_text_t *b)
{
    vw_text_t  t;

    t = *a;
    *a = *b;
    *b = t;
}


void
vw_text_view(const vw_text_t *t, const vw_rect_t *of, const vw_rect_t *in,
    vw_text_t *view)
{
    int  i;

    *view = *t;
    vw_image_view(&t->mask, of, in, &view->mask);
    vw_text_cut(&t->box, of, in, &view->box);

    view->nline = 0;

    for (i = 0; i < t->nline && view->box.w > 0; i++) {
        view->line[view->nline] = t->line[i];
        vw_text_cut(&t->line[i].box, of, in, &view->line[view->nline].box);
        view->nline += view->line[view->nline].box.w > 0;
    }
}


/* The pixels of mask m outside rectangle pic are no ink. */
static void
vw_text_outside(vw_image_t *m, const vw_rect_t *pic)
{
    int       y;
    uint8_t  *row;

    for (y = 0; y < m->height; y++) {
        row = m->data + (size_t) y * m->stride;

        if (y < pic->y || y >= pic->y + pic->h) {
            memset(row, 255, (size_t) m->width);
            continue;
        }

        memset(row, 255, (size_t) pic->x);
        memset(row + pic->x + pic->w, 255,
               (size_t) (m->width - pic->x - pic->w));
    }
}


/* box (of rectangle of) cut to the part in of it, moved there; w = 0
 * when nothing is left */
static void
vw_text_cut(const vw_rect_t *box, const vw_rect_t *of, const vw_rect_t *in,
    vw_rect_t *cut)
{
    int  x1, y1;

    x1 = box->x + box->w - (in->x - of->x);
    y1 = box->y + box->h - (in->y - of->y);
    x1 = x1 < in->w ? x1 : in->w;
    y1 = y1 < in->h ? y1 : in->h;
    cut->x = box->x - (in->x - of->x);
    cut->y = box->y - (in->y - of->y);
    cut->x = cut->x > 0 ? cut->x : 0;
    cut->y = cut->y > 0 ? cut->y : 0;
    cut->w = x1 - cut->x;
    cut->h = y1 - cut->y;

    if (box->w == 0 || cut->w <= 0 || cut->h <= 0) {
        memset(cut, 0, sizeof(vw_rect_t));
    }
}


/* the text layer's CPU time is the stage "text_layer" (--stats) */
int
vw_text_find(vw_framer_t *fr, const vw_image_t *g, vw_text_t *t,
    vw_err_t *err)
{
    int         rc;
    vw_stage_t  stage;

    stage = vw_stage_enter(VW_STAGE_TEXT_LAYER);
    rc = vw_text_layer(fr, g, g->width, g->height, 1, t, err);
    (void) vw_stage_enter(stage);

    return rc;
}


int
vw_text_find_part(vw_framer_t *fr, const vw_image_t *g, int ref_w,
    int ref_h, vw_text_t *t, vw_err_t *err)
{
    int         rc;
    vw_stage_t  stage;

    stage = vw_stage_enter(VW_STAGE_TEXT_LAYER);
    rc = vw_text_layer(fr, g, ref_w, ref_h, 0, t, err);
    (void) vw_stage_enter(stage);

    return rc;
}


/*
 * The layer of g (vw_text_layer_ink); a layer of bright ink gets the
 * dark lines of the light bands across the picture too (vw_text_band.c).
 */
static int
vw_text_layer(vw_framer_t *fr, const vw_image_t *g, int ref_w,
    int ref_h, int bars, vw_text_t *t, vw_err_t *err)
{
    vw_rect_t   all;
    vw_image_t  pv;

    if (vw_text_layer_ink(fr, g, ref_w, ref_h, bars, t, err) != 0) {
        return -1;
    }

    if (t->box.w == 0 || t->polarity != VW_TEXT_BRIGHT || t->local) {
        return 0;
    }

    /* the picture inside the bars; a part is judged whole */

    pv = *g;

    if (bars) {
        all = (vw_rect_t) { 0, 0, g->width, g->height };
        vw_image_view(g, &all, &t->pic, &pv);
    }

    if (vw_text_band(fr, &pv, bars ? t->pic.w : ref_w,
                     bars ? t->pic.h : ref_h, t)
        < 0)
    {
        return vw_fail(err, "no_memory", "frame: out of memory");
    }

    return 0;
}


/*
 * The layer of g, judged by a ref_w x ref_h picture; with bars, by the
 * picture inside g's bars (vw_bars_find): its statistics, and its size
 * for the sizes that are parts of it.  Bright ink is looked for in the
 * bars too (subtitles are set there), dark ink only in the picture
 * (the bars are dark).
 */
static int
vw_text_layer_ink(vw_framer_t *fr, const vw_image_t *g, int ref_w,
    int ref_h, int bars, vw_text_t *t, vw_err_t *err)
{
    int              x, y, median, light, kind, level, comps, grainy;
    size_t           n, half, sum;
    uint32_t         part[4][256];
    uint64_t         hist[256];
    vw_rect_t        all;
    vw_image_t       pv;
    const vw_image_t *pg;
    const uint8_t   *q;

    fr->open_of = NULL;
    t->polarity = VW_TEXT_NONE;
    t->local = 0;
    t->glyph_h = 0;
    t->glyphs = 0;
    t->lines = 0;
    t->comps = 0;
    t->grainy = 0;
    t->nline = 0;
    memset(&t->box, 0, sizeof(vw_rect_t));

    all = (vw_rect_t) { 0, 0, g->width, g->height };
    t->pic = (vw_rect_t) { 0, 0, ref_w, ref_h };

    if (bars) {
        vw_bars_find(g, &t->pic);
        ref_w = t->pic.w;
        ref_h = t->pic.h;
    }

    if (vw_image_alloc(&t->mask, g->width, g->height) != 0
        || vw_framer_work(fr, (size_t) g->width
                              * (size_t) (g->height > 4 ? g->height : 4))
           != 0)
    {
        return vw_fail(err, "no_memory", "frame: out of memory");
    }

    n = (size_t) g->width * (size_t) g->height;

    if (n == 0) {
        return 0;
    }

    /* pg: the picture (with bars: inside them) */

    pg = g;

    if (bars) {
        vw_image_view(g, &all, &t->pic, &pv);
        pg = &pv;
    }

    /* the median and the share of light pixels, from every fourth
     * pixel of every fourth row: plenty for a picture's statistics */

    /* four histograms taken in turn, added up after: a run of pixels
     * of one level (a plain background) would otherwise wait on each
     * count's store before the next (at most VW_MAX_SIDE squared over
     * 16 a count: a uint32_t holds it) */

    memset(part, 0, sizeof(part));
    n = 0;

    for (y = 0; y < pg->height; y += 4) {
        q = pg->data + (size_t) y * pg->stride;

        for (x = 0; x + 12 < pg->width; x += 16) {
            part[0][q[x]]++;
            part[1][q[x + 4]]++;
            part[2][q[x + 8]]++;
            part[3][q[x + 12]]++;
        }

        for ( /* void */ ; x < pg->width; x += 4) {
            part[0][q[x]]++;
        }

        n += (size_t) (pg->width + 3) / 4;
    }

    for (x = 0; x < 256; x++) {
        hist[x] = (uint64_t) part[0][x] + part[1][x] + part[2][x]
                  + part[3][x];
    }

    half = (n + 1) / 2;
    sum = 0;

    for (median = 0; median < 255; median++) {
        sum += hist[median];
        if (sum >= half) {
            break;
        }
    }

    sum = 0;
    for (x = VW_PREP_INK_LEVEL; x < 256; x++) {
        sum += hist[x];
    }

    /* bright glyphs unless the picture is light; dark ones on a light
     * picture, or on a middling one with no bright ink */

    light = 2 * sum > n;
    kind = light ? VW_TEXT_DARK : VW_TEXT_BRIGHT;
    level = median - VW_TEXT_DARK_DROP;

    if (vw_text_kind(fr, g, pg, bars, ref_w, ref_h, kind, level, t) != 0) {
        return vw_fail(err, "no_memory", "frame: out of memory");
    }

    if (t->box.w == 0 && !light && median >= VW_TEXT_DARK_DROP
        && median < VW_PREP_INK_LEVEL)
    {
        kind = VW_TEXT_DARK;

        if (vw_text_kind(fr, g, pg, bars, ref_w, ref_h, kind, level, t)
            != 0)
        {
            return vw_fail(err, "no_memory", "frame: out of memory");
        }
    }

    if (t->box.w == 0 && light) {
        /*
         * a light picture's text may still be bright on a dark band of
         * its own (white in a black bar across a white frame): bright
         * ink needs that dark border, which the light picture itself
         * rarely gives; if it makes no line either, what dark ink found
         * decides what follows
         */
        comps = t->comps;
        grainy = t->grainy;

        if (vw_text_kind(fr, g, pg, bars, ref_w, ref_h, VW_TEXT_BRIGHT,
                         level, t)
            != 0)
        {
            return vw_fail(err, "no_memory", "frame: out of memory");
        }

        if (t->box.w > 0) {
            return 0;
        }

        t->comps = comps;
        t->grainy = grainy;
    }

    if (t->box.w == 0 && t->comps < VW_TEXT_LOCAL_COMPS) {
        return vw_text_local(fr, g, ref_w, ref_h, 0, 0, t, err);
    }

    if (t->box.w == 0 ? t->grainy
        : light || t->glyphs >= VW_TEXT_LOCAL_FEW
          || (kind == VW_TEXT_BRIGHT && median >= VW_TEXT_DARK_DROP))
    {
        return 0;
    }

    /*
     * Glyph-sized ink that makes no line is as often the brightest
     * strokes of coloured lettering (orange on black, luma 155) or the
     * strokes of Chinese characters in cream with a glow as text turned
     * sideways (but in a grainy picture, its grain: there ink by local
     * contrast made no line, at 20-40 ms a look); a few glyphs of dark
     * ink on a picture that is not light are as often the dark side of
     * its texture, and a few of bright ink on a dark picture the
     * brightest pieces of coloured lettering (3 "glyphs" of a title of
     * 13).  Ink by local contrast (light only where bright ink found
     * the pieces) wins when its lines have several times the glyphs;
     * else the ink of the kind found is found again: the orientation
     * test judges its components (fr->comps), and against bright ink,
     * dark ink made one caption flip between kinds from look to look,
     * which split screens.
     */

    if (vw_text_local(fr, g, ref_w, ref_h, VW_TEXT_LOCAL_GAIN * t->glyphs,
                      kind == VW_TEXT_BRIGHT, t, err)
        != 0)
    {
        return -1;
    }

    if (t->local
        || vw_text_kind(fr, g, pg, bars, ref_w, ref_h, kind, level, t)
           == 0)
    {
        return 0;
    }

    return vw_fail(err, "no_memory", "frame: out of memory");
}


/* The glyphs of bright (with their strokes) or dark ink (level at
 * most) into t: bright ink in all of g, the bars too (subtitles are
 * set in them), dark ink only in the picture pg inside them (bars: the
 * bars are no ink); -1 when out of memory. */
static int
vw_text_kind(vw_framer_t *fr, const vw_image_t *g, const vw_image_t *pg,
    int bars, int ref_w, int ref_h, int kind, int level, vw_text_t *t)
{
    size_t      ink;
    vw_rect_t   all;
    vw_image_t  mv;

    if (kind == VW_TEXT_BRIGHT) {
        vw_ink_bright(fr, g, &t->mask, &ink);

    } else if (bars) {
        all = (vw_rect_t) { 0, 0, g->width, g->height };
        vw_image_view(&t->mask, &all, &t->pic, &mv);
        vw_ink_dark(pg, &mv, level, &ink);
        vw_text_outside(&t->mask, &t->pic);

    } else {
        vw_ink_dark(g, &t->mask, level, &ink);
    }

    memset(&t->box, 0, sizeof(vw_rect_t));
    t->nline = 0;
    t->lines = 0;

    if (ink > 0 && vw_text_lines(fr, &t->mask, ref_w, ref_h, kind, t) != 0) {
        return -1;
    }

    if (t->box.w > 0) {
        t->polarity = kind;

        if (kind == VW_TEXT_BRIGHT) {
            vw_ink_strokes(fr, g, ref_h, t);
        }
    }

    return 0;
}


void
vw_text_take_lines(vw_text_t *t, const vw_text_t *part, int dx, int dy)
{
    int  i;

    t->glyph_h = part->glyph_h;
    t->glyphs = part->glyphs;
    t->lines = part->lines;
    t->nline = part->nline;

    for (i = 0; i < part->nline; i++) {
        t->line[i] = part->line[i];
        t->line[i].box.x += dx;
        t->line[i].box.y += dy;
    }
}
