/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The seam between two parts of a long video (docs/worker-pipeline.md,
 * "Long videos in parts").  Each part is read as a run that begins at
 * its first sample; the part before a cut reads on past it, and its
 * rows give way to the next part's after the first unit (a sample and
 * the looks after it) that both parts end with the same rows.  What a
 * run does after a unit follows from that unit's rows and the row of
 * the reference they name: the last row names the state's first look
 * (reused_from, or itself), its reading, the turn, and whether a group
 * of joined screens is cut short (VO_FRAME_JOINING); the reference's
 * row says when the state began.  That is what a resumed job restores
 * (pipeline/vw_resume.c), and why it makes the rows of an unbroken run;
 * so where two parts have the same rows there, every row after is the
 * same in both, and the rows joined at that unit are those one run
 * makes.  libc only.
 */

#ifndef _VW_SEAM_H_INCLUDED_
#define _VW_SEAM_H_INCLUDED_


#include "vw_segments.h"


/* The index of the row where the state of row r began: the reference
 * whose text it shows (reused_from), or r itself. */
uint32_t vw_seam_ref(const vw_row_t *r);

/*
 * 1 when the next part may take over after a unit: a (na rows) and b
 * (nb rows) are the two parts' rows of the unit in index order, ra and
 * rb their rows at the reference the last of them names (NULL: none);
 * every field of every row is equal, and the last row does not cut a
 * group of joined screens short.  0 otherwise.
 */
int vw_seam_same(const vw_row_t *a, size_t na, const vw_row_t *ra,
    const vw_row_t *b, size_t nb, const vw_row_t *rb);


#endif /* _VW_SEAM_H_INCLUDED_ */
