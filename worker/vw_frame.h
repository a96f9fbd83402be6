/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The frame stage: from a decoded frame to the grey image Tesseract
 * reads.  Crop (in pixels of the decoded frame, clamped to it), convert
 * to 8-bit grey with libswscale, tell whether two frames are
 * near-identical, and prepare an image for OCR (scale, polarity).
 */

#ifndef _VW_FRAME_H_INCLUDED_
#define _VW_FRAME_H_INCLUDED_


#include <stdint.h>

#include "vo_edge.h"
#include "vw_core.h"


struct AVFrame;
struct SwsContext;


/* An 8-bit grey image; data holds height rows of stride bytes. */
typedef struct {
    uint8_t  *data;
    int       width;
    int       height;
    int       stride;
    size_t    cap;
} vw_image_t;

typedef struct {
    int  x;
    int  y;
    int  w;
    int  h;
} vw_rect_t;

/* Conversion state kept across frames (swscale contexts, buffers). */
typedef struct {
    struct SwsContext  *grey;
    struct SwsContext  *scale;
    vw_image_t          full;
    uint8_t            *seen;       /* blob removal work space */
    uint32_t           *queue;
    size_t              work_cap;
} vw_framer_t;


/*
 * Near-identical: in every block of 16x16 pixels of the two (cropped,
 * grey) pictures, the mean over its 4x4-pixel cells of the difference of
 * the cells' mean grey levels is below VW_SIMILAR_MAX_DIFF.  Measured
 * (docs/worker-pipeline.md): a still picture scores 0-3 after H.264,
 * VP9 or MPEG-4 compression and 5-6 under heavy film grain; a character
 * that changes scores 58 and more, a full stop that appears about 12; a
 * moving background 50-90.
 */
#define VW_SIMILAR_BLOCK         16
#define VW_SIMILAR_CELL          4
#define VW_SIMILAR_MAX_DIFF      9


void vw_framer_init(vw_framer_t *fr);
void vw_framer_free(vw_framer_t *fr);

void vw_image_free(vw_image_t *img);
void vw_image_swap(vw_image_t *a, vw_image_t *b);

/*
 * The part of a width x height picture the options' crop selects,
 * clamped to the picture (the whole picture without a crop).  Returns -1
 * when the crop lies entirely outside the picture.
 */
int vw_frame_crop_rect(int width, int height, const vo_options_t *o,
    vw_rect_t *r);

/*
 * Converts the cropped part of a decoded frame to grey into out (out is
 * reused across calls).  A crop outside this frame leaves out empty
 * (width 0).
 */
int vw_frame_grey(vw_framer_t *fr, const struct AVFrame *f,
    const vo_options_t *o, vw_image_t *out, vw_err_t *err);

/* 1 if a and b are near-identical (see above); *diff gets the largest
 * block difference found before deciding (may be NULL). */
int vw_frame_similar(const vw_image_t *a, const vw_image_t *b, int *diff);

/* How a picture is prepared for Tesseract (see vw_frame.c). */
#define VW_PREP_GREY             0     /* as is */
#define VW_PREP_BRIGHT           1     /* bright pixels as ink */
#define VW_PREP_AUTO             2     /* BRIGHT unless the picture is light */

#define VW_OCR_BRIGHT            180   /* grey level of subtitle glyphs */
#define VW_OCR_UPSCALE_HEIGHT    576   /* videos up to this are upscaled */

/*
 * Prepares a grey (cropped) picture for Tesseract into out: scale 2
 * doubles its size, mode says how (AUTO decides between GREY and BRIGHT
 * and *chosen tells which it took).
 */
int vw_frame_for_ocr(vw_framer_t *fr, const vw_image_t *in, int scale,
    int mode, vw_image_t *out, int *chosen, vw_err_t *err);


#endif /* _VW_FRAME_H_INCLUDED_ */
