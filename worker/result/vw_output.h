/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The result writers: JSON (what `ocr --format json` prints and what the
 * job status endpoint publishes, byte for byte), WebVTT, SubRip, plain
 * text and Advanced SubStation Alpha (v4+).  They take rows (from
 * memory or read back from the ledger) and merge them into segments
 * themselves, so there is one way to go from rows to a result.  libc
 * only: fuzz_output links this file and vw_segments.c without FFmpeg or
 * Tesseract.  The job endpoint serves ?format= from the results a child
 * publishes in every format.
 *
 * The JSON result (one line, keys in this order):
 *
 *   {"plan_version":2,
 *    "options":{"crop":null,"fps":1,"lang":"eng"},          (if known)
 *    "inspection":{"container":"mp4","codec":"h264",...},   (if known)
 *    "frames_planned":12,"frames_done":12,"frames_between":2,
 *    "ocr_calls":3,"frames_reused":8,"frames_timed_out":0,
 *    "frames_no_text":1,"detected_rotation":null,
 *    "warnings":[{"code":"text_unreadable","message":"...","count":2,
 *                 "frames":[4,10]}],                       (or [])
 *    "frame_size":[1280,720],                              (or null)
 *    "segments":[{"start":0.5,"end":2.5,"text":"Hello","confidence":91,
 *                 "looks":12,"box":[420,610,440,36],"lines":1}, ...],
 *    "frames":[{"index":0,"t":0,"pts":0,"text":"","confidence":0,
 *               "reused_from":null,"box":null,"lines":null,
 *               "timed_out":false,"no_picture":false,
 *               "no_text":true,"between":false,"exact":true},
 *              ...]}                                      (if asked)
 *
 * start/end are seconds with at most 3 decimals; frames_done counts the
 * samples, frames_between the rows of looks between samples (where the
 * text changed: VO_FRAME_BETWEEN); ocr_calls counts the rows whose text
 * came from Tesseract (reused_from = -1, with a picture that has
 * glyphs), frames_reused those that took it from an earlier row,
 * frames_no_text those in which no glyph was found (an empty text
 * without Tesseract: VO_FRAME_NO_TEXT), a frame's exact that its pts
 * is the frame its change began on (VO_FRAME_EXACT); a segment's
 * looks, the pictures its text was read from.  detected_rotation: null
 * unless orientation detection ran (text found not upright), then the
 * degrees clockwise the pictures were turned by from then on (0:
 * nothing better was found);
 * warnings: text_unreadable when some screens with many glyphs read as
 * (almost) nothing (VO_FRAME_UNREAD), with those rows' indexes.
 * Both come from the rows alone, like everything else here.
 * frame_size: the picture as a player shows it (the inspection's
 * display size; null without an inspection).  box: [x, y, width,
 * height] of the text in pixels of that picture (the display matrix
 * applied; with a crop, the crop's offset added; with a turn found by
 * orientation detection, the turn undone), a segment's the union of its
 * rows' (vw_segments.h), and lines the lines of text in it; both null
 * when no row of it has a box (rows made before boxes were).
 * WebVTT cues and ASS events are placed from the box (vw_output.c).
 * unsure: true on a segment whose confidence is below VW_UNSURE_BELOW
 * or that has a line read below it (vw_segments.h), the member absent
 * on the others (so a sure result has the bytes it had before the
 * member was); unsure_lines: the numbers (1 for the first) of those
 * lines of its text, absent when none; WebVTT puts a NOTE block before
 * such a cue, ASS a Comment event before its Dialogue, both saying the
 * confidence and the lines.
 */

#ifndef _VW_OUTPUT_H_INCLUDED_
#define _VW_OUTPUT_H_INCLUDED_


#include "vo_edge.h"
#include "core/vw_core.h"
#include "core/vw_plan.h"
#include "vw_segments.h"


/* a warning lists at most this many rows */
#define VW_WARN_FRAMES  50

typedef enum {
    VW_FORMAT_JSON = 0,
    VW_FORMAT_VTT,
    VW_FORMAT_SRT,
    VW_FORMAT_TXT,
    VW_FORMAT_ASS
} vw_format_t;

typedef struct {
    const vw_plan_t          *plan;         /* required */
    const vo_options_t       *options;      /* NULL: omitted */
    const vw_inspection_t    *inspection;   /* NULL: omitted */
    const vw_row_t           *rows;         /* any order */
    size_t                    nrows;
    int                       with_frames;  /* JSON: add "frames", the
                                               rows (--frames) */
} vw_result_t;


/* "json", "vtt", "srt", "txt", "ass" -> 0 and *f; -1 otherwise. */
int vw_format_parse(const char *name, vw_format_t *f);

/*
 * Appends the result in format f to out.  Returns -1 when out of memory
 * (out is then in an unspecified state) or on a duplicate row index.
 */
int vw_result_write(vo_buf_t *out, vw_format_t f, const vw_result_t *r);

/*
 * The segments of the result, how many of them are unsure and how many
 * of their lines (vw_segments.h).  Returns -1 when out of memory or on
 * a duplicate row index.
 */
int vw_result_count(const vw_result_t *r, size_t *segments,
    size_t *unsure, size_t *unsure_lines);

/*
 * The code of the result's first warning ("text_unreadable"), NULL when
 * it has none: the published event carries it, the metrics count it.
 */
const char *vw_result_warning(const vw_result_t *r);

/* The inspection as a JSON object (what is recorded on the job). */
void vw_inspection_json(vo_buf_t *out, const vw_inspection_t *in);



#endif /* _VW_OUTPUT_H_INCLUDED_ */
