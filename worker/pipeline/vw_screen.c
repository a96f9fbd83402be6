/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The looks of a unit (see vw_pipe.h and the top of vw_pipeline.c):
 * each look against the state it is in, the cheap tests before a text
 * layer, a change held until the next look tells and placed on the
 * frame it began on, a screen summed over its looks (and read once
 * from their mean: vw_read.c), and the rows handed on a unit at a time.
 */

#include <stdlib.h>
#include <string.h>

#include "media/vw_media.h"
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

        if (p->stack.count >= VW_LOOKS_COMBINED && vw_pipe_read(p, err) != 0) {
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
    int               i, n;
    int64_t           after;
    vw_err_t          err;
    vw_between_t     *b;
    const vw_kept_t  *run;

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

    /* whole: a kept frame at or before after is the old state's, or
     * every frame since the start is there */
    n = vw_media_kept(p->media, after, p->look_us, &run, &p->tent_whole);

    for (i = 0; i < n; i++) {
        b = &p->tent_kept[p->ntent_kept];

        if (vw_pipe_grey(p, run[i].frame, &b->grey, &err) != 0) {
            vw_pipe_free_kept(p);   /* timed by the look, then */
            p->tent_whole = 0;
            break;
        }

        b->pts_us = run[i].pts_us;
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
    int         px, py, minh;
    vw_rect_t  *b, *r;

    b = &p->ref_layer.box;
    r = &p->region;

    px = VW_OCR_MARGIN + 2 * (b->h < p->ref.height / 10 ? b->h
                                                         : p->ref.height / 10);

    py = VW_OCR_MARGIN + b->h / 4;

    if (p->ref_layer.glyph_h < VW_OCR_SMALL_GLYPH) {
        /* small glyphs: the layer misses words of short letters: ten
         * glyph heights each way across */
        px = px > 10 * p->ref_layer.glyph_h ? px : 10 * p->ref_layer.glyph_h;
    }

    minh = vw_text_least_height(p->ref.height);

    if (2 * p->ref_layer.glyph_h < 3 * minh) {
        /*
         * glyphs less than 1.5 times the layer's least height: their
         * short letters are below it, so a line of them is no line to
         * the layer (it chains tall letters only).  A line more above
         * and below (a glyph height and a half): 18 px subtitles at
         * 720p, glyphs of 13 pixels, the least 12, lost the second of
         * two stacked lines 18 pixels apart ("Leave the engine
         * running." on the hard set's hard-small-720p-h264)
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

    p->scale = vw_frame_ocr_scale(p->ref.height, p->ref_layer.glyph_h);

    if (vw_stack_start(&p->stack, &p->ref, r, VW_LOOKS_COMBINED) != 0) {
        return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                       p->job->name);
    }

    p->pending = 1;
    vw_between_start(p);

    return 0;
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
