/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Where the parts of a long video begin (docs/worker-pipeline.md,
 * "Long videos in parts"): a video of job->split_ms or more is cut into
 * parts of equal length, about job->part_ms each and at least two, and
 * each cut moves to the keyframe of the container's index nearest it
 * (parts of VW_CUTS_ALIGN stretches of VW_TURN_AGAIN_MS or more: nearest
 * the instant such a stretch begins, where a run forgets what
 * orientation detection found, vw_turn_forget, so that the run of the
 * part after the cut, which begins knowing nothing of it, and the run
 * before agree soonest);
 * a part begins at the first sample that a decoder reaches from that
 * keyframe with the frames refine keeps before a look
 * (vw_media_keyframe), so that no part decodes the frames of the one
 * before it.  What happens at a cut (the part before reads past it until
 * its rows are the next part's) is the caller's: the pipeline reads a
 * part as a run that begins at its first sample (vw_job_t.from).
 */

#include "media/vw_media.h"
#include "vw_pipeline_int.h"


/* stretches of VW_TURN_AGAIN_MS: parts this long or longer are cut
 * where one begins (a cut then moves a twelfth of a part at most) */
#define VW_CUTS_ALIGN  6


/* The cuts into p->run->cuts: none without an index to cut at. */
int
vw_cuts_find(vw_pipe_t *p, vw_err_t *err)
{
    uint32_t          k, n, s, last;
    int64_t           dur_us, keep_us, from_us, t_us, again_us;
    vw_report_t      *run;
    const vw_plan_t  *plan;

    (void) err;

    run = p->run;
    plan = &run->plan;
    run->ncuts = 0;

    if (plan->duration_ms < p->job->split_ms || plan->samples < 2) {
        return 0;
    }

    n = (uint32_t) ((plan->duration_ms + p->job->part_ms / 2)
                    / p->job->part_ms);
    n = n < 2 ? 2 : n;
    n = n <= VW_CUTS_MAX ? n : VW_CUTS_MAX + 1;

    dur_us = plan->duration_ms * 1000;
    keep_us = p->job->options->refine ? vw_plan_time_us(plan, 2) : 0;
    again_us = p->job->part_ms >= VW_CUTS_ALIGN * VW_TURN_AGAIN_MS
               ? (int64_t) VW_TURN_AGAIN_MS * 1000 : 1;
    last = 0;

    for (k = 1; k < n; k++) {
        t_us = (dur_us * k / n + again_us / 2) / again_us * again_us;

        if (vw_media_keyframe(p->media, t_us, keep_us, &from_us) != 0) {
            run->ncuts = 0;
            return 0;
        }

        /* the first sample at or after from_us */
        s = (uint32_t) ((from_us * plan->fps_milli + 999999999)
                        / 1000000000);

        if (s <= last || s >= plan->samples) {
            continue;           /* keyframes too far apart for this cut */
        }

        run->cuts[run->ncuts++] = s;
        last = s;
    }

    return 0;
}
