/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The text layer of a grey picture (vw_text.c, vw_text_lines.c,
 * vw_ink.c, vw_text_local.c, vw_text_calm.c): where its glyphs are,
 * found without Tesseract; whether two pictures show the
 * same text (vw_text_same.c); and the lines the frames beside a picture
 * have too (vw_text_persist.c).
 */

#ifndef _VW_TEXT_H_INCLUDED_
#define _VW_TEXT_H_INCLUDED_


#include "core/vw_core.h"
#include "vw_frame.h"
#include "vw_image.h"


/*
 * The text layer of a picture (the files above): where its glyphs
 * are, found without Tesseract.  mask is 0 on glyph pixels, 255 elsewhere (the
 * picture's size); box bounds the glyphs (w = 0: none were found);
 * polarity tells which kind of ink they are.
 */
#define VW_TEXT_NONE             0
#define VW_TEXT_BRIGHT           1     /* light, with a dark outline/box */
#define VW_TEXT_DARK             2     /* dark, on a light or plain picture */

/* the lines of a layer recorded one by one, at most */
#define VW_TEXT_LINES_MAX        16


/*
 * A line of a layer: chains of glyphs side by side (vw_text_chained)
 * that lie on one row no more than a few glyph heights apart; its box
 * bounds its glyphs (not the marks beside them).
 */
typedef struct {
    vw_rect_t   box;
    int         polarity;
    int         glyph_h;    /* the mean height of its glyphs */
    int         glyphs;
} vw_text_line_t;


typedef struct {
    vw_image_t  mask;
    vw_rect_t   box;
    int         polarity;
    int         local;      /* ink by local contrast (vw_text_local.c) */
    int         glyph_h;    /* the mean height of the lines' glyphs */
    int         glyphs;     /* how many there are */
    int         lines;      /* the lines of text they make (0: none) */
    int         comps;      /* glyph-sized ink components, in lines
                               or not */
    int         grainy;     /* the ink last chained was a grainy
                               picture's (vw_text_lines) */
    vw_text_line_t  line[VW_TEXT_LINES_MAX];  /* its lines, top down
                               (the first VW_TEXT_LINES_MAX) */
    int         nline;
    vw_rect_t   pic;        /* the picture its rules judged: inside the
                               letterbox or pillarbox bars (the whole
                               picture of a part: its ref_w x ref_h) */
} vw_text_t;


void vw_text_free(vw_text_t *t);
void vw_text_swap(vw_text_t *a, vw_text_t *b);

/* view: the layer t (of rectangle of) over the part in of it, its mask
 * a view (vw_image_view), its box moved there and cut to it */
void vw_text_view(const vw_text_t *t, const vw_rect_t *of,
    const vw_rect_t *in, vw_text_t *view);

/*
 * Finds the text layer of a grey (cropped) picture into t (reused
 * across calls): glyphs anywhere in it, judged by the picture inside
 * its letterbox or pillarbox bars, if it has them (t->pic).  FAILED
 * only when out of memory.
 */
int vw_text_find(vw_framer_t *fr, const vw_image_t *grey, vw_text_t *t,
    vw_err_t *err);

/*
 * The same for grey, a part of a ref_w x ref_h picture (a screen's text
 * region): its glyphs are judged by the whole picture's size, as they
 * are in it (a blob wider than most of it is no glyph, ...).
 */
int vw_text_find_part(vw_framer_t *fr, const vw_image_t *grey, int ref_w,
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
void vw_text_persist_free(vw_persist_t *pt);

/*
 * Keeps of a layer t of ink by local contrast (t->local; of picture g)
 * the glyphs that stand still in other, a frame shown a little before
 * it (of g's size), when the picture around them moved: text stays
 * while the texture behind it moves.  1 if t changed (it may have no
 * line left), 0 if not, FAILED when out of memory.
 */
int vw_text_still(vw_framer_t *fr, const vw_image_t *g,
    const vw_image_t *other, vw_text_t *t);

/*
 * Finds in a look's picture g whose layer t has no line, or a few
 * glyphs only (vw_text_calm_wanted), the lines of ink by local contrast
 * that stand still in both before and after (frames shown around g, of
 * its size) while the picture moves: light text with no outline over
 * texture of its own levels.  1 if they became t, 0 if t is as it was,
 * FAILED when out of memory.  after is work space: it may be left
 * holding what moved instead.
 */
int vw_text_calm_wanted(const vw_text_t *t);
int vw_text_calm(vw_framer_t *fr, const vw_image_t *g,
    const vw_image_t *before, vw_image_t *after, vw_text_t *t);

/*
 * 1 if pictures a and b (with their text layers) show the same text: the
 * near-identical test of vw_image_similar passed on the pixels that are
 * ink in either layer (none in both: the same; a layer that lost some
 * or all of its glyphs in noise is judged by the other's),
 * b's pixels taken dx to the right of a's (text that slides).  *diff as
 * for vw_image_similar (may be NULL).
 */
int vw_text_same(const vw_image_t *a, const vw_text_t *ta,
    const vw_image_t *b, const vw_text_t *tb, int dx, int *diff);

/*
 * 1 if the glyphs of layer ta (of picture a) have faded in picture b
 * (of a's size): their pixels stand out from the rest of ta's box, on
 * average and the way they do in a, by less than half as much as in a.
 * Text that fades out over a plain picture leaves it much as its first
 * dim frames were: glyphs a few tens of levels from the picture, nearer
 * to it than vw_text_same tells, so a title whose screen began in its
 * fade-in went on over the black after it.
 */
int vw_text_faded(const vw_image_t *a, const vw_text_t *ta,
    const vw_image_t *b);

/*
 * The least height of a glyph of the text layer, in pixels, whatever
 * the picture's size (VW_TEXT_MIN_HEIGHT).
 */
int vw_text_least_height(void);

/*
 * 1 if two ink components of sizes a and b across a line (heights; or
 * widths, for a line written downwards), overlapping by ov along it and
 * gap apart, are neighbours in one line of text: an overlap of at least
 * half the smaller, a gap of at most 1.5 times the larger, sizes within
 * a factor of 2.5.
 */
int vw_text_chained(int a, int b, int ov, int gap);

/* 1 if a line of layer t lies on some of the rows of box. */
int vw_text_on_rows(const vw_text_t *t, const vw_rect_t *box);

/* Sorts n lines top down (by their middles), then left to right. */
void vw_text_lines_sort(vw_text_line_t *l, int n);

/* The most text is taken to slide between two pictures width pixels
 * wide that are compared (vw_text_shift's max). */
int vw_text_slide_max(int width);

/*
 * How far b's glyphs lie to the right of a's (at most max either way),
 * from the columns' ink counts; 0 when either has none.
 */
int vw_text_shift(const vw_text_t *ta, const vw_text_t *tb, int max,
    vw_framer_t *fr);


#endif /* _VW_TEXT_H_INCLUDED_ */
