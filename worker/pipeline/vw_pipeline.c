/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The pipeline (see vw_pipeline.h): the order of the stages, and the
 * units of looks.  The words are defined once, in docs/worker-pipeline.md
 * ("Words"); which file does what is in README.md beside this one.
 *
 * Every look (vw_plan.h: each sample, and the pictures between two
 * samples every VW_LOOK_US at most) gets its text layer (vw_text_find:
 * where the glyphs are), unless a cheaper test settles it.  The
 * reference is the first look of the current state: of a screen of
 * text, or of a picture with no glyph.
 * A look that shows the same text as the reference (vw_text_same:
 * the grey levels compared where either has ink, whatever the
 * background does, at the shift vw_text_shift finds when the text
 * slides) belongs to its state; a sample then records reused_from = the
 * reference's index, a look between samples records nothing.  A look
 * that does not is held until the next look confirms the change; the
 * change then starts a new state and has a row: with no glyph, an
 * empty text without Tesseract (VO_FRAME_NO_TEXT); with glyphs, a new
 * screen (vw_screen.c).  A screen's text region is summed over its
 * looks (vw_stack.c) and read once, from the mean, when the screen ends
 * or its VW_LOOKS_COMBINED-th look is in (vw_read.c): noise and a
 * moving background average out, the text stays.  Looks that reuse do
 * not move the reference, so a slow fade cannot drift away from what
 * was read.  Rows are handed on a unit at a time (vw_rows.c), which is
 * what resuming relies on (vw_resume.c).
 */

#include <stdlib.h>
#include <string.h>

#include "media/vw_media.h"
#include "vw_pipeline_int.h"


static const vw_hooks_t  vw_no_hooks;


static void vw_pipeline_begin(vw_pipe_t *p, const vw_job_t *job,
    vw_report_t *run, int64_t start);
static int vw_pipeline_prepare(vw_pipe_t *p, int64_t start, vw_err_t *err);
static int vw_pipeline_unit(vw_pipe_t *p, uint32_t *i, vw_err_t *err);
static int vw_pipeline_end(vw_pipe_t *p, vw_err_t *err);
static void vw_pipeline_free(vw_pipe_t *p);


int
vw_pipeline_run(const vw_job_t *job, vw_report_t *run, vw_err_t *err)
{
    int         ret;
    int64_t     start, cpu;
    uint32_t    i;
    vw_pipe_t   pipe, *p;

    p = &pipe;
    memset(p, 0, sizeof(vw_pipe_t));
    memset(run, 0, sizeof(vw_report_t));
    vw_err_clear(err);

    ret = -1;
    start = vw_now_ms();
    cpu = vw_cpu_us();
    vw_stage_reset();

    vw_pipeline_begin(p, job, run, start);

    if (vw_pipeline_prepare(p, start, err) != 0) {
        goto done;
    }

    for (i = job->from; i < run->plan.samples; i++) {
        if (vw_pipeline_unit(p, &i, err) != 0) {
            goto done;
        }
    }

    if (vw_pipeline_end(p, err) != 0) {
        goto done;
    }

    ret = 0;

done:

    vw_pipeline_free(p);

    /* the stages first: read after them, cpu_ms is at least their sum */
    vw_stage_cpu_ms(run->stats.cpu_stage_ms);
    run->stats.total_ms = vw_now_ms() - start;
    run->stats.cpu_ms = (vw_cpu_us() - cpu) / 1000;

    return ret;
}


/* The state of a run that has done nothing yet. */
static void
vw_pipeline_begin(vw_pipe_t *p, const vw_job_t *job, vw_report_t *run,
    int64_t start)
{
    vw_framer_init(&p->framer);

    p->job = job;
    p->run = run;
    p->turn = vw_orient_identity;
    p->state_ms = -1;
    p->beside_decoded = -1;
    p->restart = job->from;
    run->stats.turn = -1;
    p->hooks = job->hooks != NULL ? job->hooks : &vw_no_hooks;
    p->last_tick = start;

    if (job->limits != NULL) {
        p->limits = *job->limits;

    } else {
        vw_limits_init(&p->limits);
    }
}


/*
 * Everything before the first frame is decoded: inspect, check the crop
 * (in the picture as shown, after the display matrix), plan, load the
 * language, and the ready hook.
 */
static int
vw_pipeline_prepare(vw_pipe_t *p, int64_t start, vw_err_t *err)
{
    int                 rc;
    vw_rect_t           r;
    vw_stage_t          stage;
    vw_report_t        *run;
    const vw_job_t     *job;

    job = p->job;
    run = p->run;

    stage = vw_stage_enter(VW_STAGE_INSPECT);
    rc = vw_media_open(&p->media, job->fd, job->name, &p->limits,
                       vw_pipe_poll, p, &run->inspection, err);
    (void) vw_stage_enter(stage);

    if (rc != 0) {
        return -1;
    }

    run->inspected = 1;
    run->stats.inspect_ms = vw_now_ms() - start;

    if (job->options->has_crop
        && vw_frame_crop_rect(run->inspection.display_width,
                              run->inspection.display_height,
                              job->options, &r) != 0)
    {
        return vw_reject(err, "crop_outside", "plan \"%s\": crop "
                         "%u,%u,%u,%u lies outside the %dx%d picture (as "
                         "shown); give a crop inside it", job->name,
                         job->options->crop_x, job->options->crop_y,
                         job->options->crop_w, job->options->crop_h,
                         run->inspection.display_width,
                         run->inspection.display_height);
    }

    p->framer.shrink = vw_frame_shrink(run->inspection.display_width,
                                       run->inspection.display_height,
                                       job->options);

    if (vw_plan_make(&run->plan, run->inspection.duration_ms,
                     job->options->fps_milli, &p->limits, job->name, err)
        != 0)
    {
        return -1;
    }

    run->planned = 1;

    if (job->part_ms > 0 && vw_cuts_find(p, err) != 0) {
        return -1;
    }

    stage = vw_stage_enter(VW_STAGE_OCR);
    rc = vw_ocr_engine(job->options->lang, job->name, &p->engine, err);
    (void) vw_stage_enter(stage);

    if (rc != 0) {
        return -1;
    }

    if (p->hooks->ready != NULL
        && p->hooks->ready(p->hooks->data, &run->inspection, &run->plan)
           != 0)
    {
        return vw_stop(err, "run \"%s\": stopped before decoding",
                       job->name);
    }

    return 0;
}


/*
 * Unit *i: the sample and the looks after it, up to the next sample;
 * passed over when the ledger has it (vw_resume_unit), and, for
 * the first unit to do after known ones, the reference restored first
 * (which may move *i back: vw_resume_redo).  Its rows are handed on once
 * nothing in them waits.
 */
static int
vw_pipeline_unit(vw_pipe_t *p, uint32_t *i, vw_err_t *err)
{
    int                 k, rc;
    uint32_t            j, looks;
    vw_stage_t          stage;
    const vw_plan_t    *plan;

    plan = &p->run->plan;
    looks = plan->looks;

    if (vw_pipe_poll(p) != 0) {
        return vw_stop(err, "run \"%s\": stopped at frame %u", p->job->name,
                       *i * looks);
    }

    k = *i * looks < p->redo_end ? 0 : vw_resume_unit(p, *i, err);

    if (k < 0) {
        return -1;
    }

    if (k > 0) {
        p->units_done = *i + 1;
        return 0;
    }

    if (p->resume && vw_resume_redo(p, i, err) != 0) {
        return -1;
    }

    if (!p->decoding) {
        /* refine: the frames of two looks' steps are kept */
        stage = vw_stage_enter(VW_STAGE_DECODE);
        rc = vw_media_start(p->media, vw_plan_interval_us(plan),
                            p->job->options->refine
                            ? vw_plan_time_us(plan, 2) : 0, err);
        (void) vw_stage_enter(stage);

        if (rc != 0) {
            return -1;
        }

        p->decoding = 1;
    }

    stage = vw_stage_enter(VW_STAGE_LOOKS);
    rc = 0;

    vw_turn_forget(p, *i);

    if (p->resume) {
        p->resume = 0;
        rc = vw_resume_restore(p, err);
    }

    for (j = *i * looks;
         rc == 0 && j < (*i + 1) * looks && j < plan->indexes;
         j++)
    {
        rc = vw_screen_look(p, j, err);
    }

    (void) vw_stage_enter(stage);

    if (rc != 0) {
        return -1;
    }

    p->units_done = *i + 1;

    return vw_rows_flush(p, err);
}


/* The video ended: a held look is a change, the last screen is read,
 * the group closes, and the last rows are handed on. */
static int
vw_pipeline_end(vw_pipe_t *p, vw_err_t *err)
{
    int         rc;
    vw_stage_t  stage;

    stage = vw_stage_enter(VW_STAGE_LOOKS);

    rc = p->tentative ? vw_screen_commit(p, err) : 0;

    if (rc == 0 && p->pending) {
        rc = vw_read_screen(p, err);
    }

    if (rc == 0) {
        vw_join_close(p);
    }

    (void) vw_stage_enter(stage);

    if (rc != 0) {
        return -1;
    }

    return vw_rows_flush(p, err);
}


/* What decoding did goes into the report; everything the run holds is
 * let go. */
static void
vw_pipeline_free(vw_pipe_t *p)
{
    size_t                   n;
    vw_stats_t              *st;
    const vw_media_stats_t  *ms;

    st = &p->run->stats;

    if (p->media != NULL) {
        vw_media_finish(p->media);
        ms = vw_media_stats(p->media);
        st->packets = ms->packets;
        st->frames_decoded = ms->frames_decoded + ms->probe_frames;
        st->frames_skipped = ms->packets > ms->frames_decoded
                                           + ms->decode_errors
                             ? ms->packets - ms->frames_decoded
                               - ms->decode_errors
                             : 0;
        st->decode_errors = ms->decode_errors;
        st->seeks = ms->seeks;
    }

    st->turn = p->osd_tried || p->osd_forgot ? 90 * p->turn_q : -1;

    vw_boundary_drop(p);
    vw_media_close(p->media);
    vw_framer_free(&p->framer);
    vw_image_free(&p->grey);
    vw_image_free(&p->ocr);
    vw_image_free(&p->mean);
    vw_image_free(&p->inked);
    vw_reading_forget(p);
    vw_image_free(&p->prev);
    vw_image_free(&p->tent);
    vw_text_free(&p->tent_layer);
    vw_image_free(&p->ref);
    vw_image_free(&p->spare);
    vw_text_free(&p->spare_layer);
    vw_text_free(&p->cand_layer);
    vw_image_free(&p->beside);
    vw_text_persist_free(&p->persist);
    vw_join_free(p);
    vw_memo_free(p);
    vw_roll_forget(p);

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
