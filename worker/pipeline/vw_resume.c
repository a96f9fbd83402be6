/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Resuming a job after the rows the ledger has (row_known): a sample
 * the ledger has stands for its whole unit (vw_rows.c), so the run skips
 * the known units; before the first unit it must do, it decodes (without
 * OCR) the look whose text the last known row carries and makes it the
 * reference, so that the same-text test compares against the same
 * picture an uninterrupted run would, and a resumed job makes the same
 * OCR calls and the same rows.  A group of joined screens cut short by
 * the resume is done again from its start (vw_join.c, invariant 2).
 */

#include <stdlib.h>
#include <string.h>

#include "vw_pipeline_int.h"


/* The row_known hook for index j: 1 and *known, 0, or -1 (err). */
int
vw_resume_known(vw_pipe_t *p, uint32_t j, vw_row_t *known,
    vw_err_t *err)
{
    int  k;

    memset(known, 0, sizeof(vw_row_t));
    known->text = "";
    known->reused_from = -1;

    if (p->hooks->row_known == NULL
        || (j >= p->redo_from && j < p->redo_end))
    {
        return 0;
    }

    k = p->hooks->row_known(p->hooks->data, j, known);

    if (k < 0) {
        return vw_fail(err, "hook", "run \"%s\": row_known failed for "
                       "frame %u", p->job->name, j);
    }

    return k > 0;
}


/*
 * 1 if sample i is known (its unit is then done: its rows were handed
 * on after those of the looks after it), and keeps the unit's last
 * known row for vw_resume_restore; 0 if not; -1 on error.
 */
int
vw_resume_unit(vw_pipe_t *p, uint32_t i, vw_err_t *err)
{
    int                k, failed;
    uint32_t           j, first;
    vw_row_t           known, last;
    const vw_plan_t   *plan;

    if (p->hooks->row_known == NULL) {
        return 0;
    }

    plan = &p->run->plan;
    first = i * plan->looks;
    memset(&last, 0, sizeof(vw_row_t));

    for (j = first; j < first + plan->looks && j < plan->indexes; j++) {
        k = vw_resume_known(p, j, &known, err);

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
    p->turn_q = (int) ((last.flags & VO_FRAME_TURN_MASK)
                       >> VO_FRAME_TURN_SHIFT);
    p->turn = vw_orient_turns(p->turn_q, 0);
    p->osd_tried = (last.flags & VO_FRAME_OSD) != 0;

    if (p->known.reused_from >= (int64_t) p->known.index) {
        p->known.reused_from = -1;      /* not from the past */
    }

    if (!(last.flags & VO_FRAME_JOINING)) {
        p->restart = i + 1;             /* no group is cut short here */
    }

    p->resume = 1;
    p->run->stats.frames_known++;

    return 1;
}


/*
 * Unit *i is the first to do after known ones.  If the last row known
 * (of the unit before, or a look of this one) is VO_FRAME_JOINING, a
 * later screen of its group joined it, which needs the group's mean: a
 * run that picked up here would lack it (vw_join.c).  The run then
 * starts at the last unit where no group was cut short (p->restart),
 * and the known rows from there to the end of unit *i are done again
 * (the same rows: the ledger keeps the first of each).
 */
int
vw_resume_redo(vw_pipe_t *p, uint32_t *i, vw_err_t *err)
{
    int                k;
    uint32_t           j, looks, r;
    unsigned           flags;
    vw_row_t           known;

    looks = p->run->plan.looks;
    flags = p->known.flags;

    for (j = *i * looks + 1; j < (*i + 1) * looks && j < p->run->plan.indexes;
         j++)
    {
        k = vw_resume_known(p, j, &known, err);

        if (k < 0) {
            return -1;
        }

        flags = k > 0 ? known.flags : flags;
    }

    if (!(flags & VO_FRAME_JOINING) || p->restart >= *i) {
        return 0;
    }

    r = p->restart;
    p->redo_from = r * looks;
    p->redo_end = (*i + 1) * looks;
    p->run->stats.frames_known -= *i - r;
    p->units_done = r;
    *i = r;

    if (r > p->job->from) {
        return vw_resume_unit(p, r - 1, err) < 0 ? -1 : 0;
    }

    /* from the start (of the part) */

    p->resume = 0;
    p->turn_q = 0;
    p->turn = vw_orient_identity;
    p->osd_tried = 0;

    return 0;
}


/*
 * Makes the reference what an uninterrupted run would have here: the
 * picture of the look whose text the last known row carries.
 */
int
vw_resume_restore(vw_pipe_t *p, vw_err_t *err)
{
    int                rc, k;
    char              *text, *parts;
    int64_t            pts_ms, t0;
    uint32_t           r;
    vw_row_t           began;

    p->have_ref = 0;

    if (p->known.flags & VO_FRAME_NO_PICTURE) {
        return 0;
    }

    r = p->known.reused_from >= 0 ? (uint32_t) p->known.reused_from
                                  : p->known.index;

    /* when the state began: the time of the row at r */

    p->state_ms = p->known.pts_ms;

    if (r != p->known.index) {
        k = vw_resume_known(p, r, &began, err);

        if (k < 0) {
            return -1;
        }

        p->state_ms = k > 0 ? began.pts_ms : -1;
    }

    t0 = vw_now_ms();
    /* its layer found and cleaned as the look's was (vw_screen_look) */
    rc = vw_look_decode(p, r, &pts_ms, err);

    if (rc == 0 && vw_look_find(p, err) < 0) {
        rc = -1;

    } else if (rc == 0 && vw_look_clean(p, err) < 0) {
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

    vw_pipe_set_ref_text(p, text, parts, p->known.confidence,
                         p->known.flags, r);

    return 0;
}
