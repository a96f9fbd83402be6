/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * A grey picture prepared for Tesseract (see vw_prep.h; the measurements
 * behind each choice are in docs/worker-pipeline.md):
 *
 *   - scale: pictures from videos at most VW_PREP_UPSCALE_HEIGHT lines
 *     tall are upscaled 2x (bicubic); their subtitle glyphs are 10-20
 *     pixels high, below what Tesseract reads best.  Not when their
 *     glyphs are taller than VW_PREP_UPSCALE_GLYPH_MAX: Tesseract reads
 *     worse again at twice that (a Chinese line at 480p).  Glyphs
 *     less than VW_PREP_SMALL_GLYPH tall are upscaled at any size;
 *   - polarity: burned-in subtitles are light glyphs with a dark
 *     outline, shadow or box.  Unless most of the picture is at least
 *     VW_PREP_INK_LEVEL (a light picture, where dark text is to be
 *     expected), the picture is binarised: pixels at least that bright
 *     become black ink on white paper, everything else paper, and ink
 *     that cannot be glyphs is removed (vw_prep_blobs).  Whatever
 *     the background does around the text, the outline keeps it apart.
 *     A light picture goes to Tesseract in grey, for its own (Otsu)
 *     thresholding.  The caller may retry a binarised picture in grey
 *     when the result is poor (coloured or dark text on a dark picture).
 */

#include <stdlib.h>
#include <string.h>

#include <libswscale/swscale.h>

#include "vw_image_int.h"


/* vw_prep_blobs: a black pixel of a component that stays, while the
 * picture is searched (not 0, so the search passes it) */
#define VW_BLOB_KEPT  1

/* and where a pixel is, in its queue: x and y in 16 bits each (no
 * division to take them apart); the pictures it is given are at most
 * VW_MAX_SIDE a side, twice that when upscaled for OCR */
#define VW_BLOB_SIDE  0xffff
#define VW_BLOB_AT(x, y)  ((uint32_t) (y) << 16 | (uint32_t) (x))
#define VW_BLOB_X(pos)    ((int) ((pos) & 0xffff))
#define VW_BLOB_Y(pos)    ((int) ((pos) >> 16))


static int vw_prep_line_level(const vw_image_t *in, const vw_rect_t *r,
    const vw_image_t *mask, int mx, int my, int polarity);
static int vw_prep_scaled(vw_framer_t *fr, const vw_image_t *part,
    int scale, vw_image_t *out, vw_err_t *err);
static int vw_prep_blobs_run(vw_image_t *img, int x, int y,
    uint32_t *queue, size_t *tail, int *first);
static void vw_prep_blobs_paint(vw_image_t *img, const uint32_t *queue,
    size_t n, uint8_t v);


int
vw_prep_scale(int height, int glyph_h)
{
    if (glyph_h < VW_PREP_SMALL_GLYPH) {
        return 2;
    }

    return height <= VW_PREP_UPSCALE_HEIGHT
           && glyph_h <= VW_PREP_UPSCALE_GLYPH_MAX ? 2 : 1;
}


int
vw_prep_small(int glyph_h)
{
    return glyph_h < VW_PREP_SMALL_GLYPH;
}


int
vw_prep_for_ocr(vw_framer_t *fr, const vw_image_t *in, const vw_rect_t *r,
    int scale, int mode, vw_image_t *out, int *chosen, vw_err_t *err)
{
    vw_image_t  part;

    /* a view of the part: never freed nor resized */

    part = *in;
    part.cap = 0;

    if (r != NULL) {
        part.data = in->data + (size_t) r->y * in->stride + r->x;
        part.width = r->w;
        part.height = r->h;
    }

    return vw_prep_for_ocr_part(fr, &part, in->width, in->height,
                                 r != NULL, scale, mode, out, chosen, err);
}


int
vw_prep_for_ocr_part(vw_framer_t *fr, const vw_image_t *in, int ref_w,
    int ref_h, int border, int scale, int mode, vw_image_t *out, int *chosen,
    vw_err_t *err)
{
    int              x, y;
    uint8_t         *p;
    uint64_t         bright;
    vw_image_t       part;
    const uint8_t   *q;

    part = *in;

    if (mode == VW_PREP_AUTO) {
        /* a light picture: dark text is to be expected, keep it grey */

        bright = 0;

        for (y = 0; y < part.height; y++) {
            q = part.data + (size_t) y * part.stride;

            for (x = 0; x < part.width; x++) {
                bright += q[x] >= VW_PREP_INK_LEVEL;
            }
        }

        mode = 2 * bright > (uint64_t) part.width * part.height
               ? VW_PREP_GREY : VW_PREP_BRIGHT;
    }

    *chosen = mode;

    scale = scale > 1 ? 2 : 1;

    if (vw_prep_scaled(fr, &part, scale, out, err) != 0) {
        return -1;
    }

    if (mode != VW_PREP_BRIGHT) {
        return 0;
    }

    /* bright pixels become black ink on white paper */

    for (y = 0; y < out->height; y++) {
        p = out->data + (size_t) y * out->stride;

        for (x = 0; x < out->width; x++) {
            p[x] = p[x] >= VW_PREP_INK_LEVEL ? 0 : 255;
        }
    }

    /* what cannot be a glyph of the whole picture goes, and in a part,
     * what the cut went through */

    if (vw_prep_blobs(fr, out, ref_w * scale, ref_h * scale, 1, border,
                       NULL)
        != 0)
    {
        return vw_fail(err, "no_memory", "frame: out of memory");
    }

    return 0;
}


/*
 * A line of text prepared for Tesseract, its threshold its own: the
 * part r of picture in (a part of a ref_w x ref_h picture, whose text
 * layer's mask is mask, in's top left corner at mx, my in it), scaled
 * scale times (1 to VW_PREP_SCALE_MAX), its ink (of the polarity
 * given) black on white paper.  The threshold lies halfway between the
 * level of the line's ink (the median over the mask's glyph pixels in
 * r) and that of what surrounds it (the median of the others): light
 * text barely lighter than its picture, orange lettering on black and
 * black capitals on an orange bar are each cut at their own level,
 * where one level for all cuts some of them in pieces or not at all.
 * What cannot be glyphs is removed as for a region (vw_prep_blobs),
 * and what touches the edge of r.  VW_PREP_GREY: r scaled, as it is
 * (small outlined glyphs whose one-pixel fill no level keeps whole).
 */
int
vw_prep_line(vw_framer_t *fr, const vw_image_t *in, const vw_rect_t *r,
    const vw_image_t *mask, int mx, int my, int polarity, int ref_w,
    int ref_h, int scale, vw_image_t *out, vw_err_t *err)
{
    int          x, y, level;
    uint8_t     *p;
    vw_image_t   part;

    part = *in;
    part.cap = 0;
    part.data = in->data + (size_t) r->y * in->stride + r->x;
    part.width = r->w;
    part.height = r->h;

    scale = scale < 1 ? 1 : scale > VW_PREP_SCALE_MAX ? VW_PREP_SCALE_MAX
                                                      : scale;

    if (vw_prep_scaled(fr, &part, scale, out, err) != 0) {
        return -1;
    }

    if (polarity == VW_PREP_GREY) {
        return 0;
    }

    level = vw_prep_line_level(in, r, mask, mx, my, polarity);

    for (y = 0; y < out->height; y++) {
        p = out->data + (size_t) y * out->stride;

        if (polarity == VW_PREP_DARK) {
            for (x = 0; x < out->width; x++) {
                p[x] = p[x] <= level ? 0 : 255;
            }

        } else {
            for (x = 0; x < out->width; x++) {
                p[x] = p[x] >= level ? 0 : 255;
            }
        }
    }

    if (vw_prep_blobs(fr, out, ref_w * scale, ref_h * scale, 1, 1, NULL)
        != 0)
    {
        return vw_fail(err, "no_memory", "frame: out of memory");
    }

    return 0;
}


/*
 * The threshold of vw_prep_line: halfway between the median of the
 * mask's glyph pixels in part r of in and the median of the others;
 * the fixed level of the polarity when either has none.
 */
static int
vw_prep_line_level(const vw_image_t *in, const vw_rect_t *r,
    const vw_image_t *mask, int mx, int my, int polarity)
{
    int              x, y;
    uint32_t         hin[256], hout[256], nin, nout;
    const uint8_t   *q, *m;

    memset(hin, 0, sizeof(hin));
    memset(hout, 0, sizeof(hout));
    nin = 0;
    nout = 0;

    for (y = r->y; y < r->y + r->h; y++) {
        q = in->data + (size_t) y * in->stride;

        if (y + my < 0 || y + my >= mask->height) {
            continue;
        }

        m = mask->data + (size_t) (y + my) * mask->stride + mx;

        for (x = r->x; x < r->x + r->w; x++) {
            if (x + mx < 0 || x + mx >= mask->width) {
                continue;
            }

            if (m[x] != 255) {
                hin[q[x]]++;
                nin++;

            } else {
                hout[q[x]]++;
                nout++;
            }
        }
    }

    if (nin == 0 || nout == 0) {
        return polarity == VW_PREP_DARK ? VW_PREP_DARK_LEVEL
                                        : VW_PREP_INK_LEVEL;
    }

    return (vw_prep_level(hin, nin) + vw_prep_level(hout, nout) + 1) / 2;
}


/* The median level of a histogram of n pixels. */
int
vw_prep_level(const uint32_t *hist, uint32_t n)
{
    int       v;
    uint32_t  sum;

    sum = 0;

    for (v = 0; v < 255; v++) {
        sum += hist[v];
        if (2 * sum >= n) {
            break;
        }
    }

    return v;
}


/* part, scale times its size (bicubic), into out. */
static int
vw_prep_scaled(vw_framer_t *fr, const vw_image_t *part, int scale,
    vw_image_t *out, vw_err_t *err)
{
    int             y;
    const uint8_t  *src[4];
    uint8_t        *dst[4];
    int             src_stride[4], dst_stride[4];

    if (vw_image_alloc(out, part->width * scale, part->height * scale) != 0) {
        return vw_fail(err, "no_memory", "frame: out of memory");
    }

    if (scale == 1) {
        for (y = 0; y < part->height; y++) {
            memcpy(out->data + (size_t) y * out->stride,
                   part->data + (size_t) y * part->stride,
                   (size_t) part->width);
        }

        return 0;
    }

    fr->scale = sws_getCachedContext(fr->scale, part->width, part->height,
                                     AV_PIX_FMT_GRAY8, out->width,
                                     out->height, AV_PIX_FMT_GRAY8,
                                     SWS_BICUBIC, NULL, NULL, NULL);
    if (fr->scale == NULL) {
        return vw_fail(err, "internal", "frame: cannot scale %dx%d",
                       part->width, part->height);
    }

    memset(src, 0, sizeof(src));
    memset(dst, 0, sizeof(dst));
    memset(src_stride, 0, sizeof(src_stride));
    memset(dst_stride, 0, sizeof(dst_stride));
    src[0] = part->data;
    src_stride[0] = part->stride;
    dst[0] = out->data;
    dst_stride[0] = out->stride;

    if (sws_scale(fr->scale, src, src_stride, 0, part->height, dst,
                  dst_stride) != out->height)
    {
        return vw_fail(err, "internal", "frame: scaling %dx%d failed",
                       part->width, part->height);
    }

    return 0;
}


/*
 * Removes the black components of a binary image (0 ink, 255 paper)
 * that cannot be glyphs, with sizes relative to a ref_w x ref_h picture
 * (the whole frame, when img is a part of it): solid (more than half of
 * their bounding box is black) and large (the box covers more than 1/64
 * of the picture); nearly solid (90%) and at least 24 pixels thick both
 * ways; spanning 60% of the width or half the height; fewer than
 * min_px pixels; with border, touching the edge of img (a part of the
 * background the cut went through: the text region is cut with a
 * margin).  These are bright areas of the background the
 * threshold kept, edges of the background and stray pixels; left in,
 * they touch or surround the text and Tesseract reads them as part of
 * it.  box (may be NULL) gets the bounding box of what remains (w = 0
 * when nothing does).
 */
int
vw_prep_blobs(vw_framer_t *fr, vw_image_t *img, int ref_w, int ref_h,
    int min_px, int border, vw_rect_t *box)
{
    int        w, h, x, y, nx, ny, xa, xb, ya, x0, y0, x1, y1, first;
    int        bx0, by0, bx1, by1;
    size_t     need, head, tail, kept;
    int64_t    bb, area;
    uint8_t   *row, *q, *found;
    uint32_t  *queue, npos;

    w = img->width;
    h = img->height;
    need = (size_t) w * (size_t) h;
    area = (int64_t) ref_w * ref_h;

    if (w > VW_BLOB_SIDE || h > VW_BLOB_SIDE
        || vw_framer_work(fr, need) != 0)
    {
        return -1;
    }

    /*
     * A pixel reached is marked in the picture itself: a component that
     * goes is made white at once, one that stays is VW_BLOB_KEPT until
     * the end (its pixels are queue[0..kept): each component is filled
     * in the queue after those kept before it), so the scan for the next
     * black pixel is memchr's over the row.
     */
    queue = fr->queue;
    kept = 0;
    fr->ncomps = 0;

    bx0 = w;
    by0 = h;
    bx1 = -1;
    by1 = -1;

    for (y = 0; y < h; y++) {
        row = img->data + (size_t) y * img->stride;

        for (x = 0; x < w; x++) {
            found = memchr(row + x, 0, (size_t) (w - x));
            if (found == NULL) {
                break;
            }

            x = (int) (found - row);

            /*
             * Breadth first over the 8-connected black pixels, a run of
             * them in a row at a time: a run is queued whole (its pixels
             * side by side; two runs of a row never are), and taking it
             * off the queue looks at the rows above and below it, one
             * pixel further each way, not at each pixel's eight.
             */

            head = kept;
            tail = kept;
            x1 = vw_prep_blobs_run(img, x, y, queue, &tail, &x0);
            y0 = y1 = y;

            while (head < tail) {
                npos = queue[head++];
                xa = VW_BLOB_X(npos);
                ny = VW_BLOB_Y(npos);
                xb = xa;

                while (head < tail && queue[head] == VW_BLOB_AT(xb + 1, ny)) {
                    xb++;
                    head++;
                }

                xa = xa > 0 ? xa - 1 : 0;
                xb = xb < w - 1 ? xb + 1 : w - 1;

                for (ya = ny - 1; ya <= ny + 1; ya += 2) {
                    if (ya < 0 || ya >= h) {
                        continue;
                    }

                    q = img->data + (size_t) ya * img->stride;

                    for (nx = xa; nx <= xb; nx++) {
                        if (q[nx] != 0) {
                            continue;
                        }

                        nx = vw_prep_blobs_run(img, nx, ya, queue, &tail,
                                                &first);
                        x0 = first < x0 ? first : x0;
                        x1 = nx > x1 ? nx : x1;
                        y0 = ya < y0 ? ya : y0;
                        y1 = ya > y1 ? ya : y1;
                    }
                }
            }

            bb = (int64_t) (x1 - x0 + 1) * (y1 - y0 + 1);

            if (!((2 * (int64_t) (tail - kept) > bb
                   && VW_BLOB_LARGE_PART * bb > area)
                  || (10 * (int64_t) (tail - kept) >= VW_BLOB_SOLID_TENTHS * bb
                      && x1 - x0 >= VW_BLOB_SOLID_PX
                      && y1 - y0 >= VW_BLOB_SOLID_PX)
                  || 10 * (x1 - x0 + 1) > VW_BLOB_WIDE_TENTHS * ref_w
                  || 2 * (y1 - y0 + 1) > ref_h
                  || (int64_t) (tail - kept) < min_px
                  || (border && (x0 == 0 || y0 == 0 || x1 == w - 1
                                 || y1 == h - 1))))
            {
                bx0 = x0 < bx0 ? x0 : bx0;
                by0 = y0 < by0 ? y0 : by0;
                bx1 = x1 > bx1 ? x1 : bx1;
                by1 = y1 > by1 ? y1 : by1;

                if (fr->keep_comps
                    && vw_framer_comp(fr, x0, y0, x1, y1,
                                      (uint32_t) y * (uint32_t) w
                                      + (uint32_t) x,
                                      (uint32_t) (tail - kept)) != 0)
                {
                    vw_prep_blobs_paint(img, queue, tail, 0);
                    return -1;
                }

                kept = tail;
                continue;
            }

            vw_prep_blobs_paint(img, queue + kept, tail - kept, 255);
        }
    }

    vw_prep_blobs_paint(img, queue, kept, 0);

    if (box != NULL) {
        memset(box, 0, sizeof(vw_rect_t));

        if (bx1 >= 0) {
            box->x = bx0;
            box->y = by0;
            box->w = bx1 - bx0 + 1;
            box->h = by1 - by0 + 1;
        }
    }

    return 0;
}


/* The run of black pixels of row y through pixel x (black) is marked
 * VW_BLOB_KEPT and queued; its last x is returned, its first in *first. */
static int
vw_prep_blobs_run(vw_image_t *img, int x, int y, uint32_t *queue,
    size_t *tail, int *first)
{
    int       a, b, k;
    uint8_t  *row;

    row = img->data + (size_t) y * img->stride;

    for (a = x; a > 0 && row[a - 1] == 0; a--) { /* void */ }
    for (b = x; b < img->width - 1 && row[b + 1] == 0; b++) { /* void */ }

    for (k = a; k <= b; k++) {
        row[k] = VW_BLOB_KEPT;
        queue[(*tail)++] = VW_BLOB_AT(k, y);
    }

    *first = a;

    return b;
}


/* The pixels queue[0..n) of img (VW_BLOB_AT) become v: paper (255)
 * for a component that goes, ink (0) again for those that stay. */
static void
vw_prep_blobs_paint(vw_image_t *img, const uint32_t *queue, size_t n,
    uint8_t v)
{
    size_t  k;

    for (k = 0; k < n; k++) {
        img->data[(size_t) VW_BLOB_Y(queue[k]) * img->stride
                  + VW_BLOB_X(queue[k])] = v;
    }
}
