/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Rectangles in a picture's pixels, and the boxes a result may give
 * (where text is).  libc only.
 */

#ifndef _VW_GEOM_H_INCLUDED_
#define _VW_GEOM_H_INCLUDED_


#include <stdint.h>


/* a picture is at most this many pixels a side */
#define VW_MAX_SIDE  16384


typedef struct {
    int  x;
    int  y;
    int  w;
    int  h;
} vw_rect_t;


/*
 * 1 if b is a box a result may give: w, h > 0, inside a picture of
 * VW_MAX_SIDE a side.  A row's box that is not (none, or a ledger row
 * that lies) counts as not known.
 */
int vw_box_ok(const vw_rect_t *b);

/* u becomes the union of u (w = 0: empty) and b (w, h > 0). */
void vw_box_union(vw_rect_t *u, const vw_rect_t *b);

/* The area a and b have in common; 0 when either is not a box. */
int64_t vw_box_overlap(const vw_rect_t *a, const vw_rect_t *b);


#endif /* _VW_GEOM_H_INCLUDED_ */
