/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The looks of a unit (see the top of vw_pipeline.c): each look against
 * the state it is in, the cheap tests before a text layer, a change
 * held until the next look tells (and placed on the frame it began on:
 * vw_boundary.c), and a screen opened and summed over its looks (read
 * once from their mean: vw_read.c).
 */

#include <stdlib.h>
#include <string.h>

#include "media/vw_media.h"
#include "vw_pipeline_int.h"


static int vw_screen_unchanged(vw_pipe_t *p, vw_err_t *err);
static int vw_screen_seen_whole(vw_pipe_t *p, vw_err_t *err);
static int vw_screen_state(vw_pipe_t *p, uint32_t j, int sample,
    int64_t pts_ms, vw_err_t *err);
static int vw_screen_hold(vw_pipe_t *p, uint32_t j, int64_t pts_ms, int keep);
static int vw_screen_glitch(vw_pipe_t *p, vw_err_t *err);
static int vw_screen_goes_on(vw_pipe_t *p, uint32_t j, int sample,
    int64_t pts_ms, int dx, vw_err_t *err);
static int vw_screen_change(vw_pipe_t *p, uint32_t j, int sample,
    int64_t pts_ms, vw_err_t *err);
static int vw_screen_open(vw_pipe_t *p, vw_err_t *err);


/*
 * One look: the same text as the reference (its state goes on), or a
 * change (a new state, with a row).  A sample always has a row.
 */
int
vw_screen_look(vw_pipe_t *p, uint32_t j, vw_err_t *err)
{
    int          rc, sample;
    int64_t      t0, pts_ms;
    vw_stats_t  *st;

    st = &p->run->stats;
    sample = j % p->run->plan.looks == 0;
    pts_ms = -1;
    p->ink_same = 0;

    if (p->join_open && j >= p->join_first + VW_JOIN_LOOKS) {
        vw_join_close(p);           /* its rows have waited long enough */
    }

    t0 = vw_now_ms();
    rc = vw_look_decode(p, j, &pts_ms, err);

    if (rc == 0 && sample) {
        /*
         * A sample is seen whole (its layer): the looks after it start
         * from it, whatever came before, so that a job resumed at this
         * sample judges them as an uninterrupted run does
         */
        p->loose = 0;
        rc = vw_screen_seen_whole(p, err);
    }

    if (rc == 0 && !sample) {
        /* between samples: a plain look first, the layer only if needed */
        st->looks++;
        rc = vw_screen_unchanged(p, err);

        if (rc == 1) {
            st->decode_ms += vw_now_ms() - t0;
            return vw_screen_glitch(p, err);
        }
    }

    if (rc == 0) {
        rc = vw_look_find(p, err);
    }

    if (rc == 0 && sample && !p->osd_tried && !p->pending
        && p->layer.box.w == 0 && p->layer.comps >= VW_ORIENT_COMPS)
    {
        /* glyphs but no line of them: text turned sideways? */
        rc = vw_turn_look(p, err);
    }

    st->decode_ms += vw_now_ms() - t0;

    if (rc < 0) {
        return -1;
    }

    if (rc == 1) {
        if (!sample) {
            return 0;
        }

        st->frames_no_picture++;

        return vw_rows_add(p, j, -1, VO_FRAME_NO_PICTURE, -1, "", 0, 0, err);
    }

    return vw_screen_state(p, j, sample, pts_ms, err);
}


/*
 * The cheap tests of a look between samples, before its text layer: 1
 * when it plainly goes on with the state (and the screen's sum has it),
 * 0 when the layer must tell, -1 on error.  With no text at the
 * reference: the picture is near-identical to the last look.  With
 * text: its glyphs still have their levels (compared on its own ink
 * alone, which a moving background does not disturb) and have not
 * faded into the picture (vw_text_faded: a reference taken in a fade-in
 * is as dim as the fade-out's last frames); that cannot see
 * text that joins the reference's elsewhere (a subtitle under a title
 * that stays), so every other look is seen whole: near-identical to the
 * last look so seen (blocks side by side: a line of text covers
 * several), or else its layer.  A change is placed among the frames
 * since the look before the one that sees it (vw_boundary_keep), so
 * one look in two is enough to place it to the frame (without refine
 * such a change is timed by the look that sees it: up to one late).
 * Which looks those are starts again at each sample (seen whole by its
 * layer), so a job resumed there judges them as a whole run does.  So
 * a still picture costs no layer, a change one, a moving picture with
 * text one every other look.
 */
static int
vw_screen_unchanged(vw_pipe_t *p, vw_err_t *err)
{
    int  same;

    p->ink_same = 0;

    if (!p->have_ref || p->tentative || p->grey.width != p->ref.width
        || p->grey.height != p->ref.height)
    {
        /* a held look is judged with the layer */
        p->have_prev = 0;
        p->loose = 0;
        return 0;
    }

    if (p->ref_layer.box.w > 0) {
        /*
         * On the reference's ink alone: given the reference's own layer
         * for the look, vw_text_same compares where either is ink,
         * that is where the reference is, over the reference's box (a
         * layer with no glyph would give the same, at the cost of a
         * picture-sized mask of paper)
         */
        same = vw_text_same(&p->ref, &p->ref_layer, &p->grey,
                                  &p->ref_layer, 0, NULL)
               && !vw_text_faded(&p->ref, &p->ref_layer, &p->grey);
        p->ink_same = same;

        if (same && !p->loose) {
            /* the last look was seen whole: this one by its ink alone */
            p->loose = 1;
            goto goes_on;
        }

        p->loose = 0;

        if (!same) {
            return 0;
        }

        same = p->have_prev && vw_image_similar_coarse(&p->prev, &p->grey);

    } else {
        same = p->have_prev && vw_image_similar(&p->prev, &p->grey, NULL);
    }

    /* seen whole (or about to be, by its layer): the next looks' match */

    if (vw_screen_seen_whole(p, err) != 0) {
        return -1;
    }

    if (!same) {
        return 0;
    }

goes_on:

    if (p->pending) {
        vw_stack_add(&p->stack, &p->grey, 0);
    }

    return 1;
}


/* The look (p->grey) is the last one seen whole: p->prev. */
static int
vw_screen_seen_whole(vw_pipe_t *p, vw_err_t *err)
{
    if (vw_image_alloc(&p->prev, p->grey.width, p->grey.height) != 0) {
        return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                       p->job->name);
    }

    memcpy(p->prev.data, p->grey.data,
           (size_t) p->grey.stride * p->grey.height);
    p->have_prev = 1;

    return 0;
}


/*
 * Look j (p->grey, p->layer) against the state it is in.  A look that
 * differs from the reference is held (tentative) until the next one
 * tells.  If that shows the reference's state again, the held look was
 * a glitch (glyphs lost in noise, or noise taken for a few glyphs, for
 * one look) and goes on with the state; but text of VW_SURE_GLYPHS
 * glyphs or more where there was none is text, however short.  If it
 * shows the held look's text, the state changed at the held look.  If
 * neither, and it grew out of the held look (vw_look_grew: the first
 * frames of new text can be blurred by the encoder, a fade or a wipe is
 * under way) or the held look's lines were texture that moved on, it
 * takes the held look's place, once, and the change still starts there;
 * else the held look was a screen of its own, shown for one look (a
 * karaoke word, a caption replaced within a quarter second): it starts
 * a state, and this look is held in turn.
 */
static int
vw_screen_state(vw_pipe_t *p, uint32_t j, int sample, int64_t pts_ms,
    vw_err_t *err)
{
    int  dx, held, appeared, same, rc;

    same = p->have_ref && vw_look_same_lines(p, &p->ref, &p->ref_layer,
                                             &p->grey, &p->layer, &dx);

    if (!same) {
        /* noise taken for lines may be what differs: the lines not in
         * the frames beside it go, and it is judged again (invariant:
         * every layer that starts a state, or is held, is cleaned; but
         * those found again when a turn is taken, vw_turn_take,
         * whose frames beside are gone: a job resumed in that screen
         * restores its reference cleaned) */
        rc = vw_look_clean(p, err);

        if (rc < 0) {
            return -1;
        }

        same = rc && p->have_ref
               && vw_look_same_lines(p, &p->ref, &p->ref_layer, &p->grey,
                                     &p->layer, &dx);
    }

    if (same) {
        appeared = p->tentative && p->ref_layer.box.w == 0
                   && p->tent_layer.glyphs >= VW_SURE_GLYPHS;

        if (!appeared) {
            if (vw_screen_glitch(p, err) != 0) {
                return -1;
            }

            return vw_screen_goes_on(p, j, sample, pts_ms, dx, err);
        }

        /* a short text: it starts a state, this look ends it */
        if (vw_screen_commit(p, err) != 0) {
            return -1;
        }

        return vw_screen_hold(p, j, pts_ms, 0);
    }

    if (!p->tentative) {
        return vw_screen_hold(p, j, pts_ms, 0);
    }

    held = vw_look_same_lines(p, &p->tent, &p->tent_layer, &p->grey,
                              &p->layer, &dx);

    if (!held && !sample && !p->stood_in
        && vw_look_grew(&p->ref_layer, &p->tent, &p->tent_layer, &p->grey,
                        &p->layer))
    {
        /* neither, grown out of it: this look stands in for the held
         * one, once (a sample has a row of its own, so it never does) */
        p->stood_in = 1;
        return vw_screen_hold(p, j, pts_ms, 1);
    }

    if (vw_screen_commit(p, err) != 0) {
        return -1;
    }

    if (vw_look_same_lines(p, &p->ref, &p->ref_layer, &p->grey, &p->layer,
                           &dx))
    {
        return vw_screen_goes_on(p, j, sample, pts_ms, dx, err);
    }

    return vw_screen_hold(p, j, pts_ms, 0);
}


/* Holds look j (keep: the held look's index stays the change's start). */
static int
vw_screen_hold(vw_pipe_t *p, uint32_t j, int64_t pts_ms, int keep)
{
    if (!keep || !p->tentative) {
        p->tent_index = j;
        p->tent_pts = pts_ms;
        p->stood_in = 0;
        vw_boundary_keep(p, j);
    }

    p->tentative = 1;
    p->tent_ink = p->ink_same;          /* of the picture held */
    p->tent_us = p->look_us;
    vw_image_swap(&p->grey, &p->tent);
    vw_text_swap(&p->layer, &p->tent_layer);

    return 0;
}


/* The held look changes the state: it starts the new one. */
int
vw_screen_commit(vw_pipe_t *p, vw_err_t *err)
{
    int  rc;

    p->tentative = 0;
    vw_image_swap(&p->grey, &p->tent);
    vw_text_swap(&p->layer, &p->tent_layer);

    rc = vw_screen_change(p, p->tent_index,
                        p->tent_index % p->run->plan.looks == 0, p->tent_pts,
                        err);

    vw_image_swap(&p->grey, &p->tent);
    vw_text_swap(&p->layer, &p->tent_layer);

    return rc;
}


/* The held look was a glitch: a sample goes on with the state. */
static int
vw_screen_glitch(vw_pipe_t *p, vw_err_t *err)
{
    if (!p->tentative) {
        return 0;
    }

    p->tentative = 0;
    vw_boundary_drop(p);

    if (p->pending && p->tent_ink) {
        /* its ink was the reference's, unmoved: the sum has it, as it
         * would have had without the layer */
        vw_stack_add(&p->stack, &p->tent, 0);
    }

    if (p->tent_index % p->run->plan.looks != 0) {
        return 0;
    }

    p->run->stats.frames_reused++;

    return vw_rows_add(p, p->tent_index, p->tent_pts, 0, p->ref_index,
                       p->ref_text, p->ref_conf, 0, err);
}


/* A look that shows the reference's text: its screen's sum has it. */
static int
vw_screen_goes_on(vw_pipe_t *p, uint32_t j, int sample, int64_t pts_ms, int dx,
    vw_err_t *err)
{
    vw_stats_t  *st;

    st = &p->run->stats;

    if (p->pending) {
        /* (where its ink matched the reference's unmoved, it is there) */
        vw_stack_add(&p->stack, &p->grey, p->ink_same ? 0 : dx);

        if (p->stack.count >= VW_LOOKS_COMBINED
            && vw_read_screen(p, err) != 0)
        {
            return -1;
        }
    }

    if (!sample) {
        return 0;
    }

    st->frames_reused++;

    return vw_rows_add(p, j, pts_ms, 0, p->ref_index, p->ref_text,
                       p->ref_conf, 0, err);
}


/* Look j starts a new state: no text, or a screen to be read. */
static int
vw_screen_change(vw_pipe_t *p, uint32_t j, int sample, int64_t pts_ms,
    vw_err_t *err)
{
    int                k, found, failed, old;
    char              *text, *parts;
    int64_t            at_ms;
    unsigned           exact;
    vw_stats_t        *st;
    vw_row_t           known;

    st = &p->run->stats;

    /* a look the ledger has (its unit was cut short): its text */

    k = sample ? 0 : vw_resume_known(p, j, &known, err);

    if (k < 0) {
        return -1;
    }

    /* where the change began: the row's time (VO_FRAME_EXACT), found
     * also for a known row, as the frames before it are the last of
     * the screen that ends (vw_between_last) */

    found = 0;
    at_ms = pts_ms;
    old = 0;

    if (p->job->options->refine
        && vw_boundary_find(p, &at_ms, &found, &old, err) != 0)
    {
        return -1;
    }

    if (k == 0) {
        pts_ms = at_ms;

    } else {
        found = 0;
    }

    /* a change: the screen that ends is read first */

    if (vw_between_last(p, old, err) != 0) {
        return -1;
    }

    vw_boundary_drop(p);

    if (p->pending && vw_read_screen(p, err) != 0) {
        return -1;
    }

    exact = found ? VO_FRAME_EXACT : 0;
    p->state_ms = k > 0 ? known.pts_ms : pts_ms;

    vw_image_swap(&p->grey, &p->ref);
    vw_text_swap(&p->layer, &p->ref_layer);
    p->ref_us = p->tent_us;
    p->have_ref = 1;

    if (k > 0 || p->ref_layer.box.w == 0) {
        /* known, or no glyph: nothing for Tesseract, nothing to join */
        vw_join_close(p);

        text = strdup(k > 0 ? known.text : "");
        parts = vw_pipe_strdup(k > 0 ? known.parts : NULL, &failed);
        if (text == NULL || failed) {
            free(text);
            free(parts);
            return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                           p->job->name);
        }

        vw_pipe_set_ref_text(p, text, parts, k > 0 ? known.confidence : 0,
                             k > 0 ? known.flags : 0, j);

        if (k == 0) {
            st->frames_no_text++;
        }

        return vw_rows_add(p, j, pts_ms, (sample ? 0 : VO_FRAME_BETWEEN)
                           | (k > 0 ? known.flags : VO_FRAME_NO_TEXT | exact),
                           -1, p->ref_text, p->ref_conf, k > 0, err);
    }

    /* a new screen: read when it ends */

    vw_pipe_set_ref_text(p, NULL, NULL, 0, 0, j);

    if (vw_screen_open(p, err) != 0) {
        return -1;
    }

    return vw_rows_add(p, j, pts_ms, (sample ? 0 : VO_FRAME_BETWEEN) | exact,
                       -1, NULL, 0, 0, err);
}


/*
 * Opens a screen at the reference: the region Tesseract will read (the
 * glyphs' box with a margin: a quarter of its height above and below,
 * twice its height, up to a fifth of the picture's height, left and
 * right, the whole width for small glyphs: words the layer lost in the
 * background are still read), summed
 * from this look on; and how much it is scaled up for Tesseract
 * (vw_prep_scale).
 */
static int
vw_screen_open(vw_pipe_t *p, vw_err_t *err)
{
    int         i, px, py;
    vw_rect_t   still, *b, *r;

    b = &p->ref_layer.box;
    r = &p->region;

    /* whether its lines rolled from the screen read last's (before
     * vw_memo_moved keeps this screen's lines in place of those) */

    vw_roll_find(p);

    /* the lines that moved with the background are left out of it, if
     * any line stayed (vw_memo_moved) */

    if (vw_memo_moved(p) != 0) {
        return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                       p->job->name);
    }

    if (p->nmoved > 0 && p->nmoved < p->ref_layer.nline
        && p->ref_layer.nline < VW_TEXT_LINES_MAX)
    {
        still = (vw_rect_t) { 0, 0, 0, 0 };

        for (i = 0; i < p->ref_layer.nline; i++) {
            if (!p->moved[i]) {
                vw_box_union(&still, &p->ref_layer.line[i].box);
            }
        }

        b = &still;
    }

    px = VW_OCR_MARGIN
         + VW_REGION_ACROSS * (b->h < p->ref.height / VW_REGION_ACROSS_PART
                               ? b->h : p->ref.height / VW_REGION_ACROSS_PART);

    py = VW_OCR_MARGIN + b->h / VW_REGION_DOWN_PART;

    if (vw_prep_small(p->ref_layer.glyph_h)) {
        /* small glyphs: the layer misses words of short letters: ten
         * glyph heights each way across */
        px = px > VW_REGION_SMALL_ACROSS * p->ref_layer.glyph_h
             ? px : VW_REGION_SMALL_ACROSS * p->ref_layer.glyph_h;
    }

    if (p->ref_layer.glyph_h < VW_REGION_SHORT_GLYPH) {
        /*
         * a line more above and below (a glyph height and a half): of
         * two stacked lines of 18 px subtitles at 720p, 18 pixels apart
         * (glyphs of 13 pixels on average), Tesseract read only the
         * first with a quarter of their box above and below ("Leave
         * the engine running." on the hard set's hard-small-720p-h264)
         */
        py = py > VW_OCR_MARGIN + 3 * p->ref_layer.glyph_h / 2
             ? py : VW_OCR_MARGIN + 3 * p->ref_layer.glyph_h / 2;
    }

    r->x = b->x > px ? b->x - px : 0;
    r->y = b->y > py ? b->y - py : 0;
    r->w = (b->x + b->w + px < p->ref.width ? b->x + b->w + px
                                            : p->ref.width) - r->x;
    r->h = (b->y + b->h + py < p->ref.height ? b->y + b->h + py
                                             : p->ref.height) - r->y;

    p->scale = vw_prep_scale(p->ref.height, p->ref_layer.glyph_h);

    if (vw_stack_start(&p->stack, &p->ref, r, VW_LOOKS_COMBINED) != 0) {
        return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                       p->job->name);
    }

    p->pending = 1;
    vw_between_start(p);

    return 0;
}
