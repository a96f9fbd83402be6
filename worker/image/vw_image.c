/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Grey pictures (see vw_image.h): sized, swapped, viewed in part, and
 * told near-identical.
 */

#include <stdlib.h>
#include <string.h>

#include "vw_image_int.h"


/*
 * vw_image_similar_step's cells, each computed once: a row of cells
 * (VW_SIMILAR_CELL pixels high) holds per cell |sa - sb| added up with
 * the cells to its right in a block, so a block is one lookup in each
 * of its rows; the rows of a row of blocks are kept in a ring (slot:
 * the row's top in cells, modulo), shared with the next row of blocks
 * when they overlap.  A block off the cells' grid (the last of a row,
 * moved back to the picture's edge) or past the cells a row holds (none:
 * a picture is at most VW_MAX_SIDE wide) is read on its own.
 */
#define VW_IMAGE_CELLS        4096
#define VW_IMAGE_BLOCK_CELLS  (VW_SIMILAR_BLOCK / VW_SIMILAR_CELL)

typedef struct {
    const vw_image_t  *a, *b;
    int                ncells;
    int                y[VW_IMAGE_BLOCK_CELLS];     /* each row's top */
    uint16_t           sum[VW_IMAGE_BLOCK_CELLS][VW_IMAGE_CELLS];
} vw_image_cells_t;


static int vw_image_similar_step(const vw_image_t *a, const vw_image_t *b,
    int step, int *diff);
static int vw_image_cells_block(vw_image_cells_t *c, int bx, int by);
static void vw_image_cells_row(vw_image_cells_t *c, int slot, int y);
static VW_VECTORISE void vw_image_cells_px(int16_t *restrict d,
    const uint8_t *restrict a, const uint8_t *restrict b, size_t astride,
    size_t bstride, int n);
static int vw_image_block_diff(const vw_image_t *a, const vw_image_t *b,
    int bx, int by);


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


int
vw_image_similar(const vw_image_t *a, const vw_image_t *b, int *diff)
{
    return vw_image_similar_step(a, b, VW_SIMILAR_BLOCK / 2, diff);
}


int
vw_image_similar_coarse(const vw_image_t *a, const vw_image_t *b)
{
    return vw_image_similar_step(a, b, VW_SIMILAR_BLOCK, NULL);
}


/* the blocks step pixels apart (a half block: they overlap by half) */
static int
vw_image_similar_step(const vw_image_t *a, const vw_image_t *b, int step,
    int *diff)
{
    int                bx, by, x, y, i, worst, score;
    const uint8_t     *pa, *pb;
    vw_image_cells_t  *c, cells;

    worst = 0;

    if (a->width != b->width || a->height != b->height) {
        worst = 255;
        goto done;
    }

    if (a->width < VW_SIMILAR_BLOCK || a->height < VW_SIMILAR_BLOCK) {
        /* too small for blocks: every pixel must be close */
        for (y = 0; y < a->height; y++) {
            pa = a->data + (size_t) y * a->stride;
            pb = b->data + (size_t) y * b->stride;

            for (x = 0; x < a->width; x++) {
                score = abs((int) pa[x] - (int) pb[x]);
                worst = score > worst ? score : worst;
            }
        }

        goto done;
    }

    /*
     * Blocks overlap by half, and the last row and column of blocks are
     * aligned to the picture's edges, so every pixel is in a block and a
     * change is never split thinly between two.
     */

    c = &cells;
    c->a = a;
    c->b = b;
    c->ncells = a->width / VW_SIMILAR_CELL;
    c->ncells = c->ncells < VW_IMAGE_CELLS ? c->ncells : VW_IMAGE_CELLS;

    for (i = 0; i < VW_IMAGE_BLOCK_CELLS; i++) {
        c->y[i] = -1;
    }

    for (by = 0; ; by += step) {
        if (by > a->height - VW_SIMILAR_BLOCK) {
            by = a->height - VW_SIMILAR_BLOCK;
        }

        for (bx = 0; ; bx += step) {
            if (bx > a->width - VW_SIMILAR_BLOCK) {
                bx = a->width - VW_SIMILAR_BLOCK;
            }

            score = vw_image_cells_block(c, bx, by);

            if (score > worst) {
                worst = score;

                if (worst >= VW_SIMILAR_MAX_DIFF) {
                    goto done;
                }
            }

            if (bx == a->width - VW_SIMILAR_BLOCK) {
                break;
            }
        }

        if (by == a->height - VW_SIMILAR_BLOCK) {
            break;
        }
    }

done:

    if (diff != NULL) {
        *diff = worst;
    }

    return worst < VW_SIMILAR_MAX_DIFF;
}


/* vw_image_block_diff of the block at bx, by, from the ring of cells */
static int
vw_image_cells_block(vw_image_cells_t *c, int bx, int by)
{
    int       k, kx, y, slot;
    unsigned  sum;

    kx = bx / VW_SIMILAR_CELL;

    if (bx % VW_SIMILAR_CELL != 0 || kx + VW_IMAGE_BLOCK_CELLS > c->ncells) {
        return vw_image_block_diff(c->a, c->b, bx, by);
    }

    sum = 0;

    for (k = 0; k < VW_IMAGE_BLOCK_CELLS; k++) {
        y = by + k * VW_SIMILAR_CELL;
        slot = (y / VW_SIMILAR_CELL) % VW_IMAGE_BLOCK_CELLS;

        if (c->y[slot] != y) {
            vw_image_cells_row(c, slot, y);
        }

        sum += c->sum[slot][kx];
    }

    return (int) (sum / (VW_SIMILAR_BLOCK * VW_SIMILAR_BLOCK));
}


/*
 * The row of cells with its top at y into slot: a's sum less b's down
 * each column of the row (a loop that vectorises), |the sum of a cell's
 * columns|, then each cell added up with those to its right in a block
 * (at most 4 x 16 x 255: a uint16_t holds it).
 */
static void
vw_image_cells_row(vw_image_cells_t *c, int slot, int y)
{
    int        k, j, x, n, s;
    int16_t    d[256 * VW_SIMILAR_CELL];
    uint16_t  *sum;

    sum = c->sum[slot];

    for (k = 0; k < c->ncells; k += n) {
        n = c->ncells - k < 256 ? c->ncells - k : 256;

        vw_image_cells_px(d,
                          c->a->data + (size_t) y * c->a->stride
                          + (size_t) k * VW_SIMILAR_CELL,
                          c->b->data + (size_t) y * c->b->stride
                          + (size_t) k * VW_SIMILAR_CELL,
                          (size_t) c->a->stride, (size_t) c->b->stride,
                          n * VW_SIMILAR_CELL);

        for (j = 0; j < n; j++) {
            s = 0;

            for (x = j * VW_SIMILAR_CELL; x < (j + 1) * VW_SIMILAR_CELL; x++) {
                s += d[x];
            }

            sum[k + j] = (uint16_t) abs(s);
        }
    }

    for (k = 0; k + VW_IMAGE_BLOCK_CELLS <= c->ncells; k++) {
        for (j = k + 1; j < k + VW_IMAGE_BLOCK_CELLS; j++) {
            sum[k] = (uint16_t) (sum[k] + sum[j]);
        }
    }

    c->y[slot] = y;
}


/* d[x] = the sum of a's column x over a cell's rows less b's */
static VW_VECTORISE void
vw_image_cells_px(int16_t *restrict d, const uint8_t *restrict a,
    const uint8_t *restrict b, size_t astride, size_t bstride, int n)
{
    int  x;

    for (x = 0; x < n; x++) {
        d[x] = (int16_t) (a[x] + a[x + astride] + a[x + 2 * astride]
                          + a[x + 3 * astride] - b[x] - b[x + bstride]
                          - b[x + 2 * bstride] - b[x + 3 * bstride]);
    }
}


/*
 * A block's score: the mean, over its cells of VW_SIMILAR_CELL pixels
 * square, of the difference of the two cells' mean levels.  Averaging a
 * cell first makes grain and compression noise cancel out; a stroke that
 * appears or goes away still moves its cells' means by tens of levels.
 */
static int
vw_image_block_diff(const vw_image_t *a, const vw_image_t *b, int bx, int by)
{
    int             cx, cy, x, y, sa, sb;
    unsigned        sum;
    const uint8_t  *pa, *pb;

    sum = 0;

    for (cy = by; cy < by + VW_SIMILAR_BLOCK; cy += VW_SIMILAR_CELL) {
        for (cx = bx; cx < bx + VW_SIMILAR_BLOCK; cx += VW_SIMILAR_CELL) {
            sa = 0;
            sb = 0;

            for (y = cy; y < cy + VW_SIMILAR_CELL; y++) {
                pa = a->data + (size_t) y * a->stride + cx;
                pb = b->data + (size_t) y * b->stride + cx;

                for (x = 0; x < VW_SIMILAR_CELL; x++) {
                    sa += pa[x];
                    sb += pb[x];
                }
            }

            sum += (unsigned) abs(sa - sb);
        }
    }

    return (int) (sum / (VW_SIMILAR_BLOCK * VW_SIMILAR_BLOCK));
}
