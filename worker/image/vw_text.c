/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The text layer of a picture (see vw_frame.h): where the glyphs are,
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
 *     vw_text_strokes);
 *   - dark ink, on a light picture (more than half of it at least
 *     VW_OCR_BRIGHT), or when a picture of middling grey has no bright
 *     ink: pixels at least VW_TEXT_DARK_DROP levels below the median;
 *   - ink components that cannot be glyphs are dropped (too large, too
 *     solid, spanning the picture, a few stray pixels: vw_frame_blobs);
 *     the glyphs' bounding box is the region Tesseract reads.
 *
 * Noise that one picture takes for lines is told from text by the
 * frames shown beside it (vw_text_persist_*): text stays a frame or
 * more, a chain of specks does not.
 *
 * Near-identical text: the two pictures' grey levels are compared only
 * where either has ink, in blocks and cells as vw_frame_similar does.
 * A glyph that stays has the same levels in both; one that appears,
 * goes away or changes puts ink where the other picture has background
 * or outline, tens of levels away.  A pixel that is ink in one picture
 * only because it sits at the threshold has nearly the same level in
 * the other, so compression noise at glyph edges does not count.
 */

#include <stdlib.h>
#include <string.h>

#include "vw_frame.h"


/*
 * The byte loops below are what the text layer spends its time in; GCC
 * vectorises them at -O2 only with a cost model that refuses loops of
 * unknown length: ask for its usual one there.  On x86-64 each has an
 * AVX2 clone too, picked when the program starts (32 bytes a step, not
 * 16: the loops take 0.63 of the time on a 1080p video).
 */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define VW_VECTORISE                                                      \
    __attribute__((target_clones("avx2", "default"),                    \
                   optimize("tree-vectorize", "vect-cost-model=dynamic")))
#elif defined(__GNUC__) && !defined(__clang__)
#define VW_VECTORISE  __attribute__((optimize("tree-vectorize",            \
                                              "vect-cost-model=dynamic")))
#else
#define VW_VECTORISE
#endif

static void vw_text_bright(vw_framer_t *fr, const vw_image_t *g,
    vw_image_t *m, size_t *ink);
static VW_VECTORISE int vw_text_has_bright(const uint8_t *q, size_t n);
static VW_VECTORISE void vw_text_min_window(uint8_t *restrict dst,
    const uint8_t *restrict src, size_t n);
static VW_VECTORISE void vw_text_min(uint8_t *restrict dst,
    const uint8_t *restrict src, size_t n);
static VW_VECTORISE size_t vw_text_ink(uint8_t *restrict m,
    const uint8_t *restrict g, const uint8_t *restrict lo, size_t stride,
    size_t n);
static void vw_text_strokes(vw_framer_t *fr, const vw_image_t *g, int ref_h,
    vw_text_t *t);
static void vw_text_dark(const vw_image_t *g, vw_image_t *m, int level,
    size_t *ink);
static VW_VECTORISE size_t vw_text_dark_row(uint8_t *restrict m,
    const uint8_t *restrict g, int level, size_t n);
static int vw_text_lines(vw_framer_t *fr, vw_image_t *m, int ref_w,
    int ref_h, vw_rect_t *box, int *glyph_h, int *glyphs, int *lines,
    int *comps);
static int vw_text_by_x(const void *a, const void *b, void *data);
static int vw_text_by_middle(const void *a, const void *b, void *data);
static int vw_text_root(vw_comp_t *c, int i);
static void vw_text_erase(vw_framer_t *fr, vw_image_t *m, uint32_t seed);
typedef struct {
    int      k;                         /* the square's side, in blocks */
    int      rows;                      /* rows taken in */
    int16_t  here[VW_TEXT_MAX_COLUMNS]; /* the row being scored */
    int16_t  ring[VW_TEXT_GLYPH_ROWS][VW_TEXT_MAX_COLUMNS];
    int32_t  sum[VW_TEXT_MAX_COLUMNS];  /* per column, over the ring */
} vw_glyph_scan_t;


/*
 * The cells of vw_frame_same_text's blocks, computed once: a block is 4
 * x 4 cells and the blocks overlap by half, so each cell is in four of
 * them.  A row of cells (VW_SIMILAR_CELL pixels high, from the compared
 * area's left edge) holds per cell the difference of the two pictures'
 * sums and the pixels summed (ink in either mask), each added up with
 * the cells to its right in a block (the block's row of cells, at
 * four lookups a block); the four rows of a row of blocks are kept in
 * a ring, two of them the next row's too.
 */

/* cells across: as many as the block columns followed cover */
#define VW_TEXT_CELLS        (2 * VW_TEXT_MAX_COLUMNS + 2)
/* a block's side in cells, and the rows of cells the ring holds */
#define VW_TEXT_BLOCK_CELLS  (VW_SIMILAR_BLOCK / VW_SIMILAR_CELL)

typedef struct {
    const vw_image_t  *a, *ma, *b, *mb;
    vw_rect_t          u;               /* the area compared */
    int                dx;
    int                ncells;          /* cells across u */
    int                y[VW_TEXT_BLOCK_CELLS];  /* each row's top, or -1 */
    /* per cell, over it and the cells to its right in a block's row */
    uint16_t           diff[VW_TEXT_BLOCK_CELLS][VW_TEXT_CELLS];
    uint8_t            n[VW_TEXT_BLOCK_CELLS][VW_TEXT_CELLS];
    /* a row of cells' columns: a's sum less b's, and the pixels summed */
    int16_t            col[VW_TEXT_CELLS * VW_SIMILAR_CELL];
    uint8_t            coln[VW_TEXT_CELLS * VW_SIMILAR_CELL];
} vw_cells_t;


static int vw_text_cells_block(vw_cells_t *c, int bx, int by);
static void vw_text_cells_row(vw_cells_t *c, int row, int y);
static VW_VECTORISE void vw_text_cells_px(int16_t *restrict col,
    uint8_t *restrict coln, const uint8_t *restrict pa,
    const uint8_t *restrict qa, const uint8_t *restrict pb,
    const uint8_t *restrict qb, int n);
static unsigned vw_text_cell(const vw_cells_t *c, int x0, int y0, int *n);
static int vw_text_steady(const vw_text_t *ta, const vw_text_t *tb, int dx);
static void vw_text_glyph_start(vw_glyph_scan_t *g, int glyph_h);
static VW_VECTORISE int64_t vw_text_shift_cost(const uint32_t *restrict a,
    const uint32_t *restrict b, int n);
static int vw_text_glyph_row(vw_glyph_scan_t *g, int ncols);


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
    int  x1, y1;

    *view = *t;
    vw_image_view(&t->mask, of, in, &view->mask);

    x1 = t->box.x + t->box.w - (in->x - of->x);
    y1 = t->box.y + t->box.h - (in->y - of->y);
    x1 = x1 < in->w ? x1 : in->w;
    y1 = y1 < in->h ? y1 : in->h;
    view->box.x = t->box.x - (in->x - of->x);
    view->box.y = t->box.y - (in->y - of->y);
    view->box.x = view->box.x > 0 ? view->box.x : 0;
    view->box.y = view->box.y > 0 ? view->box.y : 0;
    view->box.w = x1 - view->box.x;
    view->box.h = y1 - view->box.y;

    if (t->box.w == 0 || view->box.w <= 0 || view->box.h <= 0) {
        memset(&view->box, 0, sizeof(vw_rect_t));
    }
}


int
vw_frame_text(vw_framer_t *fr, const vw_image_t *g, vw_text_t *t,
    vw_err_t *err)
{
    return vw_frame_text_part(fr, g, g->width, g->height, t, err);
}


int
vw_frame_text_part(vw_framer_t *fr, const vw_image_t *g, int ref_w,
    int ref_h, vw_text_t *t, vw_err_t *err)
{
    int              x, y, median;
    size_t           n, ink, half, sum;
    uint32_t         part[4][256];
    uint64_t         hist[256];
    const uint8_t   *q;

    t->polarity = VW_TEXT_NONE;
    t->glyph_h = 0;
    t->glyphs = 0;
    t->lines = 0;
    t->comps = 0;
    memset(&t->box, 0, sizeof(vw_rect_t));

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

    /* the median and the share of light pixels, from every fourth
     * pixel of every fourth row: plenty for a picture's statistics */

    /* four histograms taken in turn, added up after: a run of pixels
     * of one level (a plain background) would otherwise wait on each
     * count's store before the next (at most VW_MAX_SIDE squared over
     * 16 a count: a uint32_t holds it) */

    memset(part, 0, sizeof(part));
    n = 0;

    for (y = 0; y < g->height; y += 4) {
        q = g->data + (size_t) y * g->stride;

        for (x = 0; x + 12 < g->width; x += 16) {
            part[0][q[x]]++;
            part[1][q[x + 4]]++;
            part[2][q[x + 8]]++;
            part[3][q[x + 12]]++;
        }

        for ( /* void */ ; x < g->width; x += 4) {
            part[0][q[x]]++;
        }

        n += (size_t) (g->width + 3) / 4;
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
    for (x = VW_OCR_BRIGHT; x < 256; x++) {
        sum += hist[x];
    }

    ink = 0;

    if (2 * sum <= n) {
        vw_text_bright(fr, g, &t->mask, &ink);

        if (ink > 0
            && vw_text_lines(fr, &t->mask, ref_w, ref_h, &t->box,
                             &t->glyph_h, &t->glyphs, &t->lines, &t->comps)
               != 0)
        {
            return vw_fail(err, "no_memory", "frame: out of memory");
        }

        if (t->box.w > 0) {
            t->polarity = VW_TEXT_BRIGHT;
            vw_text_strokes(fr, g, ref_h, t);
            return 0;
        }

        if (median < VW_TEXT_DARK_DROP || median >= VW_OCR_BRIGHT) {
            return 0;
        }
    }

    /* a light picture, or a plain one with no bright ink: dark glyphs */

    vw_text_dark(g, &t->mask, median - VW_TEXT_DARK_DROP, &ink);

    if (ink > 0
        && vw_text_lines(fr, &t->mask, ref_w, ref_h, &t->box, &t->glyph_h,
                         &t->glyphs, &t->lines, &t->comps)
           != 0)
    {
        return vw_fail(err, "no_memory", "frame: out of memory");
    }

    if (t->box.w > 0) {
        t->polarity = VW_TEXT_DARK;
    }

    return 0;
}


/*
 * A bright layer t is checked against the frames beside it in three
 * steps, so that one grey picture serves for each frame in turn:
 * vw_text_persist_begin, then vw_text_persist_add for each frame, then
 * vw_text_persist_end.  Each frame's bright ink is found over t's rows
 * (and the outline's radius above and below) and chained into lines
 * (vw_text_lines, judged by the picture's size) over t's box widened as
 * far either way as text slides (vw_look_same); the ink of t that lies
 * on them, at
 * the shift that best matches the two, goes into pt->keep.  At the
 * end, pt->keep is chained into lines, and t's ink within their box,
 * grown by two glyph heights across and one down and up (the marks
 * and short words beside a line), is chained again into t.  A glyph
 * on screen is in the frame before it or in the one after (where it
 * appears), but for a few pixels at its edges; a speck of noise comes
 * and goes, so the chain it made falls apart.  Every picture but the
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

    vw_text_bright(fr, &rows, &pt->ink, &n);

    max = w / 16;
    x0 = b.x > max ? b.x - max : 0;
    band = pt->ink;
    band.data = pt->ink.data + (size_t) (b.y - y0) * pt->ink.stride + x0;
    band.width = (b.x + b.w + max < w ? b.x + b.w + max : w) - x0;
    band.height = b.h;

    memset(&ot, 0, sizeof(vw_text_t));

    if (vw_text_lines(fr, &band, w, h, &ot.box, &ot.glyph_h, &ot.glyphs,
                      &ot.lines, &ot.comps)
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
    int        x, y, x0, y0, x1, y1, w, h, gh, glyphs, lines, comps;
    uint8_t   *ms;
    const uint8_t  *mt;
    vw_rect_t  b, k;

    w = t->mask.width;
    h = t->mask.height;
    b = t->box;
    comps = 0;

    if (pt->frames == 0) {
        return 0;                   /* nothing to tell by */
    }

    if (vw_text_lines(fr, &pt->keep, w, h, &k, &gh, &glyphs, &lines, &comps)
        != 0)
    {
        return vw_fail(err, "no_memory", "frame: out of memory");
    }

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

    /* t's ink there, chained again */

    for (y = 0; y < b.h; y++) {
        ms = pt->keep.data + (size_t) y * pt->keep.stride;
        mt = t->mask.data + (size_t) (b.y + y) * t->mask.stride + b.x;

        for (x = 0; x < b.w; x++) {
            ms[x] = (y >= y0 && y < y1 && x >= x0 && x < x1 && mt[x] != 255)
                    ? 0 : 255;
        }
    }

    if (vw_text_lines(fr, &pt->keep, w, h, &k, &gh, &glyphs, &lines, &comps)
        != 0)
    {
        return vw_fail(err, "no_memory", "frame: out of memory");
    }

    if (k.w == 0) {
        return 0;
    }

    for (y = 0; y < b.h; y++) {
        memcpy(t->mask.data + (size_t) (b.y + y) * t->mask.stride + b.x,
               pt->keep.data + (size_t) y * pt->keep.stride, (size_t) b.w);
    }

    t->box.x = b.x + k.x;
    t->box.y = b.y + k.y;
    t->box.w = k.w;
    t->box.h = k.h;
    t->glyph_h = gh;
    t->glyphs = glyphs;
    t->lines = lines;

    vw_text_strokes(fr, g, g->height, t);

    return 1;
}


void
vw_persist_free(vw_persist_t *pt)
{
    vw_image_free(&pt->keep);
    vw_image_free(&pt->ink);
}


/*
 * Bright ink: a pixel at least VW_TEXT_INK_BRIGHT with one of at most
 * VW_TEXT_OUTLINE within VW_TEXT_RADIUS (a square).  A separable
 * minimum filter: each row's window minimum first (fr->seen holds it),
 * only for the rows near a bright pixel, then the minimum of those down
 * the window for the rows that have one, taken with the ink test.  Each
 * is one pass of byte minimums over the window's 2r + 1 bytes, which
 * the compiler vectorises (not 2r passes over the row: a window clipped
 * at the picture's edges, where the passes differ, is done byte by
 * byte or with its rows repeated).
 */
static void
vw_text_bright(vw_framer_t *fr, const vw_image_t *g, vw_image_t *m,
    size_t *ink)
{
    int             x, y, k, y0, y1, w, h, r;
    size_t          n;
    uint8_t        *rmin, *row, *near, *has, *col, v;
    const uint8_t  *q;

    w = g->width;
    h = g->height;
    r = VW_TEXT_RADIUS;
    rmin = fr->seen;
    near = (uint8_t *) fr->queue;   /* h bytes: rows near a bright pixel */
    has = near + h;                 /* h bytes: rows with one */
    col = has + h;                  /* w bytes: a row's window minimum */

    n = 0;
    memset(near, 0, (size_t) h);
    memset(has, 0, (size_t) h);

    for (y = 0; y < h; y++) {
        q = g->data + (size_t) y * g->stride;

        if (vw_text_has_bright(q, (size_t) w)) {
            y0 = y - r < 0 ? 0 : y - r;
            y1 = y + r >= h ? h - 1 : y + r;
            memset(near + y0, 1, (size_t) (y1 - y0 + 1));
            has[y] = 1;

        } else {
            memset(m->data + (size_t) y * m->stride, 255, (size_t) w);
        }
    }

    for (y = 0; y < h; y++) {
        if (!near[y]) {
            continue;
        }

        q = g->data + (size_t) y * g->stride;
        row = rmin + (size_t) y * w;

        if (w > 2 * r) {
            vw_text_min_window(row + r, q, (size_t) (w - 2 * r));
        }

        for (x = 0; x < w; x++) {
            if (x == r && w > 2 * r) {
                x = w - r;
            }

            v = 255;

            for (k = x - r < 0 ? 0 : x - r; k <= x + r && k < w; k++) {
                v = q[k] < v ? q[k] : v;
            }

            row[x] = v;
        }
    }

    for (y = 0; y < h; y++) {
        if (!has[y]) {
            continue;
        }

        if (y >= r && y + r < h) {
            n += vw_text_ink(m->data + (size_t) y * m->stride,
                             g->data + (size_t) y * g->stride,
                             rmin + (size_t) (y - r) * w, (size_t) w,
                             (size_t) w);
            continue;
        }

        /* the window clipped at the top or the bottom: its minimum
         * first, then the test over it alone */

        y0 = y - r < 0 ? 0 : y - r;
        y1 = y + r >= h ? h - 1 : y + r;

        memcpy(col, rmin + (size_t) y0 * w, (size_t) w);

        for (k = y0 + 1; k <= y1; k++) {
            vw_text_min(col, rmin + (size_t) k * w, (size_t) w);
        }

        n += vw_text_ink(m->data + (size_t) y * m->stride,
                         g->data + (size_t) y * g->stride, col, 0,
                         (size_t) w);
    }

    *ink = n;
}


/* 1 if a byte of q[0..n) is at least VW_TEXT_INK_BRIGHT: 64 bytes at a
 * time, each a vectorised maximum */
static VW_VECTORISE int
vw_text_has_bright(const uint8_t *q, size_t n)
{
    size_t   i, j, e;
    uint8_t  v;

    for (i = 0; i < n; i += 64) {
        e = n - i < 64 ? n - i : 64;
        v = 0;

        for (j = 0; j < e; j++) {
            v = q[i + j] > v ? q[i + j] : v;
        }

        if (v >= VW_TEXT_INK_BRIGHT) {
            return 1;
        }
    }

    return 0;
}


/* dst[i] = the least of src[i .. i + 2 VW_TEXT_RADIUS], i < n */
static VW_VECTORISE void
vw_text_min_window(uint8_t *restrict dst, const uint8_t *restrict src,
    size_t n)
{
    size_t   i;
    int      k;
    uint8_t  v;

    for (i = 0; i < n; i++) {
        v = src[i];

        for (k = 1; k <= 2 * VW_TEXT_RADIUS; k++) {
            v = src[i + k] < v ? src[i + k] : v;
        }

        dst[i] = v;
    }
}


/* dst[i] = min(dst[i], src[i]); the buffers do not overlap */
static VW_VECTORISE void
vw_text_min(uint8_t *restrict dst, const uint8_t *restrict src, size_t n)
{
    size_t  i;

    for (i = 0; i < n; i++) {
        dst[i] = src[i] < dst[i] ? src[i] : dst[i];
    }
}


/*
 * One row of bright ink from the grey row and the window minimums of
 * the 2 VW_TEXT_RADIUS + 1 rows around it, stride bytes apart in lo (0:
 * lo is their minimum already).  Both tests are made on every byte (&,
 * not &&) and counted in an unsigned (a row is at most VW_MAX_SIDE
 * bytes): the loop vectorises so, six times faster than with a branch
 * and a count of size_t.
 */
static VW_VECTORISE size_t
vw_text_ink(uint8_t *restrict m, const uint8_t *restrict g,
    const uint8_t *restrict lo, size_t stride, size_t n)
{
    size_t    i;
    int       k;
    unsigned  ink;
    uint8_t   on, v;

    ink = 0;

    for (i = 0; i < n; i++) {
        v = lo[i];

        /* unrolled, the rows' bytes are side by side in i: vectorised */
#pragma GCC unroll 8
        for (k = 1; k <= 2 * VW_TEXT_RADIUS; k++) {
            v = lo[i + k * stride] < v ? lo[i + k * stride] : v;
        }

        on = (uint8_t) ((g[i] >= VW_TEXT_INK_BRIGHT)
                        & (v <= VW_TEXT_OUTLINE));
        m[i] = (uint8_t) (on - 1);          /* ink 0, else 255 */
        ink += on;
    }

    return ink;
}


/*
 * Marks the glyph pixels of a bright layer that are not inside a stroke
 * with the value 1 (not ink to vw_frame_same_text): a stroke has its
 * dark outline on both sides, left and right or above and below, within
 * r pixels (VW_TEXT_RADIUS, or a 180th of the height ref_h of the
 * picture g is part of, when that is more), while the light
 * background just outside an outline has it on one side only and
 * changes with the background (when that leaves less than a quarter of
 * the glyph pixels, the strokes are wider than r and all count).  The
 * layer keeps its glyphs and its box;
 * only the comparison looks at the strokes alone.  Only the box is
 * done; each side's minimum is a run of byte minimums over shifted
 * rows (fr->seen holds the four).
 */
static void
vw_text_strokes(vw_framer_t *fr, const vw_image_t *g, int ref_h, vw_text_t *t)
{
    int             x, y, k, w, h, r, x0, x1, xa, xb;
    size_t          loose, strict, bw;
    uint8_t        *lo, *ro, *up, *dn, *m, hz, vt;
    const uint8_t  *q;

    w = g->width;
    h = g->height;
    r = ref_h / 180 > VW_TEXT_RADIUS ? ref_h / 180 : VW_TEXT_RADIUS;
    loose = 0;
    strict = 0;
    lo = fr->seen;
    ro = lo + w;
    up = ro + w;
    dn = up + w;

    x0 = t->box.x;
    x1 = t->box.x + t->box.w;
    bw = (size_t) t->box.w;

    for (y = t->box.y; y < t->box.y + t->box.h; y++) {
        q = g->data + (size_t) y * g->stride;
        m = t->mask.data + (size_t) y * t->mask.stride;

        memset(lo + x0, 255, bw);
        memset(ro + x0, 255, bw);
        memset(up + x0, 255, bw);
        memset(dn + x0, 255, bw);

        for (k = 1; k <= r && k < w; k++) {
            xa = x0 > k ? x0 : k;               /* q[x - k] is in */
            xb = x1 < w - k ? x1 : w - k;       /* q[x + k] is in */

            if (xa < x1) {
                vw_text_min(lo + xa, q + xa - k, (size_t) (x1 - xa));
            }

            if (xb > x0) {
                vw_text_min(ro + x0, q + x0 + k, (size_t) (xb - x0));
            }
        }

        for (k = 1; k <= r; k++) {
            if (y - k >= 0) {
                vw_text_min(up + x0,
                            g->data + (size_t) (y - k) * g->stride + x0, bw);
            }

            if (y + k < h) {
                vw_text_min(dn + x0,
                            g->data + (size_t) (y + k) * g->stride + x0, bw);
            }
        }

        for (x = x0; x < x1; x++) {
            hz = lo[x] > ro[x] ? lo[x] : ro[x];
            vt = up[x] > dn[x] ? up[x] : dn[x];

            if (m[x] != 0) {
                continue;
            }

            loose++;

            if (hz > VW_TEXT_OUTLINE && vt > VW_TEXT_OUTLINE) {
                m[x] = 1;

            } else {
                strict++;
            }
        }
    }

    if (4 * strict >= loose) {
        return;
    }

    /* strokes wider than the radius all round (bold titles): the
     * glyphs as they are */

    for (y = t->box.y; y < t->box.y + t->box.h; y++) {
        m = t->mask.data + (size_t) y * t->mask.stride;

        for (x = t->box.x; x < t->box.x + t->box.w; x++) {
            m[x] = m[x] == 1 ? 0 : m[x];
        }
    }
}


static void
vw_text_dark(const vw_image_t *g, vw_image_t *m, int level, size_t *ink)
{
    int  y;

    *ink = 0;

    for (y = 0; y < g->height; y++) {
        *ink += vw_text_dark_row(m->data + (size_t) y * m->stride,
                                 g->data + (size_t) y * g->stride,
                                 level, (size_t) g->width);
    }
}


/*
 * One row of dark ink.  The count is a local unsigned, not *ink: a
 * store to m may alias a count behind a pointer, which kept the loop
 * scalar (an eighth of the worker's own CPU on a 1080p slide video).
 */
static VW_VECTORISE size_t
vw_text_dark_row(uint8_t *restrict m, const uint8_t *restrict g, int level,
    size_t n)
{
    size_t    i;
    unsigned  ink;
    uint8_t   on;

    ink = 0;

    for (i = 0; i < n; i++) {
        on = (uint8_t) (g[i] <= level);
        m[i] = (uint8_t) (on - 1);          /* ink 0, else 255 */
        ink += on;
    }

    return ink;
}


/*
 * Keeps the ink that lines up into text: components that cannot be
 * glyphs go first (vw_frame_blobs); of the rest, those at least
 * VW_TEXT_MIN_HEIGHT pixels and 1/VW_TEXT_MIN_HEIGHT_PART of the
 * picture tall are chained to their neighbours on the same line
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
static int
vw_text_lines(vw_framer_t *fr, vw_image_t *m, int ref_w, int ref_h,
    vw_rect_t *box, int *glyph_h, int *glyphs, int *lines, int *comps)
{
    int         rc, h, lh, ov, gap, ra, rb, near, x0, y0, x1, y1, minh;
    int         bottom;
    size_t      i, j, k, n, ntall, nline, sum;
    uint32_t   *tall, *line;
    vw_comp_t  *c, *d, *l;

    memset(box, 0, sizeof(vw_rect_t));
    *lines = 0;

    minh = vw_text_least_height(ref_h);

    fr->keep_comps = 1;
    rc = vw_frame_blobs(fr, m, ref_w, ref_h, VW_TEXT_MIN_PIXELS, 0, NULL);
    fr->keep_comps = 0;

    if (rc != 0) {
        return -1;
    }

    n = fr->ncomps;
    c = fr->comps;

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

            if (2 * ov < (lh < h ? lh : h)
                || 2 * gap > 3 * (lh > h ? lh : h)
                || 2 * (lh > h ? lh : h) > 5 * (lh < h ? lh : h))
            {
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
                || 100 * (int64_t) c[i].pixels < (int64_t) lh * lh)
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
vw_frame_same_text(const vw_image_t *a, const vw_text_t *ta,
    const vw_image_t *b, const vw_text_t *tb, int dx, int *diff)
{
    int        bx, by, worst, score, x0, y0, x1, y1, bx0, bx1, bad, inked;
    int        run, longest, far, farthest, col, glyph, steady, i;
    vw_glyph_scan_t  g;
    vw_cells_t       cells;
    vw_rect_t  u;

    worst = 0;
    bad = 0;
    inked = 0;
    run = 0;
    longest = 0;
    far = 0;
    farthest = 0;
    glyph = 0;
    steady = vw_text_steady(ta, tb, dx);
    vw_text_glyph_start(&g, ta->glyph_h > 0 ? ta->glyph_h : tb->glyph_h);

    if (a->width != b->width || a->height != b->height) {
        worst = 255;
        goto done;
    }

    if (ta->box.w == 0 && tb->box.w == 0) {
        goto done;                          /* no text in either */
    }

    if (ta->box.w == 0) {
        worst = 255;                        /* text where there was none */
        goto done;
    }

    if (a->width < VW_SIMILAR_BLOCK || a->height < VW_SIMILAR_BLOCK) {
        return vw_frame_similar(a, b, diff);
    }

    /* the blocks that cover both boxes (b's moved by -dx into a's
     * place), aligned inside the picture */

    bx0 = tb->box.x - dx;
    bx1 = tb->box.x + tb->box.w - dx;

    x0 = ta->box.w == 0 ? bx0
         : tb->box.w == 0 ? ta->box.x
         : (ta->box.x < bx0 ? ta->box.x : bx0);
    y0 = ta->box.w == 0 ? tb->box.y
         : tb->box.w == 0 ? ta->box.y
         : (ta->box.y < tb->box.y ? ta->box.y : tb->box.y);
    x1 = tb->box.w == 0 ? ta->box.x + ta->box.w
         : ta->box.w == 0 ? bx1
         : (ta->box.x + ta->box.w > bx1 ? ta->box.x + ta->box.w : bx1);
    y1 = ta->box.y + ta->box.h > tb->box.y + tb->box.h
         ? ta->box.y + ta->box.h : tb->box.y + tb->box.h;

    x0 = x0 < 0 ? 0 : x0;
    x1 = x1 > a->width ? a->width : x1;

    u.x = x0;
    u.y = y0;
    u.w = x1 - x0 < VW_SIMILAR_BLOCK ? VW_SIMILAR_BLOCK : x1 - x0;
    u.h = y1 - y0 < VW_SIMILAR_BLOCK ? VW_SIMILAR_BLOCK : y1 - y0;
    u.x = u.x + u.w > a->width ? a->width - u.w : u.x;
    u.y = u.y + u.h > a->height ? a->height - u.h : u.y;

    cells.a = a;
    cells.ma = &ta->mask;
    cells.b = b;
    cells.mb = &tb->mask;
    cells.u = u;
    cells.dx = dx;
    cells.ncells = u.w / VW_SIMILAR_CELL;

    for (i = 0; i < VW_TEXT_BLOCK_CELLS; i++) {
        cells.y[i] = -1;
    }

    for (by = u.y; ; by += VW_SIMILAR_BLOCK / 2) {
        if (by > u.y + u.h - VW_SIMILAR_BLOCK) {
            by = u.y + u.h - VW_SIMILAR_BLOCK;
        }

        run = 0;
        far = 0;
        col = 0;

        for (bx = u.x; ; bx += VW_SIMILAR_BLOCK / 2) {
            if (bx > u.x + u.w - VW_SIMILAR_BLOCK) {
                bx = u.x + u.w - VW_SIMILAR_BLOCK;
            }

            score = vw_text_cells_block(&cells, bx, by);
            worst = score > worst ? score : worst;
            bad += score >= VW_TEXT_MAX_DIFF;
            inked += score >= 0;

            /* a word that changed: blocks side by side that all differ
             * (a block with no ink says nothing either way) */
            run = score >= VW_TEXT_MAX_DIFF ? run + 1 : score >= 0 ? 0 : run;
            longest = run > longest ? run : longest;

            /* a glyph that changed: two blocks side by side far apart */
            far = score >= VW_TEXT_FAR_DIFF ? far + 1 : score >= 0 ? 0 : far;
            farthest = far > farthest ? far : farthest;

            if (col < VW_TEXT_MAX_COLUMNS) {
                g.here[col++] = (int16_t) (score > 0 ? score : 0);
            }

            if (bx == u.x + u.w - VW_SIMILAR_BLOCK) {
                break;
            }
        }

        /* a glyph that changed among glyphs that did not ("line 031"
         * to "line 032"): the blocks over it differ together */
        glyph |= steady && vw_text_glyph_row(&g, col);

        if (by == u.y + u.h - VW_SIMILAR_BLOCK) {
            break;
        }
    }

done:

    if (diff != NULL) {
        *diff = worst;
    }

    if (worst == 255) {
        return 0;
    }

    return longest < VW_TEXT_BAD_RUN && farthest < VW_TEXT_FAR_RUN
           && !glyph
           && (bad < VW_TEXT_BAD_BLOCKS
               || 100 * bad < VW_TEXT_BAD_PART * inked);
}


/*
 * The glyph test of vw_frame_same_text is made only between two layers
 * that agree where the text is and what it is made of: as many glyphs,
 * on the same rows (to VW_TEXT_STEADY_PX), the ends of their boxes and
 * the shift they are compared at each within half a glyph's height (a
 * letter of another width moves a centred line's ends by that much:
 * "gate H" to "gate J", 8 pixels at 23-pixel glyphs; a ticker slides
 * by more from look to look).  A glyph that changes for another leaves
 * them so; noise that eats or adds pieces of glyphs does not, and over
 * such layers the patches where they disagree can differ as much as a
 * changed glyph does (93-113 on average over 2 x 2 blocks, a caption
 * over moving noise at 720p), so the other rules judge them.
 */
static int
vw_text_steady(const vw_text_t *ta, const vw_text_t *tb, int dx)
{
    int  half;

    half = ta->glyph_h / 2 > VW_TEXT_STEADY_PX ? ta->glyph_h / 2
                                               : VW_TEXT_STEADY_PX;

    return ta->glyphs == tb->glyphs && abs(dx) <= half
           && abs(ta->box.x - tb->box.x) <= half
           && abs(ta->box.x + ta->box.w - tb->box.x - tb->box.w) <= half
           && abs(ta->box.y - tb->box.y) <= VW_TEXT_STEADY_PX
           && abs(ta->box.h - tb->box.h) <= VW_TEXT_STEADY_PX;
}


/*
 * The glyph test of vw_frame_same_text: a square of blocks, two thirds
 * of a glyph's height a side (at least 2 x 2), that differ by
 * VW_TEXT_GLYPH_DIFF on average, blocks without ink counting 0.  Over
 * a noisy or moving background the text's own blocks differ in patches
 * smaller than a glyph (a thick outline's edge), and by a third of that
 * on average at most (docs/worker-pipeline.md); a glyph that changed
 * differs all over.  The rows of scores are kept in a ring of k, and
 * each column's sum over them.
 */
static void
vw_text_glyph_start(vw_glyph_scan_t *g, int glyph_h)
{
    g->k = glyph_h * 2 / 3 / (VW_SIMILAR_BLOCK / 2);
    g->k = g->k < 2 ? 2 : (g->k > VW_TEXT_GLYPH_ROWS ? VW_TEXT_GLYPH_ROWS
                                                     : g->k);
    g->rows = 0;
    memset(g->sum, 0, sizeof(g->sum));
}


/* Takes in the row of ncols scores in g->here: 1 if a square differs. */
static int
vw_text_glyph_row(vw_glyph_scan_t *g, int ncols)
{
    int       c, found;
    int16_t  *old;
    int32_t   window, need;

    old = g->ring[g->rows % g->k];

    /* every row of one comparison has the same ncols */

    for (c = 0; c < ncols; c++) {
        if (g->rows >= g->k) {
            g->sum[c] -= old[c];
        }

        old[c] = g->here[c];
        g->sum[c] += old[c];
    }

    g->rows++;

    if (g->rows < g->k || ncols < g->k) {
        return 0;
    }

    need = (int32_t) g->k * g->k * VW_TEXT_GLYPH_DIFF;
    window = 0;
    found = 0;

    for (c = 0; c < ncols; c++) {
        window += g->sum[c] - (c >= g->k ? g->sum[c - g->k] : 0);
        found |= c >= g->k - 1 && window >= need;
    }

    return found;
}


/*
 * The score of the block at bx, by: vw_frame_block_diff over the pixels
 * that are ink in either mask, b's taken dx to the right (clamped to the
 * picture), per pixel of ink, so that thin strokes count as much as
 * thick; -1 for a block with a few ink pixels (a speck, a corner: it
 * says nothing).  Its cells come from the ring, each read once for the
 * four blocks it is in; a block off the cells' grid (the last of a row
 * or column, moved back into the area) or past the cells a row holds
 * has its own read.
 */
static int
vw_text_cells_block(vw_cells_t *c, int bx, int by)
{
    int       kx, ky, k, j, row, n, m;
    unsigned  sum;

    kx = (bx - c->u.x) / VW_SIMILAR_CELL;
    ky = (by - c->u.y) / VW_SIMILAR_CELL;
    sum = 0;
    n = 0;

    if ((bx - c->u.x) % VW_SIMILAR_CELL != 0
        || (by - c->u.y) % VW_SIMILAR_CELL != 0
        || kx + VW_TEXT_BLOCK_CELLS > VW_TEXT_CELLS)
    {
        for (k = 0; k < VW_TEXT_BLOCK_CELLS; k++) {
            for (j = 0; j < VW_TEXT_BLOCK_CELLS; j++) {
                sum += vw_text_cell(c, bx + j * VW_SIMILAR_CELL,
                                    by + k * VW_SIMILAR_CELL, &m);
                n += m;
            }
        }

    } else {
        for (k = 0; k < VW_TEXT_BLOCK_CELLS; k++) {
            row = (ky + k) % VW_TEXT_BLOCK_CELLS;

            if (c->y[row] != by + k * VW_SIMILAR_CELL) {
                vw_text_cells_row(c, row, by + k * VW_SIMILAR_CELL);
            }

            sum += c->diff[row][kx];
            n += c->n[row][kx];
        }
    }

    return n < VW_TEXT_BLOCK_INK ? -1 : (int) (sum / (unsigned) n);
}


/*
 * The row of cells with its top at y, into slot row of the ring: what
 * vw_text_cell gives each, summed a pixel row at a time into the
 * columns (c->col, c->coln), then four columns to a cell.  Where b's
 * pixels, dx to the right, lie inside b (all but a few columns at the
 * edges) the loop over a row vectorises; a cell at a time it did not.
 */
static void
vw_text_cells_row(vw_cells_t *c, int row, int y)
{
    int             k, x, xb, yy, ncells, nx, lo, hi, s, n, wb;
    const uint8_t  *pa, *pb, *qa, *qb;

    ncells = c->ncells < VW_TEXT_CELLS ? c->ncells : VW_TEXT_CELLS;
    nx = ncells * VW_SIMILAR_CELL;
    wb = c->b->width;

    /* columns [lo, hi) have b's pixel dx to the right inside b */
    lo = -c->dx - c->u.x;
    lo = lo < 0 ? 0 : (lo > nx ? nx : lo);
    hi = wb - c->dx - c->u.x;
    hi = hi < lo ? lo : (hi > nx ? nx : hi);

    memset(c->col, 0, (size_t) nx * sizeof(int16_t));
    memset(c->coln, 0, (size_t) nx);

    for (yy = y; yy < y + VW_SIMILAR_CELL; yy++) {
        pa = c->a->data + (size_t) yy * c->a->stride + c->u.x;
        qa = c->ma->data + (size_t) yy * c->ma->stride + c->u.x;
        pb = c->b->data + (size_t) yy * c->b->stride;
        qb = c->mb->data + (size_t) yy * c->mb->stride;

        for (x = 0; x < nx; x++) {
            if (x == lo) {
                x = hi;
                if (x == nx) {
                    break;
                }
            }

            xb = c->u.x + x + c->dx;
            xb = xb < 0 ? 0 : (xb >= wb ? wb - 1 : xb);

            if ((qa[x] & qb[xb]) == 0) {
                c->col[x] = (int16_t) (c->col[x] + pa[x] - pb[xb]);
                c->coln[x]++;
            }
        }

        if (hi > lo) {
            xb = c->u.x + lo + c->dx;
            vw_text_cells_px(c->col + lo, c->coln + lo, pa + lo, qa + lo,
                             pb + xb, qb + xb, hi - lo);
        }
    }

    for (k = 0; k < ncells; k++) {
        s = 0;
        n = 0;

        for (x = k * VW_SIMILAR_CELL; x < (k + 1) * VW_SIMILAR_CELL; x++) {
            s += c->col[x];
            n += c->coln[x];
        }

        c->diff[row][k] = (uint16_t) abs(s);
        c->n[row][k] = (uint8_t) n;
    }

    /* each cell with those to its right that make a block's row (at
     * most 4 x 16 x 255 and 64 pixels: the types hold them) */

    for (k = 0; k + VW_TEXT_BLOCK_CELLS <= ncells; k++) {
        for (x = k + 1; x < k + VW_TEXT_BLOCK_CELLS; x++) {
            c->diff[row][k] = (uint16_t) (c->diff[row][k] + c->diff[row][x]);
            c->n[row][k] = (uint8_t) (c->n[row][k] + c->n[row][x]);
        }
    }

    c->y[row] = y;
}


/* n columns of a pixel row of cells: a's pixel less b's where either
 * mask has ink (a mask of the test, no branch: it vectorises) */
static VW_VECTORISE void
vw_text_cells_px(int16_t *restrict col, uint8_t *restrict coln,
    const uint8_t *restrict pa, const uint8_t *restrict qa,
    const uint8_t *restrict pb, const uint8_t *restrict qb, int n)
{
    int      x;
    uint8_t  on, all;

    for (x = 0; x < n; x++) {
        on = (uint8_t) ((qa[x] & qb[x]) == 0);
        all = (uint8_t) -on;
        col[x] = (int16_t) (col[x] + (pa[x] & all) - (pb[x] & all));
        coln[x] = (uint8_t) (coln[x] + on);
    }
}


/* One cell at x0, y0: the difference of the two pictures' sums over
 * the pixels that are ink in either mask, and in *n how many. */
static unsigned
vw_text_cell(const vw_cells_t *c, int x0, int y0, int *n)
{
    int             x, y, xb, sa, sb;
    const uint8_t  *pa, *pb, *qa, *qb;

    sa = 0;
    sb = 0;
    *n = 0;

    for (y = y0; y < y0 + VW_SIMILAR_CELL; y++) {
        pa = c->a->data + (size_t) y * c->a->stride;
        pb = c->b->data + (size_t) y * c->b->stride;
        qa = c->ma->data + (size_t) y * c->ma->stride;
        qb = c->mb->data + (size_t) y * c->mb->stride;

        for (x = x0; x < x0 + VW_SIMILAR_CELL; x++) {
            xb = x + c->dx;
            xb = xb < 0 ? 0 : (xb >= c->b->width ? c->b->width - 1 : xb);

            if ((qa[x] & qb[xb]) == 0) {
                sa += pa[x];
                sb += pb[xb];
                (*n)++;
            }
        }
    }

    return (unsigned) abs(sa - sb);
}


int
vw_text_least_height(int ref_h)
{
    return ref_h / VW_TEXT_MIN_HEIGHT_PART > VW_TEXT_MIN_HEIGHT
           ? ref_h / VW_TEXT_MIN_HEIGHT_PART : VW_TEXT_MIN_HEIGHT;
}


/*
 * How far b's glyphs lie to the right of a's: the shift of at most
 * max pixels either way that best matches the two masks' column counts
 * of ink, over the rows of both boxes.  0 when either has no glyph.
 */
int
vw_text_shift(const vw_text_t *ta, const vw_text_t *tb, int max,
    vw_framer_t *fr)
{
    int        x, y, y0, y1, x0, x1, d, best, w;
    int64_t    cost, least;
    uint32_t  *ca, *cb;
    const uint8_t  *q;

    if (ta->box.w == 0 || tb->box.w == 0 || ta->mask.width != tb->mask.width
        || vw_framer_work(fr, 2 * (size_t) ta->mask.width) != 0)
    {
        return 0;
    }

    w = ta->mask.width;
    ca = fr->queue;
    cb = ca + w;
    y0 = ta->box.y < tb->box.y ? ta->box.y : tb->box.y;
    y1 = ta->box.y + ta->box.h > tb->box.y + tb->box.h
         ? ta->box.y + ta->box.h : tb->box.y + tb->box.h;

    memset(ca, 0, 2 * (size_t) w * sizeof(uint32_t));

    for (y = y0; y < y1; y++) {
        q = ta->mask.data + (size_t) y * ta->mask.stride;
        for (x = ta->box.x; x < ta->box.x + ta->box.w; x++) {
            ca[x] += q[x] == 0;
        }

        q = tb->mask.data + (size_t) y * tb->mask.stride;
        for (x = tb->box.x; x < tb->box.x + tb->box.w; x++) {
            cb[x] += q[x] == 0;
        }
    }

    best = 0;
    least = -1;

    for (d = -max; d <= max; d++) {
        /* columns [x0, x1) have x + d inside */
        x0 = d < 0 ? -d : 0;
        x0 = x0 < w ? x0 : w;
        x1 = d > 0 ? w - d : w;
        x1 = x1 > x0 ? x1 : x0;

        cost = vw_text_shift_cost(ca + x0, cb + x0 + d, x1 - x0);

        for (x = 0; x < x0; x++) {
            cost += ca[x];
        }

        for (x = x1; x < w; x++) {
            cost += ca[x];
        }

        if (least < 0 || cost < least || (cost == least && abs(d) < abs(best)))
        {
            least = cost;
            best = d;
        }
    }

    return best;
}


/*
 * The sum of |a[x] - b[x]|, x < n: column counts of ink, each at most a
 * picture's height, over at most its width (VW_MAX_SIDE squared is
 * 2^28: a uint32_t holds it), so the loop vectorises.
 */
static VW_VECTORISE int64_t
vw_text_shift_cost(const uint32_t *restrict a, const uint32_t *restrict b,
    int n)
{
    int       x;
    uint32_t  sum;

    sum = 0;

    for (x = 0; x < n; x++) {
        sum += a[x] > b[x] ? a[x] - b[x] : b[x] - a[x];
    }

    return sum;
}
