/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Combining looks (see vw_stack.h): the temporal mean of a screen's text
 * region over the pictures that show it.  Burned-in text keeps its
 * levels from one frame to the next while the background under and
 * around it moves, and the noise of the source and of the compression
 * is new in every frame: in the mean of n looks the glyphs stay as they
 * are and the rest tends to its average, its noise shrinking by about
 * the square root of n.  Binarised after that, specks that a single
 * picture lets through (grain as bright as the glyphs, next to a dark
 * pixel) are gone.  Looks of text that slides are added at the shift
 * that aligns them with the first look (vw_text_shift).
 */

#include <stdlib.h>
#include <string.h>

#include "vw_stack.h"


/* the sums' loops are of unknown length: GCC vectorises them at -O2
 * only with its usual cost model */
#if defined(__GNUC__) && !defined(__clang__)
#define VW_STACK_VECTORISE                                                \
    __attribute__((optimize("tree-vectorize", "vect-cost-model=dynamic")))
#else
#define VW_STACK_VECTORISE
#endif


static VW_STACK_VECTORISE void vw_stack_row(uint16_t *restrict s,
    const uint8_t *restrict q, int n);


void
vw_stack_free(vw_stack_t *st)
{
    free(st->sum);
    memset(st, 0, sizeof(vw_stack_t));
}


int
vw_stack_start(vw_stack_t *st, const vw_image_t *g, const vw_rect_t *r,
    int max)
{
    size_t     need;
    uint16_t  *p;

    need = (size_t) r->w * (size_t) r->h;

    if (need > st->cap) {
        p = realloc(st->sum, need * sizeof(uint16_t));
        if (p == NULL) {
            return -1;
        }

        st->sum = p;
        st->cap = need;
    }

    st->rect = *r;
    st->count = 0;
    st->max = max;
    memset(st->sum, 0, need * sizeof(uint16_t));

    vw_stack_add(st, g, 0);

    return 0;
}


void
vw_stack_add(vw_stack_t *st, const vw_image_t *g, int dx)
{
    int             x, y, xs, w;
    uint16_t       *s;
    const uint8_t  *q;

    if (st->count >= st->max || g->width == 0) {
        return;
    }

    w = g->width;

    for (y = 0; y < st->rect.h; y++) {
        q = g->data + (size_t) (st->rect.y + y) * g->stride;
        s = st->sum + (size_t) y * st->rect.w;

        if (dx == 0) {
            vw_stack_row(s, q + st->rect.x, st->rect.w);
            continue;
        }

        for (x = 0; x < st->rect.w; x++) {
            xs = st->rect.x + x + dx;
            xs = xs < 0 ? 0 : (xs >= w ? w - 1 : xs);
            s[x] += q[xs];
        }
    }

    st->count++;
}


int
vw_stack_mean(const vw_stack_t *st, vw_image_t *out)
{
    int        x, y, n;
    uint8_t   *p;
    uint16_t  *s;

    if (vw_image_alloc(out, st->rect.w, st->rect.h) != 0) {
        return -1;
    }

    n = st->count > 0 ? st->count : 1;

    for (y = 0; y < st->rect.h; y++) {
        p = out->data + (size_t) y * out->stride;
        s = st->sum + (size_t) y * st->rect.w;

        for (x = 0; x < st->rect.w; x++) {
            p[x] = (uint8_t) ((s[x] + n / 2) / n);
        }
    }

    return 0;
}


/* s[x] += q[x], x < n */
static VW_STACK_VECTORISE void
vw_stack_row(uint16_t *restrict s, const uint8_t *restrict q, int n)
{
    int  x;

    for (x = 0; x < n; x++) {
        s[x] = (uint16_t) (s[x] + q[x]);
    }
}
