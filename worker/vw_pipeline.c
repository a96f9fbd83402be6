/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The pipeline (see vw_pipeline.h): the order of the stages, the reuse
 * of OCR text, and resuming after known frames.
 *
 * Every sampled picture gets its text layer (vw_frame_text: where the
 * glyphs are).  The reference: the last frame that went through OCR
 * (timed out ones included, so a picture that makes Tesseract run away
 * costs one deadline, not one per sample), or that had no glyph at all.
 * A frame that shows the same text as the reference
 * (vw_frame_same_text: the grey levels compared where either has ink,
 * whatever the background does) takes its text and records reused_from =
 * its index.  Frames that reuse do not move the reference, so a slow fade
 * cannot drift away from what was actually read.  A frame with no glyph
 * gets an empty text without Tesseract (VW_FRAME_NO_TEXT); one with
 * glyphs has only their region read.
 */

#include <stdlib.h>
#include <string.h>

#include "vw_frame.h"
#include "vw_media.h"
#include "vw_ocr.h"
#include "vw_pipeline.h"


typedef struct {
    const vw_job_t     *job;
    const vw_hooks_t   *hooks;
    vw_report_t           *run;
    vw_limits_t         limits;
    int64_t             last_tick;

    vw_media_t         *media;
    int                 decoding;      /* vw_media_start done */
    vw_engine_t        *engine;
    vw_framer_t         framer;
    vw_image_t          grey;
    vw_text_t           layer;         /* grey's text layer */
    vw_image_t          ocr;
    int                 scale;         /* of the OCR pictures */

    vw_image_t          ref;           /* the last OCR'd picture */
    vw_text_t           ref_layer;
    int                 have_ref;
    uint32_t            ref_index;
    char               *ref_text;
    int                 ref_conf;

    vw_frame_result_t   known;         /* the last known frame */
    char               *known_text;
    int                 resume;        /* restore the reference first */
} vw_pipe_t;


static const vw_hooks_t  vw_no_hooks;


static int vw_pipe_poll(void *data);
static int vw_pipe_decode(vw_pipe_t *p, uint32_t i, int64_t *pts_ms,
    vw_err_t *err);
static int vw_pipe_frame(vw_pipe_t *p, uint32_t i, vw_err_t *err);
static int vw_pipe_restore(vw_pipe_t *p, vw_err_t *err);
static int vw_pipe_ocr(vw_pipe_t *p, vw_ocr_result_t *res, vw_err_t *err);
static void vw_pipe_set_ref_text(vw_pipe_t *p, char *text, int conf,
    uint32_t index);


int
vw_pipeline_run(const vw_job_t *job, vw_report_t *run, vw_err_t *err)
{
    int                ret, k;
    int64_t            start, cpu, t;
    uint32_t           i;
    vw_rect_t          r;
    vw_pipe_t          pipe, *p;
    vw_frame_result_t  known;

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
                      &run->inspection, err) != 0)
    {
        goto done;
    }

    run->inspected = 1;
    run->stats.inspect_ms = vw_now_ms() - start;

    if (job->options->has_crop
        && vw_frame_crop_rect(run->inspection.width, run->inspection.height,
                              job->options, &r) != 0)
    {
        vw_reject(err, "crop_outside", "plan \"%s\": crop %u,%u,%u,%u lies "
                  "outside the %dx%d picture; give a crop inside it",
                  job->name, job->options->crop_x, job->options->crop_y,
                  job->options->crop_w, job->options->crop_h,
                  run->inspection.width, run->inspection.height);
        goto done;
    }

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

    p->media->poll = vw_pipe_poll;
    p->media->poll_data = p;
    p->scale = run->inspection.height <= VW_OCR_UPSCALE_HEIGHT ? 2 : 1;

    for (i = 0; i < run->plan.frames; i++) {

        if (vw_pipe_poll(p) != 0) {
            vw_stop(err, "run \"%s\": stopped at frame %u", job->name, i);
            goto done;
        }

        if (p->hooks->frame_known != NULL) {
            memset(&known, 0, sizeof(vw_frame_result_t));
            known.text = "";
            known.reused_from = -1;

            k = p->hooks->frame_known(p->hooks->data, i, &known);

            if (k < 0) {
                vw_fail(err, "hook", "run \"%s\": frame_known failed for "
                        "frame %u", job->name, i);
                goto done;
            }

            if (k > 0) {
                p->known = known;
                p->known.index = i;

                if (known.reused_from >= (int64_t) i) {
                    p->known.reused_from = -1;      /* not from the past */
                }

                free(p->known_text);
                p->known_text = strdup(known.text ? known.text : "");

                if (p->known_text == NULL) {
                    vw_fail(err, "no_memory", "run \"%s\": out of memory",
                            job->name);
                    goto done;
                }

                p->known.text = p->known_text;
                p->resume = 1;
                run->stats.frames_known++;
                continue;
            }
        }

        if (!p->decoding) {
            if (vw_media_start(p->media, vw_plan_interval_us(&run->plan),
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

        if (vw_pipe_frame(p, i, err) != 0) {
            goto done;
        }
    }

    ret = 0;

done:

    if (p->media != NULL) {
        run->stats.packets = p->media->stats.packets;
        run->stats.frames_decoded = p->media->stats.frames_decoded
                                    + p->media->stats.probe_frames;
        run->stats.decode_errors = p->media->stats.decode_errors;
        run->stats.seeks = p->media->stats.seeks;
    }

    vw_media_close(p->media);
    vw_framer_free(&p->framer);
    vw_image_free(&p->grey);
    vw_image_free(&p->ocr);
    vw_image_free(&p->ref);
    vw_text_free(&p->layer);
    vw_text_free(&p->ref_layer);
    free(p->ref_text);
    free(p->known_text);

    t = vw_now_ms();
    run->stats.total_ms = t - start;
    run->stats.cpu_ms = (vw_cpu_us() - cpu) / 1000;

    return ret;
}


void
vw_pipeline_shutdown(void)
{
    vw_ocr_shutdown();
}


/* Rate-limited tick: the media and OCR stages call this often. */
static int
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
 * Decodes sample i into p->grey and finds its text layer.  Returns 0, or
 * 1 when there is no picture (the video ended, the crop misses this
 * frame).
 */
static int
vw_pipe_decode(vw_pipe_t *p, uint32_t i, int64_t *pts_ms, vw_err_t *err)
{
    int       rc;
    int64_t   pts_us;
    AVFrame  *frame;

    rc = vw_media_frame_at(p->media, vw_plan_time_us(&p->run->plan, i),
                           &frame, &pts_us, err);
    if (rc != 0) {
        return rc;
    }

    if (vw_frame_grey(&p->framer, frame, p->job->options, &p->grey, err)
        != 0)
    {
        return -1;
    }

    *pts_ms = pts_us / 1000;

    if (p->grey.width == 0) {
        return 1;
    }

    return vw_frame_text(&p->framer, &p->grey, &p->layer, err);
}


static int
vw_pipe_frame(vw_pipe_t *p, uint32_t i, vw_err_t *err)
{
    int                rc;
    char              *text;
    int64_t            t0, t1;
    vw_stats_t        *st;
    vw_ocr_result_t    res;
    vw_frame_result_t  f;

    st = &p->run->stats;

    memset(&f, 0, sizeof(vw_frame_result_t));
    f.index = i;
    f.t_ms = vw_plan_time_ms(&p->run->plan, i);
    f.pts_ms = -1;
    f.text = "";
    f.reused_from = -1;

    t0 = vw_now_ms();

    rc = vw_pipe_decode(p, i, &f.pts_ms, err);
    if (rc < 0) {
        return -1;
    }

    if (rc == 1) {
        f.flags |= VW_FRAME_NO_PICTURE;
        f.pts_ms = -1;
        st->frames_no_picture++;
        st->decode_ms += vw_now_ms() - t0;

    } else if (p->have_ref
               && vw_frame_same_text(&p->grey, &p->layer, &p->ref,
                                     &p->ref_layer, NULL))
    {
        f.text = p->ref_text;
        f.confidence = p->ref_conf;
        f.reused_from = p->ref_index;
        st->frames_reused++;
        st->decode_ms += vw_now_ms() - t0;

    } else if (p->layer.box.w == 0) {
        /* no glyph: nothing for Tesseract; the new reference */
        text = strdup("");
        if (text == NULL) {
            return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                           p->job->name);
        }

        f.flags |= VW_FRAME_NO_TEXT;
        st->frames_no_text++;
        st->decode_ms += vw_now_ms() - t0;

        vw_image_swap(&p->grey, &p->ref);
        vw_text_swap(&p->layer, &p->ref_layer);
        p->have_ref = 1;

        vw_pipe_set_ref_text(p, text, 0, i);

        f.text = p->ref_text;

    } else {
        t1 = vw_now_ms();
        st->decode_ms += t1 - t0;

        if (vw_pipe_ocr(p, &res, err) != 0) {
            if (err->status == VW_STOPPED) {
                vw_stop(err, "run \"%s\": stopped during OCR of frame %u",
                        p->job->name, i);
            }

            return -1;
        }

        st->ocr_calls++;
        st->ocr_ms += vw_now_ms() - t1;

        if (res.timed_out) {
            f.flags |= VW_FRAME_TIMED_OUT;
            st->frames_timed_out++;
        }

        vw_image_swap(&p->grey, &p->ref);
        vw_text_swap(&p->layer, &p->ref_layer);
        p->have_ref = 1;

        vw_pipe_set_ref_text(p, res.text, res.confidence, i);

        f.text = p->ref_text;
        f.confidence = p->ref_conf;
    }

    st->frames_done++;

    if (p->hooks->frame_done != NULL
        && p->hooks->frame_done(p->hooks->data, &f) != 0)
    {
        return vw_stop(err, "run \"%s\": stopped after frame %u",
                       p->job->name, i);
    }

    return 0;
}


/* Takes ownership of text. */
static void
vw_pipe_set_ref_text(vw_pipe_t *p, char *text, int conf, uint32_t index)
{
    free(p->ref_text);
    p->ref_text = text;
    p->ref_conf = conf;
    p->ref_index = index;
}


/*
 * Makes the reference what an uninterrupted run would have here: the
 * picture of the frame whose OCR text the last known frame carries.
 */
static int
vw_pipe_restore(vw_pipe_t *p, vw_err_t *err)
{
    int        rc;
    char      *text;
    int64_t    pts_ms, t0;
    uint32_t   r;

    p->have_ref = 0;

    if (p->known.flags & VW_FRAME_NO_PICTURE) {
        return 0;
    }

    r = p->known.reused_from >= 0 ? (uint32_t) p->known.reused_from
                                  : p->known.index;

    t0 = vw_now_ms();
    rc = vw_pipe_decode(p, r, &pts_ms, err);
    p->run->stats.decode_ms += vw_now_ms() - t0;

    if (rc < 0) {
        return -1;
    }

    if (rc == 1) {
        return 0;
    }

    text = strdup(p->known.text);
    if (text == NULL) {
        return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                       p->job->name);
    }

    vw_image_swap(&p->grey, &p->ref);
    vw_text_swap(&p->layer, &p->ref_layer);
    p->have_ref = 1;
    p->run->stats.refs_restored++;

    vw_pipe_set_ref_text(p, text, p->known.confidence, r);

    return 0;
}


/*
 * OCR of the text region of p->grey (its glyphs' box, with a margin),
 * prepared for the kind of ink found: bright ink binarised, dark ink in
 * grey.  When the binarised reading is unsure (confidence below
 * VW_OCR_ACCEPT, or nothing read), the grey region is read too and the
 * more confident reading wins (coloured text).  The deadline covers both
 * passes.
 */
static int
vw_pipe_ocr(vw_pipe_t *p, vw_ocr_result_t *res, vw_err_t *err)
{
    int              chosen, timeout, mode, px, py;
    int64_t          start;
    vw_rect_t        r, *b;
    vw_ocr_result_t  other;

    start = vw_now_ms();
    timeout = p->limits.frame_timeout_ms;

    /* the glyphs' box with a margin: a quarter of its height above and
     * below, up to a tenth of the picture's height left and right */

    b = &p->layer.box;
    px = VW_OCR_MARGIN + (b->h < p->grey.height / 10 ? b->h
                                                      : p->grey.height / 10);
    py = VW_OCR_MARGIN + b->h / 4;

    r.x = b->x > px ? b->x - px : 0;
    r.y = b->y > py ? b->y - py : 0;
    r.w = (b->x + b->w + px < p->grey.width ? b->x + b->w + px
                                            : p->grey.width) - r.x;
    r.h = (b->y + b->h + py < p->grey.height ? b->y + b->h + py
                                             : p->grey.height) - r.y;

    mode = p->layer.polarity == VW_TEXT_DARK ? VW_PREP_GREY : VW_PREP_BRIGHT;

    if (vw_frame_for_ocr(&p->framer, &p->grey, &r, p->scale, mode, &p->ocr,
                         &chosen, err) != 0)
    {
        return -1;
    }

    if (vw_ocr_image(p->engine, &p->ocr, timeout, vw_pipe_poll, p, res, err)
        != 0)
    {
        return -1;
    }

    p->run->stats.ocr_passes++;

    if (chosen != VW_PREP_BRIGHT || res->confidence >= VW_OCR_ACCEPT
        || res->timed_out)
    {
        return 0;
    }

    if (timeout > 0) {
        timeout -= (int) (vw_now_ms() - start);

        if (timeout <= 0) {
            res->timed_out = 1;
            return 0;
        }
    }

    if (vw_frame_for_ocr(&p->framer, &p->grey, &r, p->scale, VW_PREP_GREY,
                         &p->ocr, &chosen, err) != 0
        || vw_ocr_image(p->engine, &p->ocr, timeout, vw_pipe_poll, p, &other,
                        err) != 0)
    {
        vw_ocr_result_free(res);
        return -1;
    }

    p->run->stats.ocr_passes++;

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
