/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Whether every B frame of a stream can be skipped (AVDISCARD_BIDIR):
 * for H.264 with B frames and an index, B frames that are references
 * (B pyramids) are referred to by other B frames, and by P frames only
 * with some encoders (x264 never does).  Which kind of stream this is
 * cannot be read from it, so it is tested: the first VW_PROBE_PACKETS
 * packets are decoded twice, once without B frames and once whole, one
 * after the other, and only if every I and P frame comes out identical
 * (the same times and luma hashes) does the test pass.  Then the
 * demuxer seeks back to the start.  The test costs about two seconds
 * of video decoded once more; skipping B frames saves about 40% of an
 * x264 stream's decoding.
 */

#include <errno.h>
#include <string.h>

#include <libavutil/avstring.h>

#include "vw_media_int.h"


static int vw_media_probe_pass(vw_media_t *m, AVCodecContext *c, int ip_only,
    int64_t *pts, uint64_t *sig, int *n, vw_err_t *err);
static uint64_t vw_media_luma_sig(const AVFrame *f);


/*
 * Decodes the first VW_PROBE_PACKETS packets of the stream twice, once
 * without B frames (a decoder of its own, freed before the second pass)
 * and once whole (m's decoder, flushed afterwards), and compares their I
 * and P frames (in display order, the same sequence from both) by their
 * times and a 64-bit hash of their luma; if all are identical, m skips
 * B frames far from targets from now on.  One decoder at a time holds
 * pictures: at 4K each holds some 75 MB of them.  The demuxer is then
 * back at the start.
 */
int
vw_media_probe_bidir(vw_media_t *m, vw_err_t *err)
{
    int              k, rc, same, n[2];
    int64_t          pts[2][VW_PROBE_PACKETS];
    uint64_t         sig[2][VW_PROBE_PACKETS];
    const AVCodec   *codec;
    AVCodecContext  *c;

    same = 0;
    n[0] = 0;
    n[1] = 0;
    rc = 0;

    codec = avcodec_find_decoder(m->st->codecpar->codec_id);
    c = avcodec_alloc_context3(codec);

    if (c == NULL || avcodec_parameters_to_context(c, m->st->codecpar) < 0) {
        goto done;
    }

    c->pkt_timebase = m->st->time_base;
    c->max_pixels = m->limits.max_pixels;
    c->thread_count = 1;
    c->skip_frame = AVDISCARD_BIDIR;

    if (avcodec_open2(c, codec, NULL) < 0) {
        goto done;
    }

    for (k = 0; k < 2; k++) {
        if (k == 1) {
            avcodec_free_context(&c);

            if (av_seek_frame(m->fmt, m->stream_index, m->start_pts,
                              AVSEEK_FLAG_BACKWARD) < 0)
            {
                rc = vw_fail(err, "internal", "decode \"%s\": cannot seek "
                             "back to the start", m->name);
                goto done;
            }
        }

        rc = vw_media_probe_pass(m, k == 0 ? c : m->dec, k == 1, pts[k],
                                 sig[k], &n[k], err);

        if (k == 1) {
            avcodec_flush_buffers(m->dec);
        }

        if (rc < 0) {
            goto done;
        }

        if (rc > 0) {
            rc = 0;
            goto done;
        }
    }

    same = n[0] == n[1] && n[0] >= 8;

    for (k = 0; same && k < n[0]; k++) {
        same = pts[0][k] == pts[1][k] && sig[0][k] == sig[1][k];
    }

done:

    if (same) {
        m->skip_level = AVDISCARD_BIDIR;
        m->skip_window = (m->st->codecpar->video_delay + 1) * m->frame_dur;
        m->stats.skip_bidir = 1;
    }

    avcodec_free_context(&c);

    if (rc != 0) {
        return -1;
    }

    /* back to the start: the next read begins where decoding must */

    if (av_seek_frame(m->fmt, m->stream_index, m->start_pts,
                      AVSEEK_FLAG_BACKWARD) < 0)
    {
        return vw_fail(err, "internal", "decode \"%s\": cannot seek back "
                       "to the start", m->name);
    }

    return 0;
}


/*
 * One pass of the test: the first VW_PROBE_PACKETS packets through c,
 * then the decoder drained; the time and luma hash of every frame (of
 * the I and P frames only if ip_only) into pts[] and sig[].  0 when
 * done, 1 when there were more than VW_PROBE_PACKETS frames to keep, -1
 * on a read error.
 */
static int
vw_media_probe_pass(vw_media_t *m, AVCodecContext *c, int ip_only,
    int64_t *pts, uint64_t *sig, int *n, vw_err_t *err)
{
    int  rc, packets, over;

    packets = 0;
    over = 0;

    for ( ;; ) {
        rc = 0;

        if (packets < VW_PROBE_PACKETS) {
            rc = av_read_frame(m->fmt, m->pkt);

            if (rc < 0 && m->io_errno) {
                return vw_fail(err, "io", "decode \"%s\": read: %s",
                               m->name, strerror(m->io_errno));
            }

            if (rc >= 0 && m->pkt->stream_index != m->stream_index) {
                av_packet_unref(m->pkt);
                continue;
            }
        }

        (void) avcodec_send_packet(c, packets < VW_PROBE_PACKETS && rc >= 0
                                      ? m->pkt : NULL);

        while (avcodec_receive_frame(c, m->tmp) == 0) {
            m->stats.probe_frames++;

            if (!(ip_only && m->tmp->pict_type == AV_PICTURE_TYPE_B)) {
                if (*n == VW_PROBE_PACKETS) {
                    over = 1;

                } else {
                    pts[*n] = m->tmp->pts;
                    sig[*n] = vw_media_luma_sig(m->tmp);
                    (*n)++;
                }
            }

            av_frame_unref(m->tmp);
        }

        if (packets < VW_PROBE_PACKETS && rc >= 0) {
            av_packet_unref(m->pkt);
            packets++;
            continue;
        }

        break;      /* sent the end: drained */
    }

    return over;
}


/* A 64-bit hash of a frame's luma (its size and format mixed in). */
static uint64_t
vw_media_luma_sig(const AVFrame *f)
{
    int             x, y;
    uint64_t        h, w;
    const uint8_t  *p;

    h = 0x9e3779b97f4a7c15ULL ^ ((uint64_t) f->width << 32)
        ^ ((uint64_t) f->height << 16) ^ (uint64_t) f->format;

    for (y = 0; y < f->height; y++) {
        p = f->data[0] + (size_t) y * f->linesize[0];

        for (x = 0; x + 8 <= f->width; x += 8) {
            memcpy(&w, p + x, 8);
            h = (h ^ w) * 0x100000001b3ULL;
            h ^= h >> 29;
        }

        for ( ; x < f->width; x++) {
            h = (h ^ p[x]) * 0x100000001b3ULL;
        }
    }

    return h;
}
