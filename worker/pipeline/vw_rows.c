/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The rows of a run (see the top of vw_pipeline.c): queued as the looks
 * make them, given their screen's reading when it is read, and handed
 * to row_done a sample's unit at a time (the sample and the looks
 * after it, up to the next sample) once no screen in them waits for its
 * reading, no look is held and no row of them may still get a later
 * reading (a group of joined screens, vw_join.c): the looks' rows
 * first, the sample's last, so that a sample the ledger has stands for
 * its whole unit, which is what resuming relies on (vw_resume.c).
 */

#include <stdlib.h>
#include <string.h>

#include "vw_pipeline_int.h"


/* Queues a row (text NULL: the pending screen's, filled in when read). */
int
vw_rows_add(vw_pipe_t *p, uint32_t j, int64_t pts_ms, unsigned flags,
    int64_t reused_from, const char *text, int confidence, int known,
    vw_err_t *err)
{
    int           failed;
    size_t        cap;
    vw_queued_t  *r;

    if (p->nrows == p->rows_cap) {
        cap = p->rows_cap ? 2 * p->rows_cap : 16;
        r = realloc(p->rows, cap * sizeof(vw_queued_t));
        if (r == NULL) {
            return vw_fail(err, "no_memory", "run \"%s\": out of memory",
                           p->job->name);
        }

        p->rows = r;
        p->rows_cap = cap;
    }

    r = &p->rows[p->nrows];
    memset(r, 0, sizeof(vw_queued_t));
    r->row.index = j;
    r->row.t_ms = vw_plan_time_ms(&p->run->plan, j);
    r->row.pts_ms = pts_ms;
    r->row.flags = flags;
    r->row.reused_from = reused_from;
    r->row.confidence = confidence;
    r->known = known;

    if (!(flags & VO_FRAME_NO_PICTURE)) {
        /* where the text is: the layer of the screen the row shows */
        vw_orient_box_shown(p->turn, p->ref.width, p->ref.height,
                            p->framer.shrink, p->job->options,
                            &p->ref_layer.box, &r->row.box);
        r->row.lines = r->row.box.w > 0 ? p->ref_layer.lines : 0;
    }

    if (text != NULL) {
        r->text = strdup(text);

        /* a row that shows the reference's text shows its parts, and
         * its lines read unsure */
        r->parts = vw_pipe_strdup(text == p->ref_text ? p->ref_parts : NULL,
                                  &failed);
        r->row.flags |= text == p->ref_text ? p->ref_unsure : 0;

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
 * The rows that wait for the pending screen's text (its own and the
 * samples that reuse it) get the reference's, with flags, and the
 * screen's own row own too; a deadline that cut its reading short is
 * counted once.
 */
int
vw_rows_fill(vw_pipe_t *p, unsigned flags, unsigned own, vw_err_t *err)
{
    size_t        n;
    vw_queued_t  *r;

    for (n = 0; n < p->nrows; n++) {
        r = &p->rows[n];

        if (r->text != NULL || (r->row.index != p->ref_index
                                && r->row.reused_from != p->ref_index))
        {
            continue;
        }

        if (vw_rows_take_ref(p, r, err) != 0) {
            return -1;
        }

        r->row.flags |= flags | (r->row.index == p->ref_index ? own : 0);

        if (flags & VO_FRAME_TIMED_OUT) {
            p->run->stats.frames_timed_out += r->row.index == p->ref_index;
        }
    }

    return 0;
}


/* Row r carries the reference's reading: its text, parts, confidence
 * and lines read unsure (what r had is dropped). */
int
vw_rows_take_ref(vw_pipe_t *p, vw_queued_t *r, vw_err_t *err)
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

    r->row.confidence = p->ref_conf;
    r->row.flags = (r->row.flags & ~(unsigned) VO_FRAME_UNSURE_MASK)
                   | p->ref_unsure;

    return 0;
}


/*
 * Hands on the rows of the units that are done, up to the first that
 * has a screen still waiting for its text, a held look or a row of an
 * open group of screens (vw_join.c): per unit, the
 * looks' rows first, the sample's last (see the top of vw_pipeline.c).
 */
int
vw_rows_flush(vw_pipe_t *p, vw_err_t *err)
{
    size_t        k, end, pass;
    uint32_t      looks, done;
    vw_queued_t  *r;

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

    while (p->nrows > 0 && p->rows[0].row.index / looks < done) {

        for (end = 1; end < p->nrows
                      && p->rows[end].row.index / looks
                         == p->rows[0].row.index / looks; end++)
        {
            /* void */
        }

        for (pass = 0; pass < 2; pass++) {
            for (k = 0; k < end; k++) {
                r = &p->rows[k];

                if ((pass == 0) != ((r->row.flags & VO_FRAME_BETWEEN) != 0)
                    || r->known)
                {
                    continue;
                }

                r->row.text = r->text != NULL ? r->text : "";
                r->row.parts = r->parts;

                /*
                 * The orientation as it is when the row is handed on,
                 * after its screen was read: what a run resumed after
                 * this unit starts from (vw_resume_unit), and what
                 * this run has from here on.
                 */
                r->row.flags = (r->row.flags & ~(VO_FRAME_TURN_MASK
                                             | VO_FRAME_OSD))
                             | ((unsigned) p->turn_q << VO_FRAME_TURN_SHIFT)
                             | (p->osd_tried ? VO_FRAME_OSD : 0);

                if (r->row.flags & VO_FRAME_BETWEEN) {
                    p->run->stats.looks_kept++;

                } else {
                    p->run->stats.frames_done++;
                }

                if (p->hooks->row_done != NULL
                    && p->hooks->row_done(p->hooks->data, &r->row) != 0)
                {
                    return vw_stop(err, "run \"%s\": stopped after frame %u",
                                   p->job->name, r->row.index);
                }
            }
        }

        for (k = 0; k < end; k++) {
            free(p->rows[k].text);
            free(p->rows[k].parts);
        }

        memmove(&p->rows[0], &p->rows[end],
                (p->nrows - end) * sizeof(vw_queued_t));
        p->nrows -= end;
    }

    return 0;
}
