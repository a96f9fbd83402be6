/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Folding: the form of a text that search compares (issue 41).  A
 * segment's text is folded when it is indexed and a query when it is
 * asked, by the same function, so that both meet in one alphabet:
 *
 *   - case folded, accents and other combining diacritics dropped
 *     ("Émile" and "EMILE" are "emile"), and letters without a
 *     decomposition taken to their base letter ("ø", "ł", "æ");
 *   - compatibility forms to their plain letters: full-width and
 *     half-width forms ("ＰＲＩＣＥ" is "price", half-width katakana
 *     full-width), ligatures, circled and mathematical letters, Arabic
 *     presentation forms;
 *   - everything that is not a letter, a mark or a number (punctuation,
 *     symbols, spaces, controls, invalid UTF-8) separates words: a run
 *     of them is one space;
 *   - the result starts and ends with a space, so " word " matches a
 *     whole word only.
 *
 * With VO_FOLD_SPACED the characters of the scripts written without
 * spaces (Han, kana, Hangul, bopomofo) are words of their own, so any
 * piece of such a line, one or two characters too, is a phrase of
 * words that the index (trigrams) can find.
 *
 * Folding is idempotent: a folded text folds to itself.  The tables are
 * lib/vo_fold_table.h, made by lib/vo_fold_table.py.  Plain C, libc only.
 */

#ifndef _VO_FOLD_H_INCLUDED_
#define _VO_FOLD_H_INCLUDED_


#include <stddef.h>
#include <stdint.h>

#include "vo_json.h"


#define VO_FOLD_SPACED  1


/*
 * Appends the folded form of the UTF-8 text in[0, len) to out.  With map
 * not NULL, appends to it, for every byte appended to out, the index of
 * the code point of in it comes from (a uint32_t each), which takes a
 * match in the folded text back to the text as it was.  Failed
 * allocations latch the buffers' failed flags.
 */
void vo_fold(vo_buf_t *out, const char *in, size_t len, unsigned flags,
    vo_buf_t *map);

/*
 * The code point at p (n > 0 bytes left) and its length in *len: invalid
 * or truncated UTF-8, an overlong form or a surrogate is U+FFFD, one
 * byte long.
 */
uint32_t vo_utf8_next(const unsigned char *p, size_t n, size_t *len);

/* cp as UTF-8 at p (room for 4 bytes); its length. */
size_t vo_utf8_put(char *p, uint32_t cp);

/* Code points in a UTF-8 text (each invalid byte counts as one). */
size_t vo_utf8_count(const char *s, size_t n);

/* Whether cp belongs to a script written without spaces (Han, kana...). */
int vo_fold_spaced(uint32_t cp);


#endif /* _VO_FOLD_H_INCLUDED_ */
