/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Letterbox and pillarbox bars: the picture a frame shows inside the
 * plain black bars at its edges (a 16:9 film in a vertical 720x1280
 * frame, a 4:3 one in a 16:9 frame).  The text layer's rules judge the
 * picture, not the frame: its median and share of light pixels (two
 * thirds of a letterboxed vertical frame are black), and the sizes that
 * are parts of the picture (vw_prep_blobs, the strokes' outline).
 *
 * A bar is the run of rows (columns) from an edge of which at least
 * 1 - 1/VW_BARS_LIGHT_PART of the pixels are at most VW_BARS_LEVEL: a
 * subtitle set in the bar (a few bright pixels a row, its outline dark)
 * does not end it.  Bars count when they are a pair, each at least
 * 1/VW_BARS_MIN_PART of the frame's side, about as thick as each other
 * (within a quarter of the thicker: a picture in the middle, a subtitle
 * line in one of them aside), around a picture of at least
 * 1/VW_BARS_PIC_PART of the side: white credits on black, whose dark
 * rows lie around a few lines of text, are no picture in bars.
 *
 * The cost follows the bars: a picture without them is told by its
 * first and last rows and columns.
 */

#include "vw_image_int.h"


static int vw_bars_pair(int a, int b, int n);
static int vw_bars_run(const vw_image_t *g, int horizontal, int from,
    int step, int lo, int hi);
static VW_VECTORISE size_t vw_bars_dark(const uint8_t *q, size_t n);


void
vw_bars_find(const vw_image_t *g, vw_rect_t *pic)
{
    int  a, b;

    pic->x = 0;
    pic->y = 0;
    pic->w = g->width;
    pic->h = g->height;

    /* letterbox: rows above and below */

    a = vw_bars_run(g, 1, 0, 1, 0, g->width);
    b = a > 0 ? vw_bars_run(g, 1, g->height - 1, -1, 0, g->width) : 0;

    if (vw_bars_pair(a, b, g->height)) {
        pic->y = a;
        pic->h = g->height - a - b;
    }

    /* pillarbox: columns left and right, over the picture's rows */

    a = vw_bars_run(g, 0, 0, 1, pic->y, pic->y + pic->h);
    b = a > 0 ? vw_bars_run(g, 0, g->width - 1, -1, pic->y, pic->y + pic->h)
              : 0;

    if (vw_bars_pair(a, b, g->width)) {
        pic->x = a;
        pic->w = g->width - a - b;
    }
}


/* 1 if bars a and b thick at the two ends of a side n pixels long
 * frame a picture (see the top of this file) */
static int
vw_bars_pair(int a, int b, int n)
{
    int  thick;

    thick = a > b ? a : b;

    return VW_BARS_MIN_PART * a >= n && VW_BARS_MIN_PART * b >= n
           && 4 * (thick - (a < b ? a : b)) <= thick
           && VW_BARS_PIC_PART * (n - a - b) >= n;
}


/*
 * How many rows (horizontal) or columns from the one at from, going by
 * step, are dark enough for a bar: their pixels lo..hi-1 (columns of a
 * row, rows of a column) at most a 1/VW_BARS_LIGHT_PART lighter than
 * VW_BARS_LEVEL.  At most half the side.
 */
static int
vw_bars_run(const vw_image_t *g, int horizontal, int from, int step, int lo,
    int hi)
{
    int             i, k, n, side, light;
    size_t          dark;
    const uint8_t  *q;

    side = horizontal ? g->height : g->width;
    n = hi - lo;

    if (n <= 0) {
        return 0;
    }

    for (i = 0; i < side / 2; i++) {
        if (horizontal) {
            dark = vw_bars_dark(g->data + (size_t) (from + step * i)
                                * g->stride + lo, (size_t) n);

        } else {
            q = g->data + (size_t) lo * g->stride + from + step * i;
            dark = 0;

            for (k = 0; k < n; k++) {
                dark += q[(size_t) k * g->stride] <= VW_BARS_LEVEL;
            }
        }

        light = n - (int) dark;

        if (VW_BARS_LIGHT_PART * light > n) {
            break;
        }
    }

    return i;
}


static VW_VECTORISE size_t
vw_bars_dark(const uint8_t *q, size_t n)
{
    size_t    i;
    unsigned  dark;

    dark = 0;

    for (i = 0; i < n; i++) {
        dark += q[i] <= VW_BARS_LEVEL;
    }

    return dark;
}
