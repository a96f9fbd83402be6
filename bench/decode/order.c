/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Decoding in decode order (issue 37): what skipping non-reference
 * frames could save, and whether the frames that are decoded stay
 * exact.  bench/decode/run.pl builds and drives it; README.md beside it
 * says what the numbers mean for the worker.
 *
 *   cc -std=c11 -O2 -o order bench/decode/order.c \
 *       $(pkg-config --cflags --libs libavcodec libavformat libavutil) -lm
 *   order VIDEO MODE [-c CHANGES] [-w SECONDS] [-m MD5S] [-s SECONDS]
 *
 *   full    every frame
 *   nonref  every non-reference frame skipped (the floor of skipping)
 *   near    the non-reference frames within -w SECONDS (0.35) of a
 *           change decoded, the others skipped
 *   anchor  decided once per mini-GOP, at its anchor: the non-reference
 *           frames sent after an anchor are shown between the anchor
 *           before it and it, and are decoded only if a change lies in
 *           that interval (what a look at the anchor would tell)
 *
 * CHANGES holds the instants (seconds from the stream's start, one a
 * line) where the truth's text changes: an oracle for the comparator
 * the worker would run on anchors.  -m writes the md5 of every output
 * frame's planes ("out PTS MD5") and of every picture allocated while a
 * packet was sent, read as soon as the send returned ("early PTS MD5");
 * -s seeks (backward, to a keyframe) before decoding.  One line goes to
 * stdout: the CPU seconds (user + sys) from the first packet to the end
 * of the drain, and the counts.
 *
 * Why it works, with FFmpeg 5.1 (Debian 12) and one thread:
 *   - H.264 and HEVC output frames after their reorder delay whatever
 *     the flags (LOW_DELAY, SHOW_ALL); but the picture a packet decodes
 *     into is allocated by get_buffer2 during avcodec_send_packet, is
 *     complete when the send returns, and already carries the packet's
 *     pts.  The hook below keeps a reference to it: that is the "early
 *     picture" a look could read before the next packets are sent.
 *   - skip_frame is read at each slice header, so setting it before
 *     each send decides packet by packet.  Which packets are
 *     non-reference must be known before sending: order_ref() reads
 *     the first slice's NAL header (H.264 nal_ref_idc, HEVC's even
 *     sub-layer non-reference types) or the VOP type (MPEG-4 part 2).
 *     A parser's pict_type would not do: pyramid B frames are
 *     references.
 *   - VP9 (every frame of libvpx realtime refreshes a reference) and
 *     AV1 (libdav1d ignores skip_frame and get_buffer2) save nothing.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sysexits.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/md5.h>
#include <libavutil/pixdesc.h>


#define ORDER_HELD  8          /* pictures one send may allocate */
#define ORDER_EPS   1e-6       /* s: a frame at W from a change is near */


typedef enum {
    ORDER_FULL,
    ORDER_NONREF,
    ORDER_NEAR,
    ORDER_ANCHOR
} order_mode_e;


typedef struct {
    order_mode_e     mode;
    double           win;          /* near: half window, s */
    double          *chg;          /* change instants, s, sorted */
    int              nchg;

    double          *anc;          /* anchors' times, s, increasing */
    int              nanc, anc_cap;
    double           max_t;        /* latest time sent so far */

    AVFrame         *held[ORDER_HELD];
    int              nheld;
    int              pictures;     /* allocated by get_buffer2 */
} order_t;


static int order_get_buffer(AVCodecContext *c, AVFrame *f, int flags);
static void order_md5(const AVFrame *f, int w, int h, char *out);
static int order_ref(enum AVCodecID id, const uint8_t *ed, int edn,
    const uint8_t *p, int n);
static int order_change_in(order_t *o, double lo, double hi);
static int order_skip(order_t *o, double t, int ref);
static int order_cmp(const void *a, const void *b);
static int order_load(order_t *o, const char *path);
static double order_cpu(void);
static int order_usage(const char *why);


/*
 * The early picture: allocated as FFmpeg would, plus a reference kept
 * for the caller, who reads it when the send returns and drops it.
 */

static int
order_get_buffer(AVCodecContext *c, AVFrame *f, int flags)
{
    int       rc;
    order_t  *o;

    o = c->opaque;

    rc = avcodec_default_get_buffer2(c, f, flags);

    if (rc >= 0) {
        o->pictures++;

        if (o->nheld < ORDER_HELD && av_frame_ref(o->held[o->nheld], f) >= 0)
        {
            o->nheld++;
        }
    }

    return rc;
}


/*
 * The md5 of the w x h top left of every plane.  An early picture has
 * the coded size (cropping is applied on output), so it is read with the
 * stream's size, not its own.
 */

static void
order_md5(const AVFrame *f, int w, int h, char *out)
{
    int                        ls[4], i, y, ph;
    uint8_t                    dig[16];
    struct AVMD5              *m;
    const AVPixFmtDescriptor  *d;

    d = av_pix_fmt_desc_get(f->format);
    m = av_md5_alloc();

    if (d == NULL || m == NULL
        || av_image_fill_linesizes(ls, f->format, w) < 0)
    {
        strcpy(out, "-");
        av_free(m);
        return;
    }

    av_md5_init(m);

    for (i = 0; i < 4 && f->data[i] != NULL; i++) {
        ph = h;
        if ((i == 1 || i == 2) && !(d->flags & AV_PIX_FMT_FLAG_RGB)) {
            ph = AV_CEIL_RSHIFT(h, d->log2_chroma_h);
        }

        for (y = 0; y < ph; y++) {
            av_md5_update(m, f->data[i] + (size_t) y * f->linesize[i], ls[i]);
        }
    }

    av_md5_final(m, dig);
    av_free(m);

    for (i = 0; i < 16; i++) {
        sprintf(out + 2 * i, "%02x", dig[i]);
    }
}


/*
 * Is the frame in this packet a reference?  1 yes, 0 no, -1 unknown
 * (another codec, no slice found): unknown is treated as a reference.
 * H.264 and HEVC in AVCC/hvcC (length prefixes, their size from the
 * extradata) or Annex B (start codes).  The first slice decides.
 */

static int
order_ref(enum AVCodecID id, const uint8_t *ed, int edn, const uint8_t *p,
    int n)
{
    int   ls, i, k, t;
    long  len;

    if (id == AV_CODEC_ID_MPEG4) {
        /* the first VOP's vop_coding_type: B (2) is never a reference */
        for (i = 0; i + 4 < n; i++) {
            if (p[i] == 0 && p[i + 1] == 0 && p[i + 2] == 1
                && p[i + 3] == 0xb6)
            {
                return (p[i + 4] >> 6) != 2;
            }
        }

        return -1;
    }

    if (id != AV_CODEC_ID_H264 && id != AV_CODEC_ID_HEVC) {
        return -1;
    }

    ls = 0;
    if (ed != NULL && ed[0] == 1) {
        if (id == AV_CODEC_ID_H264 && edn >= 7) {
            ls = (ed[4] & 3) + 1;

        } else if (id == AV_CODEC_ID_HEVC && edn >= 23) {
            ls = (ed[21] & 3) + 1;
        }
    }

    i = 0;

    while (i < n) {
        if (ls) {
            if (i + ls > n) {
                break;
            }

            for (len = 0, k = 0; k < ls; k++) {
                len = (len << 8) | p[i + k];
            }

            i += ls;

            if (len > n - i) {
                break;
            }

        } else {
            while (i + 3 < n && !(p[i] == 0 && p[i + 1] == 0 && p[i + 2] == 1))
            {
                i++;
            }

            i += 3;
            len = 0;
        }

        if (i >= n) {
            break;
        }

        if (id == AV_CODEC_ID_H264) {
            t = p[i] & 0x1f;
            if (t == 1 || t == 5) {
                return (p[i] >> 5) & 3 ? 1 : 0;
            }

        } else {
            /* VCL: TRAIL_N, TSA_N, STSA_N, RADL_N, RASL_N, RSV_VCL_N1x
             * are the non-references (ff_hevc_nal_is_nonref) */
            t = (p[i] >> 1) & 0x3f;
            if (t < 32) {
                return !(t <= 14 && t % 2 == 0);
            }
        }

        i += len;
    }

    return -1;
}


/* Is there a change in (lo, hi]? */

static int
order_change_in(order_t *o, double lo, double hi)
{
    int  a, b, m;

    /* the first change after lo */
    a = 0;
    b = o->nchg;

    while (a < b) {
        m = (a + b) / 2;
        if (o->chg[m] <= lo) {
            a = m + 1;
        } else {
            b = m;
        }
    }

    return a < o->nchg && o->chg[a] <= hi;
}


/*
 * Should the packet of time t (NAN: no pts) be sent with NONREF?  Only
 * non-reference packets are affected by it; references are always
 * decoded.  Returns -1 when out of memory.
 */

static int
order_skip(order_t *o, double t, int ref)
{
    int      a, b, m;
    double  *anc;

    switch (o->mode) {

    case ORDER_FULL:
        return 0;

    case ORDER_NONREF:
        return 1;

    case ORDER_NEAR:
        if (isnan(t)) {
            return 0;
        }

        return !order_change_in(o, t - o->win - ORDER_EPS,
                                t + o->win + ORDER_EPS);

    case ORDER_ANCHOR:
        break;
    }

    if (isnan(t)) {
        /* no time: neither an anchor nor placeable between two */
        return 0;
    }

    if (ref != 0) {
        /* a reference shown after everything sent before it */
        if (t > o->max_t) {
            if (o->nanc == o->anc_cap) {
                o->anc_cap = o->anc_cap ? 2 * o->anc_cap : 1024;
                anc = realloc(o->anc, o->anc_cap * sizeof(double));
                if (anc == NULL) {
                    return -1;
                }
                o->anc = anc;
            }

            o->anc[o->nanc++] = t;
        }

        o->max_t = t > o->max_t ? t : o->max_t;
        return 0;
    }

    o->max_t = t > o->max_t ? t : o->max_t;

    if (o->nanc == 0 || t > o->anc[o->nanc - 1]) {
        /* shown after the last anchor: nothing decoded tells yet */
        return 0;
    }

    /* the first anchor at or after t, and the one before it */
    a = 0;
    b = o->nanc;

    while (a < b) {
        m = (a + b) / 2;
        if (o->anc[m] < t) {
            a = m + 1;
        } else {
            b = m;
        }
    }

    return !order_change_in(o, a > 0 ? o->anc[a - 1] : -1e18, o->anc[a]);
}


static int
order_cmp(const void *a, const void *b)
{
    double  x, y;

    x = *(const double *) a;
    y = *(const double *) b;

    return (x > y) - (x < y);
}


static int
order_load(order_t *o, const char *path)
{
    int      cap;
    FILE    *f;
    double   t, *c;

    f = fopen(path, "r");
    if (f == NULL) {
        perror(path);
        return -1;
    }

    cap = 0;

    while (fscanf(f, "%lf", &t) == 1) {
        if (o->nchg == cap) {
            cap = cap ? 2 * cap : 256;
            c = realloc(o->chg, cap * sizeof(double));
            if (c == NULL) {
                fclose(f);
                fprintf(stderr, "order: %s: out of memory\n", path);
                return -1;
            }
            o->chg = c;
        }

        o->chg[o->nchg++] = t;
    }

    if (!feof(f)) {
        fprintf(stderr, "order: %s: not a list of seconds\n", path);
        fclose(f);
        return -1;
    }

    fclose(f);

    if (o->nchg) {
        qsort(o->chg, o->nchg, sizeof(double), order_cmp);
    }

    return 0;
}


static double
order_cpu(void)
{
    struct rusage  ru;

    getrusage(RUSAGE_SELF, &ru);

    return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec
           + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}


static int
order_usage(const char *why)
{
    if (why != NULL) {
        fprintf(stderr, "order: %s\n", why);
    }

    fprintf(stderr, "usage: order VIDEO full|nonref|near|anchor"
            " [-c CHANGES] [-w SECONDS] [-m MD5S] [-s SECONDS]\n");

    return EX_USAGE;
}


int
main(int argc, char **argv)
{
    int               i, rc, si, ref, skip, ret;
    int               packets, nonref, unknown, asked, frames, early;
    char              md[33], *end;
    double            c0, c1, t, seek, start;
    FILE             *mf;
    order_t           o;
    AVFrame          *fr;
    AVPacket         *pkt;
    AVStream         *st;
    const char       *path, *cfile, *mfile;
    const AVCodec    *codec;
    AVCodecContext   *dec;
    AVFormatContext  *fmt;

    memset(&o, 0, sizeof(o));
    o.win = 0.35;
    o.max_t = -1e18;
    cfile = NULL;
    mfile = NULL;
    seek = -1;
    mf = NULL;
    fmt = NULL;
    dec = NULL;
    pkt = NULL;
    fr = NULL;
    ret = 1;

    if (argc < 3) {
        return order_usage(NULL);
    }

    path = argv[1];

    if (strcmp(argv[2], "full") == 0) {
        o.mode = ORDER_FULL;
    } else if (strcmp(argv[2], "nonref") == 0) {
        o.mode = ORDER_NONREF;
    } else if (strcmp(argv[2], "near") == 0) {
        o.mode = ORDER_NEAR;
    } else if (strcmp(argv[2], "anchor") == 0) {
        o.mode = ORDER_ANCHOR;
    } else {
        return order_usage("MODE is full, nonref, near or anchor");
    }

    for (i = 3; i < argc; i++) {
        if (i + 1 == argc) {
            return order_usage("an option lacks its value");
        }

        if (strcmp(argv[i], "-c") == 0) {
            cfile = argv[++i];

        } else if (strcmp(argv[i], "-m") == 0) {
            mfile = argv[++i];

        } else if (strcmp(argv[i], "-w") == 0) {
            o.win = strtod(argv[++i], &end);
            if (*end != '\0' || end == argv[i] || o.win < 0) {
                return order_usage("-w takes seconds, 0 or more");
            }

        } else if (strcmp(argv[i], "-s") == 0) {
            seek = strtod(argv[++i], &end);
            if (*end != '\0' || end == argv[i] || seek < 0) {
                return order_usage("-s takes seconds, 0 or more");
            }

        } else {
            return order_usage("unknown option");
        }
    }

    if ((o.mode == ORDER_NEAR || o.mode == ORDER_ANCHOR) && cfile == NULL) {
        return order_usage("near and anchor need -c CHANGES");
    }

    if (cfile != NULL && order_load(&o, cfile) != 0) {
        return 1;
    }

    if (mfile != NULL) {
        mf = fopen(mfile, "w");
        if (mf == NULL) {
            perror(mfile);
            return 1;
        }
    }

    av_log_set_level(AV_LOG_ERROR);

    if (avformat_open_input(&fmt, path, NULL, NULL) < 0
        || avformat_find_stream_info(fmt, NULL) < 0)
    {
        fprintf(stderr, "order: %s: cannot open\n", path);
        goto done;
    }

    si = av_find_best_stream(fmt, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0);
    if (si < 0) {
        fprintf(stderr, "order: %s: no video stream we can decode\n", path);
        goto done;
    }

    st = fmt->streams[si];
    start = st->start_time == AV_NOPTS_VALUE ? 0 : st->start_time;

    for (i = 0; i < (int) fmt->nb_streams; i++) {
        if (i != si) {
            fmt->streams[i]->discard = AVDISCARD_ALL;
        }
    }

    for (i = 0; i < ORDER_HELD; i++) {
        o.held[i] = av_frame_alloc();
        if (o.held[i] == NULL) {
            goto nomem;
        }
    }

    dec = avcodec_alloc_context3(codec);
    pkt = av_packet_alloc();
    fr = av_frame_alloc();

    if (dec == NULL || pkt == NULL || fr == NULL) {
        goto nomem;
    }

    if (avcodec_parameters_to_context(dec, st->codecpar) < 0) {
        goto nomem;
    }

    /* one thread: with frame threads a picture is not complete when its
     * send returns, and skip_frame is read by another thread later */
    dec->pkt_timebase = st->time_base;
    dec->thread_count = 1;
    dec->opaque = &o;
    dec->get_buffer2 = order_get_buffer;

    if (avcodec_open2(dec, codec, NULL) < 0) {
        fprintf(stderr, "order: %s: the %s decoder refuses the stream\n",
                path, codec->name);
        goto done;
    }

    if (seek >= 0
        && av_seek_frame(fmt, si, (int64_t) start
                         + (int64_t) (seek / av_q2d(st->time_base)),
                         AVSEEK_FLAG_BACKWARD) < 0)
    {
        fprintf(stderr, "order: %s: cannot seek to %.3f s\n", path, seek);
        goto done;
    }

    packets = nonref = unknown = asked = frames = early = 0;

    /* after the open and the probe: they cost the same in every mode */
    c0 = order_cpu();

    for ( ;; ) {
        rc = av_read_frame(fmt, pkt);

        if (rc < 0) {
            avcodec_send_packet(dec, NULL);

        } else if (pkt->stream_index != si) {
            av_packet_unref(pkt);
            continue;

        } else {
            ref = order_ref(codec->id, dec->extradata, dec->extradata_size,
                            pkt->data, pkt->size);
            nonref += ref == 0;
            unknown += ref < 0;

            t = pkt->pts == AV_NOPTS_VALUE
                ? NAN : (pkt->pts - start) * av_q2d(st->time_base);

            skip = order_skip(&o, t, ref);
            if (skip < 0) {
                av_packet_unref(pkt);
                goto nomem;
            }

            asked += skip && ref == 0;
            packets++;

            dec->skip_frame = skip ? AVDISCARD_NONREF : AVDISCARD_DEFAULT;

            o.nheld = 0;
            rc = avcodec_send_packet(dec, pkt);
            av_packet_unref(pkt);

            if (rc < 0 && rc != AVERROR(EAGAIN)) {
                fprintf(stderr, "order: %s: packet %d: %s\n", path, packets,
                        av_err2str(rc));
            }

            for (i = 0; i < o.nheld; i++) {
                if (mf != NULL) {
                    order_md5(o.held[i], dec->width, dec->height, md);
                    fprintf(mf, "early %lld %s\n",
                            (long long) o.held[i]->pts, md);
                }

                early++;
                av_frame_unref(o.held[i]);
            }
        }

        while ((rc = avcodec_receive_frame(dec, fr)) >= 0) {
            if (mf != NULL) {
                order_md5(fr, fr->width, fr->height, md);
                fprintf(mf, "out %lld %s\n", (long long) fr->pts, md);
            }

            frames++;
            av_frame_unref(fr);
        }

        if (rc == AVERROR_EOF) {
            break;
        }
    }

    c1 = order_cpu();

    printf("cpu=%.3f codec=%s packets=%d nonref=%d unknown=%d asked=%d "
           "frames=%d pictures=%d early=%d anchors=%d has_b_frames=%d\n",
           c1 - c0, codec->name, packets, nonref, unknown, asked, frames,
           o.pictures, early, o.nanc, dec->has_b_frames);

    ret = 0;
    goto done;

nomem:

    fprintf(stderr, "order: %s: out of memory\n", path);

done:

    if (mf != NULL && fclose(mf) != 0) {
        perror(mfile);
        ret = 1;
    }

    for (i = 0; i < ORDER_HELD; i++) {
        av_frame_free(&o.held[i]);
    }

    av_frame_free(&fr);
    av_packet_free(&pkt);
    avcodec_free_context(&dec);
    avformat_close_input(&fmt);
    free(o.chg);
    free(o.anc);

    return ret;
}
