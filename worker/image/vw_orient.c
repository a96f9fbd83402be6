/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Orientation (see vw_orient.h): display matrices to one of the eight
 * axis-aligned orientations, and grey pictures turned by them.
 *
 * Turning is a copy with two steps through the source, one per output
 * column and one per output row.  A quarter turn reads the source down
 * its columns; it is done in tiles of VW_ORIENT_TILE pixels square so
 * that the rows a tile reads stay in the cache (a 4K picture turns in
 * about 10 ms).
 */

#include <stdlib.h>
#include <string.h>

#include <libavformat/avformat.h>
#include <libavutil/display.h>
#include <libavutil/frame.h>

#include "vw_orient.h"


#define VW_ORIENT_TILE       64

const vw_orient_t  vw_orient_identity = { 1, 0, 0, 1 };



static int
vw_orient_sign(int32_t v)
{
    /* 16.16 fixed point: a cosine or sine of a quarter turn is 0 or 1 */
    return v > 32768 ? 1 : (v < -32768 ? -1 : 0);
}


int
vw_orient_is_identity(vw_orient_t o)
{
    return o.a == 1 && o.b == 0 && o.c == 0 && o.d == 1;
}


int
vw_orient_swaps(vw_orient_t o)
{
    return o.a == 0;
}


vw_orient_t
vw_orient_from_matrix(const int32_t *m)
{
    vw_orient_t  o;

    if (m == NULL) {
        return vw_orient_identity;
    }

    /* x' = a x + c y, y' = b x + d y (libavutil/display.h) */

    o.a = (int8_t) vw_orient_sign(m[0]);
    o.b = (int8_t) vw_orient_sign(m[1]);
    o.c = (int8_t) vw_orient_sign(m[3]);
    o.d = (int8_t) vw_orient_sign(m[4]);

    /* a signed permutation, or nothing we turn by */

    if (abs(o.a) + abs(o.b) != 1 || abs(o.c) + abs(o.d) != 1
        || abs(o.a) != abs(o.d))
    {
        return vw_orient_identity;
    }

    return o;
}


vw_orient_t
vw_orient_of_stream(const AVStream *st)
{
    int                 deg;
    const uint8_t      *sd;
    AVDictionaryEntry  *t;

    sd = av_stream_get_side_data(st, AV_PKT_DATA_DISPLAYMATRIX, NULL);

    if (sd != NULL) {
        return vw_orient_from_matrix((const int32_t *) sd);
    }

    /* what older muxers wrote instead: degrees clockwise */

    t = av_dict_get(st->metadata, "rotate", NULL, 0);

    if (t != NULL) {
        deg = atoi(t->value);
        deg = ((deg % 360) + 360) % 360;

        if (deg % 90 == 0) {
            return vw_orient_turns(deg / 90, 0);
        }
    }

    return vw_orient_identity;
}


vw_orient_t
vw_orient_of_frame(const AVFrame *f, vw_orient_t dflt)
{
    AVFrameSideData  *sd;

    sd = av_frame_get_side_data(f, AV_FRAME_DATA_DISPLAYMATRIX);

    if (sd == NULL || sd->size < 9 * sizeof(int32_t)) {
        return dflt;
    }

    return vw_orient_from_matrix((const int32_t *) sd->data);
}


vw_orient_t
vw_orient_then(vw_orient_t f, vw_orient_t s)
{
    vw_orient_t  p;

    /* the matrix product s * f */

    p.a = (int8_t) (s.a * f.a + s.c * f.b);
    p.b = (int8_t) (s.b * f.a + s.d * f.b);
    p.c = (int8_t) (s.a * f.c + s.c * f.d);
    p.d = (int8_t) (s.b * f.c + s.d * f.d);

    return p;
}


vw_orient_t
vw_orient_turns(int turns, int mirror)
{
    int          i;
    vw_orient_t  o;

    static const vw_orient_t  cw = { 0, 1, -1, 0 };
    static const vw_orient_t  flip = { -1, 0, 0, 1 };

    o = mirror ? flip : vw_orient_identity;

    for (i = 0; i < (turns & 3); i++) {
        o = vw_orient_then(o, cw);
    }

    return o;
}


int
vw_orient_describe(vw_orient_t o, int *mirror)
{
    int          t, m;
    vw_orient_t  c;

    for (m = 0; m < 2; m++) {
        for (t = 0; t < 4; t++) {
            c = vw_orient_turns(t, m);

            if (c.a == o.a && c.b == o.b && c.c == o.c && c.d == o.d) {
                *mirror = m;
                return t;
            }
        }
    }

    *mirror = 0;
    return 0;
}


/* (x, y) of a w x h picture, turned by o */
static void
vw_orient_point(vw_orient_t o, int w, int h, int x, int y, int *X, int *Y)
{
    *X = o.a * x + o.c * y + (o.a < 0 ? w - 1 : 0) + (o.c < 0 ? h - 1 : 0);
    *Y = o.b * x + o.d * y + (o.b < 0 ? w - 1 : 0) + (o.d < 0 ? h - 1 : 0);
}


void
vw_orient_rect_to_stored(vw_orient_t o, int shown_w, int shown_h,
    const vw_rect_t *r, vw_rect_t *stored)
{
    int          x0, y0, x1, y1;
    vw_orient_t  inv;

    /* the inverse is the transpose */

    inv.a = o.a;
    inv.b = o.c;
    inv.c = o.b;
    inv.d = o.d;

    vw_orient_point(inv, shown_w, shown_h, r->x, r->y, &x0, &y0);
    vw_orient_point(inv, shown_w, shown_h, r->x + r->w - 1, r->y + r->h - 1,
                    &x1, &y1);

    stored->x = x0 < x1 ? x0 : x1;
    stored->y = y0 < y1 ? y0 : y1;
    stored->w = abs(x1 - x0) + 1;
    stored->h = abs(y1 - y0) + 1;
}


void
vw_orient_box_shown(vw_orient_t turn, int img_w, int img_h,
    int shrink, const vo_options_t *o, const vw_rect_t *box,
    vw_rect_t *shown)
{
    if (box->w <= 0 || box->h <= 0) {
        memset(shown, 0, sizeof(vw_rect_t));
        return;
    }

    /* the picture turned is the crop (vw_frame_grey): turned back, the
     * box is in the crop's pixels, whose origin is the crop's corner */

    vw_orient_rect_to_stored(turn, img_w, img_h, box, shown);

    shown->x *= shrink;
    shown->y *= shrink;
    shown->w *= shrink;
    shown->h *= shrink;

    if (o != NULL && o->has_crop) {
        shown->x += (int) o->crop_x;
        shown->y += (int) o->crop_y;
    }
}


int
vw_orient_copy(vw_orient_t o, const uint8_t *src, int stride,
    const vw_rect_t *r, vw_image_t *out)
{
    int             W, H, X, Y, tx, ty, xe, ye, x0, y0;
    ptrdiff_t       sx, sy;
    uint8_t        *dst;
    const uint8_t  *base, *p;

    W = abs(o.a) * r->w + abs(o.c) * r->h;
    H = abs(o.b) * r->w + abs(o.d) * r->h;

    if (vw_image_alloc(out, W, H) != 0) {
        return -1;
    }

    /*
     * Output (X, Y) reads source (x, y) = inverse(o) of it: x = a X + b Y
     * + x0, y = c X + d Y + y0 (the inverse is the transpose)
     */

    x0 = (o.a < 0 ? W - 1 : 0) + (o.b < 0 ? H - 1 : 0);
    y0 = (o.c < 0 ? W - 1 : 0) + (o.d < 0 ? H - 1 : 0);

    base = src + (ptrdiff_t) (r->y + y0) * stride + (r->x + x0);
    sx = o.a + (ptrdiff_t) o.c * stride;
    sy = o.b + (ptrdiff_t) o.d * stride;

    if (sx == 1) {
        for (Y = 0; Y < H; Y++) {
            memcpy(out->data + (size_t) Y * out->stride, base + Y * sy,
                   (size_t) W);
        }

        return 0;
    }

    if (sx == -1) {
        for (Y = 0; Y < H; Y++) {
            dst = out->data + (size_t) Y * out->stride;
            p = base + Y * sy;

            for (X = 0; X < W; X++) {
                dst[X] = p[-X];
            }
        }

        return 0;
    }

    for (ty = 0; ty < H; ty += VW_ORIENT_TILE) {
        ye = ty + VW_ORIENT_TILE < H ? ty + VW_ORIENT_TILE : H;

        for (tx = 0; tx < W; tx += VW_ORIENT_TILE) {
            xe = tx + VW_ORIENT_TILE < W ? tx + VW_ORIENT_TILE : W;

            for (Y = ty; Y < ye; Y++) {
                dst = out->data + (size_t) Y * out->stride;
                p = base + Y * sy;

                for (X = tx; X < xe; X++) {
                    dst[X] = p[X * sx];
                }
            }
        }
    }

    return 0;
}


int
vw_orient_image(vw_orient_t o, vw_image_t *img, vw_image_t *tmp)
{
    vw_rect_t  r;

    if (vw_orient_is_identity(o) || img->width == 0) {
        return 0;
    }

    r.x = 0;
    r.y = 0;
    r.w = img->width;
    r.h = img->height;

    if (vw_orient_copy(o, img->data, img->stride, &r, tmp) != 0) {
        return -1;
    }

    vw_image_swap(img, tmp);

    return 0;
}
