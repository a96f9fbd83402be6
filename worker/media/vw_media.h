/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The media stage: inspect an upload with libavformat and decode the
 * frames a plan asks for with libavcodec.
 *
 * Untrusted bytes are read only through our own AVIOContext over a file
 * descriptor the caller opened; io_open refuses every other resource (no
 * protocol, no external reference, no nested playlist can be followed);
 * only the demuxers of the containers the intake accepts may parse the
 * file; the container's own structure is checked for truncation before
 * libavformat sees it; the declared size, duration and codec are checked
 * against the limits before any decoder runs, and every decoder (the
 * ones libavformat opens to probe included) runs with max_pixels set.
 *
 * vw_inspect.c: opening, inspection, limits.  vw_container.c: the
 * container structure check.  vw_duration.c: the duration of a stream
 * that declares none.  vw_decode.c: the decoder, seeking, the frame
 * shown at an instant.
 */

#ifndef _VW_MEDIA_H_INCLUDED_
#define _VW_MEDIA_H_INCLUDED_


#include <sys/types.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>

#include "core/vw_core.h"
#include "image/vw_orient.h"
#include "core/vw_plan.h"


typedef struct {
    uint64_t  packets;           /* video packets read */
    uint64_t  frames_decoded;
    uint64_t  decode_errors;     /* packets the decoder refused */
    uint64_t  seeks;
    uint64_t  probe_frames;      /* decoded to test B-frame skipping */
    int       skip_bidir;        /* the test passed: B frames skipped */
} vw_media_stats_t;


typedef struct vw_media_s  vw_media_t;

/*
 * The frames decoded before the current one, kept for finding where a
 * change began (vw_media_start with keep_us): those of keep_us and
 * VW_KEPT_SLACK more (a look may take a frame a few before its instant),
 * at most VW_KEPT_MAX and no more than VW_KEPT_BYTES of pictures, the
 * oldest dropped first.  The pipeline asks for two looks' steps of 0.17
 * s: 13 frames at 25 fps (all 13 at 720p, 18 MB; 8 at 1080p) and 25 at
 * 60 fps.  Each costs more than its picture (the decoder's pool grows
 * by one), 30 to 50 MB at 4K, where 2 are kept (docs/worker-pipeline.md).
 */
#define VW_KEPT_MAX     32
#define VW_KEPT_SLACK   4
#define VW_KEPT_BYTES   (24 * 1024 * 1024)

typedef struct {
    AVFrame            *frame;
    int64_t             pts_us;      /* from the start, as *pts_us below */
} vw_kept_t;

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


/*
 * Routes libav* logging: with verbose 0 nothing is printed, but the last
 * error-level message is kept so that rejections can quote it ("moov
 * atom not found").  Call once before vw_media_open.
 */
void vw_media_log_init(int verbose);

/*
 * Inspects the file open on fd (which stays the caller's) and checks it
 * against the limits: REJECTED with not_a_video, truncated,
 * no_video_stream, unsupported_codec, too_large, too_long,
 * unknown_duration; FAILED on I/O and memory errors; STOPPED when poll
 * (called while a duration is measured from the packets; may be NULL;
 * it stays the media's poll) asks to stop.  On success *mp holds the
 * media (free it with vw_media_close) and *in the inspection.  No
 * decoder of ours is open yet.
 */
int vw_media_open(vw_media_t **mp, int fd, const char *name,
    const vw_limits_t *l, vw_poll_pt poll, void *poll_data,
    vw_inspection_t *in, vw_err_t *err);

/*
 * Opens the decoder for the inspected stream.  interval_us is the
 * sampling interval: when it spans several frames, frames no other frame
 * depends on are not decoded unless they are near a sampled instant.
 * With keep_us > 0, every frame is decoded instead, and those of the
 * last keep_us before the current one are kept (vw_media_kept).
 */
int vw_media_start(vw_media_t *m, int64_t interval_us, int64_t keep_us,
    vw_err_t *err);

/*
 * The kept frames shown after after_us and before before_us (times from
 * the start), oldest first: the run of m->kept from the one after the
 * newest at or before after_us; *first is its index (0: none kept was
 * at or before after_us), the count is returned.  Valid until the next
 * vw_media_frame_* call.
 */
int vw_media_kept(vw_media_t *m, int64_t after_us, int64_t before_us,
    int *first);

/*
 * The decoded frame shown right after the one at pts_us: a kept one,
 * the current one, or the one the decoder has ready after it; NULL when
 * none is at hand (the stream ended).  Valid as vw_media_kept's.
 */
AVFrame *vw_media_frame_after(vw_media_t *m, int64_t pts_us);

/*
 * The frame a player shows at t_us (microseconds from the start of the
 * video stream): the last decoded frame whose time is at or before it.
 * Times may go backwards (a seek follows) but are cheapest increasing.
 * Returns 0 and sets *frame (owned by m, valid until the next call) and
 * *pts_us (its time from the start), 1 if the video stream ended before
 * t_us, -1 with err filled on failure or when poll asked to stop.
 */
int vw_media_frame_at(vw_media_t *m, int64_t t_us, AVFrame **frame,
    int64_t *pts_us, vw_err_t *err);

/*
 * As vw_media_frame_at, for a look between samples: the last decoded
 * frame at or before t_us (so it may be a little before it), the frames
 * nothing depends on skipped up to next_us, the next instant asked for
 * (a sample's if next_exact: then up to the window its frame needs).
 * When every frame is decoded (keep), a B frame is passed over for the
 * last other one up to next_us - t_us before t_us, as if skipped.
 */
int vw_media_frame_near(vw_media_t *m, int64_t t_us, int64_t next_us,
    int next_exact, AVFrame **frame, int64_t *pts_us, vw_err_t *err);

/* Closes everything; m may be NULL.  The fd stays open. */
void vw_media_close(vw_media_t *m);

/* Unrefs the kept frames (vw_media_close does). */
void vw_media_free_kept(vw_media_t *m);

/* Internal to the media stage (vw_inspect.c, vw_container.c,
 * vw_duration.c, vw_decode.c). */

/* The last libav* error message (or rc's text) into buf. */
void vw_media_av_error(int rc, char *buf, size_t size);

/* Reads up to n bytes at off (fewer only at the end of the file); -1 with
 * m->io_errno set on a read error. */
ssize_t vw_media_pread(vw_media_t *m, int64_t off, void *buf, size_t n);

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
 * (vw_duration.c); what names the container in messages.  REJECTED too_long as soon as the packets pass
 * max_duration_ms, unknown_duration when none has a time stamp.
 */
int vw_media_measure_duration(vw_media_t *m, const char *what,
    int64_t *duration_ms, vw_err_t *err);


#endif /* _VW_MEDIA_H_INCLUDED_ */
