/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The frame stage (see vw_frame.h).  A decoded frame is converted to
 * GRAY8 at its own size (for YUV input swscale copies the luma plane),
 * the crop is a copy of a rectangle of that, and the OCR image is made
 * from the crop only when a frame is actually OCR'd.
 *
 * Preparing a picture for Tesseract (the measurements behind each choice
 * are in docs/worker-pipeline.md):
 *
 *   - scale: pictures from videos at most VW_OCR_UPSCALE_HEIGHT lines
 *     tall are upscaled 2x (bicubic); their subtitle glyphs are 10-20
 *     pixels high, below what Tesseract reads best.  Not when their
 *     glyphs are taller than VW_OCR_UPSCALE_GLYPH_MAX: Tesseract reads
 *     worse again at twice that (a Chinese line at 480p).  Glyphs
 *     less than VW_OCR_SMALL_GLYPH tall are upscaled at any size;
 *   - polarity: burned-in subtitles are light glyphs with a dark
 *     outline, shadow or box.  Unless most of the picture is at least
 *     VW_OCR_BRIGHT (a light picture, where dark text is to be
 *     expected), the picture is binarised: pixels at least that bright
 *     become black ink on white paper, everything else paper, and ink
 *     that cannot be glyphs is removed (vw_frame_blobs).  Whatever
 *     the background does around the text, the outline keeps it apart.
 *     A light picture goes to Tesseract in grey, for its own (Otsu)
 *     thresholding.  The caller may retry a binarised picture in grey
 *     when the result is poor (coloured or dark text on a dark picture).
 */

#include <stdlib.h>
#include <string.h>

#include <libavutil/frame.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

#include "vw_frame.h"
#include "vw_orient.h"


/*
 * swscale's GRAY8 table for limited-range luma (yuv420p and the other
 * 8-bit YUV formats: 16 -> 0, 235 -> 255, rounded) as arithmetic:
 * ((y - 16) * VW_STUDIO_MUL + VW_STUDIO_ADD) >> 16, at most 255, equals
 * it for every level (vw_frame_lut checks, for each format).  A table
 * lookup per byte does not vectorise; this does, 1.7 times faster over
 * a 1080p picture with AVX2 (hence the clone of the loop for it, chosen
 * when the program starts).
 */
#define VW_STUDIO_MUL  76305
#define VW_STUDIO_ADD  33200

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define VW_FRAME_STUDIO_TARGETS                                           \
    __attribute__((target_clones("avx2", "default"),                    \
                   optimize("tree-vectorize", "vect-cost-model=dynamic")))
#else
#define VW_FRAME_STUDIO_TARGETS
#endif

/* loops of bytes of unknown length: GCC vectorises them at -O2 only with
 * its usual cost model; with an AVX2 clone, as vw_text.c's */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define VW_FRAME_VECTORISE                                                \
    __attribute__((target_clones("avx2", "default"),                    \
                   optimize("tree-vectorize", "vect-cost-model=dynamic")))
#elif defined(__GNUC__) && !defined(__clang__)
#define VW_FRAME_VECTORISE                                                \
    __attribute__((optimize("tree-vectorize", "vect-cost-model=dynamic")))
#else
#define VW_FRAME_VECTORISE
#endif

/*
 * vw_frame_similar_step's cells, each computed once: a row of cells
 * (VW_SIMILAR_CELL pixels high) holds per cell |sa - sb| added up with
 * the cells to its right in a block, so a block is one lookup in each
 * of its rows; the rows of a row of blocks are kept in a ring (slot:
 * the row's top in cells, modulo), shared with the next row of blocks
 * when they overlap.  A block off the cells' grid (the last of a row,
 * moved back to the picture's edge) or past the cells a row holds (none:
 * a picture is at most VW_MAX_SIDE wide) is read on its own.
 */
#define VW_FRAME_CELLS        4096
#define VW_FRAME_BLOCK_CELLS  (VW_SIMILAR_BLOCK / VW_SIMILAR_CELL)

typedef struct {
    const vw_image_t  *a, *b;
    int                ncells;
    int                y[VW_FRAME_BLOCK_CELLS];     /* each row's top */
    uint16_t           sum[VW_FRAME_BLOCK_CELLS][VW_FRAME_CELLS];
} vw_frame_cells_t;

/* vw_frame_blobs: a black pixel of a component that stays, while the
 * picture is searched (not 0, so the search passes it) */
#define VW_BLOB_KEPT  1

/* and where a pixel is, in its queue: x and y in 16 bits each (no
 * division to take them apart); the pictures it is given are at most
 * VW_MAX_SIDE a side, twice that when upscaled for OCR */
#define VW_BLOB_SIDE  0xffff
#define VW_BLOB_AT(x, y)  ((uint32_t) (y) << 16 | (uint32_t) (x))
#define VW_BLOB_X(pos)    ((int) ((pos) & 0xffff))
#define VW_BLOB_Y(pos)    ((int) ((pos) >> 16))


static int vw_frame_block_diff(const vw_image_t *a, const vw_image_t *b,
    int bx, int by);
static int vw_frame_blobs_run(vw_image_t *img, int x, int y,
    uint32_t *queue, size_t *tail, int *first);
static void vw_frame_blobs_paint(vw_image_t *img, const uint32_t *queue,
    size_t n, uint8_t v);
static int vw_frame_lut(vw_framer_t *fr, enum AVPixelFormat fmt);
static void vw_frame_lut_row(const vw_framer_t *fr, uint8_t *dst,
    const uint8_t *src, const uint8_t *lut, int n);
static VW_FRAME_STUDIO_TARGETS void vw_frame_studio_row(
    uint8_t *restrict dst, const uint8_t *restrict src, int n);
static int vw_frame_similar_step(const vw_image_t *a, const vw_image_t *b,
    int step, int *diff);
static int vw_frame_cells_block(vw_frame_cells_t *c, int bx, int by);
static void vw_frame_cells_row(vw_frame_cells_t *c, int slot, int y);
static VW_FRAME_VECTORISE void vw_frame_cells_px(int16_t *restrict d,
    const uint8_t *restrict a, const uint8_t *restrict b, size_t astride,
    size_t bstride, int n);


void
vw_framer_init(vw_framer_t *fr)
{
    memset(fr, 0, sizeof(vw_framer_t));
    fr->lut_format = -1;
    fr->shrink = 1;
}


void
vw_framer_free(vw_framer_t *fr)
{
    sws_freeContext(fr->grey);
    sws_freeContext(fr->scale);
    vw_image_free(&fr->full);
    vw_image_free(&fr->half);
    free(fr->seen);
    free(fr->queue);
    free(fr->comps);
    free(fr->order);
    vw_framer_init(fr);
}


int
vw_frame_crop_rect(int width, int height, const vo_options_t *o,
    vw_rect_t *r)
{
    int64_t  x1, y1;

    if (o == NULL || !o->has_crop) {
        r->x = 0;
        r->y = 0;
        r->w = width;
        r->h = height;
        return 0;
    }

    if ((int64_t) o->crop_x >= width || (int64_t) o->crop_y >= height) {
        return -1;
    }

    x1 = (int64_t) o->crop_x + o->crop_w;
    y1 = (int64_t) o->crop_y + o->crop_h;

    r->x = (int) o->crop_x;
    r->y = (int) o->crop_y;
    r->w = (int) ((x1 > width ? width : x1) - r->x);
    r->h = (int) ((y1 > height ? height : y1) - r->y);

    return 0;
}


int
vw_frame_shrink(int width, int height, const vo_options_t *o)
{
    vw_rect_t  r;

    if (vw_frame_crop_rect(width, height, o, &r) != 0) {
        return 1;
    }

    return (int64_t) r.w * r.h > VW_FRAME_SHRINK_PIXELS ? 2 : 1;
}


/* The rectangle r of a grey plane at half its size a side into out:
 * each pixel the mean of the four it stands for. */
static int
vw_frame_halve(const uint8_t *plane, int stride, const vw_rect_t *r,
    vw_image_t *out)
{
    int             x, y, w, h;
    uint8_t        *d;
    const uint8_t  *s0, *s1;

    w = r->w / 2;                       /* r is at least 2x2 */
    h = r->h / 2;

    if (vw_image_alloc(out, w, h) != 0) {
        return -1;
    }

    for (y = 0; y < h; y++) {
        s0 = plane + (size_t) (r->y + 2 * y) * stride + r->x;
        s1 = s0 + stride;
        d = out->data + (size_t) y * out->stride;

        for (x = 0; x < w; x++) {
            d[x] = (uint8_t) ((s0[2 * x] + s0[2 * x + 1] + s1[2 * x]
                               + s1[2 * x + 1] + 2) >> 2);
        }
    }

    return 0;
}


int
vw_frame_grey(vw_framer_t *fr, const struct AVFrame *f,
    const vo_options_t *o, const vw_orient_t *shown, const vw_orient_t *turn,
    vw_image_t *out, vw_err_t *err)
{
    int                        sw, sh, stride, y;
    uint8_t                   *dst[4], *p;
    const uint8_t             *plane, *lut;
    int                        dst_stride[4];
    vw_rect_t                  r, sr;
    vw_orient_t                how, all;
    const AVPixFmtDescriptor  *d;

    if (f->width <= 0 || f->height <= 0) {
        return vw_fail(err, "internal", "frame: empty picture %dx%d",
                       f->width, f->height);
    }

    lut = NULL;
    how = shown != NULL ? *shown : vw_orient_identity;
    all = turn != NULL ? vw_orient_then(how, *turn) : how;

    /*
     * 8-bit luma is read where the decoder left it, with no frame-sized
     * copy of ours, and mapped to grey on the part kept, as it is copied
     * (after it is turned, if it is), through the table swscale's GRAY8
     * conversion makes of it (limited range stretched to full: 16 -> 0,
     * 235 -> 255; measured to be a function of the luma alone, so the
     * same bytes as converting the whole frame).  Other formats are
     * converted whole first.
     */

    d = av_pix_fmt_desc_get((enum AVPixelFormat) f->format);

    if (d != NULL
        && !(d->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL
                         | AV_PIX_FMT_FLAG_HWACCEL
                         | AV_PIX_FMT_FLAG_BITSTREAM))
        && d->comp[0].plane == 0 && d->comp[0].step == 1
        && d->comp[0].depth == 8 && d->comp[0].shift == 0
        && d->comp[0].offset == 0 && f->data[0] != NULL
        && vw_frame_lut(fr, (enum AVPixelFormat) f->format) == 0)
    {
        plane = f->data[0];
        stride = f->linesize[0];
        lut = fr->lut;

    } else {
        fr->grey = sws_getCachedContext(fr->grey, f->width, f->height,
                                        (enum AVPixelFormat) f->format,
                                        f->width, f->height,
                                        AV_PIX_FMT_GRAY8, SWS_POINT, NULL,
                                        NULL, NULL);
        if (fr->grey == NULL) {
            return vw_fail(err, "internal", "frame: cannot convert %s "
                           "%dx%d to grey",
                           d != NULL ? d->name : "?", f->width, f->height);
        }

        if (vw_image_alloc(&fr->full, f->width, f->height) != 0) {
            return vw_fail(err, "no_memory", "frame: out of memory");
        }

        memset(dst, 0, sizeof(dst));
        memset(dst_stride, 0, sizeof(dst_stride));
        dst[0] = fr->full.data;
        dst_stride[0] = fr->full.stride;

        if (sws_scale(fr->grey, (const uint8_t * const *) f->data,
                      f->linesize, 0, f->height, dst, dst_stride)
            != f->height)
        {
            return vw_fail(err, "internal", "frame: grey conversion "
                           "failed");
        }

        plane = fr->full.data;
        stride = fr->full.stride;
    }

    /* the crop is in the picture as shown */

    sw = vw_orient_swaps(how) ? f->height : f->width;
    sh = vw_orient_swaps(how) ? f->width : f->height;

    if (vw_frame_crop_rect(sw, sh, o, &r) != 0) {
        out->width = 0;
        out->height = 0;
        return 0;
    }

    vw_orient_rect_to_stored(how, sw, sh, &r, &sr);

    if (fr->shrink == 2 && sr.w >= 2 && sr.h >= 2) {
        if (vw_frame_halve(plane, stride, &sr, &fr->half) != 0) {
            return vw_fail(err, "no_memory", "frame: out of memory");
        }

        plane = fr->half.data;
        stride = fr->half.stride;
        sr = (vw_rect_t) { 0, 0, fr->half.width, fr->half.height };
    }

    if (lut != NULL && all.a == 1 && all.b == 0 && all.c == 0 && all.d == 1) {
        /* as stored (the usual case): copied through the table at once */
        if (vw_image_alloc(out, sr.w, sr.h) != 0) {
            return vw_fail(err, "no_memory", "frame: out of memory");
        }

        for (y = 0; y < sr.h; y++) {
            vw_frame_lut_row(fr, out->data + (size_t) y * out->stride,
                             plane + (size_t) (sr.y + y) * stride + sr.x,
                             lut, sr.w);
        }

        return 0;
    }

    if (vw_orient_copy(all, plane, stride, &sr, out) != 0) {
        return vw_fail(err, "no_memory", "frame: out of memory");
    }

    if (lut != NULL) {
        for (y = 0; y < out->height; y++) {
            p = out->data + (size_t) y * out->stride;
            vw_frame_lut_row(fr, p, p, lut, out->width);
        }
    }

    return 0;
}


/* n bytes of src through lut into dst (which may be src) */
static void
vw_frame_lut_row(const vw_framer_t *fr, uint8_t *dst, const uint8_t *src,
    const uint8_t *lut, int n)
{
    int  x;

    if (fr->lut_studio && dst != src) {
        vw_frame_studio_row(dst, src, n);
        return;
    }

    for (x = 0; x < n; x++) {
        dst[x] = lut[src[x]];
    }
}


/*
 * vw_frame_lut_row when the table is the limited-range formula, in
 * 16-bit lanes (twice as many a step as 32-bit ones: 1.6 times faster
 * with AVX2).  With v = y - 16 and v * (VW_STUDIO_MUL - 65536) = hi *
 * 65536 + lo, the formula is v + hi + (lo + VW_STUDIO_ADD >= 65536):
 * the high and the low half of a 16-bit product.
 */
static VW_FRAME_STUDIO_TARGETS void
vw_frame_studio_row(uint8_t *restrict dst, const uint8_t *restrict src, int n)
{
    int       x;
    uint16_t  v, hi, lo;

    for (x = 0; x < n; x++) {
        v = (uint16_t) (src[x] > 16 ? src[x] - 16 : 0);
        hi = (uint16_t) (((uint32_t) v * (VW_STUDIO_MUL - 65536)) >> 16);
        lo = (uint16_t) (v * (VW_STUDIO_MUL - 65536));
        v = (uint16_t) (v + hi + (lo >= 65536 - VW_STUDIO_ADD));
        dst[x] = (uint8_t) (v > 255 ? 255 : v);
    }
}


/*
 * The table of fmt's 8-bit luma to swscale's GRAY8: a ramp of every
 * level (mid-grey chroma) through the same conversion.  -1 if it cannot
 * be made (the caller converts the frame instead).
 */
static int
vw_frame_lut(vw_framer_t *fr, enum AVPixelFormat fmt)
{
    int                 i, rc;
    uint8_t             ramp[256], studio[256];
    uint8_t            *dst[4];
    int                 dst_stride[4];
    AVFrame                   *f;
    struct SwsContext         *c;
    const AVPixFmtDescriptor  *d;

    if (fr->lut_format == (int) fmt) {
        return 0;
    }

    rc = -1;
    c = NULL;
    f = av_frame_alloc();

    if (f == NULL) {
        return -1;
    }

    f->format = fmt;
    f->width = 256;
    f->height = 2;

    if (av_frame_get_buffer(f, 0) < 0) {
        goto done;
    }

    /* every plane mid-grey (chroma planes have 2 >> log2_chroma_h rows,
     * at least one) */
    d = av_pix_fmt_desc_get(fmt);

    for (i = 0; d != NULL && i < 4 && f->data[i] != NULL; i++) {
        memset(f->data[i], 128, (size_t) f->linesize[i]
                                * (size_t) (i == 0 ? 2 : AV_CEIL_RSHIFT(2,
                                                       d->log2_chroma_h)));
    }

    for (i = 0; i < 256; i++) {
        f->data[0][i] = (uint8_t) i;
        f->data[0][f->linesize[0] + i] = (uint8_t) i;
    }

    c = sws_getContext(256, 2, fmt, 256, 2, AV_PIX_FMT_GRAY8, SWS_POINT,
                       NULL, NULL, NULL);
    if (c == NULL || vw_image_alloc(&fr->full, 256, 2) != 0) {
        goto done;
    }

    memset(dst, 0, sizeof(dst));
    memset(dst_stride, 0, sizeof(dst_stride));
    dst[0] = fr->full.data;
    dst_stride[0] = fr->full.stride;

    if (sws_scale(c, (const uint8_t * const *) f->data, f->linesize, 0, 2,
                  dst, dst_stride) != 2)
    {
        goto done;
    }

    memcpy(fr->lut, fr->full.data, 256);
    fr->lut_format = (int) fmt;

    /* the formula gives the same for every level? */
    for (i = 0; i < 256; i++) {
        ramp[i] = (uint8_t) i;
    }

    vw_frame_studio_row(studio, ramp, 256);
    fr->lut_studio = memcmp(studio, fr->lut, 256) == 0;

    rc = 0;

done:

    sws_freeContext(c);
    av_frame_free(&f);

    return rc;
}


int
vw_frame_similar(const vw_image_t *a, const vw_image_t *b, int *diff)
{
    return vw_frame_similar_step(a, b, VW_SIMILAR_BLOCK / 2, diff);
}


int
vw_frame_similar_coarse(const vw_image_t *a, const vw_image_t *b)
{
    return vw_frame_similar_step(a, b, VW_SIMILAR_BLOCK, NULL);
}


/* the blocks step pixels apart (a half block: they overlap by half) */
static int
vw_frame_similar_step(const vw_image_t *a, const vw_image_t *b, int step,
    int *diff)
{
    int                bx, by, x, y, i, worst, score;
    const uint8_t     *pa, *pb;
    vw_frame_cells_t  *c, cells;

    worst = 0;

    if (a->width != b->width || a->height != b->height) {
        worst = 255;
        goto done;
    }

    if (a->width < VW_SIMILAR_BLOCK || a->height < VW_SIMILAR_BLOCK) {
        /* too small for blocks: every pixel must be close */
        for (y = 0; y < a->height; y++) {
            pa = a->data + (size_t) y * a->stride;
            pb = b->data + (size_t) y * b->stride;

            for (x = 0; x < a->width; x++) {
                score = abs((int) pa[x] - (int) pb[x]);
                worst = score > worst ? score : worst;
            }
        }

        goto done;
    }

    /*
     * Blocks overlap by half, and the last row and column of blocks are
     * aligned to the picture's edges, so every pixel is in a block and a
     * change is never split thinly between two.
     */

    c = &cells;
    c->a = a;
    c->b = b;
    c->ncells = a->width / VW_SIMILAR_CELL;
    c->ncells = c->ncells < VW_FRAME_CELLS ? c->ncells : VW_FRAME_CELLS;

    for (i = 0; i < VW_FRAME_BLOCK_CELLS; i++) {
        c->y[i] = -1;
    }

    for (by = 0; ; by += step) {
        if (by > a->height - VW_SIMILAR_BLOCK) {
            by = a->height - VW_SIMILAR_BLOCK;
        }

        for (bx = 0; ; bx += step) {
            if (bx > a->width - VW_SIMILAR_BLOCK) {
                bx = a->width - VW_SIMILAR_BLOCK;
            }

            score = vw_frame_cells_block(c, bx, by);

            if (score > worst) {
                worst = score;

                if (worst >= VW_SIMILAR_MAX_DIFF) {
                    goto done;
                }
            }

            if (bx == a->width - VW_SIMILAR_BLOCK) {
                break;
            }
        }

        if (by == a->height - VW_SIMILAR_BLOCK) {
            break;
        }
    }

done:

    if (diff != NULL) {
        *diff = worst;
    }

    return worst < VW_SIMILAR_MAX_DIFF;
}


/* vw_frame_block_diff of the block at bx, by, from the ring of cells */
static int
vw_frame_cells_block(vw_frame_cells_t *c, int bx, int by)
{
    int       k, kx, y, slot;
    unsigned  sum;

    kx = bx / VW_SIMILAR_CELL;

    if (bx % VW_SIMILAR_CELL != 0 || kx + VW_FRAME_BLOCK_CELLS > c->ncells) {
        return vw_frame_block_diff(c->a, c->b, bx, by);
    }

    sum = 0;

    for (k = 0; k < VW_FRAME_BLOCK_CELLS; k++) {
        y = by + k * VW_SIMILAR_CELL;
        slot = (y / VW_SIMILAR_CELL) % VW_FRAME_BLOCK_CELLS;

        if (c->y[slot] != y) {
            vw_frame_cells_row(c, slot, y);
        }

        sum += c->sum[slot][kx];
    }

    return (int) (sum / (VW_SIMILAR_BLOCK * VW_SIMILAR_BLOCK));
}


/*
 * The row of cells with its top at y into slot: a's sum less b's down
 * each column of the row (a loop that vectorises), |the sum of a cell's
 * columns|, then each cell added up with those to its right in a block
 * (at most 4 x 16 x 255: a uint16_t holds it).
 */
static void
vw_frame_cells_row(vw_frame_cells_t *c, int slot, int y)
{
    int        k, j, x, n, s;
    int16_t    d[256 * VW_SIMILAR_CELL];
    uint16_t  *sum;

    sum = c->sum[slot];

    for (k = 0; k < c->ncells; k += n) {
        n = c->ncells - k < 256 ? c->ncells - k : 256;

        vw_frame_cells_px(d,
                          c->a->data + (size_t) y * c->a->stride
                          + (size_t) k * VW_SIMILAR_CELL,
                          c->b->data + (size_t) y * c->b->stride
                          + (size_t) k * VW_SIMILAR_CELL,
                          (size_t) c->a->stride, (size_t) c->b->stride,
                          n * VW_SIMILAR_CELL);

        for (j = 0; j < n; j++) {
            s = 0;

            for (x = j * VW_SIMILAR_CELL; x < (j + 1) * VW_SIMILAR_CELL; x++) {
                s += d[x];
            }

            sum[k + j] = (uint16_t) abs(s);
        }
    }

    for (k = 0; k + VW_FRAME_BLOCK_CELLS <= c->ncells; k++) {
        for (j = k + 1; j < k + VW_FRAME_BLOCK_CELLS; j++) {
            sum[k] = (uint16_t) (sum[k] + sum[j]);
        }
    }

    c->y[slot] = y;
}


/* d[x] = the sum of a's column x over a cell's rows less b's */
static VW_FRAME_VECTORISE void
vw_frame_cells_px(int16_t *restrict d, const uint8_t *restrict a,
    const uint8_t *restrict b, size_t astride, size_t bstride, int n)
{
    int  x;

    for (x = 0; x < n; x++) {
        d[x] = (int16_t) (a[x] + a[x + astride] + a[x + 2 * astride]
                          + a[x + 3 * astride] - b[x] - b[x + bstride]
                          - b[x + 2 * bstride] - b[x + 3 * bstride]);
    }
}


/*
 * A block's score: the mean, over its cells of VW_SIMILAR_CELL pixels
 * square, of the difference of the two cells' mean levels.  Averaging a
 * cell first makes grain and compression noise cancel out; a stroke that
 * appears or goes away still moves its cells' means by tens of levels.
 */
static int
vw_frame_block_diff(const vw_image_t *a, const vw_image_t *b, int bx, int by)
{
    int             cx, cy, x, y, sa, sb;
    unsigned        sum;
    const uint8_t  *pa, *pb;

    sum = 0;

    for (cy = by; cy < by + VW_SIMILAR_BLOCK; cy += VW_SIMILAR_CELL) {
        for (cx = bx; cx < bx + VW_SIMILAR_BLOCK; cx += VW_SIMILAR_CELL) {
            sa = 0;
            sb = 0;

            for (y = cy; y < cy + VW_SIMILAR_CELL; y++) {
                pa = a->data + (size_t) y * a->stride + cx;
                pb = b->data + (size_t) y * b->stride + cx;

                for (x = 0; x < VW_SIMILAR_CELL; x++) {
                    sa += pa[x];
                    sb += pb[x];
                }
            }

            sum += (unsigned) abs(sa - sb);
        }
    }

    return (int) (sum / (VW_SIMILAR_BLOCK * VW_SIMILAR_BLOCK));
}


int
vw_frame_ocr_scale(int height, int glyph_h)
{
    if (glyph_h < VW_OCR_SMALL_GLYPH) {
        return 2;
    }

    return height <= VW_OCR_UPSCALE_HEIGHT
           && glyph_h <= VW_OCR_UPSCALE_GLYPH_MAX ? 2 : 1;
}


int
vw_frame_for_ocr(vw_framer_t *fr, const vw_image_t *in, const vw_rect_t *r,
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

    return vw_frame_for_ocr_part(fr, &part, in->width, in->height,
                                 r != NULL, scale, mode, out, chosen, err);
}


int
vw_frame_for_ocr_part(vw_framer_t *fr, const vw_image_t *in, int ref_w,
    int ref_h, int border, int scale, int mode, vw_image_t *out, int *chosen,
    vw_err_t *err)
{
    int              x, y;
    uint8_t         *p;
    uint64_t         bright;
    vw_image_t       part;
    const uint8_t   *q, *src[4];
    uint8_t         *dst[4];
    int              src_stride[4], dst_stride[4];

    part = *in;

    if (mode == VW_PREP_AUTO) {
        /* a light picture: dark text is to be expected, keep it grey */

        bright = 0;

        for (y = 0; y < part.height; y++) {
            q = part.data + (size_t) y * part.stride;

            for (x = 0; x < part.width; x++) {
                bright += q[x] >= VW_OCR_BRIGHT;
            }
        }

        mode = 2 * bright > (uint64_t) part.width * part.height
               ? VW_PREP_GREY : VW_PREP_BRIGHT;
    }

    *chosen = mode;

    scale = scale > 1 ? 2 : 1;

    if (vw_image_alloc(out, part.width * scale, part.height * scale) != 0) {
        return vw_fail(err, "no_memory", "frame: out of memory");
    }

    if (scale == 1) {
        for (y = 0; y < part.height; y++) {
            memcpy(out->data + (size_t) y * out->stride,
                   part.data + (size_t) y * part.stride,
                   (size_t) part.width);
        }

    } else {
        fr->scale = sws_getCachedContext(fr->scale, part.width, part.height,
                                         AV_PIX_FMT_GRAY8, out->width,
                                         out->height, AV_PIX_FMT_GRAY8,
                                         SWS_BICUBIC, NULL, NULL, NULL);
        if (fr->scale == NULL) {
            return vw_fail(err, "internal", "frame: cannot scale %dx%d",
                           part.width, part.height);
        }

        memset(src, 0, sizeof(src));
        memset(dst, 0, sizeof(dst));
        memset(src_stride, 0, sizeof(src_stride));
        memset(dst_stride, 0, sizeof(dst_stride));
        src[0] = part.data;
        src_stride[0] = part.stride;
        dst[0] = out->data;
        dst_stride[0] = out->stride;

        if (sws_scale(fr->scale, src, src_stride, 0, part.height, dst,
                      dst_stride) != out->height)
        {
            return vw_fail(err, "internal", "frame: scaling %dx%d failed",
                           part.width, part.height);
        }
    }

    if (mode != VW_PREP_BRIGHT) {
        return 0;
    }

    /* bright pixels become black ink on white paper */

    for (y = 0; y < out->height; y++) {
        p = out->data + (size_t) y * out->stride;

        for (x = 0; x < out->width; x++) {
            p[x] = p[x] >= VW_OCR_BRIGHT ? 0 : 255;
        }
    }

    /* what cannot be a glyph of the whole picture goes, and in a part,
     * what the cut went through */

    if (vw_frame_blobs(fr, out, ref_w * scale, ref_h * scale, 1, border,
                       NULL)
        != 0)
    {
        return vw_fail(err, "no_memory", "frame: out of memory");
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
vw_frame_blobs(vw_framer_t *fr, vw_image_t *img, int ref_w, int ref_h,
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
            x1 = vw_frame_blobs_run(img, x, y, queue, &tail, &x0);
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

                        nx = vw_frame_blobs_run(img, nx, ya, queue, &tail,
                                                &first);
                        x0 = first < x0 ? first : x0;
                        x1 = nx > x1 ? nx : x1;
                        y0 = ya < y0 ? ya : y0;
                        y1 = ya > y1 ? ya : y1;
                    }
                }
            }

            bb = (int64_t) (x1 - x0 + 1) * (y1 - y0 + 1);

            if (!((2 * (int64_t) (tail - kept) > bb && 64 * bb > area)
                  || (10 * (int64_t) (tail - kept) >= 9 * bb && x1 - x0 >= 24
                      && y1 - y0 >= 24)
                  || 10 * (x1 - x0 + 1) > 6 * ref_w
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
                    vw_frame_blobs_paint(img, queue, tail, 0);
                    return -1;
                }

                kept = tail;
                continue;
            }

            vw_frame_blobs_paint(img, queue + kept, tail - kept, 255);
        }
    }

    vw_frame_blobs_paint(img, queue, kept, 0);

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
vw_frame_blobs_run(vw_image_t *img, int x, int y, uint32_t *queue,
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
vw_frame_blobs_paint(vw_image_t *img, const uint32_t *queue, size_t n,
    uint8_t v)
{
    size_t  k;

    for (k = 0; k < n; k++) {
        img->data[(size_t) VW_BLOB_Y(queue[k]) * img->stride
                  + VW_BLOB_X(queue[k])] = v;
    }
}


int
vw_framer_work(vw_framer_t *fr, size_t need)
{
    uint8_t   *seen;
    uint32_t  *queue;

    if (need <= fr->work_cap) {
        return 0;
    }

    seen = realloc(fr->seen, need);
    if (seen == NULL) {
        return -1;
    }

    fr->seen = seen;

    queue = realloc(fr->queue, need * sizeof(uint32_t));
    if (queue == NULL) {
        return -1;
    }

    fr->queue = queue;
    fr->work_cap = need;

    return 0;
}


int
vw_framer_comp(vw_framer_t *fr, int x0, int y0, int x1, int y1, uint32_t seed,
    uint32_t pixels)
{
    size_t     cap;
    uint32_t  *o;
    vw_comp_t  *c;

    if (fr->ncomps == fr->comps_cap) {
        cap = fr->comps_cap ? 2 * fr->comps_cap : 256;
        c = realloc(fr->comps, cap * sizeof(vw_comp_t));
        if (c == NULL) {
            return -1;
        }

        fr->comps = c;

        o = realloc(fr->order, cap * sizeof(uint32_t));
        if (o == NULL) {
            return -1;
        }

        fr->order = o;
        fr->comps_cap = cap;
    }

    c = &fr->comps[fr->ncomps++];
    c->x0 = x0;
    c->y0 = y0;
    c->x1 = x1;
    c->y1 = y1;
    c->seed = seed;
    c->pixels = pixels;
    c->group = 0;
    c->glyphs = 0;

    return 0;
}
