/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The frame stage: from a decoded frame to the grey picture the
 * pipeline works on.  Turn it as it is shown (its display matrix), crop
 * (in pixels of the picture as shown, clamped to it), and convert to
 * 8-bit grey (libswscale, or the luma plane mapped as swscale would),
 * at half size when the picture is big (vw_frame_shrink).  The
 * converter's state is kept across frames, with the work space the
 * text layer and blob removal share.
 */

#ifndef _VW_FRAME_H_INCLUDED_
#define _VW_FRAME_H_INCLUDED_


#include <stdint.h>

#include "vo_edge.h"
#include "core/vw_core.h"
#include "core/vw_geom.h"
#include "vw_image.h"


struct AVFrame;
struct SwsContext;
struct vw_orient_s;


/* An ink component (vw_text_lines.c): its box, size and first pixel. */
typedef struct {
    int       x0;
    int       y0;
    int       x1;
    int       y1;
    uint32_t  seed;             /* y * width + x */
    uint32_t  pixels;
    int       group;            /* text line grouping */
    int       glyphs;           /* at a group's root: its glyphs */
} vw_comp_t;

/* Conversion state kept across frames (swscale contexts, buffers). */
typedef struct {
    struct SwsContext  *grey;
    struct SwsContext  *scale;
    vw_image_t          full;
    vw_image_t          half;       /* the stored picture halved, to
                                       be turned */
    int                 shrink;     /* pictures are made 1/shrink a side */
    uint8_t            *seen;       /* blob removal work space */
    uint32_t           *queue;
    size_t              work_cap;
    vw_comp_t          *comps;      /* the components kept, when asked */
    size_t              ncomps;
    size_t              comps_cap;
    uint32_t           *order;      /* comps_cap indexes of components */
    int                 keep_comps;
    uint8_t             lut[256];   /* luma to grey as swscale makes it */
    int                 lut_format; /* the pixel format of lut, -1: none */
    int                 lut_studio; /* lut is vw_frame_studio_row's
                                       formula (limited-range luma) */
    vw_image_t          open[2];    /* ink by local contrast: the
                                       opening and closing (vw_ink.c) */
    const uint8_t      *open_of;    /* the picture both are of, with
                                       a square of 2 open_r + 1, in this
                                       text layer's finding (NULL: none) */
    int                 open_r;
    vw_image_t          calm;       /* and what of it stands still
                                       (vw_text_calm) */
} vw_framer_t;



void vw_framer_init(vw_framer_t *fr);
void vw_framer_free(vw_framer_t *fr);

/*
 * The part of a width x height picture the options' crop selects,
 * clamped to the picture (the whole picture without a crop).  Returns -1
 * when the crop lies entirely outside the picture.
 */
int vw_frame_crop_rect(int width, int height, const vo_options_t *o,
    vw_rect_t *r);

/* How much smaller than the picture shown (width x height, cropped by
 * o) vw_frame_grey makes it, a side: 1 or 2. */
int vw_frame_shrink(int width, int height, const vo_options_t *o);

/*
 * 1 if vw_frame_grey reads a frame of this pixel format (an
 * AVPixelFormat) from its first plane alone, 8-bit luma where the
 * decoder left it: the other planes of a frame held for it may go.
 */
int vw_frame_luma_only(int format);

/*
 * Converts the cropped part of a decoded frame to grey into out (out is
 * reused across calls), the picture turned as shown (vw_orient.h) and
 * then by turn (text found sideways; NULL: none).  The crop is in the
 * shown picture's pixels.  The picture is made fr->shrink times smaller
 * a side (1 unless set).  A crop outside this frame leaves out empty
 * (width 0).
 */
int vw_frame_grey(vw_framer_t *fr, const struct AVFrame *f,
    const vo_options_t *o, const struct vw_orient_s *shown,
    const struct vw_orient_s *turn, vw_image_t *out, vw_err_t *err);


#endif /* _VW_FRAME_H_INCLUDED_ */
