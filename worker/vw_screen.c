/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The looks of a unit (see vw_pipe.h and the top of vw_pipeline.c):
 * each look against the state it is in, the cheap tests before a text
 * layer, a change held until the next look tells, a screen summed over
 * its looks and read once from their mean, and the rows handed on a
 * unit at a time.
 */

#include <stdlib.h>
#include <string.h>

#include "vw_media.h"
#include "vw_parts.h"
#include "vw_pipe.h"


static int vw_pipe_unchanged(vw_pipe_t *p, vw_err_t *err);
static int vw_pipe_seen_whole(vw_pipe_t *p, vw_err_t *err);
static int vw_pipe_state(vw_pipe_t *p, uint32_t j, int sample,
    int64_t pts_ms, vw_err_t *err);
static int vw_pipe_glitch(vw_pipe_t *p, vw_err_t *err);
static int vw_pipe_goes_on(vw_pipe_t *p, uint32_t j, int sample,
    int64_t pts_ms, int dx, vw_err_t *err);
static int vw_pipe_change(vw_pipe_t *p, uint32_t j, int sample,
    int64_t pts_ms, vw_err_t *err);
static int vw_pipe_hold(vw_pipe_t *p, uint32_t j, int64_t pts_ms, int keep);
static void vw_pipe_keep_between(vw_pipe_t *p, uint32_t j);
static int vw_pipe_boundary(vw_pipe_t *p, int64_t *pts_ms, int *exact,
    int *old, vw_err_t *err);
static int vw_pipe_began(vw_pipe_t *p, int k, vw_err_t *err);
static int vw_pipe_row(vw_pipe_t *p, uint32_t j, int64_t pts_ms,
    unsigned flags, int64_t reused_from, const char *text, int confidence,
    int known, vw_err_t *err);
static int vw_pipe_screen(vw_pipe_t *p, vw_err_t *err);
static int vw_pipe_read_again(vw_pipe_t *p, const vw_ocr_how_t *how,
    vw_ocr_result_t *res, vw_err_t *err);
static int vw_pipe_read_glyphs(vw_pipe_t *p, vw_ocr_result_t *res,
    vw_err_t *err);
static int vw_pipe_ocr_pass(vw_pipe_t *p, const vw_ocr_how_t *how,
    int timeout, int64_t start, vw_ocr_result_t *res, vw_err_t *err);
static int vw_pipe_left(int timeout, int64_t start);
static void vw_pipe_second(vw_pipe_t *p, vw_ocr_result_t *res,
    vw_ocr_result_t *other);
static void vw_pipe_take(vw_ocr_result_t *res, vw_ocr_result_t *other,
    int take);
static int vw_pipe_parts(vw_pipe_t *p, const vw_ocr_result_t *res,
    char **spec);
static int vw_pipe_apart(const vw_rect_t *a, const vw_rect_t *b, int w,
    int h);
static int vw_pipe_few(int letters, int glyphs);
static int vw_pipe_letters(const vw_ocr_result_t *res);
static int vw_pipe_unread(const vw_pipe_t *p, const vw_ocr_result_t *res,
    int fit);
static int vw_pipe_fits(const vw_ocr_result_t *res, int glyphs);
static int vw_pipe_line_lost(const vw_pipe_t *p, const vw_ocr_result_t *res);


/*
 * One look: the same text as the reference (its state goes on), or a
 * change (a new state, with a row).  A sample always has a row.
 */
int
vw_pipe_look(vw_pipe_t *p, uint32_t j, vw_err_t *err)
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
    rc = vw_pipe_decode(p, j, &pts_ms, 0, err);

    if (rc == 0 && sample) {
        /*
         * A sample is seen whole (its layer): the looks after it start
         * from it, whatever came before, so that a job resumed at this
         * sample judges them as an uninterrupted run does
         */
        p->loose = 0;
        rc = vw_pipe_seen_whole(p, err);
    }

    if (rc == 0 && !sample) {
        /* between samples: a plain look first, the layer only if needed */
        st->looks++;
        rc = vw_pipe_unchanged(p, err);

        if (rc == 1) {
            st->decode_ms += vw_now_ms() - t0;
            return vw_pipe_glitch(p, err);
        }
    }

    if (rc == 0) {
        rc = vw_frame_text(&p->framer, &p->grey, &p->layer, err);
    }

    if (rc == 0 && sample && !p->osd_tried && !p->pending
        && p->layer.box.w == 0 && p->layer.comps >= VW_ORIENT_COMPS)
    {
        /* glyphs but no line of them: text turned sideways? */
        rc = vw_pipe_orient_look(p, err);
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

        return vw_pipe_row(p, j, -1, VW_FRAME_NO_PICTURE, -1, "", 0, 0, err);
    }

    return vw_pipe_state(p, j, sample, pts_ms, err);
}


/*
 * Look j (p->grey, p->layer) against the state it is in.  A look that
 * differs from the reference is held (tentative) until the next one
 * tells.  If that shows the reference's state again, the held look was
 * a glitch (glyphs lost in noise, or noise taken for a few glyphs, for
 * one look) and goes on with the state; but text of VW_SURE_GLYPHS
 * glyphs or more where there was none is text, however short.  If it
 * shows the held look's text, the state changed at the held look.  If
 * neither, it takes the held look's place, once, and the change still
 * starts there (the first frames of new text can be blurred by the
 * encoder).
 */
static int
vw_pipe_state(vw_pipe_t *p, uint32_t j, int sample, int64_t pts_ms,
    vw_err_t *err)
{
    int  dx, held, appeared, same, rc;

    same = p->have_ref && vw_pipe_same(p, &p->ref, &p->ref_layer, &p->grey,
                                       &p->layer, &dx);

    if (!same) {
        /* noise taken for lines may be what differs: the lines not in
         * the frames beside it go, and it is judged again (invariant:
         * every layer that starts a state, or is held, is cleaned; but
         * those found again when a turn is taken, vw_pipe_take_turn,
         * whose frames beside are gone: a job resumed in that screen
         * restores its reference cleaned) */
        rc = vw_pipe_clean(p, err);

        if (rc < 0) {
            return -1;
        }

        same = rc && p->have_ref
               && vw_pipe_same(p, &p->ref, &p->ref_layer, &p->grey,
                               &p->layer, &dx);
    }

    if (same) {
        appeared = p->tentative && p->ref_layer.box.w == 0
                   && p->tent_layer.glyphs >= VW_SURE_GLYPHS;

        if (!appeared) {
            if (vw_pipe_glitch(p, err) != 0) {
                return -1;
            }

            return vw_pipe_goes_on(p, j, sample, pts_ms, dx, err);
        }

        /* a short text: it starts a state, this look ends it */
        if (vw_pipe_commit(p, err) != 0) {
            return -1;
        }

        return vw_pipe_hold(p, j, pts_ms, 0);
    }

    if (!p->tentative) {
        return vw_pipe_hold(p, j, pts_ms, 0);
    }

    held = vw_pipe_same(p, &p->tent, &p->tent_layer, &p->grey, &p->layer,
                        &dx);

    if (!held && !sample && !p->stood_in) {
        /* neither: this look stands in for the held one, once (a
         * sample has a row of its own, so it never does) */
        p->stood_in = 1;
        return vw_pipe_hold(p, j, pts_ms, 1);
    }

    if (vw_pipe_commit(p, err) != 0) {
        return -1;
    }

    if (vw_pipe_same(p, &p->ref, &p->ref_layer, &p->grey, &p->layer, &dx)) {
        return vw_pipe_goes_on(p, j, sample, pts_ms, dx, err);
    }

    return vw_pipe_hold(p, j, pts_ms, 0);
}


/* Holds look j (keep: the held look's index stays the change's start). */
static int
vw_pipe_hold(vw_pipe_t *p, uint32_t j, int64_t pts_ms, int keep)
{
    if (!keep || !p->tentative) {
        p->tent_index = j;
        p->tent_pts = pts_ms;
        p->stood_in = 0;
        vw_pipe_keep_between(p, j);
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
vw_pipe_commit(vw_pipe_t *p, vw_err_t *err)
{
    int  rc;

    p->tentative = 0;
    vw_image_swap(&p->grey, &p->tent);
    vw_text_swap(&p->layer, &p->tent_layer);

    rc = vw_pipe_change(p, p->tent_index,
                        p->tent_index % p->run->plan.looks == 0, p->tent_pts,
                        err);

    vw_image_swap(&p->grey, &p->tent);
    vw_text_swap(&p->layer, &p->tent_layer);

    return rc;
}


/* The held look was a glitch: a sample goes on with the state. */
static int
vw_pipe_glitch(vw_pipe_t *p, vw_err_t *err)
{
    if (!p->tentative) {
        return 0;
    }

    p->tentative = 0;
    vw_pipe_free_kept(p);

    if (p->pending && p->tent_ink) {
        /* its ink was the reference's, unmoved: the sum has it, as it
         * would have had without the layer */
        vw_stack_add(&p->stack, &p->tent, 0);
    }

    if (p->tent_index % p->run->plan.looks != 0) {
        return 0;
    }

    p->run->stats.frames_reused++;

    return vw_pipe_row(p, p->tent_index, p->tent_pts, 0, p->ref_index,
                       p->ref_text, p->ref_conf, 0, err);
}


/* A look that shows the reference's text: its screen's sum has it. */
static int
vw_pipe_goes_on(vw_pipe_t *p, uint32_t j, int sample, int64_t pts_ms, int dx,
    vw_err_t *err)
{
    vw_stats_t  *st;

    st = &p->run->stats;

    if (p->pending) {
        /* (where its ink matched the reference's unmoved, it is there) */
        vw_stack_add(&p->stack, &p->grey, p->ink_same ? 0 : dx);

        if (p->stack.count >= VW_STACK_MAX && vw_pipe_read(p, err) != 0) {
            return -1;
        }
    }

    if (!sample) {
        return 0;
    }

    st->frames_reused++;

    return vw_pipe_row(p, j, pts_ms, 0, p->ref_index, p->ref_text,
                       p->ref_conf, 0, err);
}


/* Look j starts a new state: no text, or a screen to be read. */
static int
vw_pipe_change(vw_pipe_t *p, uint32_t j, int sample, int64_t pts_ms,
    vw_err_t *err)
{
    int                k, found, failed, old;
    char              *text, *parts;
    int64_t            at_ms;
    unsigned           exact;
    vw_stats_t        *st;
    vw_frame_result_t  known;

    st = &p->run->stats;

    /* a look the ledger has (its unit was cut short): its text */

    k = sample ? 0 : vw_pipe_known(p, j, &known, err);

    if (k < 0) {
        return -1;
    }

    /* where the change began: the row's time (VW_FRAME_EXACT), found
     * also for a known row, as the frames before it are the last of
     * the screen that ends (vw_between_last) */

    found = 0;
    at_ms = pts_ms;
    old = 0;

    if (p->job->options->refine
        && vw_pipe_boundary(p, &at_ms, &found, &old, err) != 0)
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

    vw_pipe_free_kept(p);

    if (p->pending && vw_pipe_read(p, err) != 0) {
        return -1;
    }

    exact = found ? VW_FRAME_EXACT : 0;
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

        vw_pipe_set_ref_text(p, text, parts, k > 0 ? known.confidence : 0, j);

        if (k == 0) {
            st->frames_no_text++;
        }

        return vw_pipe_row(p, j, pts_ms, (sample ? 0 : VW_FRAME_PROBE)
                           | (k > 0 ? known.flags : VW_FRAME_NO_TEXT | exact),
                           -1, p->ref_text, p->ref_conf, k > 0, err);
    }

    /* a new screen: read when it ends */

    vw_pipe_set_ref_text(p, NULL, NULL, 0, j);

    if (vw_pipe_screen(p, err) != 0) {
        return -1;
    }

    return vw_pipe_row(p, j, pts_ms, (sample ? 0 : VW_FRAME_PROBE) | exact,
                       -1, NULL, 0, 0, err);
}


/*
 * The frames decoded after look j - 2's instant and before look j's
 * frame (which is about to be held), kept with the held look: if it
 * starts a new state, the change began on one of them or on it (look
 * j - 1 may have taken a frame up to a step before its instant:
 * vw_media_frame_near); none before the current state began, so that
 * two changes in consecutive looks stay in order.  Which frames these
 * are depends on the plan, the video and the time of the row that
 * began the state, not on where decoding began (vw_media_start's seek
 * margin), so a resumed job finds the same boundaries.
 */
static void
vw_pipe_keep_between(vw_pipe_t *p, uint32_t j)
{
    int            i, n, first;
    int64_t        after;
    vw_err_t       err;
    vw_between_t  *b;

    vw_pipe_free_kept(p);
    p->tent_whole = 0;

    if (!p->job->options->refine || p->media == NULL) {
        return;
    }

    after = j > 1 ? vw_plan_time_us(&p->run->plan, j - 2) : -1;

    if (p->have_ref && p->state_ms * 1000 + 999 > after) {
        /* not before the state the change ends began (its row's ms) */
        after = p->state_ms * 1000 + 999;
    }

    n = vw_media_kept(p->media, after, p->look_us, &first);

    /* a kept frame at or before after is the old state's, or every frame
     * since the start is there */
    p->tent_whole = first > 0 || !p->media->kept_lost;

    for (i = 0; i < n; i++) {
        b = &p->tent_kept[p->ntent_kept];

        if (vw_pipe_grey(p, p->media->kept[first + i].frame, &b->grey, &err)
            != 0)
        {
            vw_pipe_free_kept(p);   /* timed by the look, then */
            p->tent_whole = 0;
            break;
        }

        b->pts_us = p->media->kept[first + i].pts_us;
        p->ntent_kept++;
    }
}


/* The frames kept between looks are let go (their planes stay, for the
 * next ones). */
void
vw_pipe_free_kept(vw_pipe_t *p)
{
    p->ntent_kept = 0;
}


/*
 * The frame on which the change to the held look (p->grey, p->layer)
 * began, from the old state's reference (p->ref) and the frames kept
 * between the look before it and it: found by bisection, each frame
 * tested with the same comparison as the looks (vw_pipe_began), no OCR.
 * *old becomes the number of those frames before it (they show the old
 * state).  *pts_ms becomes its time, and *exact 1, when the frames
 * searched bracket the change: one of them still shows the old state,
 * or they reach back to one that does (tent_whole).  Otherwise the
 * change may have begun on a frame not kept (4K, 60 fps at 1080p, after
 * a frame that could not be kept) and the row is timed by its look.
 * The kept frames stay (vw_pipe_free_kept lets them go).
 */
static int
vw_pipe_boundary(vw_pipe_t *p, int64_t *pts_ms, int *exact, int *old,
    vw_err_t *err)
{
    int  lo, hi, mid, rc;

    *exact = 0;
    *old = 0;

    if (!p->have_ref) {
        return 0;
    }

    lo = 0;
    hi = p->ntent_kept;         /* hi: the held look itself, which began */

    while (lo < hi) {
        mid = lo + (hi - lo) / 2;
        rc = vw_pipe_began(p, mid, err);

        if (rc < 0) {
            return -1;
        }

        if (rc) {
            hi = mid;

        } else {
            lo = mid + 1;
        }
    }

    *old = lo;

    if (lo > 0 || p->tent_whole) {
        *exact = 1;
        p->run->stats.boundaries++;

        if (lo < p->ntent_kept) {
            *pts_ms = p->tent_kept[lo].pts_us / 1000;
            p->run->stats.boundaries_moved++;
        }
    }

    return 0;
}


/*
 * 1 if kept frame k shows the new state already.  A text is on screen
 * while its ink is found: a change to a picture without text began
 * where the frame matches it (a fading text is still there while the
 * layer sees it); any other change, where the frame no longer matches
 * the old state (a text fading in is there once the layer sees it, a
 * text replaced by another ends when it starts to change).
 */
static int
vw_pipe_began(vw_pipe_t *p, int k, vw_err_t *err)
{
    int                dx;
    const vw_image_t  *cand;

    p->run->stats.boundary_frames++;

    cand = &p->tent_kept[k].grey;

    if (cand->width != p->grey.width || cand->height != p->grey.height) {
        return 0;                   /* another size: not comparable */
    }

    if (vw_frame_text(&p->framer, cand, &p->cand_layer, err) != 0) {
        return -1;
    }

    if (p->layer.box.w == 0) {
        return vw_pipe_same(p, &p->grey, &p->layer, cand, &p->cand_layer,
                            &dx);
    }

    return !vw_pipe_same(p, &p->ref, &p->ref_layer, cand, &p->cand_layer,
                         &dx);
}


/*
 * The cheap tests of a look between samples, before its text layer: 1
 * when it plainly goes on with the state (and the screen's sum has it),
 * 0 when the layer must tell, -1 on error.  With no text at the
 * reference: the picture is near-identical to the last look.  With
 * text: its glyphs still have their levels (compared on its own ink
 * alone, which a moving background does not disturb); that cannot see
 * text that joins the reference's elsewhere (a subtitle under a title
 * that stays), so every other look is seen whole: near-identical to the
 * last look so seen (blocks side by side: a line of text covers
 * several), or else its layer.  A change is placed among the frames
 * since the look before the one that sees it (vw_pipe_keep_between), so
 * one look in two is enough to place it to the frame (without refine
 * such a change is timed by the look that sees it: up to one late).
 * Which looks those are starts again at each sample (seen whole by its
 * layer), so a job resumed there judges them as a whole run does.  So
 * a still picture costs no layer, a change one, a moving picture with
 * text one every other look.
 */
static int
vw_pipe_unchanged(vw_pipe_t *p, vw_err_t *err)
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
         * for the look, vw_frame_same_text compares where either is ink,
         * that is where the reference is, over the reference's box (a
         * layer with no glyph would give the same, at the cost of a
         * picture-sized mask of paper)
         */
        same = vw_frame_same_text(&p->ref, &p->ref_layer, &p->grey,
                                  &p->ref_layer, 0, NULL);
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

        same = p->have_prev && vw_frame_similar_coarse(&p->prev, &p->grey);

    } else {
        same = p->have_prev && vw_frame_similar(&p->prev, &p->grey, NULL);
    }

    /* seen whole (or about to be, by its layer): the next looks' match */

    if (vw_pipe_seen_whole(p, err) != 0) {
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
vw_pipe_seen_whole(vw_pipe_t *p, vw_err_t *err)
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


/* Picture b shows the same text as a, where it is or where it slid. */
int
vw_pipe_same(vw_pipe_t *p, const vw_image_t *a, const vw_text_t *ta,
    const vw_image_t *b, const vw_text_t *tb, int *dx)
{
    int  d;

    *dx = 0;

    if (vw_frame_same_text(a, ta, b, tb, 0, NULL)) {
        return 1;
    }

    if (ta->box.w == 0 || tb->box.w == 0) {
        return 0;
    }

    d = vw_text_shift(ta, tb, b->width / 16, &p->framer);

    if (d != 0 && vw_frame_same_text(a, ta, b, tb, d, NULL)) {
        *dx = d;
        return 1;
    }

    return 0;
}


/* Queues a row (text NULL: the pending screen's, filled in when read). */
static int
vw_pipe_row(vw_pipe_t *p, uint32_t j, int64_t pts_ms, unsigned flags,
    int64_t reused_from, const char *text, int confidence, int known,
    vw_err_t *err)
{
    int        failed;
    size_t     cap;
    vw_row_t  *r;

    if (p->nrows == p->rows_cap) {
        cap = p->rows_cap ? 2 * p->rows_cap : 16;
        r = realloc(p->rows, cap * sizeof(vw_row_t));
        if (r == NULL) {
            return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                           p->job->name);
        }

        p->rows = r;
        p->rows_cap = cap;
    }

    r = &p->rows[p->nrows];
    memset(r, 0, sizeof(vw_row_t));
    r->f.index = j;
    r->f.t_ms = vw_plan_time_ms(&p->run->plan, j);
    r->f.pts_ms = pts_ms;
    r->f.flags = flags;
    r->f.reused_from = reused_from;
    r->f.confidence = confidence;
    r->known = known;

    if (!(flags & VW_FRAME_NO_PICTURE)) {
        /* where the text is: the layer of the screen the row shows */
        vw_orient_box_shown(p->turn, p->ref.width, p->ref.height,
                            p->framer.shrink, p->job->options,
                            &p->ref_layer.box, &r->f.box);
        r->f.lines = r->f.box.w > 0 ? p->ref_layer.lines : 0;
    }

    if (text != NULL) {
        r->text = strdup(text);

        /* a row that shows the reference's text shows its parts */
        r->parts = vw_pipe_strdup(text == p->ref_text ? p->ref_parts : NULL,
                                  &failed);

        if (r->text == NULL || failed) {
            free(r->text);
            free(r->parts);
            r->text = NULL;
            r->parts = NULL;
            return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                           p->job->name);
        }
    }

    p->nrows++;

    return 0;
}


/*
 * Opens a screen at the reference: the region Tesseract will read (the
 * glyphs' box with a margin: a quarter of its height above and below,
 * twice its height, up to a fifth of the picture's height, left and
 * right, the whole width for small glyphs: words the layer lost in the
 * background are still read), summed
 * from this look on; and how much it is scaled up for Tesseract
 * (vw_frame_ocr_scale).
 */
static int
vw_pipe_screen(vw_pipe_t *p, vw_err_t *err)
{
    int         px, py;
    vw_rect_t  *b, *r;

    b = &p->ref_layer.box;
    r = &p->region;

    px = VW_OCR_MARGIN + 2 * (b->h < p->ref.height / 10 ? b->h
                                                         : p->ref.height / 10);

    if (p->ref_layer.glyph_h < VW_OCR_SMALL_GLYPH) {
        /* small glyphs: the layer misses words of short letters: ten
         * glyph heights each way across (the line more above and below
         * that was meant here, for lines of short letters, never took
         * effect: every measurement so far is without it) */
        px = px > 10 * p->ref_layer.glyph_h ? px : 10 * p->ref_layer.glyph_h;
    }

    py = VW_OCR_MARGIN + b->h / 4;

    r->x = b->x > px ? b->x - px : 0;
    r->y = b->y > py ? b->y - py : 0;
    r->w = (b->x + b->w + px < p->ref.width ? b->x + b->w + px
                                            : p->ref.width) - r->x;
    r->h = (b->y + b->h + py < p->ref.height ? b->y + b->h + py
                                             : p->ref.height) - r->y;

    p->scale = vw_frame_ocr_scale(p->ref.height, p->ref_layer.glyph_h);

    if (vw_stack_start(&p->stack, &p->ref, r, VW_STACK_MAX) != 0) {
        return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                       p->job->name);
    }

    p->pending = 1;
    vw_between_start(p);

    return 0;
}


/*
 * Reads the pending screen from the mean of its looks and gives its
 * text to the rows that wait for it.  A screen whose mean shows the
 * text of the screen read before it (vw_join_same) joins that one: it
 * is read only if it has more looks (or to tell, when the group's mean
 * has glyphs beyond it), and the more confident reading is the text of
 * both.
 */
int
vw_pipe_read(vw_pipe_t *p, vw_err_t *err)
{
    int               unread, first_fits, turn_q, joined, rc;
    char             *parts;
    unsigned          flags;
    vw_ocr_how_t      how;
    int64_t           t0;
    vw_stats_t       *st;
    vw_ocr_result_t   res;

    st = &p->run->stats;
    t0 = vw_now_ms();

    if (vw_between_mean(p, 1) != 0) {
        return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                       p->job->name);
    }

    joined = p->join_open ? vw_join_same(p, err) : 0;

    if (joined < 0) {
        return -1;
    }

    if (joined == VW_JOIN_SAME && p->mean_count <= p->join_looks) {
        /* read from fewer looks than the screen it joins: its text */
        return vw_join_take(p, err);
    }

    turn_q = p->turn_q;

    if (vw_pipe_ocr(p, &p->mean, p->ref.width, p->ref.height, &vw_ocr_plain,
                    &res, err)
        != 0)
    {
        goto failed;
    }

    if (p->mean_count > p->stack.count && !res.timed_out
        && !vw_pipe_readable(&res, p->ref_layer.glyphs))
    {
        /* read from the frames between its looks, and unsure: it is
         * read from its looks, as a screen of many looks is
         * (vw_between.c) */
        vw_ocr_result_free(&res);

        if (vw_between_mean(p, 0) != 0) {
            return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                           p->job->name);
        }

        if (vw_pipe_ocr(p, &p->mean, p->ref.width, p->ref.height,
                        &vw_ocr_plain, &res, err)
            != 0)
        {
            goto failed;
        }
    }

    /* a later reading that fits reads the screen only if this one did
     * not fit (mirrored text: vw_pipe_unread) */
    first_fits = vw_pipe_fits(&res, p->ref_layer.glyphs);

    if (vw_pipe_unread(p, &res, 0) && res.words > 0) {
        /*
         * Plenty of glyphs, nothing read, though Tesseract's layout
         * found words (when it found none, vw_pipe_ocr read the region
         * as one block already): the noise left in the mean is what
         * hides the text.  Read again without the specks up to a
         * quarter of a glyph's height (full stops go too: this is for
         * a screen that read as nothing); res becomes the second
         * reading if it says something.
         */
        how.layout = VW_OCR_LAYOUT_AUTO;
        how.speck = p->ref_layer.glyph_h * p->scale / VW_OCR_NOISE_SPECK;

        if (vw_pipe_read_again(p, &how, &res, err) != 0) {
            vw_ocr_result_free(&res);
            goto failed;
        }
    }

    if (!res.timed_out && res.nlines < p->ref_layer.lines) {
        /*
         * Fewer lines read than the layer has (none, or lines Tesseract
         * was unsure of and dropped: a light bar of the background
         * against a caption's outline reads as part of its glyphs):
         * the glyphs alone, as the text layer found them in the
         * screen's first look, without the background or its noise
         */
        if (vw_pipe_read_glyphs(p, &res, err) != 0) {
            vw_ocr_result_free(&res);
            goto failed;
        }
    }

    if (!p->osd_tried && vw_pipe_unread(p, &res, 0)) {
        /* plenty of glyphs, nothing read for sure: is the text upside
         * down or sideways?  (res becomes the turned reading if it is;
         * a reading that fits its glyphs may be upside-down text read
         * as letters: "SPJOM UMOP apisdy" at 53) */
        if (vw_pipe_orient_read(p, &res, err) != 0) {
            vw_ocr_result_free(&res);
            goto failed;
        }
    }

    unread = vw_pipe_unread(p, &res, !first_fits)
             || vw_pipe_line_lost(p, &res);

    if (res.text != NULL && !res.timed_out
        && vw_pipe_few(vw_pipe_letters(&res), p->ref_layer.glyphs))
    {
        /*
         * Fewer letters than a quarter of the glyphs (than two, for a
         * screen of a line or two), however read: what Tesseract makes
         * of noise or of filaments taken for lines ("8" from three
         * "lines" of a zooming fractal), not text to publish.  The rows
         * have no text; a screen of VW_SURE_GLYPHS glyphs or more, or a
         * line that stayed, keeps its flag (unread: the text_unreadable
         * warning).
         */
        res.text[0] = '\0';
        res.confidence = 0;
        res.nlines = 0;
    }

    st->ocr_calls++;
    st->looks_combined += (uint32_t) p->mean_count;
    st->frame_readings += p->mean_count > p->stack.count;
    st->ocr_ms += vw_now_ms() - t0;

    if (joined == VW_JOIN_WITHIN) {
        /* its glyphs are within the group's: it joins if what the
         * group read lies within what it read */
        joined = vw_join_within(p, &res);
    }

    if (joined && (unread || res.timed_out || res.text[0] == '\0'
                   || res.confidence <= p->join_conf
                   || turn_q != p->turn_q))
    {
        /* the reading of the screen it joins is the surer one */
        vw_ocr_result_free(&res);
        return vw_join_take(p, err);
    }

    /* text in two places at once (not in a reading turned since: its
     * lines' boxes are another picture's) */
    parts = NULL;

    if (turn_q == p->turn_q && vw_pipe_parts(p, &res, &parts) != 0) {
        vw_ocr_result_free(&res);
        return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                       p->job->name);
    }

    p->pending = 0;
    vw_pipe_set_ref_text(p, res.text, parts, res.confidence, p->ref_index);

    flags = (unread ? VW_FRAME_UNREAD : 0)
            | (res.timed_out ? VW_FRAME_TIMED_OUT : 0);

    rc = vw_pipe_fill(p, flags, 0, err);

    /* a reading that says something, in the pictures as they are now,
     * may be joined by the next screen (or is the text of those it
     * joined) */

    if (rc == 0 && flags == 0 && p->ref_text[0] != '\0'
        && turn_q == p->turn_q)
    {
        rc = vw_join_keep(p, &res, joined, err);

    } else {
        vw_join_close(p);
    }

    free(res.lines);

    return rc;

failed:

    if (err->status == VW_STOPPED) {
        vw_stop(err, "run \"%s\": stopped during OCR of frame %u",
                p->job->name, p->ref_index);
    }

    return -1;
}


/*
 * The rows that wait for the pending screen's text (its own and the
 * samples that reuse it) get the reference's, with flags, and the
 * screen's own row own too; a deadline that cut its reading short is
 * counted once.
 */
int
vw_pipe_fill(vw_pipe_t *p, unsigned flags, unsigned own, vw_err_t *err)
{
    int        failed;
    size_t     n;
    vw_row_t  *r;

    for (n = 0; n < p->nrows; n++) {
        r = &p->rows[n];

        if (r->text != NULL || (r->f.index != p->ref_index
                                && r->f.reused_from != p->ref_index))
        {
            continue;
        }

        r->text = strdup(p->ref_text);
        r->parts = vw_pipe_strdup(p->ref_parts, &failed);
        if (r->text == NULL || failed) {
            return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                           p->job->name);
        }

        r->f.confidence = p->ref_conf;
        r->f.flags |= flags | (r->f.index == p->ref_index ? own : 0);

        if (flags & VW_FRAME_TIMED_OUT) {
            p->run->stats.frames_timed_out += r->f.index == p->ref_index;
        }
    }

    return 0;
}


/*
 * The pending screen's region read again as how says: *res, an
 * unreadable reading of it, is replaced when this one is readable.
 */
static int
vw_pipe_read_again(vw_pipe_t *p, const vw_ocr_how_t *how,
    vw_ocr_result_t *res, vw_err_t *err)
{
    vw_ocr_result_t  other;

    if (vw_pipe_ocr(p, &p->mean, p->ref.width, p->ref.height, how, &other,
                    err)
        != 0)
    {
        return -1;
    }

    vw_pipe_second(p, res, &other);

    return 0;
}


/*
 * The pending screen's region read from its first look's text layer:
 * the glyph pixels at the level of their kind of ink, the rest at the
 * other (bright glyphs on black, dark ones on white, as the picture
 * would be prepared).  *res is replaced when this reading is readable
 * and has more lines, or *res is not readable.
 */
static int
vw_pipe_read_glyphs(vw_pipe_t *p, vw_ocr_result_t *res, vw_err_t *err)
{
    int              x, y, ink;
    uint8_t         *q;
    const uint8_t   *m;
    const vw_rect_t *r;
    vw_ocr_result_t  other;

    r = &p->region;

    if (vw_image_alloc(&p->inked, r->w, r->h) != 0) {
        return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                       p->job->name);
    }

    ink = p->ref_layer.polarity == VW_TEXT_DARK ? 0 : 255;

    for (y = 0; y < r->h; y++) {
        m = p->ref_layer.mask.data + (size_t) (r->y + y)
                                     * p->ref_layer.mask.stride + r->x;
        q = p->inked.data + (size_t) y * p->inked.stride;

        for (x = 0; x < r->w; x++) {
            q[x] = (uint8_t) (m[x] != 255 ? ink : 255 - ink);
        }
    }

    if (vw_pipe_ocr(p, &p->inked, p->ref.width, p->ref.height, &vw_ocr_plain,
                    &other, err)
        != 0)
    {
        return -1;
    }

    vw_pipe_take(res, &other,
                 vw_pipe_readable(&other, p->ref_layer.glyphs)
                 && (other.nlines > res->nlines
                     || !vw_pipe_readable(res, p->ref_layer.glyphs)));

    return 0;
}


/*
 * A second reading of a screen whose first said nothing: it replaces
 * *res if it says something (vw_pipe_readable) or fits the glyphs
 * (vw_pipe_fits), else it is dropped; the time of both counts, and so
 * does a deadline it ran into.
 */
static void
vw_pipe_second(vw_pipe_t *p, vw_ocr_result_t *res, vw_ocr_result_t *other)
{
    vw_pipe_take(res, other, vw_pipe_readable(other, p->ref_layer.glyphs)
                             || vw_pipe_fits(other, p->ref_layer.glyphs));
}


/* *res becomes *other if take, else stays; the one let go is freed and
 * its time counted in the one kept */
static void
vw_pipe_take(vw_ocr_result_t *res, vw_ocr_result_t *other, int take)
{
    if (take) {
        other->ms += res->ms;
        vw_ocr_result_free(res);
        *res = *other;

    } else {
        res->ms += other->ms;
        res->timed_out |= other->timed_out;
        vw_ocr_result_free(other);
    }
}


/*
 * The parts of a screen's reading (vw_parts.h): its lines in runs, a
 * run ending where the next line is apart from the last (vw_pipe_apart),
 * each run's box the union of its lines' boxes, from the OCR picture's
 * pixels (the region, scaled) to the picture as shown.  *spec: NULL
 * when the reading is one part.  -1 when out of memory.
 */
static int
vw_pipe_parts(vw_pipe_t *p, const vw_ocr_result_t *res, char **spec)
{
    int          i, n, k, conf;
    char         buf[VW_PARTS_SPEC_MAX];
    vw_rect_t    box, *b;
    vw_part_t    parts[VW_PARTS_MAX];

    *spec = NULL;
    n = 0;

    for (i = 0; i < res->nlines; i++) {
        b = &res->lines[i].box;

        if (b->w <= 0 || b->h <= 0) {
            return 0;               /* a line without a box: one part */
        }

        if (i == 0 || (n < VW_PARTS_MAX
                       && vw_pipe_apart(&res->lines[i - 1].box, b,
                                        p->ref.width * p->scale,
                                        p->ref.height * p->scale)))
        {
            memset(&parts[n], 0, sizeof(vw_part_t));
            n++;
        }

        k = n - 1;
        vw_box_union(&parts[k].box, b);
        parts[k].lines++;
        parts[k].confidence += res->lines[i].confidence;   /* a sum, here */
    }

    if (n < 2) {
        return 0;
    }

    for (k = 0; k < n; k++) {
        conf = parts[k].confidence;
        parts[k].confidence = (conf + parts[k].lines / 2) / parts[k].lines;

        b = &parts[k].box;
        box.x = p->region.x + b->x / p->scale;
        box.y = p->region.y + b->y / p->scale;
        box.w = (b->w + p->scale - 1) / p->scale;
        box.h = (b->h + p->scale - 1) / p->scale;

        vw_orient_box_shown(p->turn, p->ref.width, p->ref.height,
                            p->framer.shrink, p->job->options, &box, b);
    }

    if (vw_parts_format(parts, n, buf, sizeof(buf)) < 0) {
        return 0;                   /* a box outside the picture */
    }

    *spec = strdup(buf);

    return *spec == NULL ? -1 : 0;
}


/*
 * Two lines of a reading are apart when the gap between them is more
 * than a third of the picture's height, one above the other, or of its
 * width, side by side (w, h: the OCR picture's scale of them): a title
 * at the top and a subtitle at the bottom, a name in a corner and a
 * line; not the lines of one caption, nor a slide's heading and its
 * points (a fifth of the height apart in the benchmark's slides).
 */
static int
vw_pipe_apart(const vw_rect_t *a, const vw_rect_t *b, int w, int h)
{
    int  vgap, hgap;

    vgap = b->y > a->y ? b->y - (a->y + a->h) : a->y - (b->y + b->h);
    hgap = b->x > a->x ? b->x - (a->x + a->w) : a->x - (b->x + b->w);

    return 3 * vgap > h || (vgap < 0 && 3 * hgap > w);
}


/*
 * A reading says something when it has at least a quarter as many
 * letters or digits as the screen has glyphs (two at least), at a
 * confidence of VW_READ_CONF or more: text upside down, mirrored or in
 * a script the language does not know reads as a few stray marks at a
 * low confidence.
 */
int
vw_pipe_readable(const vw_ocr_result_t *res, int glyphs)
{
    return !vw_pipe_few(vw_pipe_letters(res), glyphs)
           && res->confidence >= VW_READ_CONF;
}


/*
 * A reading less sure than that still reads its screen when it has
 * about as many letters as the screen has glyphs (half to one and a
 * half times), at VW_FIT_CONF or more: a line in strong noise read
 * right but unsure (". Trains delayed in north'", 21 letters for 20
 * glyphs, at 60).  A first reading this unsure is read again all the
 * same (that reads better), and orientation detection runs on it
 * (text upside down reads as about as many letters).
 */
static int
vw_pipe_fits(const vw_ocr_result_t *res, int glyphs)
{
    int  letters;

    letters = vw_pipe_letters(res);

    return res->confidence >= VW_FIT_CONF && 2 * letters >= glyphs
           && 2 * letters <= 3 * glyphs && !vw_pipe_few(letters, glyphs);
}


/*
 * The pending screen's reading res leaves it unread: plenty of glyphs,
 * a reading that says nothing, and no deadline that cut it short.
 * Such a screen gets a second reading and orientation detection (fit
 * 0); once they are done, with fit, a reading that fits its glyphs
 * reads it (whether its rows get VW_FRAME_UNREAD).  vw_pipe_read
 * allows that only when the first reading did not fit: text mirrored
 * reads as about as many letters at once ("ebiow spsmi 1ONIM" at 60
 * for "Mirror image words", t/worker/100-run-e2e.t), a line in noise
 * as nothing.
 */
static int
vw_pipe_unread(const vw_pipe_t *p, const vw_ocr_result_t *res, int fit)
{
    return !vw_pipe_readable(res, p->ref_layer.glyphs)
           && !(fit && vw_pipe_fits(res, p->ref_layer.glyphs))
           && p->ref_layer.glyphs >= VW_SURE_GLYPHS && !res->timed_out;
}


/*
 * A line, of however few glyphs, that stayed for VW_STAYED_LOOKS looks,
 * is VW_STAYED_WIDTH glyph heights wide or more, and read as (almost)
 * nothing: small outlined text glues each word's letters into one glyph
 * ("The school burned down in May.", light yellow at 18 px over a
 * fractal, is 7 glyphs in a box 267 pixels wide for 16-pixel glyphs,
 * and reads as nothing at 44); a screen that long is not noise, which
 * changes from look to look, and one that wide is not a few specks of
 * a still pattern (4 "glyphs" in "2 lines" of 23 x 20 pixels, for 7
 * looks, on the hard set's busy test pattern).  It is flagged
 * (VW_FRAME_UNREAD), not read again: the second readings and
 * orientation detection stay for screens of many glyphs
 * (vw_pipe_unread).
 */
static int
vw_pipe_line_lost(const vw_pipe_t *p, const vw_ocr_result_t *res)
{
    return p->ref_layer.lines > 0 && p->stack.count >= VW_STAYED_LOOKS
           && p->ref_layer.box.w >= VW_STAYED_WIDTH * p->ref_layer.glyph_h
           && !res->timed_out
           && vw_pipe_few(vw_pipe_letters(res), p->ref_layer.glyphs);
}


/* Fewer letters than a quarter of the screen's glyphs (two at least). */
static int
vw_pipe_few(int letters, int glyphs)
{
    return letters < (glyphs / 4 > 2 ? glyphs / 4 : 2);
}


/* The letters or digits of a reading; any character beyond ASCII counts
 * as a letter. */
static int
vw_pipe_letters(const vw_ocr_result_t *res)
{
    int                   letters;
    size_t                i, n, len;
    uint32_t              cp;
    const unsigned char  *s;

    s = (const unsigned char *) (res->text != NULL ? res->text : "");
    len = strlen((const char *) s);
    letters = 0;

    for (i = 0; i < len; i += n) {
        n = vw_utf8_decode(s + i, len - i, &cp);

        letters += (cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z')
                   || (cp >= 'A' && cp <= 'Z') || (cp >= 0x80 && cp != 0xfffd);
    }

    return letters;
}


/*
 * Hands on the rows of the units that are done, up to the first that
 * has a screen still waiting for its text, a held look or a row of an
 * open group of screens (vw_join.c): per unit, the
 * looks' rows first, the sample's last (see the top of vw_pipeline.c).
 */
int
vw_pipe_flush(vw_pipe_t *p, vw_err_t *err)
{
    size_t     k, end, pass;
    uint32_t   looks, done;
    vw_row_t  *r;

    looks = p->run->plan.looks;

    /* the units done, but not that of a screen waiting for its reading
     * or of a held look, nor any after them */

    done = p->units_done;

    if (p->pending && p->ref_index / looks < done) {
        done = p->ref_index / looks;
    }

    if (p->tentative && p->tent_index / looks < done) {
        done = p->tent_index / looks;
    }

    if (p->join_open && p->join_first / looks < done) {
        done = p->join_first / looks;       /* may still be joined */
    }

    while (p->nrows > 0 && p->rows[0].f.index / looks < done) {

        for (end = 1; end < p->nrows
                      && p->rows[end].f.index / looks
                         == p->rows[0].f.index / looks; end++)
        {
            /* void */
        }

        for (pass = 0; pass < 2; pass++) {
            for (k = 0; k < end; k++) {
                r = &p->rows[k];

                if ((pass == 0) != ((r->f.flags & VW_FRAME_PROBE) != 0)
                    || r->known)
                {
                    continue;
                }

                r->f.text = r->text != NULL ? r->text : "";
                r->f.parts = r->parts;

                /*
                 * The orientation as it is when the row is handed on,
                 * after its screen was read: what a run resumed after
                 * this unit starts from (vw_pipe_known_unit), and what
                 * this run has from here on.
                 */
                r->f.flags = (r->f.flags & ~(VW_FRAME_TURN_MASK
                                             | VW_FRAME_OSD))
                             | ((unsigned) p->turn_q << VW_FRAME_TURN_SHIFT)
                             | (p->osd_tried ? VW_FRAME_OSD : 0);

                if (r->f.flags & VW_FRAME_PROBE) {
                    p->run->stats.looks_kept++;

                } else {
                    p->run->stats.frames_done++;
                }

                if (p->hooks->frame_done != NULL
                    && p->hooks->frame_done(p->hooks->data, &r->f) != 0)
                {
                    return vw_stop(err, "run \"%s\": stopped after frame %u",
                                   p->job->name, r->f.index);
                }
            }
        }

        for (k = 0; k < end; k++) {
            free(p->rows[k].text);
            free(p->rows[k].parts);
        }

        memmove(&p->rows[0], &p->rows[end],
                (p->nrows - end) * sizeof(vw_row_t));
        p->nrows -= end;
    }

    return 0;
}


/*
 * OCR of img, a screen's text region (p->region of a p->ref-sized
 * picture), read as how says (vw_ocr.h), prepared for the kind of ink
 * found: bright ink binarised, dark ink in grey.  When the binarised
 * reading is unsure (confidence below VW_OCR_ACCEPT, or nothing read),
 * the grey region is read too and the more confident reading wins
 * (coloured text).  Each picture may be read twice (vw_pipe_ocr_pass).
 * The deadline covers all of it.
 */
int
vw_pipe_ocr(vw_pipe_t *p, const vw_image_t *img, int ref_w, int ref_h,
    const vw_ocr_how_t *how, vw_ocr_result_t *res, vw_err_t *err)
{
    int              chosen, timeout, mode;
    int64_t          start;
    vw_ocr_result_t  other;

    start = vw_now_ms();
    timeout = p->limits.frame_timeout_ms;

    mode = p->ref_layer.polarity == VW_TEXT_DARK ? VW_PREP_GREY
                                                  : VW_PREP_BRIGHT;

    if (vw_frame_for_ocr_part(&p->framer, img, ref_w, ref_h,
                              1, p->scale, mode, &p->ocr, &chosen, err) != 0)
    {
        return -1;
    }

    if (vw_pipe_ocr_pass(p, how, timeout, start, res, err) != 0) {
        return -1;
    }

    if (chosen != VW_PREP_BRIGHT || res->confidence >= VW_OCR_ACCEPT
        || res->timed_out)
    {
        return 0;
    }

    timeout = vw_pipe_left(timeout, start);

    if (timeout < 0) {
        res->timed_out = 1;
        return 0;
    }

    if (vw_frame_for_ocr_part(&p->framer, img, ref_w, ref_h,
                              1, p->scale, VW_PREP_GREY, &p->ocr, &chosen,
                              err) != 0
        || vw_pipe_ocr_pass(p, how, timeout, vw_now_ms(), &other, err) != 0)
    {
        vw_ocr_result_free(res);
        return -1;
    }

    if (other.confidence > res->confidence && other.text[0] != '\0') {
        other.ms += res->ms;
        vw_ocr_result_free(res);
        *res = other;

    } else {
        res->ms += other.ms;
        res->timed_out |= other.timed_out && res->text[0] == '\0';
        vw_ocr_result_free(&other);
    }

    return 0;
}


/* What is left of timeout ms from start: 0 for none (no deadline), -1
 * when it has passed. */
static int
vw_pipe_left(int timeout, int64_t start)
{
    if (timeout <= 0) {
        return 0;
    }

    timeout -= (int) (vw_now_ms() - start);

    return timeout > 0 ? timeout : -1;
}


/*
 * One reading of p->ocr (the picture vw_pipe_ocr prepared) as how says,
 * timeout ms from start.  When Tesseract's page layout found no word at
 * all in a screen of plenty of glyphs (it says "Empty page" for a clean
 * line of Hangul that reads right as one block), the picture is read
 * again as one block, and that reading is kept if it says something.
 * Not when the layout found words, if only noise: one block reads a
 * page of junk in grain, at several times the cost.
 */
static int
vw_pipe_ocr_pass(vw_pipe_t *p, const vw_ocr_how_t *how, int timeout,
    int64_t start, vw_ocr_result_t *res, vw_err_t *err)
{
    vw_ocr_how_t     block;
    vw_ocr_result_t  other;

    if (vw_ocr_image(p->engine, &p->ocr, how, timeout, vw_pipe_poll, p,
                     res, err)
        != 0)
    {
        return -1;
    }

    p->run->stats.ocr_passes++;

    if (res->words > 0 || res->timed_out || how->layout != VW_OCR_LAYOUT_AUTO
        || p->ref_layer.glyphs < VW_SURE_GLYPHS)
    {
        return 0;
    }

    timeout = vw_pipe_left(timeout, start);

    if (timeout < 0) {
        res->timed_out = 1;
        return 0;
    }

    block = *how;
    block.layout = VW_OCR_LAYOUT_BLOCK;

    if (vw_ocr_image(p->engine, &p->ocr, &block, timeout, vw_pipe_poll, p,
                     &other, err)
        != 0)
    {
        vw_ocr_result_free(res);
        return -1;
    }

    p->run->stats.ocr_passes++;

    vw_pipe_second(p, res, &other);

    return 0;
}
