/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The media room's own header (its contract is vw_media.h): the state
 * of an open upload, the tuning of its decoding, and the functions its
 * files share.  Nothing outside media/ includes it.
 */

#ifndef _VW_MEDIA_INT_H_INCLUDED_
#define _VW_MEDIA_INT_H_INCLUDED_


#include <sys/types.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>

#include "vw_media.h"
#include "core/vw_stage.h"


/*
 * The frames decoded before the current one, kept for finding where a
 * change began (vw_media_start with keep_us): those of keep_us and
 * VW_KEPT_SLACK more (a look may take a frame a few before its instant),
 * at most VW_KEPT_MAX and no more than VW_KEPT_BYTES of pictures, the
 * oldest dropped first.  The pipeline asks for two looks' steps of 0.17
 * s: 13 frames at 25 fps (all 13 at 720p, 18 MB; 8 at 1080p) and 25 at
 * 60 fps.  Each costs the decoder's pool a picture more (its luma
 * alone: vw_media_luma_only), 8.3 MB at 4K, where 2 are kept
 * (docs/worker-pipeline.md).
 */
#define VW_KEPT_SLACK   4
#define VW_KEPT_BYTES   (24 * 1024 * 1024)

/* demuxers whose index comes from the file's own sample tables: seeks
 * are exact (vw_decode.c), and a long video can be cut at its keyframes
 * (vw_keyframes.c) */
#define VW_EXACT_INDEX     "mov,matroska,avi"

/* packets decoded twice to test whether B frames can be skipped
 * (vw_bframes.c) */
#define VW_PROBE_PACKETS   32

/* microseconds: an instant more than this after the last frame's end
 * (its time and duration) is past the end of the video; up to it, the
 * last frame is what is shown (vw_decode.c) */
#define VW_ENDED_SLACK_US  500000

/* Where an AVIOContext of ours is in the upload: the media's own, or a
 * second one over the same file (vw_duration.c's pass). */
typedef struct {
    vw_media_t         *m;
    int64_t             pos;
} vw_media_reader_t;


struct vw_media_s {
    /* the input */
    int                 fd;
    const char         *name;        /* for messages only */
    int64_t             size;
    vw_media_reader_t   reader;      /* of avio */
    int                 io_errno;    /* set by a failed read or seek */
    vw_limits_t         limits;

    AVIOContext        *avio;
    AVFormatContext    *fmt;
    AVStream           *st;
    int                 stream_index;
    vw_orient_t         shown;       /* the stream's display matrix */

    /* decoding (vw_decode.c) */
    AVCodecContext     *dec;
    AVPacket           *pkt;
    AVFrame            *tmp;
    AVFrame            *cur;         /* last frame at or before target */
    AVFrame            *next;        /* first frame after target */
    int                 have_cur;
    int                 have_next;
    int64_t             cur_pts;     /* stream time base, absolute */
    int64_t             next_pts;
    int64_t             start_pts;   /* the stream time of t = 0 */
    int64_t             frame_dur;   /* nominal, stream time base; 0 = ? */
    int64_t             last_dts;    /* of the last packet read */
    int64_t             seek_margin; /* seek this much before a target */
    int                 started;     /* packets read since open/seek */
    int                 eof;         /* the demuxer has no more packets */
    int                 drained;     /* the decoder has given them all */
    int                 skip_nonref; /* sparse sampling: skip B frames */
    int                 skip_level;  /* AVDISCARD_NONREF or _BIDIR */
    int64_t             skip_window; /* decode all within this of target */
    int                 index_ok;    /* the index covers the stream */

    vw_kept_t           kept[VW_KEPT_MAX];  /* oldest first */
    int                 nkept;
    int                 keep;        /* how many to keep; 0: none */
    int                 kept_lost;   /* a frame decoded since the start
                                        was dropped or not decoded */

    vw_poll_pt          poll;
    void               *poll_data;

    vw_media_stats_t    stats;
};


/* Unrefs the kept frames (vw_media_close does). */
void vw_media_free_kept(vw_media_t *m);

/* The last error-level message of libav* into buf, forgotten there
 * ("" if none came since). */
void vw_media_log_take(char *buf, size_t size);

/* The last libav* error message (or rc's text) into buf. */
void vw_media_av_error(int rc, char *buf, size_t size);

/* Reads up to n bytes at off (fewer only at the end of the file); -1 with
 * m->io_errno set on a read error. */
ssize_t vw_media_pread(vw_media_t *m, int64_t off, void *buf, size_t n);

/* Whether the stream's B frames can be skipped (vw_bframes.c, run by
 * vw_media_start): if so, m skips them far from targets from now on.
 * 0, or -1 with err filled; the demuxer is back at the start. */
int vw_media_probe_bidir(vw_media_t *m, vw_err_t *err);

/* The container's top-level sizes against the file's (vw_container.c). */
int vw_media_check_structure(vw_media_t *m, int container, vw_err_t *err);

/* The read and seek callbacks of an AVIOContext over a reader. */
int vw_media_avio_read(void *reader, uint8_t *buf, int size);
int64_t vw_media_avio_seek(void *reader, int64_t offset, int whence);

/* The io_open of every demuxer of ours: refuses to open anything. */
int vw_media_io_open_refuse(AVFormatContext *s, AVIOContext **pb,
    const char *url, int flags, AVDictionary **options);

/*
 * The duration of m's video stream in ms from t = 0, measured by a
 * demux-only pass over its packets, for a container that declares none
 * (vw_duration.c); what names the container in messages.  REJECTED
 * too_long as soon as the packets pass max_duration_ms,
 * unknown_duration when none has a time stamp.
 */
int vw_media_measure_duration(vw_media_t *m, const char *what,
    int64_t *duration_ms, vw_err_t *err);


#endif /* _VW_MEDIA_INT_H_INCLUDED_ */
