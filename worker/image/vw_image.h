/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * A grey picture: the one kind of picture every stage after decoding
 * works on (the looks, the text layer, the sums, what Tesseract reads),
 * and whether two are near-identical.
 *
 * Near-identical: in every block of 16x16 pixels of the two (cropped,
 * grey) pictures, the mean over its 4x4-pixel cells of the difference of
 * the cells' mean grey levels is below a threshold (VW_SIMILAR_MAX_DIFF
 * in vw_image_int.h, with what it was measured on).
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


/* 1 if a and b are near-identical (see above); *diff gets the largest
 * block difference found before deciding (may be NULL). */
int vw_image_similar(const vw_image_t *a, const vw_image_t *b, int *diff);

/* The same over blocks side by side, not overlapping: blind to a change
 * smaller than a block that two share (a full stop), not to a line of
 * text (vw_screen_unchanged).  Each cell is summed once either way: it
 * is about three quarters of the work, no longer a quarter. */
int vw_image_similar_coarse(const vw_image_t *a, const vw_image_t *b);


#endif /* _VW_IMAGE_H_INCLUDED_ */
