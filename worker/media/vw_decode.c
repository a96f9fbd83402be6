/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Decoding: the frame a player shows at a sampled instant.
 *
 * The decoder is driven in the canonical receive-first order (take every
 * frame it has, then feed it one packet), so avcodec_send_packet never
 * sees EAGAIN.  Two frames are kept: cur, the last frame at or before
 * the target instant, and next, the first frame after it; the target is
 * answered by cur as soon as next exists (or the stream ends), and the
 * following targets start from there, so consecutive samples that fall
 * on the same frame cost nothing.
 *
 * Work that a sample does not need is avoided two ways:
 *   - seeking: when the container's own index (MP4/MOV sample tables,
 *     Matroska cues, AVI idx1) covers the stream and has a
 *     keyframe at or before the target that lies beyond the last packet
 *     read, we seek to it instead of decoding everything in between
 *     (sparse sampling, and the first sample of a resumed job);
 *   - skipping: when the sampling interval spans at least four frames,
 *     packets more than three frame durations before the target are
 *     decoded with AVDISCARD_NONREF, so frames no other frame refers to
 *     (B frames) are not reconstructed.  The frame used for a sample is
 *     therefore exact, and never a skipped one.
 *   - skipping every B frame (AVDISCARD_BIDIR), for H.264 with B frames
 *     and an index: B frames that are references (B pyramids) are
 *     referred to by other B frames, and by P frames only with some
 *     encoders (x264 never does).  Which kind of stream this is cannot
 *     be read from it, so it is tested (vw_bframes.c), and B frames
 *     are skipped from then on only if it passes (more than
 *     video_delay + 1 frames before a target, so the B frames near a
 *     sample and their references are decoded).
 * When the caller keeps the frames (keep_us: the pipeline finds on which
 * frame a change of text began, among those decoded before the look
 * that saw it, and cleans a look's text layer with the frames beside
 * it), the frame cur gives way to joins m->kept, which costs a
 * reference, not a copy, and only the frames no target can use are
 * skipped: the non-reference frames more than keep frames before cur,
 * when the index shows every frame frame_dur after the one before and
 * the step between targets spans more frames than a target uses (4K,
 * where 2 are kept; 1440p at 60 fps).  Every other frame is decoded:
 * which frames a change needs is known only from the look after them,
 * once they have been fed to the decoder, and a B frame cannot be
 * decoded later without decoding again from a keyframe
 * (docs/worker-pipeline.md, "Cue times to the frame", says what that
 * costs).
 */

#include <errno.h>
#include <string.h>

#include <libavutil/avstring.h>
#include <libavutil/imgutils.h>

#include "vw_media_int.h"
#include "image/vw_frame.h"



static int vw_media_even(vw_media_t *m);
static void vw_media_keep_cur(vw_media_t *m);
static void vw_media_luma_only(AVFrame *f);
static int64_t vw_media_us(vw_media_t *m, int64_t pts);
static int vw_media_take(vw_media_t *m, int64_t target);
static int vw_media_want_seek(vw_media_t *m, int64_t target);
static int vw_media_seek(vw_media_t *m, int64_t target, int must,
    vw_err_t *err);
static int vw_media_fill(vw_media_t *m, int64_t target, vw_err_t *err);


int
vw_media_start(vw_media_t *m, int64_t interval_us, int64_t keep_us,
    vw_err_t *err)
{
    int                  rc, n, size;
    int64_t              dur_us;
    char                 why[200];
    unsigned             i;
    const AVCodec       *codec;
    const AVIndexEntry  *e;

    codec = avcodec_find_decoder(m->st->codecpar->codec_id);
    if (codec == NULL) {
        return vw_reject(err, "unsupported_codec", "decode \"%s\": no "
                         "decoder for \"%s\"", m->name,
                         avcodec_get_name(m->st->codecpar->codec_id));
    }

    m->dec = avcodec_alloc_context3(codec);
    m->pkt = av_packet_alloc();
    m->tmp = av_frame_alloc();
    m->cur = av_frame_alloc();
    m->next = av_frame_alloc();

    if (m->dec == NULL || m->pkt == NULL || m->tmp == NULL || m->cur == NULL
        || m->next == NULL)
    {
        return vw_fail(err, "no_memory", "decode \"%s\": out of memory",
                       m->name);
    }

    rc = avcodec_parameters_to_context(m->dec, m->st->codecpar);
    if (rc < 0) {
        vw_media_av_error(rc, why, sizeof(why));
        return vw_fail(err, "internal", "decode \"%s\": %s", m->name, why);
    }

    m->dec->pkt_timebase = m->st->time_base;
    m->dec->max_pixels = m->limits.max_pixels;
    m->dec->thread_count = m->limits.threads > 0 ? m->limits.threads : 1;

    rc = avcodec_open2(m->dec, codec, NULL);
    if (rc < 0) {
        vw_media_av_error(rc, why, sizeof(why));
        return vw_reject(err, "unsupported_codec", "decode \"%s\": the %s "
                         "decoder refuses the stream (%s); re-encode the "
                         "video as H.264, HEVC, VP9 or AV1", m->name,
                         codec->name, why);
    }

    for (i = 0; i < m->fmt->nb_streams; i++) {
        if ((int) i != m->stream_index) {
            m->fmt->streams[i]->discard = AVDISCARD_ALL;
        }
    }

    /*
     * Seeking is exact only with an index that covers the stream (MP4,
     * MOV, Matroska with cues, AVI): the timestamp search of MPEG-TS/PS
     * can land after the target, and an index libavformat builds while
     * reading covers only what was read.  Without one, decode forward.
     */

    n = avformat_index_get_entries_count(m->st);

    if (av_match_list(m->fmt->iformat->name, "matroska", ',') > 0
        && av_seek_frame(m->fmt, m->stream_index, m->start_pts,
                         AVSEEK_FLAG_BACKWARD) >= 0)
    {
        /*
         * Matroska reads its cues at the first seek (until then the index
         * holds only the keyframes met while probing): seek to the start
         */
        n = avformat_index_get_entries_count(m->st);
    }

    e = n > 0 ? avformat_index_get_entry(m->st, n - 1) : NULL;

    m->index_ok = e != NULL
                  && av_match_list(m->fmt->iformat->name, VW_EXACT_INDEX,
                                   ',') > 0
                  && e->timestamp - m->start_pts
                     >= av_rescale_q(m->fmt->duration / 2, AV_TIME_BASE_Q,
                                     m->st->time_base);

    m->seek_margin = m->frame_dur > 0
                     ? (m->st->codecpar->video_delay + 1) * m->frame_dur
                     : av_rescale_q(100000, AV_TIME_BASE_Q, m->st->time_base);

    m->last_dts = AV_NOPTS_VALUE;
    m->skip_nonref = m->frame_dur > 0
                     && interval_us >= 4 * av_rescale_q(m->frame_dur,
                                                        m->st->time_base,
                                                        AV_TIME_BASE_Q);
    m->skip_level = AVDISCARD_NONREF;
    m->skip_window = 3 * m->frame_dur;

    if (keep_us > 0) {
        /* every frame may be where a change begins: those of keep_us
         * and VW_KEPT_SLACK more are kept, within the bounds */
        m->skip_nonref = 0;
        m->skip_level = AVDISCARD_NONREF;

        dur_us = av_rescale_q(m->frame_dur, m->st->time_base, AV_TIME_BASE_Q);
        m->keep = dur_us > 0 ? (int) (keep_us / dur_us) + 1 + VW_KEPT_SLACK
                             : VW_KEPT_MAX;
        m->keep = m->keep < VW_KEPT_MAX ? m->keep : VW_KEPT_MAX;

        size = av_image_get_buffer_size(m->dec->pix_fmt, m->dec->width,
                                        m->dec->height, 1);
        if (size <= 0) {
            size = 3 * m->dec->width * m->dec->height;   /* 16 bits 4:2:0 */
        }

        if (size > 0 && VW_KEPT_BYTES / size < m->keep) {
            m->keep = VW_KEPT_BYTES / size;
        }

        m->keep = m->keep > 2 ? m->keep : 2;

        /*
         * A seek lands keep frames earlier than it would: the frames
         * kept before a target are then those an unbroken run keeps,
         * wherever decoding began (a resumed job), and a seek forward
         * never jumps over frames that could be kept.
         */
        m->seek_margin += m->keep * (m->frame_dur > 0
                                     ? m->frame_dur
                                     : av_rescale_q(40000, AV_TIME_BASE_Q,
                                                    m->st->time_base));

        /*
         * What a target uses is cur (the last frame at or before it),
         * the keep frames before cur and next.  When the frames are
         * frame_dur apart, a frame at p is one of them if and only if
         * p > target - (keep + 1) * frame_dur, so when the step between
         * two targets (half of keep_us) spans more frames than a target
         * uses, the non-reference frames at or before that are ones no
         * target uses, and are skipped (4K, where 2 are kept; 1440p at
         * 60 fps, 4).  Only when the index lists every frame frame_dur
         * after the one before (vw_media_even): with a variable frame
         * rate the keep frames before cur may reach further back.
         */
        if (dur_us > 0 && keep_us / 2 / dur_us >= m->keep + 3
            && vw_media_even(m))
        {
            m->skip_nonref = 1;
            m->skip_window = (m->keep + 1) * m->frame_dur - 1;
        }
    }

    if (m->skip_nonref && m->index_ok && m->keep == 0
        && m->st->codecpar->codec_id == AV_CODEC_ID_H264
        && m->st->codecpar->video_delay > 0
        && interval_us >= 2 * av_rescale_q((m->st->codecpar->video_delay + 2)
                                           * m->frame_dur, m->st->time_base,
                                           AV_TIME_BASE_Q))
    {
        if (vw_media_probe_bidir(m, err) != 0) {
            return -1;
        }
    }

    return 0;
}


int
vw_media_frame_at(vw_media_t *m, int64_t t_us, AVFrame **frame,
    int64_t *pts_us, vw_err_t *err)
{
    int         attempt, seek, back, rc;
    int64_t     target, end, pts, margin;
    AVFrame    *f;
    vw_stage_t  stage;

    target = m->start_pts + av_rescale_q_rnd(t_us, AV_TIME_BASE_Q,
                                             m->st->time_base,
                                             AV_ROUND_DOWN);

    /*
     * Index timestamps are decoding times: with B frames a keyframe's
     * decoding time comes before the time it is shown, so the keyframe
     * "at or before" the target by the index may be shown after it.
     * Seeks aim margin earlier (the decoder's reorder delay plus one
     * frame) and, if the first frame still comes after the target,
     * try again further back.
     */

    margin = m->seek_margin;

    /* behind what we have decoded: go back; ahead of it: maybe jump */

    back = m->have_cur && target < m->cur_pts;
    seek = back;

    if (!back && vw_media_take(m, target) == 0) {
        seek = vw_media_want_seek(m, target - margin);
    }

    for (attempt = 0; /* void */; attempt++) {

        if (seek
            && vw_media_seek(m, target - margin, back && attempt == 0, err)
               != 0)
        {
            return -1;
        }

        stage = vw_stage_enter(VW_STAGE_DECODE);
        rc = vw_media_fill(m, target, err);
        (void) vw_stage_enter(stage);

        if (rc != 0) {
            return -1;
        }

        if (!seek || m->have_cur || !m->have_next || m->next_pts <= target
            || target - margin <= m->start_pts || attempt == 3)
        {
            break;
        }

        margin = margin * 4 + 1;
    }

    if (m->have_cur) {
        f = m->cur;
        pts = m->cur_pts;

        if (!m->have_next && m->drained) {
            /* the stream ended: is the last frame still on screen? */
            end = pts + (f->pkt_duration > m->frame_dur ? f->pkt_duration
                                                        : m->frame_dur)
                  + av_rescale_q(VW_ENDED_SLACK_US, AV_TIME_BASE_Q,
                                 m->st->time_base);
            if (target > end) {
                return 1;
            }
        }

    } else if (m->have_next) {
        /* the first frame comes after the instant: it is what shows */
        f = m->next;
        pts = m->next_pts;

    } else if (m->stats.frames_decoded == 0) {
        return vw_reject(err, "not_a_video", "decode \"%s\": not one frame "
                         "of the %s stream could be decoded; the file is "
                         "damaged", m->name,
                         avcodec_get_name(m->st->codecpar->codec_id));

    } else {
        return 1;
    }

    *frame = f;
    *pts_us = vw_media_us(m, pts);

    return 0;
}


/*
 * (Added for the looks between samples.)  A look needs a
 * picture of what is on screen near t_us, not the exact frame: frames no
 * other frame depends on are skipped until the next instant asked for
 * (next_us; when that is a sample's, until the window it decodes in
 * full), so a look costs no decoding beyond what the samples need.
 * What is decoded depends only on the instants asked for, so every run
 * gets the same frames.
 */
int
vw_media_frame_near(vw_media_t *m, int64_t t_us, int64_t next_us,
    int next_exact, AVFrame **frame, int64_t *pts_us, vw_err_t *err)
{
    int      rc, i;
    int64_t  window, until;

    window = m->skip_window;

    if (m->skip_nonref && m->keep == 0) {
        until = av_rescale_q(next_us > t_us ? next_us - t_us : 0,
                             AV_TIME_BASE_Q, m->st->time_base)
                - (next_exact ? window : 0);
        m->skip_window = until > 0 ? -until : 0;
    }

    rc = vw_media_frame_at(m, t_us, frame, pts_us, err);

    m->skip_window = window;

    if (rc == 0 && m->nkept > 0 && *frame == m->cur
        && m->cur->pict_type == AV_PICTURE_TYPE_B)
    {
        /*
         * Every frame decoded (keep): the look takes what it would with
         * B frames skipped, the last other frame within a step before
         * t_us; a B frame is coded coarser, and a screen is read from
         * the mean of its looks.
         */
        for (i = m->nkept - 1;
             i >= 0 && m->kept[i].pts_us > t_us - (next_us - t_us); i--)
        {
            if (m->kept[i].frame->pict_type != AV_PICTURE_TYPE_B) {
                *frame = m->kept[i].frame;
                *pts_us = m->kept[i].pts_us;
                break;
            }
        }
    }

    return rc;
}


int
vw_media_kept(vw_media_t *m, int64_t after_us, int64_t before_us,
    const vw_kept_t **run, int *whole)
{
    int  i, n;

    /* one run of consecutive kept frames, whatever their times do */

    for (i = m->nkept; i > 0 && m->kept[i - 1].pts_us > after_us; i--) {
        /* void */
    }

    *run = &m->kept[i];
    *whole = i > 0 || !m->kept_lost;

    for (n = 0; i + n < m->nkept && m->kept[i + n].pts_us < before_us; n++) {
        /* void */
    }

    return n;
}


AVFrame *
vw_media_frame_after(vw_media_t *m, int64_t pts_us)
{
    int  i;

    for (i = 0; i < m->nkept; i++) {
        if (m->kept[i].pts_us > pts_us) {
            return m->kept[i].frame;
        }
    }

    if (m->have_cur && vw_media_us(m, m->cur_pts) > pts_us) {
        return m->cur;
    }

    if (m->have_next && vw_media_us(m, m->next_pts) > pts_us) {
        return m->next;
    }

    return NULL;
}


/*
 * 1 if the index lists every frame of the stream (MP4/MOV sample
 * tables do; Matroska cues list keyframes only) and each is decoded
 * frame_dur after the one before: then the frames are shown
 * frame_dur apart too, and a frame's neighbours are found by time.
 */
static int
vw_media_even(vw_media_t *m)
{
    int                  i, n;
    const AVIndexEntry  *e, *prev;

    n = avformat_index_get_entries_count(m->st);

    if (!m->index_ok || m->frame_dur <= 0
        || av_match_list(m->fmt->iformat->name, "mov", ',') <= 0
        || m->st->nb_frames <= 0 || n != m->st->nb_frames)
    {
        return 0;
    }

    prev = avformat_index_get_entry(m->st, 0);

    for (i = 1; i < n; i++) {
        e = avformat_index_get_entry(m->st, i);

        if (prev == NULL || e == NULL
            || e->timestamp - prev->timestamp != m->frame_dur)
        {
            return 0;
        }

        prev = e;
    }

    return 1;
}


/* The current frame joins the kept ones (the oldest goes when full). */
static void
vw_media_keep_cur(vw_media_t *m)
{
    vw_kept_t  k;

    if (m->keep == 0 || !m->have_cur) {
        return;
    }

    if (m->nkept == m->keep) {
        /* the oldest goes; its AVFrame takes the new one */
        k = m->kept[0];
        memmove(&m->kept[0], &m->kept[1], (m->nkept - 1) * sizeof(vw_kept_t));
        m->nkept--;
        av_frame_unref(k.frame);
        m->kept_lost = 1;

    } else {
        k.frame = av_frame_alloc();

        if (k.frame == NULL) {
            m->kept_lost = 1;       /* the changes near it are timed by
                                       their looks */
            return;
        }
    }

    av_frame_move_ref(k.frame, m->cur);
    k.pts_us = vw_media_us(m, m->cur_pts);
    m->kept[m->nkept++] = k;
}


/*
 * The frames held here (cur, next, the kept ones) are only made grey
 * (vw_frame_grey), which reads 8-bit luma alone: their other planes go
 * back to the decoder's pool as soon as the decoder is done with them,
 * so the pool makes no chroma for the frames that only we hold (at 4K,
 * two of seven pictures, 8 MB).
 */
static void
vw_media_luma_only(AVFrame *f)
{
    int  i;

    if (!vw_frame_luma_only(f->format) || f->buf[0] == NULL
        || f->data[0] < f->buf[0]->data
        || f->data[0] >= f->buf[0]->data + f->buf[0]->size)
    {
        return;                 /* (the luma is not in the first buffer) */
    }

    for (i = 1; i < AV_NUM_DATA_POINTERS; i++) {
        av_buffer_unref(&f->buf[i]);
        f->data[i] = NULL;
        f->linesize[i] = 0;
    }
}


/* A stream time as microseconds from the start (0 before it). */
static int64_t
vw_media_us(vw_media_t *m, int64_t pts)
{
    int64_t  us;

    us = av_rescale_q(pts - m->start_pts, m->st->time_base, AV_TIME_BASE_Q);

    return us > 0 ? us : 0;
}


const vw_media_stats_t *
vw_media_stats(const vw_media_t *m)
{
    return &m->stats;
}


void
vw_media_finish(vw_media_t *m)
{
    vw_stage_t  stage;

    if (m == NULL || m->dec == NULL || !m->started || m->drained) {
        return;
    }

    stage = vw_stage_enter(VW_STAGE_DECODE);

    if (!m->eof) {
        (void) avcodec_send_packet(m->dec, NULL);
    }

    while (avcodec_receive_frame(m->dec, m->tmp) == 0) {
        m->stats.frames_decoded++;
        av_frame_unref(m->tmp);
    }

    m->eof = 1;
    m->drained = 1;

    (void) vw_stage_enter(stage);
}


vw_orient_t
vw_media_shown(const vw_media_t *m, const AVFrame *f)
{
    return vw_orient_of_frame(f, m->shown);
}


void
vw_media_free_kept(vw_media_t *m)
{
    while (m->nkept > 0) {
        av_frame_free(&m->kept[--m->nkept].frame);
    }
}


/* Promotes next to cur when next is at or before target; 1 if next stays */
static int
vw_media_take(vw_media_t *m, int64_t target)
{
    if (m->have_next && m->next_pts <= target) {
        vw_media_keep_cur(m);
        av_frame_unref(m->cur);
        av_frame_move_ref(m->cur, m->next);
        m->cur_pts = m->next_pts;
        m->have_cur = 1;
        m->have_next = 0;
    }

    return m->have_next;
}


/*
 * Seeking pays when the index has a keyframe at or before the target
 * beyond the last packet read (sparse sampling, or the first sample of a
 * resumed job).
 */
static int
vw_media_want_seek(vw_media_t *m, int64_t target)
{
    int                  idx;
    const AVIndexEntry  *e, *first;

    if (m->eof || !m->index_ok) {
        return 0;
    }

    idx = av_index_search_timestamp(m->st, target, AVSEEK_FLAG_BACKWARD);
    if (idx < 0) {
        return 0;
    }

    e = avformat_index_get_entry(m->st, idx);
    if (e == NULL) {
        return 0;
    }

    if (m->last_dts == AV_NOPTS_VALUE) {
        first = avformat_index_get_entry(m->st, 0);
        return !m->have_cur && first != NULL
               && e->timestamp > first->timestamp;
    }

    return e->timestamp > m->last_dts;
}


static int
vw_media_seek(vw_media_t *m, int64_t target, int must, vw_err_t *err)
{
    int         rc;
    char        why[200];
    vw_stage_t  stage;

    stage = vw_stage_enter(VW_STAGE_DEMUX);
    rc = av_seek_frame(m->fmt, m->stream_index, target,
                       AVSEEK_FLAG_BACKWARD);
    (void) vw_stage_enter(stage);

    if (rc < 0) {
        if (m->io_errno) {
            return vw_fail(err, "io", "decode \"%s\": read: %s", m->name,
                           strerror(m->io_errno));
        }

        if (!must) {
            return 0;       /* decoding forward gets there too */
        }

        vw_media_av_error(rc, why, sizeof(why));
        return vw_fail(err, "internal", "decode \"%s\": cannot seek back to "
                       "%.3f s: %s", m->name,
                       av_q2d(m->st->time_base) * (target - m->start_pts),
                       why);
    }

    avcodec_flush_buffers(m->dec);
    vw_media_free_kept(m);
    m->kept_lost = 1;
    av_frame_unref(m->cur);
    av_frame_unref(m->next);
    m->have_cur = 0;
    m->have_next = 0;
    m->eof = 0;
    m->drained = 0;
    m->started = 0;
    m->last_dts = AV_NOPTS_VALUE;
    m->stats.seeks++;

    return 0;
}


/* Decodes until a frame after target exists or the stream is drained. */
static int
vw_media_fill(vw_media_t *m, int64_t target, vw_err_t *err)
{
    int         rc;
    char        why[200];
    int64_t     pts, window;
    vw_stage_t  stage;

    window = target - m->skip_window;

    while (!m->have_next && !m->drained) {

        rc = avcodec_receive_frame(m->dec, m->tmp);

        if (rc == 0) {
            m->stats.frames_decoded++;
            vw_media_luma_only(m->tmp);

            pts = m->tmp->best_effort_timestamp;

            if (pts == AV_NOPTS_VALUE) {
                pts = m->have_cur ? m->cur_pts + m->frame_dur : m->start_pts;
            }

            if (pts <= target) {
                vw_media_keep_cur(m);
                av_frame_unref(m->cur);
                av_frame_move_ref(m->cur, m->tmp);
                m->cur_pts = pts;
                m->have_cur = 1;

            } else {
                av_frame_move_ref(m->next, m->tmp);
                m->next_pts = pts;
                m->have_next = 1;
            }

            continue;
        }

        if (rc == AVERROR_EOF) {
            m->drained = 1;
            break;
        }

        if (rc != AVERROR(EAGAIN)) {
            if (rc == AVERROR(ENOMEM)) {
                return vw_fail(err, "no_memory", "decode \"%s\": out of "
                               "memory", m->name);
            }

            m->stats.decode_errors++;

            if (m->eof) {
                m->drained = 1;     /* nothing more will come */
                break;
            }
        }

        /* the decoder wants a packet */

        if (m->eof) {
            m->drained = 1;
            break;
        }

        if (m->poll != NULL && m->poll(m->poll_data) != 0) {
            return vw_stop(err, "decode \"%s\": stopped", m->name);
        }

        stage = vw_stage_enter(VW_STAGE_DEMUX);
        rc = av_read_frame(m->fmt, m->pkt);
        (void) vw_stage_enter(stage);

        if (rc < 0) {
            if (m->io_errno) {
                return vw_fail(err, "io", "decode \"%s\": read: %s", m->name,
                               strerror(m->io_errno));
            }

            if (rc == AVERROR(ENOMEM)) {
                return vw_fail(err, "no_memory", "decode \"%s\": out of "
                               "memory", m->name);
            }

            /* the end, or data so damaged the demuxer gives up: drain */
            m->eof = 1;
            (void) avcodec_send_packet(m->dec, NULL);
            continue;
        }

        if (m->pkt->stream_index != m->stream_index) {
            av_packet_unref(m->pkt);
            continue;
        }

        m->stats.packets++;
        m->started = 1;
        m->last_dts = m->pkt->dts != AV_NOPTS_VALUE ? m->pkt->dts
                                                    : m->pkt->pts;

        m->dec->skip_frame = (m->skip_nonref && m->pkt->pts != AV_NOPTS_VALUE
                              && m->pkt->pts < window)
                             ? m->skip_level : AVDISCARD_DEFAULT;

        rc = avcodec_send_packet(m->dec, m->pkt);
        av_packet_unref(m->pkt);

        if (rc < 0) {
            if (rc == AVERROR(ENOMEM)) {
                return vw_fail(err, "no_memory", "decode \"%s\": out of "
                               "memory", m->name);
            }

            vw_media_av_error(rc, why, sizeof(why));
            m->stats.decode_errors++;
        }
    }

    return 0;
}
