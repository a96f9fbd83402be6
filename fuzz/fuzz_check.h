/*
 * Copyright (c) 2026, the video-ocr authors
 *
 * Checks the fuzz targets share, written independently of the code they
 * check: a strict UTF-8 validator, a strict JSON (RFC 8259) syntax
 * checker, a picture box's definition, and FUZZ_CHECK, which aborts with
 * the failed condition so that libFuzzer saves the input as a crash;
 * and the reader of the bytes that drive a target.
 */

#ifndef _FUZZ_CHECK_H_INCLUDED_
#define _FUZZ_CHECK_H_INCLUDED_


#include <stddef.h>
#include <stdint.h>


#define FUZZ_CHECK(cond)                                                      \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fuzz_fail(__FILE__, __LINE__, #cond);                             \
        }                                                                     \
    } while (0)


void fuzz_fail(const char *file, int line, const char *what)
    __attribute__((noreturn));

/*
 * The length of the well-formed UTF-8 sequence at p (1..4), or 0 for an
 * ill-formed one (overlong, surrogate, above U+10FFFF, truncated).  The
 * code point goes to *cp.
 */
size_t fuzz_utf8_seq(const unsigned char *p, size_t n, uint32_t *cp);

/* 1 if the n bytes at p are well-formed UTF-8. */
int fuzz_utf8_valid(const unsigned char *p, size_t n);

/*
 * 1 if the n bytes at p are exactly one JSON value (surrounding
 * whitespace allowed), with well-formed UTF-8 and no raw control
 * characters in its strings.
 */
int fuzz_json_valid(const char *p, size_t n);

/*
 * Decodes the JSON string literal at p (quotes included, n bytes) into
 * out as UTF-8; returns its length, or (size_t) -1 when p is not exactly
 * one valid string literal.  out must hold n bytes.
 */
size_t fuzz_json_unquote(const char *p, size_t n, char *out);

/*
 * 1 if x, y, w, h is a box inside a picture of max_side pixels a side
 * (x, y >= 0, w, h > 0): the worker's results' boxes (VW_MAX_SIDE).
 */
int fuzz_box_within(int x, int y, int w, int h, int max_side);


/* the bytes left of a target's input */
typedef struct {
    const uint8_t  *p;
    size_t          n;
} fuzz_in_t;

/* The next byte, 0 once there is none. */
unsigned fuzz_byte(fuzz_in_t *in);


#endif /* _FUZZ_CHECK_H_INCLUDED_ */
