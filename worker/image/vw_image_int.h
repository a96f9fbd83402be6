/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The image room's own header (its contract is vw_image.h, vw_frame.h,
 * vw_prep.h, vw_text.h, vw_orient.h and vw_stack.h): the tuning of its
 * tests, each with its unit and what it was measured on, and the
 * functions its files share.  Nothing outside image/ includes it.
 */

#ifndef _VW_IMAGE_INT_H_INCLUDED_
#define _VW_IMAGE_INT_H_INCLUDED_


#include "vw_frame.h"
#include "vw_image.h"
#include "vw_prep.h"
#include "vw_text.h"


/*
 * The byte loops below are what the text layer spends its time in; GCC
 * vectorises them at -O2 only with a cost model that refuses loops of
 * unknown length: ask for its usual one there.  On x86-64 each has an
 * AVX2 clone too, picked when the program starts (32 bytes a step, not
 * 16: the loops take 0.63 of the time on a 1080p video).
 */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define VW_VECTORISE                                                      \
    __attribute__((target_clones("avx2", "default"),                    \
                   optimize("tree-vectorize", "vect-cost-model=dynamic")))
#elif defined(__GNUC__) && !defined(__clang__)
#define VW_VECTORISE  __attribute__((optimize("tree-vectorize",            \
                                              "vect-cost-model=dynamic")))
#else
#define VW_VECTORISE
#endif


/*
 * A picture (cropped, as shown) of more than VW_FRAME_SHRINK_PIXELS is
 * read at half its width and height (vw_frame_shrink): its glyphs then
 * have to be twice VW_TEXT_MIN_HEIGHT tall, and every plane of the
 * pipeline is a quarter of the size (4K: 279 -> 218 MiB peak,
 * docs/benchmarks.md).
 */
#define VW_FRAME_SHRINK_PIXELS   (2560 * 1440)


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


/*
 * The text layer (vw_ink.c, vw_text*.c) and the same-text test
 * (vw_text_same.c).  Levels are 8-bit grey (0 black, 255 white); sizes
 * in pixels of the picture read (after vw_frame_shrink).  Measured on
 * the videos of the benchmark's two sets (docs/benchmarks.md), per
 * block, on pairs of a look and its reference whose truth is the same
 * screen or another: the same screen has a median block score of at
 * most 33 and four blocks in five below 56, another screen a median of
 * at least 77 and four in five above 97 (docs/worker-pipeline.md, "Same
 * text").
 */
#define VW_TEXT_INK_BRIGHT       160   /* level: bright ink is at least */
#define VW_TEXT_OUTLINE          80    /* level: with a pixel at most this */
#define VW_TEXT_RADIUS           3     /* pixels: within this many */
#define VW_TEXT_STROKE_PART      180   /* and within a 180th of the
                                          picture's height (inside its
                                          bars), when that is more, for
                                          a stroke's outline */
#define VW_TEXT_STROKE_SHARE     4     /* strokes count when at least a
                                          quarter of the glyph pixels
                                          are strokes (else all count:
                                          bold titles) */
#define VW_TEXT_LOCAL_LEVEL      40    /* levels: ink by local contrast
                                          stands this far from what is
                                          around it, */
#define VW_TEXT_LOCAL_LOW        20    /* or this far, when nothing
                                          stands farther */
#define VW_TEXT_LOCAL_GLYPHS     6     /* glyphs: a layer of it has at
                                          least (a patch of texture
                                          chains into a short line) */
#define VW_TEXT_LOCAL_TALL       4     /* glyph heights: and its box is
                                          no taller (a line or two) */
#define VW_TEXT_LOCAL_COMPS      8     /* components: with this many of
                                          a glyph's size and no line of
                                          any ink, text may be turned
                                          sideways (vw_turn_look) */
#define VW_TEXT_LOCAL_FEW        4     /* glyphs: fewer of dark ink, on
                                          a picture that is not light,
                                          may be texture, and of bright
                                          ink on a dark one pieces of
                                          coloured lettering: ink by
                                          local contrast is tried */
#define VW_TEXT_LOCAL_GAIN       2     /* and wins with more than this
                                          many times the glyphs */
#define VW_TEXT_STILL_DIFF       12    /* levels: and stands still when
                                          it changes less than this */
#define VW_TEXT_STILL_PART       8     /* when more than an 8th of what
                                          is around it changed so */
#define VW_TEXT_CALM_LEVEL       3     /* quarters: still ink is made
                                          whole at this many quarters
                                          of the way from the level
                                          around a line to its ink's
                                          (vw_text_calm) */
#define VW_TEXT_DARK_DROP        80    /* levels: dark ink is this far
                                          below the median */
#define VW_BAND_LEVEL            112   /* level: a band text is set on
                                          (vw_text_band.c) is at least
                                          this light (an orange bar:
                                          165), */
#define VW_BAND_SPREAD           12    /* levels: its pixels within this
                                          of its level, */
#define VW_BAND_PLAIN_NUM        1     /* in this share of a row, */
#define VW_BAND_PLAIN_DEN        2
#define VW_BAND_MIN              12    /* pixels: at least this tall, */
#define VW_BAND_PART             4     /* at most a quarter of the
                                          picture, */
#define VW_BAND_GAP              48    /* and its plain rows no farther
                                          apart (rows of glyphs between) */
#define VW_TEXT_MIN_PIXELS       3     /* pixels: smaller specks are
                                          noise */
#define VW_TEXT_MIN_HEIGHT       6     /* pixels: a glyph is at least this
                                          tall, whatever the frame (the
                                          short letters of 14 px
                                          subtitles at 720p are) */
#define VW_TEXT_SPECK_HEIGHT     3     /* pixels: a speck is at most this
                                          tall, */
#define VW_TEXT_GRAIN_PART       4096  /* and a picture with more than
                                          one in this many pixels is
                                          grainy: its glyphs are */
#define VW_TEXT_GRAIN_HEIGHT_PART 60   /* at least a 60th of its
                                          height too (its grain makes
                                          glyph-sized specks) */
#define VW_TEXT_LINE_GLYPHS      3     /* glyphs: a line has at least */
#define VW_TEXT_LINE_GAP         3     /* glyph heights: chains on a row
                                          this far apart are one line
                                          (the words of a caption) */
#define VW_TEXT_CHAINS_MAX       1024  /* chains compared for it, at
                                          most (noise makes hundreds) */
#define VW_TEXT_MARK_PART        100   /* a mark beside a line (a dot, a
                                          comma) has at least a 100th of
                                          the square of its height in
                                          pixels */
#define VW_TEXT_MAX_DIFF         64    /* levels: a block this far apart
                                          differs */
#define VW_TEXT_BAD_BLOCKS       3     /* blocks: other text when this
                                          many differ, */
#define VW_TEXT_BAD_PART         20    /* and this % of the inked ones, */
#define VW_TEXT_BAD_RUN          8     /* or this many side by side (a
                                          changed word), */
#define VW_TEXT_FAR_DIFF         128   /* or blocks this far apart */
#define VW_TEXT_FAR_RUN          2     /* this many side by side, */
#define VW_TEXT_GLYPH_DIFF       48    /* or a glyph that changed: a
                                          square of blocks 2/3 of a glyph
                                          a side this far apart on
                                          average (levels) */
#define VW_TEXT_LINE_DIFF        80    /* and this far over a line two
                                          layers agree on, when they
                                          do not agree as a whole */
#define VW_TEXT_GLYPH_ROWS       8     /* blocks: that square's side at
                                          most, */
#define VW_TEXT_STEADY_PX        2     /* pixels: between layers of as
                                          many glyphs on rows this close */
#define VW_TEXT_MAX_COLUMNS      1024  /* block columns followed for it */
#define VW_TEXT_BLOCK_INK        16    /* pixels: a block with less ink
                                          has no say */
#define VW_TEXT_SLIDE_PART       16    /* text slides at most a 16th of
                                          the picture's width between two
                                          pictures compared (a ticker) */
#define VW_TEXT_FADE_MIN         16    /* levels: glyphs that stand out
                                          less from their box tell no
                                          fade (vw_text_faded) */


/*
 * Letterbox and pillarbox bars (vw_bars.c): rows or columns at an edge
 * of which all but a 1/VW_BARS_LIGHT_PART are at most VW_BARS_LEVEL
 * (black after compression, with a subtitle set in them), in pairs of
 * at least 1/VW_BARS_MIN_PART of the side each, within a quarter of
 * each other, around a picture of at least 1/VW_BARS_PIC_PART of it.
 * Measured on the real-like set's letterboxed vertical frames
 * (bench/ocr/lib/OCRReal.pm): bars of level 0, 1 near the picture's
 * edge, 437 rows each of 1280; 19 px subtitles in one leave a row 7-15 %
 * light.
 */
#define VW_BARS_LEVEL            16
#define VW_BARS_LIGHT_PART       4
#define VW_BARS_MIN_PART         32
#define VW_BARS_PIC_PART         4


/*
 * A picture prepared for Tesseract (vw_prep.c; the measurements are in
 * docs/worker-pipeline.md, "Preparing the picture"): levels are 8-bit
 * grey, heights in pixels of the picture read.
 */
#define VW_PREP_INK_LEVEL         180   /* level: bright glyphs are at
                                           least this (subtitles); a
                                           picture more than half this
                                           light has dark text */
#define VW_PREP_UPSCALE_HEIGHT    576   /* pixels: pictures up to this
                                           tall are read at twice the
                                           size, */
#define VW_PREP_UPSCALE_GLYPH_MAX 24    /* unless their glyphs are
                                           taller than this; */
#define VW_PREP_SMALL_GLYPH       20    /* glyphs less tall than this are,
                                           whatever the picture's size */
#define VW_PREP_DARK_LEVEL        96    /* level: a line of dark ink whose
                                           levels are not known is cut
                                           here (vw_prep_line) */

/*
 * Blob removal (vw_prep_blobs): what cannot be a glyph, as parts of the
 * picture it is judged by: solid (more than half its box) and large
 * (the box more than 1/VW_BLOB_LARGE_PART of the picture); nearly solid
 * (VW_BLOB_SOLID_TENTHS tenths) and at least VW_BLOB_SOLID_PX pixels a
 * side; wider than VW_BLOB_WIDE_TENTHS tenths of the picture, or taller
 * than half of it.
 */
#define VW_BLOB_LARGE_PART        64
#define VW_BLOB_SOLID_TENTHS      9
#define VW_BLOB_SOLID_PX          24
#define VW_BLOB_WIDE_TENTHS       6


/* The framer's work space for a picture of need pixels (seen, queue);
 * a component kept by vw_prep_blobs when fr->keep_comps is set.  -1
 * when out of memory. */
int vw_framer_work(vw_framer_t *fr, size_t need);
int vw_framer_comp(vw_framer_t *fr, int x0, int y0, int x1, int y1,
    uint32_t seed, uint32_t pixels);

/*
 * Removes the ink components of a binary image that cannot be glyphs
 * (sizes relative to a ref_w x ref_h picture), those of fewer than
 * min_px pixels and, with border, those touching the edge; box (may be
 * NULL) bounds what remains.  -1 when out of memory.
 */
int vw_prep_blobs(vw_framer_t *fr, vw_image_t *img, int ref_w, int ref_h,
    int min_px, int border, vw_rect_t *box);

/* The ink of a grey picture into m (vw_ink.c): bright ink with its
 * outline, *ink the count of its pixels; dark ink at least level below
 * the median; the strokes of a bright layer that comparisons count. */
void vw_ink_bright(vw_framer_t *fr, const vw_image_t *g, vw_image_t *m,
    size_t *ink);
void vw_ink_dark(const vw_image_t *g, vw_image_t *m, int level, size_t *ink);
void vw_ink_strokes(vw_framer_t *fr, const vw_image_t *g, int ref_h,
    vw_text_t *t);

/* The picture inside the letterbox or pillarbox bars of grey g (g's
 * own rectangle when it has none; vw_bars.c). */
void vw_bars_find(const vw_image_t *g, vw_rect_t *pic);
/* dst[i] = min(dst[i], src[i]) (vw_ink_min), max (vw_ink_max), i < n;
 * the buffers do not overlap (vw_ink.c; vectorised) */
void vw_ink_min(uint8_t *restrict dst, const uint8_t *restrict src, size_t n);
void vw_ink_max(uint8_t *restrict dst, const uint8_t *restrict src, size_t n);

/* Ink by local contrast (vw_text_local.c): the opening (a bright
 * polarity; the closing for dark) of g by a square of 2r + 1 into o,
 * and m's ink at least level from it; the text layer it makes, of more
 * than beat glyphs, light ink only if light (none: t has no box). */
void vw_ink_open(vw_framer_t *fr, const vw_image_t *g, int polarity, int r,
    vw_image_t *o);
void vw_ink_contrast(const vw_image_t *g, const vw_image_t *o, vw_image_t *m,
    int polarity, int level, size_t *ink);
int vw_text_local(vw_framer_t *fr, const vw_image_t *g, int ref_w, int ref_h,
    int beat, int light, vw_text_t *t, vw_err_t *err);

/* The median level of a histogram of n pixels (vw_prep.c). */
int vw_prep_level(const uint32_t *hist, uint32_t n);

/* The lines of glyphs of an ink mask (vw_text_lines.c): what is not a glyph
 * of a line, or beside one, is erased; out's box, glyph_h, glyphs,
 * lines, line[] (of the polarity given) and nline describe what stays,
 * and comps is raised to the glyph-sized components if fewer (out's
 * mask is not touched).  -1 when out of memory. */
int vw_text_lines(vw_framer_t *fr, vw_image_t *m, int ref_w, int ref_h,
    int polarity, vw_text_t *out);

/* The lines of dark ink on the light bands across picture pg (the
 * picture inside the bars, judged as ref_w x ref_h) added to t, a layer
 * of bright ink (vw_text_band.c): 1 if there were any, 0 if not, -1
 * when out of memory. */
int vw_text_band(vw_framer_t *fr, const vw_image_t *pg, int ref_w,
    int ref_h, vw_text_t *t);

/* The lines of part, a layer found in a view at (dx, dy) of t's
 * picture, into t (glyph_h, glyphs, lines, line[], nline), moved there;
 * t's box is the caller's (vw_text.c). */
void vw_text_take_lines(vw_text_t *t, const vw_text_t *part, int dx, int dy);


#endif /* _VW_IMAGE_INT_H_INCLUDED_ */
