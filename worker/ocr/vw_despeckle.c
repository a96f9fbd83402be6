/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Specks erased from a black and white picture before Tesseract reads
 * it (see vw_ocr_int.h, VW_OCR_SPECK_PART): strong grain behind big
 * outlined captions leaves thousands of specks around the glyphs, and
 * Tesseract reads the lines among them with junk, or loses them.
 */

#include <stdlib.h>
#include <string.h>

#include "vw_ocr_int.h"


/* the despeckled copy and the flood fill's work space, kept across calls */
static vw_image_t   vw_despeckle_copy;
static uint8_t     *vw_despeckle_seen;
static uint32_t    *vw_despeckle_stack;
static size_t       vw_despeckle_stack_cap;
static size_t       vw_despeckle_work_cap;


static int vw_despeckle_fill(uint8_t *pix, int w, int h, size_t seed,
    int limit, uint8_t erase);


/*
 * img itself when it is not a black and white picture or has no specks
 * (VW_OCR_SPECK_PART, or components of extent speck or less);
 * else a copy without them, valid until the next call.  NULL when out
 * of memory.
 */
const vw_image_t *
vw_despeckle(const vw_image_t *img, int speck)
{
    int             x, y, w, h, ext, limit, glyphs, half;
    size_t          n, i, specks;
    uint8_t        *pix;
    uint32_t        hist[VW_OCR_SPECK_MAX * VW_OCR_SPECK_PART + 1];
    const uint8_t  *row;

    w = img->width;
    h = img->height;
    n = (size_t) w * (size_t) h;

    for (y = 0; y < h; y++) {
        row = img->data + (size_t) y * (size_t) img->stride;

        for (x = 0; x < w; x++) {
            if (row[x] != 0 && row[x] != 255) {
                return img;
            }
        }
    }

    if (n > vw_despeckle_work_cap) {
        free(vw_despeckle_copy.data);
        free(vw_despeckle_seen);
        vw_despeckle_copy.data = malloc(n);
        vw_despeckle_seen = malloc(n);
        vw_despeckle_work_cap = vw_despeckle_copy.data && vw_despeckle_seen
                                ? n : 0;

        if (vw_despeckle_work_cap == 0) {
            return NULL;
        }
    }

    pix = vw_despeckle_copy.data;

    for (y = 0; y < h; y++) {
        memcpy(pix + (size_t) y * (size_t) w,
               img->data + (size_t) y * (size_t) img->stride, (size_t) w);
    }

    /* the extents of the black components: the median glyph's */

    memset(vw_despeckle_seen, 0, n);
    memset(hist, 0, sizeof(hist));
    specks = 0;
    glyphs = 0;

    for (i = 0; i < n; i++) {
        if (pix[i] != 0 || vw_despeckle_seen[i]) {
            continue;
        }

        ext = vw_despeckle_fill(pix, w, h, i, 0, 0);
        if (ext < 0) {
            return NULL;
        }

        if (ext >= VW_OCR_GLYPH_MIN) {
            glyphs++;
            ext = ext < VW_OCR_SPECK_MAX * VW_OCR_SPECK_PART
                  ? ext : VW_OCR_SPECK_MAX * VW_OCR_SPECK_PART;
            hist[ext]++;

        } else {
            specks++;
        }
    }

    if (speck == 0 && (glyphs == 0 || specks == 0)) {
        return img;
    }

    limit = 0;

    if (glyphs > 0) {
        half = 0;
        for (ext = 0; ext <= VW_OCR_SPECK_MAX * VW_OCR_SPECK_PART; ext++) {
            half += (int) hist[ext];
            if (2 * half >= glyphs) {
                break;
            }
        }

        limit = ext / VW_OCR_SPECK_PART;
    }

    limit = limit > speck ? limit : speck;

    if (limit < 1) {
        return img;
    }

    /* again, erasing the components no larger than limit */

    memset(vw_despeckle_seen, 0, n);

    for (i = 0; i < n; i++) {
        if (pix[i] == 0 && !vw_despeckle_seen[i]
            && vw_despeckle_fill(pix, w, h, i, limit, 1) < 0)
        {
            return NULL;
        }
    }

    vw_despeckle_copy.width = w;
    vw_despeckle_copy.height = h;
    vw_despeckle_copy.stride = w;

    return &vw_despeckle_copy;
}


/*
 * Marks the black 8-connected component of pix at seed as seen and
 * returns its extent (the larger of its width and height), -1 when out
 * of memory.  erase: when the extent is at most limit, the component is
 * made white.
 */
static int
vw_despeckle_fill(uint8_t *pix, int w, int h, size_t seed, int limit,
    uint8_t erase)
{
    int        x, y, dx, dy, x0, x1, y0, y1, nx, ny;
    size_t     top, k, all, j;
    uint32_t  *grown;

    top = 0;
    all = 0;
    x0 = x1 = (int) (seed % (size_t) w);
    y0 = y1 = (int) (seed / (size_t) w);

    /* a queue that keeps what it served: each pixel is pushed once, so
     * the whole component is vw_despeckle_stack[0..all) when the fill ends */

    if (vw_despeckle_stack_cap == 0) {
        vw_despeckle_stack = malloc(4096 * sizeof(uint32_t));
        if (vw_despeckle_stack == NULL) {
            return -1;
        }
        vw_despeckle_stack_cap = 4096;
    }

    vw_despeckle_seen[seed] = 1;
    vw_despeckle_stack[all++] = (uint32_t) seed;

    while (top < all) {
        k = vw_despeckle_stack[top++];
        x = (int) (k % (size_t) w);
        y = (int) (k / (size_t) w);

        x0 = x < x0 ? x : x0;
        x1 = x > x1 ? x : x1;
        y0 = y < y0 ? y : y0;
        y1 = y > y1 ? y : y1;

        for (dy = -1; dy <= 1; dy++) {
            for (dx = -1; dx <= 1; dx++) {
                nx = x + dx;
                ny = y + dy;

                if (nx < 0 || ny < 0 || nx >= w || ny >= h) {
                    continue;
                }

                j = (size_t) ny * (size_t) w + (size_t) nx;

                if (pix[j] != 0 || vw_despeckle_seen[j]) {
                    continue;
                }

                if (all == vw_despeckle_stack_cap) {
                    grown = realloc(vw_despeckle_stack,
                                    2 * vw_despeckle_stack_cap
                                    * sizeof(uint32_t));
                    if (grown == NULL) {
                        return -1;
                    }
                    vw_despeckle_stack = grown;
                    vw_despeckle_stack_cap *= 2;
                }

                vw_despeckle_seen[j] = 1;
                vw_despeckle_stack[all++] = (uint32_t) j;
            }
        }
    }

    x = x1 - x0 + 1;
    y = y1 - y0 + 1;
    x = x > y ? x : y;

    if (erase && x <= limit) {
        for (k = 0; k < all; k++) {
            pix[vw_despeckle_stack[k]] = 255;
        }
    }

    return x;
}


void
vw_despeckle_free(void)
{
    free(vw_despeckle_copy.data);
    free(vw_despeckle_seen);
    free(vw_despeckle_stack);
    memset(&vw_despeckle_copy, 0, sizeof(vw_image_t));
    vw_despeckle_seen = NULL;
    vw_despeckle_stack = NULL;
    vw_despeckle_stack_cap = 0;
    vw_despeckle_work_cap = 0;
}
