/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * UTF-8 decoded character by character, never trusting the bytes
 * (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF):
 * the OCR text, the result writers and the pipeline's letter counts
 * all read it so.  libc only.
 */

#ifndef _VW_UTF8_H_INCLUDED_
#define _VW_UTF8_H_INCLUDED_


#include <stddef.h>
#include <stdint.h>


/*
 * Decodes the character at p[0..n), n > 0: returns its code point and
 * sets *len to its length (1-4).  A byte that starts no well-formed
 * character (a stray continuation byte, an overlong form, a surrogate,
 * past U+10FFFF, cut short by n) gives -1 with *len = 1, so a scan
 * always moves forward and never reads past n.  The worker's only
 * decoder (vw_utf8_decode below is its U+FFFD view).
 */
int32_t vw_utf8_next(const unsigned char *p, size_t n, size_t *len);

/*
 * The last character of p[0..n): its code point, or -1 when n is 0 or
 * the bytes do not end with a well-formed character.  The same value a
 * forward scan with vw_utf8_next gives for the last character.
 */
int32_t vw_utf8_last(const unsigned char *p, size_t n);

/*
 * Decodes one UTF-8 sequence of at most n bytes; returns its length (at
 * least 1 when n > 0; 0 with U+FFFD when n is 0).  An ill-formed
 * sequence gives U+FFFD for its first byte.  The writers' view of
 * vw_utf8_next, which holds the rules: the same length, U+FFFD where
 * it gives -1.
 */
size_t vw_utf8_decode(const unsigned char *p, size_t n, uint32_t *cp);


#endif /* _VW_UTF8_H_INCLUDED_ */
