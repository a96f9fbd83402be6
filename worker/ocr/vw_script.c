/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Scripts in the OCR text (see vw_script.h): the Unicode blocks of the
 * CJK scripts, and the space rule between two words of a line with the
 * blanks Tesseract wrote between them.
 */

#include <string.h>

#include "core/vw_utf8.h"
#include "vw_script.h"


typedef struct {
    int32_t  lo, hi;
    int      cls;
    int      han;       /* a block of Han characters (ideographs) */
} vw_script_range_t;


static const vw_script_range_t *vw_script_range(int32_t cp);


/* Sorted, not overlapping: vw_script_range searches it by halves. */
static const vw_script_range_t  vw_script_ranges[] = {
    { 0x1100, 0x11ff, VW_SCRIPT_HANGUL, 0 },  /* Hangul Jamo */
    { 0x2e80, 0x2fdf, VW_SCRIPT_CJK, 0 },     /* radicals, Kangxi */
    { 0x2ff0, 0x303f, VW_SCRIPT_CJK, 0 },     /* ideographic description,
                                                 CJK symbols, punctuation */
    { 0x3040, 0x30ff, VW_SCRIPT_CJK, 0 },     /* Hiragana, Katakana */
    { 0x3100, 0x312f, VW_SCRIPT_CJK, 0 },     /* Bopomofo */
    { 0x3130, 0x318f, VW_SCRIPT_HANGUL, 0 },  /* Hangul compatibility Jamo */
    { 0x3190, 0x31ff, VW_SCRIPT_CJK, 0 },     /* Kanbun, strokes, Katakana
                                                 phonetic extensions */
    { 0x3200, 0x33ff, VW_SCRIPT_CJK, 0 },     /* enclosed CJK, compatibility */
    { 0x3400, 0x4dbf, VW_SCRIPT_CJK, 1 },     /* Han extension A */
    { 0x4e00, 0x9fff, VW_SCRIPT_CJK, 1 },     /* Han */
    { 0xa960, 0xa97f, VW_SCRIPT_HANGUL, 0 },  /* Hangul Jamo extended A */
    { 0xac00, 0xd7af, VW_SCRIPT_HANGUL, 0 },  /* Hangul syllables */
    { 0xd7b0, 0xd7ff, VW_SCRIPT_HANGUL, 0 },  /* Hangul Jamo extended B */
    { 0xf900, 0xfaff, VW_SCRIPT_CJK, 1 },     /* Han compatibility */
    { 0xfe30, 0xfe4f, VW_SCRIPT_CJK, 0 },     /* CJK compatibility forms */
    { 0xff00, 0xff9f, VW_SCRIPT_CJK, 0 },     /* fullwidth forms, halfwidth
                                                 Katakana */
    { 0xffa0, 0xffdc, VW_SCRIPT_HANGUL, 0 },  /* halfwidth Hangul */
    { 0x20000, 0x2fa1f, VW_SCRIPT_CJK, 1 },   /* Han extensions B-F,
                                                 compatibility supplement */
    { 0x30000, 0x323af, VW_SCRIPT_CJK, 1 },   /* Han extensions G, H */
};


int
vw_script_class(int32_t cp)
{
    const vw_script_range_t  *r;

    r = vw_script_range(cp);

    return r != NULL ? r->cls : VW_SCRIPT_OTHER;
}


int
vw_script_han(int32_t cp)
{
    const vw_script_range_t  *r;

    r = vw_script_range(cp);

    return r != NULL && r->han;
}


/* The range cp is in, NULL when none: the table searched by halves. */
static const vw_script_range_t *
vw_script_range(int32_t cp)
{
    size_t  lo, hi, mid;

    lo = 0;
    hi = sizeof(vw_script_ranges) / sizeof(vw_script_ranges[0]);

    while (lo < hi) {
        mid = lo + (hi - lo) / 2;

        if (cp < vw_script_ranges[mid].lo) {
            hi = mid;

        } else if (cp > vw_script_ranges[mid].hi) {
            lo = mid + 1;

        } else {
            return &vw_script_ranges[mid];
        }
    }

    return NULL;
}


int
vw_script_blanks(const char *line, size_t n, size_t *at, const char *word,
    size_t wlen)
{
    size_t       i, blanks;
    const char  *w;

    if (wlen == 0 || *at > n) {
        return -1;
    }

    w = memmem(line + *at, n - *at, word, wlen);
    if (w == NULL) {
        return -1;
    }

    blanks = 0;

    for (i = *at; line + i < w; i++) {
        blanks += line[i] == ' ';
    }

    *at = (size_t) (w - line) + wlen;

    return blanks > INT32_MAX ? INT32_MAX : (int) blanks;
}


int
vw_script_space(const char *a, size_t alen, const char *b, size_t blen,
    int blanks)
{
    int      ca, cb;
    size_t   len;

    ca = vw_script_class(vw_utf8_last((const unsigned char *) a, alen));
    cb = vw_script_class(blen ? vw_utf8_next((const unsigned char *) b, blen,
                                             &len)
                              : -1);

    if (ca == VW_SCRIPT_OTHER || cb == VW_SCRIPT_OTHER) {
        return 1;
    }

    if (ca == VW_SCRIPT_CJK && cb == VW_SCRIPT_CJK) {
        return 0;
    }

    /* Hangul beside Hangul or Han: a word space where Tesseract saw one */

    return blanks != 0;
}
