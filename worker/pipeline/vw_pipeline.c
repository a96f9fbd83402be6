/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The pipeline (see vw_pipeline.h): the order of the stages, the units
 * of looks, and resuming after known frames; the looks of a unit
 * themselves and the screens are in vw_screen.c, their readings in
 * vw_read.c.
 *
 * Every look (vw_plan.h: each sample, and the pictures between two
 * samples every VW_LOOK_US at most) gets its text layer (vw_frame_text:
 * where the glyphs are), unless a cheaper test settles it.  The
 * reference is the first look of the current state: of a screen of
 * text, or of a picture with no glyph.
 * A look that shows the same text as the reference (vw_frame_same_text:
 * the grey levels compared where either has ink, whatever the
 * background does, at the shift vw_text_shift finds when the text
 * slides) belongs to its state; a sample then records reused_from = the
 * reference's index, a look between samples records nothing.  A look
 * that does not is held until the next look confirms the change; the
 * change then starts a new state and has a row: with no glyph, an
 * empty text without Tesseract (VW_FRAME_NO_TEXT); with glyphs, a new
 * screen.  A screen's text region is summed over its looks (vw_looks.c)
 * and read once, from the mean, when the screen ends or its
 * VW_LOOKS_COMBINED-th look is in: noise and a moving background
 * average out, the text stays.  Looks that reuse do not move the
 * reference, so a slow fade cannot drift away from what was read.
 *
 * Rows are handed to frame_done a sample's unit at a time (the sample
 * and the looks after it, up to the next sample) once no screen in them
 * waits for its reading and no look is held, the looks' rows first and
 * the sample's last:
 * a sample the ledger has stands for its whole unit, which is what
 * resuming relies on.
 */

#include <stdlib.h>
#include <string.h>

#include "media/vw_media.h"
#include "vw_pipe.h"


static const vw_hooks_t  vw_no_hooks;


static int vw_pipe_known_unit(vw_pipe_t *p, uint32_t i, vw_err_t *err);
static int vw_pipe_redo(vw_pipe_t *p, uint32_t *i, vw_err_t *err);
static int vw_pipe_restore(vw_pipe_t *p, vw_err_t *err);


int
vw_pipeline_run(const vw_job_t *job, vw_report_t *run, vw_err_t *err)
{
    int                ret, k;
    int64_t            start, cpu, t;
    uint32_t           i, j;
    size_t             n;
    vw_rect_t          r;
    vw_pipe_t          pipe, *p;
    const vw_media_stats_t  *ms;

    p = &pipe;
    memset(p, 0, sizeof(vw_pipe_t));
    memset(run, 0, sizeof(vw_report_t));
    vw_err_clear(err);
    vw_framer_init(&p->framer);

    ret = -1;
    start = vw_now_ms();
    cpu = vw_cpu_us();

    p->job = job;
    p->run = run;
    p->turn = vw_orient_identity;
    p->state_ms = -1;
    run->stats.turn = -1;
    p->hooks = job->hooks != NULL ? job->hooks : &vw_no_hooks;
    p->last_tick = start;

    if (job->limits != NULL) {
        p->limits = *job->limits;

    } else {
        vw_limits_init(&p->limits);
    }

    /* inspect, check the crop, plan, load the language: all before
     * any frame is decoded */

    if (vw_media_open(&p->media, job->fd, job->name, &p->limits,
                      vw_pipe_poll, p, &run->inspection, err) != 0)
    {
        goto done;
    }

    run->inspected = 1;
    run->stats.inspect_ms = vw_now_ms() - start;

    /* the crop is in the picture as shown (after the display matrix) */

    if (job->options->has_crop
        && vw_frame_crop_rect(run->inspection.display_width,
                              run->inspection.display_height,
                              job->options, &r) != 0)
    {
        vw_reject(err, "crop_outside", "plan \"%s\": crop %u,%u,%u,%u lies "
                  "outside the %dx%d picture (as shown); give a crop inside "
                  "it", job->name, job->options->crop_x, job->options->crop_y,
                  job->options->crop_w, job->options->crop_h,
                  run->inspection.display_width,
                  run->inspection.display_height);
        goto done;
    }

    p->framer.shrink = vw_frame_shrink(run->inspection.display_width,
                                       run->inspection.display_height,
                                       job->options);

    if (vw_plan_make(&run->plan, run->inspection.duration_ms,
                     job->options->fps_milli, &p->limits, job->name, err)
        != 0)
    {
        goto done;
    }

    run->planned = 1;

    if (vw_ocr_engine(job->options->lang, job->name, &p->engine, err) != 0) {
        goto done;
    }

    if (p->hooks->ready != NULL
        && p->hooks->ready(p->hooks->data, &run->inspection, &run->plan)
           != 0)
    {
        vw_stop(err, "run \"%s\": stopped before decoding", job->name);
        goto done;
    }

    for (i = 0; i < run->plan.frames; i++) {

        if (vw_pipe_poll(p) != 0) {
            vw_stop(err, "run \"%s\": stopped at frame %u", job->name,
                    i * run->plan.looks);
            goto done;
        }

        k = i * run->plan.looks < p->redo_end ? 0
            : vw_pipe_known_unit(p, i, err);

        if (k < 0) {
            goto done;
        }

        if (k > 0) {
            p->units_done = i + 1;
            continue;
        }

        if (p->resume && vw_pipe_redo(p, &i, err) != 0) {
            goto done;
        }

        if (!p->decoding) {
            /* refine: the frames of two looks' steps are kept */
            if (vw_media_start(p->media, vw_plan_interval_us(&run->plan),
                               job->options->refine
                               ? vw_plan_time_us(&run->plan, 2) : 0,
                               err) != 0)
            {
                goto done;
            }

            p->decoding = 1;
        }

        if (p->resume) {
            p->resume = 0;

            if (vw_pipe_restore(p, err) != 0) {
                goto done;
            }
        }

        /* the sample and the looks after it, up to the next sample */

        for (j = i * run->plan.looks;
             j < (i + 1) * run->plan.looks && j < run->plan.indexes; j++)
        {
            if (vw_pipe_look(p, j, err) != 0) {
                goto done;
            }
        }

        p->units_done = i + 1;

        if (vw_pipe_flush(p, err) != 0) {
            goto done;
        }
    }

    /* a held look is a change when the video ends; the last screen is
     * read */

    if (p->tentative && vw_pipe_commit(p, err) != 0) {
        goto done;
    }

    if (p->pending && vw_pipe_read(p, err) != 0) {
        goto done;
    }

    vw_join_close(p);

    if (vw_pipe_flush(p, err) != 0) {
        goto done;
    }

    ret = 0;

done:

    if (p->media != NULL) {
        ms = vw_media_stats(p->media);
        run->stats.packets = ms->packets;
        run->stats.frames_decoded = ms->frames_decoded + ms->probe_frames;
        run->stats.decode_errors = ms->decode_errors;
        run->stats.seeks = ms->seeks;
    }

    run->stats.turn = p->osd_tried ? 90 * p->turn_q : -1;

    vw_pipe_free_kept(p);
    vw_media_close(p->media);
    vw_framer_free(&p->framer);
    vw_image_free(&p->grey);
    vw_image_free(&p->ocr);
    vw_image_free(&p->mean);
    vw_image_free(&p->inked);
    vw_image_free(&p->prev);
    vw_image_free(&p->tent);
    vw_text_free(&p->tent_layer);
    vw_image_free(&p->ref);
    vw_image_free(&p->spare);
    vw_text_free(&p->spare_layer);
    vw_text_free(&p->cand_layer);
    vw_image_free(&p->beside);
    vw_persist_free(&p->persist);
    vw_join_free(p);

    for (n = 0; n < VW_KEPT_MAX; n++) {
        vw_image_free(&p->tent_kept[n].grey);
    }
    vw_stack_free(&p->stack);
    vw_stack_free(&p->frames);

    for (n = 0; n < p->nrows; n++) {
        free(p->rows[n].text);
        free(p->rows[n].parts);
    }

    free(p->rows);
    vw_text_free(&p->layer);
    vw_text_free(&p->ref_layer);
    free(p->ref_text);
    free(p->ref_parts);
    free(p->known_text);
    free(p->known_parts);

    t = vw_now_ms();
    run->stats.total_ms = t - start;
    run->stats.cpu_ms = (vw_cpu_us() - cpu) / 1000;

    return ret;
}


void
vw_pipeline_init(int verbose)
{
    vw_media_log_init(verbose);
}


void
vw_pipeline_shutdown(void)
{
    vw_ocr_shutdown();
    vw_osd_shutdown();
}


/* Rate-limited tick: the media and OCR stages call this often. */
int
vw_pipe_poll(void *data)
{
    int64_t     now;
    vw_pipe_t  *p;

    p = data;
    now = vw_now_ms();

    if (now - p->last_tick < VW_TICK_MS) {
        return 0;
    }

    p->last_tick = now;

    if (p->hooks->tick != NULL && p->hooks->tick(p->hooks->data) != 0) {
        return 1;
    }

    return 0;
}


/*
 * Decodes look j into p->grey and, if asked, finds its text layer.
 * Returns 0, or 1 when there is no picture (the video ended, the crop
 * misses this frame).
 */
int
vw_pipe_decode(vw_pipe_t *p, uint32_t j, int64_t *pts_ms, int layer,
    vw_err_t *err)
{
    int               rc;
    int64_t           pts_us;
    AVFrame          *frame;
    const vw_plan_t  *plan;

    plan = &p->run->plan;

    if (j % plan->looks == 0) {
        rc = vw_media_frame_at(p->media, vw_plan_time_us(plan, j), &frame,
                               &pts_us, err);

    } else {
        /* frames nothing depends on are skipped up to the next look */
        rc = vw_media_frame_near(p->media, vw_plan_time_us(plan, j),
                                 vw_plan_time_us(plan, j + 1),
                                 (j + 1) % plan->looks == 0, &frame,
                                 &pts_us, err);
    }
    if (rc != 0) {
        return rc;
    }

    if (vw_pipe_grey(p, frame, &p->grey, err) != 0) {
        return -1;
    }

    p->look_us = pts_us;
    *pts_ms = pts_us / 1000;

    if (p->grey.width == 0) {
        return 1;
    }

    return layer ? vw_frame_text(&p->framer, &p->grey, &p->layer, err) : 0;
}


/*
 * Takes from the look's text layer (p->layer, of p->grey) the lines
 * that are in neither the frame shown just before it nor the one just
 * after: strong temporal noise makes chains of specks that one picture
 * takes for lines, a different chain in every frame, while text is on
 * screen for more than a frame (vw_text_persist).  Those frames are at
 * hand when every frame is decoded (refine), and are the same whatever
 * frame decoding began at (a resumed job cleans as an unbroken run
 * does); without refine, and for a layer with no glyph or of dark ink,
 * the layer stays as it is.  1 if it changed, 0 if not, -1 on error.
 */
int
vw_pipe_clean(vw_pipe_t *p, vw_err_t *err)
{
    int               n, whole;
    const AVFrame    *beside[2];
    const vw_kept_t  *run;

    if (p->layer.box.w == 0 || p->layer.polarity != VW_TEXT_BRIGHT
        || !p->job->options->refine || p->media == NULL)
    {
        return 0;
    }

    n = vw_media_kept(p->media, -1, p->look_us, &run, &whole);
    beside[0] = n > 0 ? run[n - 1].frame : NULL;
    beside[1] = vw_media_frame_after(p->media, p->look_us);

    if (vw_text_persist_begin(&p->layer, &p->persist, err) != 0) {
        return -1;
    }

    for (n = 0; n < 2; n++) {
        if (beside[n] != NULL
            && (vw_pipe_grey(p, beside[n], &p->beside, err) != 0
                || vw_text_persist_add(&p->framer, &p->layer, &p->beside,
                                       &p->persist, err)
                   != 0))
        {
            return -1;
        }
    }

    return vw_text_persist_end(&p->framer, &p->grey, &p->layer, &p->persist,
                               err);
}


/* A decoded frame in grey: as a player shows it (the frame's own matrix
 * first), then as orientation detection found the text. */
int
vw_pipe_grey(vw_pipe_t *p, const AVFrame *frame, vw_image_t *out,
    vw_err_t *err)
{
    vw_orient_t  shown;

    shown = vw_media_shown(p->media, frame);

    return vw_frame_grey(&p->framer, frame, p->job->options, &shown,
                         &p->turn, out, err);
}


/* The frame_known hook for index j: 1 and *known, 0, or -1 (err). */
int
vw_pipe_known(vw_pipe_t *p, uint32_t j, vw_frame_result_t *known,
    vw_err_t *err)
{
    int  k;

    memset(known, 0, sizeof(vw_frame_result_t));
    known->text = "";
    known->reused_from = -1;

    if (p->hooks->frame_known == NULL
        || (j >= p->redo_from && j < p->redo_end))
    {
        return 0;
    }

    k = p->hooks->frame_known(p->hooks->data, j, known);

    if (k < 0) {
        return vw_fail(err, "hook", "run \"%s\": frame_known failed for "
                       "frame %u", p->job->name, j);
    }

    return k > 0;
}


/*
 * 1 if sample i is known (its unit is then done: its rows were handed
 * on after those of the looks after it), and keeps the unit's last
 * known row for vw_pipe_restore; 0 if not; -1 on error.
 */
static int
vw_pipe_known_unit(vw_pipe_t *p, uint32_t i, vw_err_t *err)
{
    int                k, failed;
    uint32_t           j, first;
    vw_frame_result_t  known, last;
    const vw_plan_t   *plan;

    if (p->hooks->frame_known == NULL) {
        return 0;
    }

    plan = &p->run->plan;
    first = i * plan->looks;
    memset(&last, 0, sizeof(vw_frame_result_t));

    for (j = first; j < first + plan->looks && j < plan->indexes; j++) {
        k = vw_pipe_known(p, j, &known, err);

        if (k < 0) {
            return -1;
        }

        if (j == first && k == 0) {
            return 0;
        }

        if (k > 0) {
            last = known;
            last.index = j;

            /* the text, before the hook's next call makes it invalid */
            free(p->known_text);
            free(p->known_parts);
            p->known_text = strdup(known.text ? known.text : "");
            p->known_parts = vw_pipe_strdup(known.parts, &failed);

            if (p->known_text == NULL || failed) {
                return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                               p->job->name);
            }
        }
    }

    p->known = last;
    p->known.text = p->known_text;
    p->known.parts = p->known_parts;

    /* the orientation found before, as the row says it was then */
    p->turn_q = (int) ((last.flags & VW_FRAME_TURN_MASK)
                       >> VW_FRAME_TURN_SHIFT);
    p->turn = vw_orient_turns(p->turn_q, 0);
    p->osd_tried = (last.flags & VW_FRAME_OSD) != 0;

    if (p->known.reused_from >= (int64_t) p->known.index) {
        p->known.reused_from = -1;      /* not from the past */
    }

    if (!(last.flags & VW_FRAME_JOINING)) {
        p->restart = i + 1;             /* no group is cut short here */
    }

    p->resume = 1;
    p->run->stats.frames_known++;

    return 1;
}


/*
 * Unit *i is the first to do after known ones.  If the last row known
 * (of the unit before, or a look of this one) is VW_FRAME_JOINING, a
 * later screen of its group joined it, which needs the group's mean: a
 * run that picked up here would lack it (vw_join.c).  The run then
 * starts at the last unit where no group was cut short (p->restart),
 * and the known rows from there to the end of unit *i are done again
 * (the same rows: the ledger keeps the first of each).
 */
static int
vw_pipe_redo(vw_pipe_t *p, uint32_t *i, vw_err_t *err)
{
    int                k;
    uint32_t           j, looks, r;
    unsigned           flags;
    vw_frame_result_t  known;

    looks = p->run->plan.looks;
    flags = p->known.flags;

    for (j = *i * looks + 1; j < (*i + 1) * looks && j < p->run->plan.indexes;
         j++)
    {
        k = vw_pipe_known(p, j, &known, err);

        if (k < 0) {
            return -1;
        }

        flags = k > 0 ? known.flags : flags;
    }

    if (!(flags & VW_FRAME_JOINING) || p->restart >= *i) {
        return 0;
    }

    r = p->restart;
    p->redo_from = r * looks;
    p->redo_end = (*i + 1) * looks;
    p->run->stats.frames_known -= *i - r;
    p->units_done = r;
    *i = r;

    if (r > 0) {
        return vw_pipe_known_unit(p, r - 1, err) < 0 ? -1 : 0;
    }

    /* from the start */

    p->resume = 0;
    p->turn_q = 0;
    p->turn = vw_orient_identity;
    p->osd_tried = 0;

    return 0;
}


/*
 * Takes ownership of text (NULL: the screen is not read yet) and of the
 * spec of its parts (NULL: none).
 */
void
vw_pipe_set_ref_text(vw_pipe_t *p, char *text, char *parts, int conf,
    uint32_t index)
{
    free(p->ref_text);
    free(p->ref_parts);
    p->ref_text = text;
    p->ref_parts = parts;
    p->ref_conf = conf;
    p->ref_index = index;
}


/* Row r carries the reference's reading: its text, parts and confidence
 * (what r had is dropped). */
int
vw_pipe_row_ref(vw_pipe_t *p, vw_row_t *r, vw_err_t *err)
{
    int  failed;

    free(r->text);
    free(r->parts);
    r->text = strdup(p->ref_text);
    r->parts = vw_pipe_strdup(p->ref_parts, &failed);

    if (r->text == NULL || failed) {
        return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                       p->job->name);
    }

    r->f.confidence = p->ref_conf;

    return 0;
}


/* A copy of s, or NULL for NULL; *failed 1 when out of memory. */
char *
vw_pipe_strdup(const char *s, int *failed)
{
    char  *c;

    c = s != NULL ? strdup(s) : NULL;
    *failed = s != NULL && c == NULL;

    return c;
}


/*
 * Makes the reference what an uninterrupted run would have here: the
 * picture of the look whose text the last known row carries.
 */
static int
vw_pipe_restore(vw_pipe_t *p, vw_err_t *err)
{
    int                rc, k;
    char              *text, *parts;
    int64_t            pts_ms, t0;
    uint32_t           r;
    vw_frame_result_t  began;

    p->have_ref = 0;

    if (p->known.flags & VW_FRAME_NO_PICTURE) {
        return 0;
    }

    r = p->known.reused_from >= 0 ? (uint32_t) p->known.reused_from
                                  : p->known.index;

    /* when the state began: the time of the row at r */

    p->state_ms = p->known.pts_ms;

    if (r != p->known.index) {
        k = vw_pipe_known(p, r, &began, err);

        if (k < 0) {
            return -1;
        }

        p->state_ms = k > 0 ? began.pts_ms : -1;
    }

    t0 = vw_now_ms();
    rc = vw_pipe_decode(p, r, &pts_ms, 1, err);

    if (rc == 0 && vw_pipe_clean(p, err) < 0) {
        rc = -1;            /* (a reference was a change: cleaned) */
    }

    p->run->stats.decode_ms += vw_now_ms() - t0;

    if (rc < 0) {
        return -1;
    }

    if (rc == 1) {
        return 0;
    }

    text = strdup(p->known.text);
    parts = vw_pipe_strdup(p->known.parts, &k);
    if (text == NULL || k) {
        free(text);
        free(parts);
        return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                       p->job->name);
    }

    vw_image_swap(&p->grey, &p->ref);
    vw_text_swap(&p->layer, &p->ref_layer);
    p->ref_us = p->look_us;
    p->have_ref = 1;
    p->run->stats.refs_restored++;

    vw_pipe_set_ref_text(p, text, parts, p->known.confidence, r);

    return 0;
}
