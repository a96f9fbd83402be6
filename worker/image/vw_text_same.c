/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Whether two pictures show the same text, compared where either has
 * ink (see vw_text.h and the top of vw_text.c), and how far sliding
 * text moved between them.
 */

#include <stdlib.h>
#include <string.h>

#include "vw_image_int.h"


typedef struct {
    int      k;                         /* the square's side, in blocks */
    int      rows;                      /* rows taken in */
    int      diff;                      /* the square's least mean */
    int16_t  here[VW_TEXT_MAX_COLUMNS]; /* the row being scored */
    int16_t  ring[VW_TEXT_GLYPH_ROWS][VW_TEXT_MAX_COLUMNS];
    int32_t  sum[VW_TEXT_MAX_COLUMNS];  /* per column, over the ring */
} vw_glyph_scan_t;


/* the lines two layers agree on, where the glyph test looks when the
 * layers as a whole do not agree (vw_text_steady_lines) */
typedef struct {
    int        n;
    int        apart;                  /* the other lines lie apart */
    vw_rect_t  r[VW_TEXT_LINES_MAX];   /* in a's place */
} vw_text_steady_t;


/*
 * The cells of vw_text_same's blocks, computed once: a block is 4
 * x 4 cells and the blocks overlap by half, so each cell is in four of
 * them.  A row of cells (VW_SIMILAR_CELL pixels high, from the compared
 * area's left edge) holds per cell the difference of the two pictures'
 * sums and the pixels summed (ink in either mask), each added up with
 * the cells to its right in a block (the block's row of cells, at
 * four lookups a block); the four rows of a row of blocks are kept in
 * a ring, two of them the next row's too.
 */

/* cells across: as many as the block columns followed cover */
#define VW_TEXT_CELLS        (2 * VW_TEXT_MAX_COLUMNS + 2)
/* a block's side in cells, and the rows of cells the ring holds */
#define VW_TEXT_BLOCK_CELLS  (VW_SIMILAR_BLOCK / VW_SIMILAR_CELL)

typedef struct {
    const vw_image_t  *a, *ma, *b, *mb;
    vw_rect_t          u;               /* the area compared */
    int                dx;
    int                ncells;          /* cells across u */
    int                y[VW_TEXT_BLOCK_CELLS];  /* each row's top, or -1 */
    /* per cell, over it and the cells to its right in a block's row */
    uint16_t           diff[VW_TEXT_BLOCK_CELLS][VW_TEXT_CELLS];
    uint8_t            n[VW_TEXT_BLOCK_CELLS][VW_TEXT_CELLS];
    /* a row of cells' columns: a's sum less b's, and the pixels summed */
    int16_t            col[VW_TEXT_CELLS * VW_SIMILAR_CELL];
    uint8_t            coln[VW_TEXT_CELLS * VW_SIMILAR_CELL];
} vw_text_cells_t;


static int vw_text_steady(const vw_text_t *ta, const vw_text_t *tb, int dx);
static int vw_text_steady_line(const vw_text_line_t *la,
    const vw_text_line_t *lb, int dx);
static void vw_text_steady_lines(const vw_text_t *ta, const vw_text_t *tb,
    int dx, vw_text_steady_t *sl);
static int vw_text_lines_apart(const vw_text_t *t, uint32_t used,
    const vw_text_t *o);
static int vw_text_in_lines(const vw_text_steady_t *sl, int bx, int by);
static void vw_text_glyph_start(vw_glyph_scan_t *g, int glyph_h);
static int vw_text_glyph_row(vw_glyph_scan_t *g, int ncols);
static int vw_text_cells_block(vw_text_cells_t *c, int bx, int by);
static void vw_text_cells_row(vw_text_cells_t *c, int row, int y);
static VW_VECTORISE void vw_text_cells_px(int16_t *restrict col,
    uint8_t *restrict coln, const uint8_t *restrict pa,
    const uint8_t *restrict qa, const uint8_t *restrict pb,
    const uint8_t *restrict qb, int n);
static unsigned vw_text_cell(const vw_text_cells_t *c, int x0, int y0, int *n);
static VW_VECTORISE int64_t vw_text_shift_cost(const uint32_t *restrict a,
    const uint32_t *restrict b, int n);


int
vw_text_same(const vw_image_t *a, const vw_text_t *ta,
    const vw_image_t *b, const vw_text_t *tb, int dx, int *diff)
{
    int        bx, by, worst, score, x0, y0, x1, y1, bx0, bx1, bad, inked;
    int        run, longest, far, farthest, col, glyph, steady, i;
    vw_glyph_scan_t   g;
    vw_text_cells_t   cells;
    vw_text_steady_t  sl;
    vw_rect_t         u;

    worst = 0;
    bad = 0;
    inked = 0;
    run = 0;
    longest = 0;
    far = 0;
    farthest = 0;
    glyph = 0;
    steady = vw_text_steady(ta, tb, dx);
    sl.n = 0;
    vw_text_glyph_start(&g, ta->glyph_h > 0 ? ta->glyph_h : tb->glyph_h);

    if (a->width != b->width || a->height != b->height) {
        worst = 255;
        goto done;
    }

    if (ta->box.w == 0 && tb->box.w == 0) {
        goto done;                          /* no text in either */
    }

    if (ta->box.w == 0) {
        worst = 255;                        /* text where there was none */
        goto done;
    }

    if (a->width < VW_SIMILAR_BLOCK || a->height < VW_SIMILAR_BLOCK) {
        return vw_image_similar(a, b, diff);
    }

    /* the blocks that cover both boxes (b's moved by -dx into a's
     * place), aligned inside the picture */

    bx0 = tb->box.x - dx;
    bx1 = tb->box.x + tb->box.w - dx;

    x0 = ta->box.w == 0 ? bx0
         : tb->box.w == 0 ? ta->box.x
         : (ta->box.x < bx0 ? ta->box.x : bx0);
    y0 = ta->box.w == 0 ? tb->box.y
         : tb->box.w == 0 ? ta->box.y
         : (ta->box.y < tb->box.y ? ta->box.y : tb->box.y);
    x1 = tb->box.w == 0 ? ta->box.x + ta->box.w
         : ta->box.w == 0 ? bx1
         : (ta->box.x + ta->box.w > bx1 ? ta->box.x + ta->box.w : bx1);
    y1 = ta->box.y + ta->box.h > tb->box.y + tb->box.h
         ? ta->box.y + ta->box.h : tb->box.y + tb->box.h;

    x0 = x0 < 0 ? 0 : x0;
    x1 = x1 > a->width ? a->width : x1;

    u.x = x0;
    u.y = y0;
    u.w = x1 - x0 < VW_SIMILAR_BLOCK ? VW_SIMILAR_BLOCK : x1 - x0;
    u.h = y1 - y0 < VW_SIMILAR_BLOCK ? VW_SIMILAR_BLOCK : y1 - y0;
    u.x = u.x + u.w > a->width ? a->width - u.w : u.x;
    u.y = u.y + u.h > a->height ? a->height - u.h : u.y;

    if (!steady) {
        vw_text_steady_lines(ta, tb, dx, &sl);
        g.diff = sl.apart ? VW_TEXT_GLYPH_DIFF : VW_TEXT_LINE_DIFF;
    }

    cells.a = a;
    cells.ma = &ta->mask;
    cells.b = b;
    cells.mb = &tb->mask;
    cells.u = u;
    cells.dx = dx;
    cells.ncells = u.w / VW_SIMILAR_CELL;

    for (i = 0; i < VW_TEXT_BLOCK_CELLS; i++) {
        cells.y[i] = -1;
    }

    for (by = u.y; ; by += VW_SIMILAR_BLOCK / 2) {
        if (by > u.y + u.h - VW_SIMILAR_BLOCK) {
            by = u.y + u.h - VW_SIMILAR_BLOCK;
        }

        run = 0;
        far = 0;
        col = 0;

        for (bx = u.x; ; bx += VW_SIMILAR_BLOCK / 2) {
            if (bx > u.x + u.w - VW_SIMILAR_BLOCK) {
                bx = u.x + u.w - VW_SIMILAR_BLOCK;
            }

            score = vw_text_cells_block(&cells, bx, by);
            worst = score > worst ? score : worst;
            bad += score >= VW_TEXT_MAX_DIFF;
            inked += score >= 0;

            /* a word that changed: blocks side by side that all differ
             * (a block with no ink says nothing either way) */
            run = score >= VW_TEXT_MAX_DIFF ? run + 1 : score >= 0 ? 0 : run;
            longest = run > longest ? run : longest;

            /* a glyph that changed: two blocks side by side far apart */
            far = score >= VW_TEXT_FAR_DIFF ? far + 1 : score >= 0 ? 0 : far;
            farthest = far > farthest ? far : farthest;

            if (col < VW_TEXT_MAX_COLUMNS) {
                g.here[col++] = (int16_t) (score > 0
                                           && (steady
                                               || vw_text_in_lines(&sl, bx,
                                                                   by))
                                           ? score : 0);
            }

            if (bx == u.x + u.w - VW_SIMILAR_BLOCK) {
                break;
            }
        }

        /* a glyph that changed among glyphs that did not ("line 031"
         * to "line 032"): the blocks over it differ together */
        glyph |= (steady || sl.n > 0) && vw_text_glyph_row(&g, col);

        if (by == u.y + u.h - VW_SIMILAR_BLOCK) {
            break;
        }
    }

done:

    if (diff != NULL) {
        *diff = worst;
    }

    if (worst == 255) {
        return 0;
    }

    return longest < VW_TEXT_BAD_RUN && farthest < VW_TEXT_FAR_RUN
           && !glyph
           && (bad < VW_TEXT_BAD_BLOCKS
               || 100 * bad < VW_TEXT_BAD_PART * inked);
}


int
vw_text_faded(const vw_image_t *a, const vw_text_t *ta, const vw_image_t *b)
{
    int             x, y;
    int64_t         ga, gb, oa, ob, ng, no, ca, cb;
    const uint8_t  *m, *pa, *pb;
    vw_rect_t       r;

    r = ta->box;

    if (r.w == 0 || a->width != b->width || a->height != b->height) {
        return 0;
    }

    ga = gb = oa = ob = ng = no = 0;

    for (y = r.y; y < r.y + r.h; y++) {
        m = ta->mask.data + (size_t) y * ta->mask.stride;
        pa = a->data + (size_t) y * a->stride;
        pb = b->data + (size_t) y * b->stride;

        for (x = r.x; x < r.x + r.w; x++) {
            if (m[x] == 0) {
                ga += pa[x];
                gb += pb[x];
                ng++;

            } else {
                oa += pa[x];
                ob += pb[x];
                no++;
            }
        }
    }

    if (ng == 0 || no == 0) {
        return 0;
    }

    /* the glyphs' contrast in a, and in b the same way round */

    ca = ga * no - oa * ng;
    cb = gb * no - ob * ng;

    if (ca < 0) {
        ca = -ca;
        cb = -cb;
    }

    return ca >= (int64_t) VW_TEXT_FADE_MIN * ng * no && 2 * cb < ca;
}


/*
 * The glyph test of vw_text_same is made only between two layers
 * that agree where the text is and what it is made of: as many glyphs,
 * on the same rows (to VW_TEXT_STEADY_PX), the ends of their boxes and
 * the shift they are compared at each within half a glyph's height (a
 * letter of another width moves a centred line's ends by that much:
 * "gate H" to "gate J", 8 pixels at 23-pixel glyphs; a ticker slides
 * by more from look to look).  A glyph that changes for another leaves
 * them so; noise that eats or adds pieces of glyphs does not, and over
 * such layers the patches where they disagree can differ as much as a
 * changed glyph does (93-113 on average over 2 x 2 blocks, a caption
 * over moving noise at 720p), so the other rules judge them.
 */
static int
vw_text_steady(const vw_text_t *ta, const vw_text_t *tb, int dx)
{
    int  half;

    half = ta->glyph_h / 2 > VW_TEXT_STEADY_PX ? ta->glyph_h / 2
                                               : VW_TEXT_STEADY_PX;

    return ta->glyphs == tb->glyphs && abs(dx) <= half
           && abs(ta->box.x - tb->box.x) <= half
           && abs(ta->box.x + ta->box.w - tb->box.x - tb->box.w) <= half
           && abs(ta->box.y - tb->box.y) <= VW_TEXT_STEADY_PX
           && abs(ta->box.h - tb->box.h) <= VW_TEXT_STEADY_PX;
}


/*
 * The same test for one line of each layer: as many glyphs, on the
 * same rows, the ends within half a glyph's height.
 */
static int
vw_text_steady_line(const vw_text_line_t *la, const vw_text_line_t *lb,
    int dx)
{
    int  half;

    half = la->glyph_h / 2 > VW_TEXT_STEADY_PX ? la->glyph_h / 2
                                               : VW_TEXT_STEADY_PX;

    return la->glyphs == lb->glyphs && la->polarity == lb->polarity
           && abs(la->box.x - (lb->box.x - dx)) <= half
           && abs(la->box.x + la->box.w - lb->box.x - lb->box.w + dx) <= half
           && abs(la->box.y - lb->box.y) <= VW_TEXT_STEADY_PX
           && abs(la->box.h - lb->box.h) <= VW_TEXT_STEADY_PX;
}


/*
 * Layers that do not agree as a whole may still agree line by line:
 * over a moving picture the layer of one look finds a few glyphs in
 * the picture that the other does not ("Caption 68 of the long
 * lecture" with three specks of a meadow above it), and a digit that
 * changed in the line they share was judged by the whole-layer rules,
 * which a one-glyph change passes.  The lines both have, each in a's
 * place (the union of the two boxes, b's moved by -dx), are where the
 * glyph test looks: a line that noise eats or adds pieces to has not
 * as many glyphs or not the same ends, and is left to the other rules.
 * There a square must differ by VW_TEXT_LINE_DIFF: layers that do not
 * agree are often over noise, which disturbs the lines they share as
 * well (squares of 49-77 between looks of one screen, big outlined
 * captions over a moving picture: the traits set's caps-3-4-lines; a
 * digit that changed on a bar, 91-199).  But when every other line
 * lies apart, on rows no line of the other layer has (a line of specks
 * one layer chained above the caption, not another take of a line
 * both have), the lines both have are as steady layers are, and
 * VW_TEXT_GLYPH_DIFF tells (the meadow's "Caption 55" to "56", whose
 * squares stay under 80, was placed on a later look).
 */
static void
vw_text_steady_lines(const vw_text_t *ta, const vw_text_t *tb, int dx,
    vw_text_steady_t *sl)
{
    int               i, j, x0, y0, x1, y1;
    uint32_t          used_a, used_b;
    const vw_text_line_t  *la, *lb;

    sl->n = 0;
    used_a = 0;
    used_b = 0;

    for (i = 0; i < ta->nline; i++) {
        la = &ta->line[i];

        for (j = 0; j < tb->nline; j++) {
            lb = &tb->line[j];

            if ((used_b & (1u << j)) || !vw_text_steady_line(la, lb, dx)) {
                continue;
            }

            x0 = la->box.x < lb->box.x - dx ? la->box.x : lb->box.x - dx;
            y0 = la->box.y < lb->box.y ? la->box.y : lb->box.y;
            x1 = la->box.x + la->box.w > lb->box.x + lb->box.w - dx
                 ? la->box.x + la->box.w : lb->box.x + lb->box.w - dx;
            y1 = la->box.y + la->box.h > lb->box.y + lb->box.h
                 ? la->box.y + la->box.h : lb->box.y + lb->box.h;

            sl->r[sl->n].x = x0;
            sl->r[sl->n].y = y0;
            sl->r[sl->n].w = x1 - x0;
            sl->r[sl->n].h = y1 - y0;
            sl->n++;
            used_a |= 1u << i;
            used_b |= 1u << j;
            break;
        }
    }

    sl->apart = sl->n > 0 && ta->nline == ta->lines && tb->nline == tb->lines
                && vw_text_lines_apart(ta, used_a, tb)
                && vw_text_lines_apart(tb, used_b, ta);
}


/*
 * 1 if every line of t not in used lies on rows no line of o has: a
 * line one layer has alone, not another take of a line both have
 */
static int
vw_text_lines_apart(const vw_text_t *t, uint32_t used, const vw_text_t *o)
{
    int  i;

    for (i = 0; i < t->nline; i++) {
        if (!(used & (1u << i)) && vw_text_on_rows(o, &t->line[i].box)) {
            return 0;
        }
    }

    return 1;
}


/* 1 if the block at bx, by lies over one of the steady lines: by half
 * a block each way at least (or by the whole line, if it is less). */
static int
vw_text_in_lines(const vw_text_steady_t *sl, int bx, int by)
{
    int               i, ox, oy;
    const vw_rect_t  *r;

    for (i = 0; i < sl->n; i++) {
        r = &sl->r[i];
        ox = (bx + VW_SIMILAR_BLOCK < r->x + r->w ? bx + VW_SIMILAR_BLOCK
                                                  : r->x + r->w)
             - (bx > r->x ? bx : r->x);
        oy = (by + VW_SIMILAR_BLOCK < r->y + r->h ? by + VW_SIMILAR_BLOCK
                                                  : r->y + r->h)
             - (by > r->y ? by : r->y);

        if (ox >= (r->w < VW_SIMILAR_BLOCK / 2 ? r->w : VW_SIMILAR_BLOCK / 2)
            && oy >= (r->h < VW_SIMILAR_BLOCK / 2 ? r->h
                                                  : VW_SIMILAR_BLOCK / 2))
        {
            return 1;
        }
    }

    return 0;
}


/*
 * The glyph test of vw_text_same: a square of blocks, two thirds
 * of a glyph's height a side (at least 2 x 2), that differ by
 * VW_TEXT_GLYPH_DIFF on average, blocks without ink counting 0.  Over
 * a noisy or moving background the text's own blocks differ in patches
 * smaller than a glyph (a thick outline's edge), and by a third of that
 * on average at most (docs/worker-pipeline.md); a glyph that changed
 * differs all over.  The rows of scores are kept in a ring of k, and
 * each column's sum over them.
 */
static void
vw_text_glyph_start(vw_glyph_scan_t *g, int glyph_h)
{
    g->k = glyph_h * 2 / 3 / (VW_SIMILAR_BLOCK / 2);
    g->k = g->k < 2 ? 2 : (g->k > VW_TEXT_GLYPH_ROWS ? VW_TEXT_GLYPH_ROWS
                                                     : g->k);
    g->rows = 0;
    g->diff = VW_TEXT_GLYPH_DIFF;
    memset(g->sum, 0, sizeof(g->sum));
}


/* Takes in the row of ncols scores in g->here: 1 if a square differs. */
static int
vw_text_glyph_row(vw_glyph_scan_t *g, int ncols)
{
    int       c, found;
    int16_t  *old;
    int32_t   window, need;

    old = g->ring[g->rows % g->k];

    /* every row of one comparison has the same ncols */

    for (c = 0; c < ncols; c++) {
        if (g->rows >= g->k) {
            g->sum[c] -= old[c];
        }

        old[c] = g->here[c];
        g->sum[c] += old[c];
    }

    g->rows++;

    if (g->rows < g->k || ncols < g->k) {
        return 0;
    }

    need = (int32_t) g->k * g->k * g->diff;
    window = 0;
    found = 0;

    for (c = 0; c < ncols; c++) {
        window += g->sum[c] - (c >= g->k ? g->sum[c - g->k] : 0);
        found |= c >= g->k - 1 && window >= need;
    }

    return found;
}


/*
 * The score of the block at bx, by: vw_image_block_diff over the pixels
 * that are ink in either mask, b's taken dx to the right (clamped to the
 * picture), per pixel of ink, so that thin strokes count as much as
 * thick; -1 for a block with a few ink pixels (a speck, a corner: it
 * says nothing).  Its cells come from the ring, each read once for the
 * four blocks it is in; a block off the cells' grid (the last of a row
 * or column, moved back into the area) or past the cells a row holds
 * has its own read.
 */
static int
vw_text_cells_block(vw_text_cells_t *c, int bx, int by)
{
    int       kx, ky, k, j, row, n, m;
    unsigned  sum;

    kx = (bx - c->u.x) / VW_SIMILAR_CELL;
    ky = (by - c->u.y) / VW_SIMILAR_CELL;
    sum = 0;
    n = 0;

    if ((bx - c->u.x) % VW_SIMILAR_CELL != 0
        || (by - c->u.y) % VW_SIMILAR_CELL != 0
        || kx + VW_TEXT_BLOCK_CELLS > VW_TEXT_CELLS)
    {
        for (k = 0; k < VW_TEXT_BLOCK_CELLS; k++) {
            for (j = 0; j < VW_TEXT_BLOCK_CELLS; j++) {
                sum += vw_text_cell(c, bx + j * VW_SIMILAR_CELL,
                                    by + k * VW_SIMILAR_CELL, &m);
                n += m;
            }
        }

    } else {
        for (k = 0; k < VW_TEXT_BLOCK_CELLS; k++) {
            row = (ky + k) % VW_TEXT_BLOCK_CELLS;

            if (c->y[row] != by + k * VW_SIMILAR_CELL) {
                vw_text_cells_row(c, row, by + k * VW_SIMILAR_CELL);
            }

            sum += c->diff[row][kx];
            n += c->n[row][kx];
        }
    }

    return n < VW_TEXT_BLOCK_INK ? -1 : (int) (sum / (unsigned) n);
}


/*
 * The row of cells with its top at y, into slot row of the ring: what
 * vw_text_cell gives each, summed a pixel row at a time into the
 * columns (c->col, c->coln), then four columns to a cell.  Where b's
 * pixels, dx to the right, lie inside b (all but a few columns at the
 * edges) the loop over a row vectorises; a cell at a time it did not.
 */
static void
vw_text_cells_row(vw_text_cells_t *c, int row, int y)
{
    int             k, x, xb, yy, ncells, nx, lo, hi, s, n, wb;
    const uint8_t  *pa, *pb, *qa, *qb;

    ncells = c->ncells < VW_TEXT_CELLS ? c->ncells : VW_TEXT_CELLS;
    nx = ncells * VW_SIMILAR_CELL;
    wb = c->b->width;

    /* columns [lo, hi) have b's pixel dx to the right inside b */
    lo = -c->dx - c->u.x;
    lo = lo < 0 ? 0 : (lo > nx ? nx : lo);
    hi = wb - c->dx - c->u.x;
    hi = hi < lo ? lo : (hi > nx ? nx : hi);

    memset(c->col, 0, (size_t) nx * sizeof(int16_t));
    memset(c->coln, 0, (size_t) nx);

    for (yy = y; yy < y + VW_SIMILAR_CELL; yy++) {
        pa = c->a->data + (size_t) yy * c->a->stride + c->u.x;
        qa = c->ma->data + (size_t) yy * c->ma->stride + c->u.x;
        pb = c->b->data + (size_t) yy * c->b->stride;
        qb = c->mb->data + (size_t) yy * c->mb->stride;

        for (x = 0; x < nx; x++) {
            if (x == lo) {
                x = hi;
                if (x == nx) {
                    break;
                }
            }

            xb = c->u.x + x + c->dx;
            xb = xb < 0 ? 0 : (xb >= wb ? wb - 1 : xb);

            if ((qa[x] & qb[xb]) == 0) {
                c->col[x] = (int16_t) (c->col[x] + pa[x] - pb[xb]);
                c->coln[x]++;
            }
        }

        if (hi > lo) {
            xb = c->u.x + lo + c->dx;
            vw_text_cells_px(c->col + lo, c->coln + lo, pa + lo, qa + lo,
                             pb + xb, qb + xb, hi - lo);
        }
    }

    for (k = 0; k < ncells; k++) {
        s = 0;
        n = 0;

        for (x = k * VW_SIMILAR_CELL; x < (k + 1) * VW_SIMILAR_CELL; x++) {
            s += c->col[x];
            n += c->coln[x];
        }

        c->diff[row][k] = (uint16_t) abs(s);
        c->n[row][k] = (uint8_t) n;
    }

    /* each cell with those to its right that make a block's row (at
     * most 4 x 16 x 255 and 64 pixels: the types hold them) */

    for (k = 0; k + VW_TEXT_BLOCK_CELLS <= ncells; k++) {
        for (x = k + 1; x < k + VW_TEXT_BLOCK_CELLS; x++) {
            c->diff[row][k] = (uint16_t) (c->diff[row][k] + c->diff[row][x]);
            c->n[row][k] = (uint8_t) (c->n[row][k] + c->n[row][x]);
        }
    }

    c->y[row] = y;
}


/* n columns of a pixel row of cells: a's pixel less b's where either
 * mask has ink (a mask of the test, no branch: it vectorises) */
static VW_VECTORISE void
vw_text_cells_px(int16_t *restrict col, uint8_t *restrict coln,
    const uint8_t *restrict pa, const uint8_t *restrict qa,
    const uint8_t *restrict pb, const uint8_t *restrict qb, int n)
{
    int      x;
    uint8_t  on, all;

    for (x = 0; x < n; x++) {
        on = (uint8_t) ((qa[x] & qb[x]) == 0);
        all = (uint8_t) -on;
        col[x] = (int16_t) (col[x] + (pa[x] & all) - (pb[x] & all));
        coln[x] = (uint8_t) (coln[x] + on);
    }
}


/* One cell at x0, y0: the difference of the two pictures' sums over
 * the pixels that are ink in either mask, and in *n how many. */
static unsigned
vw_text_cell(const vw_text_cells_t *c, int x0, int y0, int *n)
{
    int             x, y, xb, sa, sb;
    const uint8_t  *pa, *pb, *qa, *qb;

    sa = 0;
    sb = 0;
    *n = 0;

    for (y = y0; y < y0 + VW_SIMILAR_CELL; y++) {
        pa = c->a->data + (size_t) y * c->a->stride;
        pb = c->b->data + (size_t) y * c->b->stride;
        qa = c->ma->data + (size_t) y * c->ma->stride;
        qb = c->mb->data + (size_t) y * c->mb->stride;

        for (x = x0; x < x0 + VW_SIMILAR_CELL; x++) {
            xb = x + c->dx;
            xb = xb < 0 ? 0 : (xb >= c->b->width ? c->b->width - 1 : xb);

            if ((qa[x] & qb[xb]) == 0) {
                sa += pa[x];
                sb += pb[xb];
                (*n)++;
            }
        }
    }

    return (unsigned) abs(sa - sb);
}


/*
 * How far b's glyphs lie to the right of a's: the shift of at most
 * max pixels either way that best matches the two masks' column counts
 * of ink, over the rows of both boxes.  0 when either has no glyph.
 */
int
vw_text_shift(const vw_text_t *ta, const vw_text_t *tb, int max,
    vw_framer_t *fr)
{
    int        x, y, y0, y1, x0, x1, d, best, w;
    int64_t    cost, least;
    uint32_t  *ca, *cb;
    const uint8_t  *q;

    if (ta->box.w == 0 || tb->box.w == 0 || ta->mask.width != tb->mask.width
        || vw_framer_work(fr, 2 * (size_t) ta->mask.width) != 0)
    {
        return 0;
    }

    w = ta->mask.width;
    ca = fr->queue;
    cb = ca + w;
    y0 = ta->box.y < tb->box.y ? ta->box.y : tb->box.y;
    y1 = ta->box.y + ta->box.h > tb->box.y + tb->box.h
         ? ta->box.y + ta->box.h : tb->box.y + tb->box.h;

    memset(ca, 0, 2 * (size_t) w * sizeof(uint32_t));

    for (y = y0; y < y1; y++) {
        q = ta->mask.data + (size_t) y * ta->mask.stride;
        for (x = ta->box.x; x < ta->box.x + ta->box.w; x++) {
            ca[x] += q[x] == 0;
        }

        q = tb->mask.data + (size_t) y * tb->mask.stride;
        for (x = tb->box.x; x < tb->box.x + tb->box.w; x++) {
            cb[x] += q[x] == 0;
        }
    }

    best = 0;
    least = -1;

    for (d = -max; d <= max; d++) {
        /* columns [x0, x1) have x + d inside */
        x0 = d < 0 ? -d : 0;
        x0 = x0 < w ? x0 : w;
        x1 = d > 0 ? w - d : w;
        x1 = x1 > x0 ? x1 : x0;

        cost = vw_text_shift_cost(ca + x0, cb + x0 + d, x1 - x0);

        for (x = 0; x < x0; x++) {
            cost += ca[x];
        }

        for (x = x1; x < w; x++) {
            cost += ca[x];
        }

        if (least < 0 || cost < least || (cost == least && abs(d) < abs(best)))
        {
            least = cost;
            best = d;
        }
    }

    return best;
}


/*
 * The sum of |a[x] - b[x]|, x < n: column counts of ink, each at most a
 * picture's height, over at most its width (VW_MAX_SIDE squared is
 * 2^28: a uint32_t holds it), so the loop vectorises.
 */
static VW_VECTORISE int64_t
vw_text_shift_cost(const uint32_t *restrict a, const uint32_t *restrict b,
    int n)
{
    int       x;
    uint32_t  sum;

    sum = 0;

    for (x = 0; x < n; x++) {
        sum += a[x] > b[x] ? a[x] - b[x] : b[x] - a[x];
    }

    return sum;
}
