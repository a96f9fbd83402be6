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
 * This is the room's contract; vw_media_int.h holds what its files
 * share and nothing else includes (README.md: which file owns what).
 */

#ifndef _VW_MEDIA_H_INCLUDED_
#define _VW_MEDIA_H_INCLUDED_


#include <stdint.h>

#include <libavutil/frame.h>

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

/* The most frames kept before the current one (vw_media_start with
 * keep_us): a caller may size its arrays of them so. */
#define VW_KEPT_MAX     32

typedef struct {
    AVFrame            *frame;
    int64_t             pts_us;      /* from the start, as *pts_us below */
} vw_kept_t;


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
 * the start), oldest first: *run points at the run of them from the one
 * after the newest at or before after_us, and the count is returned.
 * *whole is 1 when that run reaches back to a kept frame at or before
 * after_us, or when every frame decoded since the start is kept (so
 * that a change among them is bracketed).  Valid until the next
 * vw_media_frame_* call.
 */
int vw_media_kept(vw_media_t *m, int64_t after_us, int64_t before_us,
    const vw_kept_t **run, int *whole);

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

/*
 * A long video is cut into parts at keyframes (vw_keyframes.c): the
 * keyframe of the container's index nearest t_us, as *from_us the first
 * instant a decoder keeping keep_us of frames (vw_media_start) reaches
 * from it.  0, or 1 when the container has no index that says (MPEG-TS,
 * Ogg, a Matroska file without cues: a part would decode from the
 * start).  Before vw_media_start only.
 */
int vw_media_keyframe(vw_media_t *m, int64_t t_us, int64_t keep_us,
    int64_t *from_us);

/* Closes everything; m may be NULL.  The fd stays open. */
void vw_media_close(vw_media_t *m);

/* What decoding did so far. */
const vw_media_stats_t *vw_media_stats(const vw_media_t *m);

/*
 * Takes the frames the decoder still holds (decoded, waiting to be
 * shown in order) so that frames_decoded counts them: once, at the end
 * of a run, before vw_media_stats.  Reads no packet.
 */
void vw_media_finish(vw_media_t *m);

/* How frame f is shown: its own display matrix if it carries one, else
 * the stream's. */
vw_orient_t vw_media_shown(const vw_media_t *m, const AVFrame *f);


#endif /* _VW_MEDIA_H_INCLUDED_ */
