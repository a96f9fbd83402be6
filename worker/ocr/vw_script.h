/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Scripts in the OCR text: UTF-8 decoded character by character (never
 * trusting the bytes), the class of a character (CJK, Hangul, other),
 * and whether two neighbouring words of a line are separated by a space.
 *
 * Why: Tesseract cuts a line of Chinese or Japanese into "words" at the
 * gaps between glyphs and prints a space between them ("我 们 的 产品"),
 * though these scripts write no spaces at all.  Korean does write
 * spaces between words, but Tesseract also cuts inside them ("날 씨 가"
 * for "날씨가"), at gaps between syllables as wide as word spaces: there
 * the blanks in Tesseract's own text of the line decide.
 */

#ifndef _VW_SCRIPT_H_INCLUDED_
#define _VW_SCRIPT_H_INCLUDED_


#include <stddef.h>
#include <stdint.h>


#define VW_SCRIPT_OTHER   0
#define VW_SCRIPT_CJK     1     /* Han, kana, CJK and fullwidth punctuation */
#define VW_SCRIPT_HANGUL  2


/* VW_SCRIPT_CJK, VW_SCRIPT_HANGUL or VW_SCRIPT_OTHER (also for -1). */
int vw_script_class(int32_t cp);

/* 1 if cp is a Han character (an ideograph, of CJK's blocks), else 0. */
int vw_script_han(int32_t cp);

/*
 * The blanks before word (wlen > 0 bytes) in line[0..n), the text
 * Tesseract gives for the whole line, searched from *at on: the spaces
 * between *at and where the word next appears, *at then moving past the
 * word.  -1, *at unchanged, when the word is not there (or wlen is 0).
 * Tesseract's word iterator cuts words where its line text has no
 * space; with preserve_interword_spaces (set by the kor, chi_sim and
 * jpn models) the line text keeps the spaces its recognizer saw.
 */
int vw_script_blanks(const char *line, size_t n, size_t *at,
    const char *word, size_t wlen);

/*
 * Whether the words a and b, neighbours in a line (a before b), are
 * written with a space between them: 0 when a's last and b's first
 * characters are both CJK; for Hangul (on either side, the other CJK or
 * Hangul) 0 when blanks, the count vw_script_blanks gave for b, is 0; 1
 * otherwise (Latin, Cyrillic, digits, bad UTF-8, blanks unknown: -1).
 */
int vw_script_space(const char *a, size_t alen, const char *b, size_t blen,
    int blanks);

#endif /* _VW_SCRIPT_H_INCLUDED_ */
