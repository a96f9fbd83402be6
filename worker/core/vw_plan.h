/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The data that describes a job's media and its work, with no media
 * library in sight (libc only), so that the ledger code and the result
 * writers can use it on rows read back from the database:
 *
 *   vw_limits_t      what the worker is willing to process;
 *   vw_inspection_t  the normalised inspection of an upload;
 *   vw_plan_t        which instants are sampled (the frames of a job).
 *
 * Plan version 2: sample i is taken at t_i = i / fps seconds, for every
 * i >= 0 with t_i < duration; fps is the canonical option (milli
 * precision), duration the inspected one in milliseconds.  Between two
 * samples the pictures are looked at without OCR: the interval is cut
 * into `looks` equal steps of at most VW_LOOK_US, looks =
 * ceil(10^9 / VW_LOOK_US / fps_milli) (6 at 1 fps, 1 from 6 fps up),
 * so that, with the frames a look may take early (vw_media_frame_near),
 * no 0.3 s on screen falls between two looks.  A frame index counts
 * looks: look j is at j / (fps x looks) seconds, sample i is look
 * i x looks, and every look with a time before the duration is taken.
 * The frame used for a sample is the one a player shows at its instant:
 * the last decoded frame whose presentation time is at or before it
 * (times relative to the video stream's start); for a look between
 * samples, the last frame decoded by then (with refine, which decodes
 * every frame, the last that is not a B frame within a step before its
 * instant: what skipping B frames gave).  A job begun by an older worker
 * and resumed by this one may therefore read a restored reference from
 * another frame than its first attempt did; its rows stay valid.
 * Changing any of this changes the version.  (Version 1 had no looks
 * between samples: looks = 1.)
 */

#ifndef _VW_PLAN_H_INCLUDED_
#define _VW_PLAN_H_INCLUDED_


#include <stdint.h>

#include "vw_core.h"
#include "vw_geom.h"


#define VW_PLAN_VERSION                2

/* the longest step between two looks, in microseconds */
#define VW_LOOK_US                     170000

/* a screen's text is read from the mean of its first looks, at most
 * this many (the pipeline's rule, part of the plan's definition: a
 * segment's looks count them) */
#define VW_LOOKS_COMBINED              12

#define VW_MAX_DURATION_MS_DEFAULT     (3LL * 3600 * 1000)   /* 3 h */
#define VW_MAX_PIXELS_DEFAULT          (3840LL * 2160)       /* 8.3 Mpx */
#define VW_MAX_FRAMES_DEFAULT          20000
#define VW_FRAME_TIMEOUT_MS_DEFAULT    10000


typedef struct {
    int64_t   max_duration_ms;   /* longer videos are rejected: too_long */
    int64_t   max_pixels;        /* width x height: too_large */
    uint32_t  max_frames;        /* planned samples: too_many_frames */
    int       frame_timeout_ms;  /* per OCR call; 0 = no limit */
    int       threads;           /* decoder threads, 1 = no threads */
} vw_limits_t;


/* The normalised inspection of an upload; recorded on the job. */
typedef struct {
    char      container[16];     /* vo_container_name(): "mp4", "webm" */
    char      demuxer[48];       /* the libavformat demuxer that read it */
    char      codec[32];         /* "h264", "vp9", ... */
    char      pix_fmt[32];       /* "yuv420p", ... ("" if unknown) */
    int       stream_index;      /* the video stream used */
    int       streams;           /* streams in the container */
    int       width;             /* stored: as the codec declares it */
    int       height;
    int       display_width;     /* shown: after the display matrix */
    int       display_height;
    int       rotation;          /* the matrix's turn: 0, 90, 180, 270
                                    degrees clockwise */
    int       mirror;            /* mirrored left-right before turning */
    int64_t   duration_ms;       /* of the video stream if known */
    int       fps_num;           /* average frame rate, 0/0 if unknown */
    int       fps_den;
    int64_t   bit_rate;          /* bits per second, 0 if unknown */
    int64_t   size;              /* file size in bytes */
    int       duration_from;     /* VW_DURATION_DECLARED or _PACKETS */
} vw_inspection_t;

/* where duration_ms comes from: the container (or both ends' time
 * stamps, MPEG-TS/PS), or a pass over the packets (vw_duration.c) */
#define VW_DURATION_DECLARED  0
#define VW_DURATION_PACKETS   1


typedef struct {
    uint32_t  version;           /* VW_PLAN_VERSION */
    uint32_t  fps_milli;         /* samples per second x 1000 */
    uint32_t  samples;           /* samples planned (the result's
                                    frames_planned) */
    uint32_t  looks;             /* looks per sampling interval */
    uint32_t  indexes;           /* looks planned: frame indexes */
    int64_t   duration_ms;
} vw_plan_t;


/* Sets the defaults above. */
void vw_limits_init(vw_limits_t *l);

/*
 * The command line flags for the limits, shared by "ocr" and "run":
 * --max-duration SECONDS, --max-pixels N, --max-frames N,
 * --frame-timeout-ms MS, --threads N.  name is the flag with its dashes.
 * Returns 1 when it set a limit, 0 when name is not one of these flags,
 * -1 for a bad value (err then says which and why).
 */
int vw_limits_flag(vw_limits_t *l, const char *name, const char *value,
    char *err, size_t err_size);

/* The usage lines of those flags. */
extern const char  vw_limits_usage[];

/*
 * Makes the plan for a duration and a sampling rate.  Rejects
 * (too_long, too_many_frames, empty) what the limits refuse; name is the
 * object the messages talk about ("x.mp4", "job 9f2c").  l may be NULL
 * (no limits: for rebuilding the plan of an accepted job).
 */
int vw_plan_make(vw_plan_t *p, int64_t duration_ms, uint32_t fps_milli,
    const vw_limits_t *l, const char *name, vw_err_t *err);

/* The time of frame index (look) j in microseconds and in milliseconds
 * (rounded down); sample i is index i x p->looks. */
int64_t vw_plan_time_us(const vw_plan_t *p, uint32_t j);
int64_t vw_plan_time_ms(const vw_plan_t *p, uint32_t j);

/* The sampling interval 1/fps in microseconds (rounded). */
int64_t vw_plan_interval_us(const vw_plan_t *p);


#endif /* _VW_PLAN_H_INCLUDED_ */
