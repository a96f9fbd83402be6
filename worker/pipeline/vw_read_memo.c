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
static int vw_memo_keep_ref(vw_pipe_t *p);
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

    vw_image_free(&p->memo_ref);
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
 * picture behind them since the screen opened before it: a line that
 * screen's reading left unread, of the same size, shifted, its pixels
 * gone with it (vw_memo_match, vw_memo_went), when at least
 * VW_MOVED_WITH other lines shifted the same way (a pan or a drift of
 * a busy background, whose specks and edges make the same "lines" in
 * each look, moved together).  A caption stays where it is, a line
 * that slides on its own (a marquee) moves alone, and text that moves
 * with the picture (rolling credits) was read.  Such lines are left
 * out of the region (vw_screen_open), not read alone, and the screen's
 * reading is not read again for lacking them (vw_read_more).  The
 * layer's lines and the first look are then kept for the next screen.
 * -1 when out of memory.
 */
int
vw_memo_moved(vw_pipe_t *p)
{
    int                    i, j, n, o, with, dx[VW_TEXT_LINES_MAX],
                           dy[VW_TEXT_LINES_MAX], hit[VW_TEXT_LINES_MAX];
    const vw_text_t       *t;

    t = &p->ref_layer;
    n = t->nline < VW_TEXT_LINES_MAX ? t->nline : VW_TEXT_LINES_MAX;
    p->nmoved = 0;

    for (i = 0; i < n; i++) {
        p->moved[i] = 0;
        hit[i] = p->memo_turn_q == p->turn_q
                 && p->memo_ref.width == p->ref.width
                 && p->memo_ref.height == p->ref.height
                 && (o = vw_memo_match(p, &t->line[i], &dx[i], &dy[i])) >= 0
                 && vw_memo_went(p, &p->memo_lines[o].box, dx[i], dy[i]);
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
        p->memo_read[i] = 1;        /* until its reading says otherwise */
    }

    p->moved_layer = t->box;

    p->memo_nlines = n;
    p->memo_turn_q = p->turn_q;

    return vw_memo_keep_ref(p);
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
 * The line of the screen opened before that l is, moved: one its
 * reading left unread (vw_read_lines_mark: text that moves, rolling
 * credits, is read), of l's polarity and size (within VW_MOVED_NEAR
 * pixels and 1/VW_MOVED_PART of it), the nearest shifted by more than
 * VW_MOVED_NEAR and less than VW_MOVED_FAR glyph heights.  Its index,
 * and its shift, or -1.
 */
static int
vw_memo_match(const vw_pipe_t *p, const vw_text_line_t *l, int *dx, int *dy)
{
    int                    i, d, best, found, x, y;
    const vw_text_line_t  *o;

    best = -1;
    found = -1;

    for (i = 0; i < p->memo_nlines; i++) {
        o = &p->memo_lines[i];

        if (p->memo_read[i] || o->polarity != l->polarity
            || abs(o->box.w - l->box.w)
               > VW_MOVED_NEAR + l->box.w / VW_MOVED_PART
            || abs(o->box.h - l->box.h)
               > VW_MOVED_NEAR + l->box.h / VW_MOVED_PART)
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
        found = i;
        *dx = x;
        *dy = y;
    }

    return best >= 0 ? found : -1;
}


/*
 * Whether the pixels of box o of the screen opened before (its first
 * look, p->memo_ref) went dx, dy in the pending screen's first look:
 * they differ from there by VW_MOVED_DIFF grey levels or less on
 * average, and VW_MOVED_CLOSER times less than from where they were.
 * A caption whose line's box moved because a speck of the background
 * beside it was chained to it did not go: its glyphs are where they
 * were (7 to 12 levels from there, 45 to 50 from the shifted place,
 * on the busy drift of the real-like set, whose background lines
 * differ by 0 to 21 from their shifted place and 25 to 98 from their
 * old one); nor did a new caption that replaced a line of the same
 * size.  Every other pixel of every other row is compared.
 */
int
vw_memo_went(const vw_pipe_t *p, const vw_rect_t *o, int dx, int dy)
{
    int             x, y, x0, y0, x1, y1;
    int64_t         still, went, n;
    const uint8_t  *a, *b, *c;

    x0 = o->x > -dx ? o->x : -dx;
    y0 = o->y > -dy ? o->y : -dy;
    x1 = o->x + o->w < p->ref.width - dx ? o->x + o->w : p->ref.width - dx;
    y1 = o->y + o->h < p->ref.height - dy ? o->y + o->h : p->ref.height - dy;
    x0 = x0 > 0 ? x0 : 0;
    y0 = y0 > 0 ? y0 : 0;
    x1 = x1 < p->ref.width ? x1 : p->ref.width;
    y1 = y1 < p->ref.height ? y1 : p->ref.height;

    if (x1 <= x0 || y1 <= y0) {
        return 0;
    }

    still = 0;
    went = 0;
    n = 0;

    for (y = y0; y < y1; y += 2) {
        a = p->memo_ref.data + (size_t) y * p->memo_ref.stride;
        b = p->ref.data + (size_t) y * p->ref.stride;
        c = p->ref.data + (size_t) (y + dy) * p->ref.stride + dx;

        for (x = x0; x < x1; x += 2) {
            still += abs((int) a[x] - (int) b[x]);
            went += abs((int) a[x] - (int) c[x]);
            n++;
        }
    }

    return VW_MOVED_CLOSER * went < still && went <= VW_MOVED_DIFF * n;
}


/* p->memo_ref becomes a copy of the pending screen's first look.  -1
 * when out of memory. */
static int
vw_memo_keep_ref(vw_pipe_t *p)
{
    int  y;

    if (vw_image_alloc(&p->memo_ref, p->ref.width, p->ref.height) != 0) {
        return -1;
    }

    for (y = 0; y < p->ref.height; y++) {
        memcpy(p->memo_ref.data + (size_t) y * p->memo_ref.stride,
               p->ref.data + (size_t) y * p->ref.stride,
               (size_t) p->ref.width);
    }

    return 0;
}
