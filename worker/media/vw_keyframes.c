/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The keyframes of the container's index, for cutting a long video into
 * parts that several children read (docs/worker-pipeline.md, "Long
 * videos in parts"): a part should begin where decoding can begin, at a
 * keyframe, so that no part decodes the frames of the one before it.
 * Only an index that covers the stream and comes from the file's own
 * tables (VW_EXACT_INDEX) says where those are without reading the
 * file; without one there is no keyframe to cut at.
 */

#include <libavutil/avstring.h>

#include "vw_media_int.h"


static int vw_media_index_ok(vw_media_t *m);


/*
 * The keyframe of the index nearest t_us, and the first instant whose
 * frame a decoder that keeps the frames of keep_us before its target
 * (vw_media_start) reaches by decoding from that keyframe: *from_us.
 * Returns 0, or 1 when the container's index cannot say.
 */
int
vw_media_keyframe(vw_media_t *m, int64_t t_us, int64_t keep_us,
    int64_t *from_us)
{
    int                  i, k, best, keep;
    int64_t              ts, d, bd, key_us, dur_us;
    const AVIndexEntry  *e;

    if (m->st == NULL || !vw_media_index_ok(m)) {
        return 1;
    }

    ts = m->start_pts + av_rescale_q(t_us, AV_TIME_BASE_Q, m->st->time_base);

    /* the keyframes at or before and at or after t: the nearer */

    best = -1;
    bd = 0;

    for (i = 0; i < 2; i++) {
        k = av_index_search_timestamp(m->st, ts,
                                      i == 0 ? AVSEEK_FLAG_BACKWARD : 0);

        e = k >= 0 ? avformat_index_get_entry(m->st, k) : NULL;
        if (e == NULL) {
            continue;
        }

        d = e->timestamp > ts ? e->timestamp - ts : ts - e->timestamp;

        if (best < 0 || d < bd) {
            best = k;
            bd = d;
        }
    }

    if (best < 0) {
        return 1;
    }

    e = avformat_index_get_entry(m->st, best);
    key_us = av_rescale_q(e->timestamp - m->start_pts, m->st->time_base,
                          AV_TIME_BASE_Q);

    /*
     * A seek for a target aims the reorder delay, a frame and the kept
     * frames early (vw_media_start's seek_margin; the kept frames at
     * most as many as keep_us asks, fewer when big): a target that far
     * past the keyframe is decoded from it.  Index times are decoding
     * times, so the keyframe is shown up to the reorder delay later.
     */

    dur_us = m->frame_dur > 0 ? av_rescale_q(m->frame_dur, m->st->time_base,
                                             AV_TIME_BASE_Q)
                              : 40000;
    dur_us = dur_us > 0 ? dur_us : 1;
    keep = (int) (keep_us / dur_us) + 1 + VW_KEPT_SLACK;
    keep = keep < VW_KEPT_MAX ? keep : VW_KEPT_MAX;

    *from_us = (key_us > 0 ? key_us : 0)
               + (2 * (int64_t) m->st->codecpar->video_delay + 2 + keep)
                 * dur_us;

    return 0;
}


/* Whether the index covers the stream and comes from the file's tables
 * (Matroska reads its cues at its first seek: one to the start). */
static int
vw_media_index_ok(vw_media_t *m)
{
    int                  n;
    const AVIndexEntry  *e;

    if (av_match_list(m->fmt->iformat->name, VW_EXACT_INDEX, ',') <= 0
        || m->fmt->duration == AV_NOPTS_VALUE || m->fmt->duration <= 0)
    {
        return 0;           /* nothing to say the index covers */
    }

    if (av_match_list(m->fmt->iformat->name, "matroska", ',') > 0
        && av_seek_frame(m->fmt, m->stream_index, m->start_pts,
                         AVSEEK_FLAG_BACKWARD) < 0)
    {
        return 0;
    }

    n = avformat_index_get_entries_count(m->st);
    e = n > 0 ? avformat_index_get_entry(m->st, n - 1) : NULL;

    return e != NULL
           && e->timestamp - m->start_pts
              >= av_rescale_q(m->fmt->duration / 2, AV_TIME_BASE_Q,
                              m->st->time_base);
}
