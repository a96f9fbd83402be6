/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Combining the looks of one screen into the picture Tesseract reads
 * (vw_stack.c): the sum of the text region over the looks that show
 * the same text, and its mean.
 */

#ifndef _VW_STACK_H_INCLUDED_
#define _VW_STACK_H_INCLUDED_


#include "vw_image.h"


typedef struct {
    vw_rect_t   rect;       /* the region, in the picture's pixels */
    uint16_t   *sum;        /* rect.w x rect.h sums */
    size_t      cap;
    int         count;      /* pictures summed */
    int         max;        /* at most this many (at most 257: a sum of
                               255s fits 16 bits) */
} vw_stack_t;


void vw_stack_free(vw_stack_t *st);

/* Starts a sum of region r with picture g as its first look, of max
 * pictures at most; -1 when out of memory. */
int vw_stack_start(vw_stack_t *st, const vw_image_t *g, const vw_rect_t *r,
    int max);

/* Adds picture g (of the first look's size) taken dx pixels to the right;
 * nothing once max pictures are in. */
void vw_stack_add(vw_stack_t *st, const vw_image_t *g, int dx);

/* The mean of the looks summed into out; -1 when out of memory. */
int vw_stack_mean(const vw_stack_t *st, vw_image_t *out);


#endif /* _VW_STACK_H_INCLUDED_ */
