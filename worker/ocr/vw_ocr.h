/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * The OCR stage: Tesseract through its C API.
 *
 * One engine per language string ("eng", "eng+deu"), created on first
 * use and kept for the life of the process (an engine takes a fraction
 * of a second and tens of megabytes to load, so a worker child reuses it
 * across frames and jobs).  Each recognition runs under a monitor with a
 * deadline: a runaway recognition is cancelled and the frame gets an
 * empty text and the timed_out flag instead of failing the job.
 */

#ifndef _VW_OCR_H_INCLUDED_
#define _VW_OCR_H_INCLUDED_


#include "vo_edge.h"
#include "core/vw_core.h"
#include "image/vw_image.h"


typedef struct vw_engine_s  vw_engine_t;

/* a line of a reading: its box in the recognised picture's pixels, the
 * box of its words that have a letter or digit (a stray mark read beside
 * them is none: w = 0 when no word has), the mean confidence of its
 * words */
typedef struct {
    vw_rect_t  box;
    vw_rect_t  letters;
    int        confidence;
} vw_ocr_line_t;

typedef struct {
    char           *text;      /* malloc'd UTF-8, "" when nothing was read */
    int             confidence;    /* 0..100, mean over the words kept */
    int             timed_out;     /* the deadline cancelled the
                                      recognition */
    int64_t         ms;            /* wall time spent */
    vw_ocr_line_t  *lines;         /* malloc'd: the lines of text, in
                                      order (NULL: none) */
    int             nlines;
    int             words;         /* words Tesseract found, the lines
                                      dropped included: 0 when its page
                                      layout found no text at all */
    vw_ocr_line_t  *dropped;       /* malloc'd: the lines dropped as
                                      unsure that have a letter or digit,
                                      in order (NULL: none) */
    int             ndropped;
    char           *dropped_text;  /* malloc'd: their texts, "\n"
                                      between (NULL: none) */
} vw_ocr_result_t;


/*
 * The engine for lang (a valid vo_options lang), loading it on first
 * use.  Rejects unknown_language when a part has no traineddata file;
 * FAILED when Tesseract cannot load a file that exists.  name is the
 * object the messages talk about.  "auto" gives the engine that reads
 * each picture with the languages of its script (vw_ocr_auto.c) and
 * begins a job with it: the languages the job before settled on are
 * forgotten.
 */
int vw_ocr_engine(const char *lang, const char *name, vw_engine_t **e,
    vw_err_t *err);

/*
 * How Tesseract finds the text in the picture: its page layout (blocks,
 * columns, lines), the whole picture as one block of lines, or as one
 * line.  The layout sometimes finds no block in a strip of text that
 * reads right as one: a line of Korean in 60 px glyphs gives "Empty
 * page" (Tesseract 5.3, kor), three Chinese characters nothing.
 */
#define VW_OCR_LAYOUT_AUTO   0
#define VW_OCR_LAYOUT_BLOCK  1
#define VW_OCR_LAYOUT_LINE   2     /* the picture is one line of text */

/*
 * How a picture is read: its layout (VW_OCR_LAYOUT_*), and the specks
 * erased from a black and white picture first, black components whose
 * extent (the larger of width and height) is at most speck pixels, at
 * least (0: the picture's own measure only, VW_OCR_SPECK_PART in
 * vw_ocr.c).
 */
typedef struct {
    int  layout;
    int  speck;
} vw_ocr_how_t;

/* the page layout, specks by the picture's own measure */
extern const vw_ocr_how_t  vw_ocr_plain;

/*
 * Recognises img, read as how says.
 * timeout_ms bounds the recognition (0: no bound);
 * poll is called while Tesseract works (about once per word, rate
 * limited by the caller) and a non-zero return stops with VW_STOPPED.
 * On success r->text and r->lines must be released with
 * vw_ocr_result_free.
 */
int vw_ocr_image(vw_engine_t *e, const vw_image_t *img,
    const vw_ocr_how_t *how, int timeout_ms, vw_poll_pt poll,
    void *poll_data, vw_ocr_result_t *r, vw_err_t *err);

void vw_ocr_result_free(vw_ocr_result_t *r);

/* *to gets a copy of *from (its own text and lines): 0, or -1 when out
 * of memory (*to is then empty). */
int vw_ocr_result_copy(vw_ocr_result_t *to, const vw_ocr_result_t *from);

/*
 * Two readings of one picture combined line by line (each line from
 * the better of the two, the lines only one has added where they are,
 * and a line both dropped as unsure but read alike; not for readings
 * of many lines): 1 and *out when that has more lines than a (or, with
 * replace, as many, one of them b's), 0 when not, -1 when out of
 * memory.  *out is released with vw_ocr_result_free.
 */
int vw_ocr_result_merge(const vw_ocr_result_t *a, const vw_ocr_result_t *b,
    int replace, vw_ocr_result_t *out);

/*
 * The installed languages (a traineddata file in the Tesseract data
 * directory, TESSDATA_PREFIX or Debian's; "osd" is not a language), at
 * most max, sorted; returns how many.
 */
int vw_ocr_languages(char (*langs)[VO_LANG_MAX + 1], int max);

/* The same as {"languages":["deu","eng",...]}\n into buf; -1 if short. */
int vw_ocr_languages_json(char *buf, size_t size);

/*
 * Writes dir/languages.json (through a temporary file and a rename):
 * "video-ocr-worker run" does it in its store at start, so the site can
 * serve what the pool reads (docs/upload-page.md).  -1 with errno.
 */
int vw_ocr_languages_publish(const char *dir);

/* Ends and frees every engine (tests, clean exit). */
void vw_ocr_shutdown(void);


/*
 * Tesseract's orientation and script detection on a picture prepared for
 * OCR (black ink on white; vw_osd.c): *turns gets the quarter turns
 * clockwise that make its text upright and *conf Tesseract's
 * confidence.  Returns 0, or 1 when Tesseract found too little to tell
 * (or has no osd.traineddata); -1 only when out of memory.  The OSD
 * engine is loaded on first use and kept (vw_osd_shutdown frees it).
 */
int vw_osd_detect(const vw_image_t *img, int *turns, float *conf,
    vw_err_t *err);

/*
 * The same detection for the script: *script gets the name Tesseract
 * gives the script of most of the text ("Latin", "Han", "Cyrillic",
 * "Japanese", "Hangul", ...; its own string, never freed) and *conf its
 * confidence.  Returns as vw_osd_detect (*script NULL when not 0).
 */
int vw_osd_script(const vw_image_t *img, const char **script, float *conf,
    vw_err_t *err);

void vw_osd_shutdown(void);


#endif /* _VW_OCR_H_INCLUDED_ */
