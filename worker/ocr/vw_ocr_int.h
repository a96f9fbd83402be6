/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The OCR room's own header (its contract is vw_ocr.h): what its files
 * share.  Nothing outside ocr/ includes it.
 */

#ifndef _VW_OCR_INT_H_INCLUDED_
#define _VW_OCR_INT_H_INCLUDED_


#include "vw_ocr.h"


#define VW_OCR_DPI           70
#define VW_OCR_MIN_LINE_CONF 50
#define VW_OCR_SURE_WORD     90      /* a word this sure, of */
#define VW_OCR_SURE_LETTERS  4       /* this many letters, keeps its line */
#define VW_OCR_SURE_LINE     85      /* a line read this sure keeps the
                                        words only it has */
#define VW_OCR_VOTE_LETTERS  4       /* a line two readings dropped but
                                        read alike has this many letters */
#define VW_OCR_VOTE_BYTES    128     /* and is no longer */

/*
 * Specks: in a black-on-white picture (the text layer's bright ink,
 * VW_PREP_BRIGHT), black components whose width and height are both at
 * most 1/VW_OCR_SPECK_PART of the median glyph's (components at least
 * VW_OCR_GLYPH_MIN pixels tall or wide) are made white.  Strong grain
 * behind big outlined captions leaves thousands of 1-4 pixel specks
 * around 50 pixel glyphs; Tesseract then reads the lines among them
 * with junk and low confidence, and loses whole lines.  A full stop is
 * about a fifth of a glyph's height, so it stays.
 */
#define VW_OCR_SPECK_PART    8
#define VW_OCR_GLYPH_MIN     8
#define VW_OCR_SPECK_MAX     32

/* engines kept at most (one per language string; the least used goes) */
#define VW_OCR_ENGINES_MAX   8

/* readings of more lines than this are not combined (vw_ocr_merge.c) */
#define VW_OCR_MERGE_LINES   64


/*
 * lang "auto" (vw_ocr_auto.c): Latin is read with at most
 * VW_OCR_AUTO_LATIN languages (eng: eng+spa reads a textured video
 * without text as 7 segments of junk, eng as none); once the script
 * detection has named the job's languages' script VW_OCR_AUTO_CONFIRM times
 * (one is not enough: it calls a line of Cyrillic capitals Latin), a reading at
 * VW_OCR_AUTO_KEEP or more (nothing dropped) needs no detection; a
 * detection below VW_OCR_AUTO_SURE is unsure; another script's
 * reading is better when it says more surely by VW_OCR_AUTO_GAIN
 * (letters x confidence points: "NN" at 55 is 10, a line of 20
 * letters at 90 is 800); the first VW_OCR_AUTO_LINES lines a reading
 * dropped are looked at for another script.
 */
#define VW_OCR_AUTO_LATIN    1
#define VW_OCR_AUTO_CONFIRM  2
#define VW_OCR_AUTO_KEEP     80
#define VW_OCR_AUTO_SURE     0.5f
#define VW_OCR_AUTO_GAIN     50
#define VW_OCR_AUTO_LEAD     10.0f   /* a script whose detections in the
                                        job add up to this much more than
                                        the job's languages' takes over */
#define VW_OCR_AUTO_LETTERS  4       /* a reading of fewer letters (kept
                                        and dropped) is not detected */
#define VW_OCR_AUTO_LINES    4


/* where the traineddata files are when TESSDATA_PREFIX does not say */
#ifndef VW_TESSDATA_DEFAULT
#define VW_TESSDATA_DEFAULT  "/usr/share/tesseract-ocr/5/tessdata"
#endif


/* The Tesseract data directory: TESSDATA_PREFIX, else Debian's
 * (vw_ocr_lang.c). */
const char *vw_ocr_datapath(void);

/* lang[0..len) ("eng", a part of "eng+deu") has its traineddata file
 * (vw_ocr_lang.c). */
int vw_ocr_installed(const char *lang, size_t len);

/* Every part of lang ("eng+deu") has its traineddata file; REJECTED
 * unknown_language when not (vw_ocr_lang.c). */
int vw_ocr_check_lang(const char *lang, const char *name, vw_err_t *err);

/* lang "auto" (vw_ocr_auto.c): a job begins (eng, for the unsure
 * pictures, must be installed: else REJECTED unknown_language); a
 * picture read as vw_ocr_image would with its script's languages. */
int vw_ocr_auto_begin(const char *name, vw_err_t *err);
int vw_ocr_auto_image(const vw_image_t *img, const vw_ocr_how_t *how,
    int timeout_ms, vw_poll_pt poll, void *poll_data, vw_ocr_result_t *r,
    vw_err_t *err);

/* The letters and digits of p[0..n) as a line's are counted (vw_ocr.c). */
int vw_ocr_letters(const char *p, size_t n);

/* img with its black specks of at most speck pixels (0: of its own
 * measure, VW_OCR_SPECK_PART) made white: img itself when none is, or
 * a copy kept until the next call; NULL when out of memory
 * (vw_despeckle.c).  vw_despeckle_free lets the copy go. */
const vw_image_t *vw_despeckle(const vw_image_t *img, int speck);
void vw_despeckle_free(void);


#endif /* _VW_OCR_INT_H_INCLUDED_ */
