/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The parts of a screen: text in two places at once (a title at the top
 * and a subtitle at the bottom, a speaker's name and a line) is one
 * screen for the pipeline, read once, and two parts for the merger,
 * each its own segment with its own box (vw_segments.h).  A part is a
 * run of the screen's lines, in its text's order, apart from the next
 * run (the pipeline's rule: vw_read_parts in vw_read.c).
 *
 * A row keeps its text whole (what was read, as one string) and,
 * when the screen has two parts or more, their spec (the ledger's
 * frames.parts): for each part, in order, "lines x y w h confidence",
 * parts separated by ";", decimal integers: the number of the text's
 * lines it has, its box in pixels of the picture as shown (as the
 * row's box), the mean confidence of its lines.  No spec (NULL): the
 * row is one part, its text, box, lines and confidence.  So the text
 * is in one place, and a spec is a split of it.  libc only.
 */

#ifndef _VW_PARTS_H_INCLUDED_
#define _VW_PARTS_H_INCLUDED_


#include <stddef.h>

#include "core/vw_geom.h"


/* a screen has at most this many parts (more: the last takes the rest) */
#define VW_PARTS_MAX       8

/* a spec is at most this long: VW_PARTS_MAX parts of six numbers */
#define VW_PARTS_SPEC_MAX  (VW_PARTS_MAX * 6 * 11)


typedef struct {
    const char  *text;          /* its lines, in the row's text */
    size_t       len;           /* bytes (not NUL-terminated) */
    int          lines;
    vw_rect_t    box;
    int          confidence;    /* 0..100 */
} vw_part_t;


/*
 * Writes the spec of n parts (2..VW_PARTS_MAX; their lines, box and
 * confidence) into buf, NUL-terminated.  Returns its length, or -1 if
 * the parts cannot have one (n out of range, a part without a line or
 * a box vw_box_ok refuses, buf shorter than the spec).
 */
int vw_parts_format(const vw_part_t *parts, int n, char *buf, size_t size);

/*
 * The parts of a row: spec split over text.  Returns how many (2 to
 * VW_PARTS_MAX), parts[] filled, each text pointing into text; 0 when
 * spec is NULL or not a valid spec for this text (its lines do not add
 * up to the text's, a box vw_box_ok refuses, a confidence above 100, a
 * part with no line or an empty one, any other byte): the row is then
 * one part, as a row without a spec (a ledger row that lies is taken
 * whole).
 */
int vw_parts_parse(const char *spec, const char *text, vw_part_t *parts);


#endif /* _VW_PARTS_H_INCLUDED_ */
