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


static int64_t vw_scan_ms(int64_t ts, int64_t start, AVRational tb);
static int vw_scan_too_long(vw_media_t *m, const char *what,
    AVFormatContext *fmt, vw_err_t *err);


int
vw_media_measure_duration(vw_media_t *m, const char *what,
    int64_t *duration_ms, vw_err_t *err)
{
    int               rc, ret, have, last_timed;
    char              why[200];
    unsigned          i;
    int64_t           ts, end, last, start, first, frame, ms;
    uint8_t          *buf;
    AVPacket         *pkt;
    AVStream         *st;
    AVRational        tb, rate;
    AVIOContext      *avio;
    vw_media_reader_t io;
    AVFormatContext  *fmt;

    ret = -1;
    buf = NULL;
    pkt = NULL;
    avio = NULL;
    fmt = NULL;
    have = 0;
    last_timed = 0;
    last = 0;
    first = 0;

    io.m = m;
    io.pos = 0;

    buf = av_malloc(VW_SCAN_BUFFER);
    pkt = av_packet_alloc();
    if (buf == NULL || pkt == NULL) {
        vw_fail(err, "no_memory", "inspect \"%s\": out of memory", m->name);
        goto done;
    }

    avio = avio_alloc_context(buf, VW_SCAN_BUFFER, 0, &io,
                              vw_media_avio_read, NULL, vw_media_avio_seek);
    if (avio == NULL) {
        vw_fail(err, "no_memory", "inspect \"%s\": out of memory", m->name);
        goto done;
    }

    buf = NULL;     /* the AVIOContext owns it now */

    fmt = avformat_alloc_context();
    if (fmt == NULL) {
        vw_fail(err, "no_memory", "inspect \"%s\": out of memory", m->name);
        goto done;
    }

    /* as the inspecting demuxer: our I/O only, the same whitelist; and
     * demux only: no parser splits or merges packets, nothing is filled
     * in from a decoder */

    fmt->pb = avio;
    fmt->flags |= AVFMT_FLAG_CUSTOM_IO | AVFMT_FLAG_NOPARSE
                  | AVFMT_FLAG_NOFILLIN;
    fmt->io_open = vw_media_io_open_refuse;
    fmt->format_whitelist = av_strdup(m->fmt->format_whitelist);
    fmt->max_streams = m->fmt->max_streams;

    if (fmt->format_whitelist == NULL) {
        vw_fail(err, "no_memory", "inspect \"%s\": out of memory", m->name);
        goto done;
    }

    rc = avformat_open_input(&fmt, "", m->fmt->iformat, NULL);
    if (rc < 0) {
        /* fmt was freed; the same header read once already */
        if (m->io_errno) {
            vw_fail(err, "io", "inspect \"%s\": read: %s", m->name,
                    strerror(m->io_errno));

        } else if (rc == AVERROR(ENOMEM)) {
            vw_fail(err, "no_memory", "inspect \"%s\": out of memory",
                    m->name);

        } else {
            vw_media_av_error(rc, why, sizeof(why));
            vw_fail(err, "internal", "inspect \"%s\": the %s header read "
                    "again for the duration fails (%s)", m->name,
                    m->fmt->iformat->name, why);
        }

        goto done;
    }

    for (i = 0; i < fmt->nb_streams; i++) {
        if ((int) i != m->stream_index) {
            fmt->streams[i]->discard = AVDISCARD_ALL;
        }
    }

    /* t = 0 is where the decoder will count from (vw_media_open) */

    tb = m->st->time_base;

    if (m->st->start_time != AV_NOPTS_VALUE) {
        start = m->st->start_time;

    } else if (m->fmt->start_time != AV_NOPTS_VALUE) {
        start = av_rescale_q(m->fmt->start_time, AV_TIME_BASE_Q, tb);

    } else {
        start = AV_NOPTS_VALUE;     /* the first packet's, below */
    }

    for ( ;; ) {

        if (m->poll != NULL && m->poll(m->poll_data) != 0) {
            vw_stop(err, "inspect \"%s\": stopped measuring the duration",
                    m->name);
            goto done;
        }

        rc = av_read_frame(fmt, pkt);

        if (rc < 0) {
            if (m->io_errno) {
                vw_fail(err, "io", "inspect \"%s\": read: %s", m->name,
                        strerror(m->io_errno));
                goto done;
            }

            if (rc == AVERROR(ENOMEM)) {
                vw_fail(err, "no_memory", "inspect \"%s\": out of memory",
                        m->name);
                goto done;
            }

            /* the end, or damage the decoder will stop at as well */
            break;
        }

        st = pkt->stream_index >= 0
             && (unsigned) pkt->stream_index < fmt->nb_streams
             ? fmt->streams[pkt->stream_index] : NULL;

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

        if (!have || end > last) {
            last = end;
            last_timed = pkt->duration > 0;
        }

        if (!have || ts < first) {
            first = ts;
        }

        have = 1;

        av_packet_unref(pkt);

        ms = vw_scan_ms(last, start != AV_NOPTS_VALUE ? start : first, tb);

        if (ms > m->limits.max_duration_ms) {
            vw_scan_too_long(m, what, fmt, err);
            goto done;
        }
    }

    if (!have) {
        vw_reject(err, "unknown_duration", "inspect \"%s\": the %s file does "
                  "not say how long the video is, and its video packets "
                  "carry no time stamps; remux it into MP4 or MKV "
                  "(ffmpeg -i IN -c copy OUT.mp4)", m->name, what);
        goto done;
    }

    if (start == AV_NOPTS_VALUE) {
        start = first;
    }

    /* the last frame is shown for a frame's time: its packet's, or the
     * nominal one when the container gives none (SimpleBlocks do not) */

    rate = m->st->avg_frame_rate.num > 0 && m->st->avg_frame_rate.den > 0
           ? m->st->avg_frame_rate : m->st->r_frame_rate;

    if (!last_timed && rate.num > 0 && rate.den > 0) {
        frame = av_rescale_q(1, av_inv_q(rate), tb);

        if (frame > 0 && last <= INT64_MAX - frame) {
            last += frame;
        }
    }

    ms = vw_scan_ms(last, start, tb);

    if (ms > m->limits.max_duration_ms) {
        vw_scan_too_long(m, what, fmt, err);
        goto done;
    }

    *duration_ms = ms;
    ret = 0;

done:

    av_packet_free(&pkt);
    avformat_close_input(&fmt);

    if (avio != NULL) {
        av_freep(&avio->buffer);
        avio_context_free(&avio);
    }

    av_free(buf);

    return ret;
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
