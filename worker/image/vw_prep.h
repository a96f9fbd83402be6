/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * A grey picture prepared for Tesseract (vw_prep.c): scaled up when its
 * glyphs are small, and binarised (bright glyphs as black ink on white,
 * what cannot be glyphs removed) or left grey.
 */

#ifndef _VW_PREP_H_INCLUDED_
#define _VW_PREP_H_INCLUDED_


#include "core/vw_core.h"
#include "vw_frame.h"
#include "vw_image.h"


/* How a picture is prepared for Tesseract (see vw_prep.c). */
#define VW_PREP_GREY             0     /* as is */
#define VW_PREP_BRIGHT           1     /* bright pixels as ink */
#define VW_PREP_AUTO             2     /* BRIGHT unless the picture is light */
#define VW_PREP_DARK             3     /* dark pixels as ink (vw_prep_line) */

/* how many times a line is scaled up at most (vw_prep_line) */
#define VW_PREP_SCALE_MAX        4


/*
 * How much a picture height pixels tall whose text layer found glyphs
 * glyph_h pixels tall (its lines' mean) is scaled up for Tesseract: 2
 * or 1 (see the top of vw_prep.c).
 */
int vw_prep_scale(int height, int glyph_h);

/* 1 if glyphs glyph_h pixels tall are small: read upscaled whatever the
 * picture's height (vw_prep_scale). */
int vw_prep_small(int glyph_h);

/*
 * Prepares the part r (NULL: all) of a grey (cropped) picture for
 * Tesseract into out: scale 2 doubles its size, mode says how (AUTO
 * decides between GREY and BRIGHT on the part and *chosen tells which
 * it took).
 */
int vw_prep_for_ocr(vw_framer_t *fr, const vw_image_t *in,
    const vw_rect_t *r, int scale, int mode, vw_image_t *out, int *chosen,
    vw_err_t *err);

/*
 * The same for a picture that is a part of a ref_w x ref_h one (the
 * sizes blob removal judges by); border: remove what touches its edge.
 */
int vw_prep_for_ocr_part(vw_framer_t *fr, const vw_image_t *in, int ref_w,
    int ref_h, int border, int scale, int mode, vw_image_t *out, int *chosen,
    vw_err_t *err);


/*
 * A line of text prepared for Tesseract with a threshold of its own
 * (see vw_prep.c): the part r of in (a part of a ref_w x ref_h picture
 * whose text layer's mask is mask, with in's top left corner at mx, my
 * in it), scale times its size, its ink (polarity VW_PREP_BRIGHT or
 * VW_PREP_DARK) black on white; VW_PREP_GREY: scaled only.
 */
int vw_prep_line(vw_framer_t *fr, const vw_image_t *in, const vw_rect_t *r,
    const vw_image_t *mask, int mx, int my, int polarity, int ref_w,
    int ref_h, int scale, vw_image_t *out, vw_err_t *err);


#endif /* _VW_PREP_H_INCLUDED_ */
