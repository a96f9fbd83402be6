/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Grey pictures (see vw_image.h): sized, swapped, viewed in part.
 */

#include <stdlib.h>
#include <string.h>

#include "vw_image.h"


void
vw_image_free(vw_image_t *img)
{
    free(img->data);
    memset(img, 0, sizeof(vw_image_t));
}


void
vw_image_swap(vw_image_t *a, vw_image_t *b)
{
    vw_image_t  t;

    t = *a;
    *a = *b;
    *b = t;
}


void
vw_image_view(const vw_image_t *img, const vw_rect_t *of, const vw_rect_t *in,
    vw_image_t *view)
{
    *view = *img;
    view->data = img->data + (size_t) (in->y - of->y) * img->stride
                 + (size_t) (in->x - of->x);
    view->width = in->w;
    view->height = in->h;
    view->cap = 0;
}


int
vw_image_alloc(vw_image_t *img, int width, int height)
{
    int       stride;
    size_t    need;
    uint8_t  *p;

    stride = (width + 31) & ~31;        /* swscale likes aligned rows */
    need = (size_t) stride * (size_t) height + 64;

    if (need > img->cap) {
        p = realloc(img->data, need);
        if (p == NULL) {
            return -1;
        }

        img->data = p;
        img->cap = need;
    }

    img->width = width;
    img->height = height;
    img->stride = stride;

    return 0;
}
