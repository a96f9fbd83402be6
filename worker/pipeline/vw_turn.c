/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Text that is not upright although the display matrix was applied (a
 * phone held sideways that wrote no matrix, a scan, a picture turned in
 * an editor): found once, and every picture after it turned.
 *
 * Two signs start a detection:
 *   - a screen with at least VW_SURE_GLYPHS glyphs whose reading says
 *     nothing (vw_reading_says): upside down, or sideways with enough
 *     glyphs side by side to make lines (vw_turn_read);
 *   - a sample with VW_ORIENT_COMPS glyph-sized components and no line
 *     of them, whose picture turned a quarter has lines of as many
 *     glyphs: text written down the picture
 *     (vw_turn_look).  The quarter-turn test needs nothing but
 *     the sample itself, so it may run on several samples; the
 *     detection itself runs once in each stretch of VW_TURN_AGAIN_MS
 *     of video until one takes a turn (vw_turn_forget).
 * Tesseract's orientation detection (OSD) proposes a turn; it is tried
 * first, then (for text found sideways only) the other quarter turn,
 * each read by Tesseract: the first whose reading says something at a
 * confidence of VW_OCR_ACCEPT or more is taken (text read the right
 * way up scores 90 and more; mirrored text turned upside down still
 * reads as letters, at about 70).  Short subtitles give OSD little to
 * go on (it often answers with a low confidence), so its answer is an
 * order of trial, never taken unread.  Nothing readable: the pictures
 * stay as they are, and the unreadable screens get the result's
 * text_unreadable warning.
 *
 * A turn taken turns the pictures the pipeline holds (the look, the
 * reference, the held look, the last look) and their text layers are
 * found again, so from here on everything is as if they had been
 * decoded turned; every row made after it carries the turn and the fact
 * that detection ran (VO_FRAME_TURN_*, VO_FRAME_OSD), and a resumed job
 * starts from what its last known row says.
 *
 * A detection that took no turn is forgotten at the first sample of
 * each stretch of VW_TURN_AGAIN_MS of video (vw_turn_forget).
 * Remembered for the whole video, it would keep the run of a long
 * video's part (vw_cuts.c), which begins knowing of none, apart from
 * the run before its cut until a detection of its own: their rows
 * differ in VO_FRAME_OSD, and the part before the cut reads on all that
 * time.  Forgotten at instants every run of the video shares, the two
 * agree from the first of them after the cut, where the cuts are placed.
 * It costs a detection more in each stretch where a sign starts one.
 */

#include <stdlib.h>
#include <string.h>

#include "vw_pipeline_int.h"


static int vw_turn_columns(const vw_framer_t *fr);
static int vw_turn_osd_order(vw_pipe_t *p, const vw_image_t *img, int mode,
    int *order, int n, vw_err_t *err);
static int vw_turn_take(vw_pipe_t *p, int q, vw_err_t *err);
static int vw_turn_one(vw_pipe_t *p, vw_orient_t o, vw_image_t *img,
    vw_text_t *layer, vw_err_t *err);


int
vw_turn_look(vw_pipe_t *p, vw_err_t *err)
{
    int              k, q, px, py, scale, chosen, glyphs, readable;
    int              order[2] = { 1, 3 };
    vw_rect_t        r, *b;
    vw_ocr_result_t  res;

    /* glyph-sized components stacked like the letters of a line
     * written down the picture (cheap: the boxes the layer found) */

    if (vw_turn_columns(&p->framer) < VW_ORIENT_COMPS) {
        return 0;
    }

    /* lines of glyphs once turned a quarter (either way finds them) */

    if (vw_turn_one(p, vw_orient_turns(1, 0), &p->spare,
                         &p->spare_layer, err) != 0)
    {
        return -1;
    }

    p->run->stats.orient_probes++;

    if (p->spare_layer.glyphs < VW_ORIENT_COMPS) {
        return 0;
    }

    if (vw_turn_osd_order(p, &p->grey, VW_PREP_AUTO, order, 2, err) != 0) {
        return -1;
    }

    for (k = 0; k < 2; k++) {
        q = order[k];

        if (vw_turn_one(p, vw_orient_turns(q, 0), &p->spare,
                             &p->spare_layer, err) != 0)
        {
            return -1;
        }

        b = &p->spare_layer.box;
        glyphs = p->spare_layer.glyphs;

        if (glyphs < VW_ORIENT_COMPS) {
            continue;
        }

        /* read its lines, with a margin, as a screen would be */

        px = VW_OCR_MARGIN + VW_REGION_ACROSS * p->spare_layer.glyph_h;
        py = VW_OCR_MARGIN + b->h / VW_REGION_DOWN_PART;
        r.x = b->x > px ? b->x - px : 0;
        r.y = b->y > py ? b->y - py : 0;
        r.w = (b->x + b->w + px < p->spare.width ? b->x + b->w + px
                                                 : p->spare.width) - r.x;
        r.h = (b->y + b->h + py < p->spare.height ? b->y + b->h + py
                                                  : p->spare.height) - r.y;
        scale = vw_prep_scale(p->spare.height, p->spare_layer.glyph_h);

        if (vw_prep_for_ocr(&p->framer, &p->spare, &r, scale,
                             p->spare_layer.polarity == VW_TEXT_DARK
                             ? VW_PREP_GREY : VW_PREP_BRIGHT, &p->ocr,
                             &chosen, err) != 0
            || vw_ocr_image(p->engine, &p->ocr, &vw_ocr_plain,
                            p->limits.frame_timeout_ms, vw_pipe_poll, p, &res,
                            err) != 0)
        {
            return -1;
        }

        p->run->stats.ocr_passes++;

        readable = vw_reading_says(&res, glyphs)
                   && res.confidence >= VW_OCR_ACCEPT;
        vw_ocr_result_free(&res);

        if (readable) {
            return vw_turn_take(p, q, err);
        }
    }

    return 0;
}


int
vw_turn_read(vw_pipe_t *p, vw_ocr_result_t *res, vw_err_t *err)
{
    int              q, w, h;
    int              order[3] = { 0, 0, 0 };
    vw_ocr_result_t  other;

    /* one turn is read: a screen of noise taken for glyphs is common
     * on busy pictures, and reading it three more ways would cost more
     * than the rare upside-down video gains */

    if (vw_turn_osd_order(p, &p->mean, p->ref_layer.polarity == VW_TEXT_DARK
                          ? VW_PREP_GREY : VW_PREP_BRIGHT, order, 1, err)
        != 0)
    {
        return -1;
    }

    /* the screen has lines, so a quarter turn is unlikely: OSD's turn,
     * else upside down (on one line OSD often cannot tell) */
    q = p->osd_turn != 0 ? p->osd_turn : 2;

    if (vw_orient_copy(vw_orient_turns(q, 0), p->mean.data, p->mean.stride,
                       &(vw_rect_t) { 0, 0, p->mean.width, p->mean.height },
                       &p->spare)
        != 0)
    {
        return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                       p->job->name);
    }

    w = q & 1 ? p->ref.height : p->ref.width;
    h = q & 1 ? p->ref.width : p->ref.height;

    if (vw_reading_ocr(p, &p->spare, w, h, &vw_ocr_plain, &other, err) != 0) {
        return -1;                      /* (it counts its passes) */
    }

    if (vw_reading_says(&other, p->ref_layer.glyphs)
        && other.confidence >= VW_OCR_ACCEPT)
    {
        vw_ocr_result_free(res);
        *res = other;
        return vw_turn_take(p, q, err);
    }

    vw_ocr_result_free(&other);

    return 0;
}


/*
 * How many of the components the text layer kept (fr->comps) have one
 * above or below them as a glyph of a line written downwards would:
 * the text layer's rule for glyphs side by side, turned
 * (vw_text_chained on their widths).
 */
static int
vw_turn_columns(const vw_framer_t *fr)
{
    int               n, wa, wb, ov, gap, minw;
    size_t            i, j;
    const vw_comp_t  *a, *b;

    n = 0;
    minw = vw_text_least_height();

    for (i = 0; i < fr->ncomps && i < VW_ORIENT_COMPS_MAX; i++) {
        a = &fr->comps[i];
        wa = a->x1 - a->x0 + 1;

        if (wa < minw) {
            continue;
        }

        for (j = 0; j < fr->ncomps && j < VW_ORIENT_COMPS_MAX; j++) {
            b = &fr->comps[j];
            wb = b->x1 - b->x0 + 1;

            if (j == i || wb < minw) {
                continue;
            }

            ov = (a->x1 < b->x1 ? a->x1 : b->x1)
                 - (a->x0 > b->x0 ? a->x0 : b->x0) + 1;
            gap = (a->y0 > b->y0 ? a->y0 : b->y0)
                  - (a->y1 < b->y1 ? a->y1 : b->y1);

            if (vw_text_chained(wa, wb, ov, gap)) {
                n++;
                break;
            }
        }
    }

    return n;
}


/*
 * The turns to try, OSD's first: order[] holds n candidates (of 1, 2,
 * 3) on entry and is reordered.  The picture goes to OSD prepared as for
 * Tesseract (mode).
 */
static int
vw_turn_osd_order(vw_pipe_t *p, const vw_image_t *img, int mode, int *order,
    int n, vw_err_t *err)
{
    int         k, q, chosen, t, rc;
    float       conf;
    vw_stage_t  stage;

    p->osd_tried = 1;
    p->run->stats.orient_tries++;

    if (vw_prep_for_ocr(&p->framer, img, NULL, 1, mode, &p->ocr, &chosen,
                         err) != 0)
    {
        return -1;
    }

    q = 0;
    conf = 0;

    stage = vw_stage_enter(VW_STAGE_OCR);
    rc = vw_osd_detect(&p->ocr, &q, &conf, err);
    (void) vw_stage_enter(stage);

    if (rc < 0) {
        return -1;
    }

    p->osd_turn = q;

    for (k = 0; k < n; k++) {
        if (order[k] == q) {
            t = order[0];
            order[0] = order[k];
            order[k] = t;
            break;
        }
    }

    return 0;
}


/*
 * Takes the turn of q quarters: every picture decoded from now on is
 * turned so, and those held now are turned and their layers found again.
 */
static int
vw_turn_take(vw_pipe_t *p, int q, vw_err_t *err)
{
    vw_orient_t  o;

    o = vw_orient_turns(q, 0);

    if (vw_orient_image(o, &p->grey, &p->spare) != 0
        || vw_orient_image(o, &p->prev, &p->spare) != 0
        || vw_orient_image(o, &p->ref, &p->spare) != 0
        || vw_orient_image(o, &p->tent, &p->spare) != 0)
    {
        return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                       p->job->name);
    }

    if ((p->grey.width > 0
         && vw_text_find(&p->framer, &p->grey, &p->layer, err) != 0)
        || (p->have_ref && p->ref.width > 0
            && vw_text_find(&p->framer, &p->ref, &p->ref_layer, err) != 0)
        || (p->tentative && p->tent.width > 0
            && vw_text_find(&p->framer, &p->tent, &p->tent_layer, err)
               != 0))
    {
        return -1;
    }

    p->turn_q = (p->turn_q + q) & 3;
    p->turn = vw_orient_turns(p->turn_q, 0);

    return 0;
}


/* The copy of p->grey turned by o, and its text layer. */
static int
vw_turn_one(vw_pipe_t *p, vw_orient_t o, vw_image_t *img,
    vw_text_t *layer, vw_err_t *err)
{
    if (vw_orient_copy(o, p->grey.data, p->grey.stride,
                       &(vw_rect_t) { 0, 0, p->grey.width, p->grey.height },
                       img)
        != 0)
    {
        return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                       p->job->name);
    }

    return vw_text_find(&p->framer, img, layer, err);
}


/* At sample i, the first of a stretch of VW_TURN_AGAIN_MS: a detection
 * that took no turn is forgotten (see the top). */
void
vw_turn_forget(vw_pipe_t *p, uint32_t i)
{
    const vw_plan_t  *plan;

    plan = &p->run->plan;

    if (!p->osd_tried || p->turn_q != 0 || i == 0
        || vw_plan_time_ms(plan, i * plan->looks) / VW_TURN_AGAIN_MS
           == vw_plan_time_ms(plan, (i - 1) * plan->looks) / VW_TURN_AGAIN_MS)
    {
        return;
    }

    p->osd_tried = 0;
    p->osd_forgot = 1;
}
