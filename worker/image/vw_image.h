/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * A grey picture: the one kind of picture every stage after decoding
 * works on (the looks, the text layer, the sums, what Tesseract reads).
 */

#ifndef _VW_IMAGE_H_INCLUDED_
#define _VW_IMAGE_H_INCLUDED_


#include <stddef.h>
#include <stdint.h>

#include "core/vw_geom.h"


/* An 8-bit grey image; data holds height rows of stride bytes. */
typedef struct {
    uint8_t  *data;
    int       width;
    int       height;
    int       stride;
    size_t    cap;
} vw_image_t;


void vw_image_free(vw_image_t *img);
void vw_image_swap(vw_image_t *a, vw_image_t *b);

/* Sizes img for width x height (rows aligned); -1 when out of memory. */
int vw_image_alloc(vw_image_t *img, int width, int height);

/*
 * view: the part in of picture img, whose pixels are those of rectangle
 * of (in lies inside of): the same pixels, not a copy, to be neither
 * sized nor freed.
 */
void vw_image_view(const vw_image_t *img, const vw_rect_t *of,
    const vw_rect_t *in, vw_image_t *view);


#endif /* _VW_IMAGE_H_INCLUDED_ */
