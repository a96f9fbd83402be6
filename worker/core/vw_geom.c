/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Boxes (see vw_geom.h).
 */

#include "vw_geom.h"


int
vw_box_ok(const vw_rect_t *b)
{
    return b->x >= 0 && b->y >= 0 && b->w > 0 && b->h > 0
           && b->x <= VW_MAX_SIDE - b->w && b->y <= VW_MAX_SIDE - b->h;
}


void
vw_box_union(vw_rect_t *u, const vw_rect_t *b)
{
    int  x1, y1;

    if (u->w == 0) {
        *u = *b;
        return;
    }

    x1 = u->x + u->w > b->x + b->w ? u->x + u->w : b->x + b->w;
    y1 = u->y + u->h > b->y + b->h ? u->y + u->h : b->y + b->h;

    u->x = u->x < b->x ? u->x : b->x;
    u->y = u->y < b->y ? u->y : b->y;
    u->w = x1 - u->x;
    u->h = y1 - u->y;
}


int64_t
vw_box_overlap(const vw_rect_t *a, const vw_rect_t *b)
{
    int64_t  w, h;

    if (!vw_box_ok(a) || !vw_box_ok(b)) {
        return 0;
    }

    w = (int64_t) (a->x + a->w < b->x + b->w ? a->x + a->w : b->x + b->w)
        - (a->x > b->x ? a->x : b->x);
    h = (int64_t) (a->y + a->h < b->y + b->h ? a->y + a->h : b->y + b->h)
        - (a->y > b->y ? a->y : b->y);

    return w > 0 && h > 0 ? w * h : 0;
}
