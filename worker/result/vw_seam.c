/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The seam between two parts of a long video: when the next part's rows
 * may take over (vw_seam.h says why this is enough).
 */

#include <string.h>

#include "vw_seam.h"


static int vw_seam_row_same(const vw_row_t *a, const vw_row_t *b);


uint32_t
vw_seam_ref(const vw_row_t *r)
{
    return r->reused_from >= 0 && r->reused_from < (int64_t) r->index
           ? (uint32_t) r->reused_from : r->index;
}


int
vw_seam_same(const vw_row_t *a, size_t na, const vw_row_t *ra,
    const vw_row_t *b, size_t nb, const vw_row_t *rb)
{
    size_t  i;

    if (na == 0 || na != nb || ra == NULL || rb == NULL
        || (a[na - 1].flags & VO_FRAME_JOINING))
    {
        return 0;
    }

    for (i = 0; i < na; i++) {
        if (!vw_seam_row_same(&a[i], &b[i])) {
            return 0;
        }
    }

    return vw_seam_row_same(ra, rb);
}


static int
vw_seam_row_same(const vw_row_t *a, const vw_row_t *b)
{
    return a->index == b->index && a->pts_ms == b->pts_ms
           && a->confidence == b->confidence
           && a->reused_from == b->reused_from && a->flags == b->flags
           && a->box.w == b->box.w
           && (a->box.w == 0            /* no box: the ledger has NULLs */
               || (a->box.x == b->box.x && a->box.y == b->box.y
                   && a->box.h == b->box.h))
           && a->lines == b->lines
           && strcmp(a->text != NULL ? a->text : "",
                     b->text != NULL ? b->text : "") == 0
           && ((a->parts == NULL && b->parts == NULL)
               || (a->parts != NULL && b->parts != NULL
                   && strcmp(a->parts, b->parts) == 0));
}
