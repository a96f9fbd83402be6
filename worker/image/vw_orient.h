/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Orientation: which way up a picture is shown, and turning a grey
 * picture that way.
 *
 * A video stores its pictures as the camera's sensor read them; a
 * display matrix (MP4/MOV tkhd, Matroska projection, an H.264/HEVC
 * display orientation SEI: FFmpeg hands all of them on as
 * AV_PKT_DATA_DISPLAYMATRIX stream side data or AV_FRAME_DATA_
 * DISPLAYMATRIX frame side data) says how a player turns them.  Only the
 * eight axis-aligned ones are kept (quarter turns, and each of them
 * mirrored): a matrix that turns by another angle, shears or scales is
 * taken as the identity.
 *
 * An orientation is the 2x2 matrix [a c; b d] of signs that maps the
 * stored picture's axes onto the shown one's (y pointing down): the
 * stored x axis becomes the direction (a, b), the y axis (c, d).  So
 * composing two is a product, and the inverse is the transpose.  In
 * words: first mirror left-right if `mirror`, then turn `turns` quarter
 * turns clockwise.
 *
 * The text layer, the near-identical tests and Tesseract all see the
 * picture as shown (crop is in shown coordinates too).  Text that is
 * still not upright (a phone held sideways, no matrix) is found once
 * per video by Tesseract's orientation detection (OSD, ocr/vw_osd.c),
 * checked by reading it (pipeline/), and turned from then on.
 */

#ifndef _VW_ORIENT_H_INCLUDED_
#define _VW_ORIENT_H_INCLUDED_


#include <stdint.h>

#include "vo_edge.h"
#include "core/vw_core.h"
#include "vw_image.h"


struct AVFrame;
struct AVStream;


typedef struct vw_orient_s {
    int8_t  a, b, c, d;         /* signs, see above; identity 1, 0, 0, 1 */
} vw_orient_t;


extern const vw_orient_t  vw_orient_identity;


/* From a 3x3 display matrix (FFmpeg's 16.16 layout); NULL: identity. */
vw_orient_t vw_orient_from_matrix(const int32_t *matrix);

/* The stream's display matrix (side data), else its "rotate" tag. */
vw_orient_t vw_orient_of_stream(const struct AVStream *st);

/* The frame's own display matrix if it carries one, else dflt. */
vw_orient_t vw_orient_of_frame(const struct AVFrame *f, vw_orient_t dflt);

/* Quarter turns clockwise (0..3), mirrored first when *mirror. */
vw_orient_t vw_orient_turns(int turns, int mirror);
int vw_orient_describe(vw_orient_t o, int *mirror);

/* first then second */
vw_orient_t vw_orient_then(vw_orient_t first, vw_orient_t second);

int vw_orient_is_identity(vw_orient_t o);

/* 1 if o swaps width and height (a quarter turn) */
int vw_orient_swaps(vw_orient_t o);

/*
 * The rectangle r of the shown picture (w x h as shown) as a rectangle
 * of the stored one.
 */
void vw_orient_rect_to_stored(vw_orient_t o, int shown_w, int shown_h,
    const vw_rect_t *r, vw_rect_t *stored);

/*
 * The box of a text layer found on a grey picture of img_w x img_h that
 * vw_frame_grey made with the options o (the picture as shown, cropped,
 * made shrink times smaller a side, then turned by turn), in pixels of
 * the picture as shown: the turn undone, the size restored, the crop's
 * offset added.  A box with w = 0 (no glyph) stays so.
 */
void vw_orient_box_shown(vw_orient_t turn, int img_w, int img_h,
    int shrink, const vo_options_t *o, const vw_rect_t *box,
    vw_rect_t *shown);

/*
 * Copies the rectangle r of a grey plane (stride bytes a row) into out,
 * turned by o (out is sized to the turned rectangle).  -1 when out of
 * memory.
 */
int vw_orient_copy(vw_orient_t o, const uint8_t *src, int stride,
    const vw_rect_t *r, vw_image_t *out);

/* Turns img by o in place (tmp is work space).  -1 when out of memory. */
int vw_orient_image(vw_orient_t o, vw_image_t *img, vw_image_t *tmp);


#endif /* _VW_ORIENT_H_INCLUDED_ */
