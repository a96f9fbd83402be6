/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * A change placed on the frame it began on (refine): the frames decoded
 * since the look two before the held one are kept with the held look,
 * in grey; when it changes the state, a bisection over them with
 * the looks' own test finds the first that shows the new state, and
 * the row gets its time (VO_FRAME_EXACT).  Without refine no frame is
 * kept and a change is timed by the look that saw it.
 */

#include "vw_pipeline_int.h"


static int vw_boundary_began(vw_pipe_t *p, int k, vw_err_t *err);
static void vw_boundary_sized(vw_text_t *t, int gh_a, int gh_b);


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
void
vw_boundary_keep(vw_pipe_t *p, uint32_t j)
{
    int               i, n;
    int64_t           after;
    vw_err_t          err;
    vw_between_t     *b;
    const vw_kept_t  *run;

    vw_boundary_drop(p);
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

        if (vw_look_grey(p, run[i].frame, &b->grey, &err) != 0) {
            vw_boundary_drop(p);   /* timed by the look, then */
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
vw_boundary_drop(vw_pipe_t *p)
{
    p->ntent_kept = 0;
}


/*
 * The frame on which the change to the held look (p->grey, p->layer)
 * began, from the old state's reference (p->ref) and the frames kept
 * between the look before it and it: found by bisection, each frame
 * tested with the same comparison as the looks (vw_boundary_began), no OCR.
 * *old becomes the number of those frames before it (they show the old
 * state).  *pts_ms becomes its time, and *exact 1, when the frames
 * searched bracket the change: one of them still shows the old state,
 * or they reach back to one that does (tent_whole).  Otherwise the
 * change may have begun on a frame not kept (4K, 60 fps at 1080p, after
 * a frame that could not be kept) and the row is timed by its look.
 * The kept frames stay (vw_boundary_drop lets them go).
 */
int
vw_boundary_find(vw_pipe_t *p, int64_t *pts_ms, int *exact, int *old,
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
        rc = vw_boundary_began(p, mid, err);

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
vw_boundary_began(vw_pipe_t *p, int k, vw_err_t *err)
{
    int                dx;
    const vw_image_t  *cand, *other;

    p->run->stats.boundary_frames++;

    cand = &p->tent_kept[k].grey;

    if (cand->width != p->grey.width || cand->height != p->grey.height) {
        return 0;                   /* another size: not comparable */
    }

    if (vw_text_find(&p->framer, cand, &p->cand_layer, err) != 0) {
        return -1;
    }

    /*
     * the frame's layer is cleaned as a look's is: of ink by local
     * contrast what stands still (vw_look_still), against the held
     * look when text appears where there was none (the new glyphs stand
     * still there, the texture of the frames before does not), else
     * against the old state's reference (its glyphs stand still there,
     * new glyphs and texture do not); and lines of glyphs less than
     * half the height of the text of either state go (specks of the
     * picture: a 7 x 8 pixel "line" beside a title of 60 px glyphs)
     */
    other = p->ref_layer.box.w == 0 && p->layer.box.w > 0 ? &p->grey
                                                          : &p->ref;

    if (vw_text_still(&p->framer, cand, other, &p->cand_layer) < 0) {
        return vw_fail(err, "no_memory", "frame: out of memory");
    }

    vw_boundary_sized(&p->cand_layer, p->ref_layer.glyph_h,
                      p->layer.glyph_h);

    if (p->layer.box.w == 0) {
        return vw_look_same(p, &p->grey, &p->layer, cand, &p->cand_layer,
                            &dx);
    }

    return !vw_look_same(p, &p->ref, &p->ref_layer, cand, &p->cand_layer,
                         &dx);
}


/*
 * Drops from layer t the lines of glyphs less than half as tall as the
 * lesser of gh_a and gh_b (the glyph heights of the two states' text;
 * 0: no text), its box and glyphs made those of the lines left.  A
 * layer with more lines than it lists stays as it is.
 */
static void
vw_boundary_sized(vw_text_t *t, int gh_a, int gh_b)
{
    int        i, n, least;
    vw_rect_t  box;

    least = gh_a == 0 ? gh_b : gh_b == 0 ? gh_a : gh_a < gh_b ? gh_a : gh_b;

    if (least == 0 || t->box.w == 0 || t->nline < t->lines) {
        return;
    }

    box = (vw_rect_t) { 0, 0, 0, 0 };       /* none: the layer has no box */
    n = 0;

    for (i = 0; i < t->nline; i++) {
        if (2 * t->line[i].glyph_h >= least) {
            vw_box_union(&box, &t->line[i].box);
            t->line[n++] = t->line[i];
        }
    }

    if (n == t->nline) {
        return;
    }

    t->glyphs = 0;

    for (i = 0; i < n; i++) {
        t->glyphs += t->line[i].glyphs;
    }

    t->nline = n;
    t->lines = n;
    t->box = box;

    if (n == 0) {
        t->polarity = VW_TEXT_NONE;
        t->local = 0;
        t->glyph_h = 0;
    }
}
