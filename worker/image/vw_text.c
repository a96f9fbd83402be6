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
 *   - ink by local contrast (vw_ink_open, vw_ink_contrast), light or
 *     dark, when neither finds a line, or dark ink finds one of a few
 *     glyphs on a picture that is not light (vw_text_local): text with no
 *     outline, of any colour; such a layer is kept, in the look, to
 *     what stands still (vw_text_still);
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

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/vw_stage.h"
#include "vw_image_int.h"


static int vw_text_layer(vw_framer_t *fr, const vw_image_t *g, int ref_w,
    int ref_h, int bars, vw_text_t *t, vw_err_t *err);
static int vw_text_kind(vw_framer_t *fr, const vw_image_t *g,
    const vw_image_t *pg, int bars, int ref_w, int ref_h, int kind,
    int level, vw_text_t *t);
static void vw_text_outside(vw_image_t *m, const vw_rect_t *pic);
static void vw_text_cut(const vw_rect_t *box, const vw_rect_t *of,
    const vw_rect_t *in, vw_rect_t *cut);
static int vw_text_records(vw_framer_t *fr, size_t n, const uint32_t *line,
    size_t nline, int polarity, vw_text_t *out);
static int vw_text_by_x(const void *a, const void *b, void *data);
static int vw_text_by_middle(const void *a, const void *b, void *data);
static int vw_text_root(vw_comp_t *c, int i);
static void vw_text_erase(vw_framer_t *fr, vw_image_t *m, uint32_t seed);


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
 * The layer of g, judged by a ref_w x ref_h picture; with bars, by the
 * picture inside g's bars (vw_bars_find): its statistics, and its size
 * for the sizes that are parts of it.  Bright ink is looked for in the
 * bars too (subtitles are set there), dark ink only in the picture
 * (the bars are dark).
 */
static int
vw_text_layer(vw_framer_t *fr, const vw_image_t *g, int ref_w,
    int ref_h, int bars, vw_text_t *t, vw_err_t *err)
{
    int              x, y, median, light, kind, level;
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

    if (t->box.w == 0) {
        /* glyph-sized ink that makes no line is as often text turned
         * sideways: that is for the orientation test to find */
        return t->comps >= VW_TEXT_LOCAL_COMPS
               ? 0 : vw_text_local(fr, g, ref_w, ref_h, 0, t, err);
    }

    if (light || kind == VW_TEXT_BRIGHT || t->glyphs >= VW_TEXT_LOCAL_FEW) {
        return 0;
    }

    /* a few glyphs of dark ink on a picture that is not light are as
     * often the dark side of its texture: ink by local contrast wins
     * when its lines have several times the glyphs, else the dark ink
     * is found again (against bright ink it made one caption flip
     * between kinds from look to look, which split screens) */

    if (vw_text_local(fr, g, ref_w, ref_h, VW_TEXT_LOCAL_GAIN * t->glyphs,
                      t, err)
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

    if ((int64_t) sum * VW_TEXT_GRAIN_PART
        > (int64_t) m->width * m->height)
    {
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
