/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Frames and segments.  A frame result is what the ledger keeps per
 * (job_id, plan_version, frame_index); segments are merged from frame
 * results alone (plus the plan, for the times), so the same function
 * serves a frame array the pipeline just filled and rows read back from
 * the ledger by a later attempt.  libc only.
 *
 * Merging: frames are taken in index order; a frame continues the open
 * segment when it is the next index, its text is not empty and it is
 * nearly the same as the previous frame's text: the Levenshtein distance
 * between the two (in Unicode code points) is at most 15% of the longer
 * one (rounded down: texts of up to 6 code points must be identical,
 * 7-13 may differ by one edit, ...).  An empty text, a missing index or
 * a different text closes the segment.  The segment's text is that of
 * its most confident frame (the earliest on a tie), its confidence the
 * mean of its frames'.
 *
 * Times: sample i, taken at t_i, stands for the interval around it, so a
 * segment of samples a..b spans [t_a - d/2, t_b + d/2] (d = 1/fps),
 * clamped to [0, duration].  If a text is on screen from S to E, the
 * first sample that sees it is at most d after S and the one before it
 * at most d before, so |start - S| <= d/2, and likewise for the end
 * (plus at most one video frame, as a sample shows the frame on screen
 * at its instant): both within one sampling interval of the truth.
 */

#ifndef _VW_SEGMENTS_H_INCLUDED_
#define _VW_SEGMENTS_H_INCLUDED_


#include <stddef.h>
#include <stdint.h>

#include "vw_plan.h"


#define VW_FRAME_TIMED_OUT   0x01    /* OCR cancelled by the deadline */
#define VW_FRAME_NO_PICTURE  0x02    /* the video had ended at t_i, or
                                        the crop misses this frame */
#define VW_FRAME_NO_TEXT     0x04    /* no glyph found on the picture:
                                        not sent to Tesseract */

#define VW_NEARLY_PERCENT    15


typedef struct {
    uint32_t     index;         /* frame_index: sample i of the plan */
    int64_t      t_ms;          /* the planned instant t_i */
    int64_t      pts_ms;        /* time of the frame used, -1 if none */
    const char  *text;          /* UTF-8, "" when nothing was read */
    int          confidence;    /* 0..100 */
    int64_t      reused_from;   /* index whose OCR text this is, or -1 */
    unsigned     flags;         /* VW_FRAME_* */
} vw_frame_result_t;

typedef struct {
    int64_t      start_ms;
    int64_t      end_ms;
    const char  *text;          /* points into one of the frames' text */
    int          confidence;    /* 0..100 */
    uint32_t     first;         /* frame indexes */
    uint32_t     last;
} vw_segment_t;


/*
 * Merges n frame results (any order; indexes must be unique) into
 * segments in time order.  *out is malloc'd (free it; NULL when there
 * are none) and points into the frames' texts.  Returns -1 only when
 * out of memory or on a duplicate index.
 */
int vw_segments_merge(const vw_plan_t *plan, const vw_frame_result_t *frames,
    size_t n, vw_segment_t **out, size_t *nout);

/* 1 if a and b are nearly the same text (see above). */
int vw_text_nearly_same(const char *a, const char *b);

/* Levenshtein distance in code points; (size_t) -1 if out of memory. */
size_t vw_text_distance(const char *a, const char *b);

/*
 * Decodes one UTF-8 sequence of at most n bytes; returns its length (at
 * least 1 when n > 0).  An invalid or overlong sequence gives U+FFFD for
 * its first byte.
 */
size_t vw_utf8_decode(const unsigned char *p, size_t n, uint32_t *cp);


#endif /* _VW_SEGMENTS_H_INCLUDED_ */
