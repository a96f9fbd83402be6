/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * A screen whose text rolled: rolling credits, a page scrolled, a sign
 * the camera tilts across.  Each look shows the lines of the screen read
 * before it a few pixels further on, each look is a new screen, and
 * each was read whole again, to the same text.  So the reading of the
 * screen read last is kept (vw_roll_keep), and when the next screen
 * opens, its layer's lines are matched to the lines that reading read
 * (vw_roll_find): every one of those either lies in the new layer,
 * the same size, shifted up or down as the others are, its pixels gone
 * with it (vw_memo_went), or has left the picture.  Such a screen
 * takes the kept reading's lines that lie on its lines, moved with
 * them, and no page reading (vw_roll_take); the lines that came into
 * the picture since are read alone, as any line a reading lacks is
 * (vw_read_lines).  The result stands only if it is the group's text
 * letter for letter (vw_read_screen): a run resumed within the group
 * begins again at its first screen, read whole, and rolls as this one
 * did.  A caption stays where it is, and a line whose text changed as
 * it moved does not match its old pixels: those screens are read
 * whole.
 */

#include <stdlib.h>
#include <string.h>

#include "vw_pipeline_int.h"


static int vw_roll_match(const vw_pipe_t *p, const vw_text_line_t *o,
    int *dx, int *dy);
static int vw_roll_on(const vw_pipe_t *p, const vw_rect_t *b);


/*
 * Whether the pending screen, being opened, rolled from the screen read
 * last: p->roll.rolled, and the shift.  Called before vw_memo_moved
 * overwrites that screen's lines and first look (p->memo_*): each
 * screen opened is read before the next opens, so those are of the
 * screen the kept reading is of, and a turn taken or a picture size
 * changed since shows in them.
 */
void
vw_roll_find(vw_pipe_t *p)
{
    int                    i, matched, dx[VW_TEXT_LINES_MAX],
                           dy[VW_TEXT_LINES_MAX], hit[VW_TEXT_LINES_MAX];
    vw_roll_t             *r;
    const vw_text_line_t  *o;

    r = &p->roll;
    r->rolled = 0;

    if (r->res.text == NULL || p->memo_turn_q != p->turn_q
        || p->memo_ref.width != p->ref.width
        || p->memo_ref.height != p->ref.height
        || p->memo_nlines >= VW_TEXT_LINES_MAX
        || p->ref_layer.nline >= VW_TEXT_LINES_MAX)
    {
        return;
    }

    /* the read lines that are in the layer, moved: one shift for all */

    matched = -1;

    for (i = 0; i < p->memo_nlines; i++) {
        hit[i] = p->memo_read[i]
                 && vw_roll_match(p, &p->memo_lines[i], &dx[i], &dy[i]);

        if (!hit[i]) {
            continue;
        }

        if (matched < 0) {
            matched = i;

        } else if (abs(dx[i] - dx[matched]) > VW_ROLL_NEAR
                   || abs(dy[i] - dy[matched]) > VW_ROLL_NEAR)
        {
            return;
        }
    }

    if (matched < 0 || abs(dx[matched]) > VW_ROLL_NEAR) {
        /* none, or sideways: text that slides is followed by the looks
         * (vw_look_same), and what comes in at a side is a part of a
         * line, which a line read alone reads as junk ("I") */
        return;
    }

    /* and every other read line has left the picture */

    for (i = 0; i < p->memo_nlines; i++) {
        o = &p->memo_lines[i];

        if (p->memo_read[i] && !hit[i]
            && o->box.x + dx[matched] >= 0 && o->box.y + dy[matched] >= 0
            && o->box.x + o->box.w + dx[matched] <= p->ref.width
            && o->box.y + o->box.h + dy[matched] <= p->ref.height)
        {
            return;
        }
    }

    r->dx = dx[matched];
    r->dy = dy[matched];
    r->rolled = 1;
}


/*
 * The kept reading's lines that lie on the pending screen's lines,
 * moved as they rolled, become *res (its boxes in the pending region's
 * OCR pixels): 1; 0 when the screen did not roll, its region is scaled
 * otherwise, or no line of the reading is left; -1 when out of memory.
 */
int
vw_roll_take(vw_pipe_t *p, vw_ocr_result_t *res)
{
    int                    i, n, ox, oy, sum;
    char                  *t, *nl;
    size_t                 len;
    vw_rect_t              b;
    vo_buf_t               text;
    vw_roll_t             *r;
    vw_ocr_line_t         *kept;

    r = &p->roll;

    if (!r->rolled || r->res.text == NULL || r->scale != p->scale) {
        return 0;
    }

    /* the kept reading's text: one line of it per line */

    if (!vw_reading_lined(&r->res)) {
        return 0;
    }

    n = r->res.nlines;

    kept = malloc((size_t) n * sizeof(vw_ocr_line_t));

    if (kept == NULL) {
        return -1;
    }

    vo_buf_init(&text);
    ox = (r->region.x + r->dx - p->region.x) * p->scale;
    oy = (r->region.y + r->dy - p->region.y) * p->scale;
    sum = 0;
    n = 0;
    t = r->res.text;

    for (i = 0; i < r->res.nlines; i++) {
        nl = strchr(t, '\n');
        nl = nl != NULL ? nl : t + strlen(t);

        b = r->res.lines[i].box;
        b.x += ox;
        b.y += oy;

        if (b.x >= 0 && b.y >= 0 && b.x + b.w <= p->region.w * p->scale
            && b.y + b.h <= p->region.h * p->scale && vw_roll_on(p, &b))
        {
            kept[n] = r->res.lines[i];
            kept[n].box = b;

            if (kept[n].letters.w > 0) {
                kept[n].letters.x += ox;
                kept[n].letters.y += oy;
            }

            sum += kept[n].confidence;

            if (n++ > 0) {
                vo_buf_addc(&text, '\n');
            }

            vo_buf_add(&text, t, (size_t) (nl - t));
        }

        t = *nl != '\0' ? nl + 1 : nl;
    }

    memset(res, 0, sizeof(vw_ocr_result_t));
    res->text = n > 0 ? vo_buf_detach(&text, &len) : NULL;

    if (res->text == NULL) {
        free(kept);
        vo_buf_free(&text);
        return n == 0 ? 0 : -1;
    }

    res->lines = kept;
    res->nlines = n;
    res->words = n;
    res->confidence = (sum + n / 2) / n;

    return 1;
}


/*
 * res, the reading of the pending screen, is kept for the next screen
 * (a copy), with the region it read; -1 when out of memory.
 */
int
vw_roll_keep(vw_pipe_t *p, const vw_ocr_result_t *res)
{
    vw_roll_t  *r;

    r = &p->roll;
    vw_roll_forget(p);

    if (res->text == NULL || res->text[0] == '\0' || res->timed_out
        || res->nlines == 0)
    {
        return 0;
    }

    if (vw_ocr_result_copy(&r->res, res) != 0) {
        memset(&r->res, 0, sizeof(vw_ocr_result_t));
        return -1;
    }

    r->region = p->region;
    r->scale = p->scale;

    return 0;
}


void
vw_roll_forget(vw_pipe_t *p)
{
    vw_ocr_result_free(&p->roll.res);
    memset(&p->roll.res, 0, sizeof(vw_ocr_result_t));
    p->roll.rolled = 0;
}


/*
 * The line of the pending screen's layer that o, a line of the screen
 * read before, is: of its polarity and size (within VW_ROLL_NEAR),
 * shifted by more than VW_MOVED_NEAR and less than VW_MOVED_FAR glyph
 * heights, the nearest, its pixels gone with it (vw_memo_went, up to
 * VW_ROLL_NEAR rows off the boxes' shift).  1 and the boxes' shift, or
 * 0.
 */
static int
vw_roll_match(const vw_pipe_t *p, const vw_text_line_t *o, int *dx, int *dy)
{
    int                    i, d, best, x, y;
    const vw_text_line_t  *l;

    best = -1;

    for (i = 0; i < p->ref_layer.nline; i++) {
        l = &p->ref_layer.line[i];

        if (l->polarity != o->polarity
            || abs(l->box.w - o->box.w) > VW_ROLL_NEAR
            || abs(l->box.h - o->box.h) > VW_ROLL_NEAR)
        {
            continue;
        }

        x = l->box.x - o->box.x;
        y = l->box.y - o->box.y;
        d = abs(x) + abs(y);

        if (d <= VW_MOVED_NEAR || d >= VW_MOVED_FAR * o->glyph_h
            || (best >= 0 && d >= best))
        {
            continue;
        }

        best = d;
        *dx = x;
        *dy = y;
    }

    if (best < 0) {
        return 0;
    }

    /* the boxes are of thresholded glyphs, a pixel off either way from
     * where text that moves by a fraction of a pixel a frame went */

    for (i = 0; i < 2 * VW_ROLL_NEAR + 1; i++) {
        y = *dy + (i % 2 ? -(i + 1) / 2 : i / 2);

        if (vw_memo_went(p, &o->box, *dx, y)) {
            return 1;
        }
    }

    return 0;
}


/* box b (in the pending region's OCR pixels) lies on a line of the
 * pending screen's layer */
static int
vw_roll_on(const vw_pipe_t *p, const vw_rect_t *b)
{
    int  i, x0, x1;

    for (i = 0; i < p->ref_layer.nline; i++) {
        if (vw_read_line_on(p, b, &p->ref_layer.line[i], &x0, &x1)) {
            return 1;
        }
    }

    return 0;
}
