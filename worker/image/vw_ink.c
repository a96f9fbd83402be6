/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The ink of a grey picture, the first step of its text layer (see
 * vw_text.c): bright ink (light glyphs with a dark outline, shadow or
 * box), dark ink (dark glyphs on a light or plain picture), and the
 * strokes of bright ink that comparisons count.
 */

#include <stdlib.h>
#include <string.h>

#include "vw_image_int.h"


static VW_VECTORISE int vw_ink_has_bright(const uint8_t *q, size_t n);
static VW_VECTORISE void vw_ink_min_window(uint8_t *restrict dst,
    const uint8_t *restrict src, size_t n);
static VW_VECTORISE size_t vw_ink_row(uint8_t *restrict m,
    const uint8_t *restrict g, const uint8_t *restrict lo, size_t stride,
    size_t n);
static VW_VECTORISE size_t vw_ink_dark_row(uint8_t *restrict m,
    const uint8_t *restrict g, int level, size_t n);


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
void
vw_ink_bright(vw_framer_t *fr, const vw_image_t *g, vw_image_t *m,
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

        if (vw_ink_has_bright(q, (size_t) w)) {
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
            vw_ink_min_window(row + r, q, (size_t) (w - 2 * r));
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
            n += vw_ink_row(m->data + (size_t) y * m->stride,
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
            vw_ink_min(col, rmin + (size_t) k * w, (size_t) w);
        }

        n += vw_ink_row(m->data + (size_t) y * m->stride,
                         g->data + (size_t) y * g->stride, col, 0,
                         (size_t) w);
    }

    *ink = n;
}


/* 1 if a byte of q[0..n) is at least VW_TEXT_INK_BRIGHT: 64 bytes at a
 * time, each a vectorised maximum */
static VW_VECTORISE int
vw_ink_has_bright(const uint8_t *q, size_t n)
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
vw_ink_min_window(uint8_t *restrict dst, const uint8_t *restrict src,
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


VW_VECTORISE void
vw_ink_min(uint8_t *restrict dst, const uint8_t *restrict src, size_t n)
{
    size_t  i;

    for (i = 0; i < n; i++) {
        dst[i] = src[i] < dst[i] ? src[i] : dst[i];
    }
}


VW_VECTORISE void
vw_ink_max(uint8_t *restrict dst, const uint8_t *restrict src, size_t n)
{
    size_t  i;

    for (i = 0; i < n; i++) {
        dst[i] = src[i] > dst[i] ? src[i] : dst[i];
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
vw_ink_row(uint8_t *restrict m, const uint8_t *restrict g,
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
 * with the value 1 (not ink to vw_text_same): a stroke has its
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
void
vw_ink_strokes(vw_framer_t *fr, const vw_image_t *g, int ref_h, vw_text_t *t)
{
    int             x, y, k, w, h, r, x0, x1, xa, xb;
    size_t          loose, strict, bw;
    uint8_t        *lo, *ro, *up, *dn, *m, hz, vt;
    const uint8_t  *q;

    w = g->width;
    h = g->height;
    r = ref_h / VW_TEXT_STROKE_PART > VW_TEXT_RADIUS
        ? ref_h / VW_TEXT_STROKE_PART : VW_TEXT_RADIUS;
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
                vw_ink_min(lo + xa, q + xa - k, (size_t) (x1 - xa));
            }

            if (xb > x0) {
                vw_ink_min(ro + x0, q + x0 + k, (size_t) (xb - x0));
            }
        }

        for (k = 1; k <= r; k++) {
            if (y - k >= 0) {
                vw_ink_min(up + x0,
                            g->data + (size_t) (y - k) * g->stride + x0, bw);
            }

            if (y + k < h) {
                vw_ink_min(dn + x0,
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

    if (VW_TEXT_STROKE_SHARE * strict >= loose) {
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


void
vw_ink_dark(const vw_image_t *g, vw_image_t *m, int level, size_t *ink)
{
    int  y;

    *ink = 0;

    for (y = 0; y < g->height; y++) {
        *ink += vw_ink_dark_row(m->data + (size_t) y * m->stride,
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
vw_ink_dark_row(uint8_t *restrict m, const uint8_t *restrict g, int level,
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
