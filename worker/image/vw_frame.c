/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The frame stage (see vw_frame.h).  A decoded frame is converted to
 * GRAY8 at its own size (for YUV input swscale copies the luma plane),
 * the crop is a copy of a rectangle of that, and the OCR image is made
 * from the crop only when a frame is actually OCR'd.
 */

#include <stdlib.h>
#include <string.h>

#include <libavutil/frame.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

#include "vw_image_int.h"
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


static void vw_frame_lut_row(const vw_framer_t *fr, uint8_t *dst,
    const uint8_t *src, const uint8_t *lut, int n);
static VW_VECTORISE void vw_frame_halve_row(uint8_t *restrict d,
    const uint8_t *restrict s0, const uint8_t *restrict s1, int w);
static VW_FRAME_STUDIO_TARGETS void vw_frame_studio_row(
    uint8_t *restrict dst, const uint8_t *restrict src, int n);
static int vw_frame_lut(vw_framer_t *fr, enum AVPixelFormat fmt);


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
    vw_image_free(&fr->open[0]);
    vw_image_free(&fr->open[1]);
    vw_image_free(&fr->calm);
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


/*
 * The rectangle r of a grey plane at half its size a side into out:
 * each pixel the mean of the four it stands for; then through lut
 * (NULL: none) a row at a time, with no picture-sized copy between.
 */
static int
vw_frame_halve(const vw_framer_t *fr, const uint8_t *plane, int stride,
    const vw_rect_t *r, const uint8_t *lut, vw_image_t *out)
{
    int             y, w, h;
    uint8_t        *d;
    const uint8_t  *s0, *s1;
    uint8_t         row[VW_MAX_SIDE / 2];

    w = r->w / 2;                       /* r is at least 2x2 */
    h = r->h / 2;

    if (vw_image_alloc(out, w, h) != 0) {
        return -1;
    }

    for (y = 0; y < h; y++) {
        s0 = plane + (size_t) (r->y + 2 * y) * stride + r->x;
        s1 = s0 + stride;
        d = lut != NULL ? row : out->data + (size_t) y * out->stride;

        vw_frame_halve_row(d, s0, s1, w);

        if (lut != NULL) {
            vw_frame_lut_row(fr, out->data + (size_t) y * out->stride, row,
                             lut, w);
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

    if (vw_frame_luma_only(f->format) && f->data[0] != NULL
        && vw_frame_lut(fr, (enum AVPixelFormat) f->format) == 0)
    {
        plane = f->data[0];
        stride = f->linesize[0];
        lut = fr->lut;

    } else {
        if (vw_frame_luma_only(f->format) && f->data[1] == NULL
            && av_pix_fmt_count_planes((enum AVPixelFormat) f->format) > 1)
        {
            /* the luma alone was kept (vw_frame_luma_only), and the
             * table failed: only out of memory does that */
            return vw_fail(err, "no_memory", "frame: out of memory");
        }

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
        if (lut != NULL && all.a == 1 && all.b == 0 && all.c == 0
            && all.d == 1 && sr.w <= VW_MAX_SIDE)
        {
            /* as stored (the usual case): halved into out at once,
             * through a row on the stack, up to VW_MAX_SIDE wide (a
             * frame decoded may be wider than the one inspected) */
            if (vw_frame_halve(fr, plane, stride, &sr, lut, out) != 0) {
                return vw_fail(err, "no_memory", "frame: out of memory");
            }

            return 0;
        }

        if (vw_frame_halve(fr, plane, stride, &sr, NULL, &fr->half) != 0) {
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


int
vw_frame_luma_only(int format)
{
    const AVPixFmtDescriptor  *d;

    d = av_pix_fmt_desc_get((enum AVPixelFormat) format);

    return d != NULL
           && !(d->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL
                            | AV_PIX_FMT_FLAG_HWACCEL
                            | AV_PIX_FMT_FLAG_BITSTREAM))
           && d->comp[0].plane == 0 && d->comp[0].step == 1
           && d->comp[0].depth == 8 && d->comp[0].shift == 0
           && d->comp[0].offset == 0;
}


/* Two rows of a plane halved into w bytes: each the mean of the four
 * it stands for (vectorised: 8 % of a 4K run's instructions, scalar) */
static VW_VECTORISE void
vw_frame_halve_row(uint8_t *restrict d, const uint8_t *restrict s0,
    const uint8_t *restrict s1, int w)
{
    int  x;

    for (x = 0; x < w; x++) {
        d[x] = (uint8_t) ((s0[2 * x] + s0[2 * x + 1] + s1[2 * x]
                           + s1[2 * x + 1] + 2) >> 2);
    }
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
