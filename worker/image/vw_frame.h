/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The frame stage: from a decoded frame to the grey image Tesseract
 * reads.  Turn it as it is shown (its display matrix), crop (in pixels
 * of the picture as shown, clamped to it), convert
 * to 8-bit grey with libswscale, tell whether two frames are
 * near-identical, and prepare an image for OCR (scale, polarity).
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


/* An ink component (vw_text.c): its box, size and first pixel. */
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

/*
 * A picture (cropped, as shown) of more than VW_FRAME_SHRINK_PIXELS is
 * read at half its width and height (vw_frame_shrink): its text then
 * has to be as big, as part of the picture, as a 1920x1080 picture's
 * (VW_TEXT_MIN_HEIGHT at half size), and every plane of the pipeline is
 * a quarter of the size (4K: 279 -> 218 MiB peak, docs/benchmarks.md).
 */
#define VW_FRAME_SHRINK_PIXELS   (2560 * 1440)

/* Conversion state kept across frames (swscale contexts, buffers). */
typedef struct {
    struct SwsContext  *grey;
    struct SwsContext  *scale;
    vw_image_t          full;
    vw_image_t          half;       /* the stored picture halved */
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
} vw_framer_t;


/*
 * The text layer of a picture (vw_text.c): where its glyphs are, found
 * without Tesseract.  mask is 0 on glyph pixels, 255 elsewhere (the
 * picture's size); box bounds the glyphs (w = 0: none were found);
 * polarity tells which kind of ink they are.
 */
#define VW_TEXT_NONE             0
#define VW_TEXT_BRIGHT           1     /* light, with a dark outline/box */
#define VW_TEXT_DARK             2     /* dark, on a light or plain picture */

#define VW_TEXT_INK_BRIGHT       160   /* bright ink is at least this */
#define VW_TEXT_OUTLINE          80    /* with a pixel at most this */
#define VW_TEXT_RADIUS           3     /* within this many pixels */
#define VW_TEXT_DARK_DROP        80    /* dark ink: this far below median */
#define VW_TEXT_MIN_PIXELS       3     /* smaller ink specks are noise */
#define VW_TEXT_MIN_HEIGHT       5     /* a glyph is at least this tall */
#define VW_TEXT_MIN_HEIGHT_PART  60    /* and this part of the picture */
#define VW_TEXT_LINE_GLYPHS      3     /* a line has at least this many */
#define VW_TEXT_MAX_DIFF         64    /* a block this far apart differs */
#define VW_TEXT_BAD_BLOCKS       3     /* other text: this many differ, */
#define VW_TEXT_BAD_PART         20    /* and this % of the inked ones, */
#define VW_TEXT_BAD_RUN          8     /* or this many side by side, */
#define VW_TEXT_FAR_DIFF         128   /* or blocks this far apart */
#define VW_TEXT_FAR_RUN          2     /* this many side by side, */
#define VW_TEXT_GLYPH_DIFF       48    /* or a glyph that changed: a
                                          square of blocks 2/3 of a glyph
                                          a side this far apart on
                                          average */
#define VW_TEXT_GLYPH_ROWS       8     /* that square's side at most, */
#define VW_TEXT_STEADY_PX        2     /* between layers of as many
                                          glyphs on rows this close */
#define VW_TEXT_MAX_COLUMNS      1024  /* block columns followed for it */
#define VW_TEXT_BLOCK_INK        16    /* a block with less ink: no say */

typedef struct {
    vw_image_t  mask;
    vw_rect_t   box;
    int         polarity;
    int         glyph_h;    /* the mean height of the lines' glyphs */
    int         glyphs;     /* how many there are */
    int         lines;      /* the lines of text they make (0: none) */
    int         comps;      /* glyph-sized ink components, in lines
                               or not */
} vw_text_t;


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

/* The framer's work space for a picture of need pixels (seen, queue);
 * a component kept by vw_frame_blobs when fr->keep_comps is set.  -1
 * when out of memory. */
int vw_framer_work(vw_framer_t *fr, size_t need);
int vw_framer_comp(vw_framer_t *fr, int x0, int y0, int x1, int y1,
    uint32_t seed, uint32_t pixels);

void vw_text_free(vw_text_t *t);
void vw_text_swap(vw_text_t *a, vw_text_t *b);

/* view: the layer t (of rectangle of) over the part in of it, its mask
 * a view (vw_image_view), its box moved there and cut to it */
void vw_text_view(const vw_text_t *t, const vw_rect_t *of,
    const vw_rect_t *in, vw_text_t *view);

/*
 * Finds the text layer of a grey (cropped) picture into t (reused
 * across calls).  FAILED only when out of memory.
 */
int vw_frame_text(vw_framer_t *fr, const vw_image_t *grey, vw_text_t *t,
    vw_err_t *err);

/*
 * The same for grey, a part of a ref_w x ref_h picture (a screen's text
 * region): its glyphs are judged by the whole picture's size, as they
 * are in it (a glyph is a 60th of its height, ...).
 */
int vw_frame_text_part(vw_framer_t *fr, const vw_image_t *grey, int ref_w,
    int ref_h, vw_text_t *t, vw_err_t *err);

/*
 * Keeps of the bright layer t (of picture g) the lines of glyphs that
 * have ink under them in the frame shown before g or in the one after:
 * strong temporal noise makes chains of glyph-sized specks that one
 * picture takes for lines, but not in the same place in two.  begin,
 * add each frame (a grey picture of t's size; others are passed over),
 * end: the lines that stay, and what lies beside them, remain t, and
 * end returns 1; t is left as it is (0) when no line or every line
 * stays, when no frame had a line where t's are, and when its ink is
 * dark.  FAILED only when out of memory.
 */
typedef struct {
    vw_image_t  keep;       /* t's box: its ink on the frames' lines */
    vw_image_t  ink;        /* a frame's ink over t's rows */
    int         frames;     /* frames added that had lines there */
} vw_persist_t;

int vw_text_persist_begin(const vw_text_t *t, vw_persist_t *pt,
    vw_err_t *err);
int vw_text_persist_add(vw_framer_t *fr, const vw_text_t *t,
    const vw_image_t *other, vw_persist_t *pt, vw_err_t *err);
int vw_text_persist_end(vw_framer_t *fr, const vw_image_t *g, vw_text_t *t,
    vw_persist_t *pt, vw_err_t *err);
void vw_persist_free(vw_persist_t *pt);

/*
 * 1 if pictures a and b (with their text layers) show the same text: the
 * near-identical test of vw_frame_similar passed on the pixels that are
 * ink in either layer (none in both: the same; a layer that lost some
 * or all of its glyphs in noise is judged by the other's),
 * b's pixels taken dx to the right of a's (text that slides).  *diff as
 * for vw_frame_similar (may be NULL).
 */
int vw_frame_same_text(const vw_image_t *a, const vw_text_t *ta,
    const vw_image_t *b, const vw_text_t *tb, int dx, int *diff);

/*
 * The least height of a glyph of the text layer of a picture ref_h
 * pixels tall: 1/VW_TEXT_MIN_HEIGHT_PART of it, VW_TEXT_MIN_HEIGHT at
 * least.
 */
int vw_text_least_height(int ref_h);

/*
 * How far b's glyphs lie to the right of a's (at most max either way),
 * from the columns' ink counts; 0 when either has none.
 */
int vw_text_shift(const vw_text_t *ta, const vw_text_t *tb, int max,
    vw_framer_t *fr);

/*
 * Removes the ink components of a binary image that cannot be glyphs
 * (sizes relative to a ref_w x ref_h picture), those of fewer than
 * min_px pixels and, with border, those touching the edge; box (may be
 * NULL) bounds what remains.  -1 when out of memory.
 */
int vw_frame_blobs(vw_framer_t *fr, vw_image_t *img, int ref_w, int ref_h,
    int min_px, int border, vw_rect_t *box);

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

/* 1 if a and b are near-identical (see above); *diff gets the largest
 * block difference found before deciding (may be NULL). */
int vw_frame_similar(const vw_image_t *a, const vw_image_t *b, int *diff);

/* The same over blocks side by side, not overlapping: blind to a change
 * smaller than a block that two share (a full stop), not to a line of
 * text (vw_screen_unchanged).  Each cell is summed once either way: it
 * is about three quarters of the work, no longer a quarter. */
int vw_frame_similar_coarse(const vw_image_t *a, const vw_image_t *b);

/* How a picture is prepared for Tesseract (see vw_frame.c). */
#define VW_PREP_GREY             0     /* as is */
#define VW_PREP_BRIGHT           1     /* bright pixels as ink */
#define VW_PREP_AUTO             2     /* BRIGHT unless the picture is light */

#define VW_OCR_BRIGHT            180   /* grey level of subtitle glyphs */
#define VW_OCR_UPSCALE_HEIGHT    576   /* videos up to this are upscaled */
#define VW_OCR_UPSCALE_GLYPH_MAX 24    /* unless their glyphs are taller */
#define VW_OCR_SMALL_GLYPH       20    /* glyphs less tall than this are */

/*
 * How much a picture height pixels tall whose text layer found glyphs
 * glyph_h pixels tall (its lines' mean) is scaled up for Tesseract: 2
 * or 1 (see the top of vw_frame.c).
 */
int vw_frame_ocr_scale(int height, int glyph_h);

/*
 * Prepares the part r (NULL: all) of a grey (cropped) picture for
 * Tesseract into out: scale 2 doubles its size, mode says how (AUTO
 * decides between GREY and BRIGHT on the part and *chosen tells which
 * it took).
 */
int vw_frame_for_ocr(vw_framer_t *fr, const vw_image_t *in,
    const vw_rect_t *r, int scale, int mode, vw_image_t *out, int *chosen,
    vw_err_t *err);

/*
 * The same for a picture that is a part of a ref_w x ref_h one (the
 * sizes blob removal judges by); border: remove what touches its edge.
 */
int vw_frame_for_ocr_part(vw_framer_t *fr, const vw_image_t *in, int ref_w,
    int ref_h, int border, int scale, int mode, vw_image_t *out, int *chosen,
    vw_err_t *err);


#endif /* _VW_FRAME_H_INCLUDED_ */
