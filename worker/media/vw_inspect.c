/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Inspection: open an upload through our own I/O, find its video stream,
 * normalise what the container declares, and refuse what the limits do
 * not allow before any decoder of ours exists.  The order matters:
 *
 *   1. fstat and sniff the first bytes (the same sniffer the module
 *      runs at the edge, so both sides name containers alike);
 *   2. walk the container's top-level structure (vw_container.c): a
 *      declared size that runs past the end of the file is "truncated",
 *      a structure that makes no sense is "not_a_video";
 *   3. probe the demuxer and refuse one off the whitelist;
 *   4. read the header; check the declared size, codec and duration;
 *   5. only then let libavformat probe the streams (its decoders run
 *      with max_pixels) and check again with what it found.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libavutil/avstring.h>
#include <libavutil/pixdesc.h>

#include "vo_edge.h"
#include "vw_media_int.h"


#define VW_AVIO_BUFFER   65536

/* the demuxers of the containers the intake accepts (vo_sniff.c) */
#define VW_DEMUXERS      "mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,avi," \
                         "mpegts,mpeg,flv,ogg,asf,mxf"


static const enum AVCodecID  vw_codecs[] = {
    AV_CODEC_ID_H264, AV_CODEC_ID_HEVC, AV_CODEC_ID_VP8, AV_CODEC_ID_VP9,
    AV_CODEC_ID_AV1, AV_CODEC_ID_MPEG4, AV_CODEC_ID_MPEG2VIDEO,
    AV_CODEC_ID_MPEG1VIDEO, AV_CODEC_ID_MJPEG, AV_CODEC_ID_THEORA,
    AV_CODEC_ID_H263, AV_CODEC_ID_FLV1, AV_CODEC_ID_VC1, AV_CODEC_ID_WMV1,
    AV_CODEC_ID_WMV2, AV_CODEC_ID_WMV3, AV_CODEC_ID_MSMPEG4V3,
    AV_CODEC_ID_FFV1,
    /* what editors and cameras export (mezzanine codecs, intra only) */
    AV_CODEC_ID_PRORES, AV_CODEC_ID_DNXHD
};


static vw_media_t *vw_media_new(int fd, const char *name,
    const vw_limits_t *l, vw_poll_pt poll, void *poll_data, vw_err_t *err);
static int vw_media_sniff(vw_media_t *m, vo_container_t *c, vw_err_t *err);
static int vw_media_demuxer(vw_media_t *m, const AVInputFormat **ifmt,
    vw_err_t *err);
static int vw_media_header(vw_media_t *m, vo_container_t c,
    const AVInputFormat *ifmt, vw_inspection_t *in, vw_err_t *err);
static int vw_media_probe(vw_media_t *m, const AVInputFormat *ifmt,
    const vw_inspection_t *in, vw_err_t *err);
static void vw_media_describe(vw_media_t *m, vw_inspection_t *in);
static int vw_media_timing(vw_media_t *m, vw_inspection_t *in,
    vw_err_t *err);
static int vw_check_stream(vw_media_t *m, AVStream *st, int probed,
    vw_err_t *err);
static int vw_open_error(vw_media_t *m, int rc, const char *what,
    vw_err_t *err);
static const char *vw_streams_summary(AVFormatContext *fmt, char *buf,
    size_t size);
static const char *vw_codec_tag(uint32_t tag, char *buf, size_t size);
static const char *vw_bits(const AVCodecParameters *par, char *buf,
    size_t size);


int
vw_media_open(vw_media_t **mp, int fd, const char *name,
    const vw_limits_t *l, vw_poll_pt poll, void *poll_data,
    vw_inspection_t *in, vw_err_t *err)
{
    char                  sum[200];
    vw_media_t           *m;
    vo_container_t        c;
    const AVInputFormat  *ifmt;

    *mp = NULL;
    c = VO_CONTAINER_UNKNOWN;
    ifmt = NULL;

    vw_media_log_take(sum, sizeof(sum));    /* forget older messages */

    m = vw_media_new(fd, name, l, poll, poll_data, err);
    if (m == NULL) {
        return -1;
    }

    if (vw_media_sniff(m, &c, err) != 0
        || vw_media_demuxer(m, &ifmt, err) != 0
        || vw_media_header(m, c, ifmt, in, err) != 0
        || vw_media_probe(m, ifmt, in, err) != 0)
    {
        vw_media_close(m);
        return -1;
    }

    vw_media_describe(m, in);

    if (vw_media_timing(m, in, err) != 0) {
        vw_media_close(m);
        return -1;
    }

    *mp = m;

    return 0;
}


/* The media of an open upload, if it is a regular file with bytes. */
static vw_media_t *
vw_media_new(int fd, const char *name, const vw_limits_t *l,
    vw_poll_pt poll, void *poll_data, vw_err_t *err)
{
    vw_media_t   *m;
    struct stat   sb;

    m = av_mallocz(sizeof(vw_media_t));
    if (m == NULL) {
        vw_fail(err, "no_memory", "inspect \"%s\": out of memory", name);
        return NULL;
    }

    m->fd = fd;
    m->name = name;
    m->limits = *l;
    m->stream_index = -1;
    m->poll = poll;
    m->poll_data = poll_data;

    if (fstat(fd, &sb) != 0) {
        vw_fail(err, "io", "inspect \"%s\": fstat: %s", name,
                strerror(errno));
        goto fail;
    }

    if (!S_ISREG(sb.st_mode)) {
        vw_fail(err, "io", "inspect \"%s\": not a regular file", name);
        goto fail;
    }

    m->size = sb.st_size;

    if (m->size == 0) {
        vw_reject(err, "not_a_video", "inspect \"%s\": the file is empty; "
                  "upload the video's bytes", name);
        goto fail;
    }

    return m;

fail:

    vw_media_close(m);

    return NULL;
}


/* 1, 2: what the first bytes say, and the container's own sizes. */
static int
vw_media_sniff(vw_media_t *m, vo_container_t *c, vw_err_t *err)
{
    ssize_t        n;
    unsigned char  head[VO_SNIFF_BYTES];

    n = vw_media_pread(m, 0, head, sizeof(head));
    if (n < 0) {
        return vw_fail(err, "io", "inspect \"%s\": read: %s", m->name,
                       strerror(m->io_errno));
    }

    *c = vo_sniff_container(head, (size_t) n, 1);

    return vw_media_check_structure(m, *c, err);
}


/* 3: our I/O, no other resource, whitelisted demuxers only. */
static int
vw_media_demuxer(vw_media_t *m, const AVInputFormat **ifmt, vw_err_t *err)
{
    int       rc;
    uint8_t  *buf;

    buf = av_malloc(VW_AVIO_BUFFER);
    if (buf == NULL) {
        return vw_fail(err, "no_memory", "inspect \"%s\": out of memory",
                       m->name);
    }

    m->reader.m = m;
    m->reader.pos = 0;
    m->avio = avio_alloc_context(buf, VW_AVIO_BUFFER, 0, &m->reader,
                                 vw_media_avio_read, NULL,
                                 vw_media_avio_seek);
    if (m->avio == NULL) {
        av_free(buf);
        return vw_fail(err, "no_memory", "inspect \"%s\": out of memory",
                       m->name);
    }

    /* the AVIOContext owns buf now */

    m->fmt = avformat_alloc_context();
    if (m->fmt == NULL) {
        return vw_fail(err, "no_memory", "inspect \"%s\": out of memory",
                       m->name);
    }

    m->fmt->pb = m->avio;
    m->fmt->flags |= AVFMT_FLAG_CUSTOM_IO;
    m->fmt->io_open = vw_media_io_open_refuse;
    m->fmt->format_whitelist = av_strdup(VW_DEMUXERS);
    m->fmt->max_streams = 64;

    if (m->fmt->format_whitelist == NULL) {
        return vw_fail(err, "no_memory", "inspect \"%s\": out of memory",
                       m->name);
    }

    *ifmt = NULL;
    rc = av_probe_input_buffer2(m->avio, ifmt, "", NULL, 0, 0);

    if (rc < 0 || *ifmt == NULL) {
        if (m->io_errno) {
            return vw_fail(err, "io", "inspect \"%s\": read: %s", m->name,
                           strerror(m->io_errno));
        }

        return vw_reject(err, "not_a_video", "inspect \"%s\": not a video "
                         "file (no known container format); upload an MP4, "
                         "MOV, MKV, WebM, AVI, MPEG-TS/PS, FLV, Ogg, ASF or "
                         "MXF file", m->name);
    }

    if (av_match_list((*ifmt)->name, VW_DEMUXERS, ',') <= 0) {
        return vw_reject(err, "not_a_video", "inspect \"%s\": the file "
                         "looks like %s, which is not a video container this "
                         "service reads; upload an MP4, MOV, MKV, WebM, AVI, "
                         "MPEG-TS/PS, FLV, Ogg, ASF or MXF file", m->name,
                         (*ifmt)->long_name ? (*ifmt)->long_name
                                            : (*ifmt)->name);
    }

    return 0;
}


/*
 * 4: the header: the container's names, the video stream it declares
 * (the default one first, never a cover picture), its codec and size,
 * and the declared duration against the limit.
 */
static int
vw_media_header(vw_media_t *m, vo_container_t c, const AVInputFormat *ifmt,
    vw_inspection_t *in, vw_err_t *err)
{
    int        rc, i;
    AVStream  *st;

    rc = avformat_open_input(&m->fmt, "", ifmt, NULL);
    if (rc < 0) {
        /* m->fmt was freed by avformat_open_input */
        return vw_open_error(m, rc, ifmt->name, err);
    }

    snprintf(in->container, sizeof(in->container), "%s",
             c > VO_CONTAINER_UNKNOWN ? vo_container_name(c)
                                      : m->fmt->iformat->name);
    snprintf(in->demuxer, sizeof(in->demuxer), "%s", m->fmt->iformat->name);

    for (i = 0; i < (int) m->fmt->nb_streams; i++) {
        st = m->fmt->streams[i];

        if (st->codecpar->codec_type != AVMEDIA_TYPE_VIDEO
            || (st->disposition & AV_DISPOSITION_ATTACHED_PIC))
        {
            continue;
        }

        if (m->stream_index < 0
            || ((st->disposition & AV_DISPOSITION_DEFAULT)
                && !(m->st->disposition & AV_DISPOSITION_DEFAULT)))
        {
            m->stream_index = i;
            m->st = st;
        }
    }

    if (m->st != NULL && vw_check_stream(m, m->st, 0, err) != 0) {
        return -1;
    }

    if (m->fmt->duration != AV_NOPTS_VALUE
        && m->fmt->duration / 1000 > m->limits.max_duration_ms)
    {
        vw_reject(err, "too_long", "inspect \"%s\": the file lasts %lld s, "
                  "longer than the %lld s limit; split it into shorter "
                  "parts", m->name,
                  (long long) ((m->fmt->duration + 999999) / 1000000),
                  (long long) (m->limits.max_duration_ms / 1000));
        return -1;
    }

    return 0;
}


/*
 * 5: libavformat looks at the packets, with bounded decoders, and the
 * stream is chosen and checked again with what it found.
 */
static int
vw_media_probe(vw_media_t *m, const AVInputFormat *ifmt,
    const vw_inspection_t *in, vw_err_t *err)
{
    int             rc, i, nopts;
    char            sum[200];
    AVDictionary  **opts;

    nopts = (int) m->fmt->nb_streams;
    opts = av_calloc(nopts + 1, sizeof(AVDictionary *));
    if (opts == NULL) {
        return vw_fail(err, "no_memory", "inspect \"%s\": out of memory",
                       m->name);
    }

    for (i = 0; i < nopts; i++) {
        av_dict_set_int(&opts[i], "max_pixels", m->limits.max_pixels, 0);
        av_dict_set(&opts[i], "threads", "1", 0);
    }

    rc = avformat_find_stream_info(m->fmt, opts);

    for (i = 0; i < nopts; i++) {
        av_dict_free(&opts[i]);
    }

    av_free(opts);

    if (rc < 0) {
        return vw_open_error(m, rc, ifmt->name, err);
    }

    /*
     * The stream libavformat would play: found only by probing (MPEG-TS,
     * MPEG-PS), or, of several, the one with more than a frame (a cover
     * picture stored as a one-frame video track before the video, as
     * Matroska files have it, declares itself a video like any other)
     */
    rc = av_find_best_stream(m->fmt, AVMEDIA_TYPE_VIDEO, -1, -1, NULL, 0);

    if (rc >= 0 && rc != m->stream_index
        && !(m->fmt->streams[rc]->disposition & AV_DISPOSITION_ATTACHED_PIC))
    {
        m->stream_index = rc;
        m->st = m->fmt->streams[rc];
    }

    if (m->fmt->nb_streams == 0) {
        vw_reject(err, "not_a_video", "inspect \"%s\": the %s file holds "
                  "no streams at all; the file is damaged or not a video",
                  m->name, in->container);
        return -1;
    }

    if (m->st == NULL) {
        vw_reject(err, "no_video_stream", "inspect \"%s\": the file has no "
                  "video stream (it holds %s); upload a video with the "
                  "text to read", m->name,
                  vw_streams_summary(m->fmt, sum, sizeof(sum)));
        return -1;
    }

    return vw_check_stream(m, m->st, 1, err);
}


/* The normalised inspection: codec, sizes as stored and shown, rate. */
static void
vw_media_describe(vw_media_t *m, vw_inspection_t *in)
{
    AVStream  *st;

    st = m->st;

    snprintf(in->codec, sizeof(in->codec), "%s",
             avcodec_get_name(st->codecpar->codec_id));
    snprintf(in->pix_fmt, sizeof(in->pix_fmt), "%s",
             st->codecpar->format >= 0
             ? av_get_pix_fmt_name(st->codecpar->format) : "");
    in->stream_index = m->stream_index;
    in->streams = (int) m->fmt->nb_streams;
    in->width = st->codecpar->width;
    in->height = st->codecpar->height;

    /* how a player turns it (frames may carry their own: vw_decode.c) */
    m->shown = vw_orient_of_stream(st);
    in->rotation = 90 * vw_orient_describe(m->shown, &in->mirror);
    in->display_width = vw_orient_swaps(m->shown) ? in->height : in->width;
    in->display_height = vw_orient_swaps(m->shown) ? in->width : in->height;
    in->bit_rate = st->codecpar->bit_rate > 0 ? st->codecpar->bit_rate
                                              : m->fmt->bit_rate;
    in->size = m->size;

    if (st->avg_frame_rate.num > 0 && st->avg_frame_rate.den > 0) {
        in->fps_num = st->avg_frame_rate.num;
        in->fps_den = st->avg_frame_rate.den;

    } else if (st->r_frame_rate.num > 0 && st->r_frame_rate.den > 0) {
        in->fps_num = st->r_frame_rate.num;
        in->fps_den = st->r_frame_rate.den;

    } else {
        in->fps_num = 0;
        in->fps_den = 0;
    }
}


/* The duration, against the limit, and the stream's first time stamp. */
static int
vw_media_timing(vw_media_t *m, vw_inspection_t *in, vw_err_t *err)
{
    int        guessed;
    AVStream  *st;

    st = m->st;

    /*
     * The duration: the container's (or libavformat's from the time
     * stamps at both ends, for MPEG-TS/PS), else measured from the
     * packets (vw_duration.c).  A duration libavformat only guessed
     * from the bit rate is no duration: the plan would stop early or
     * sample past the end.
     */

    guessed = m->fmt->duration_estimation_method
              == AVFMT_DURATION_FROM_BITRATE;

    if (!guessed && st->duration > 0 && st->duration != AV_NOPTS_VALUE) {
        in->duration_ms = av_rescale_q(st->duration, st->time_base,
                                       (AVRational) { 1, 1000 });
        in->duration_from = VW_DURATION_DECLARED;

    } else if (!guessed && m->fmt->duration > 0
               && m->fmt->duration != AV_NOPTS_VALUE)
    {
        in->duration_ms = m->fmt->duration / 1000;
        in->duration_from = VW_DURATION_DECLARED;

    } else if (vw_media_measure_duration(m, in->container, &in->duration_ms,
                                         err)
               != 0)
    {
        return -1;

    } else {
        in->duration_from = VW_DURATION_PACKETS;
    }

    if (in->duration_ms > m->limits.max_duration_ms) {
        vw_reject(err, "too_long", "inspect \"%s\": the video lasts %lld s, "
                  "longer than the %lld s limit; split it into shorter "
                  "parts", m->name,
                  (long long) ((in->duration_ms + 999) / 1000),
                  (long long) (m->limits.max_duration_ms / 1000));
        return -1;
    }

    if (st->start_time != AV_NOPTS_VALUE) {
        m->start_pts = st->start_time;

    } else if (m->fmt->start_time != AV_NOPTS_VALUE) {
        m->start_pts = av_rescale_q(m->fmt->start_time, AV_TIME_BASE_Q,
                                    st->time_base);
    }

    if (in->fps_num > 0) {
        m->frame_dur = av_rescale_q(1, (AVRational) { in->fps_den,
                                                      in->fps_num },
                                    st->time_base);
    }

    return 0;
}


void
vw_media_close(vw_media_t *m)
{
    if (m == NULL) {
        return;
    }

    vw_media_free_kept(m);
    av_frame_free(&m->tmp);
    av_frame_free(&m->cur);
    av_frame_free(&m->next);
    av_packet_free(&m->pkt);
    avcodec_free_context(&m->dec);
    avformat_close_input(&m->fmt);

    if (m->avio != NULL) {
        av_freep(&m->avio->buffer);
        avio_context_free(&m->avio);
    }

    av_free(m);
}


/*
 * Checks a video stream's declared codec and size.  Before probing
 * (probed 0) unknown values pass; after, they must be known.
 */
static int
vw_check_stream(vw_media_t *m, AVStream *st, int probed, vw_err_t *err)
{
    int                  w, h;
    char                 tag[32];
    size_t               i;
    const char          *profile;
    enum AVCodecID       id;
    const AVCodecParameters  *par;

    par = st->codecpar;
    id = par->codec_id;
    w = par->width;
    h = par->height;

    if (w < 0 || h < 0 || w > VW_MAX_SIDE || h > VW_MAX_SIDE
        || (int64_t) w * h > m->limits.max_pixels)
    {
        return vw_reject(err, "too_large", "inspect \"%s\": declared %dx%d "
                         "exceeds the %.1f Mpx limit (at most %d pixels a "
                         "side); scale the video down", m->name, w, h,
                         (double) m->limits.max_pixels / 1e6, VW_MAX_SIDE);
    }

    if (id == AV_CODEC_ID_NONE) {
        if (!probed) {
            return 0;
        }

        /* the container names it by a tag FFmpeg does not know (ProRes
         * RAW's "aprn", a vendor's fourcc): say which */
        return vw_reject(err, "unsupported_codec", "inspect \"%s\": the "
                         "video codec %sis unknown; re-encode it as H.264, "
                         "HEVC, VP9 or AV1", m->name,
                         vw_codec_tag(par->codec_tag, tag, sizeof(tag)));
    }

    for (i = 0; i < sizeof(vw_codecs) / sizeof(vw_codecs[0]); i++) {
        if (vw_codecs[i] == id) {
            break;
        }
    }

    if (i == sizeof(vw_codecs) / sizeof(vw_codecs[0])
        || avcodec_find_decoder(id) == NULL)
    {
        profile = avcodec_profile_name(id, par->profile);

        return vw_reject(err, "unsupported_codec", "inspect \"%s\": "
                         "unsupported codec \"%s\"%s%s%s; re-encode the "
                         "video as H.264, HEVC, VP9 or AV1", m->name,
                         avcodec_get_name(id), profile ? " (profile \"" : "",
                         profile ? profile : "", profile ? "\")" : "");
    }

    if (probed && (w == 0 || h == 0)) {
        return vw_reject(err, "not_a_video", "inspect \"%s\": the %s video "
                         "stream declares no picture size; the file is "
                         "damaged", m->name, avcodec_get_name(id));
    }

    if (probed && par->format < 0) {
        /*
         * The probing decoder (or parser) read the stream's headers and
         * found no pixel format it can make: a profile, bit depth or
         * chroma format beyond FFmpeg's decoder (HEVC 16-bit, HEVC SCC),
         * or headers too damaged to say.  Decoding would fail on every
         * frame; say so now, with what the stream declares.
         */
        profile = avcodec_profile_name(id, par->profile);

        if (profile == NULL) {
            return vw_reject(err, "unsupported_codec", "inspect \"%s\": the "
                             "%s decoder cannot read this stream: its headers "
                             "name no profile, bit depth or chroma format it "
                             "decodes; re-encode the video as H.264, HEVC, "
                             "VP9 or AV1 in 8 or 10 bits", m->name,
                             avcodec_get_name(id));
        }

        return vw_reject(err, "unsupported_codec", "inspect \"%s\": the %s "
                         "decoder cannot read this stream (profile \"%s\"%s"
                         "); re-encode the video as H.264, HEVC, VP9 or AV1 "
                         "in 8 or 10 bits", m->name, avcodec_get_name(id),
                         profile, vw_bits(par, tag, sizeof(tag)));
    }

    return 0;
}


static int
vw_open_error(vw_media_t *m, int rc, const char *what, vw_err_t *err)
{
    char  why[200];

    vw_media_av_error(rc, why, sizeof(why));

    if (m->io_errno) {
        return vw_fail(err, "io", "inspect \"%s\": read: %s", m->name,
                       strerror(m->io_errno));
    }

    if (rc == AVERROR(ENOMEM)) {
        return vw_fail(err, "no_memory", "inspect \"%s\": out of memory",
                       m->name);
    }

    return vw_reject(err, "not_a_video", "inspect \"%s\": the %s data "
                     "could not be read as a video (%s); the file is "
                     "damaged or not a video", m->name, what, why);
}


static const char *
vw_streams_summary(AVFormatContext *fmt, char *buf, size_t size)
{
    size_t       len;
    unsigned     i;
    AVStream    *st;
    const char  *type;

    if (fmt->nb_streams == 0) {
        snprintf(buf, size, "no streams at all");
        return buf;
    }

    len = 0;
    buf[0] = '\0';

    for (i = 0; i < fmt->nb_streams && len + 1 < size; i++) {
        st = fmt->streams[i];
        type = av_get_media_type_string(st->codecpar->codec_type);

        if (st->disposition & AV_DISPOSITION_ATTACHED_PIC) {
            type = "cover picture";
        }

        len += snprintf(buf + len, size - len, "%s%s %s", i ? ", " : "",
                        type ? type : "data",
                        avcodec_get_name(st->codecpar->codec_id));
    }

    return buf;
}


/* A codec tag as a sentence names it: "\"aprn\" " (quoted, a space after),
 * "0x... " when not printable, "" when there is none. */
static const char *
vw_codec_tag(uint32_t tag, char *buf, size_t size)
{
    int   i;
    char  c[5];

    if (tag == 0) {
        buf[0] = '\0';
        return buf;
    }

    for (i = 0; i < 4; i++) {
        c[i] = (char) ((tag >> (8 * i)) & 0xff);

        if (c[i] < 0x20 || c[i] > 0x7e || c[i] == '"' || c[i] == '\\') {
            snprintf(buf, size, "0x%08x ", (unsigned) tag);
            return buf;
        }
    }

    c[4] = '\0';
    snprintf(buf, size, "\"%s\" ", c);

    return buf;
}


/* ", 16-bit" when the headers said, "" otherwise. */
static const char *
vw_bits(const AVCodecParameters *par, char *buf, size_t size)
{
    int  bits;

    bits = par->bits_per_raw_sample;

    if (bits > 0 && bits <= 32) {
        snprintf(buf, size, ", %d-bit", bits);

    } else {
        buf[0] = '\0';
    }

    return buf;
}
