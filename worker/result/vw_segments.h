/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Rows and segments.  A row is what a job keeps of one look: what the
 * ledger stores per (job_id, plan_version, frame_index) in its table
 * "frames"; segments are merged from rows alone (plus the plan, for the
 * times), so the same function serves the rows the pipeline just made
 * and rows read back from the ledger by a later attempt.  libc only.
 *
 * Rows are of looks (vw_plan.h): every sample has one, and a look
 * between two samples has one when the text changed there (the flag
 * VO_FRAME_BETWEEN); a look without a row showed what the row before it
 * shows.  So a row stands for the time from its look to the next row's.
 *
 * Merging: rows are taken in index order, each with its texts: its
 * text whole, or, when its screen has parts (text in two places at
 * once: vw_parts.h), one text per part, with the part's box, lines and
 * confidence.  An open segment goes on in a row when no sample is
 * missing between it and the previous row and one of the row's texts
 * is the same as the segment's; each text of the row that no open
 * segment goes on with opens one.  The pipeline decides from the
 * text layer which looks show one screen and gives them its text; two
 * readings that differ, even by one character, are two screens ("line
 * 031", "line 032"), and the strings are not compared for likeness.
 * Two readings that are equal join (one screen the layer told apart,
 * the same text shown again, or a title that stays while the subtitle
 * under it changes).  An empty text, a missing index or no equal text
 * closes the segment.  So segments of different parts overlap in time;
 * those of one text only where it is in two places at once (and one
 * that opens does not start before another of its text ends).  The
 * segment's text is its rows' (the same bytes in each), its confidence
 * the mean of its rows'.  Its looks: how many pictures its text was
 * read from, the sum over its OCR'd rows of the looks the pipeline
 * averaged for each (the looks up to the next change, at most
 * VW_LOOKS_COMBINED).  Its box: the union of the boxes of its rows
 * that have one (they show one text,
 * so the union bounds it wherever its screens showed it: text that
 * slid, a look whose layer lost a glyph), its lines the most any of
 * them has, its unsure lines those any of them read unsure
 * (VO_FRAME_UNSURE_*, counted from a part's first line).  Segments come
 * in order of their start (then of their place, top to bottom).
 *
 * Times: with s = d / looks the step between looks (d = 1/fps), a
 * segment from the row at look a to the one whose last row is at look
 * b spans [t_a - s/2, t_n - s/2], n the next row's look (or, when the
 * next sample is missing or b is the last row, the next sample's),
 * clamped to [0, duration].  If a text is on screen from S to E, the
 * first look that sees it is at most s after S and the one before it
 * at most s before, so |start - S| <= s/2, and likewise for the end
 * (plus at most one video frame, as a look shows the frame on screen
 * at its instant).  A row flagged VO_FRAME_EXACT (refine: the pipeline
 * placed its change on the frame it began on) carries that frame's time
 * in pts_ms; when it lies after look index - 2's instant and at or
 * before its look's, a segment it begins starts there, and one it ends
 * ends there (after the previous segment's end, before the duration).
 */

#ifndef _VW_SEGMENTS_H_INCLUDED_
#define _VW_SEGMENTS_H_INCLUDED_


#include <stddef.h>
#include <stdint.h>

#include "vo_frame_flags.h"
#include "core/vw_geom.h"
#include "core/vw_plan.h"


typedef struct {
    uint32_t     index;         /* the look's index in the plan (the
                                   ledger's frame_index) */
    int64_t      t_ms;          /* the planned instant t_i */
    int64_t      pts_ms;        /* time of the frame used, -1 if none */
    const char  *text;          /* UTF-8, "" when nothing was read */
    int          confidence;    /* 0..100 */
    int64_t      reused_from;   /* index whose OCR text this is, or -1 */
    unsigned     flags;         /* VO_FRAME_* (sql/vo_frame_flags.h;
                                   sql/schema.sql says what each
                                   means) */
    vw_rect_t    box;           /* where the text of its screen is, in
                                   pixels of the picture as shown (crop
                                   offset added, turn undone); w = 0:
                                   not known (no glyph, or a row made
                                   before rows had boxes): vw_box_ok */
    int          lines;         /* the lines of text in it; 0 with no box */
    const char  *parts;         /* NULL, or the spec of its screen's
                                   parts (vw_parts.h) */
} vw_row_t;

typedef struct {
    int64_t      start_ms;
    int64_t      end_ms;
    const char  *text;          /* points into one of the rows' text,
                                   or (a part's) after the segments */
    int          confidence;    /* 0..100 */
    uint32_t     first;         /* row indexes */
    uint32_t     last;
    uint32_t     looks;         /* pictures its text was read from */
    vw_rect_t    box;           /* the union of its rows' boxes; w = 0:
                                   none of them has one */
    int          lines;         /* the most lines one of them has */
    unsigned     unsure_lines;  /* bit k: line k + 1 of its text was read
                                   below VW_UNSURE_BELOW in one of its
                                   rows (k < VO_FRAME_UNSURE_LINES) */
} vw_segment_t;


/*
 * A segment is unsure when its confidence is below VW_UNSURE_BELOW, or
 * when a line of it was read below it: Tesseract's own doubt, said
 * rather than guessed away (the JSON's "unsure":true and
 * "unsure_lines", a NOTE before the WebVTT cue, a Comment before the
 * ASS Dialogue, ocr --stats).  Rows keep one confidence each (a
 * part's, with parts), the mean of the words of the lines kept, and
 * the lines read below the bound in their flags (VO_FRAME_UNSURE_*):
 * a Chinese line kept at 66 under an English one at 97 is a row at 82,
 * its first line unsure.  Lines below 50 are not kept
 * (VW_OCR_MIN_LINE_CONF) unless a word is sure, and a stray mark read
 * beside a right line lowers the mean little, so misreadings and right
 * readings overlap from 60 to 97: no bound parts them.  80 is where the
 * curve of misreadings marked flattens (bench/ocr/unsure.pl on the
 * first, hard and real-like sets, 357 segments: below 75, 24 of the 31
 * with more than a fifth of their characters wrong; below 80, 25, and
 * 23 of the 105 with fewer wrong; below 90, 26) while readings right to
 * the letter are rarely marked (5 of 221 below 75, 11 below 80, most
 * with stray marks the measure does not count; 17 below 90, where
 * right Chinese lines begin).
 */
#define VW_UNSURE_BELOW  80

#define vw_segment_unsure(s)  ((s)->confidence < VW_UNSURE_BELOW             \
                               || (s)->unsure_lines != 0)


/*
 * Merges n rows (any order; indexes must be unique) into segments in
 * time order.  *out is malloc'd (free it; NULL when there are none) and
 * points into the rows' texts and its own block.  Returns -1 only when
 * out of memory or on a duplicate index.
 */
int vw_segments_merge(const vw_plan_t *plan, const vw_row_t *rows,
    size_t n, vw_segment_t **out, size_t *nout);

#endif /* _VW_SEGMENTS_H_INCLUDED_ */
