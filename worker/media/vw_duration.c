/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The duration of a video whose container does not declare one: a live
 * WebM/Matroska as a browser's MediaRecorder writes it (no Duration, no
 * Cues, Segment and Clusters of unknown size), an MXF written while
 * recording (an open header, no footer), or any container whose only
 * duration is libavformat's guess from the bit rate.  The plan needs the
 * duration before the first frame is decoded, and the limits must hold
 * before any work is spent, so it is measured from the stream itself:
 *
 *   - a demux-only pass: a second demuxer of the same kind over the same
 *     file descriptor (its own AVIOContext and position, the same
 *     whitelist and io_open refusal), with parsers off, no decoder and
 *     every other stream discarded, reads the video stream's packets
 *     from the start and keeps the latest end time (pts + duration; the
 *     last frame lasts one nominal frame when the packet does not say);
 *   - it stops as soon as that time passes --max-duration: a stream that
 *     declares nothing and goes on (for hours, or with timestamps that
 *     jump) is too_long having read only up to the limit, never the rest
 *     of the file;
 *   - it renews the lease through the poll hook like the decoder does;
 *   - the inspecting demuxer is untouched (no seek back), so decoding
 *     starts exactly as for a file that declares its duration.
 *
 * Reading the tail instead would be cheaper on a long file, but
 * Matroska without Cues has no way back from the end to a Cluster
 * start that is not a guess, and timestamps that go backwards in the
 * middle would go unseen.  The pass costs about one read of the file
 * (docs/worker-pipeline.md has the measurement).
 */

#include <errno.h>
#include <string.h>

#include "vw_media_int.h"


#define VW_SCAN_BUFFER  65536


/* the demux-only pass over the video packets */
typedef struct {
    vw_media_t         *m;
    vw_media_reader_t   io;          /* its own position in the file */
    uint8_t            *buf;         /* until avio owns it */
    AVIOContext        *avio;
    AVFormatContext    *fmt;
    AVPacket           *pkt;
    AVRational          tb;          /* the video stream's time base */
    int64_t             start;       /* its t = 0, AV_NOPTS_VALUE: the
                                        first packet's */
    int64_t             first;       /* the earliest time stamp seen */
    int64_t             last;        /* the latest end time seen */
    int                 have;        /* a packet with a time stamp */
    int                 last_timed;  /* last came with a duration */
} vw_scan_t;


static int vw_scan_open(vw_scan_t *s, vw_media_t *m, vw_err_t *err);
static void vw_scan_start(vw_scan_t *s);
static int vw_scan_packets(vw_scan_t *s, const char *what, vw_err_t *err);
static void vw_scan_last_frame(vw_scan_t *s);
static void vw_scan_close(vw_scan_t *s);
static int64_t vw_scan_ms(int64_t ts, int64_t start, AVRational tb);
static int vw_scan_too_long(vw_media_t *m, const char *what,
    AVFormatContext *fmt, vw_err_t *err);


int
vw_media_measure_duration(vw_media_t *m, const char *what,
    int64_t *duration_ms, vw_err_t *err)
{
    int        ret;
    int64_t    ms;
    vw_scan_t  s;

    ret = -1;

    if (vw_scan_open(&s, m, err) != 0) {
        goto done;
    }

    vw_scan_start(&s);

    if (vw_scan_packets(&s, what, err) != 0) {
        goto done;
    }

    if (!s.have) {
        vw_reject(err, "unknown_duration", "inspect \"%s\": the %s file does "
                  "not say how long the video is, and its video packets "
                  "carry no time stamps; remux it into MP4 or MKV "
                  "(ffmpeg -i IN -c copy OUT.mp4)", m->name, what);
        goto done;
    }

    if (s.start == AV_NOPTS_VALUE) {
        s.start = s.first;
    }

    vw_scan_last_frame(&s);

    ms = vw_scan_ms(s.last, s.start, s.tb);

    if (ms > m->limits.max_duration_ms) {
        vw_scan_too_long(m, what, s.fmt, err);
        goto done;
    }

    *duration_ms = ms;
    ret = 0;

done:

    vw_scan_close(&s);

    return ret;
}


/*
 * A second demuxer over the upload, as the inspecting one (our I/O
 * only, the same whitelist) but demux only: no parser splits or merges
 * packets, nothing is filled in from a decoder, every stream but the
 * video one discarded.  s is set up for vw_scan_close whatever happens.
 */
static int
vw_scan_open(vw_scan_t *s, vw_media_t *m, vw_err_t *err)
{
    int        rc;
    char       why[200];
    unsigned   i;

    memset(s, 0, sizeof(vw_scan_t));
    s->m = m;
    s->io.m = m;
    s->io.pos = 0;

    s->buf = av_malloc(VW_SCAN_BUFFER);
    s->pkt = av_packet_alloc();
    if (s->buf == NULL || s->pkt == NULL) {
        return vw_fail(err, "no_memory", "inspect \"%s\": out of memory",
                       m->name);
    }

    s->avio = avio_alloc_context(s->buf, VW_SCAN_BUFFER, 0, &s->io,
                                 vw_media_avio_read, NULL,
                                 vw_media_avio_seek);
    if (s->avio == NULL) {
        return vw_fail(err, "no_memory", "inspect \"%s\": out of memory",
                       m->name);
    }

    s->buf = NULL;      /* the AVIOContext owns it now */

    s->fmt = avformat_alloc_context();
    if (s->fmt == NULL) {
        return vw_fail(err, "no_memory", "inspect \"%s\": out of memory",
                       m->name);
    }

    s->fmt->pb = s->avio;
    s->fmt->flags |= AVFMT_FLAG_CUSTOM_IO | AVFMT_FLAG_NOPARSE
                     | AVFMT_FLAG_NOFILLIN;
    s->fmt->io_open = vw_media_io_open_refuse;
    s->fmt->format_whitelist = av_strdup(m->fmt->format_whitelist);
    s->fmt->max_streams = m->fmt->max_streams;

    if (s->fmt->format_whitelist == NULL) {
        return vw_fail(err, "no_memory", "inspect \"%s\": out of memory",
                       m->name);
    }

    rc = avformat_open_input(&s->fmt, "", m->fmt->iformat, NULL);
    if (rc < 0) {
        /* fmt was freed; the same header read once already */
        if (m->io_errno) {
            return vw_fail(err, "io", "inspect \"%s\": read: %s", m->name,
                           strerror(m->io_errno));
        }

        if (rc == AVERROR(ENOMEM)) {
            return vw_fail(err, "no_memory", "inspect \"%s\": out of "
                           "memory", m->name);
        }

        vw_media_av_error(rc, why, sizeof(why));
        return vw_fail(err, "internal", "inspect \"%s\": the %s header read "
                       "again for the duration fails (%s)", m->name,
                       m->fmt->iformat->name, why);
    }

    for (i = 0; i < s->fmt->nb_streams; i++) {
        if ((int) i != m->stream_index) {
            s->fmt->streams[i]->discard = AVDISCARD_ALL;
        }
    }

    return 0;
}


/* t = 0 is where the decoder will count from (vw_media_open). */
static void
vw_scan_start(vw_scan_t *s)
{
    vw_media_t  *m;

    m = s->m;
    s->tb = m->st->time_base;

    if (m->st->start_time != AV_NOPTS_VALUE) {
        s->start = m->st->start_time;

    } else if (m->fmt->start_time != AV_NOPTS_VALUE) {
        s->start = av_rescale_q(m->fmt->start_time, AV_TIME_BASE_Q, s->tb);

    } else {
        s->start = AV_NOPTS_VALUE;      /* the first packet's */
    }
}


/*
 * Reads the video packets to the end (or to damage the decoder will
 * stop at as well), keeping the earliest time stamp and the latest end
 * time.  -1 when a read fails, when poll asks to stop, and (REJECTED
 * too_long) as soon as the end time passes the limit.
 */
static int
vw_scan_packets(vw_scan_t *s, const char *what, vw_err_t *err)
{
    int           rc;
    int64_t       ts, end, ms;
    AVPacket     *pkt;
    AVStream     *st;
    vw_media_t   *m;

    m = s->m;
    pkt = s->pkt;

    for ( ;; ) {

        if (m->poll != NULL && m->poll(m->poll_data) != 0) {
            return vw_stop(err, "inspect \"%s\": stopped measuring the "
                           "duration", m->name);
        }

        rc = av_read_frame(s->fmt, pkt);

        if (rc < 0) {
            if (m->io_errno) {
                return vw_fail(err, "io", "inspect \"%s\": read: %s",
                               m->name, strerror(m->io_errno));
            }

            if (rc == AVERROR(ENOMEM)) {
                return vw_fail(err, "no_memory", "inspect \"%s\": out of "
                               "memory", m->name);
            }

            /* the end, or damage the decoder will stop at as well */
            return 0;
        }

        st = pkt->stream_index >= 0
             && (unsigned) pkt->stream_index < s->fmt->nb_streams
             ? s->fmt->streams[pkt->stream_index] : NULL;

        ts = pkt->pts != AV_NOPTS_VALUE ? pkt->pts : pkt->dts;

        if (st == NULL || pkt->stream_index != m->stream_index
            || st->id != m->st->id || ts == AV_NOPTS_VALUE)
        {
            av_packet_unref(pkt);
            continue;
        }

        end = ts;
        if (pkt->duration > 0) {
            end = ts > INT64_MAX - pkt->duration ? INT64_MAX
                                                 : ts + pkt->duration;
        }

        if (!s->have || end > s->last) {
            s->last = end;
            s->last_timed = pkt->duration > 0;
        }

        if (!s->have || ts < s->first) {
            s->first = ts;
        }

        s->have = 1;

        av_packet_unref(pkt);

        ms = vw_scan_ms(s->last, s->start != AV_NOPTS_VALUE ? s->start
                                                            : s->first,
                        s->tb);

        if (ms > m->limits.max_duration_ms) {
            return vw_scan_too_long(m, what, s->fmt, err);
        }
    }
}


/* The last frame is shown for a frame's time: its packet's, or the
 * nominal one when the container gives none (SimpleBlocks do not). */
static void
vw_scan_last_frame(vw_scan_t *s)
{
    int64_t      frame;
    AVRational   rate;
    AVStream    *st;

    st = s->m->st;
    rate = st->avg_frame_rate.num > 0 && st->avg_frame_rate.den > 0
           ? st->avg_frame_rate : st->r_frame_rate;

    if (!s->last_timed && rate.num > 0 && rate.den > 0) {
        frame = av_rescale_q(1, av_inv_q(rate), s->tb);

        if (frame > 0 && s->last <= INT64_MAX - frame) {
            s->last += frame;
        }
    }
}


static void
vw_scan_close(vw_scan_t *s)
{
    av_packet_free(&s->pkt);
    avformat_close_input(&s->fmt);

    if (s->avio != NULL) {
        av_freep(&s->avio->buffer);
        avio_context_free(&s->avio);
    }

    av_free(s->buf);
}


/* ts - start in milliseconds, rounded up; 0 before the start, INT64_MAX
 * when it does not fit. */
static int64_t
vw_scan_ms(int64_t ts, int64_t start, AVRational tb)
{
    int64_t  d, ms;

    if (ts <= start) {
        return 0;
    }

    if (start < 0 && ts > INT64_MAX + start) {
        return INT64_MAX;
    }

    d = ts - start;

    ms = av_rescale_q_rnd(d, tb, (AVRational) { 1, 1000 },
                          AV_ROUND_UP | AV_ROUND_PASS_MINMAX);

    return ms < 0 ? INT64_MAX : ms;
}


static int
vw_scan_too_long(vw_media_t *m, const char *what, AVFormatContext *fmt,
    vw_err_t *err)
{
    return vw_reject(err, "too_long", "inspect \"%s\": the %s file does not "
                     "say how long the video is, and its video runs past the "
                     "%lld s limit (seen at byte %lld of %lld); split it "
                     "into shorter parts", m->name, what,
                     (long long) (m->limits.max_duration_ms / 1000),
                     (long long) avio_tell(fmt->pb), (long long) m->size);
}
