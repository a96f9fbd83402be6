/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Readings that said nothing, remembered by box and content (see
 * vw_read.c, vw_read_line.c).  A screen, or a line of its layer read
 * alone, that Tesseract read as nothing (or gave up on at the deadline)
 * is not read again while the next screens show the same box with
 * about the same pixels: a busy background taken for lines, a still
 * logo or a pattern that is no text, which the screens around it
 * would each read again at the full cost of a reading.  The content is
 * the box's pixels in the screen's mean, averaged over square cells
 * (half a glyph's height, so that grain and small shifts average out
 * while a glyph that appears or changes moves a cell a lot); a box is
 * the same when each of its edges is within a cell of the remembered
 * one and no cell moved by more than VW_MEMO_CELL_DIFF, nor all of them
 * by more than VW_MEMO_MEAN_DIFF on average.  Not by video: a new
 * caption in the box, or the box moved, is read.
 */

#include <stdlib.h>
#include <string.h>

#include "vw_pipeline_int.h"


static int vw_memo_match(const vw_pipe_t *p, const vw_text_line_t *l,
    int *dx, int *dy);
static int vw_memo_sig(const vw_pipe_t *p, const vw_rect_t *box, int cell,
    uint8_t *sig, size_t cap);
static int vw_memo_same(const vw_pipe_t *p, const vw_memo_t *m,
    const vw_rect_t *box);
static int vw_memo_set(vw_pipe_t *p, vw_memo_t *m, const vw_rect_t *box,
    int glyph_h);


/* 1 if the pending screen's region is a screen remembered as read as
 * nothing (vw_memo_screen_fail) */
int
vw_memo_screen_known(const vw_pipe_t *p)
{
    return vw_memo_same(p, &p->memo_screen, &p->region);
}


/* the pending screen read as nothing: remembered.  -1 when out of
 * memory. */
int
vw_memo_screen_fail(vw_pipe_t *p)
{
    return vw_memo_set(p, &p->memo_screen, &p->region, p->ref_layer.glyph_h);
}


/* 1 if box (of a layer line, with its margins) is a line remembered as
 * read alone as nothing (vw_memo_line_fail) */
int
vw_memo_line_known(const vw_pipe_t *p, const vw_rect_t *box)
{
    int  i;

    for (i = 0; i < VW_MEMO_LINES; i++) {
        if (vw_memo_same(p, &p->memo_line[i], box)) {
            return 1;
        }
    }

    return 0;
}


/* the line at box read alone as nothing: remembered in place of the
 * oldest.  -1 when out of memory. */
int
vw_memo_line_fail(vw_pipe_t *p, const vw_rect_t *box, int glyph_h)
{
    vw_memo_t  *m;

    m = &p->memo_line[p->memo_next];
    p->memo_next = (p->memo_next + 1) % VW_MEMO_LINES;

    return vw_memo_set(p, m, box, glyph_h);
}


void
vw_memo_free(vw_pipe_t *p)
{
    int  i;

    free(p->memo_screen.sig);
    p->memo_screen.sig = NULL;
    p->memo_screen.n = 0;

    for (i = 0; i < VW_MEMO_LINES; i++) {
        free(p->memo_line[i].sig);
        p->memo_line[i].sig = NULL;
        p->memo_line[i].n = 0;
    }
}


/*
 * m becomes box (in the picture's pixels, within the region) with its
 * content in the pending screen's mean, cells of half glyph_h.
 */
static int
vw_memo_set(vw_pipe_t *p, vw_memo_t *m, const vw_rect_t *box, int glyph_h)
{
    int     cell, n;
    size_t  cap;

    m->n = 0;
    cell = glyph_h / 2 > VW_MEMO_CELL_MIN ? glyph_h / 2 : VW_MEMO_CELL_MIN;
    cap = (size_t) ((box->w + cell - 1) / cell) * ((box->h + cell - 1) / cell);

    if (cap == 0 || cap > VW_MEMO_SIG_MAX) {
        return 0;
    }

    if (cap > m->cap) {
        free(m->sig);
        m->sig = malloc(cap);

        if (m->sig == NULL) {
            m->cap = 0;
            return -1;
        }

        m->cap = cap;
    }

    n = vw_memo_sig(p, box, cell, m->sig, m->cap);

    if (n <= 0) {
        return 0;
    }

    m->box = *box;
    m->cell = cell;
    m->turn_q = p->turn_q;
    m->width = p->ref.width;
    m->height = p->ref.height;
    m->n = n;

    return 0;
}


/*
 * Whether box, in the pending screen's mean, is remembered m: the
 * same picture size and turn, each edge within a cell, and the
 * remembered box's cells about as they were (see the top).
 */
static int
vw_memo_same(const vw_pipe_t *p, const vw_memo_t *m, const vw_rect_t *box)
{
    int      i, n, d, sum;
    uint8_t  sig[VW_MEMO_SIG_MAX];

    if (m->n == 0 || (size_t) m->n > sizeof(sig) || m->turn_q != p->turn_q
        || m->width != p->ref.width || m->height != p->ref.height
        || abs(box->x - m->box.x) > m->cell || abs(box->y - m->box.y) > m->cell
        || abs(box->x + box->w - m->box.x - m->box.w) > m->cell
        || abs(box->y + box->h - m->box.y - m->box.h) > m->cell)
    {
        return 0;
    }

    n = vw_memo_sig(p, &m->box, m->cell, sig, sizeof(sig));

    if (n != m->n) {
        return 0;                   /* the box is not all in the mean */
    }

    sum = 0;

    for (i = 0; i < n; i++) {
        d = abs((int) sig[i] - (int) m->sig[i]);

        if (d > VW_MEMO_CELL_DIFF) {
            return 0;
        }

        sum += d;
    }

    return sum <= VW_MEMO_MEAN_DIFF * n;
}


/*
 * The means of box's cells (cell pixels square, the last ones of a
 * row or column smaller) in the pending screen's mean (of p->region),
 * row by row into sig: their count, 0 when box is not all within the
 * region or they are more than cap.
 */
static int
vw_memo_sig(const vw_pipe_t *p, const vw_rect_t *box, int cell, uint8_t *sig,
    size_t cap)
{
    int             cx, cy, cols, rows, x, y, x0, y0, x1, y1, sum;
    const uint8_t  *row;

    x0 = box->x - p->region.x;
    y0 = box->y - p->region.y;

    if (x0 < 0 || y0 < 0 || box->w <= 0 || box->h <= 0
        || x0 + box->w > p->mean.width || y0 + box->h > p->mean.height)
    {
        return 0;
    }

    cols = (box->w + cell - 1) / cell;
    rows = (box->h + cell - 1) / cell;

    if ((size_t) cols * rows > cap) {
        return 0;
    }

    for (cy = 0; cy < rows; cy++) {
        for (cx = 0; cx < cols; cx++) {
            sum = 0;
            y1 = y0 + (cy + 1) * cell < y0 + box->h ? y0 + (cy + 1) * cell
                                                    : y0 + box->h;
            x1 = x0 + (cx + 1) * cell < x0 + box->w ? x0 + (cx + 1) * cell
                                                    : x0 + box->w;

            for (y = y0 + cy * cell; y < y1; y++) {
                row = p->mean.data + (size_t) y * p->mean.stride;

                for (x = x0 + cx * cell; x < x1; x++) {
                    sum += row[x];
                }
            }

            sig[cy * cols + cx] = (uint8_t)
                (sum / ((y1 - y0 - cy * cell) * (x1 - x0 - cx * cell)));
        }
    }

    return cols * rows;
}


/*
 * Marks the lines of the pending screen's layer that moved with the
 * picture behind them since the screen opened before it: a line of the
 * same size and glyphs as one of that screen's, shifted, when at least
 * VW_MOVED_WITH other lines shifted the same way (a pan or a drift of a
 * busy background, whose specks and edges make the same "lines" in
 * each look, moved together).  Text stays where it is (it is not
 * marked), and a line that slides on its own (a marquee) moves alone.
 * Such lines are not read alone, and the screen's reading is not read
 * again for lacking them (vw_read_more).  The layer's lines are then
 * remembered for the next screen.
 */
void
vw_memo_moved(vw_pipe_t *p)
{
    int                    i, j, n, with, dx[VW_TEXT_LINES_MAX],
                           dy[VW_TEXT_LINES_MAX], hit[VW_TEXT_LINES_MAX];
    const vw_text_t       *t;

    t = &p->ref_layer;
    n = t->nline < VW_TEXT_LINES_MAX ? t->nline : VW_TEXT_LINES_MAX;
    p->nmoved = 0;

    for (i = 0; i < n; i++) {
        p->moved[i] = 0;
        hit[i] = p->memo_turn_q == p->turn_q
                 && vw_memo_match(p, &t->line[i], &dx[i], &dy[i]);
    }

    for (i = 0; i < n; i++) {
        if (!hit[i]) {
            continue;
        }

        with = 0;

        for (j = 0; j < n; j++) {
            with += j != i && hit[j] && abs(dx[j] - dx[i]) <= VW_MOVED_NEAR
                    && abs(dy[j] - dy[i]) <= VW_MOVED_NEAR;
        }

        if (with >= VW_MOVED_WITH) {
            p->moved[i] = 1;
            p->nmoved++;
        }
    }

    for (i = 0; i < n; i++) {
        p->memo_lines[i] = t->line[i];
    }

    p->moved_layer = t->box;

    p->memo_nlines = n;
    p->memo_turn_q = p->turn_q;
}


/* whether line i of the pending screen's layer moved with the
 * background: not if the layer is not the one vw_memo_moved saw (a
 * later look stood in for the first) */
int
vw_memo_is_moved(const vw_pipe_t *p, int i)
{
    return i < VW_TEXT_LINES_MAX && p->moved[i]
           && memcmp(&p->moved_layer, &p->ref_layer.box, sizeof(vw_rect_t))
              == 0
           && memcmp(&p->memo_lines[i].box, &p->ref_layer.line[i].box,
                     sizeof(vw_rect_t)) == 0;
}


/* how many lines of the pending screen's layer moved with the
 * background */
int
vw_memo_nmoved(const vw_pipe_t *p)
{
    int  i, n;

    n = 0;

    for (i = 0; i < p->ref_layer.nline; i++) {
        n += vw_memo_is_moved(p, i);
    }

    return n;
}


/*
 * The line of the screen opened before that l is, moved: the same size
 * (within VW_MOVED_NEAR pixels) and glyphs (within one), the nearest,
 * shifted by more than VW_MOVED_NEAR and less than VW_MOVED_FAR glyph
 * heights.  1 and its shift, or 0.
 */
static int
vw_memo_match(const vw_pipe_t *p, const vw_text_line_t *l, int *dx, int *dy)
{
    int                    i, d, best, x, y;
    const vw_text_line_t  *o;

    best = -1;

    for (i = 0; i < p->memo_nlines; i++) {
        o = &p->memo_lines[i];

        if (abs(o->box.w - l->box.w) > VW_MOVED_NEAR
            || abs(o->box.h - l->box.h) > VW_MOVED_NEAR
            || abs(o->glyphs - l->glyphs) > 1 || o->polarity != l->polarity)
        {
            continue;
        }

        x = l->box.x - o->box.x;
        y = l->box.y - o->box.y;
        d = abs(x) + abs(y);

        if (d <= VW_MOVED_NEAR || d >= VW_MOVED_FAR * l->glyph_h
            || (best >= 0 && d >= best))
        {
            continue;
        }

        best = d;
        *dx = x;
        *dy = y;
    }

    return best >= 0;
}
